#pragma once

#include "backend/evaluationbackend.h"
#include "roundevents.h"
#include "roundtypes.h"

#include "model/cell.h"

#include <QObject>
#include <QString>
#include <QStringList>

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>

class QThread;

namespace dreamrsi {

class DiscoveryAgent;
class EvaluationBackend;
class ProjectStore;

/// Runs one live round (docs/online.md#a-live-round, #workspaces) or resumes one.
///
/// start() returns at once: a driver thread plans the grid (policy planGrid,
/// stored with the iteration), then round after round builds the policy's
/// state from the live tree (RoundTree, the same PolicyState as replay),
/// asks for a batch, checks it like replay does, and runs each id as one
/// attempt on a pool of W worker threads: the attempt's workspace
/// `attempts/<iteration>/<id>/` under the project's artifact folder (a copy
/// of the parent's workspace, the initial program for attempt 0), the agent
/// (DiscoveryAgent::propose), proposal.md and the program, then the
/// evaluator through the EvaluationBackend (eval/score.json, error.txt,
/// agent.log). Each finished attempt is stored the moment it ends (seq in
/// finishing order, artifacts content-addressed); an agent failure is a cell
/// with fail class "agent". A batch is recorded in
/// `attempts/<iteration>/rounds/<k>.json` before its attempts start, so a
/// resume knows which attempts were in flight.
///
/// Ends: empty batch or no legal cell or K1 rounds or a budget cap → status
/// `finished`; stop() → `stopped` (StopMode::Finish lets running attempts
/// finish, StopMode::Kill kills them; killed attempts are not stored and run again on
/// resume); a policy or store error → `stopped` with the error; a crash
/// leaves `running`, which the store turns into `interrupted` at the next
/// open. Resuming (config.resume) keeps the stored cells, reruns the
/// recorded batch's missing ids from their parents, and never stores an id
/// twice.
///
/// Steering (config.acceptSteering, SteeringBook, SteeringInbox): while the
/// round runs, `<project>.inbox/live.json` says so; before each new batch the
/// runner applies the requests waiting in the inbox (close, refine, hint,
/// pause, continue), stores each applied one as an event, then answers it.
/// Pinned cells go first in the batch and the policy picks the rest from a
/// legal list without them and without closed branches, with W less the
/// pins; a paused round waits (polling the inbox) until continue or Stop. A
/// resume rebuilds the steering from the stored events.
///
/// Signals are emitted from the driver thread (listeners in other threads
/// get them queued). The RoundEvents ones (iterationStarted, cellFinished,
/// countersChanged, logLine, finished) are what a round followed in another
/// process gives too (RoundFollower). In this order per attempt: attemptStarted, then
/// cellFinished (stored) or attemptAbandoned (killed); attemptProgress
/// alone comes from the attempt's worker thread, always after its
/// attemptStarted and before its cellFinished.
class RoundRunner final : public RoundEvents
{
    Q_OBJECT
public:
    RoundRunner(ProjectStore *store, RoundConfig config, std::shared_ptr<DiscoveryAgent> agent,
                std::shared_ptr<EvaluationBackend> backend, QObject *parent = nullptr);
    /// Kills running attempts and waits for the driver thread.
    ~RoundRunner() override;

    /// Starts the driver thread; a runner runs once.
    void start();
    /// How a stored cell's outcome ends its line in the round's log: its
    /// score, or its fail class and the last line of its error, whole (a
    /// longer error, a traceback, is the cell's in the inspector).
    static QString describeOutcome(const Cell &cell);
    /// How to stop a round.
    enum class StopMode {
        Finish, ///< no new round or attempt; the running attempts finish and are stored
        Kill,   ///< as Finish, and the running attempts are killed (not stored; a resume reruns them)
    };
    /// Thread-safe; may be called again (Finish, then Kill).
    void stop(StopMode mode = StopMode::Finish);
    /// How many times stop() was called (a Kill counts as a second call).
    int stopRequests() const { return m_stopRequests.load(); }
    /// True from start() until finished() was emitted.
    bool isRunning() const { return m_running.load(); }
    /// Blocks until the driver thread has ended (not for the GUI thread).
    void wait();
    /// The outcome; complete once finished() was emitted.
    RoundSummary summary() const;
    const RoundConfig &config() const { return m_config; }

signals:
    /// Round `round` (0-based) starts with `batch` (ids in policy order).
    void roundStarted(int round, const QStringList &batch);
    void attemptStarted(const QString &cellId);
    /// The attempt's evaluation moved on its scheduler (a Slurm job was
    /// submitted, waits with a reason, runs, ended with its queue wait and
    /// run time). Only backends with a scheduler report it.
    void attemptProgress(const QString &cellId, const dreamrsi::EvaluationProgress &progress);
    /// An attempt was killed by stop(StopMode::Kill); it is not stored.
    void attemptAbandoned(const QString &cellId);
    /// A steering request was applied and stored (RoundConfig::acceptSteering).
    void steered(const dreamrsi::SteeringEvent &event);
    /// A manual round waits for a person to pick round `round`'s batch:
    /// at most `workers` of `legal` (closed branches left out).
    void batchWanted(int round, const QStringList &legal, int workers);
    /// The round waits (true) for `continue` after a `pause`, or goes on (false).
    void pausedChanged(bool paused);

private:
    struct Run;
    /// The driver thread: Run's steps (roundrun_p.h), set-up to finish.
    void run();
    /// Ends a wait of the driver for a person (after a stop request).
    void wakeDriver();

    ProjectStore *m_store;
    RoundConfig m_config;
    std::shared_ptr<DiscoveryAgent> m_agent;
    std::shared_ptr<EvaluationBackend> m_backend;
    QThread *m_thread = nullptr;
    std::atomic_int m_stopRequests{0};
    std::atomic_bool m_running{false};
    std::shared_ptr<std::atomic_bool> m_kill;
    /// stop() wakes the driver here when it waits for a person (Run::waitWhile).
    std::mutex m_wakeMutex;
    std::condition_variable m_wake;
    mutable std::mutex m_summaryMutex;
    RoundSummary m_summary;
};

} // namespace dreamrsi

Q_DECLARE_METATYPE(dreamrsi::SteeringEvent)
