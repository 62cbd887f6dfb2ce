#pragma once

#include "model/discoverytree.h"
#include "replay/replayworld.h"
#include "replay/worldmodel.h"
#include "models/workspace.h"

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <memory>

namespace dreamrsi {

/// What the workbench shows of imagined valuation (docs/online.md#valuation):
/// the world model fitted over the project's replay worlds exactly as a dream
/// fits it, and one completion of one history world. Pure and thread-safe:
/// the pages call these on a worker.
namespace ImaginedWorlds {

/// The project's replay worlds among the workspace's (finished iterations
/// with a tree, in the workspace's order, approximate ones only when
/// `includeApproximate`: ValuationWorlds::historyOf, the rule every
/// valuation chooses its history by): the history a dream fits its model
/// on, and the workspace row of each.
struct History
{
    QList<ReplayWorld> worlds;
    QList<int> rows;
    int approximateLeftOut = 0; ///< approximate worlds left out
    /// The place j of workspace row `row` in the history, -1 when it is not a history world.
    int placeOf(int row) const { return int(rows.indexOf(row)); }
};
History historyOf(const QList<WorldEntry> &worlds, bool includeApproximate);

/// The models a dream over `history` fits: one per task, each with its
/// task's directions (ValuationWorlds::modelsOf; the same for every seed).
WorldModels fitAll(const QList<ReplayWorld> &history);

/// The model of the newest history world's task (what the World Model page
/// shows); an empty model without history worlds.
WorldModel fit(const QList<ReplayWorld> &history);

/// Completion k of history world j (its place in `history`) for seed `seed`:
/// the completion Imagination::completeAll() draws at index j·C + k.
struct Completion
{
    std::shared_ptr<const DiscoveryTree> tree; ///< null on failure
    QJsonObject model;                         ///< the model of the world's task (WorldModel::toJson)
    QStringList directions;                    ///< the directions the model was fitted with
    int world = -1;                            ///< j
    int completion = 0;                        ///< k
    quint64 seed = 0;
    int imagined = 0;                          ///< imagined cells in `tree`
    QString error;                             ///< why there is no tree
};
Completion draw(const QList<ReplayWorld> &history, int world, quint64 seed, int completion);

} // namespace ImaginedWorlds
} // namespace dreamrsi
