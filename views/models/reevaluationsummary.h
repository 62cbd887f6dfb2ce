#pragma once

#include "model/discoverytree.h"
#include "project/reevaluationstats.h"

#include <QCoreApplication>
#include <QList>
#include <QString>

namespace dreamrsi {

/// What the workbench says of an iteration's re-evaluated cells
/// (docs/online.md#re-evaluating-the-best), in the user's language: the
/// Cells tab's line naming the best by recorded score and the best by mean
/// when they differ, and Frontiers' note on a world whose best cell (its S,
/// against which attainments are measured) was re-evaluated.
class ReevaluationSummary final
{
    Q_DECLARE_TR_FUNCTIONS(ReevaluationSummary)
public:
    /// "0.81 ± 0.04" (the mean and the interval's half-width), "0.81" without an interval, "—" without a mean.
    static QString meanText(const ReevaluationStats &stats);
    /// A spread of the repeats (the interval's half-width, the sd) as shown
    /// beside their mean, with `precision` significant digits: "0" when it
    /// is below the scores' precision (under 1e-12 of the mean's magnitude),
    /// as a deterministic evaluator's repeats give, whose only spread is
    /// rounding ("± 4.44e-16").
    static QString spreadText(double mean, double spread, int precision);
    /// Whether `spread` is below the scores' precision (spreadText() says "0").
    static bool negligibleSpread(double mean, double spread);
    /// "Best by recorded score: b2a1 (recorded 0.93, mean 0.81 ± 0.04, lucky) · best by mean: b1a3 (…)",
    /// or one cell named for both; empty without re-evaluated cells.
    static QString best(const QList<ReevaluationStats> &stats);
    /// `world`'s line for Frontiers: its best cell lucky or holding up under
    /// its repeats, and the best by mean when another; empty when the best
    /// cell was not re-evaluated and no other cell has a better mean.
    static QString frontierNote(const QString &world, const DiscoveryTree &tree, const QList<ReevaluationStats> &stats);
};

} // namespace dreamrsi
