#pragma once

#include "appsettings.h"
#include "policy/policyspec.h"
#include "replay/replayoptions.h"
#include "replay/replayprocess.h"
#include "replay/replayresult.h"
#include "replay/replayworld.h"
#include "store/storetypes.h"
#include "workspace.h"

#include <memory>

namespace dreamrsi {

/// How the views start replays. Every version the workbench shows is
/// researcher-editable JavaScript, so replays started from the GUI run in a
/// child `dreamrsi replay` process (ReplayProcess) with the memory and
/// wall-clock limits of the settings: a run-away policy costs an error
/// message, never the window. The in-process engine stays for trusted callers
/// (the CLI's `plot`, tests).
namespace ReplayJobs {

ReplayOptions optionsFrom(const AppSettings &settings);
/// The worlds of the workspace, in order, named as the workspace names them.
QList<ReplayWorld> worldsOf(const Workspace &workspace);
/// Versions whose code is a built-in's JavaScript twin stay scripts too, so
/// every version runs the code the researcher sees.
PolicySpec specFor(const PolicyVersion &version, const AppSettings &settings);
/// The versions a fresh workspace starts with: the built-in twins.
QList<PolicyVersion> builtinVersions();

/// The child-process request that replays `version` in `worlds` over the β
/// grid of `settings`, within the settings' limits (no trace).
ReplayProcessRequest sweepRequest(QList<ReplayWorld> worlds, const PolicyVersion &version, const AppSettings &settings);
/// The request for one traced episode of `version` in `world` at `beta` (the stepper).
ReplayProcessRequest tracedEpisodeRequest(ReplayWorld world, const PolicyVersion &version, double beta,
                                          const AppSettings &settings);
/// The traced episode of a finished tracedEpisodeRequest; an episode carrying
/// the error when the output holds none or the world failed.
std::shared_ptr<const EpisodeResult> tracedEpisodeOf(const ReplayProcessOutput &output);

/// Rebuilds per-version results from stored episode records (ProjectStore),
/// scoring each (version, world) sweep with the engine's own formulas.
/// Records of worlds not in `worlds` (by iteration id) are ignored; when a
/// version has results under several parameter sets, the most recent set wins.
QHash<PolicyVersionId, ReplayResultPtr> resultsFromRecords(const QList<ReplayResultRecord> &records,
                                                           const QList<WorldEntry> &worlds);
/// The records to store for a result computed over workspace worlds (worlds
/// without a project iteration are skipped).
QList<ReplayResultRecord> recordsFor(const ReplayResult &result, PolicyVersionId version, const QList<WorldEntry> &worlds);

} // namespace ReplayJobs
} // namespace dreamrsi
