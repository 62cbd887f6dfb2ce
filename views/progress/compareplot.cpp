#include "compareplot.h"

#include "figures/figurelayout.h"
#include "figures/plotstyle.h"
#include "figures/qcp.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>

namespace dreamrsi {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("dreamrsi::ComparePlot", text);
}

QString comparedNumber(double v)
{
    return QString::number(v, 'g', 6);
}

/// The extent of the plot's data, grown as graphs are added.
struct Extent
{
    double xMax = 0.0;
    double yMin = std::numeric_limits<double>::infinity();
    double yMax = -std::numeric_limits<double>::infinity();
    void add(double x, double y)
    {
        xMax = std::max(xMax, x);
        yMin = std::min(yMin, y);
        yMax = std::max(yMax, y);
    }
};

QCPGraph *stepGraph(QCustomPlot *plot, const QPen &pen)
{
    auto *g = plot->addGraph();
    g->setLineStyle(QCPGraph::lsStepLeft);
    g->setPen(pen);
    return g;
}

QString axisLabel(const CompareResult &result)
{
    // A population snapshot is drawn by the iteration its programs were found.
    if (result.axis == CompareAxis::Calls && result.onlyIterationCurves())
        return tr("Iteration found (population snapshot)");
    if (result.axis == CompareAxis::Calls && result.hasIterationCurves())
        return tr("Cumulative agent calls; iteration found for a snapshot");
    switch (result.axis) {
    case CompareAxis::Usd:
        return tr("Cumulative agent cost (USD)");
    case CompareAxis::Seconds:
        return tr("Elapsed time (s)");
    case CompareAxis::Calls:
        break;
    }
    return tr("Cumulative agent calls");
}

QString axisShortLabel(const CompareResult &result)
{
    if (result.axis == CompareAxis::Calls && result.onlyIterationCurves())
        return tr("Iteration found");
    if (result.axis == CompareAxis::Calls && result.hasIterationCurves())
        return tr("Calls / iteration");
    switch (result.axis) {
    case CompareAxis::Usd:
        return tr("Cost (USD)");
    case CompareAxis::Seconds:
        return tr("Time (s)");
    case CompareAxis::Calls:
        break;
    }
    return tr("Agent calls");
}

} // namespace

QString ComparePlot::groupName(const CompareGroup &group)
{
    if (group.curves.size() > 1 && group.snapshots > 0)
        return tr("%1 (n = %2 seeds; population snapshots by iteration found: %3)")
            .arg(group.label)
            .arg(group.curves.size())
            .arg(group.snapshots);
    if (group.curves.size() > 1)
        return tr("%1 (n = %2 seeds)").arg(group.label).arg(group.curves.size());
    if (group.snapshots > 0)
        return tr("%1 (population snapshot, by iteration found)").arg(group.label);
    return group.label;
}

QString ComparePlot::leftOutName(const CompareLeftOut &left)
{
    switch (left.gap) {
    case CompareGap::Cost:
        return tr("%1: no cost recorded").arg(left.name);
    case CompareGap::Time:
        return tr("%1: no timestamps recorded").arg(left.name);
    case CompareGap::Snapshot:
        break;
    }
    return tr("%1: population snapshot, no iteration found").arg(left.name);
}

