#pragma once

#include "base/result.h"

#include "backend/evaluationbackend.h"

#include "agent/agent.h"
#include "eval/evaluationresult.h"
#include "eval/sandboxrequest.h"

#include <QString>

#include <atomic>
#include <mutex>
#include <optional>

namespace dreamrsi {

/// One attempt of a live round, run on a worker thread (docs/online.md#a-live-round,
/// docs/online.md#workspaces): prepare the workspace, run the agent, write proposal.md and the
/// program, evaluate through the backend, write eval/score.json, error.txt
/// and agent.log. Everything it needs is in the job; it touches no shared
/// state, so any number run at once.
class RoundAttempt
{
public:
    struct Job
    {
        AttemptContext context;        ///< workspaceDir, parentWorkspaceDir, parentProgram, … filled in
        QString evaluationTask;        ///< task as the evaluator takes it (name or absolute folder)
        QString initialProgram;        ///< copied into the workspace for attempt 0
        int round = 0;
        SandboxMode sandboxMode = SandboxMode::Auto;
    };

    /// What became of one attempt (not the project's Result<T>: an attempt
    /// that failed is an outcome to store, not an error).
    struct Outcome
    {
        QString cellId;
        int branch = 0;
        int attempt = 0;
        int round = 0;
        /// Killed (second Stop): nothing of it is stored; it runs again on resume.
        bool abandoned = false;
        /// The workspace could not be made (fail class "env", `setupError`).
        QString setupError;
        AgentOutcome outcome;          ///< the agent's answer (ok false = an agent failure)
        std::optional<EvaluationResult> evaluation; ///< set when the program was evaluated
        /// The backend's last report on the evaluation (a scheduler's job,
        /// its queue wait and run time); unset for a local evaluation.
        std::optional<EvaluationProgress> scheduling;
        double agentSeconds = 0.0;
        double evalSeconds = 0.0;
        double wallSeconds = 0.0;
        QString workspace;
        QString programFileName;
    };

    /// What the round's driver sees of a running attempt and how it ends one
    /// early (docs/online.md#is-it-alive): the phase it is in since when, and
    /// a stop of its own. Shared between the worker that runs the attempt and
    /// the driver; every member is safe from both.
    class Control
    {
    public:
        enum class Phase {
            Agent,      ///< the agent is at work
            Evaluation, ///< the evaluator runs
            Queued,     ///< the evaluation's job waits for its scheduler (Slurm)
        };
        /// Why an attempt was ended early; the first reason given wins.
        enum class Ending {
            None,
            Abandon,        ///< the round was killed: nothing is stored, a resume reruns it
            Killed,         ///< a person killed it: stored as an `env` failure with the reason
            AgentTimeLimit, ///< the agent ran past its wall-clock limit: an `agent` failure
        };

        /// The attempt's cancel flag: what the agent and the backend poll.
        const std::atomic_bool &cancelFlag() const { return m_cancel; }
        /// Ends the attempt for `why` (ignored when it was ended already).
        void end(Ending ending, const QString &why);
        Ending ending() const;
        QString reason() const;
        Phase phase() const { return Phase(m_phase.load()); }
        /// Since when (epoch ms) the attempt has run, and since when it is in its phase.
        qint64 startedMs() const { return m_startedMs.load(); }
        qint64 phaseStartedMs() const { return m_phaseStartedMs.load(); }
        /// The worker's side: the attempt begins, or moves to `phase` (now).
        void begin();
        void enter(Phase phase);

    private:
        std::atomic_bool m_cancel{false};
        std::atomic_int m_phase{int(Phase::Agent)};
        std::atomic<qint64> m_startedMs{0};
        std::atomic<qint64> m_phaseStartedMs{0};
        mutable std::mutex m_mutex;
        Ending m_ending = Ending::None;
        QString m_reason;
    };

    /// Runs the job to its end (or until `kill` turns true). `progress`
    /// gets the backend's reports on the evaluation, on this thread.
    static Outcome run(const Job &job, DiscoveryAgent &agent, EvaluationBackend &backend, const std::atomic_bool &kill,
                      const EvaluationBackend::ProgressSink &progress = {});
    /// The same under a driver's `control`: its cancel flag stops the
    /// attempt; its phase follows the attempt. An attempt a person killed
    /// comes back with `setupError` set to the reason (fail class `env`),
    /// one whose agent ran past its limit as an agent failure with the
    /// reason; a round's kill (Ending::Abandon) as `abandoned`.
    static Outcome run(const Job &job, DiscoveryAgent &agent, EvaluationBackend &backend, Control &control,
                      const EvaluationBackend::ProgressSink &progress = {});

private:
    static Outcome run(const Job &job, DiscoveryAgent &agent, EvaluationBackend &backend, const std::atomic_bool &kill,
                      const EvaluationBackend::ProgressSink &progress, Control &control);

public:
    /// Copies the parent's workspace into `target` (without what belongs to
    /// the parent's attempt: proposal.md, eval/, error.txt, agent.log). A failure naming the file when one cannot be copied.
    static dreamrsi::Result<Done> copyWorkspace(const QString &source, const QString &target);
};

} // namespace dreamrsi
