#pragma once

#include "base/result.h"

#include "backend/evaluationbackend.h"

#include "agent/agent.h"
#include "eval/evaluationresult.h"
#include "eval/sandboxrequest.h"

#include <QString>

#include <atomic>
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

    /// Runs the job to its end (or until `kill` turns true). `progress`
    /// gets the backend's reports on the evaluation, on this thread.
    static Outcome run(const Job &job, DiscoveryAgent &agent, EvaluationBackend &backend, const std::atomic_bool &kill,
                      const EvaluationBackend::ProgressSink &progress = {});

    /// Copies the parent's workspace into `target` (without what belongs to
    /// the parent's attempt: proposal.md, eval/, error.txt, agent.log). A failure naming the file when one cannot be copied.
    static dreamrsi::Result<Done> copyWorkspace(const QString &source, const QString &target);
};

} // namespace dreamrsi
