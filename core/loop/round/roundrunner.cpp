#include "roundrunner.h"

#include "model/attemptpayload.h"

#include "backend/evaluationbackend.h"
#include "roundattempt.h"
#include "roundbudget.h"
#include "roundpolicy.h"
#include "roundrun_p.h"
#include "roundsession.h"
#include "roundtask.h"
#include "roundtree.h"
#include "steeringbook.h"
#include "steeringinbox.h"

#include "agent/agent.h"
#include "store/projectstore.h"
#include "store/storeawait.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QFuture>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QSaveFile>
#include <QSet>
#include <QThread>
#include <QThreadPool>

#include <algorithm>
#include <cmath>
#include <condition_variable>
#include <deque>

namespace dreamrsi {

using RoundRunPrivate::recordOf;

namespace {

/// "1 cell", "2 cells".
QString countOf(qint64 n, const char *noun)
{
    return QStringLiteral("%1 %2%3").arg(n).arg(QLatin1String(noun), n == 1 ? QString() : QStringLiteral("s"));
}

} // namespace

QString RoundRunner::describeOutcome(const Cell &c)
{
    if (c.score)
        return QStringLiteral("score %1 (%2)").arg(*c.score, 0, 'g', 6).arg(c.failClass);
    if (!c.error || c.error->trimmed().isEmpty())
        return QStringLiteral("%1: no score").arg(c.failClass);
    // A traceback's last line says what went wrong: it is kept whole, the
    // rest is the cell's error in the inspector.
    const QStringList lines = c.error->trimmed().split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    const QString last = lines.constLast().trimmed();
    QString text = QStringLiteral("%1: %2").arg(c.failClass, last);
    if (lines.size() > 1)
        text += QStringLiteral(" (the whole error is in the inspector)");
    return text;
}

namespace {

/// Completed attempts, handed from the workers to the driver.
struct Completions
{
    std::mutex mutex;
    std::condition_variable ready;
    std::deque<RoundAttempt::Outcome> done;

