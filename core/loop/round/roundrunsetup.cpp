// RoundRunner::Run: the run's set-up (the backend, the policy, a new
// iteration with its grid plan or a resumed one), the history of earlier
// iterations and what one attempt is given. Private part of RoundRunner
// (roundrun_p.h).
#include "roundrun_p.h"

#include "store/projectstore.h"
#include "store/storeawait.h"

#include "agent/pricetable.h"
#include "backend/evaluationbackend.h"
#include "roundpolicy.h"
#include "roundsession.h"
#include "model/attemptpayload.h"
#include "policy/episoderules.h"

#include <QDateTime>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>

namespace dreamrsi {

using RoundRunPrivate::mix;
using RoundRunPrivate::recordOf;

AttemptRecord RoundRunPrivate::recordOf(const Cell &c, qint64 iteration)
{
    AttemptRecord r;
    r.iteration = iteration;
    r.cellId = c.id;
    r.branch = c.branch;
    r.attempt = c.attempt;
    r.score = c.score;
    r.failClass = c.failClass;
    r.error = c.error.value_or(QString());
    r.proposal = c.proposal();
    r.program = c.program();
    return r;
}

bool RoundRunner::Run::setUp()
{
    if (!q->m_agent || !q->m_backend || !q->m_store) {
        error = QStringLiteral("the round has no agent, evaluation backend or project");
        return false;
    }
    if (const QString problem = q->m_backend->prepare(); !problem.isEmpty()) {
        error = QStringLiteral("%1 backend: %2").arg(q->m_backend->name(), problem);
        return false;
    }
    // A resumed iteration that could not be reopened stays as it was.
    return begin() && checkFirstJob() && makePolicy();
}

bool RoundRunner::Run::begin()
{
    const RoundConfig &config = q->m_config;
    const StoreResult<ProjectInfo> project = await(q->m_store->projectInfo());
    if (!project.ok()) {
        error = project.error;
        return false;
    }
    artifactDir = project.value->artifactDir;
    workers = std::max(1, config.workers.value_or(RoundConfig::DefaultWorkers));
    if (config.resume != 0)
        return loadResumed();

    const Result<Task> t = Task::resolve(config.task);
    if (!t.ok()) {
        error = t.error;
        return false;
    }
    task = *t.value;
    return true;
}

bool RoundRunner::Run::loadResumed()
{
    const RoundConfig &config = q->m_config;
    const StoreResult<IterationData> data = await(q->m_store->iterationData(config.resume));
    if (!data.ok()) {
        error = data.error;
        return false;
    }
    info = data.value->info;
    if (info.status != IterationStatus::Interrupted && info.status != IterationStatus::Stopped) {
        error = QStringLiteral("iteration %1 is %2; only an interrupted or stopped round can be resumed")
                    .arg(config.resume)
                    .arg(iterationStatusName(info.status));
        return false;
    }
    const QString storedTask = info.task.value_or(QString());
    if (!config.task.isEmpty() && !storedTask.isEmpty() && config.task != storedTask
        && QFileInfo(config.task).absoluteFilePath() != storedTask) {
        error = QStringLiteral("iteration %1 ran task '%2', not '%3'").arg(config.resume).arg(storedTask, config.task);
        return false;
    }
    const Result<Task> t = Task::resolve(storedTask.isEmpty() ? config.task : storedTask);
    if (!t.ok()) {
        error = t.error;
        return false;
    }
    task = *t.value;
    if (!info.grid) {
        error = QStringLiteral("iteration %1 has no grid plan; it is not a live round").arg(config.resume);
        return false;
    }
    iterationDir = artifactDir + QStringLiteral("/attempts/%1").arg(config.resume);
    if (!config.workers)
        workers = std::max(1, info.maxParallelism.value_or(RoundConfig::DefaultWorkers));
    // So do its round limit and call cap (counted over the whole iteration),
    // unless the resume gives new ones: a resumed round continues the one
    // that was stopped (docs/online.md, "Resume").
    if (!q->m_config.maxRounds)
        q->m_config.maxRounds = info.roundLimit;
    if (!q->m_config.maxCalls)
        q->m_config.maxCalls = info.callLimit;
    // The row records the limits it now runs under, for whoever follows it.
    const StoreResult<QList<Cell>> cells = await(q->m_store->resumeIteration(
        config.resume, IterationLimits{workers, config.maxRounds, config.maxCalls}));
    if (!cells.ok()) {
        error = cells.error;
        return false;
    }
    iteration = config.resume; // running again: from here on it is closed as stopped on an error
    // Its live record names this process at once (as a new iteration's, storeNewIteration).
    projectPath = q->m_store->path();
    publishRunning();
    tree = RoundTree(GridPlan{info.grid->branches, info.grid->refinements, info.gridReason}, info.baselineScore);
    tree.setDirections(task.directionNames());
    beta = info.beta.value_or(0.5);
    if (!loadHistory(task.name, nullptr))
        return false;
    for (const Cell &c : *cells.value) {
        if (!tree.add(c)) {
            error = QStringLiteral("iteration %1: stored cell %2 does not continue its branch").arg(iteration).arg(c.id);
            return false;
        }
        history.append(recordOf(c, info.number.value_or(iteration)));
        addCounters(c);
    }
    log(QStringLiteral("resuming iteration %1: %2 cells kept").arg(iteration).arg(cells.value->size()));
    IterationInfo running = info;
    running.maxParallelism = workers; // the limits it runs under now
    running.roundLimit = config.maxRounds;
    running.callLimit = config.maxCalls;
    running.status = IterationStatus::Running;
    emit q->iterationStarted(running, true);
    emit q->countersChanged(counters);
    return true;
}

bool RoundRunner::Run::checkFirstJob()
{
    // The first evaluation's job as the backend would run it: a cluster
    // that would refuse it is found before any agent call is paid for.
    EvaluationRequest first;
    first.task = task.name;
    first.candidatePath = task.initialProgram;
    first.sandboxMode = q->m_config.sandboxMode;
    if (const QString refused = q->m_backend->checkJob(first); !refused.isEmpty()) {
        error = QStringLiteral("%1 backend: %2").arg(q->m_backend->name(), refused);
        return false;
    }
    return true;
}

bool RoundRunner::Run::makePolicy()
{
    const RoundConfig &config = q->m_config;
    const Result<RoundPolicy> resolved = RoundPolicy::resolve(*q->m_store, config.policy, info.policyVersion, config.seed);
    Result<std::unique_ptr<Policy>> made =
        resolved ? resolved.value->spec.create() : resolved.failureAs<std::unique_ptr<Policy>>();
    if (!made) {
        error = made.error;
        return false;
    }
    policy = std::move(*made.value);
    log(QStringLiteral("policy: ") + resolved.value->description);
    manual = resolved.value->manual;
    policyVersion = resolved.value->version;
    // Probes: as asked; by default on when the round deploys a dreamed version.
    if (config.probe) {
        probe = *config.probe;
    } else {
        const StoreResult<QList<PolicyVersion>> versions = await(q->m_store->policyVersions());
        for (const PolicyVersion &v : versions.value.value_or(QList<PolicyVersion>())) {
            if (v.id == policyVersion && v.origin == PolicyOrigin::Agent)
                probe = ProbeSetting::automatic();
        }
    }
    if (probe.enabled() && !manual)
        log(probe.mode == ProbeSetting::Mode::Early
                ? QStringLiteral("probes: early (at most %1 calls after the policy's last batch, where the world model is blind, "
                                 "in the task's first %2 rounds while none has shown a refinement pay; %3 after)")
                      .arg(ProbeSetting::EarlyCalls)
                      .arg(ProbeSetting::EarlyDeployments)
                      .arg(ProbeSetting::AutoCalls)
                : QStringLiteral("probes: %1 (at most %2 calls after the policy's last batch, where the world model is blind)")
                      .arg(probe.name())
                      .arg(probe.budget()));
    return true;
}

bool RoundRunner::Run::openNewIteration()
{
    const RoundConfig &config = q->m_config;
    // A new iteration: baseline, grid plan, then the row.
    QList<GridHistoryEntry> entries;
    if (!loadHistory(task.name, &entries))
        return false;
    std::optional<double> baseline;
    if (!evaluateBaseline(&baseline))
        return false;
    if (stopAsked()) {
        stopReason = QStringLiteral("stopped");
        return false;
    }
    beta = config.beta ? *config.beta : policy->defaultBeta().value_or(0.5);
    policy->beginEpisode(beta, workers);
    GridPlan plan;
    if (!planGrid(entries, &plan) || !storeNewIteration(plan, baseline) || !beginSteering(false))
        return false;
    log(QStringLiteral("iteration %1: grid %2 branches × %3 refinements (%4), β %5, W %6, policy %7")
            .arg(iteration)
            .arg(plan.branches)
            .arg(plan.refinements)
            .arg(plan.reason.isEmpty() ? QStringLiteral("no reason given") : plan.reason)
            .arg(beta)
            .arg(workers)
            .arg(policy->name()));
    IterationInfo started = info;
    started.status = IterationStatus::Running;
    emit q->iterationStarted(started, false);
    emit q->countersChanged(counters);
    return true;
}

bool RoundRunner::Run::evaluateBaseline(std::optional<double> *baseline)
{
    const RoundConfig &config = q->m_config;
    if (!config.evaluateBaseline)
        return true;
    log(QStringLiteral("evaluating the initial program of %1").arg(task.name));
    EvaluationRequest request;
    request.task = task.name;
    request.candidatePath = task.initialProgram;
    request.sandboxMode = config.sandboxMode;
    const EvaluationResult r = q->m_backend->evaluate(request, *q->m_kill);
    if (r.metrics.value(QStringLiteral("refused")).toBool()) {
        error = QStringLiteral("%1 backend: %2").arg(q->m_backend->name(), r.error.value_or(r.failClass));
        return false;
    }
    *baseline = r.score;
    log(r.score ? QStringLiteral("baseline score %1").arg(*r.score, 0, 'g', 8)
                : QStringLiteral("the initial program has no score (%1); no baseline").arg(r.error.value_or(r.failClass)));
    return true;
}

bool RoundRunner::Run::planGrid(const QList<GridHistoryEntry> &entries, GridPlan *plan)
{
    const RoundConfig &config = q->m_config;
    GridContext context;
    context.history = entries;
    context.hardMaxBranches = config.hardMaxBranches;
    context.hardMaxRefinements = config.hardMaxRefinements;
    context.fallback = config.fallbackGrid;
    context.maxWorkers = workers;
    *plan = config.fallbackGrid;
    if (!policy->hasGridPlanner())
        return true;
    const GridPlanResult planned = policy->planGrid(context);
    if (const QString bad = EpisodeRules::checkGridPlan(planned, context); !bad.isEmpty()) {
        error = QStringLiteral("policy %1: %2").arg(policy->name(), bad);
        return false;
    }
    if (planned.plan)
        *plan = *planned.plan;
    return true;
}

bool RoundRunner::Run::storeNewIteration(const GridPlan &plan, std::optional<double> baseline)
{
    const RoundConfig &config = q->m_config;
    qint64 number = 0;
    if (const StoreResult<QList<IterationInfo>> list = await(q->m_store->iterations()); list.ok()) {
        for (const IterationInfo &it : *list.value)
            number = std::max(number, it.number.value_or(it.id));
    }
    IterationInfo row;
    row.number = number + 1;
    row.task = task.name;
    row.baselineScore = baseline;
    row.maxParallelism = workers;
    row.roundLimit = config.maxRounds;
    row.callLimit = config.maxCalls;
    row.grid = GridShape{plan.branches, plan.refinements};
    row.gridReason = plan.reason;
    row.beta = beta;
    row.policyVersion = policyVersion;
    row.started = QDateTime::currentDateTimeUtc();
    // The prices the round's costs are counted with, as they were when it
    // started (docs/online.md#before-a-round-preflight-and-cost).
    row.payload.insert(QStringLiteral("pricing"), PriceTable::current().toJson());
    const StoreResult<IterationId> id = await(q->m_store->beginIteration(row));
    if (!id.ok()) {
        error = id.error;
        return false;
    }
    iteration = *id.value;
    row.id = iteration;
    info = row;
    // Its live record at once: a reader that sees the row without one takes
    // the round for just begun only while this process holds the lock
    // (RoundLiveness::Observed::recordOf).
    projectPath = q->m_store->path();
    publishRunning();
    iterationDir = artifactDir + QStringLiteral("/attempts/%1").arg(iteration);
    tree = RoundTree(plan, baseline);
    tree.setDirections(task.directionNames());
    return true;
}

bool RoundRunner::Run::continueResumed()
{
    QStringList recorded;
    const int last = journal().lastRound(&recorded);
    if (last >= 0) {
        for (const QString &id : std::as_const(recorded)) {
            if (!tree.contains(id))
                pending.append(id);
        }
        completed = pending.isEmpty() ? last + 1 : last;
    }
    if (!pending.isEmpty())
        log(QStringLiteral("round %1 had attempts in flight; running again: %2")
                .arg(completed + 1)
                .arg(pending.join(QLatin1Char(' '))));
    counters.rounds = completed;
    if (!beginSteering(true))
        return false;
    policy->beginEpisode(beta, workers);
    return true;
}

bool RoundRunner::Run::loadHistory(const QString &taskName, QList<GridHistoryEntry> *entries)
{
    const StoreResult<QList<IterationInfo>> list = await(q->m_store->iterations());
    if (!list.ok()) {
        error = list.error;
        return false;
    }
    for (const IterationInfo &it : *list.value) {
        if (it.id == iteration || it.task.value_or(QString()) != taskName || it.status == IterationStatus::Running)
            continue;
        const StoreResult<IterationData> data = await(q->m_store->iterationData(it.id));
        if (!data.ok()) {
            error = data.error;
            return false;
        }
        const qint64 number = it.number.value_or(it.id);
        QSet<int> opened;
        int depth = 0;
        int rounds = 0;
        for (const Cell &c : data.value->cells) {
            history.append(recordOf(c, number));
            opened.insert(c.branch);
            depth = std::max(depth, c.attempt + 1);
            rounds = std::max(rounds, AttemptPayload::roundOf(c).value_or(-1) + 1);
        }
        if (entries && it.source.isEmpty()) {
            GridHistoryEntry e;
            e.iteration = number;
            e.plannedBranches = it.grid ? it.grid->branches : 0;
            e.plannedRefinements = it.grid ? it.grid->refinements : 0;
            e.openedBranches = int(opened.size());
            e.depth = depth;
            e.probes = int(data.value->cells.size());
            e.rounds = rounds;
            e.bestScore = it.bestScore;
            e.beta = it.beta.value_or(0.0);
            entries->append(e);
        }
    }
    return true;
}

RoundAttempt::Job RoundRunner::Run::jobFor(const QString &id, int round) const
{
    int branch = 0;
    int attempt = 0;
    RoundTree::parseId(id, &branch, &attempt);
    RoundAttempt::Job job;
    job.round = round;
    job.evaluationTask = task.name;
    job.initialProgram = task.initialProgram;
    job.sandboxMode = q->m_config.sandboxMode;
    AttemptContext &c = job.context;
    c.task = task.name;
    c.taskStatement = task.statement;
    c.programFileName = task.programFileName;
    c.cellId = id;
    c.branch = branch;
    c.attempt = attempt;
    c.iteration = info.number.value_or(iteration);
    c.workspaceDir = iterationDir + QLatin1Char('/') + id;
    c.baselineDir = task.directory;
    c.baselineScore = tree.baselineScore();
    c.history = history;
    if (const Task::Direction *d = task.directionFor(branch)) {
        c.directionHint = QStringLiteral("direction:") + d->name;
        c.directionDetail = d->detail;
    }
    c.researcherHint = book.hintFor(id);
    if (!c.researcherHint.isEmpty()) {
        // A hint naming one of the task's directions asks for it in this
        // attempt (the branch keeps its own direction tag).
        for (const Task::Direction &d : task.directions) {
            const QRegularExpression word(QStringLiteral("(^|[^A-Za-z0-9_])%1($|[^A-Za-z0-9_])")
                                              .arg(QRegularExpression::escape(d.name)),
                                          QRegularExpression::CaseInsensitiveOption);
            if (word.match(c.researcherHint).hasMatch()) {
                c.directionHint = QStringLiteral("direction:") + d.name;
                c.directionDetail = d.detail;
                break;
            }
        }
    }
    c.seed = mix(q->m_config.seed ^ mix(quint64(iteration) * 0x100000001ull + quint64(branch) * 65537u + quint64(attempt)));
    if (const Cell *p = tree.parent(branch, attempt)) {
        c.parentWorkspaceDir = iterationDir + QLatin1Char('/') + p->id;
        c.parentProgram = p->program();
        if (c.parentProgram.isEmpty()) {
            // The parent wrote no program (an agent failure): its
            // workspace still holds the program it started from.
            QFile inherited(c.parentWorkspaceDir + QLatin1Char('/') + task.programFileName);
            if (inherited.open(QIODevice::ReadOnly))
                c.parentProgram = QString::fromUtf8(inherited.readAll());
        }
        c.parentProposal = p->proposal();
        c.parentScore = p->score;
        c.parentError = p->error.value_or(QString());
    } else {
        QFile initial(task.initialProgram);
        if (initial.open(QIODevice::ReadOnly))
            c.parentProgram = QString::fromUtf8(initial.readAll());
    }
    return job;
}

} // namespace dreamrsi
