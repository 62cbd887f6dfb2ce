#include "roundrunner.h"

#include "model/attemptpayload.h"

#include "backend/evaluationbackend.h"
#include "roundattempt.h"
#include "roundbudget.h"
#include "roundpolicy.h"
#include "roundliveness.h"
#include "roundrun_p.h"

#include "project/projectworlds.h"
#include "project/valuationworlds.h"
#include "roundsession.h"
#include "task/task.h"
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
#include <chrono>
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
    /// The next completed attempt, or nothing after `wait`.
    std::optional<RoundAttempt::Outcome> takeFor(std::chrono::milliseconds wait)
    {
        std::unique_lock lock(mutex);
        if (!ready.wait_for(lock, wait, [this] { return !done.empty(); }))
            return std::nullopt;
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
    if (const Task::Direction *d = task.directionFor(r.branch))
        c.tags = {QStringLiteral("direction:") + d->name};
    if (!book.hintFor(r.cellId).isEmpty())
        c.tags.append(QStringLiteral("hint"));
    QJsonObject payload;
    if (const auto reason = probeReasons.constFind(r.cellId); reason != probeReasons.cend()) {
        c.tags.append(Probes::tag());
        payload.insert(Probes::reasonKey(), *reason);
    }
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
    for (const QString &id : ids) {
        RoundAttempt::Job job = jobFor(id, round);
        auto control = std::make_shared<RoundAttempt::Control>();
        control->begin(); // its age counts from now; the worker begins it again as it starts
        running[id] = control;
        emit q->attemptStarted(id);
        RoundRunner *runner = q;
        pool.start([job = std::move(job), agent, backend, control, completions, runner, id]() {
            completions->push(
                RoundAttempt::run(job, *agent, *backend, *control, [runner, &id](const EvaluationProgress &p) {
                    emit runner->attemptProgress(id, p);
                }));
        });
    }
    counters.running = int(ids.size());
    emit q->countersChanged(counters);
    publishRunning();
    bool ok = true;
    QString refused; // a job the backend refused for good: no later one would run either
    for (qsizetype i = 0; i < ids.size(); ++i) {
        std::optional<RoundAttempt::Outcome> next;
        while (!(next = completions->takeFor(std::chrono::milliseconds(200))))
            watchRunning();
        RoundAttempt::Outcome r = std::move(*next);
        running.erase(r.cellId);
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
        publishRunning();
    }
    pool.waitForDone();
    if (ok && !refused.isEmpty()) {
        error = QStringLiteral("%1 backend: %2; the round stops before more agent calls")
                    .arg(q->m_backend->name(), refused);
        return false;
    }
    return ok;
}

void RoundRunner::Run::watchRunning()
{
    const bool killAll = q->m_kill->load();
    const double limitS = q->m_config.agentTimeLimitS;
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    for (const auto &[id, control] : running) {
        if (killAll) {
            control->end(RoundAttempt::Control::Ending::Abandon, QStringLiteral("the round was killed"));
        } else if (limitS > 0 && control->phase() == RoundAttempt::Control::Phase::Agent
                   && double(now - control->phaseStartedMs()) / 1000.0 > limitS) {
            const QString why = QStringLiteral("the agent call ran past its wall-clock limit of %1 s and was killed").arg(limitS);
            if (control->ending() == RoundAttempt::Control::Ending::None)
                log(QStringLiteral("%1: %2").arg(id, why));
            control->end(RoundAttempt::Control::Ending::AgentTimeLimit, why);
        }
    }
    if (!killAll && steerable && !pollKills())
        q->m_kill->store(true); // a store error: the round stops (error is set)
    publishRunning();
}

