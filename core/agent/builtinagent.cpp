#include "builtinagent.h"

#include "builtinautocorrelation.h"
#include "builtincirclepacking.h"
#include "builtincudakernels.h"
#include "builtinlasso.h"
#include "builtinparams.h"
#include "builtinparentoutput.h"
#include "builtinrandom.h"
#include "builtinsumsdifferences.h"

#include <QCryptographicHash>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QJsonDocument>
#include <QJsonObject>

#include <cmath>
#include <mutex>

namespace dreamrsi {

namespace {

std::unique_ptr<BuiltinStrategy> strategyFor(const QString &task)
{
    if (task == QLatin1String("circle_packing_26"))
        return std::make_unique<BuiltinCirclePacking>();
    if (task == QLatin1String("c3_autocorrelation"))
        return std::make_unique<BuiltinAutocorrelation>();
    if (task == QLatin1String("sums_differences"))
        return std::make_unique<BuiltinSumsDifferences>();
    if (task == QLatin1String("lasso_path"))
        return std::make_unique<BuiltinLasso>();
    if (task == QLatin1String("cuda_kernels"))
        return std::make_unique<BuiltinCudaKernels>();
    return nullptr;
}

/// A task folder's built-in evaluator name (task.json "evaluator"), or empty.
QString folderEvaluator(const QString &folder)
{
    QFile file(QDir(folder).filePath(QStringLiteral("task.json")));
    if (!QFileInfo(folder).isDir() || !file.open(QIODevice::ReadOnly))
        return {};
    const QJsonValue evaluator =
        QJsonDocument::fromJson(file.readAll()).object().value(QStringLiteral("evaluator"));
    return evaluator.isString() ? evaluator.toString() : QString();
}

QString prettyDirection(const QString &hint)
{
    QString d = hint.trimmed();
    if (d.startsWith(QLatin1String("direction:")))
        d = d.mid(10).trimmed();
    return d;
}

class BuiltinAgent final : public DiscoveryAgent
{
public:
    BuiltinAgent(const AgentConfig &config, std::unique_ptr<BuiltinStrategy> strategy,
                 BuiltinAgentOptions options)
        : m_seed(config.seed), m_strategy(std::move(strategy)), m_options(options)
    {
    }

    QString kind() const override { return QStringLiteral("builtin"); }
    QString model() const override { return QStringLiteral("builtin:") + m_strategy->task(); }

