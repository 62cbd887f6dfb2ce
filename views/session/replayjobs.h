#pragma once

#include "appsettings.h"
#include "policy/policyspec.h"
#include "project/projectworld.h"
#include "replay/replayoptions.h"
#include "replay/replayprocess.h"
#include "replay/replayresult.h"
#include "replay/replayworld.h"
#include "store/storetypes.h"
#include "models/workspace.h"

#include <memory>

namespace dreamrsi {

/// How the views start replays. Every version the workbench shows is
/// researcher-editable JavaScript, so replays started from the GUI run in a
/// child `dreamrsi replay` process (ReplayProcess) with the memory and
/// wall-clock limits of the settings: a run-away policy costs an error
/// message, never the window. The in-process engine stays for trusted callers
/// (the CLI's `plot`, tests). How a version runs, which worlds a project has
/// and what a version is worth are decided by the project layer
/// (core/project); these functions only adapt the workspace to it.
namespace ReplayJobs {

ReplayOptions optionsFrom(const AppSettings &settings);
/// The worlds of the workspace, in order, named as the workspace names them;
/// approximate worlds (docs/tree-format.md#imported-runs) only when
/// `includeApproximate` (the settings' "Include approximate worlds").
QList<ReplayWorld> worldsOf(const Workspace &workspace, bool includeApproximate = true);
/// The workspace's worlds as the project layer sees them.
QList<ProjectWorld> projectWorldsOf(const QList<WorldEntry> &worlds);
/// ProjectPolicies::specFor with the settings' script time limit.
PolicySpec specFor(const PolicyVersion &version, const AppSettings &settings);
/// The versions a fresh workspace starts with: ProjectPolicies::builtinVersions().
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

/// ProjectScores::resultsFromRecords over the workspace's project iterations,
/// under the project's replay configuration `config`.
QHash<PolicyVersionId, ReplayResultPtr> resultsFromRecords(const QList<ReplayResultRecord> &records,
                                                           const QList<WorldEntry> &worlds, const ReplayConfig &config);
/// Results by version name under `config` with the other valuation
/// (ApprovalRules::otherValuation), rebuilt from `records` like the
/// configuration's own: what the dialogs show next to the project's value.
QHash<QString, ReplayResultPtr> otherValuationResults(const QList<ReplayResultRecord> &records,
                                                      const QList<WorldEntry> &worlds,
                                                      const QList<PolicyVersion> &versions, const ReplayConfig &config);
/// ProjectScores::recordsFor over workspace worlds (loose files are skipped).
QList<ReplayResultRecord> recordsFor(const ReplayResult &result, PolicyVersionId version, const QList<WorldEntry> &worlds);

} // namespace ReplayJobs
} // namespace dreamrsi
