#pragma once

#include "loop/dream/dreamer.h"
#include "loop/round/roundevents.h"
#include "loop/round/roundtypes.h"

#include <QJsonObject>
#include <QList>
#include <QObject>

#include <atomic>
#include <memory>
#include <mutex>
#include <optional>

namespace dreamrsi {

class DiscoveryAgent;
class EvaluationBackend;
class ProjectStore;

/// How the recursive loop runs (docs/online.md#the-recursive-loop).
struct LoopSettings
{
    /// Every round's settings; `seed` is set per iteration. `policy`, when
    /// not the latest approved version (`loop --policy`), drives the rounds
    /// until a version of a dream is approved (with `fixed`: all of them).
    RoundConfig round;
    DreamSettings dream;      ///< every dream's settings; `seed` is set per iteration
    int iterations = 3;       ///< T
    bool fixed = false;       ///< the fixed-exploration baseline: no dreaming, the policy never changes
    bool autoApprove = false; ///< approve each proposal and record that it was automatic
    /// After each dream, wait until a person approves a version of it or
    /// declines (SteeringInbox: `dreamrsi approve` from another process, or
    /// the workbench following the loop). The project records the wait and
    /// its proposal; Stop while waiting ends the loop cleanly.
    bool awaitApproval = false;
};

/// One iteration of the loop: its round, and the dream after it.
struct LoopIteration
{
    int index = 0;                      ///< 1 … T
    PolicyVersionId policyVersion = 0;  ///< the version that drove the round
    QString policyName;
    RoundSummary round;
    qint64 cumulativeCalls = 0;         ///< agent calls of this run up to and including this round
    std::optional<double> bestScore;    ///< best score of this run so far
    std::optional<DreamReport> dream;   ///< none for --fixed and after the last round
    PolicyVersionId approved = 0;       ///< the version approved after the dream, 0 = none
};

/// What a run of the loop produced.
struct LoopReport
{
    bool fixed = false;
    QList<LoopIteration> iterations;
    bool stopped = false;
    QString error;                      ///< what stopped the loop early; empty when it ran to the end
};

/// The recursive loop (docs/online.md#the-recursive-loop): T iterations of round → dream →
/// approve on one project. Each round runs with the deployed version (the
/// newest approved one, else builtin:portfolio; or the settings' policy
/// until a dream's version is approved) and seed S + t − 1; after it
/// a dream over every finished iteration of the project writes M versions;
/// with autoApprove its proposal is approved automatically and drives the
/// next round. No dream follows the last round: its version would never run.
/// With `fixed`, every round runs the version deployed at the start and
/// nothing is dreamed or approved: the fixed-exploration baseline with the
/// same agent, evaluator, seeds and budgets.
///
/// run() blocks (rounds on the runner's threads, dreams on the caller's
/// thread with local event loops): call it from the CLI or a worker thread.
class RecursiveLoop : public QObject
{
    Q_OBJECT
public:
    RecursiveLoop(ProjectStore *store, std::shared_ptr<DiscoveryAgent> agent, std::shared_ptr<EvaluationBackend> backend,
                  std::shared_ptr<PolicyDeveloper> developer, QObject *parent = nullptr);

    LoopReport run(const LoopSettings &settings);
    /// Thread-safe: stops the running round (its attempts finish) or dream, then the loop.
    void stop();

    /// `{runs: [{fixed, iterations: [{iteration, policy_version, cells, best_score, cumulative_calls, …}]}]}`.
    static QJsonObject toJson(const QList<LoopReport> &runs);
    /// One run's object of toJson().
    static QJsonObject runJson(const LoopReport &run);

    /// What the loop tells a view, as a round does (RoundEvents): each
    /// round's iteration, cells, counters, log and end as its RoundRunner
    /// gives them, and between rounds the wait for approval
    /// (approvalAwaited with the proposal {version, name, value, index,
    /// versions: [{id, name, value, error}], event}, then approvalEnded).
    /// Emitted from the thread run() runs on.
    RoundEvents *events() const { return m_events; }

signals:
    void message(const QString &line);
    void iterationFinished(int index, int total);

private:
    ProjectStore *m_store;
    std::shared_ptr<DiscoveryAgent> m_agent;
    std::shared_ptr<EvaluationBackend> m_backend;
    std::shared_ptr<PolicyDeveloper> m_developer;
    std::atomic_bool m_stop{false};
    void setActive(QObject *object);
    /// How the wait for approval ended (a failure is the Result's).
    struct ApprovalAnswer
    {
        enum class Outcome { Approved, Declined, Stopped };
        Outcome outcome = Outcome::Stopped;
        PolicyVersionId approved = 0; ///< the version approved, for Approved
    };
    /// Records that the dream's proposal awaits approval (an event, and the
    /// inbox's live.json), says so on events(), and answers the inbox's
    /// requests until one approves or declines, or Stop.
    Result<ApprovalAnswer> awaitApproval(const DreamReport &dream, const QList<DreamWorld> &worlds, int t);
    /// Answers the requests waiting in the inbox: the outcome once one
    /// approves or declines (or the store fails), nothing while none has.
    std::optional<Result<ApprovalAnswer>> answerApprovalRequests(const DreamReport &dream, const QList<DreamWorld> &worlds,
                                                                 qint64 awaited);
    // The steps of run(), one iteration's in order.
    /// How an iteration's step ended: the loop goes on, or it stops (Stop,
    /// a cancelled dream, a declined wait) or fails (the error with it).
    enum class Went { On, Stopped, Failed };
    /// Why the loop cannot start with `settings`; empty when it can.
    QString refusal(const LoopSettings &settings) const;
    /// Round t with `policy`, put together by RoundSession::prepare, its
    /// summary into `it`; the error when it could not start.
    QString runRound(const LoopSettings &settings, const PolicyVersion &policy, int t, LoopIteration &it);
    /// Whether the loop goes on after round t's summary (not after Stop).
    Went afterRound(const LoopIteration &it, int t, QString *error) const;
    /// The dream after round t, and what becomes of its proposal; `deployed`:
    /// version 0 when it is not the project's deployed one (loop --policy).
    Went dreamAfter(const LoopSettings &settings, const std::optional<PolicyVersion> &deployed, int t, LoopIteration &it,
                    QString *error);
    /// The proposal of a dream approved automatically, awaited, or left proposed.
    Went deployProposal(const LoopSettings &settings, const DreamReport &dream, const QList<DreamWorld> &worlds, int t,
                        LoopIteration &it, QString *error);
    RoundEvents *m_events;
    std::mutex m_activeMutex;
    /// The running RoundRunner or Dreamer, or the event loop of a wait for
    /// approval, under m_activeMutex.
    QObject *m_active = nullptr;
};

} // namespace dreamrsi
