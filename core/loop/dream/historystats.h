#pragma once

// What a history of discovery trees teaches a policy developer: which
// directions paid (per `direction:<name>` tag) and where along a branch, and
// in the order of creation, gains arrived. Both the built-in improver (which
// writes direction priorities and stopping floors into a script) and the
// policy-development prompt read it.
//
// Units. A cell's attainment is its effective score over its world's best
// effective score S (worlds with S = 0 add calls and successes but no
// attainment or gain). A cell's gain is how far its effective score rises
// above the best its branch had before it (the world's baseline, or 0, for
// attempt 0), over S; so a branch's gains add up to its best attainment
// minus the baseline's.
//
// The history holds only what earlier policies revealed: a direction they
// never opened is absent, and gains beyond the point where they stopped are
// unseen. The floors below are therefore lower bounds of what the history
// shows, never evidence that later gains do not exist.

#include "model/discoverytree.h"

#include <QList>
#include <QString>

#include <optional>

namespace dreamrsi {

/// One direction's record over the history.
struct DirectionStats
{
    QString name;                    ///< the NAME of `direction:NAME`; empty for untagged branches
    int worlds = 0;                  ///< worlds with a branch of this direction
    int branches = 0;
    int calls = 0;                   ///< cells (each stood for one agent call)
    int successes = 0;               ///< cells that evaluated cleanly (Cell::isSuccess)
    std::optional<double> best;      ///< best finite score of a successful cell
    double meanAttainment = 0.0;     ///< mean over its branches (in scorable worlds) of the branch's best attainment
    double bestAttainment = 0.0;     ///< the best of them
    double gain = 0.0;               ///< sum of its cells' gains (attainment units)
    int deepestGain = -1;            ///< deepest attempt at which one of its branches gained; -1 when none did
    /// Most successful, non-improving attempts in a row one of its branches
    /// went through before its best rose again (HistoryStats::longestStallBeforeGain, per direction).
    int longestStallBeforeGain = 0;
    /// Shrunk mean branch attainment (see shrunkMean): what a new
    /// branch of this direction is expected to reach; the improver opens
    /// roots in decreasing priority.
    double priority = 0.0;

    double gainPerCall() const { return calls > 0 ? gain / calls : 0.0; }
};

/// Statistics of a list of discovery trees (the history of a dream).
struct HistoryStats
{
    int worlds = 0;                  ///< trees given
    int scorableWorlds = 0;          ///< trees with S > 0
    int cells = 0;
    int branches = 0;
    /// Per direction, highest priority first (ties: name ascending).
    QList<DirectionStats> directions;
    /// Priority a direction the history never tried gets: the mean branch
    /// attainment over all branches. Unseen is not the same as bad.
    double unseenPriority = 0.0;
    /// Per attempt index a: branches that reached attempt a, and the gain
    /// cells at attempt a brought in all (attainment units).
    QList<int> branchesAtAttempt;
    QList<double> gainAtAttempt;
    /// Per attempt index a: the cells that show what a successful attempt a
    /// scores (a successful cell with a finite score; for a ≥ 1 only on a
    /// branch that had one before it, i.e. a gain over the branch's best, which
    /// may be negative or zero). The evidence a world model has at that depth.
    QList<int> evidenceAtAttempt;
    /// The deepest attempt the history's grids allow (the largest recorded
    /// `grid.refinements`; without grids, the deepest attempt revealed).
    int deepestGridAttempt = 0;
    /// Branches whose last revealed attempt raised the branch's best: they
    /// were still improving when the history stopped them.
    int stoppedWhileImproving = 0;
    /// Most successful, non-improving attempts in a row (the portfolio's
    /// stall count: a success that does not beat the branch's best successful
    /// score) that a branch went through before its best rose again; 0 when
    /// no branch ever improved after a stall.
    int longestStallBeforeGain = 0;
    /// Most cells in a row, in creation order (seq) within one world, that
    /// did not raise the world's best successful score before one did (the
    /// cells before the first success count too); 0 when every gain came at
    /// once.
    int longestDroughtBeforeGain = 0;

    bool isEmpty() const { return cells == 0; }
    /// Stall count a branch must be allowed so that no gain the history
    /// shows after a stall is cut off: longestStallBeforeGain + 1.
    int stallFloor() const { return longestStallBeforeGain + 1; }
    /// stallFloor() of one direction's branches.
    static int stallFloorOf(const DirectionStats &d) { return d.longestStallBeforeGain + 1; }

    /// Reveals without a new best a stopping rule must allow so that no gain
    /// the history shows after a drought is cut off: longestDroughtBeforeGain + 1.
    int patienceFloor() const { return longestDroughtBeforeGain + 1; }
    /// Share of all gain that arrived at attempts ≥ 2 (refinements after the first).
    double lateGainShare() const;
    /// The direction named `name`, or null.
    const DirectionStats *direction(const QString &name) const;

    /// A Markdown summary: a table per direction (worlds, branches, calls,
    /// successes, best, mean and best attainment, gain per call, deepest
    /// gain, priority), then where gains arrive along branches and the floors.
    QString markdown() const;
};

/// The statistics of `trees` (null entries are skipped). A branch's
/// direction is the first `direction:` tag of its attempt 0, else of its
/// first later cell that has one, else untagged. Deterministic: the same
/// trees in the same order give the same numbers.
HistoryStats computeHistoryStats(const QList<const DiscoveryTree *> &trees);

/// Empirical-Bayes shrinkage used for priorities: (sum + k·prior) / (n + k)
/// with k = 1, so a direction seen on one branch moves only halfway from the
/// mean towards what that branch showed.
double shrunkMean(double sum, int count, double prior);

} // namespace dreamrsi
