#pragma once

#include "failglyph.h"

#include <QColor>
#include <QList>
#include <QMap>
#include <QString>

#include <utility>

namespace dreamrsi {

class DiscoveryTree;

/// What the tree's painter derives from the cells once per tree: the range
/// of the colour scale, every cell's fill, failure glyph and origin, the
/// legend's counts and an imported run's genealogy. A pure function of the
/// tree, so that a live round computes it on the worker that builds the tree
/// and the GUI thread only takes the result (a tree of 50,000 cells costs
/// tens of milliseconds to derive: payload lookups, colours).
struct TreeCellStyles
{
    bool hasScores = false;
    double scoreMin = 0.0; ///< the colour scale's range over finite scores (0..1 without any)
    double scoreMax = 1.0;
    QList<QColor> fills;   ///< per cell: its score's colour, invalid without a finite score
    QList<QRgb> fillRgb;   ///< the same as ARGB values
    QList<FailGlyph> glyphs;
    QMap<QString, int> failCounts; ///< revealed cells per fail class (the legend's rows)
    QList<bool> imagined;          ///< per cell: drawn from the world model
    int imaginedCount = 0;
    QList<bool> probe;             ///< per cell: a probe call (docs/online.md#probes)
    int probeCount = 0;
    /// Imagined cells drawn as failures: the model draws no class for them,
    /// so they carry FailGlyph::Dot and are counted here, not in failCounts.
    int imaginedFailures = 0;
    /// The best revealed cell (bestRevealedCell()), -1 when none scores
    /// above 0: the best-cell mark never lands on an imagined cell.
    int best = -1;
    /// An imported run (docs/tree-format.md#imported-runs): (fork, real
    /// parent) cell indices, and the orphans' indices.
    QList<std::pair<int, int>> forkLinks;
    QList<int> orphans;

    /// The colour of `score` on the scale [scoreMin, scoreMax] (viridis).
    QColor colorFor(double score) const;
    static TreeCellStyles of(const DiscoveryTree &tree);
    /// The tree's best cell among its revealed ones (DiscoveryTree's rule:
    /// the first highest effective score above 0), -1 when there is none.
    /// The same as bestCellIndex() for a tree without imagined cells.
    static int bestRevealedCell(const DiscoveryTree &tree);
};

} // namespace dreamrsi
