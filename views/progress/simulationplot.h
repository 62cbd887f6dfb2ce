#pragma once

#include "figures/figuretable.h"
#include "project/projectsimulations.h"

class QCustomPlot;

namespace dreamrsi {

/// Draws a counterfactual loop's result (docs/online.md, "The counterfactual
/// loop"): for each arm, the mean over the repeats against the iteration of
/// the attainment (top) and of the cumulative agent calls (bottom), each
/// with its 95 % interval shaded, cut to the quantity's range (attainment
/// within 0–1, calls not below 0), with outlined edges so overlapping bands
/// both stay readable. The same code serves the Progress tab and
/// `dreamrsi plot progress --simulation`.
namespace SimulationPlot {

/// Replaces the plot's contents (it gets two axis rects, stacked). Returns
/// the number of arms drawn.
int populate(QCustomPlot *plot, const SimulationCurves &curves, bool dark);
/// One row per arm: repeats, calls per iteration, attainment (mean ± 95 %),
/// total calls, and with a fixed arm the calls to reach its final best.
FigureTable table(const SimulationCurves &curves);
/// The numbers behind the figure: one row per arm and iteration.
FigureTable data(const SimulationCurves &curves);
/// The arm's name for a legend ("Dream-RSI", "Fixed exploration", …).
QString armLabel(const QString &arm);

} // namespace SimulationPlot
} // namespace dreamrsi