    void push(RoundAttempt::Outcome r)
    {
        {
            std::lock_guard lock(mutex);
            done.push_back(std::move(r));
        }
        ready.notify_one();
    }
    RoundAttempt::Outcome take()
    {
        std::unique_lock lock(mutex);
        ready.wait(lock, [this] { return !done.empty(); });
        RoundAttempt::Outcome r = std::move(done.front());
        done.pop_front();
        return r;
    }
};

} // namespace

void RoundRunner::Run::addCounters(const Cell &c)
{
    RoundSession::count(counters, c);
    counters.bestScore = tree.bestScore(); // resumed cells count towards the best too
}

Cell RoundRunner::Run::cellOf(const RoundAttempt::Outcome &r, const AgentUsage &usage) const
{
    Cell c;
    c.id = r.cellId;
    c.branch = r.branch;
    c.attempt = r.attempt;
    c.seq = tree.nextSeq();
    if (const RoundTask::Direction *d = task.directionFor(r.branch))
        c.tags = {QStringLiteral("direction:") + d->name};
    if (!book.hintFor(r.cellId).isEmpty())
        c.tags.append(QStringLiteral("hint"));
    QJsonObject payload;
    if (!r.setupError.isEmpty()) {
        c.failClass = QString::fromLatin1(FailClass::Env);
        c.error = r.setupError;
    } else if (!r.outcome.ok) {
        c.failClass = QString::fromLatin1(FailClass::Agent);
        c.error = r.outcome.error;
    } else if (r.evaluation) {
        const EvaluationResult &e = *r.evaluation;
        c.score = e.score;
        c.evaluated = e.score.has_value();
        c.valid = e.valid;
        c.failClass = e.failClass.isEmpty()
                          ? QString::fromLatin1(c.evaluated ? FailClass::Ok : FailClass::Env)
                          : e.failClass;
        c.error = e.error;
        c.nValid = e.nValid;
        c.nTotal = e.nTotal;
        payload.insert(QStringLiteral("metrics"), e.metrics);
    }
    if (r.outcome.ok) {
        payload.insert(QStringLiteral("proposal"), r.outcome.proposal);
        payload.insert(QStringLiteral("program"), r.outcome.program);
    }
    AttemptPayload::Agent agent;
    agent.name = q->m_agent->kind();
    agent.model = usage.model.isEmpty() ? q->m_agent->model() : usage.model;
    agent.tokensIn = usage.tokensIn;
    agent.tokensOut = usage.tokensOut;
    agent.cost = usage.usd;
    agent.latencyS = usage.latencyS;
    agent.retries = usage.retries;
    agent.requests = usage.calls;
    payload.insert(QLatin1String(AttemptPayload::Key::agent), agent.toJson());
    AttemptPayload::Timing timing;
    timing.agentS = r.agentSeconds;
    timing.evalS = r.evalSeconds;
    timing.wallS = r.wallSeconds;
    if (r.scheduling) {
        // Where the evaluation ran: its job, and the queue wait apart from the run.
        const EvaluationProgress &p = *r.scheduling;
        timing.queueWaitS = p.queueWaitS;
        timing.runS = p.runS;
        AttemptPayload::Scheduler scheduler;
        scheduler.backend = p.backend;
        scheduler.jobId = p.jobId;
        scheduler.state = p.state;
        if (p.reason != QLatin1String("None"))
            scheduler.reason = p.reason;
        scheduler.submits = p.submits;
        payload.insert(QLatin1String(AttemptPayload::Key::scheduler), scheduler.toJson());
    }
    // When the attempt ended (UTC): the live dashboard's time axis, for
    // this process and for a workbench following the round from another.
    timing.ended = QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs);
    payload.insert(QLatin1String(AttemptPayload::Key::timing), timing.toJson());
    payload.insert(QLatin1String(AttemptPayload::Key::round), r.round);
    payload.insert(QLatin1String(AttemptPayload::Key::workspace),
                   QDir(artifactDir).relativeFilePath(r.workspace));
    c.payload = payload;
    return c;
}

bool RoundRunner::Run::store(const RoundAttempt::Outcome &r)
{
    const Cell cell = cellOf(r, r.outcome.usage);
    // Every artifact is handed to the store's writer thread before the
    // first answer is awaited: the writes queue up there in order, and
    // the attempt waits for the writer once instead of once per file.
    QList<QFuture<StoreResult<ArtifactRef>>> pending;
    QString problem;
    auto put = [&](const QString &file, const QString &name) {
        QFile f(r.workspace + QLatin1Char('/') + file);
        if (!f.exists())
            return true;
        if (!f.open(QIODevice::ReadOnly)) {
            problem = QStringLiteral("cannot read '%1': %2").arg(f.fileName(), f.errorString());
            return false;
        }
        pending.append(q->m_store->putArtifact(f.readAll(), name));
        return true;
    };
    const bool allRead = put(QStringLiteral("proposal.md"), QStringLiteral("proposal.md")) &&
                         (!r.outcome.ok || put(r.programFileName, r.programFileName)) &&
                         put(QStringLiteral("eval/score.json"), QStringLiteral("score.json")) &&
                         put(QStringLiteral("agent.log"), QStringLiteral("agent.log")) &&
                         put(QStringLiteral("error.txt"), QStringLiteral("error.txt"));
    QList<ArtifactRef> refs; // every answer is awaited, even after a failure
    for (QFuture<StoreResult<ArtifactRef>> &f : pending) {
        const StoreResult<ArtifactRef> ref = await(std::move(f));
        if (!ref.ok() && problem.isEmpty())
            problem = ref.error;
        if (ref.ok())
            refs.append(*ref.value);
    }
    if (!allRead || !problem.isEmpty()) {
        error = problem;
        return false;
    }
    const StoreResult<Done> stored = await(q->m_store->appendCell(iteration, cell, refs));
    if (!stored.ok()) {
        error = stored.error;
        return false;
    }
    tree.add(cell);
    history.append(recordOf(cell, info.number.value_or(iteration)));
    addCounters(cell);
    emit q->cellFinished(iteration, cell);
    QString where;
    if (r.scheduling) {
        const EvaluationProgress &p = *r.scheduling;
        where = QStringLiteral(": %1 job %2").arg(p.backend, p.jobId);
        if (p.queueWaitS)
            where += QStringLiteral(", queued %1 s").arg(*p.queueWaitS, 0, 'f', 2);
        if (p.runS)
            where += QStringLiteral(", ran %1 s").arg(*p.runS, 0, 'f', 2);
    }
    // The timings first: the outcome ends the line, an error's last line whole.
    log(QStringLiteral("%1 finished (agent %2 s, eval %3 s%4): %5")
            .arg(cell.id)
            .arg(r.agentSeconds, 0, 'f', 2)
            .arg(r.evalSeconds, 0, 'f', 2)
            .arg(where, describeOutcome(cell)));
    return true;
}