    AgentOutcome propose(const AttemptContext &context, const std::atomic_bool &cancel) override
    {
        QElapsedTimer clock;
        clock.start();
        AgentUsage usage;
        usage.model = model();
        usage.calls = 1;
        QStringList log;
        log << QStringLiteral("builtin agent for %1, cell %2 (branch %3, attempt %4)")
                   .arg(m_strategy->task(), context.cellId)
                   .arg(context.branch)
                   .arg(context.attempt);
        auto finish = [&](AgentOutcome outcome) {
            usage.latencyS = double(clock.nsecsElapsed()) / 1e9;
            outcome.usage = usage;
            outcome.log = log.join(QLatin1Char('\n')) + QLatin1Char('\n');
            return outcome;
        };
        if (cancel.load()) {
            AgentOutcome out =
                AgentOutcome::failure(QStringLiteral("cancelled before the built-in agent started"));
            out.cancelled = true;
            return finish(out);
        }
        if (!context.task.isEmpty() && strategyFor(context.task) && context.task != m_strategy->task())
            return finish(
                AgentOutcome::failure(QStringLiteral("the built-in agent was made for task '%1' but the "
                                                     "attempt is for task '%2'")
                                          .arg(m_strategy->task(), context.task)));

        // The attempt's starting point: its parent, or, when the parent failed,
        // the last working attempt of its branch (a model reading the history
        // goes back to what worked).
        AttemptContext source = context;
        QString revertNote;
        const bool parentWorked =
            context.parentError.isEmpty() && (context.parentScore || context.attempt == 0);
        if (!parentWorked && context.attempt > 0) {
            if (const AttemptRecord *r = lastWorkingAttempt(context)) {
                source.parentProgram = r->program;
                source.parentProposal = r->proposal;
                source.parentScore = r->score;
                source.parentError.clear();
                revertNote =
                    QStringLiteral("The parent failed (%1), so this attempt goes back to %2, the branch's "
                                   "last working program (score %3), and changes that instead.")
                        .arg(context.parentError.isEmpty() ? QStringLiteral("no score")
                                                           : context.parentError.left(200),
                             r->cellId, QString::number(r->score.value_or(0.0), 'f', 6));
                log << QStringLiteral("the parent failed: starting from %1 instead").arg(r->cellId);
            }
        }

        BuiltinStep step;
        step.context = &source;
        step.parentParams = BuiltinParams::parse(source.parentProgram);
        QString directionNote;
        step.direction = chooseDirection(source, step.parentParams, &directionNote);
        log << QStringLiteral("direction: %1%2")
                   .arg(step.direction, directionNote.isEmpty()
                                            ? QString()
                                            : QStringLiteral(" (") + directionNote + QLatin1Char(')'));

        const bool parentUsable = source.parentError.isEmpty() && (source.parentScore || source.attempt == 0);
        if (m_strategy->usesParentOutput()) {
            if (!parentUsable) {
                step.parentOutputNote =
                    QStringLiteral("the parent failed, so there is no construction to start from");
            } else {
                step.parentOutput = parentOutput(source, cancel, &step.parentOutputNote, &log);
                if (cancel.load()) {
                    AgentOutcome out =
                        AgentOutcome::failure(QStringLiteral("cancelled while the parent program ran"));
                    out.cancelled = true;
                    return finish(out);
                }
            }
        }

        std::uint64_t seed = BuiltinRandom::mix(m_seed, context.seed);
        seed = BuiltinRandom::mix(seed, BuiltinRandom::stableHash(context.cellId));
        seed = BuiltinRandom::mix(seed, BuiltinRandom::stableHash(m_strategy->task()));

        // The progress model (builtinprogress.h): what this call may gain, and
        // whether its program has a mistake. Drawn from its own stream, so it
        // does not depend on the parent's text.
        std::optional<BuiltinPlan> plan;
        if (const std::optional<BuiltinScale> gap = taskScale(context)) {
            BuiltinRandom draws(
                BuiltinRandom::mix(seed, BuiltinRandom::stableHash(QStringLiteral("progress"))));
            const bool fresh = source.attempt == 0 || !parentUsable;
            const double from = fresh ? 0.0 : gap->fraction(source.parentScore.value_or(gap->initial));
            plan = planBuiltinStep(m_strategy->profile(step.direction), from, fresh,
                                   historyBest(context, *gap), m_options.failureRate, draws);
            step.target = gap->score(plan->target);
            log << plan->explain();
        }

        BuiltinRandom random(seed);
        BuiltinDraft draft = m_strategy->draft(step, random);
        log << QStringLiteral("parameters: %1").arg(draft.params.line());
        if (!revertNote.isEmpty())
            draft.notes.prepend(revertNote);
        if (plan && plan->defect)
            injectDefect(&draft, *plan->defect, random, &log);

        AgentOutcome out;
        out.ok = true;
        out.program = draft.program;
        out.proposal = proposal(context, step, draft, directionNote);
        return finish(out);
    }

private:
    /// The task's gap, its lower end the measured score of the initial program when the round knows it.
    std::optional<BuiltinScale> taskScale(const AttemptContext &context) const
    {
        std::optional<BuiltinScale> gap = m_strategy->scale();
        if (!gap)
            return gap;
        std::optional<double> initial = context.baselineScore;
        if (!initial && context.attempt == 0 && context.parentError.isEmpty())
            initial = context.parentScore;
        if (initial && std::isfinite(*initial) && *initial < gap->best)
            gap->initial = *initial;
        return gap;
    }

    /// The best fraction of the gap an earlier iteration reached, nullopt when none did.
    static std::optional<double> historyBest(const AttemptContext &context, const BuiltinScale &gap)
    {
        std::optional<double> best;
        for (const AttemptRecord &r : context.history) {
            if (r.iteration >= context.iteration || !r.score || !std::isfinite(*r.score) ||
                r.program.isEmpty())
                continue;
            const double f = gap.fraction(*r.score);
            if (!best || f > *best)
                best = f;
        }
        return best;
    }

    /// The latest attempt of this iteration's branch before this one that has a score.
    static const AttemptRecord *lastWorkingAttempt(const AttemptContext &context)
    {
        const AttemptRecord *found = nullptr;
        for (const AttemptRecord &r : context.history) {
            if (r.iteration != context.iteration || r.branch != context.branch ||
                r.attempt >= context.attempt || !r.score || !r.error.isEmpty() || r.program.isEmpty())
                continue;
            if (!found || r.attempt > found->attempt)
                found = &r;
        }
        return found;
    }

