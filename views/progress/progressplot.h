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

/// Replaces the plot's contents. Returns the number of curves with a score.
int populate(QCustomPlot *plot, const QList<ProgressCurve> &curves, bool dark);
/// One row per run: iterations, calls, final best and the calls it took.
FigureTable table(const QList<ProgressCurve> &curves);

} // namespace ProgressPlot
} // namespace dreamrsi
