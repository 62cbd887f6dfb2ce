#pragma once

#include "loop/round/roundevents.h"
#include "loop/round/roundliveness.h"
#include "loop/round/roundoptions.h"
#include "loop/round/roundtypes.h"
#include "loop/round/steeringinbox.h"
#include "backend/evaluationbackend.h"
#include "model/cell.h"
#include "preferences.h"
#include "store/storetypes.h"

#include <QJsonObject>
#include <QPointer>
#include <QList>
#include <QObject>
#include <QPointer>
#include <QSet>
#include <QString>
#include <QStringList>

#include <memory>
#include <optional>

namespace dreamrsi {

class DiscoveryAgent;
class ProjectStore;
class RoundEvents;
class RoundFollower;
class RoundRunner;
class RemoteFollower;
class SteeringController;
struct PreparedRound;

/// The live round of the workbench without its widgets (docs/online.md#a-live-round):
/// starts a round (RoundSession::prepare, the way `dreamrsi round` does), runs
/// it (RoundRunner) or follows one that another process runs (RoundFollower),
/// and tells the view one stream of what happens, the same for both: the
/// iteration, each stored cell once and in stored order (a resumed round's
/// kept cells first), the counters, log lines, the end. It also holds what
/// the view offers around the round: Stop (a second press kills), what
/// Resume can continue, steering (SteeringController) and whether the round
/// is paused, and the approval a followed loop waits for.
///
/// RoundPanel wires it to its widgets; tests drive it directly.
class RoundController final : public QObject
{
    Q_OBJECT
public:
    explicit RoundController(ProjectStore *store, QObject *parent = nullptr);
    /// Kills a round still running and waits for its threads.
    ~RoundController() override;
    /// Who steers and approves from here: `preferences`' person
    /// (AppSettings::steeringName), read when a request is sent; the
    /// login name without preferences.
    void setPreferences(const Preferences *preferences) { m_preferences = preferences; }

    // ---- a round run here ----

    /// Starts (or, with options.round.resume, continues) a round with
    /// `agent`, or with the agent options.round.agent names when null;
    /// rounds started here accept steering. False with a message when one
    /// is running or starting, no project is open for writing, or the
    /// round cannot be made. A resume that names no task runs its
    /// iteration's own, read from the store first: it starts, or says why
    /// not, once the store has answered.
    bool start(const RoundOptions &options, std::shared_ptr<DiscoveryAgent> agent = {});
    /// The options that continue `iteration` with what was chosen for it
    /// (agent, W, caps, backend): its own task, read by RoundSession::prepare.
    static RoundOptions resumeOptions(RoundOptions chosen, IterationId iteration);
    /// Stop: the first call lets running attempts finish, the second kills them.
    void stop();
    /// A round runs here.
    bool isRunning() const;
    /// A round is being made (a resume's iteration is read) or runs here.
    bool isBusy() const { return m_starting || isRunning(); }
    /// How many times Stop was asked of the round running here.
    int stopRequests() const;
    /// The round running here (or that ran last), as it runs.
    const RoundConfig &config() const { return m_config; }

    // ---- a round another process runs ----

    /// Follows the rounds of `writer`, the process that holds the (read-only) project.
    void follow(const WriterInfo &writer);
    /// Stops following; true when it was.
    bool stopFollowing();
    bool isFollowing() const;
    RoundFollower *follower() const { return m_follower; }

    // ---- a round of a served project (docs/remote.md) ----

    /// Follows the rounds of a served project through `remote` (owned by
    /// the caller), shown as a followed round is; steering, Kill and a
    /// waiting loop's approval go to the server (POST /api/v1/steer and
    /// /approve) with its steering token. stopFollowing() lets it go.
    void followRemote(RemoteFollower *remote);
    /// The served project's follower while one is followed, else null.
    RemoteFollower *remoteFollower() const;
    /// Who writes what is followed, for the view's words: "pid 1234" or
    /// "remote: HOST".
    QString followedSource() const;

    /// The iteration shown (here or followed); id 0 when none.
    const IterationInfo &iteration() const { return m_iteration; }
    /// The cells of the iteration shown so far.
    qsizetype cellCount() const { return m_cellIds.size(); }
    /// A round runs that can be steered: here, or in the process followed
    /// (not a follower waiting for its next round).
    bool isRoundLive() const;
    /// The round shown waits for Continue.
    bool isPaused() const { return m_paused; }
    /// Attempts the round can run at most (grid, round limit, call budget); 0 = unknown.
    qint64 plannedAttempts() const;

    // ---- steering ----

    SteeringController *steering() const { return m_steering; }
    /// Steers the round that runs in the project, here or in the process
    /// followed (close, refine, hint with `branch` or `newBranch`, pause,
    /// continue, batch), as Settings' "Your name". The answer, applied or
    /// refused with the reason, comes as log lines and status messages.
    /// False with a message when no round accepts steering.
    bool steer(const QString &action, std::optional<int> branch = std::nullopt, const QString &text = {},
               bool newBranch = false, const QString &why = {});
    /// The manual round's batch: the ids picked (empty: end the round).
    bool sendBatch(const QStringList &ids);
    /// Kills the running attempt `cellId` now (docs/steering.md `kill`): it is
    /// stored as an `env` failure with the reason and the round goes on. A
    /// request dropped in the project's inbox, as `dreamrsi steer` drops it,
    /// for the round run here and a followed one alike.
    bool killAttempt(const QString &cellId, const QString &why = {});
    /// Whether Kill can be offered for the round shown: a round run here
    /// takes it; a followed one when it accepts steering (as of the
    /// follower's last look). Otherwise false, `why` saying why not.
    bool canKill(QString *why = nullptr) const;

