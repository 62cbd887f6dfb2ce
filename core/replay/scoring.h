#pragma once

#include "sweepresult.h"

#include <QList>

namespace dreamrsi {

/// The formulas of docs/replay.md#scoring, computed in double in the order written.
namespace Scoring {

/// The distinct non-dominated (n, a) points, sorted by n ascending.
QList<ParetoPoint> paretoFrontier(const QList<ParetoPoint> &points);
/// (1/B) · Σ_j (ā_j − ā_{j−1}) · (B − n̄_j), ā_0 = 0, over paretoFrontier(points).
double hypervolume(const QList<ParetoPoint> &points, int cellCount);
/// (1/|grid|) · Σ_{β : n_β > 0} k*_β / n_β; `calls` and `rounds` in grid order.
double penalty(const QList<int> &calls, const QList<int> &rounds, int gridSize);
/// hypervolume − λ · penalty.
double value(double hypervolume, double penalty, double lambda);
/// a = min(max(best / S, 0), 1) (docs/replay.md#the-result-of-an-episode); 0 when S is not positive.
double attainment(double best, double S);

} // namespace Scoring
} // namespace dreamrsi
