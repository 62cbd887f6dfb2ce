#pragma once

#include "base/result.h"
#include "policy/scriptlimits.h"
#include "replay/replayoptions.h"
#include "replay/replayworld.h"
#include "replay/sandboxedreplay.h"
#include "store/storetypes.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <atomic>
#include <functional>
#include <optional>

namespace dreamrsi {

/// One replay of a policy version in a set of worlds: the job every caller
/// runs — `dreamrsi replay --project` (ProjectReplay), the dreamer, the
/// window's sweeps, `dreamrsi plot`. It decides, once for all of them, how a
/// version runs (ProjectPolicies::specFor, under `limits`), how the replay
/// configuration becomes replay options (ProjectScores::optionsFor) and how
/// a child process is asked for the same replay
/// (docs/architecture.md#the-rooms-of-the-code).
struct VersionReplayJob
{
    /// Where the policy's code runs: in this process (trusted callers: the
    /// command line, the counterfactual loop) or in a child `dreamrsi replay`
    /// with the memory and wall-clock limits of `limits` (the window and
    /// dreams of a project, whose versions an agent wrote).
    enum class Where { InProcess, ChildProcess };

    PolicyVersion version;
    /// The worlds, named as results should name them. For an imagined
    /// valuation: C completions of each history world, world-major.
    QList<ReplayWorld> worlds;
    /// Child process only: the same worlds already written to these files
    /// (same order), so several jobs share one copy; empty = the job writes them.
    QStringList worldPaths;
    /// W, λ, the β grid and K of the replay.
    ReplayConfig config;
    /// The worlds are C completions of each history world (0: the history as
    /// revealed); the result says so.
    int completions = 0;
    /// What else a replay is run with (threads, trace, grid plan); its W, λ,
    /// β and K are replaced by `config`'s.
    ReplayOptions options;
    ScriptLimits limits;
    /// The seed of Math.random in scripts; none: PolicySpec's default.
    std::optional<quint32> randomSeed;
    Where where = Where::InProcess;
    /// Child process: the dreamrsi program; empty = ReplayProcess's default.
    QString program;
};

namespace VersionReplay {

using Progress = std::function<void(int done, int total)>;

/// Runs `job` to its end on the calling thread (never the GUI thread: a
/// child process is waited for in a local event loop), reporting (episodes
/// done, episodes in all) and stopping when `cancel` turns true.
///
/// The output's result names the worlds as `job.worlds` does (a child's
/// file paths are mapped back) and carries `job.completions`; with
/// `options.trace` it holds every episode's trace. A script that does not
/// compile is no failure of the job: every world's sweep then carries the
/// error, as a child replay reports it, so the version is judged failed.
/// No output, and the reason, when the child process failed (limit, crash)
/// or the job was cancelled.
SandboxedReplayOutcome run(const VersionReplayJob &job, const Progress &progress = {},
                           const std::atomic_bool *cancel = nullptr);

} // namespace VersionReplay
} // namespace dreamrsi