    // ---- resume ----

    /// Asks the store what Resume can continue (resumableChecked answers).
    void refreshResumable();
    /// The interrupted and stopped iterations, the most recent first, as last asked.
    const QList<IterationInfo> &resumable() const { return m_resumable; }

    // ---- approval ----

    /// The approval a followed loop waits for, as its stream says
    /// (RoundFollower: RoundEvents::approvalAwaited), while no answer of
    /// this window is on its way.
    std::optional<ApprovalWait> approvalWait() const { return m_approvalSent ? std::nullopt : m_approval; }
    /// Answers the waiting loop: approve `version` (a name), recorded as by
    /// `by` (default: Settings' name) with `note`, or decline when `version`
    /// is empty. The answer comes back in the log. False with a message
    /// when no loop waits.
    bool answerApproval(const QString &version, const QString &by = {}, const QString &note = {});

signals:
    // The round shown, here or followed (`followed` says which).
    void iterationStarted(const dreamrsi::IterationInfo &info, bool resumed, bool followed);
    /// A resumed round's kept cells come next: the view starts its charts at `started`.
    void backlogStarted(const QDateTime &started);
    /// A stored cell of the iteration shown, once, in stored order.
    void cellStored(const dreamrsi::Cell &cell);
    void countersChanged(const dreamrsi::RoundCounters &counters, bool followed);
    void logLine(const QString &line);
    void finished(const dreamrsi::RoundSummary &summary, bool followed);

    /// The attempts in flight of a round followed in another process, their
    /// ages and stalls as `dreamrsi status` says, after each look
    /// (RoundFollower::attemptsSeen); canKill() as of the same look.
    void followedAttempts(const dreamrsi::IterationLiveness &liveness);

    // Only a round run here tells these.
    void batchStarted(int round, const QStringList &batch);
    void attemptStarted(const QString &cellId);
    void attemptProgress(const QString &cellId, const dreamrsi::EvaluationProgress &progress);
    void attemptAbandoned(const QString &cellId);
    /// A manual round waits for round `round`'s batch: at most `workers` of `legal`.
    void batchWanted(int round, const QStringList &legal, int workers);

    /// A round starts here (true) or has ended (false).
    void runningChanged(bool running);
    void followingChanged(bool following);
    /// The process followed has let the project go (pid).
    void writerGone(qint64 pid);
    /// The store answered whether something can be resumed.
    void resumableChecked(bool resumable);
    /// Stop, Resume, Pause or Continue may be offered differently now.
    void stateChanged();
    /// The round shown waits for Continue (true) or runs on.
    void pausedChanged(bool paused);
    /// Steering applied to `branch` of the round shown (close, refine, hint).
    void branchSteered(int branch, const QString &kind);
    /// The approval a followed loop waits for began, changed or ended (approvalWait()).
    void approvalChanged();
    /// A followed loop waits for approval of a new proposal: told once per proposal.
    void approvalAwaited(const dreamrsi::ApprovalWait &wait);
    /// A batch sent for the manual round was refused: the round waits for another.
    void batchRefused();
    void statusMessage(const QString &text);

private:
    void run(const Result<PreparedRound> &prepared, const QString &leftAsIs);
    /// Shows a round's RoundEvents: one run here or one followed alike.
    void connectEvents(RoundEvents *events, bool followed);
    void onIterationStarted(const IterationInfo &info, bool resumed, bool followed);
    void onCell(qint64 iteration, const Cell &cell);
    void take(const Cell &cell);
    void onSteeringAnswer(const SteeringRequest &request, const SteeringAck &ack);
    void onApprovalAwaited(const ApprovalWait &wait);
    void onApprovalEnded();
    void setPaused(bool paused);
    /// Forgets the round shown.
    void clear();

    /// Steering of a served project's round: the request as `dreamrsi
    /// steer`'s words to POST /api/v1/steer; the answer as an own one's.
    bool steerRemote(const SteeringRequest &request);
    bool answerRemoteApproval(const SteeringRequest &request);

    QString steeringName() const;

    ProjectStore *m_store;
    QPointer<const Preferences> m_preferences;
    std::unique_ptr<RoundRunner> m_runner;
    QPointer<RemoteFollower> m_remote;
    QList<QMetaObject::Connection> m_remoteConnections;
    RoundFollower *m_follower = nullptr;
    SteeringController *m_steering = nullptr;
    bool m_starting = false;
    RoundConfig m_config;
    IterationInfo m_iteration;
    QSet<QString> m_cellIds;
    /// A resumed round's stored cells are read first; live cells wait here meanwhile.
    bool m_awaitingBacklog = false;
    QList<Cell> m_deferred;
    bool m_paused = false;
    QSet<QString> m_ownRequests; ///< steering requests sent to the round run here
    QList<IterationInfo> m_resumable;
    quint64 m_resumableQuery = 0; ///< the latest question; older answers are dropped
    std::optional<ApprovalWait> m_approval;
    bool m_approvalSent = false; ///< an answer to m_approval was sent and not refused
    QString m_approvalTold; ///< the key of the wait told last (told once, also across following again)
};

} // namespace dreamrsi