bool RoundRunner::Run::pollKills()
{
    for (const SteeringRequest &r : SteeringInbox::pending(projectPath)) {
        if (r.action != QLatin1String("kill"))
            continue; // applied before the next batch
        SteeringAck ack;
        ack.id = r.id;
        const auto it = running.find(r.attempt);
        if (it == running.end() || it->second->ending() != RoundAttempt::Control::Ending::None) {
            QStringList ids;
            for (const auto &[id, control] : running)
                ids.append(id);
            ack.message = QStringLiteral("%1 is not running (running: %2)")
                              .arg(r.attempt, ids.isEmpty() ? QStringLiteral("none") : ids.join(QLatin1Char(' ')));
        } else {
            SteeringEvent e;
            e.iteration = iteration;
            e.round = completed;
            e.who = r.by;
            e.action = r.action;
            static const QRegularExpression cellId(QStringLiteral("^b(\\d+)a\\d+$"));
            if (const QRegularExpressionMatch m = cellId.match(r.attempt); m.hasMatch())
                e.branch = m.captured(1).toInt();
            e.target = r.attempt;
            e.why = r.why;
            e.requestId = r.id;
            const StoreResult<qint64> stored = await(q->m_store->addSteeringEvent(e));
            if (!stored.ok()) {
                error = stored.error;
                return false;
            }
            e.id = *stored.value;
            const QString who = r.by.isEmpty() ? QStringLiteral("someone") : r.by;
            const QString reason = QStringLiteral("killed by %1 while in %2%3")
                                       .arg(who, RoundLiveness::phaseName(it->second->phase()),
                                            r.why.isEmpty() ? QString() : QStringLiteral(": ") + r.why);
            it->second->end(RoundAttempt::Control::Ending::Killed, reason);
            appliedRequests.insert(r.id);
            ack.applied = true;
            ack.eventId = e.id;
            ack.message = QStringLiteral("killed %1; it is stored as an env failure and the round goes on").arg(r.attempt);
            log(QStringLiteral("steering: %1 %2").arg(r.attempt, reason));
            emit q->steered(e);
        }
        if (const Result<Done> answered = SteeringInbox::acknowledge(projectPath, ack); !answered.ok())
            log(QStringLiteral("steering: cannot answer request %1: %2").arg(r.id, answered.error));
    }
    return true;
}

void RoundRunner::Run::publishRunning()
{
    if (projectPath.isEmpty())
        return;
    LiveRound live;
    live.iteration = iteration;
    const double evalLimitS = task.timeLimitSeconds ? *task.timeLimitSeconds + RoundLiveness::evaluationGraceS : 0.0;
    for (const auto &[id, control] : running) {
        LiveAttempt a;
        a.id = id;
        a.phase = RoundLiveness::phaseName(control->phase());
        a.started = QDateTime::fromMSecsSinceEpoch(control->startedMs(), Qt::UTC);
        a.phaseStarted = QDateTime::fromMSecsSinceEpoch(control->phaseStartedMs(), Qt::UTC);
        switch (control->phase()) {
        case RoundAttempt::Control::Phase::Agent:
            a.limitS = std::max(0.0, q->m_config.agentTimeLimitS);
            break;
        case RoundAttempt::Control::Phase::Evaluation:
            a.limitS = evalLimitS;
            break;
        case RoundAttempt::Control::Phase::Queued:
            break; // a queue has no limit of ours
        }
        live.attempts.append(a);
    }
    // A heartbeat nobody can read is no reason to stop a round.
    RoundLiveness::publish(projectPath, live);
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
        wakeDriver();
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
        wakeDriver();
        return;
    }
    int n = m_stopRequests.load();
    while (n < 1 && !m_stopRequests.compare_exchange_weak(n, 1)) {
    }
    wakeDriver();
}

void RoundRunner::wakeDriver()
{
    // Taken once so that a driver between its check of the stop requests
    // and its wait does not miss the notification.
    { std::lock_guard lock(m_wakeMutex); }
    m_wake.notify_all();
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
    const bool ready = run.setUp() && (m_config.resume == 0 ? run.openNewIteration() : run.continueResumed());
    if (!ready) {
        // An iteration opened (or reopened) before the failure is closed as
        // stopped; before that, this only concludes.
        run.closeIteration(IterationStatus::Stopped);
        return;
    }
    run.runRounds();
    run.finish();
}

bool RoundRunner::Run::stopAsked() const
{
    return q->m_stopRequests.load() > 0;
}

