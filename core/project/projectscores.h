#pragma once

#include "projectworld.h"

#include "replay/episoderesult.h"
#include "replay/replayoptions.h"
#include "replay/replayresult.h"
#include "store/storetypes.h"

#include <QHash>
#include <QList>

namespace dreamrsi {

/// A version's result under a configuration other than the project's.
struct ConfiguredResult
{
    PolicyVersionId version = 0;
    ReplayConfig config;    ///< its W, λ, K and the β its episodes used
    ReplayResultPtr result; ///< value computed over its own configuration
};

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
/// `completions` > 0: the episode was replayed in completion `completion` of C of the world.
ReplayResultRecord recordOf(const EpisodeResult &episode, PolicyVersionId version, IterationId world, int workers,
                            double lambda, std::optional<int> maxRounds, int completions = 0, int completion = 0);

/// The records of a result over the completions of `history` as
/// Imagination::completeAll() orders them (world-major, `completions` each).
QList<ReplayResultRecord> recordsForCompletions(const ReplayResult &result, PolicyVersionId version,
                                                const QList<IterationId> &history, int completions);

/// The name results give completion k of a world (Imagination::completionName).
QString completionName(const QString &world, int completion);

/// The records to store for a result computed over `worlds` (sweeps are
/// matched by world name; worlds without a project iteration are skipped).
QList<ReplayResultRecord> recordsFor(const ReplayResult &result, PolicyVersionId version,
                                     const QList<ProjectWorld> &worlds);

/// Per-version results over `worlds` rebuilt from stored records, under the
/// project's replay configuration `config` only: episodes with its W, λ and
/// K and a β of its grid (other records are ignored here; otherResults()
/// lists them). A world that lacks an episode for some β of the grid counts
/// as not covered. When a version has episodes under several grid
/// restrictions, the restriction of its newest record wins. Versions without
/// any record under `config` in `worlds` are absent.
QHash<PolicyVersionId, ReplayResultPtr> resultsFromRecords(const QList<ReplayResultRecord> &records,
                                                           const QList<ProjectWorld> &worlds, const ReplayConfig &config);

/// The stored results computed under other configurations than `config`
/// (another W, λ or K), one per version and configuration, ordered by
/// version, then W, λ, K. They are kept and shown with their own label; their
/// values are never averaged or compared with the project configuration's.
QList<ConfiguredResult> otherResults(const QList<ReplayResultRecord> &records, const QList<ProjectWorld> &worlds,
                                     const ReplayConfig &config);

/// The versions whose stored values are stale under `config`: they have
/// stored results, but not for every replay world and every β of `config`
/// with its W, λ and K (they were computed under another configuration, or
/// before a world was added). Ordered by id.
QList<PolicyVersionId> staleVersions(const QList<ReplayResultRecord> &records, const QList<ProjectWorld> &worlds,
                                     const ReplayConfig &config);

/// The replay options of a configuration (the rest of `base` is kept).
ReplayOptions optionsFor(const ReplayConfig &config, ReplayOptions base = {});
/// The configuration a result was computed under.
ReplayConfig configOf(const ReplayResult &result);

/// True when `result` has a sweep for every world of `worlds`.
bool coversAll(const ReplayResult &result, const QList<ProjectWorld> &worlds);

} // namespace ProjectScores
} // namespace dreamrsi
