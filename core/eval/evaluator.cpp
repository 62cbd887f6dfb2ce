#include "evaluator.h"

#include "evaluationcontext.h"
#include "failureclassifier.h"
#include "sandboxrunner.h"
#include "taskevaluator.h"
#include "taskregistry.h"

#include "model/cell.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QTemporaryDir>

#include <exception>

namespace dreamrsi {

namespace {

/// A task folder (docs/evaluators.md#custom-tasks): task.json names the evaluator, a
/// built-in task or {"command": …}, and may give default options. Fills
/// `request` and gives the task's folder; a failure says why the folder is
/// not a usable task.
Result<QString> resolveTaskFolder(EvaluationRequest &request)
{
    using Resolved = Result<QString>;
    const QString dir = QFileInfo(request.task).absoluteFilePath();
    QFile file(dir + QStringLiteral("/task.json"));
    if (!file.open(QIODevice::ReadOnly))
        return Resolved::failure(QStringLiteral("task folder '%1' has no readable task.json").arg(dir));
    QJsonParseError error{};
    const QJsonObject spec = QJsonDocument::fromJson(file.readAll(), &error).object();
    if (error.error != QJsonParseError::NoError)
        return Resolved::failure(QStringLiteral("%1: %2").arg(file.fileName(), error.errorString()));
    const QJsonValue evaluator = spec.value(QStringLiteral("evaluator"));
    if (evaluator.isString() && TaskRegistry::create(evaluator.toString())) {
        request.task = evaluator.toString();
    } else if (evaluator.isObject() && evaluator.toObject().value(QStringLiteral("command")).isString()) {
        request.task = QStringLiteral("custom");
        request.command = evaluator.toObject().value(QStringLiteral("command")).toString();
    } else {
        return Resolved::failure(QStringLiteral("%1: \"evaluator\" must name a built-in task (%2) or be {\"command\": \"…\"}")
            .arg(file.fileName(), TaskRegistry::names().join(QStringLiteral(", "))));
    }
    QJsonObject options = spec.value(QStringLiteral("options")).toObject();
    for (auto it = request.options.constBegin(); it != request.options.constEnd(); ++it)
        options.insert(it.key(), it.value()); // the request's own options win
    request.options = options;
    return Resolved::success(dir);
}

EvaluationResult runCustomCommand(const EvaluationRequest &request, const EvaluationContext &context,
                                  const QString &taskDir)
{
    SandboxRequest run;
    if (!taskDir.isEmpty()) {
        run.extraEnvironment.insert(QStringLiteral("DREAMRSI_TASK_DIR"), taskDir);
        run.readablePaths.append(taskDir);
    }
    run.program = QStringLiteral("/bin/sh");
    run.arguments = {QStringLiteral("-c"), request.command + QStringLiteral(" \"$@\""), QStringLiteral("dreamrsi-evaluator")};
    if (!request.candidatePath.isEmpty()) {
        const QString local = context.workDir() + QLatin1Char('/') + QFileInfo(request.candidatePath).fileName();
        if (!QFile::copy(request.candidatePath, local))
            return EvaluationResult::failure(FailClass::Agent,
                                             QStringLiteral("cannot read the candidate '%1'").arg(request.candidatePath));
        run.arguments << local;
    }
    const double seconds = context.optionDouble(QStringLiteral("time_limit_s"), 600.0);
    run.limits.wallMs = int(seconds * 1000.0);
    run.limits.cpuSeconds = int(seconds) * 4 + 1;
    run.limits.addressSpaceBytes = qint64(context.optionDouble(QStringLiteral("memory_mb"), 8192.0)) << 20;
    const SandboxResult result = context.run(run);
    const EvaluationResult parsed = EvaluationResult::fromEvaluatorOutput(result.standardOutput);
    if (result.outcome == SandboxResult::Outcome::Exited && parsed.failClass != QLatin1String(FailClass::Env))
        return parsed; // the command's verdict, whatever its exit code
    if (auto failure = FailureClassifier::classify(result, FailureClassifier::Stage::Run,
                                                   QStringLiteral("the evaluator command"))) {
        if (failure->failClass == QLatin1String(FailClass::Runtime))
            failure->failClass = QString::fromLatin1(FailClass::Env);
        if (result.outcome == SandboxResult::Outcome::Exited)
            *failure->error += QStringLiteral("\n") + *parsed.error;
        return *failure;
    }
    return parsed;
}

} // namespace

EvaluationResult Evaluator::evaluate(const EvaluationRequest &original, const std::atomic_bool *cancelFlag)
{
    try {
        EvaluationRequest request = original;
        QString taskDir;
        if (request.task.contains(QLatin1Char('/')) || (QFileInfo(request.task).isDir() && !TaskRegistry::create(request.task))) {
            const Result<QString> folder = resolveTaskFolder(request);
            if (!folder)
                return EvaluationResult::failure(FailClass::Env, folder.error);
            taskDir = *folder.value;
        }
        const bool custom = request.task == QLatin1String("custom") || (!request.command.isEmpty() && request.task.isEmpty());
        std::unique_ptr<TaskEvaluator> task;
        if (!custom) {
            task = TaskRegistry::create(request.task);
            if (!task)
                return EvaluationResult::failure(FailClass::Env,
                                                 QStringLiteral("unknown task '%1' (known: %2)")
                                                     .arg(request.task, TaskRegistry::names().join(QStringLiteral(", "))));
        } else if (request.command.trimmed().isEmpty()) {
            return EvaluationResult::failure(FailClass::Env, QStringLiteral("custom evaluation without a command"));
        }
        const QString root = request.workRoot.isEmpty() ? QDir::tempPath() : request.workRoot;
        if (!QDir().mkpath(root))
            return EvaluationResult::failure(FailClass::Env, QStringLiteral("cannot create the work root '%1'").arg(root));
        QTemporaryDir work(root + QStringLiteral("/dreamrsi-eval-XXXXXX"));
        if (!work.isValid())
            return EvaluationResult::failure(FailClass::Env,
                                             QStringLiteral("cannot create a work directory under '%1': %2")
                                                 .arg(root, work.errorString()));
        work.setAutoRemove(!request.keepWorkDir);
        const QString candidate = request.candidatePath.isEmpty() ? QString() : QFileInfo(request.candidatePath).absoluteFilePath();
        const EvaluationContext context(candidate, work.path(), request.options, request.sandboxMode, cancelFlag);
        EvaluationResult result = custom ? runCustomCommand(request, context, taskDir) : task->evaluate(context);
        if (context.isCancelled())
            result = EvaluationResult::failure(FailClass::Env, QStringLiteral("cancelled"));
        result.metrics.insert(QStringLiteral("sandbox"),
                              SandboxRunner::effectiveMode(request.sandboxMode) == SandboxMode::Bubblewrap
                                  ? QStringLiteral("bubblewrap")
                                  : QStringLiteral("fallback"));
        if (request.keepWorkDir)
            result.metrics.insert(QStringLiteral("work_dir"), work.path());
        return result;
    } catch (const std::exception &e) {
        return EvaluationResult::failure(FailClass::Env,
                                         QStringLiteral("the evaluator failed: %1").arg(QString::fromLocal8Bit(e.what())));
    }
}

} // namespace dreamrsi