void RoundRunner::Run::runRounds()
{
    PolicyState state;
    for (;;) {
        if (stopAsked()) {
            stopReason = QStringLiteral("stopped");
            return;
        }
        // Steering between batches (never before the rerun of a batch that
        // was in flight: its interventions came before it).
        if (pending.isEmpty() && !steerBeforeBatch())
            return;
        const bool fresh = pending.isEmpty();
        QStringList batch;
        if (!fresh) {
            batch = std::exchange(pending, {});
        } else if (!nextBatch(state, &batch)) {
            // The policy is done: the probes, unless a stop or an error ended it.
            if (error.isEmpty() && !stopAsked() && probe.enabled() && !manual)
                runProbes();
            return;
        }
        if (!runRound(batch, fresh))
            return;
    }
}

bool RoundRunner::Run::steerBeforeBatch()
{
    if (!pollSteering(completed))
        return false;
    if (!book.paused())
        return true;
    log(QStringLiteral("round %1: paused; waiting for continue (or Stop)").arg(completed + 1));
    emit q->pausedChanged(true);
    const bool ok = waitWhile([this] { return book.paused(); });
    emit q->pausedChanged(false);
    if (!ok)
        return false;
    if (stopAsked()) {
        stopReason = QStringLiteral("stopped");
        return false;
    }
    return true;
}

bool RoundRunner::Run::waitWhile(const std::function<bool()> &waiting)
{
    while (waiting() && !stopAsked()) {
        {
            std::unique_lock lock(q->m_wakeMutex);
            q->m_wake.wait_for(lock, std::chrono::milliseconds(100), [this] { return stopAsked(); });
        }
        if (!pollSteering(completed))
            return false;
    }
    return true;
}

bool RoundRunner::Run::nextBatch(PolicyState &state, QStringList *batch)
{
    const RoundConfig &config = q->m_config;
    if (config.maxRounds && completed >= *config.maxRounds) {
        stopReason = QStringLiteral("round limit %1 reached").arg(*config.maxRounds);
        return false;
    }
    if (const QString budget = RoundBudget::reached(config, counters); !budget.isEmpty()) {
        stopReason = budget;
        return false;
    }
    // Pinned cells go first; the policy gets the rest of W and a
    // legal list without the pins and the closed branches.
    const QStringList pins = book.pins(tree, workers);
    const QList<CellMeta> legal = tree.legal();
    const QList<CellMeta> policyLegal = book.policyLegal(legal, pins);
    if (pins.isEmpty() && policyLegal.isEmpty()) {
        stopReason = legal.isEmpty() ? QStringLiteral("no legal cell left in the grid")
                                     : QStringLiteral("no legal cell left in the grid (the others are closed)");
        return false;
    }
    QStringList chosen;
    if (manual ? !askResearcher(policyLegal, &chosen) : !askPolicy(state, pins, policyLegal, &chosen))
        return false;
    *batch = pins + chosen;
    if (!pins.isEmpty())
        log(QStringLiteral("round %1: pinned first by hand: %2").arg(completed + 1).arg(pins.join(QLatin1Char(' '))));
    if (config.maxCalls && counters.calls + batch->size() > *config.maxCalls) {
        *batch = batch->mid(0, qsizetype(*config.maxCalls - counters.calls));
        log(QStringLiteral("round %1: batch cut to %2 ids by the %3-call budget")
                .arg(completed + 1)
                .arg(batch->size())
                .arg(*config.maxCalls));
    }
    return true;
}

bool RoundRunner::Run::askResearcher(const QList<CellMeta> &legal, QStringList *chosen)
{
    // A person picks the batch (a `batch` request); Stop ends the wait.
    QStringList legalIds;
    for (const CellMeta &m : legal)
        legalIds.append(m.id);
    emit q->batchWanted(completed, legalIds, workers);
    log(QStringLiteral("round %1: waiting for the researcher's batch").arg(completed + 1));
    if (!waitWhile([this] { return !manualBatch; }))
        return false;
    if (!manualBatch) {
        stopReason = QStringLiteral("stopped");
        return false;
    }
    *chosen = *std::exchange(manualBatch, std::nullopt);
    if (chosen->isEmpty()) {
        stopReason = QStringLiteral("the researcher picked an empty batch");
        return false;
    }
    return true;
}

