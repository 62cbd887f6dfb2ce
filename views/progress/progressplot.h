#pragma once

#include "figures/figuretable.h"
#include "project/projectprogress.h"

#include <QList>

class QCustomPlot;

namespace dreamrsi {

/// Draws the Progress figure (docs/online.md#the-recursive-loop; the paper's Figures 3 and 4b):
/// best score against cumulative agent calls, one stepped curve per run, a
/// marker where each iteration ends and a labelled dotted line where each
/// iteration starts. The same code serves the workbench's Progress tab and
/// `dreamrsi plot progress`, so what is exported is what is seen.
namespace ProgressPlot {

/// Whether the curves are of more than one task: their scores are on
/// scales of their own, so the figure plots each task's attainment (best so
/// far over the task's best, clipped to [0, 1]) instead of raw scores.
bool mixesTasks(const QList<ProgressCurve> &curves);
/// A curve's best-so-far as attainment: over `taskBest` when it is
/// positive, else over the curve's own range (first best to final best).
double attainment(double best, double taskBest, double first);
/// Replaces the plot's contents. Returns the number of curves with a score.
/// Iterations are labelled by their index in the run, or by their
/// iteration number when the curves mix tasks (each task's run counts from
/// 1, so indices would repeat).
int populate(QCustomPlot *plot, const QList<ProgressCurve> &curves, bool dark);
/// One row per run: iterations, calls, final best and the calls it took.
FigureTable table(const QList<ProgressCurve> &curves);

} // namespace ProgressPlot
} // namespace dreamrsi