    /// Makes the draft's program wrong in the way `kind` says (one of the
    /// strategy's mistakes of that kind). The proposal stays as it was: the
    /// agent does not know its program is wrong; the log says so.
    void injectDefect(BuiltinDraft *draft, BuiltinDefect::Kind kind, BuiltinRandom &random,
                      QStringList *log) const
    {
        QList<BuiltinDefect> candidates;
        for (const BuiltinDefect &d : m_strategy->defects())
            if (d.kind == kind && draft->program.count(d.find) == 1)
                candidates << d;
        if (candidates.isEmpty()) {
            *log << QStringLiteral("no %1 mistake applies to this program; it is written correctly")
                        .arg(builtinDefectKindName(kind));
            return;
        }
        const BuiltinDefect &d = candidates.at(random.range(0, int(candidates.size()) - 1));
        draft->program.replace(d.find, d.replace);
        *log << QStringLiteral("simulated mistake (%1): %2").arg(builtinDefectKindName(kind), d.description);
    }

    QString chooseDirection(const AttemptContext &context, const std::optional<BuiltinParams> &parent,
                            QString *note) const
    {
        const QStringList known = m_strategy->directions();
        const QString hint = prettyDirection(context.directionHint);
        if (!hint.isEmpty()) {
            if (known.contains(hint))
                return hint;
            const QString mapped =
                known.at(int(BuiltinRandom::stableHash(hint) % std::uint64_t(known.size())));
            *note = QStringLiteral("the hint '%1' is not one of this task's directions (%2); it maps to '%3'")
                        .arg(hint, known.join(QStringLiteral(", ")), mapped);
            return mapped;
        }
        if (context.attempt > 0 && parent && known.contains(parent->text(QStringLiteral("direction"))))
            return parent->text(QStringLiteral("direction"));
        return known.at(((context.branch % int(known.size())) + int(known.size())) % int(known.size()));
    }

    QJsonValue parentOutput(const AttemptContext &context, const std::atomic_bool &cancel, QString *note,
                            QStringList *log)
    {
        const QByteArray key =
            QCryptographicHash::hash(context.parentProgram.toUtf8(), QCryptographicHash::Sha256);
        {
            const std::lock_guard lock(m_mutex);
            const auto it = m_outputs.constFind(key);
            if (it != m_outputs.cend()) {
                *log << QStringLiteral("parent output: from the cache");
                return *it;
            }
        }
        QElapsedTimer clock;
        clock.start();
        const QJsonValue value = runParentForOutput(context, cancel, note);
        *log << QStringLiteral("parent output: ran the parent in the sandbox, %1 s%2")
                    .arg(double(clock.elapsed()) / 1000.0, 0, 'f', 2)
                    .arg(note->isEmpty() ? QString() : QStringLiteral(" (") + *note + QLatin1Char(')'));
        if (!value.isUndefined()) {
            const std::lock_guard lock(m_mutex);
            if (m_outputs.size() >= 64)
                m_outputs.clear();
            m_outputs.insert(key, value);
        }
        return value;
    }

    QString proposal(const AttemptContext &context, const BuiltinStep &step, const BuiltinDraft &draft,
                     const QString &directionNote) const
    {
        QString text = QStringLiteral("## %1: direction `%2`\n\n").arg(m_strategy->task(), step.direction);
        text +=
            context.attempt == 0
                ? QStringLiteral("Attempt 0 of branch %1, written from scratch for this direction: %2.\n\n")
                      .arg(context.branch)
                      .arg(m_strategy->describe(step.direction))
                : QStringLiteral("Attempt %1 of branch %2, refining its parent (generation %3).\n\n")
                      .arg(context.attempt)
                      .arg(context.branch)
                      .arg(draft.params.integer(QStringLiteral("generation"), 0));
        if (!directionNote.isEmpty())
            text += QStringLiteral("Direction: %1.\n\n").arg(directionNote);
        for (const QString &note : draft.notes)
            text += note + QStringLiteral("\n\n");
        if (step.parentParams) {
            QStringList changed = draft.params.changedFrom(*step.parentParams);
            changed.removeAll(QStringLiteral("seed"));
            changed.removeAll(QStringLiteral("generation"));
            text += QStringLiteral("Changed from the parent: %1 (and a new seed).\n\n")
                        .arg(changed.isEmpty() ? QStringLiteral("nothing but the seed")
                                               : changed.join(QStringLiteral(", ")));
        }
        text += QStringLiteral("Parameters: `%1`\n").arg(draft.params.line());
        return text;
    }

