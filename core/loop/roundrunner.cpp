#include "roundrunner.h"

#include "model/attemptpayload.h"

#include "evaluationbackend.h"
#include "roundattempt.h"
#include "roundsession.h"
#include "roundpolicy.h"
#include "roundtask.h"
#include "roundtree.h"
#include "steeringbook.h"
#include "steeringinbox.h"

#include "agent/agent.h"
#include "model/splitmix64.h"
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

namespace {

/// Per-attempt seeds that differ in every bit.
quint64 mix(quint64 x)
{
    return SplitMix64::mix(x);
}

AttemptRecord recordOf(const Cell &c, qint64 iteration)
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

QString describeScore(const Cell &c)
{
    if (c.score)
        return QStringLiteral("score %1 (%2)").arg(*c.score, 0, 'g', 6).arg(c.failClass);
    return QStringLiteral("%1: %2").arg(c.failClass, c.error.value_or(QStringLiteral("no score")).left(200));
}

/// Completed attempts, handed from the workers to the driver.
struct Completions
{
    std::mutex mutex;
    std::condition_variable ready;
    std::deque<RoundAttempt::Result> done;

    void push(RoundAttempt::Result r)
    {
        {
            std::lock_guard lock(mutex);
            done.push_back(std::move(r));
        }
        ready.notify_one();
    }
    RoundAttempt::Result take()
    {
        std::unique_lock lock(mutex);
        ready.wait(lock, [this] { return !done.empty(); });
        RoundAttempt::Result r = std::move(done.front());
        done.pop_front();
        return r;
    }
};

} // namespace

/// The state of one run, owned by the driver thread.
struct RoundRunner::Run
{
    RoundRunner *q;
    RoundTask task;
    RoundTree tree;
    IterationInfo info;
    IterationId iteration = 0;
    QString artifactDir;
    QString iterationDir;          ///< attempts/<iteration>
    double beta = 0.5;
    int workers = 1;
    RoundCounters counters;
    QList<AttemptRecord> history;  ///< earlier iterations, then this one's cells
    QString stopReason;
    QString error;
    /// Steering (RoundConfig::acceptSteering): the book of what was applied,
    /// the project whose inbox is read, the requests already stored as
    /// events (a request seen again after a crash is acknowledged, not
    /// applied twice).
    SteeringBook book;
    QString projectPath;
    bool steerable = false;
    QSet<QString> appliedRequests;
    /// Manual exploration (RoundPolicy::manual): the batch a person picked
    /// for the next round, once a `batch` request was applied.
    bool manual = false;
    std::optional<QStringList> manualBatch;

    explicit Run(RoundRunner *runner) : q(runner) {}

    void log(const QString &line) { emit q->logLine(line); }

    QString roundFile(int round) const
    {
        return iterationDir + QStringLiteral("/rounds/%1.json").arg(round);
    }

