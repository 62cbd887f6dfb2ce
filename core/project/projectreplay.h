#pragma once

#include "projectworld.h"

#include "base/result.h"
#include "policy/scriptlimits.h"
#include "replay/replayengine.h"
#include "replay/replayoptions.h"
#include "replay/replayresult.h"
#include "replay/worldmodel.h"
#include "store/storetypes.h"

namespace dreamrsi {

/// What `dreamrsi replay --project` asks for.
struct ProjectReplayRequest
{
    ProjectReplayRequest(); // out of line: keeps GCC's inlined QList copy of the default β grid out of callers
    QString project;            ///< path of the project file
    /// A stored version's name, a .js file or builtin:NAME; the latter two are
    /// first stored as a version (named `versionName`, else the file's base
    /// name; an existing version of that name must hold the same code).
    /// builtin:NAME without `versionName` is today's built-in, by
    /// ProjectPolicies::currentBuiltin: "builtin:NAME", or
    /// "builtin:NAME@<hash>" beside an older build's "builtin:NAME".
    QString policy;
    QString versionName;
    /// A stored version's id; when not 0 it names the version and `policy` is ignored.
    PolicyVersionId versionId = 0;
    /// How to replay besides the replay configuration (threads, trace, grid
    /// plan): its W, λ, β grid and K are replaced by the project's replay
    /// configuration with `overrides` applied.
    ReplayOptions options;
    /// Explicit flags that override the project's configuration for this run only.
    ReplayConfigOverrides overrides;
    ScriptLimits limits;
    quint32 seed = 0x5EED1234u;
    ReplayEngine::Progress progress;
    /// Apply each iteration's stored interventions (closings and pins,
    /// docs/steering.md) as its live round did; the results are then a
    /// what-if and are not stored.
    bool applySteering = false;
    /// Replay and report without storing anything: the project file is only
    /// read (an older build's project as it is, upgraded in memory), and a
    /// policy not stored yet runs unstored (version id 0).
    bool noStore = false;
    /// Also replay in approximate worlds (docs/tree-format.md#imported-runs);
    /// results over them are labelled either way.
    bool includeApproximate = false;
    /// Imagined valuation: the seed of the completions (a dream's seed; 0
    /// for a replay outside a dream). A task's directions come from the
    /// task itself (Task::directionNamesOf).
    quint64 imagineSeed = 0;
};

/// What a project replay did.
struct ProjectReplayOutcome
{
    PolicyVersion version;
    ReplayConfig config;       ///< what it was replayed under (the project's, unless overridden)
    bool overridden = false;   ///< `config` differs from the project's configuration
    QList<ProjectWorld> worlds;
    int skippedIterations = 0; ///< running or interrupted
    int approximateLeftOut = 0; ///< approximate worlds left out (no includeApproximate)
    int steeredWorlds = 0;     ///< worlds replayed with interventions (applySteering)
    ReplayResult result;           ///< over the worlds, or (imagined valuation) their completions, world-major
    int storedRecords = 0;
    QString storeError;        ///< the replay ran but its results could not be stored
};

/// Replays a policy version in every replay world of a project
/// (ProjectWorlds: finished iterations), running it by the project's rule
/// (ProjectPolicies::specFor) under the project's replay configuration (or
/// the request's overrides), and stores one record per (version, world, β,
/// W, λ, K, grid), replacing earlier ones. Fails — before replaying — when the
/// project cannot be opened, the policy cannot be resolved, or there is no
/// replay world.
namespace ProjectReplay {
Result<ProjectReplayOutcome> run(const ProjectReplayRequest &request);
/// The closings and pins of an iteration's stored steering events, as a
/// replay applies them (hints, pauses and manual batches have no effect on
/// which cells a policy reveals).
WorldSteering steeringOf(const QList<SteeringEvent> &events);
}

} // namespace dreamrsi
