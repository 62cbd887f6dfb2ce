#pragma once

#include <QList>
#include <QString>

#include <optional>

namespace dreamrsi {

/// A grid plan (docs/policy-api.md#plangrid): the round may open branches 0..branches-1,
/// each with attempts 0..refinements. In replay, "branches" counts the
/// world's branch ids in ascending order.
struct GridPlan
{
    int branches = 0;
    int refinements = 0;
    QString reason;

    friend bool operator==(const GridPlan &, const GridPlan &) = default;
};

/// One earlier live round, as shown to planGrid in `context.history`.
struct GridHistoryEntry
{
    qint64 iteration = 0;
    int plannedBranches = 0;
    int plannedRefinements = 0;
    int openedBranches = 0;   ///< width actually opened
    int depth = 0;            ///< deepest attempt count reached
    int probes = 0;           ///< agent calls
    int rounds = 0;
    std::optional<double> bestScore;
    double beta = 0.0;
};

/// The argument of planGrid (docs/policy-api.md#plangrid).
struct GridContext
{
    QList<GridHistoryEntry> history;
    int hardMaxBranches = 64;
    int hardMaxRefinements = 64;
    GridPlan fallback{10, 10, QString()};
    int maxWorkers = 10;
    /// In replay only: the world's recorded width (branch count) and depth
    /// (largest attempt index), from its `grid` when present, else measured.
    std::optional<int> recordedBranches;
    std::optional<int> recordedRefinements;
};

} // namespace dreamrsi
