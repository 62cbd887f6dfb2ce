#pragma once

#include "figuretable.h"
#include "replay/episoderesult.h"
#include "replay/replayresult.h"
#include "model/discoverytree.h"
#include "project/reevaluationstats.h"

#include <QColor>
#include <QList>
#include <QPointF>
#include <QString>

class QCustomPlot;
class QCPRange;
class QCPScatterStyle;
class QPen;

namespace dreamrsi {

/// One policy version's result drawn on the frontier plot.
struct FrontierSeries
{
    QString name;
    ReplayResultPtr result;
};

/// A re-evaluated cell on an anytime curve (docs/online.md#re-evaluating-the-best):
/// at the call whose reveal made it the best so far, the mean of its repeats
/// and their 95 % interval, divided by the world's S like the curve.
struct AnytimeInterval
{
    QString cellId;
    int calls = 0;
    double mean = 0.0, low = 0.0, high = 0.0;
    bool lucky = false; ///< its recorded score (the curve's step) lies above the interval
};

/// One anytime curve (best-so-far attainment against calls) of the stepper.
struct AnytimeSeries
{
    QString name;
    QList<CurvePoint> curve;
    int shownCalls = -1; ///< calls revealed at the stepper's position, -1 for the whole curve
    QList<AnytimeInterval> intervals = {}; ///< drawn as error bars; empty for a world without re-evaluations
};

/// Fills QCustomPlots with the workbench's figures, identically for the
/// GUI and for `dreamrsi plot`, so that what is exported is what is seen.
namespace PlotStyle {

/// Series colours: Okabe–Ito (distinguishable with every common colour-vision
/// deficiency) without black, then hues a golden angle apart; never a
/// repeat, never black, however many series there are.
QColor seriesColor(int index);
/// WCAG contrast ratio of `color` against white paper (1 to 21).
double contrastOnWhite(const QColor &color);
/// seriesColor(index) as a line: solid, then dashed, dash-dotted, dotted…,
/// so series drawn over one another still show each colour.
QPen seriesPen(int index, double width);
/// Point markers of series `index`: circle, square, triangle, diamond…,
/// filled with its colour or with `paper` (hollow).
QCPScatterStyle seriesMarker(int index, bool filled, const QColor &paper, double size);
/// Moves an on-screen legend that lies inside the plot to the corner of the
/// data area where it covers the fewest points of the drawn lines, now and
/// after every re-layout (a resize, new data). A legend outside the data
/// area (a figure's band, the Frontiers tab) is left where it is.
void keepLegendClear(QCustomPlot *plot);
/// Paper (light) or screen-dark axes, grid and legend.
void applyTheme(QCustomPlot *plot, bool dark);

/// The attainment axis of a frontier plot: fitted to the points drawn, or the whole 0–1.
enum class AttainmentAxis { Fitted, Full };

/// Frontier plot for one world (by name) or, when `world` is empty, the mean
/// over the worlds each result holds (calls then as a fraction of B). Each
/// version's dominated region is shaded with a light tint of its colour,
/// the largest behind, so every version's shading shows where it reaches
/// beyond the others. Returns the number of series that had data.
int populateFrontier(QCustomPlot *plot, const QList<FrontierSeries> &series, const QString &world, bool dark,
                     AttainmentAxis axis = AttainmentAxis::Fitted);
/// The attainment range a fitted frontier axis shows for points whose
/// attainments run from `low` to `high`: a margin around them, within 0–1.05.
QCPRange fittedAttainmentRange(double low, double high);
/// Anytime curves of the stepper's episodes.
/// Full (the default: figures) draws attainment 0–1.05; Fitted fits the
/// curves' attainments (the Replay tab), the climb from 0 leaving below.
void populateAnytime(QCustomPlot *plot, const QList<AnytimeSeries> &series, int cellCount, bool dark,
                     AttainmentAxis axis = AttainmentAxis::Full);
/// The intervals of an episode's curve in `world`: each re-evaluated cell
/// of `stats` with an interval whose reveal made it the best so far (the
/// engine's rule: the first reveal, or a higher effective score).
QList<AnytimeInterval> anytimeIntervals(const EpisodeResult &episode, const DiscoveryTree &world,
                                        const QList<ReevaluationStats> &stats);

/// The numbers the on-screen frontier legend shows (value, hypervolume,
/// penalty per version), as the caption table of a figure with short labels.
FigureTable frontierTable(const QList<FrontierSeries> &series, const QString &world);
/// Final attainment of each anytime curve and the calls it took.
FigureTable anytimeTable(const QList<AnytimeSeries> &series);

/// Non-dominated staircase of (cost, attainment) points: distinct points
/// that no other point beats on both, sorted by cost.
QList<QPointF> staircase(const QList<QPointF> &points);

} // namespace PlotStyle
} // namespace dreamrsi