bool RoundRunner::Run::askPolicy(PolicyState &state, const QStringList &pins, const QList<CellMeta> &legal,
                                 QStringList *chosen)
{
    const int policyWorkers = workers - int(pins.size());
    if (policyWorkers <= 0 || legal.isEmpty())
        return true; // the pins fill the batch
    tree.fillState(state, beta, workers, completed);
    PolicySteering steering = book.view(tree, pins);
    if (!steering.isEmpty()) {
        state.setLegal(legal);
        state.setMaxParallelism(policyWorkers);
        state.setSteering(std::move(steering));
    }
    const PolicyDecision decision = policy->selectBatch(state);
    const QString where = QStringLiteral("round %1: ").arg(completed + 1);
    if (!decision.ok()) {
        error = where + decision.error;
        return false;
    }
    if (const QString illegal = RoundTree::checkBatchAgainst(decision.batch, legal, policyWorkers); !illegal.isEmpty()) {
        error = where + illegal;
        return false;
    }
    if (decision.batch.isEmpty() && pins.isEmpty()) {
        // Before any attempt, say so: a round that made no call at all is a
        // policy's doing a researcher must be able to tell from a round
        // that ended after its work.
        stopReason = completed == 0 ? QStringLiteral("the policy returned an empty batch in the first round: no attempt "
                                                     "was made (%1 legal cells)")
                                          .arg(legal.size())
                                    : QStringLiteral("the policy returned an empty batch");
        return false;
    }
    *chosen = decision.batch;
    return true;
}

bool RoundRunner::Run::runRound(const QStringList &batch, bool fresh)
{
    // The journal keeps each round's whole batch: a resume that runs again
    // only the attempts that were in flight leaves the record as it was, so
    // that the batches the steering book is rebuilt from (and a second
    // resume) still see every cell the round was given.
    if (fresh) {
        if (const Result<Done> recorded = journal().record(completed, batch); !recorded.ok()) {
            error = recorded.error;
            return false;
        }
        book.noteBatch(batch);
    }
    log(QStringLiteral("round %1: %2").arg(completed + 1).arg(batch.join(QLatin1Char(' '))));
    emit q->roundStarted(completed, batch);
    if (!runBatch(completed, batch))
        return false;
    if (q->m_kill->load()) {
        stopReason = QStringLiteral("stopped; running attempts killed");
        return false;
    }
    if (completed == 0) { // only the first round: later env failures stay cells
        if (const QString cause = RoundBudget::environmentFailure(tree.cells()); !cause.isEmpty()) {
            error = cause;
            return false;
        }
    }
    completed += 1;
    counters.rounds = completed;
    emit q->countersChanged(counters);
    return true;
}

bool RoundRunner::Run::loadProbeHistory(QList<ReplayWorld> *worlds)
{
    const StoreResult<QList<IterationInfo>> list = await(q->m_store->iterations());
    if (!list.ok()) {
        error = list.error;
        return false;
    }
    for (const IterationInfo &it : *list.value) {
        if (it.id == iteration || it.task.value_or(QString()) != task.name || !ProjectWorlds::isReplayWorld(it)
            || ProjectWorlds::isApproximate(it))
            continue;
        const StoreResult<IterationData> data = await(q->m_store->iterationData(it.id));
        if (!data.ok()) {
            error = data.error;
            return false;
        }
        TreeMeta meta;
        meta.task = task.name;
        meta.grid = it.grid;
        if (std::optional<DiscoveryTree> t = DiscoveryTree::build(meta, data.value->cells))
            worlds->append(ReplayWorld{ProjectWorlds::baseNameOf(it), std::make_shared<const DiscoveryTree>(std::move(*t))});
    }
    return true;
}