    quint64 m_seed;
    std::unique_ptr<BuiltinStrategy> m_strategy;
    BuiltinAgentOptions m_options;
    std::mutex m_mutex;
    QHash<QByteArray, QJsonValue> m_outputs;
};

} // namespace

QStringList builtinAgentTasks()
{
    QStringList tasks{QStringLiteral("c3_autocorrelation"), QStringLiteral("circle_packing_26"),
                      QStringLiteral("cuda_kernels"), QStringLiteral("lasso_path"),
                      QStringLiteral("sums_differences")};
    tasks.sort();
    return tasks;
}

namespace {
/// The strategy for a built-in task name, or for a task folder naming a built-in evaluator.
std::unique_ptr<BuiltinStrategy> strategyForTaskOrFolder(const QString &task)
{
    const QString name = task.trimmed();
    if (std::unique_ptr<BuiltinStrategy> strategy = strategyFor(name))
        return strategy;
    return strategyFor(folderEvaluator(name));
}
} // namespace

QList<std::pair<QString, QString>> builtinTaskDirections(const QString &task)
{
    QList<std::pair<QString, QString>> directions;
    if (const std::unique_ptr<BuiltinStrategy> strategy = strategyForTaskOrFolder(task)) {
        for (const QString &d : strategy->directions())
            directions.append({d, strategy->describe(d)});
    }
    return directions;
}

std::optional<BuiltinScale> builtinTaskScale(const QString &task)
{
    const std::unique_ptr<BuiltinStrategy> strategy = strategyForTaskOrFolder(task);
    return strategy ? strategy->scale() : std::nullopt;
}

QList<std::pair<QString, BuiltinProfile>> builtinTaskProfiles(const QString &task)
{
    QList<std::pair<QString, BuiltinProfile>> profiles;
    const std::unique_ptr<BuiltinStrategy> strategy = strategyForTaskOrFolder(task);
    if (strategy && strategy->scale()) {
        for (const QString &d : strategy->directions())
            profiles.append({d, strategy->profile(d)});
    }
    return profiles;
}

QList<std::pair<BuiltinDefect, int>> builtinDefectCoverage(const QString &task, int samples)
{
    QList<std::pair<BuiltinDefect, int>> coverage;
    const std::unique_ptr<BuiltinStrategy> strategy = strategyForTaskOrFolder(task);
    if (!strategy)
        return coverage;
    for (const BuiltinDefect &d : strategy->defects())
        coverage.append({d, 0});
    const std::optional<BuiltinScale> scale = strategy->scale();
    auto count = [&](const QString &program) {
        for (auto &[defect, applies] : coverage)
            applies += program.count(defect.find) == 1 ? 1 : 0;
    };
    for (const QString &direction : strategy->directions()) {
        for (int s = 0; s < samples; ++s) {
            // A fresh branch, then a refinement of it (parameters perturbed,
            // warm starts): the two shapes of program draft() writes.
            AttemptContext fresh;
            fresh.task = task;
            fresh.cellId = QStringLiteral("b%1-0").arg(s);
            fresh.branch = s;
            fresh.directionHint = QStringLiteral("direction:") + direction;
            BuiltinStep step;
            step.context = &fresh;
            step.direction = direction;
            const double reach = 0.2 + 0.6 * double(s) / double(std::max(1, samples));
            if (scale)
                step.target = scale->score(reach);
            BuiltinRandom random(BuiltinRandom::mix(BuiltinRandom::stableHash(direction), std::uint64_t(s)));
            const BuiltinDraft first = strategy->draft(step, random);
            count(first.program);

            AttemptContext refine = fresh;
            refine.cellId = QStringLiteral("b%1-1").arg(s);
            refine.attempt = 1;
            refine.parentProgram = first.program;
            refine.parentScore = step.target.value_or(1.0);
            BuiltinStep next;
            next.context = &refine;
            next.direction = direction;
            next.parentParams = BuiltinParams::parse(first.program);
            if (scale)
                next.target = scale->score(std::min(1.0, reach + 0.1));
            count(strategy->draft(next, random).program);
        }
    }
    return coverage;
}

Result<std::unique_ptr<DiscoveryAgent>> createBuiltinAgent(const AgentConfig &config, const QString &task,
                                                           BuiltinAgentOptions options)
{
    std::unique_ptr<BuiltinStrategy> strategy = strategyForTaskOrFolder(task);
    if (!strategy)
        return Result<std::unique_ptr<DiscoveryAgent>>::failure(
            QStringLiteral("the built-in agent has no strategy for task '%1' (it knows: %2)")
                .arg(task, builtinAgentTasks().join(QStringLiteral(", "))));
    return Result<std::unique_ptr<DiscoveryAgent>>::success(
        std::make_unique<BuiltinAgent>(config, std::move(strategy), options));
}

} // namespace dreamrsi
