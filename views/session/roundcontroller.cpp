#include "roundcontroller.h"

#include "steeringcontroller.h"

#include "remoteconnection.h"
#include "remotefollower.h"

#include "loop/round/roundfollower.h"
#include "remote/remotejson.h"
#include "loop/round/roundrunner.h"
#include "loop/round/roundsession.h"
#include "store/projectstore.h"

#include <QCoreApplication>
#include <QPointer>

#include <algorithm>

namespace dreamrsi {

RoundController::RoundController(ProjectStore *store, QObject *parent)
    : QObject(parent)
    , m_store(store)
    , m_follower(new RoundFollower(store, this))
    , m_steering(new SteeringController(this))
{
    connectEvents(m_follower, true);
    connect(m_follower, &RoundFollower::writerGone, this, [this] {
        onApprovalEnded();
        emit writerGone(m_follower->writer().pid);
        refreshResumable();
        emit stateChanged();
    });
    connect(m_follower, &RoundFollower::attemptsSeen, this, &RoundController::followedAttempts);
    connect(m_steering, &SteeringController::answered, this, &RoundController::onSteeringAnswer);
    // A round stopped, finished or resumed (here, or by whoever writes the
    // project) changes what Resume can continue.
    if (m_store)
        connect(m_store, &ProjectStore::iterationChanged, this, &RoundController::refreshResumable);
}

QString RoundController::steeringName() const
{
    return Preferences::of(m_preferences).steeringName();
}

RoundController::~RoundController()
{
    if (m_runner) {
        m_runner->disconnect(this);
        m_runner->stop(RoundRunner::StopMode::Kill);
        m_runner.reset();
    }
}

bool RoundController::isRunning() const
{
    return m_runner && m_runner->isRunning();
}

int RoundController::stopRequests() const
{
    return m_runner ? m_runner->stopRequests() : 0;
}

bool RoundController::isFollowing() const
{
    return m_follower->isActive() || m_remote;
}

bool RoundController::isRoundLive() const
{
    if (m_remote)
        return m_remote->iteration() != 0;
    return isRunning() || (isFollowing() && m_follower->iteration() != 0);
}

RemoteFollower *RoundController::remoteFollower() const
{
    return m_remote;
}

QString RoundController::followedSource() const
{
    if (m_remote)
        return tr("remote: %1").arg(m_remote->host());
    return tr("pid %1").arg(m_follower->writer().pid);
}

void RoundController::followRemote(RemoteFollower *remote)
{
    if (isBusy() || !remote)
        return;
    stopFollowing();
    m_remote = remote;
    m_remoteConnections.clear();
    // The same events as a local follower's, shown the same way; the connections end with stopFollowing().
    m_remoteConnections.append(connect(remote, &RoundEvents::iterationStarted, this,
                                       [this](const IterationInfo &info, bool resumed) { onIterationStarted(info, resumed, true); }));
    m_remoteConnections.append(connect(remote, &RoundEvents::cellFinished, this, &RoundController::onCell));
    m_remoteConnections.append(connect(remote, &RoundEvents::countersChanged, this,
                                       [this](const RoundCounters &counters) { emit countersChanged(counters, true); }));
    m_remoteConnections.append(connect(remote, &RoundEvents::logLine, this, &RoundController::logLine));
    m_remoteConnections.append(connect(remote, &RoundEvents::finished, this, [this](const RoundSummary &summary) {
        setPaused(false);
        emit finished(summary, true);
        emit stateChanged();
    }));
    // A served loop's wait for approval (the stream's approval event, docs/remote.md).
    m_remoteConnections.append(connect(remote, &RoundEvents::approvalAwaited, this, &RoundController::onApprovalAwaited));
    m_remoteConnections.append(connect(remote, &RoundEvents::approvalEnded, this, &RoundController::onApprovalEnded));
    m_remoteConnections.append(connect(remote, &RemoteFollower::attemptsSeen, this, &RoundController::followedAttempts));
    m_remoteConnections.append(connect(remote, &RemoteFollower::connectionChanged, this, [this] { emit stateChanged(); }));
    remote->start();
    emit followingChanged(true);
    emit stateChanged();
}

RoundOptions RoundController::resumeOptions(RoundOptions chosen, IterationId iteration)
{
    chosen.round.resume = iteration;
    chosen.round.task.clear(); // the iteration's own
    return chosen;
}

bool RoundController::start(const RoundOptions &options, std::shared_ptr<DiscoveryAgent> agent)
{
    if (isBusy()) {
        emit statusMessage(tr("A round is already running"));
        return false;
    }
    if (!m_store || m_store->path().isEmpty()) {
        emit statusMessage(tr("Open or create a project before launching a round"));
        return false;
    }
    if (m_store->isReadOnly()) {
        emit statusMessage(tr("The project is open read-only while another process writes it; no round can start here"));
        return false;
    }
    RoundOptions round = options;
    // Rounds started from the workbench accept steering (`dreamrsi steer`, a following workbench).
    round.round.acceptSteering = true;
    // A new round leaves an interrupted or stopped iteration as it is: say so,
    // and how to go on with it.
    QString leftAsIs;
    if (round.round.resume == 0 && !m_resumable.isEmpty())
        leftAsIs = tr("Iteration %1 stays %2; Resume Round continues it later")
                       .arg(m_resumable.constFirst().id)
                       .arg(iterationStatusName(m_resumable.constFirst().status));
    // The Slurm poller thread reports job states and Slurm's reasons; the log lives on the GUI thread.
    QPointer<RoundController> self(this);
    const RoundSession::LogSink log = [self](const QString &line) {
        QMetaObject::invokeMethod(
            qApp, [self, line] {
                if (self)
                    emit self->logLine(line);
            },
            Qt::QueuedConnection);
    };
    QFuture<Result<PreparedRound>> prepared = RoundSession::prepare(m_store, round, log, {std::move(agent), {}});
    if (prepared.isFinished()) { // a new round, or a resume naming its task: made at once
        run(prepared.result(), leftAsIs);
        return isRunning();
    }
    // A resume runs its iteration's stored task, read first.
    m_starting = true;
    emit stateChanged();
    prepared
        .then(this, [this, leftAsIs](const Result<PreparedRound> &made) {
            m_starting = false;
            run(made, leftAsIs);
        })
        .onCanceled(this, [this] {
            m_starting = false;
            run(Result<PreparedRound>::failure(tr("the project was closed")), {});
        });
    return true;
}

void RoundController::run(const Result<PreparedRound> &prepared, const QString &leftAsIs)
{
    if (!prepared.ok()) {
        const QString message = tr("The round cannot start: %1").arg(prepared.error);
        emit logLine(message);
        emit statusMessage(message);
        emit stateChanged();
        return;
    }
    m_runner.reset();
    m_follower->stop();
    m_config = prepared.value->config;
    clear();
    m_runner = std::make_unique<RoundRunner>(m_store, m_config, prepared.value->agent, prepared.value->backend);
    RoundRunner *r = m_runner.get();
    connectEvents(r, false);
    connect(r, &RoundRunner::roundStarted, this, &RoundController::batchStarted);
    connect(r, &RoundRunner::attemptStarted, this, &RoundController::attemptStarted);
    connect(r, &RoundRunner::attemptProgress, this, &RoundController::attemptProgress);
    connect(r, &RoundRunner::attemptAbandoned, this, &RoundController::attemptAbandoned);
    connect(r, &RoundRunner::batchWanted, this, &RoundController::batchWanted);
    connect(r, &RoundRunner::steered, this, [this](const SteeringEvent &e) {
        if (e.branch)
            emit branchSteered(*e.branch, e.action);
        if (e.action == QLatin1String("pause") || e.action == QLatin1String("continue"))
            setPaused(e.action == QLatin1String("pause"));
    });
    connect(r, &RoundRunner::pausedChanged, this, [this](bool paused) {
        setPaused(paused);
        emit pausedChanged(paused);
    });
    emit runningChanged(true); // the view starts afresh
    if (!leftAsIs.isEmpty())
        emit logLine(leftAsIs);
    r->start();
    refreshResumable();
    emit stateChanged();
    if (!leftAsIs.isEmpty())
        emit statusMessage(leftAsIs);
}

void RoundController::stop()
{
    if (!isRunning())
        return;
    // The first press lets the running attempts finish, the next kills them.
    m_runner->stop(m_runner->stopRequests() == 0 ? RoundRunner::StopMode::Finish : RoundRunner::StopMode::Kill);
    emit logLine(m_runner->stopRequests() == 1
                     ? tr("Stop: the running attempts finish, then the round stops (press again to kill them)")
                     : tr("Stop again: killing the running attempts"));
    refreshResumable();
    emit stateChanged();
}

void RoundController::follow(const WriterInfo &writer)
{
    if (isBusy())
        return;
    m_follower->start(writer);
    emit followingChanged(true);
    refreshResumable();
    emit stateChanged();
}

bool RoundController::stopFollowing()
{
    const bool was = isFollowing();
    m_follower->stop();
    if (m_remote) {
        for (const QMetaObject::Connection &c : std::as_const(m_remoteConnections))
            disconnect(c);
        m_remoteConnections.clear();
        m_remote->stop();
        m_remote = nullptr;
        clear();
    }
    onApprovalEnded();
    if (was)
        emit followingChanged(false);
    refreshResumable();
    emit stateChanged();
    return was;
}

void RoundController::connectEvents(RoundEvents *events, bool followed)
{
    connect(events, &RoundEvents::iterationStarted, this,
            [this, followed](const IterationInfo &info, bool resumed) { onIterationStarted(info, resumed, followed); });
    connect(events, &RoundEvents::cellFinished, this, &RoundController::onCell);
    connect(events, &RoundEvents::countersChanged, this,
            [this, followed](const RoundCounters &counters) { emit countersChanged(counters, followed); });
    connect(events, &RoundEvents::logLine, this, &RoundController::logLine);
    connect(events, &RoundEvents::approvalAwaited, this, &RoundController::onApprovalAwaited);
    connect(events, &RoundEvents::approvalEnded, this, &RoundController::onApprovalEnded);
    connect(events, &RoundEvents::finished, this, [this, followed](const RoundSummary &summary) {
        setPaused(false);
        if (!followed)
            emit runningChanged(false);
        emit finished(summary, followed);
        refreshResumable();
        emit stateChanged();
    });
}

void RoundController::onIterationStarted(const IterationInfo &info, bool resumed, bool followed)
{
    if (followed)
        clear();
    m_iteration = info;
    m_paused = false;
    emit iterationStarted(info, resumed, followed);
    emit stateChanged(); // a followed round now takes steering
    if (!resumed)
        return;
    // The kept cells first (charts need them in stored order), then what arrived meanwhile.
    const IterationId iteration = info.id;
    m_awaitingBacklog = true;
    m_store->iterationData(iteration).then(this, [this, iteration](StoreResult<IterationData> data) {
        if (m_iteration.id != iteration)
            return;
        m_awaitingBacklog = false;
        if (data.ok()) {
            emit backlogStarted(data.value->info.started);
            for (const Cell &c : std::as_const(data.value->cells))
                take(c);
        }
        for (const Cell &c : std::exchange(m_deferred, {}))
            take(c);
    });
}

void RoundController::onCell(qint64 iteration, const Cell &cell)
{
    if (iteration != m_iteration.id || m_cellIds.contains(cell.id))
        return;
    if (m_awaitingBacklog) {
        m_deferred.append(cell);
        return;
    }
    take(cell);
}

void RoundController::take(const Cell &cell)
{
    if (m_cellIds.contains(cell.id))
        return;
    m_cellIds.insert(cell.id);
    emit cellStored(cell);
}

void RoundController::clear()
{
    m_cellIds.clear();
    m_deferred.clear();
    m_awaitingBacklog = false;
    m_iteration = IterationInfo{};
    m_paused = false;
    m_ownRequests.clear();
}

qint64 RoundController::plannedAttempts() const
{
    qint64 planned = 0;
    auto cap = [&planned](qint64 n) {
        if (n > 0)
            planned = planned > 0 ? std::min(planned, n) : n;
    };
    if (m_iteration.grid)
        cap(qint64(m_iteration.grid->branches) * (m_iteration.grid->refinements + 1));
    // The limits the round runs under, stored with its iteration (so the
    // same for a round run here and one followed in another process).
    if (m_iteration.callLimit)
        cap(*m_iteration.callLimit);
    // K rounds of W, then the probe calls a round run here was given
    // (docs/online.md#probes: they follow the policy's last batch).
    if (m_iteration.roundLimit && m_iteration.maxParallelism.value_or(0) > 0)
        cap(qint64(*m_iteration.roundLimit) * *m_iteration.maxParallelism + (m_config.probe ? m_config.probe->budget() : 0));
    return planned;
}

void RoundController::setPaused(bool paused)
{
    m_paused = paused;
    emit stateChanged();
}

bool RoundController::killAttempt(const QString &cellId, const QString &why)
{
    return steer(QStringLiteral("kill"), std::nullopt, cellId, false, why);
}

bool RoundController::canKill(QString *why) const
{
    QString reason;
    if (isRunning())
        return true; // rounds run here accept steering
    if (m_remote)
        reason = m_remote->iteration() != 0 ? m_remote->whyNoSteering() : tr("no round is running");
    else if (isFollowing() && m_follower->iteration() != 0)
        reason = m_follower->whyNoSteering();
    else
        reason = tr("no round is running");
    if (why)
        *why = reason;
    return reason.isEmpty();
}

bool RoundController::steer(const QString &action, std::optional<int> branch, const QString &text, bool newBranch,
                            const QString &why)
{
    if (m_remote) {
        SteeringRequest request;
        request.action = action;
        request.branch = branch;
        request.newBranch = newBranch;
        if (action == QLatin1String("kill"))
            request.attempt = text;
        else
            request.text = text;
        request.why = why;
        request.by = steeringName();
        return steerRemote(request);
    }
    if (!m_store || m_store->path().isEmpty()) {
        emit statusMessage(tr("Open a project to steer its round"));
        return false;
    }
    m_steering->setProjectPath(m_store->path());
    SteeringRequest request;
    request.action = action;
    request.branch = branch;
    request.newBranch = newBranch;
    if (action == QLatin1String("kill"))
        request.attempt = text; // the attempt's cell id
    else
        request.text = text;
    request.why = why;
    request.by = steeringName();
    const Result<QString> sent = m_steering->send(request);
    if (!sent) {
        const QString line = tr("steering: %1 not sent: %2").arg(request.describe(), sent.error);
        emit logLine(line);
        emit statusMessage(line);
        return false;
    }
    if (isRunning())
        m_ownRequests.insert(*sent.value);
    emit statusMessage(action == QLatin1String("kill") ? tr("Sent %1; it applies at once").arg(request.describe())
                                                       : tr("Sent %1; it applies before the next batch").arg(request.describe()));
    return true;
}

bool RoundController::sendBatch(const QStringList &ids)
{
    return steer(QStringLiteral("batch"), std::nullopt, ids.join(QLatin1Char(' ')));
}

void RoundController::onSteeringAnswer(const SteeringRequest &request, const SteeringAck &ack)
{
    const QString line = ack.applied ? tr("steering by %1: %2 — applied: %3").arg(request.by, request.describe(), ack.message)
                                     : tr("steering by %1: %2 — refused: %3").arg(request.by, request.describe(), ack.message);
    // The own round logs (and marks) what it applied itself, even when it
    // has ended by the time the answer is read (an empty manual batch); a
    // followed one does not.
    const bool own = m_ownRequests.remove(request.id);
    if (!ack.applied || !own)
        emit logLine(line);
    emit statusMessage(line);
    if (ack.applied && !own) {
        if (request.branch)
            emit branchSteered(*request.branch, request.action);
        if (request.action == QLatin1String("pause") || request.action == QLatin1String("continue"))
            setPaused(request.action == QLatin1String("pause"));
    }
    if (!ack.applied && request.action == QLatin1String("batch") && isRunning())
        emit batchRefused(); // pick again
    if (!ack.applied && (request.action == QLatin1String("approve") || request.action == QLatin1String("decline"))
        && m_approvalSent) {
        m_approvalSent = false; // the loop still waits: answer again
        emit approvalChanged();
    }
}

void RoundController::refreshResumable()
{
    const quint64 query = ++m_resumableQuery;
    if (!m_store || m_store->path().isEmpty()) {
        m_resumable.clear();
        emit resumableChecked(false);
        emit stateChanged();
        return;
    }
    m_store->iterations().then(this, [this, query](StoreResult<QList<IterationInfo>> list) {
        if (query != m_resumableQuery)
            return; // a newer question is on its way
        m_resumable.clear();
        if (list.ok()) {
            for (const IterationInfo &it : std::as_const(*list.value)) {
                if (it.status == IterationStatus::Interrupted || it.status == IterationStatus::Stopped)
                    m_resumable.append(it);
            }
        } else {
            emit statusMessage(list.error);
        }
        // The most recent first (iterations are numbered in the order they
        // began): the one just stopped is the one to go on with.
        std::sort(m_resumable.begin(), m_resumable.end(),
                  [](const IterationInfo &a, const IterationInfo &b) { return a.id > b.id; });
        emit resumableChecked(!m_resumable.isEmpty());
        emit stateChanged();
    });
}

void RoundController::onApprovalAwaited(const ApprovalWait &wait)
{
    m_approval = wait;
    m_approvalSent = false;
    emit approvalChanged();
    // Told once per proposal, also when the project is followed again.
    if (wait.key() == m_approvalTold)
        return;
    m_approvalTold = wait.key();
    emit approvalAwaited(wait);
}

void RoundController::onApprovalEnded()
{
    if (!m_approval)
        return;
    m_approval.reset();
    m_approvalSent = false;
    emit approvalChanged();
}

bool RoundController::answerApproval(const QString &version, const QString &by, const QString &note)
{
    if (m_remote) {
        SteeringRequest request;
        request.action = version.isEmpty() ? QStringLiteral("decline") : QStringLiteral("approve");
        request.version = version;
        request.why = note;
        request.by = by.isEmpty() ? steeringName() : by;
        return answerRemoteApproval(request);
    }
    if (!m_store || m_store->path().isEmpty())
        return false;
    m_steering->setProjectPath(m_store->path());
    SteeringRequest request;
    request.action = version.isEmpty() ? QStringLiteral("decline") : QStringLiteral("approve");
    request.version = version;
    request.why = note;
    request.by = by.isEmpty() ? steeringName() : by;
    if (const Result<QString> sent = m_steering->send(request, QStringLiteral("approval")); !sent) {
        const QString line = tr("approval: %1 not sent: %2").arg(request.describe(), sent.error);
        emit logLine(line);
        emit statusMessage(line);
        return false;
    }
    m_approvalSent = true;
    emit approvalChanged();
    emit statusMessage(tr("Sent %1 to the waiting loop").arg(request.describe()));
    return true;
}

bool RoundController::steerRemote(const SteeringRequest &request)
{
    RemoteConnection *connection = m_remote->connection();
    if (const QString why = m_remote->whyNoSteering(); !why.isEmpty() || !connection) {
        const QString line = tr("steering: %1 not sent: %2").arg(request.describe(), why);
        emit logLine(line);
        emit statusMessage(line);
        return false;
    }
    QJsonObject body{{QStringLiteral("request"), RemoteJson::steeringWords(request)}, {QStringLiteral("who"), request.by}};
    if (!request.why.isEmpty())
        body.insert(QStringLiteral("why"), request.why);
    // The server answers once the round has (at most 30 s): applied, or refused with its reason.
    connection->post(QStringLiteral("/api/v1/steer"), body,
                     [this, request, remote = QPointer<RemoteFollower>(m_remote)](Result<QJsonObject> answer) {
        if (!remote || remote != m_remote)
            return; // no longer followed
        SteeringAck ack;
        ack.applied = answer.ok() && answer.value->value(QStringLiteral("applied")).toBool();
        ack.message = answer ? answer.value->value(QStringLiteral("message")).toString() : answer.error;
        onSteeringAnswer(request, ack);
    });
    emit statusMessage(tr("Sent %1 to %2").arg(request.describe(), m_remote->host()));
    return true;
}

bool RoundController::answerRemoteApproval(const SteeringRequest &request)
{
    RemoteConnection *connection = m_remote->connection();
    if (const QString why = m_remote->whyNoSteering(); !why.isEmpty() || !connection) {
        const QString line = tr("approval: %1 not sent: %2").arg(request.describe(), why);
        emit logLine(line);
        emit statusMessage(line);
        return false;
    }
    QJsonObject body{{QStringLiteral("who"), request.by}};
    if (request.action == QLatin1String("decline"))
        body.insert(QStringLiteral("decline"), true);
    else
        body.insert(QStringLiteral("version"), request.version);
    if (!request.why.isEmpty())
        body.insert(QStringLiteral("note"), request.why);
    connection->post(QStringLiteral("/api/v1/approve"), body,
                     [this, request, remote = QPointer<RemoteFollower>(m_remote)](Result<QJsonObject> answer) {
        if (!remote || remote != m_remote)
            return;
        SteeringAck ack;
        ack.applied = answer.ok();
        ack.message = answer ? tr("approved %1").arg(request.version) : answer.error;
        if (request.action == QLatin1String("decline") && answer)
            ack.message = tr("declined");
        onSteeringAnswer(request, ack);
    });
    m_approvalSent = true;
    emit approvalChanged();
    emit statusMessage(tr("Sent %1 to %2").arg(request.describe(), m_remote->host()));
    return true;
}

} // namespace dreamrsi
