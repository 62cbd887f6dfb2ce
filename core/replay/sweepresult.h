#pragma once

#include "episoderesult.h"

#include <QList>
#include <QString>

#include <cmath>

#include <optional>

namespace dreamrsi {

/// A (calls, attainment) point of the quality–cost frontier.
struct ParetoPoint
{
    int calls = 0;
    double attainment = 0.0;
    friend bool operator==(const ParetoPoint &, const ParetoPoint &) = default;
};

/// One policy over one world across the β grid (docs/replay.md#scoring).
///
/// `hypervolume` is empty when the world is not scorable (S = 0); `value`
/// also when an episode ended in a policy error (docs/replay.md#scoring: the world's
/// value is null), while frontier, hypervolume and penalty of the points the
/// episodes reached are still reported.
struct SweepResult
{
    QString world;                 ///< the world's name (its file path in the CLI)
    int cells = 0;                 ///< B
    double best = 0.0;             ///< S
    bool scorable = false;         ///< S > 0
    double lambda = 0.1;
    QList<EpisodeResult> episodes; ///< one per β, in grid order
    QList<ParetoPoint> frontier;   ///< distinct non-dominated points, calls ascending
    std::optional<double> hypervolume;
    std::optional<double> penalty;
    std::optional<double> value;
    QString error;                 ///< first episode error, or a world-level problem
    /// Replayed over an approximate world (docs/tree-format.md#imported-runs):
    /// written as "approximate": true, and labelled wherever it is shown.
    bool approximate = false;

    bool ok() const { return error.isEmpty(); }
    /// The episode at the β grid's point nearest `beta` (the first of two
    /// as near); null when the sweep has none.
    const EpisodeResult *episodeNearest(double beta) const
    {
        const EpisodeResult *nearest = nullptr;
        for (const EpisodeResult &e : episodes) {
            if (!nearest || std::abs(e.beta - beta) < std::abs(nearest->beta - beta))
                nearest = &e;
        }
        return nearest;
    }
};

} // namespace dreamrsi
