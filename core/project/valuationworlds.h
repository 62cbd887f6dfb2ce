#pragma once

#include "projectworld.h"

#include "base/result.h"
#include "replay/replayresult.h"
#include "replay/replayworld.h"
#include "replay/worldmodel.h"
#include "store/storetypes.h"

#include <QList>

namespace dreamrsi {

/// Which worlds a version is valued over (docs/online.md#valuation), decided
/// once for every caller: `replay --project` and `plot` (ProjectReplay), the
/// dreamer, and the window's sweeps (views/session/sweeprunner). A caller
/// chooses the history (approximate worlds left out by historyOf() unless
/// asked for), the kind and, when imagined, the seed — a dream's imagineSeed,
/// a project replay's request seed, a sweep's 0 — and this set decides the
/// rest: what a replay runs in, C, which history world each replayed world
/// stands for, and the records a result over it becomes.
struct ValuationWorlds
{
    enum class Kind {
        Revealed, ///< the history worlds as the deployed policies revealed them
        Imagined, ///< C completions of each history world, world-major
        Oracle,   ///< the complete worlds behind the history (a counterfactual loop's dream)
    };

    Kind kind = Kind::Revealed;
    /// The history worlds valued over, in order: the iteration each stands
    /// for and the name records match results by.
    QList<ProjectWorld> history;
    /// What a replay runs in: the history as revealed; completion k of
    /// history world j at j·C + k, named "<name> · imagined k"
    /// (Imagination::completeAll); or the complete worlds under the history's names.
    QList<ReplayWorld> worlds;
    int completions = 0;  ///< C when imagined, else 0
    ImaginationRule rule = ImaginationRule::Capped; ///< imagined: the rule the completions were drawn under
    quint64 seed = 0;     ///< imagined: the seed the completions were drawn with
    WorldModels models;   ///< imagined: the models they were drawn from (one per task)

    /// The kind `config`'s valuation asks for.
    static Kind kindOf(const ReplayConfig &config)
    {
        return config.valuation == Valuation::Imagined ? Kind::Imagined : Kind::Revealed;
    }
    /// C of a valuation of `kind` under `config`: its completions (at least
    /// 1) when imagined, else 0 (ReplayConfig::completionsUnder, the rule
    /// that also keys stored results).
    static int completionsOf(const ReplayConfig &config, Kind kind)
    {
        return config.completionsUnder(kind == Kind::Imagined ? Valuation::Imagined : Valuation::Revealed);
    }
    /// C under `config`'s own valuation.
    static int completionsOf(const ReplayConfig &config) { return completionsOf(config, kindOf(config)); }

    /// True when a world with tree `meta` is valued over: approximate worlds
    /// (docs/tree-format.md#imported-runs) only when `includeApproximate`.
    static bool valuedOver(const TreeMeta &meta, bool includeApproximate)
    {
        return includeApproximate || !meta.approximate;
    }
    /// `worlds` without the approximate ones unless `includeApproximate`;
    /// `leftOut` (when given) receives how many were left out.
    static QList<ProjectWorld> historyOf(const QList<ProjectWorld> &worlds, bool includeApproximate,
                                         int *leftOut = nullptr);

    /// The history as revealed.
    static ValuationWorlds revealed(const QList<ProjectWorld> &history);
    /// C ≥ 1 completions of each history world drawn with `seed` on up to
    /// `threads` threads (0: as many as the machine has; the worlds do not
    /// depend on it) under `rule`. Fails when a history world holds no tree or C < 1.
    static Result<ValuationWorlds> imagined(const QList<ProjectWorld> &history, int completions, quint64 seed,
                                            int threads = 0, ImaginationRule rule = ImaginationRule::Capped);
    /// The complete worlds behind the history (one per history world, same
    /// order), named as the history worlds they stand behind.
    static Result<ValuationWorlds> oracle(const QList<ProjectWorld> &history, const QList<ReplayWorld> &complete);
    /// Revealed or imagined as `config` says (C = completionsOf(config)).
    static Result<ValuationWorlds> of(const ReplayConfig &config, const QList<ProjectWorld> &history, quint64 seed,
                                      int threads = 0);

    /// The models an imagined valuation draws from: one per task, each with
    /// its task's directions (Task::directionNamesOf), fitted by
    /// Imagination::fitModels as Imagination::imagine fits them.
    static WorldModels modelsOf(const QList<ReplayWorld> &history);
    /// Imagination::imagine() with the tasks' directions: what imagined()
    /// draws (default options), and what `dreamrsi imagine` writes (its own).
    static Result<ImaginedHistory> imagine(const QList<ReplayWorld> &history, quint64 seed, int count, int threads = 0,
                                           const ImaginationOptions &options = ImaginationOptions());

    /// Replayed worlds per history world: C when imagined, else 1.
    int perWorld() const { return completions > 0 ? completions : 1; }
    /// The place j in `history` of worlds[index].
    int historyIndexOf(qsizetype index) const { return int(index / perWorld()); }
    /// One replayed world per history world: the first of each (completion 0 when imagined).
    QList<ReplayWorld> firstOfEach() const;

    /// Marks the sweeps of `result` (a replay over `worlds`) over approximate
    /// history worlds; a result over other worlds is left as it is.
    void labelApproximate(ReplayResult &result) const;
    /// The records to store for `result`, a replay of `version` over these worlds.
    QList<ReplayResultRecord> recordsOf(const ReplayResult &result, PolicyVersionId version) const
    {
        return recordsFor(result, version, history);
    }
    /// An error record for every history world, completion and β of
    /// `config`: how a version that could not be replayed is stored.
    QList<ReplayResultRecord> errorRecords(PolicyVersionId version, const ReplayConfig &config,
                                           const QString &error) const;

    /// The records of `result` (its `completions` says whether its worlds
    /// were completions) over history worlds `history`: each sweep belongs to
    /// the history world it is named after — its own name, or
    /// "<name> · imagined k" for completion k — and is stored under that
    /// world's iteration (ProjectScores::recordOf); sweeps of no history
    /// world, and of worlds without an iteration (loose tree files), are skipped.
    static QList<ReplayResultRecord> recordsFor(const ReplayResult &result, PolicyVersionId version,
                                                const QList<ProjectWorld> &history);
};

} // namespace dreamrsi
