#pragma once

#include "figures/figuretable.h"
#include "project/comparecurves.h"

class QCustomPlot;

namespace dreamrsi {

/// Draws a comparison of runs (docs/compare.md): best score so far against
/// calls, cost or time, one stepped curve per label; a label with several
/// seeds as their mean with the Student-t 95 % band shaded (both edges
/// outlined), "n = k seeds" in the legend. A source that did not record the
/// axis is named in the legend as not drawn. The same code serves the
/// Compare tab and `dreamrsi plot compare`, so what is exported is what is seen.
namespace ComparePlot {

/// Replaces the plot's contents. Returns the number of labels drawn.
int populate(QCustomPlot *plot, const CompareResult &result, bool dark);
/// The legend name of a group: its label, with the seeds when more than
/// one, and "(population snapshot, by iteration found)" for a snapshot.
QString groupName(const CompareGroup &group);
/// The legend's line for a source the axis leaves out, saying why.
QString leftOutName(const CompareLeftOut &left);
/// One row per label: seeds, the final best (mean ± half-width of the band
/// at its last x), the axis's extent and the sources.
FigureTable table(const CompareResult &result);
/// The numbers behind the figure (CompareCurves::csvRows).
FigureTable data(const CompareResult &result);

} // namespace ComparePlot
} // namespace dreamrsi