bool RoundRunner::Run::runProbes()
{
    QList<ReplayWorld> worlds;
    if (!loadProbeHistory(&worlds))
        return false;
    const int budget = probe.budgetAfter(worlds.size(), [&worlds] {
        return std::any_of(worlds.cbegin(), worlds.cend(), [](const ReplayWorld &w) { return Probes::refiningPaid(*w.tree); });
    });
    if (probe.mode == ProbeSetting::Mode::Early && budget == ProbeSetting::EarlyCalls)
        log(QStringLiteral("probes: up to %1 calls (early: the task has %2 recorded rounds so far, none with a refinement that raised "
                           "its branch's best)")
                .arg(budget)
                .arg(worlds.size()));
    QSet<QString> unavailable;
    int made = 0;
    while (made < budget && !stopAsked()) {
        if (const QString reached = RoundBudget::reached(q->m_config, counters); !reached.isEmpty()) {
            log(QStringLiteral("probes: none past the budget (%1)").arg(reached));
            return true;
        }
        // Each probe is a round: the round limit K1 bounds them too.
        if (q->m_config.maxRounds && completed >= *q->m_config.maxRounds) {
            log(QStringLiteral("probes: none past the round limit (%1 rounds)").arg(*q->m_config.maxRounds));
            return true;
        }
        TreeMeta meta;
        meta.task = task.name;
        meta.grid = GridShape{tree.plan().branches, tree.plan().refinements};
        std::optional<DiscoveryTree> episode = DiscoveryTree::build(meta, tree.cells());
        if (!episode)
            return true; // the live tree always builds; nothing to probe from otherwise
        QList<ReplayWorld> all = worlds;
        all.append(ReplayWorld{QStringLiteral("this round"), std::make_shared<const DiscoveryTree>(std::move(*episode))});
        const WorldModels models = ValuationWorlds::modelsOf(all);
        const WorldModel &model = models.of(int(all.size() - 1));
        const std::optional<ProbeCall> call = Probes::next(*all.last().tree, model, model.options().directions, unavailable,
                                                            budget - made);
        if (!call) {
            log(made == 0 ? QStringLiteral("probes: none, nothing the grid allows is blind")
                          : QStringLiteral("probes: done, nothing the grid allows is blind any more"));
            return true;
        }
        const QString id = call->cellId();
        bool legal = false;
        for (const CellMeta &m : tree.legal())
            legal = legal || m.id == id;
        if (!legal) {
            unavailable.insert(id);
            continue;
        }
        probeReasons.insert(id, call->reason);
        log(QStringLiteral("probe %1/%2: %3 (%4)").arg(made + 1).arg(budget).arg(id, call->reason));
        if (!runRound({id}, true))
            return false;
        ++made;
    }
    return true;
}

void RoundRunner::Run::finish()
{
    const bool stopped = stopAsked() || !error.isEmpty();
    if (stopAsked() && stopReason.isEmpty() && error.isEmpty())
        stopReason = QStringLiteral("stopped");
    closeIteration(stopped ? IterationStatus::Stopped : IterationStatus::Finished);
}

void RoundRunner::Run::closeIteration(IterationStatus status)
{
    if (iteration != 0) {
        const StoreResult<Done> done = await(q->m_store->finishIteration(iteration, status));
        if (!done.ok() && error.isEmpty())
            error = done.error;
    }
    conclude(status);
}

void RoundRunner::Run::conclude(IterationStatus status)
{
    endSteering();
    if (!projectPath.isEmpty())
        RoundLiveness::unpublish(projectPath);
    RoundSummary summary;
    summary.iteration = iteration;
    summary.status = status;
    summary.counters = counters;
    summary.counters.running = 0;
    summary.grid = tree.plan();
    summary.stopReason = stopReason;
    summary.error = error;
    {
        std::lock_guard lock(q->m_summaryMutex);
        q->m_summary = summary;
    }
    if (!error.isEmpty())
        log(QStringLiteral("error: ") + error);
    // The reason only when it says more than the status ("stopped (stopped)" does not).
    const QString statusName = iterationStatusName(status);
    const QString reason = stopReason.isEmpty() ? error : stopReason;
    log(QStringLiteral("iteration %1 %2%3: %4, %5")
            .arg(iteration)
            .arg(statusName, reason.isEmpty() || reason == statusName ? QString() : QStringLiteral(" (%1)").arg(reason))
            .arg(countOf(counters.cells, "cell"), countOf(counters.rounds, "round")));
    q->m_running.store(false);
    emit q->finished(summary);
}

} // namespace dreamrsi
