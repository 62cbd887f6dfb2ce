#pragma once

#include "roundevents.h"
#include "roundliveness.h"

#include "store/storetypes.h"

#include <QString>

#include <optional>

class QTimer;

namespace dreamrsi {

class ProjectStore;

/// Follows a round that another process runs in the open project (opened
/// read-only: ProjectStore::openReadOnly), as the same RoundEvents a round
/// run here gives. Every second, off the calling thread, it asks whether
/// the other process still holds the project (ProjectLock::liveWriter) and
/// then reads what the store committed since the last look: the newest
/// `running` iteration while none is followed (iterationStarted), the
/// followed iteration's new cells (seq after the last one seen) otherwise
/// (cellFinished each, counted with RoundSession::count, then
/// countersChanged). The liveness check comes before the read, so a round
/// whose process died shows as interrupted only when it really ended
/// `running` (finished with status Interrupted). Each look also reads the
/// project's inbox: a loop of that process that waits for approval
/// (`dreamrsi loop --await-approval`) is approvalAwaited once per proposal,
/// and approvalEnded once it no longer waits. While an iteration is
/// followed, each look also reads the attempts the writer publishes in
/// flight (RoundLiveness, `attempts.json`) and whether its round accepts
/// steering (SteeringInbox::whyNotAccepting), and after the look's cells
/// tells them with the stall rule `dreamrsi status` applies
/// (RoundLiveness::assess over the cells seen): attemptsSeen.
///
/// One look at a time; answers that arrive after stop() are dropped.
class RoundFollower final : public RoundEvents
{
    Q_OBJECT
public:
    explicit RoundFollower(ProjectStore *store, QObject *parent = nullptr);
    ~RoundFollower() override;

    /// Starts looking at the project open in the store (read-only),
    /// written by `writer`.
    void start(const WriterInfo &writer);
    void stop();
    bool isActive() const;
    /// The iteration followed, 0 while looking for one.
    IterationId iteration() const { return m_iteration; }
    const WriterInfo &writer() const { return m_writer; }
    /// Milliseconds between looks (default 1000).
    void setInterval(int ms);
    /// Looks now, unless a look is under way.
    void poll();
    /// Why the followed round takes no steering, kill included
    /// (SteeringInbox::whyNotAccepting), as of the last look; empty when it
    /// takes it. Not known before the first look.
    const QString &whyNoSteering() const { return m_whyNoSteering; }

signals:
    /// The other process no longer holds the project, no round being
    /// followed. Following stops.
    void writerGone();
    /// After each look at a followed iteration that still runs: its
    /// attempts in flight as the writer publishes them, each with its age
    /// and whether it is stalled, and the iteration's state (`live` or
    /// `stalled`; `interrupted` with no attempts while the writer publishes
    /// none for it), as `dreamrsi status` would say now.
    void attemptsSeen(const dreamrsi::IterationLiveness &liveness);

private:
    void look(bool writerAlive);
    /// The approval the writer waits for now, if any: told when it changes.
    void takeApproval(const std::optional<ApprovalWait> &approval);
    void take(const IterationData &data);

    ProjectStore *m_store;
    QTimer *m_timer = nullptr;
    WriterInfo m_writer;
    IterationId m_iteration = 0;
    qint64 m_lastSeq = -1;
    RoundCounters m_counters;
    StoredTimes m_stored;          ///< the followed iteration's cells seen, for the stall rule
    std::optional<LiveRound> m_live; ///< the writer's attempts in flight, as of the last look
    QString m_whyNoSteering;
    QString m_approvalKey; ///< the wait told last (ApprovalWait::key), empty when none
    quint64 m_epoch = 0; ///< bumped by start/stop: answers of older looks are dropped
    bool m_busy = false;
};

} // namespace dreamrsi