bool RoundRunner::Run::runBatch(int round, const QStringList &ids)
{
    QThreadPool pool;
    pool.setMaxThreadCount(std::max(1, workers));
    auto completions = std::make_shared<Completions>();
    std::shared_ptr<DiscoveryAgent> agent = q->m_agent;
    std::shared_ptr<EvaluationBackend> backend = q->m_backend;
    std::shared_ptr<std::atomic_bool> kill = q->m_kill;
    for (const QString &id : ids) {
        RoundAttempt::Job job = jobFor(id, round);
        emit q->attemptStarted(id);
        RoundRunner *runner = q;
        pool.start([job = std::move(job), agent, backend, kill, completions, runner, id]() {
            completions->push(
                RoundAttempt::run(job, *agent, *backend, *kill, [runner, &id](const EvaluationProgress &p) {
                    emit runner->attemptProgress(id, p);
                }));
        });
    }
    counters.running = int(ids.size());
    emit q->countersChanged(counters);
    bool ok = true;
    QString refused; // a job the backend refused for good: no later one would run either
    for (qsizetype i = 0; i < ids.size(); ++i) {
        RoundAttempt::Outcome r = completions->take();
        counters.running -= 1;
        if (refused.isEmpty() && r.evaluation &&
            r.evaluation->metrics.value(QStringLiteral("refused")).toBool())
            refused = r.evaluation->error.value_or(r.evaluation->failClass);
        if (r.abandoned || !ok) {
            emit q->attemptAbandoned(r.cellId);
            log(QStringLiteral("%1 killed; it runs again on resume").arg(r.cellId));
        } else if (!store(r)) {
            ok = false;
            q->m_kill->store(true); // the others cannot be stored either
        }
        emit q->countersChanged(counters);
    }
    pool.waitForDone();
    if (ok && !refused.isEmpty()) {
        error = QStringLiteral("%1 backend: %2; the round stops before more agent calls")
                    .arg(q->m_backend->name(), refused);
        return false;
    }
    return ok;
}

RoundRunner::RoundRunner(ProjectStore *store, RoundConfig config, std::shared_ptr<DiscoveryAgent> agent,
                         std::shared_ptr<EvaluationBackend> backend, QObject *parent)
    : RoundEvents(parent), m_store(store), m_config(std::move(config)), m_agent(std::move(agent)),
      m_backend(std::move(backend)), m_kill(std::make_shared<std::atomic_bool>(false))
{
}

RoundRunner::~RoundRunner()
{
    if (m_thread) {
        m_stopRequests.fetch_add(2);
        m_kill->store(true);
        m_thread->wait();
        delete m_thread;
    }
}

