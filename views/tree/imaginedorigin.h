#pragma once

#include "model/discoverytree.h"

#include <QCoreApplication>
#include <QJsonObject>
#include <QString>

namespace dreamrsi {

/// Where a drawn completion came from (docs/online.md#valuation): the fitted
/// model (WorldModel::toJson), the dream's seed, the world's place j in the
/// history and the completion k.
struct ImaginedDraw
{
    QJsonObject model;
    quint64 seed = 0;
    int world = -1;
    int completion = 0;
};

/// What the inspector says about an imagined cell of a completion.
class ImaginedOrigin
{
    Q_DECLARE_TR_FUNCTIONS(ImaginedOrigin)
public:
    /// The stratum an imagined cell's value was drawn from: the branch's
    /// `direction:` tag when the model has at least its minimum of values
    /// there — first scores, or gains at depth `attempt` when `gain` — else
    /// the pooled stratum "*".
    static QString stratumOf(const QJsonObject &model, const QString &branchTag, int attempt, bool gain);
    /// True when the imagined cell at `cellIndex` of `completion` draws a gain
    /// (its branch has an ok score at a shallower depth), false when it draws
    /// a first score.
    static bool drawsGain(const DiscoveryTree &completion, int cellIndex);
    /// "drawn from the world model: a gain over the branch's best at depth 3,
    /// stratum direction:d2; seed 0, world j = 1, completion k = 2"; empty
    /// for a revealed cell.
    static QString describe(const DiscoveryTree &completion, int cellIndex, const ImaginedDraw &draw);
};

} // namespace dreamrsi