    bool writeRoundFile(int round, const QStringList &batch)
    {
        QDir().mkpath(iterationDir + QStringLiteral("/rounds"));
        QJsonObject o;
        o.insert(QStringLiteral("round"), round);
        o.insert(QStringLiteral("batch"), QJsonArray::fromStringList(batch));
        QSaveFile file(roundFile(round));
        const QByteArray bytes = QJsonDocument(o).toJson(QJsonDocument::Compact);
        if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit()) {
            error = QStringLiteral("cannot record round %1 in '%2': %3").arg(round + 1).arg(file.fileName(), file.errorString());
            return false;
        }
        return true;
    }

    /// Every recorded batch, by round (a missing file: an empty batch).
    QList<QStringList> recordedBatches() const
    {
        QList<QStringList> out;
        QStringList last;
        const int n = lastRecordedRound(&last);
        for (int k = 0; k <= n; ++k) {
            QStringList batch;
            QFile file(roundFile(k));
            if (file.open(QIODevice::ReadOnly)) {
                const QJsonArray ids = QJsonDocument::fromJson(file.readAll()).object().value(QStringLiteral("batch")).toArray();
                for (const QJsonValue &v : ids)
                    batch.append(v.toString());
            }
            out.append(batch);
        }
        return out;
    }

    /// On resume, rebuilds the steering applied before (honoured whether or
    /// not this run accepts steering); then, when the round accepts it,
    /// starts accepting requests (live.json).
    bool beginSteering(bool resumed)
    {
        projectPath = q->m_store->path();
        if (resumed) {
            const StoreResult<QList<SteeringEvent>> events = await(q->m_store->steeringEvents(iteration));
            if (!events.ok()) {
                error = events.error;
                return false;
            }
            book.rebuild(*events.value, recordedBatches());
            for (const SteeringEvent &e : *events.value)
                appliedRequests.insert(e.requestId);
            if (!events.value->isEmpty())
                log(QStringLiteral("steering: %1 earlier interventions honoured").arg(events.value->size()));
            if (book.paused()) {
                book.setPaused(false);
                log(QStringLiteral("steering: the round was paused; resuming it continues it"));
            }
        }
        if (!q->m_config.acceptSteering && !manual)
            return true;
        QString problem;
        if (!SteeringInbox::publish(projectPath, SteeringLive{0, QStringLiteral("round"), iteration, {}}, &problem)) {
            error = QStringLiteral("cannot accept steering: ") + problem;
            return false;
        }
        steerable = true;
        log(QStringLiteral("accepting steering requests (dreamrsi steer --project %1)").arg(projectPath));
        return true;
    }

    /// Stops accepting requests: every request still waiting is refused.
    void endSteering()
    {
        if (!steerable)
            return;
        steerable = false;
        SteeringInbox::unpublish(projectPath);
        QList<SteeringAck> acks;
        for (const SteeringRequest &r : SteeringInbox::pending(projectPath, &acks))
            acks.append(SteeringAck{r.id, false, QStringLiteral("the round has ended (iteration %1)").arg(iteration), 0});
        for (const SteeringAck &ack : std::as_const(acks)) {
            QString problem;
            SteeringInbox::acknowledge(projectPath, ack, &problem);
        }
    }

    /// What an applied event did, in words.
    static QString describeEvent(const SteeringEvent &e)
    {
        QString what;
        if (e.action == QLatin1String("close"))
            what = QStringLiteral("closed branch b%1").arg(e.branch.value_or(-1));
        else if (e.action == QLatin1String("refine"))
            what = QStringLiteral("pinned %1 first in the next batch").arg(e.target);
        else if (e.action == QLatin1String("hint") && e.target == QLatin1String("new"))
            what = QStringLiteral("hint for the next new branch: \"%1\"").arg(e.text);
        else if (e.action == QLatin1String("hint"))
            what = QStringLiteral("hint for %1: \"%2\"").arg(e.target, e.text);
        else if (e.action == QLatin1String("pause"))
            what = QStringLiteral("paused the round after the current batch");
        else if (e.action == QLatin1String("continue"))
            what = QStringLiteral("continued the round");
        else if (e.action == QLatin1String("batch"))
            what = e.text.isEmpty() ? QStringLiteral("picked an empty batch (the round ends)")
                                    : QStringLiteral("picked the batch %1").arg(e.text);
        else
            what = e.action;
        return what;
    }

    /// Why request `r` cannot be applied to a manual round (or why a batch
    /// cannot go to a round that is not manual), or empty.
    QString manualCheck(const SteeringRequest &r, int round) const
    {
        if (r.action != QLatin1String("batch")) {
            if (r.action == QLatin1String("refine"))
                return QStringLiteral("this round is manual: put b%1's next attempt in the batch you pick").arg(r.branch.value_or(-1));
            return book.check(r, tree);
        }
        if (!manual)
            return QStringLiteral("this round is not manual: its policy picks the batches");
        if (manualBatch)
            return QStringLiteral("round %1 has its batch already").arg(round + 1);
        const QStringList ids = r.text.split(QLatin1Char(' '), Qt::SkipEmptyParts);
        if (const QString illegal = RoundTree::checkBatchAgainst(ids, book.policyLegal(tree.legal(), {}), workers);
            !illegal.isEmpty())
            return illegal;
        return {};
    }

    /// Applies the requests waiting in the inbox, before round `round`.
    /// False on a store error (the round stops).
    bool pollSteering(int round)
    {
        if (!steerable)
            return true;
        QList<SteeringAck> unreadable;
        const QList<SteeringRequest> requests = SteeringInbox::pending(projectPath, &unreadable);
        for (const SteeringRequest &r : requests) {
            SteeringAck ack;
            ack.id = r.id;
            if (appliedRequests.contains(r.id)) {
                ack.applied = true;
                ack.message = QStringLiteral("%1: applied before the round was resumed").arg(r.describe());
            } else if (const QString refusal = manual || r.action == QLatin1String("batch") ? manualCheck(r, round)
                                                                                            : book.check(r, tree);
                       !refusal.isEmpty()) {
                ack.message = refusal;
                log(QStringLiteral("steering: refused %1 from %2: %3")
                        .arg(r.describe(), r.by.isEmpty() ? QStringLiteral("someone") : r.by, refusal));
            } else {
                SteeringEvent e = book.eventFor(r, tree, iteration, round);
                if (r.action == QLatin1String("batch"))
                    e.text = r.text.split(QLatin1Char(' '), Qt::SkipEmptyParts).join(QLatin1Char(' '));
                const StoreResult<qint64> id = await(q->m_store->addSteeringEvent(e));
                if (!id.ok()) {
                    error = id.error;
                    return false;
                }
                e.id = *id.value;
                book.apply(e);
                if (e.action == QLatin1String("batch"))
                    manualBatch = e.text.split(QLatin1Char(' '), Qt::SkipEmptyParts);
                appliedRequests.insert(r.id);
                ack.applied = true;
                ack.eventId = e.id;
                ack.message = QStringLiteral("%1 before round %2").arg(describeEvent(e)).arg(round + 1);
                log(QStringLiteral("steering: %1 %2%3")
                        .arg(e.who.isEmpty() ? QStringLiteral("someone") : e.who, ack.message,
                             e.why.isEmpty() ? QString() : QStringLiteral(" (why: %1)").arg(e.why)));
                emit q->steered(e);
            }
            QString problem;
            if (!SteeringInbox::acknowledge(projectPath, ack, &problem))
                log(QStringLiteral("steering: cannot answer request %1: %2").arg(r.id, problem));
        }
        for (const SteeringAck &ack : std::as_const(unreadable)) {
            QString problem;
            SteeringInbox::acknowledge(projectPath, ack, &problem);
        }
        return true;
    }

    /// Rounds recorded on disk: (last round index, its batch); -1 when none.
    int lastRecordedRound(QStringList *batch) const
    {
        int last = -1;
        const QStringList files = QDir(iterationDir + QStringLiteral("/rounds")).entryList({QStringLiteral("*.json")}, QDir::Files);
        for (const QString &f : files) {
            bool ok = false;
            const int k = QFileInfo(f).completeBaseName().toInt(&ok);
            if (ok && k > last)
                last = k;
        }
        if (last >= 0) {
            QFile file(roundFile(last));
            if (file.open(QIODevice::ReadOnly)) {
                const QJsonArray ids = QJsonDocument::fromJson(file.readAll()).object().value(QStringLiteral("batch")).toArray();
                for (const QJsonValue &v : ids)
                    batch->append(v.toString());
            }
        }
        return last;
    }

    void addCounters(const Cell &c)
    {
        RoundSession::count(counters, c);
        counters.bestScore = tree.bestScore(); // resumed cells count towards the best too
    }

    /// When every stored attempt of the first round failed `env` (the
    /// evaluator's runtime is missing, the cluster refuses the job, no GPU
    /// for a CUDA task), what they said; else empty. Such a round cannot
    /// score anything here, and each further attempt would be a paid call.
    QString environmentFailure() const
    {
        QStringList causes;
        for (const Cell &c : tree.cells()) {
            if (c.failClass != QLatin1String(FailClass::Env))
                return {};
            const QString cause = c.error.value_or(QStringLiteral("no reason given")).left(300);
            if (!causes.contains(cause))
                causes.append(cause);
        }
        if (causes.isEmpty())
            return {};
        return QStringLiteral("every attempt of the first round failed for an environment reason (env), so the round "
                              "stops before calling the agent again: %1")
            .arg(causes.mid(0, 3).join(QStringLiteral("; ")));
    }

    /// Which budget cap is reached, or empty.
    QString budgetReached() const
    {
        const RoundConfig &c = q->m_config;
        if (c.maxCalls && counters.calls >= *c.maxCalls)
            return QStringLiteral("budget: %1 agent calls reached").arg(*c.maxCalls);
        if (c.maxTokens && counters.tokensIn + counters.tokensOut >= *c.maxTokens)
            return QStringLiteral("budget: %1 tokens reached").arg(*c.maxTokens);
        if (c.maxUsd && counters.usd >= *c.maxUsd)
            return QStringLiteral("budget: %1 USD reached").arg(*c.maxUsd);
        return {};
    }

    bool loadHistory(const QString &taskName, QList<GridHistoryEntry> *entries)
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

    RoundAttempt::Job jobFor(const QString &id, int round) const
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
        if (const RoundTask::Direction *d = task.directionFor(branch)) {
            c.directionHint = QStringLiteral("direction:") + d->name;
            c.directionDetail = d->detail;
        }
        c.researcherHint = book.hintFor(id);
        if (!c.researcherHint.isEmpty()) {
            // A hint naming one of the task's directions asks for it in this
            // attempt (the branch keeps its own direction tag).
            for (const RoundTask::Direction &d : task.directions) {
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

    Cell cellOf(const RoundAttempt::Result &r, const AgentUsage &usage) const
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
            c.failClass = e.failClass.isEmpty() ? QString::fromLatin1(c.evaluated ? FailClass::Ok : FailClass::Env)
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
        payload.insert(QLatin1String(AttemptPayload::Key::workspace), QDir(artifactDir).relativeFilePath(r.workspace));
        c.payload = payload;
        return c;
    }

    /// Stores one finished attempt: its artifacts, then the cell. False on a store error.
    bool store(const RoundAttempt::Result &r)
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
        const bool allRead = put(QStringLiteral("proposal.md"), QStringLiteral("proposal.md"))
            && (!r.outcome.ok || put(r.programFileName, r.programFileName))
            && put(QStringLiteral("eval/score.json"), QStringLiteral("score.json"))
            && put(QStringLiteral("agent.log"), QStringLiteral("agent.log"))
            && put(QStringLiteral("error.txt"), QStringLiteral("error.txt"));
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
        log(QStringLiteral("%1 finished: %2 (agent %3 s, eval %4 s%5)")
                .arg(cell.id, describeScore(cell))
                .arg(r.agentSeconds, 0, 'f', 2)
                .arg(r.evalSeconds, 0, 'f', 2)
                .arg(where));
        return true;
    }

    /// Runs the ids of one round on the pool and stores them as they finish.
    bool runBatch(int round, const QStringList &ids)
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
                completions->push(RoundAttempt::run(job, *agent, *backend, *kill, [runner, &id](const EvaluationProgress &p) {
                    emit runner->attemptProgress(id, p);
                }));
            });
        }
        counters.running = int(ids.size());
        emit q->countersChanged(counters);
        bool ok = true;
        QString refused; // a job the backend refused for good: no later one would run either
        for (qsizetype i = 0; i < ids.size(); ++i) {
            RoundAttempt::Result r = completions->take();
            counters.running -= 1;
            if (refused.isEmpty() && r.evaluation && r.evaluation->metrics.value(QStringLiteral("refused")).toBool())
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
            error = QStringLiteral("%1 backend: %2; the round stops before more agent calls").arg(q->m_backend->name(), refused);
            return false;
        }
        return ok;
    }

    bool begin()
    {
        const RoundConfig &config = q->m_config;
        const StoreResult<ProjectInfo> project = await(q->m_store->projectInfo());
        if (!project.ok()) {
            error = project.error;
            return false;
        }
        artifactDir = project.value->artifactDir;
        workers = std::max(1, config.workers);

        QString problem;
        if (config.resume != 0) {
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
            const std::optional<RoundTask> t = RoundTask::resolve(storedTask.isEmpty() ? config.task : storedTask, &problem);
            if (!t) {
                error = problem;
                return false;
            }
            task = *t;
            if (!info.grid) {
                error = QStringLiteral("iteration %1 has no grid plan; it is not a live round").arg(config.resume);
                return false;
            }
            iterationDir = artifactDir + QStringLiteral("/attempts/%1").arg(config.resume);
            if (config.workers <= 0)
                workers = std::max(1, info.maxParallelism.value_or(4));
            // The row records the limits it now runs under, for whoever follows it.
            const StoreResult<QList<Cell>> cells = await(q->m_store->resumeIteration(
                config.resume, IterationLimits{workers, config.maxRounds, config.maxCalls}));
            if (!cells.ok()) {
                error = cells.error;
                return false;
            }
            iteration = config.resume; // running again: from here on it is closed as stopped on an error
            tree = RoundTree(GridPlan{info.grid->branches, info.grid->refinements, info.gridReason}, info.baselineScore);
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

        const std::optional<RoundTask> t = RoundTask::resolve(config.task, &problem);
        if (!t) {
            error = problem;
            return false;
        }
        task = *t;
        return true;
    }
};