void RoundRunner::start()
{
    if (m_thread)
        return;
    m_running.store(true);
    m_thread = QThread::create([this] { run(); });
    m_thread->setObjectName(QStringLiteral("dreamrsi-round"));
    m_thread->start();
}

void RoundRunner::stop(StopMode mode)
{
    if (mode == StopMode::Kill) {
        // Counts as the second request, whatever came before.
        int n = m_stopRequests.load();
        while (n < 2 && !m_stopRequests.compare_exchange_weak(n, 2)) {
        }
        m_kill->store(true);
        return;
    }
    int n = m_stopRequests.load();
    while (n < 1 && !m_stopRequests.compare_exchange_weak(n, 1)) {
    }
}

void RoundRunner::wait()
{
    if (m_thread)
        m_thread->wait();
}

RoundSummary RoundRunner::summary() const
{
    std::lock_guard lock(m_summaryMutex);
    return m_summary;
}

void RoundRunner::run()
{
    Run run(this);
    RoundSummary summary;
    auto conclude = [&](IterationStatus status) {
        run.endSteering();
        summary.iteration = run.iteration;
        summary.status = status;
        summary.counters = run.counters;
        summary.counters.running = 0;
        summary.grid = run.tree.plan();
        summary.stopReason = run.stopReason;
        summary.error = run.error;
        {
            std::lock_guard lock(m_summaryMutex);
            m_summary = summary;
        }
        if (!run.error.isEmpty())
            emit logLine(QStringLiteral("error: ") + run.error);
        // The reason only when it says more than the status ("stopped (stopped)" does not).
        const QString statusName = iterationStatusName(status);
        const QString reason = run.stopReason.isEmpty() ? run.error : run.stopReason;
        emit logLine(QStringLiteral("iteration %1 %2%3: %4, %5")
                         .arg(run.iteration)
                         .arg(statusName, reason.isEmpty() || reason == statusName ? QString()
                                                                                  : QStringLiteral(" (%1)").arg(reason))
                         .arg(countOf(run.counters.cells, "cell"), countOf(run.counters.rounds, "round")));
        m_running.store(false);
        emit finished(summary);
    };
    auto closeIteration = [&](IterationStatus status) {
        if (run.iteration != 0) {
            const StoreResult<Done> done = await(m_store->finishIteration(run.iteration, status));
            if (!done.ok() && run.error.isEmpty())
                run.error = done.error;
        }
        conclude(status);
    };

    if (!m_agent || !m_backend || !m_store) {
        run.error = QStringLiteral("the round has no agent, evaluation backend or project");
        conclude(IterationStatus::Stopped);
        return;
    }
    if (const QString problem = m_backend->prepare(); !problem.isEmpty()) {
        run.error = QStringLiteral("%1 backend: %2").arg(m_backend->name(), problem);
        conclude(IterationStatus::Stopped);
        return;
    }
    if (!run.begin()) {
        // A resumed iteration that could not be reopened stays as it was.
        closeIteration(IterationStatus::Stopped);
        return;
    }
    {
        // The first evaluation's job as the backend would run it: a cluster
        // that would refuse it is found before any agent call is paid for.
        EvaluationRequest first;
        first.task = run.task.name;
        first.candidatePath = run.task.initialProgram;
        first.sandboxMode = m_config.sandboxMode;
        if (const QString refused = m_backend->checkJob(first); !refused.isEmpty()) {
            run.error = QStringLiteral("%1 backend: %2").arg(m_backend->name(), refused);
            closeIteration(IterationStatus::Stopped);
            return;
        }
    }
    const Result<RoundPolicy> resolved =
        RoundPolicy::resolve(*m_store, m_config.policy, run.info.policyVersion, m_config.seed);
    Result<std::unique_ptr<Policy>> made =
        resolved ? resolved.value->spec.create() : resolved.failureAs<std::unique_ptr<Policy>>();
    if (!made) {
        run.error = made.error;
        closeIteration(IterationStatus::Stopped);
        return;
    }
    std::unique_ptr<Policy> policy = std::move(*made.value);
    emit logLine(QStringLiteral("policy: ") + resolved.value->description);
    run.manual = resolved.value->manual;

    int completed = 0;
    QStringList pending;
    if (m_config.resume == 0) {
        // A new iteration: baseline, grid plan, then the row.
        QList<GridHistoryEntry> entries;
        if (!run.loadHistory(run.task.name, &entries)) {
            conclude(IterationStatus::Stopped);
            return;
        }
        std::optional<double> baseline;
        if (m_config.evaluateBaseline) {
            emit logLine(QStringLiteral("evaluating the initial program of %1").arg(run.task.name));
            EvaluationRequest request;
            request.task = run.task.name;
            request.candidatePath = run.task.initialProgram;
            request.sandboxMode = m_config.sandboxMode;
            const EvaluationResult r = m_backend->evaluate(request, *m_kill);
            if (r.metrics.value(QStringLiteral("refused")).toBool()) {
                run.error = QStringLiteral("%1 backend: %2").arg(m_backend->name(), r.error.value_or(r.failClass));
                conclude(IterationStatus::Stopped);
                return;
            }
            baseline = r.score;
            emit logLine(r.score ? QStringLiteral("baseline score %1").arg(*r.score, 0, 'g', 8)
                                 : QStringLiteral("the initial program has no score (%1); no baseline")
                                       .arg(r.error.value_or(r.failClass)));
        }
        if (m_stopRequests.load() > 0) {
            run.stopReason = QStringLiteral("stopped");
            conclude(IterationStatus::Stopped);
            return;
        }
        run.beta = m_config.beta ? *m_config.beta : policy->defaultBeta().value_or(0.5);
        policy->beginEpisode(run.beta, run.workers);
        GridContext context;
        context.history = entries;
        context.hardMaxBranches = m_config.hardMaxBranches;
        context.hardMaxRefinements = m_config.hardMaxRefinements;
        context.fallback = m_config.fallbackGrid;
        context.maxWorkers = run.workers;
        GridPlan plan = m_config.fallbackGrid;
        if (policy->hasGridPlanner()) {
            const GridPlanResult planned = policy->planGrid(context);
            QString bad = planned.error;
            if (bad.isEmpty() && planned.plan) {
                const GridPlan &g = *planned.plan;
                if (g.branches < 1 || g.branches > context.hardMaxBranches)
                    bad = QStringLiteral("planGrid: branches %1 is outside 1..%2").arg(g.branches).arg(context.hardMaxBranches);
                else if (g.refinements < 0 || g.refinements > context.hardMaxRefinements)
                    bad = QStringLiteral("planGrid: refinements %1 is outside 0..%2")
                              .arg(g.refinements)
                              .arg(context.hardMaxRefinements);
            }
            if (!bad.isEmpty()) {
                run.error = QStringLiteral("policy %1: %2").arg(policy->name(), bad);
                conclude(IterationStatus::Stopped);
                return;
            }
            if (planned.plan)
                plan = *planned.plan;
        }
        qint64 number = 0;
        if (const StoreResult<QList<IterationInfo>> list = await(m_store->iterations()); list.ok()) {
            for (const IterationInfo &it : *list.value)
                number = std::max(number, it.number.value_or(it.id));
        }
        IterationInfo info;
        info.number = number + 1;
        info.task = run.task.name;
        info.baselineScore = baseline;
        info.maxParallelism = run.workers;
        info.roundLimit = m_config.maxRounds;
        info.callLimit = m_config.maxCalls;
        info.grid = GridShape{plan.branches, plan.refinements};
        info.gridReason = plan.reason;
        info.beta = run.beta;
        info.policyVersion = resolved.value->version;
        info.started = QDateTime::currentDateTimeUtc();
        const StoreResult<IterationId> id = await(m_store->beginIteration(info));
        if (!id.ok()) {
            run.error = id.error;
            conclude(IterationStatus::Stopped);
            return;
        }
        run.iteration = *id.value;
        info.id = run.iteration;
        run.info = info;
        run.iterationDir = run.artifactDir + QStringLiteral("/attempts/%1").arg(run.iteration);
        run.tree = RoundTree(plan, baseline);
        run.tree.setDirections(run.task.directionNames());
        if (!run.beginSteering(false)) {
            closeIteration(IterationStatus::Stopped);
            return;
        }
        emit logLine(QStringLiteral("iteration %1: grid %2 branches × %3 refinements (%4), β %5, W %6, policy %7")
                         .arg(run.iteration)
                         .arg(plan.branches)
                         .arg(plan.refinements)
                         .arg(plan.reason.isEmpty() ? QStringLiteral("no reason given") : plan.reason)
                         .arg(run.beta)
                         .arg(run.workers)
                         .arg(policy->name()));
        info.status = IterationStatus::Running;
        emit iterationStarted(info, false);
        emit countersChanged(run.counters);
    } else {
        QStringList recorded;
        const int last = run.journal().lastRound(&recorded);
        if (last >= 0) {
            for (const QString &id : std::as_const(recorded)) {
                if (!run.tree.contains(id))
                    pending.append(id);
            }
            completed = pending.isEmpty() ? last + 1 : last;
        }
        if (!pending.isEmpty())
            emit logLine(QStringLiteral("round %1 had attempts in flight; running again: %2")
                             .arg(completed + 1)
                             .arg(pending.join(QLatin1Char(' '))));
    }
    run.counters.rounds = completed;
    if (m_config.resume != 0 && !run.beginSteering(true)) {
        closeIteration(IterationStatus::Stopped);
        return;
    }
    if (m_config.resume != 0)
        policy->beginEpisode(run.beta, run.workers);

    PolicyState state;
    for (;;) {
        if (m_stopRequests.load() > 0) {
            run.stopReason = QStringLiteral("stopped");
            break;
        }
        // Steering between batches (never before the rerun of a batch that
        // was in flight: its interventions came before it).
        if (pending.isEmpty()) {
            if (!run.pollSteering(completed))
                break;
            if (run.book.paused()) {
                emit logLine(QStringLiteral("round %1: paused; waiting for continue (or Stop)").arg(completed + 1));
                emit pausedChanged(true);
                bool ok = true;
                while (ok && run.book.paused() && m_stopRequests.load() == 0) {
                    QThread::msleep(100);
                    ok = run.pollSteering(completed);
                }
                emit pausedChanged(false);
                if (!ok)
                    break;
                if (m_stopRequests.load() > 0) {
                    run.stopReason = QStringLiteral("stopped");
                    break;
                }
            }
        }
        QStringList batch;
        bool fresh = false;
        if (!pending.isEmpty()) {
            batch = std::exchange(pending, {});
        } else {
            fresh = true;
            if (m_config.maxRounds && completed >= *m_config.maxRounds) {
                run.stopReason = QStringLiteral("round limit %1 reached").arg(*m_config.maxRounds);
                break;
            }
            if (const QString budget = RoundBudget::reached(m_config, run.counters); !budget.isEmpty()) {
                run.stopReason = budget;
                break;
            }
            // Pinned cells go first; the policy gets the rest of W and a
            // legal list without the pins and the closed branches.
            const QStringList pins = run.book.pins(run.tree, run.workers);
            const QList<CellMeta> legal = run.tree.legal();
            const QList<CellMeta> policyLegal = run.book.policyLegal(legal, pins);
            if (pins.isEmpty() && policyLegal.isEmpty()) {
                run.stopReason = legal.isEmpty() ? QStringLiteral("no legal cell left in the grid")
                                                 : QStringLiteral("no legal cell left in the grid (the others are closed)");
                break;
            }
            const int policyWorkers = run.workers - int(pins.size());
            QStringList chosen;
            if (run.manual) {
                // A person picks the batch (a `batch` request); Stop ends the wait.
                QStringList legalIds;
                for (const CellMeta &m : policyLegal)
                    legalIds.append(m.id);
                emit batchWanted(completed, legalIds, run.workers);
                emit logLine(QStringLiteral("round %1: waiting for the researcher's batch").arg(completed + 1));
                bool ok = true;
                while (ok && !run.manualBatch && m_stopRequests.load() == 0) {
                    QThread::msleep(100);
                    ok = run.pollSteering(completed);
                }
                if (!ok)
                    break;
                if (!run.manualBatch) {
                    run.stopReason = QStringLiteral("stopped");
                    break;
                }
                chosen = *std::exchange(run.manualBatch, std::nullopt);
                if (chosen.isEmpty()) {
                    run.stopReason = QStringLiteral("the researcher picked an empty batch");
                    break;
                }
            } else if (policyWorkers > 0 && !policyLegal.isEmpty()) {
                run.tree.fillState(state, run.beta, run.workers, completed);
                PolicySteering steering = run.book.view(run.tree, pins);
                if (!steering.isEmpty()) {
                    state.setLegal(policyLegal);
                    state.setMaxParallelism(policyWorkers);
                    state.setSteering(std::move(steering));
                }
                const PolicyDecision decision = policy->selectBatch(state);
                const QString where = QStringLiteral("round %1: ").arg(completed + 1);
                if (!decision.ok()) {
                    run.error = where + decision.error;
                    break;
                }
                if (const QString illegal = RoundTree::checkBatchAgainst(decision.batch, policyLegal, policyWorkers);
                    !illegal.isEmpty()) {
                    run.error = where + illegal;
                    break;
                }
                if (decision.batch.isEmpty() && pins.isEmpty()) {
                    run.stopReason = QStringLiteral("the policy returned an empty batch");
                    break;
                }
                chosen = decision.batch;
            }
            batch = pins + chosen;
            if (!pins.isEmpty())
                emit logLine(QStringLiteral("round %1: pinned first by hand: %2")
                                 .arg(completed + 1)
                                 .arg(pins.join(QLatin1Char(' '))));
            if (m_config.maxCalls && run.counters.calls + batch.size() > *m_config.maxCalls) {
                batch = batch.mid(0, qsizetype(*m_config.maxCalls - run.counters.calls));
                emit logLine(QStringLiteral("round %1: batch cut to %2 ids by the %3-call budget")
                                 .arg(completed + 1)
                                 .arg(batch.size())
                                 .arg(*m_config.maxCalls));
            }
        }
        if (const Result<Done> recorded = run.journal().record(completed, batch); !recorded.ok()) {
            run.error = recorded.error;
            break;
        }
        if (fresh)
            run.book.noteBatch(batch);
        emit logLine(QStringLiteral("round %1: %2").arg(completed + 1).arg(batch.join(QLatin1Char(' '))));
        emit roundStarted(completed, batch);
        const bool stored = run.runBatch(completed, batch);
        if (!stored)
            break;
        if (m_kill->load()) {
            run.stopReason = QStringLiteral("stopped; running attempts killed");
            break;
        }
        if (completed == 0) { // only the first round: later env failures stay cells
            if (const QString cause = RoundBudget::environmentFailure(run.tree.cells()); !cause.isEmpty()) {
                run.error = cause;
                break;
            }
        }
        completed += 1;
        run.counters.rounds = completed;
        emit countersChanged(run.counters);
    }
    const bool stopped = m_stopRequests.load() > 0 || !run.error.isEmpty();
    if (m_stopRequests.load() > 0 && run.stopReason.isEmpty() && run.error.isEmpty())
        run.stopReason = QStringLiteral("stopped");
    closeIteration(stopped ? IterationStatus::Stopped : IterationStatus::Finished);
}

} // namespace dreamrsi
