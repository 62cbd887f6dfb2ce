#pragma once

#include "projectworld.h"

#include "replay/episoderesult.h"
#include "replay/replayresult.h"
#include "store/storetypes.h"

#include <QHash>
#include <QList>

namespace dreamrsi {

/// The value of a policy version over a project, from stored results, and
/// the stored form of a replay. One rule for everybody (GUI, CLI, approval):
///
/// - a version's result over a project covers its replay worlds; per world
///   the stored episodes are re-scored with the engine's formulas
///   (ReplayEngine::score), so a stored result and a fresh replay of the same
///   episodes give bit-identical numbers;
/// - the value is ReplayResult::computeValue() (mean over scorable worlds, none
///   on any error) — and none as well when some replay world of the project has
///   no stored result for the version: a value over fewer worlds than the
///   project has would not be the project's value. `coversAll` says so.
namespace ProjectScores {

/// The stored form of one replayed episode: its key (version, world, β, W,
/// λ, K and the grid restriction the policy's plan applied) and its outcome.
ReplayResultRecord recordOf(const EpisodeResult &episode, PolicyVersionId version, IterationId world, int workers,
                            double lambda, std::optional<int> maxRounds);

/// The records to store for a result computed over `worlds` (sweeps are
/// matched by world name; worlds without a project iteration are skipped).
QList<ReplayResultRecord> recordsFor(const ReplayResult &result, PolicyVersionId version,
                                     const QList<ProjectWorld> &worlds);

/// Per-version results over `worlds` rebuilt from stored records. Records of
/// other iterations are ignored; when a version has results under several
/// parameter sets (W, λ, K, grid), the set of its newest record wins.
/// Versions without any record in `worlds` are absent.
QHash<PolicyVersionId, ReplayResultPtr> resultsFromRecords(const QList<ReplayResultRecord> &records,
                                                           const QList<ProjectWorld> &worlds);

/// True when `result` has a sweep for every world of `worlds`.
bool coversAll(const ReplayResult &result, const QList<ProjectWorld> &worlds);

} // namespace ProjectScores
} // namespace dreamrsi
