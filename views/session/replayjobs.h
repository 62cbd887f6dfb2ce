#pragma once

#include "appsettings.h"
#include "project/projectworld.h"
#include "project/versionreplay.h"
#include "replay/replayoptions.h"
#include "replay/replayprocess.h"
#include "replay/replayresult.h"
#include "replay/replayworld.h"
#include "store/storetypes.h"
#include "models/workspace.h"

#include <memory>

class QThreadPool;

namespace dreamrsi {

/// How the views start replays. Every version the workbench shows is
/// researcher-editable JavaScript, so replays started from the GUI are
/// VersionReplay jobs in a child `dreamrsi replay` process with the limits of
/// the preferences (AppSettings::scriptLimits): a run-away policy costs an
/// error message, never the window; the jobs run on worker threads. How a
/// version runs, which worlds a project has and what a version is worth are
/// decided by the project layer (core/project); these functions only adapt
/// the workspace to it.
namespace ReplayJobs {

/// The worlds of the workspace, in order, named as the workspace names them;
/// approximate worlds (docs/tree-format.md#imported-runs) only when
/// `includeApproximate` (the settings' "Include approximate worlds").
QList<ReplayWorld> worldsOf(const Workspace &workspace, bool includeApproximate = true);
/// The history a sweep values a version over: the workspace's worlds as the
/// project layer sees them, approximate ones only when `includeApproximate`
/// (ValuationWorlds::historyOf).
QList<ProjectWorld> historyOf(const Workspace &workspace, bool includeApproximate);
/// The workspace's worlds as the project layer sees them.
QList<ProjectWorld> projectWorldsOf(const QList<WorldEntry> &worlds);
/// The versions a fresh workspace starts with: ProjectPolicies::builtinVersions().
QList<PolicyVersion> builtinVersions();

/// The job of a sweep of `version` under `config` (the project's replay
/// configuration, or the loose files' one) in a child process within the
/// preferences' limits, no trace; its worlds are still to be given (under
/// an imagined `config`, C completions of each world: `completions` is C,
/// ValuationWorlds::completionsOf).
VersionReplayJob sweepJob(const PolicyVersion &version, const ReplayConfig &config, const AppSettings &settings);
/// The job of one traced episode of `version` in `world` at `beta` (the
/// stepper): the world as it is, on one thread.
VersionReplayJob tracedEpisodeJob(ReplayWorld world, const PolicyVersion &version, double beta,
                                  const ReplayConfig &config, const AppSettings &settings);
/// The threads the window's replay jobs wait on: their own pool, since a
/// job that waits for its child keeps its thread busy, and the child's
/// worlds are written by tasks of the global pool (ReplayProcess), which
/// two waiting jobs must never fill up.
QThreadPool *pool();
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
/// ValuationWorlds::recordsFor over the workspace's worlds: a sweep over
/// them or their completions becomes records by the worlds' names (loose
/// files are skipped).
QList<ReplayResultRecord> recordsFor(const ReplayResult &result, PolicyVersionId version, const QList<WorldEntry> &worlds);

} // namespace ReplayJobs
} // namespace dreamrsi