RoundRunner::RoundRunner(ProjectStore *store, RoundConfig config, std::shared_ptr<DiscoveryAgent> agent,
                         std::shared_ptr<EvaluationBackend> backend, QObject *parent)
    : RoundEvents(parent)
    , m_store(store)
    , m_config(std::move(config))
    , m_agent(std::move(agent))
    , m_backend(std::move(backend))
    , m_kill(std::make_shared<std::atomic_bool>(false))
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
        emit logLine(QStringLiteral("iteration %1 %2 (%3): %4 cells, %5 rounds")
                         .arg(run.iteration)
                         .arg(iterationStatusName(status), run.stopReason.isEmpty() ? run.error : run.stopReason)
                         .arg(run.counters.cells)
                         .arg(run.counters.rounds));
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
    QString problem;
    const std::optional<RoundPolicy> resolved =
        RoundPolicy::resolve(*m_store, m_config.policy, run.info.policyVersion, m_config.seed, &problem);
    std::unique_ptr<Policy> policy = resolved ? resolved->spec.create(&problem) : nullptr;
    if (!policy) {
        run.error = problem;
        closeIteration(IterationStatus::Stopped);
        return;
    }
    emit logLine(QStringLiteral("policy: ") + resolved->description);
    run.manual = resolved->manual;

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
        info.policyVersion = resolved->version;
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
        const int last = run.lastRecordedRound(&recorded);
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
            if (const QString budget = run.budgetReached(); !budget.isEmpty()) {
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
        if (!run.writeRoundFile(completed, batch))
            break;
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
            if (const QString cause = run.environmentFailure(); !cause.isEmpty()) {
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
