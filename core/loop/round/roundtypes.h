#pragma once

#include "replay/probes.h"
#include "agent/agent.h"
#include "eval/sandboxrequest.h"
#include "policy/gridplan.h"
#include "project/policychoice.h"
#include "store/storetypes.h"

#include <QJsonObject>
#include <QMetaType>
#include <QString>

#include <optional>

// The vocabulary of a live round (docs/online.md#a-live-round): what the runner is asked to
// do, its running counters and its summary. Plain data, copied between the
// runner's thread and its listeners.

namespace dreamrsi {

/// What a round runs with. Budget caps are checked before each round (and
/// the last batch is cut to the calls left), so a round stops cleanly.
struct RoundConfig
{
    QString task;                         ///< built-in task name or task folder
    AgentConfig agent;                    ///< recorded (kind, model, base URL); the key is never stored
    /// Which policy drives the round (RoundPolicy::resolve); by default the
    /// newest approved version.
    PolicyChoice policy;
    /// W; none on resume: the iteration's own W (DefaultWorkers for a new one).
    std::optional<int> workers = DefaultWorkers;
    static constexpr int DefaultWorkers = 4;
    /// The bounds of W, decided once: `round --workers`, `loop --workers` and Launch Round.
    static constexpr int MinWorkers = 1;
    static constexpr int MaxWorkers = 1024;
    std::optional<int> maxRounds;         ///< K1; nullopt = until an empty batch or no legal cell
    std::optional<double> beta;           ///< nullopt = the policy's defaultBeta, else 0.5
    quint64 seed = 0;                     ///< per-attempt agent seeds derive from it
    std::optional<qint64> maxCalls;       ///< agent calls (attempts)
    std::optional<qint64> maxTokens;      ///< tokens in + out
    std::optional<double> maxUsd;         ///< cost
    GridPlan fallbackGrid{10, 10, QStringLiteral("fallback grid (the policy has no planGrid)")};
    int hardMaxBranches = 64;
    int hardMaxRefinements = 64;
    /// Evaluate the task's initial program once before a new iteration to get
    /// its baseline score (deltaVsBaseline); off = no baseline.
    bool evaluateBaseline = true;
    SandboxMode sandboxMode = SandboxMode::Auto;
    /// 0 = a new iteration; else an interrupted or stopped one to continue.
    IterationId resume = 0;
    /// The wall-clock limit of one agent call, in seconds: an agent still at
    /// work past it is killed and its attempt stored as an `agent` failure
    /// (docs/online.md#is-it-alive). 0 = none.
    double agentTimeLimitS = 900.0;
    /// Read steering requests (close, refine, hint, pause, continue) from
    /// the project's inbox between batches (SteeringInbox). Off: nobody can
    /// steer the round, and a request gets that answer from `dreamrsi steer`.
    bool acceptSteering = false;
    /// Probe calls after the policy's last batch, where the world model of
    /// the task's history is blind (docs/online.md#probes). None: `auto`
    /// when the round deploys a dreamed version (origin agent), else off.
    std::optional<ProbeSetting> probe;
};

/// Running totals of an iteration (resumed cells included).
struct RoundCounters
{
    qint64 cells = 0;      ///< cells stored
    qint64 calls = 0;      ///< agent calls (one per attempt)
    qint64 tokensIn = 0;
    qint64 tokensOut = 0;
    double usd = 0.0;
    int rounds = 0;        ///< rounds completed
    int running = 0;       ///< attempts in flight
    std::optional<double> bestScore;
};

/// How a round ended (`dreamrsi round --json`, docs/online.md#commands).
struct RoundSummary
{
    IterationId iteration = 0;      ///< 0 when none was created
    IterationStatus status = IterationStatus::Finished;
    RoundCounters counters;
    GridPlan grid;
    QString stopReason;             ///< "empty batch", "no legal cell", "round limit", "budget: …", "stopped"
    QString error;                  ///< non-empty when an error stopped the round

    bool ok() const { return error.isEmpty(); }
    /// {iteration, status, cells, rounds, best_score, calls, tokens_in, tokens_out, usd, grid}.
    QJsonObject toJson() const;
};

} // namespace dreamrsi

Q_DECLARE_METATYPE(dreamrsi::RoundCounters)
Q_DECLARE_METATYPE(dreamrsi::RoundSummary)
