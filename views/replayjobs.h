#pragma once

#include "appsettings.h"
#include "policy/policyspec.h"
#include "replay/replayoptions.h"
#include "replay/replayresult.h"
#include "replay/replayworld.h"
#include "store/storetypes.h"
#include "workspace.h"

#include <QFuture>

#include <atomic>
#include <functional>
#include <memory>

namespace dreamrsi {

/// Shared state of one running sweep: the GUI sets `cancel`, the worker
/// threads publish progress.
struct SweepControl
{
    std::atomic<bool> cancel{false};
    std::atomic<int> done{0};
    std::atomic<int> total{0};
};

/// How the views start replays: always on worker threads (QtConcurrent plus
/// the engine's own pool), never on the GUI thread. Results come back as
/// immutable shared values.
namespace ReplayJobs {

ReplayOptions optionsFrom(const AppSettings &settings);
/// The worlds of the workspace, in order, named as the workspace names them.
QList<ReplayWorld> worldsOf(const Workspace &workspace);
/// Versions whose code is a built-in's JavaScript twin stay scripts too, so
/// every version runs the code the researcher sees.
PolicySpec specFor(const PolicyVersion &version, const AppSettings &settings);
/// The versions a fresh workspace starts with: the built-in twins.
QList<PolicyVersion> builtinVersions();

/// Replays `version` in every world over the β grid of `settings`.
QFuture<ReplayResultPtr> runSweep(QList<ReplayWorld> worlds, PolicyVersion version, AppSettings settings,
                                  std::shared_ptr<SweepControl> control);
/// One traced episode of `version` in one world at one β (for the stepper).
QFuture<std::shared_ptr<const EpisodeResult>> runTracedEpisode(ReplayWorld world, PolicyVersion version, double beta,
                                                                AppSettings settings);

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