int ComparePlot::populate(QCustomPlot *plot, const CompareResult &result, bool dark)
{
    plot->clearPlottables();
    plot->clearItems();
    PlotStyle::applyTheme(plot, dark);
    plot->xAxis->setLabel(axisLabel(result));
    FigureLayout::setShortLabel(plot->xAxis, axisShortLabel(result));
    if (result.axis == CompareAxis::Calls)
        FigureLayout::setIntegerAxis(plot->xAxis);
    else if (FigureLayout::isIntegerAxis(plot->xAxis))
        plot->xAxis->setTicker(QSharedPointer<QCPAxisTicker>::create());
    plot->yAxis->setLabel(tr("Best score so far"));
    FigureLayout::setShortLabel(plot->yAxis, tr("Best score"));
    plot->legend->setVisible(true);
    plot->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignBottom | Qt::AlignRight);

    Extent extent;
    int drawn = 0;
    static const Qt::PenStyle edges[] = {Qt::SolidLine, Qt::DashLine, Qt::DotLine, Qt::DashDotLine};
    for (qsizetype g = 0; g < result.groups.size(); ++g) {
        const CompareGroup &group = result.groups.at(g);
        if (group.curves.isEmpty())
            continue;
        const QColor color = PlotStyle::seriesColor(int(g));
        if (group.curves.size() == 1) {
            // One seed: its own curve, from its first score on.
            const CompareCurve &curve = result.curves.at(group.curves.first());
            QCPGraph *line = stepGraph(plot, QPen(color, 2.0));
            for (const ComparePoint &p : curve.points) {
                if (p.best) {
                    line->addData(p.x, *p.best);
                    extent.add(p.x, *p.best);
                }
            }
            line->setName(groupName(group));
            FigureLayout::setShortName(line, group.snapshots > 0 ? tr("%1 (snapshot)").arg(group.label) : group.label);
        } else {
            // Seeds: the band under the mean, both edges outlined so
            // overlapping bands stay readable without colour.
            QCPGraph *low = stepGraph(plot, QPen(color, 1.0, edges[g % qsizetype(std::size(edges))]));
            QCPGraph *high = stepGraph(plot, QPen(color, 1.0, edges[g % qsizetype(std::size(edges))]));
            QCPGraph *mean = stepGraph(plot, QPen(color, 2.0));
            for (const CompareBandPoint &p : group.band) {
                mean->addData(p.x, p.mean);
                low->addData(p.x, p.lo.value_or(p.mean));
                high->addData(p.x, p.hi.value_or(p.mean));
                extent.add(p.x, p.lo.value_or(p.mean));
                extent.add(p.x, p.hi.value_or(p.mean));
            }
            QColor fill = color;
            fill.setAlpha(40);
            high->setBrush(fill);
            high->setChannelFillGraph(low);
            low->removeFromLegend();
            high->removeFromLegend();
            mean->setName(groupName(group));
            FigureLayout::setShortName(mean, groupName(group));
        }
        ++drawn;
    }
    // What the axis leaves out is said in the legend, never drawn as zero.
    for (const CompareGroup &group : result.groups) {
        for (const CompareLeftOut &left : group.unrecorded) {
            QCPGraph *note = plot->addGraph();
            note->setPen(Qt::NoPen);
            note->setName(leftOutName(left));
        }
    }
    if (std::isfinite(extent.yMin)) {
        // A flat set of scores still gets a readable span around them (not ±1e-9, every tick the same comparedNumber).
        const double span = extent.yMax - extent.yMin;
        const double pad = span > 1e-9 * std::max(1.0, std::abs(extent.yMax)) ? span * 0.06
                                                                             : std::max(0.05 * std::abs(extent.yMax), 0.05);
        plot->yAxis->setRange(extent.yMin - pad, extent.yMax + pad);
        // An axis whose curves never left 0 (a cost under a cent, say) still spans something readable.
        const double least = result.axis == CompareAxis::Calls ? 1.0 : result.axis == CompareAxis::Usd ? 0.01 : 1.0;
        plot->xAxis->setRange(0.0, std::max(extent.xMax, least) * 1.03);
    } else {
        plot->yAxis->setRange(0.0, 1.0);
        plot->xAxis->setRange(0.0, 1.0);
    }
    PlotStyle::keepLegendClear(plot);
    plot->replot();
    return drawn;
}

FigureTable ComparePlot::table(const CompareResult &result)
{
    FigureTable t;
    t.header = {tr("Label"), tr("Seeds"), tr("Final best"), tr("Up to"), tr("Sources")};
    for (const CompareGroup &group : result.groups) {
        QStringList names;
        for (const int c : group.curves) {
            const CompareCurve &curve = result.curves.at(c);
            names.append(curve.snapshot ? tr("%1 (population snapshot: %2 survivors of iterations 0-%3, by iteration found)")
                                              .arg(curve.name)
                                              .arg(curve.snapshot->programs)
                                              .arg(curve.snapshot->lastIteration)
                                        : curve.name);
        }
        for (const CompareLeftOut &left : group.unrecorded)
            names.append(tr("%1 (not drawn)").arg(left.name));
        QString best = QStringLiteral("–");
        QString upTo = QStringLiteral("–");
        if (group.curves.size() == 1) {
            const CompareCurve &curve = result.curves.at(group.curves.first());
            if (curve.best)
                best = comparedNumber(*curve.best);
            if (!curve.points.isEmpty())
                upTo = comparedNumber(curve.points.last().x);
        } else if (!group.band.isEmpty()) {
            const CompareBandPoint &p = group.band.last();
            best = comparedNumber(p.mean) + (p.hi ? QStringLiteral(" ± ") + comparedNumber(*p.hi - p.mean) : QString());
            upTo = comparedNumber(p.x);
        }
        t.rows.append({group.label, QString::number(group.curves.size()), best, upTo, names.join(QStringLiteral(", "))});
    }
    return t;
}

FigureTable ComparePlot::data(const CompareResult &result)
{
    FigureTable t;
    t.header = CompareCurves::csvHeader();
    t.rows = CompareCurves::csvRows(result);
    return t;
}

} // namespace dreamrsi
