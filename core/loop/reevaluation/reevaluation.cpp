#include "reevaluation.h"

#include "task/task.h"

#include "backend/evaluationbackend.h"
#include "eval/cudakernelevaluator.h"
#include "eval/taskregistry.h"
#include "model/cell.h"
#include "store/projectstore.h"
#include "store/storeawait.h"

#include <QDateTime>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSysInfo>
#include <QTemporaryDir>

#include <algorithm>
#include <cmath>

namespace dreamrsi {

namespace {

/// The built-in evaluator a task runs: its own name, or the one a task
/// folder's task.json names; empty for a folder's command or an unreadable folder.
QString evaluatorOf(const QString &task)
{
    if (!task.contains(QLatin1Char('/')))
        return task;
    QFile file(task + QStringLiteral("/task.json"));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(file.readAll()).object().value(QStringLiteral("evaluator")).toString();
}

/// The cell's stored program: the program artifact the round stored under
/// the workspace's file name, else the program kept in the cell's payload.
/// Empty with `why` set when neither is there.
QByteArray storedProgram(ProjectStore *store, IterationId iteration, const Cell &cell, const QString &fileName,
                         QString *why)
{
    QString artifactProblem;
    const StoreResult<QList<ArtifactRef>> refs = await(store->cellArtifacts(iteration, cell.id));
    if (refs) {
        for (const ArtifactRef &ref : *refs.value) {
            if (ref.name != fileName)
                continue;
            const StoreResult<QByteArray> bytes = await(store->readArtifact(ref.hash));
            if (bytes && !bytes.value->isEmpty())
                return *bytes.value;
            artifactProblem = bytes ? QStringLiteral("its program artifact is empty") : bytes.error;
        }
    }
    const QString kept = cell.program();
    if (!kept.isEmpty())
        return kept.toUtf8();
    *why = artifactProblem.isEmpty()
               ? QStringLiteral("no program is stored for it")
               : QStringLiteral("its program cannot be read: %1").arg(artifactProblem);
    return {};
}

} // namespace

int ReevaluationPlan::runnable() const
{
    return int(std::count_if(targets.cbegin(), targets.cend(), [](const ReevaluationTarget &t) { return t.skipped.isEmpty(); }));
}

QString Reevaluation::whyNotHere(const QString &task)
{
    if (evaluatorOf(task) == QLatin1String("cuda_kernels") && !CudaKernelEvaluator::gpuDevicePresent())
        return QStringLiteral("its task needs a GPU and this machine has none");
    return {};
}

Result<ReevaluationPlan> Reevaluation::plan(ProjectStore *store, const ReevaluationSelection &selection, bool localBackend)
{
    using R = Result<ReevaluationPlan>;
    if (selection.top < 0)
        return R::failure(QStringLiteral("the number of best cells must be at least 1 (got %1)").arg(selection.top));
    if (selection.top == 0 && selection.cellIds.isEmpty())
        return R::failure(QStringLiteral("name the cells to re-evaluate, or how many of the best"));
    IterationId iteration = selection.iteration;
    if (iteration == 0) {
        const StoreResult<QList<IterationInfo>> all = await(store->iterations());
        if (!all)
            return all.failureAs<ReevaluationPlan>();
        for (const IterationInfo &info : *all.value)
            iteration = std::max(iteration, info.id);
        if (iteration == 0)
            return R::failure(QStringLiteral("the project has no iteration"));
    }
    const StoreResult<IterationData> data = await(store->iterationData(iteration));
    if (!data)
        return R::failure(QStringLiteral("iteration %1 does not exist (%2)").arg(iteration).arg(data.error));

    QList<const Cell *> chosen;
    if (selection.top > 0) {
        for (const Cell &c : data.value->cells) {
            if (c.score && std::isfinite(*c.score))
                chosen.append(&c);
        }
        if (chosen.isEmpty())
            return R::failure(QStringLiteral("iteration %1 has no cell with a score").arg(iteration));
        // Best first; equal scores in the order they were stored.
        std::stable_sort(chosen.begin(), chosen.end(), [](const Cell *a, const Cell *b) { return *a->score > *b->score; });
        chosen.resize(std::min<qsizetype>(chosen.size(), selection.top));
    } else {
        QHash<QString, const Cell *> byId;
        for (const Cell &c : data.value->cells)
            byId.insert(c.id, &c);
        QStringList unknown;
        for (const QString &id : selection.cellIds) {
            if (const Cell *c = byId.value(id))
                chosen.append(c);
            else
                unknown.append(id);
        }
        if (!unknown.isEmpty())
            return R::failure(QStringLiteral("iteration %1 has no cell %2").arg(iteration).arg(unknown.join(QStringLiteral(", "))));
    }

    ReevaluationPlan plan;
    plan.iteration = iteration;
    const QString task = data.value->info.task.value_or(QString());
    const Result<Task> resolved = Task::resolve(task);
    QString taskProblem;
    if (!resolved) {
        taskProblem = QStringLiteral("its task cannot be evaluated here: %1").arg(resolved.error);
    } else {
        plan.task = resolved.value->name;
        plan.programFileName = resolved.value->programFileName;
        if (localBackend)
            taskProblem = whyNotHere(plan.task);
    }
    for (const Cell *c : std::as_const(chosen)) {
        ReevaluationTarget t;
        t.cellId = c->id;
        t.score = c->score;
        if (!taskProblem.isEmpty())
            t.skipped = taskProblem;
        else
            t.program = storedProgram(store, iteration, *c, plan.programFileName, &t.skipped);
        plan.targets.append(t);
    }
    return R::success(std::move(plan));
}

Result<ReevaluationReport> Reevaluation::run(ProjectStore *store, const ReevaluationPlan &plan, int repeats,
                                             EvaluationBackend &backend, const std::atomic_bool &cancel,
                                             const Progress &progress)
{
    using R = Result<ReevaluationReport>;
    if (repeats < 1)
        return R::failure(QStringLiteral("the number of repeats must be at least 1 (got %1)").arg(repeats));
    ReevaluationReport report;
    report.iteration = plan.iteration;
    const int total = plan.runnable() * repeats;
    int done = 0;
    QTemporaryDir work;
    if (!work.isValid())
        return R::failure(QStringLiteral("cannot make a work folder for the programs: %1").arg(work.errorString()));
    const QString host = backend.name() == QLatin1String("local") ? QSysInfo::machineHostName() : QString();
    for (const ReevaluationTarget &target : plan.targets) {
        if (!target.skipped.isEmpty()) {
            report.skipped.append({target.cellId, target.skipped});
            continue;
        }
        // The program in a folder of its own, under the name the round's workspace gave it.
        const QString folder = work.filePath(target.cellId);
        const QString path = folder + QLatin1Char('/') + plan.programFileName;
        QFile file(path);
        if (!QDir().mkpath(folder) || !file.open(QIODevice::WriteOnly | QIODevice::Truncate)
            || file.write(target.program) != target.program.size())
            return R::failure(QStringLiteral("cannot write the program of %1 to '%2'").arg(target.cellId, path));
        file.close();
        for (int i = 0; i < repeats && !cancel.load(); ++i) {
            EvaluationRequest request;
            request.task = plan.task;
            request.candidatePath = path;
            ReevaluationRecord record;
            record.iteration = plan.iteration;
            record.cellId = target.cellId;
            record.backend = backend.name();
            record.host = host;
            QElapsedTimer timer;
            timer.start();
            const EvaluationResult result = backend.evaluate(request, cancel, [&record](const EvaluationProgress &p) {
                record.jobId = p.jobId;
            });
            if (cancel.load())
                break; // abandoned: nothing stored
            record.seconds = double(timer.nsecsElapsed()) / 1e9;
            record.time = QDateTime::currentDateTimeUtc();
            if (result.isSuccess() && result.score && std::isfinite(*result.score)) {
                record.score = result.score;
                record.failClass = QString::fromLatin1(FailClass::Ok);
            } else {
                record.failClass = result.failClass.isEmpty() || result.failClass == QLatin1String(FailClass::Ok)
                                       ? QString::fromLatin1(FailClass::Env)
                                       : result.failClass;
                record.error = result.error.value_or(QStringLiteral("the evaluator reported no score"));
            }
            const StoreResult<qint64> stored = await(store->addReevaluation(record));
            if (!stored)
                return stored.failureAs<ReevaluationReport>();
            ++report.stored;
            ++done;
            if (progress)
                progress(done, total, target.cellId);
        }
        if (cancel.load())
            break;
    }
    report.cancelled = cancel.load() && done < total;
    const Result<QList<ReevaluationStats>> stats = Reevaluation::stats(store, plan);
    if (!stats)
        return stats.failureAs<ReevaluationReport>();
    report.stats = *stats.value;
    return R::success(std::move(report));
}

Result<QList<ReevaluationStats>> Reevaluation::stats(ProjectStore *store, const ReevaluationPlan &plan)
{
    const StoreResult<QList<ReevaluationRecord>> records = await(store->reevaluations(plan.iteration));
    if (!records)
        return records.failureAs<QList<ReevaluationStats>>();
    QList<ReevaluationStats> out;
    for (const ReevaluationTarget &t : plan.targets) {
        if (t.skipped.isEmpty())
            out.append(ReevaluationStats::of(plan.iteration, t.cellId, t.score, *records.value));
    }
    return Result<QList<ReevaluationStats>>::success(out);
}

} // namespace dreamrsi
