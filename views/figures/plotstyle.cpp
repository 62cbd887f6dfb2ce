#include "plotstyle.h"

#include "figurelayout.h"
#include "qcp.h"

#include <QCoreApplication>
#include <QHash>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

namespace dreamrsi {

namespace {

QString fmt(const std::optional<double> &v)
{
    return v ? QString::number(*v, 'f', 3) : QStringLiteral("—");
}

// Mean over the sweeps of a result's per-world numbers.
std::optional<double> meanOf(const ReplayResult &r, std::optional<double> SweepResult::*field)
{
    double sum = 0;
    int n = 0;
    for (const SweepResult &s : r.worlds) {
        if (s.*field) {
            sum += *(s.*field);
            ++n;
        }
    }
    return n ? std::optional<double>(sum / n) : std::nullopt;
}

struct FrontierNumbers
{
    std::optional<double> value, hypervolume, penalty;
};

// The numbers a frontier series' legend entry and caption table show; nullopt when it has no data there.
std::optional<FrontierNumbers> frontierNumbers(const FrontierSeries &s, const QString &world)
{
    if (!s.result)
        return std::nullopt;
    if (world.isEmpty())
        return FrontierNumbers{s.result->value, meanOf(*s.result, &SweepResult::hypervolume), meanOf(*s.result, &SweepResult::penalty)};
    const SweepResult *sweep = s.result->sweepOf(world);
    if (!sweep)
        return std::nullopt;
    return FrontierNumbers{sweep->value, sweep->hypervolume, sweep->penalty};
}

// Counting axes get whole-number ticks; others the plain ticker back.
void setCounting(QCPAxis *axis, bool counting)
{
    if (counting)
        FigureLayout::setIntegerAxis(axis);
    else if (FigureLayout::isIntegerAxis(axis))
        axis->setTicker(QSharedPointer<QCPAxisTicker>::create());
}

// Points, in pixels, along the lines and markers `plot` draws (graphs and
// curves; shaded areas without an outline and legend-only entries left out),
// at most a few pixels apart.
QList<QPointF> drawnSamples(QCustomPlot *plot)
{
    constexpr double Step = 3.0;
    QList<QPointF> out;
    auto segment = [&out](QPointF a, const QPointF &b) {
        const double length = std::hypot(b.x() - a.x(), b.y() - a.y());
        const int n = std::clamp(int(length / Step), 0, 2000);
        for (int k = 0; k < n; ++k)
            out.append(a + (b - a) * (double(k) / n));
        out.append(b);
    };
    for (int i = 0; i < plot->plottableCount(); ++i) {
        QCPAbstractPlottable *p = plot->plottable(i);
        if (!p->visible() || p->pen().style() == Qt::NoPen)
            continue;
        QCPAxis *x = p->keyAxis(), *y = p->valueAxis();
        if (!x || !y)
            continue;
        if (auto *g = qobject_cast<QCPGraph *>(p)) {
            const bool lines = g->lineStyle() != QCPGraph::lsNone;
            const bool steps = g->lineStyle() == QCPGraph::lsStepLeft;
            std::optional<QPointF> last;
            for (auto it = g->data()->constBegin(); it != g->data()->constEnd(); ++it) {
                const QPointF here(x->coordToPixel(it->key), y->coordToPixel(it->value));
                if (!std::isfinite(here.x()) || !std::isfinite(here.y()))
                    continue;
                if (last && lines) {
                    const QPointF corner = steps ? QPointF(here.x(), last->y()) : *last;
                    segment(*last, corner);
                    segment(corner, here);
                } else {
                    out.append(here);
                }
                last = here;
            }
        } else if (auto *c = qobject_cast<QCPCurve *>(p)) {
            std::optional<QPointF> last;
            for (auto it = c->data()->constBegin(); it != c->data()->constEnd(); ++it) {
                const QPointF here(x->coordToPixel(it->key), y->coordToPixel(it->value));
                if (last)
                    segment(*last, here);
                else
                    out.append(here);
                last = here;
            }
        }
    }
    return out;
}

// Puts the legend in the corner of the data area it covers the least of.
void placeLegendClear(QCustomPlot *plot)
{
    QCPLegend *legend = plot->legend;
    QCPLayoutInset *inset = plot->axisRect()->insetLayout();
    if (!legend->visible() || legend->layout() != inset)
        return;
    int index = -1;
    for (int i = 0; i < inset->elementCount(); ++i) {
        if (inset->elementAt(i) == legend)
            index = i;
    }
    if (index < 0 || inset->insetPlacement(index) != QCPLayoutInset::ipBorderAligned)
        return;
    const QRect area = inset->rect();
    const QSize size = legend->minimumOuterSizeHint().boundedTo(area.size());
    if (area.isEmpty() || size.isEmpty())
        return;
    const QList<QPointF> samples = drawnSamples(plot);
    static const Qt::Alignment corners[] = {Qt::AlignBottom | Qt::AlignRight, Qt::AlignTop | Qt::AlignLeft,
                                            Qt::AlignTop | Qt::AlignRight, Qt::AlignBottom | Qt::AlignLeft};
    auto covered = [&](Qt::Alignment corner) {
        QRect r(QPoint(0, 0), size);
        if (corner & Qt::AlignLeft)
            r.moveLeft(area.left());
        else
            r.moveRight(area.right());
        if (corner & Qt::AlignTop)
            r.moveTop(area.top());
        else
            r.moveBottom(area.bottom());
        const QRectF near = QRectF(r).adjusted(-2, -2, 2, 2);
        return std::count_if(samples.cbegin(), samples.cend(), [&near](const QPointF &p) { return near.contains(p); });
    };
    const Qt::Alignment current = inset->insetAlignment(index);
    Qt::Alignment best = current;
    qsizetype least = covered(current);
    for (const Qt::Alignment corner : corners) {
        if (least == 0)
            break;
        if (const qsizetype n = covered(corner); n < least) {
            least = n;
            best = corner;
        }
    }
    if (best != current) {
        inset->setInsetAlignment(index, best);
        inset->update(QCPLayoutElement::upLayout);
    }
}
} // namespace

QColor PlotStyle::seriesColor(int index)
{
    // Okabe–Ito's blue, vermillion, green and purple, then a dark gold, a
    // violet, a cyan and a grey in place of its orange, sky blue and yellow
    // (an orange beside the vermillion, a sky blue beside the blue and a
    // yellow on white were hard to tell apart): at least 3:1 against white
    // and against the dark theme's paper, no two of the eight closer than
    // ΔE 30 (CIELAB). Then hues a golden angle apart, darkened to 3:1 on
    // white: no colour repeats, never black.
    static const QRgb colors[] = {0x0072b2, 0xd55e00, 0x009e73, 0xcc79a7, 0x8c6d00, 0x7b4fc0, 0x00a0b8, 0x666666};
    constexpr int Fixed = int(std::size(colors));
    index = std::max(index, 0);
    if (index < Fixed)
        return QColor::fromRgb(colors[index]);
    const int k = index - Fixed;
    const double hue = std::fmod(15.0 + k * 137.50776405, 360.0);
    static constexpr double Lightness[] = {0.42, 0.34, 0.48};
    double lightness = Lightness[k % 3];
    QColor c = QColor::fromHslF(float(hue / 360.0), 0.75f, float(lightness));
    while (contrastOnWhite(c) < 3.0 && lightness > 0.05) {
        lightness -= 0.02;
        c = QColor::fromHslF(float(hue / 360.0), 0.75f, float(lightness));
    }
    return c;
}

double PlotStyle::contrastOnWhite(const QColor &color)
{
    auto linear = [](double v) { return v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); };
    const double luminance = 0.2126 * linear(color.redF()) + 0.7152 * linear(color.greenF()) + 0.0722 * linear(color.blueF());
    return 1.05 / (luminance + 0.05);
}

QPen PlotStyle::seriesPen(int index, double width)
{
    // The first solid, the next dashed, dash-dotted, dotted: two series on
    // the same line still show both colours, and the legend's icons differ
    // without colour.
    static const Qt::PenStyle styles[] = {Qt::SolidLine, Qt::DashLine, Qt::DashDotLine, Qt::DotLine, Qt::DashDotDotLine};
    QPen pen(seriesColor(index), width, styles[std::max(index, 0) % int(std::size(styles))]);
    pen.setCapStyle(Qt::FlatCap);
    return pen;
}

QCPScatterStyle PlotStyle::seriesMarker(int index, bool filled, const QColor &paper, double size)
{
    static const QCPScatterStyle::ScatterShape shapes[] = {QCPScatterStyle::ssCircle, QCPScatterStyle::ssSquare,
                                                           QCPScatterStyle::ssTriangle, QCPScatterStyle::ssDiamond,
                                                           QCPScatterStyle::ssTriangleInverted, QCPScatterStyle::ssCrossSquare};
    const QColor color = seriesColor(index);
    return QCPScatterStyle(shapes[std::max(index, 0) % int(std::size(shapes))], QPen(color, 1.5), filled ? color : paper, size);
}

void PlotStyle::applyTheme(QCustomPlot *plot, bool dark)
{
    const QColor fg = dark ? QColor(0xe6, 0xe6, 0xe6) : QColor(0x20, 0x20, 0x20);
    const QColor bg = dark ? QColor(0x1e, 0x1f, 0x22) : QColor(Qt::white);
    const QColor grid = dark ? QColor(0x40, 0x42, 0x46) : QColor(0xe3, 0xe3, 0xe3);
    plot->setBackground(bg);
    for (QCPAxis *axis : {plot->xAxis, plot->yAxis}) {
        axis->setBasePen(QPen(fg, 1));
        axis->setTickPen(QPen(fg, 1));
        axis->setSubTickPen(QPen(fg, 1));
        axis->setTickLabelColor(fg);
        axis->setLabelColor(fg);
        axis->grid()->setPen(QPen(grid, 1, Qt::SolidLine));
        axis->grid()->setZeroLinePen(Qt::NoPen);
    }
    plot->legend->setBrush(QBrush(dark ? QColor(0x2b, 0x2d, 0x31, 230) : QColor(255, 255, 255, 230)));
    plot->legend->setBorderPen(QPen(grid));
    plot->legend->setTextColor(fg);
}

void PlotStyle::keepLegendClear(QCustomPlot *plot)
{
    static const char *const Kept = "dreamrsiLegendKeptClear";
    if (!plot->property(Kept).toBool()) {
        plot->setProperty(Kept, true);
        QObject::connect(plot, &QCustomPlot::afterLayout, plot, [plot] { placeLegendClear(plot); });
    }
}

QList<QPointF> PlotStyle::staircase(const QList<QPointF> &points)
{
    QList<QPointF> sorted = points;
    std::sort(sorted.begin(), sorted.end(), [](const QPointF &a, const QPointF &b) {
        return a.x() < b.x() || (a.x() == b.x() && a.y() > b.y());
    });
    QList<QPointF> out;
    double bestY = -std::numeric_limits<double>::infinity();
    for (const QPointF &p : sorted) {
        if (p.y() > bestY) {
            out.append(p);
            bestY = p.y();
        }
    }
    return out;
}

QCPRange PlotStyle::fittedAttainmentRange(double low, double high)
{
    if (!(low <= high))
        return QCPRange(0, 1.05);
    // Room around the points for their markers and β labels; a flat set
    // still gets a readable span of a few hundredths.
    constexpr double Least = 0.02;
    const double span = std::max(high - low, Least);
    return QCPRange(std::max(0.0, std::min(low, high - Least) - 0.12 * span), std::min(1.05, high + 0.12 * span));
}

int PlotStyle::populateFrontier(QCustomPlot *plot, const QList<FrontierSeries> &series, const QString &world, bool dark,
                                AttainmentAxis axis)
{
    plot->clearPlottables();
    plot->clearItems();
    applyTheme(plot, dark);
    // The shaded regions lie on their own layer under the curves, so a tint
    // never covers another version's staircase or points.
    QCPLayer *fills = plot->layer(QStringLiteral("fills"));
    if (!fills) {
        plot->addLayer(QStringLiteral("fills"), plot->layer(QStringLiteral("main")), QCustomPlot::limBelow);
        fills = plot->layer(QStringLiteral("fills"));
    }
    QList<std::pair<double, QCPCurve *>> areas; // dominated area and its shading
    QList<std::pair<QString, QList<QPointF>>> drawnStairs; // each drawn version's frontier
    double yLow = std::numeric_limits<double>::infinity();
    double yHigh = -std::numeric_limits<double>::infinity();
    const QColor paper = dark ? QColor(0x1e, 0x1f, 0x22) : QColor(Qt::white);
    const bool mean = world.isEmpty();
    plot->xAxis->setLabel(mean ? QCoreApplication::translate("dreamrsi::PlotStyle", "Agent calls (fraction of the tree)") : QCoreApplication::translate("dreamrsi::PlotStyle", "Agent calls"));
    FigureLayout::setShortLabel(plot->xAxis, mean ? QCoreApplication::translate("dreamrsi::PlotStyle", "Calls / tree size") : QString());
    setCounting(plot->xAxis, !mean);
    plot->yAxis->setLabel(QCoreApplication::translate("dreamrsi::PlotStyle", "Attainment (best score / tree best)"));
    FigureLayout::setShortLabel(plot->yAxis, QCoreApplication::translate("dreamrsi::PlotStyle", "Attainment"));
    setCounting(plot->yAxis, false);
    plot->legend->setVisible(true);
    // In the corner while the legend is inside the plot (the Frontiers tab moves it above).
    if (QCPLayoutInset *inset = plot->axisRect()->insetLayout(); inset->elementCount() > 0 && inset->elementAt(0) == plot->legend)
        inset->setInsetAlignment(0, Qt::AlignBottom | Qt::AlignRight);
    double xMax = mean ? 1.0 : 1.0;
    int drawn = 0;
    for (int i = 0; i < series.size(); ++i) {
        const FrontierSeries &s = series.at(i);
        if (!s.result)
            continue;
        QList<QPointF> points;
        double cells = 1.0;
        if (mean) {
            // Mean position of each β over the scorable worlds.
            const qsizetype nb = s.result->betas.size();
            for (qsizetype b = 0; b < nb; ++b) {
                double x = 0, y = 0;
                int n = 0;
                for (const SweepResult &w : s.result->worlds) {
                    if (!w.scorable || b >= w.episodes.size() || w.cells <= 0)
                        continue;
                    x += double(w.episodes.at(b).calls) / w.cells;
                    y += w.episodes.at(b).attainment;
                    ++n;
                }
                if (n)
                    points.append({x / n, y / n});
            }
        } else {
            const SweepResult *sweep = s.result->sweepOf(world);
            if (!sweep)
                continue;
            cells = sweep->cells;
            xMax = std::max(xMax, cells);
            for (const EpisodeResult &e : sweep->episodes)
                points.append({double(e.calls), e.attainment});
        }
        if (points.isEmpty())
            continue;
        ++drawn;
        const QColor color = seriesColor(i);
        const double right = mean ? 1.0 : cells;
        const QList<QPointF> stairs = staircase(points);

        // Dominated region (the hypervolume), bounded by the reference point (B, 0).
        auto *area = new QCPCurve(plot->xAxis, plot->yAxis);
        QVector<QCPCurveData> poly;
        int t = 0;
        poly.append(QCPCurveData(t++, stairs.first().x(), 0));
        double prevY = 0;
        for (const QPointF &p : stairs) {
            poly.append(QCPCurveData(t++, p.x(), prevY));
            poly.append(QCPCurveData(t++, p.x(), p.y()));
            prevY = p.y();
        }
        poly.append(QCPCurveData(t++, right, prevY));
        poly.append(QCPCurveData(t++, right, 0));
        poly.append(QCPCurveData(t++, stairs.first().x(), 0));
        area->data()->set(poly, true);
        // A light tint, nearly opaque: overlapping tints do not blend into
        // grey, and the largest region goes behind (ordered below).
        constexpr double Tint = 0.3;
        const QColor fill = QColor::fromRgbF(float(Tint * color.redF() + (1 - Tint) * paper.redF()),
                                             float(Tint * color.greenF() + (1 - Tint) * paper.greenF()),
                                             float(Tint * color.blueF() + (1 - Tint) * paper.blueF()), 0.85f);
        area->setBrush(fill);
        area->setPen(Qt::NoPen);
        area->removeFromLegend();
        double dominated = 0;
        for (qsizetype k = 0; k < stairs.size(); ++k)
            dominated += stairs.at(k).y() * ((k + 1 < stairs.size() ? stairs.at(k + 1).x() : right) - stairs.at(k).x());
        areas.append({dominated, area});
        for (const QPointF &p : std::as_const(points)) {
            yLow = std::min(yLow, p.y());
            yHigh = std::max(yHigh, p.y());
        }

        // The staircase itself.
        auto *steps = new QCPCurve(plot->xAxis, plot->yAxis);
        QVector<QCPCurveData> line;
        t = 0;
        prevY = 0;
        for (const QPointF &p : stairs) {
            line.append(QCPCurveData(t++, p.x(), prevY));
            line.append(QCPCurveData(t++, p.x(), p.y()));
            prevY = p.y();
        }
        line.append(QCPCurveData(t++, right, prevY));
        steps->data()->set(line, true);
        // Each version its colour, dash and marker: a frontier drawn over
        // another still shows both, and the legend tells them apart without colour.
        steps->setPen(seriesPen(i, 2));
        const FrontierNumbers numbers = frontierNumbers(s, world).value_or(FrontierNumbers{});
        QString name = QStringLiteral("%1 — %2 %3, %4 %5, %6 %7")
                           .arg(s.name, QCoreApplication::translate("dreamrsi::PlotStyle", "value"), fmt(numbers.value), QCoreApplication::translate("dreamrsi::PlotStyle", "HV"), fmt(numbers.hypervolume), QCoreApplication::translate("dreamrsi::PlotStyle", "penalty"),
                                fmt(numbers.penalty));
        // A version whose frontier is another's drawn here lies exactly under it: say so.
        for (const auto &[earlier, earlierStairs] : std::as_const(drawnStairs)) {
            if (earlierStairs == stairs) {
                name += QCoreApplication::translate("dreamrsi::PlotStyle", " (the same frontier as %1)").arg(earlier);
                break;
            }
        }
        drawnStairs.append({s.name, stairs});
        steps->setName(name);
        // Figures name the version only; the numbers go to the caption table (frontierTable()).
        FigureLayout::setShortName(steps, s.name);

        // Every β's point, dominated ones hollow.
        auto *dots = new QCPGraph(plot->xAxis, plot->yAxis);
        for (const QPointF &p : std::as_const(points))
            dots->addData(p.x(), p.y());
        dots->setLineStyle(QCPGraph::lsNone);
        dots->setScatterStyle(seriesMarker(i, false, paper, 7));
        dots->removeFromLegend();
        auto *front = new QCPGraph(plot->xAxis, plot->yAxis);
        for (const QPointF &p : stairs)
            front->addData(p.x(), p.y());
        front->setLineStyle(QCPGraph::lsNone);
        front->setScatterStyle(seriesMarker(i, true, paper, 7));
        front->removeFromLegend();
        // β labels next to the points of the first series only, to stay readable.
        if (drawn == 1 && !mean) {
            const SweepResult *sweep = s.result->sweepOf(world);
            // β that reach the same point share one label ("β=0.5, 0.75, 1"):
            // a label each was drawn over the others.
            QList<std::pair<QPointF, QStringList>> atPoint;
            for (const EpisodeResult &e : sweep->episodes) {
                const QPointF p(e.calls, e.attainment);
                auto same = std::find_if(atPoint.begin(), atPoint.end(), [&p](const auto &a) { return a.first == p; });
                if (same == atPoint.end())
                    atPoint.append({p, {QString::number(e.beta)}});
                else
                    same->second.append(QString::number(e.beta));
            }
            for (const auto &[point, betas] : std::as_const(atPoint)) {
                auto *label = new QCPItemText(plot);
                label->position->setCoords(point.x(), point.y());
                // Right of its point, or left of it near the right edge, so it is never cut.
                const bool nearRight = point.x() > 0.8 * xMax;
                label->setPositionAlignment((nearRight ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignTop);
                label->setPadding(nearRight ? QMargins(0, 2, 5, 0) : QMargins(5, 2, 0, 0));
                label->setText(QStringLiteral("β=%1").arg(betas.join(QStringLiteral(", "))));
                label->setColor(dark ? QColor(0xc0, 0xc0, 0xc0) : QColor(0x50, 0x50, 0x50));
                QFont f = label->font();
                f.setPointSizeF(f.pointSizeF() * 0.8);
                label->setFont(f);
            }
        }
    }
    std::stable_sort(areas.begin(), areas.end(), [](const auto &a, const auto &b) { return a.first > b.first; });
    for (const auto &[dominated, area] : std::as_const(areas))
        area->setLayer(fills);
    plot->xAxis->setRange(0, mean ? 1.0 : xMax * 1.02);
    plot->yAxis->setRange(axis == AttainmentAxis::Full ? QCPRange(0, 1.05) : fittedAttainmentRange(yLow, yHigh));
    keepLegendClear(plot);
    plot->replot();
    return drawn;
}

void PlotStyle::populateAnytime(QCustomPlot *plot, const QList<AnytimeSeries> &series, int cellCount, bool dark,
                                AttainmentAxis axis)
{
    double yLow = std::numeric_limits<double>::infinity();
    double yHigh = -std::numeric_limits<double>::infinity();
    plot->clearPlottables();
    plot->clearItems();
    applyTheme(plot, dark);
    plot->xAxis->setLabel(QCoreApplication::translate("dreamrsi::PlotStyle", "Agent calls"));
    FigureLayout::setShortLabel(plot->xAxis, QString());
    setCounting(plot->xAxis, true);
    plot->yAxis->setLabel(QCoreApplication::translate("dreamrsi::PlotStyle", "Best so far / tree best"));
    FigureLayout::setShortLabel(plot->yAxis, QCoreApplication::translate("dreamrsi::PlotStyle", "Best so far"));
    setCounting(plot->yAxis, false);
    plot->legend->setVisible(true);
    plot->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignBottom | Qt::AlignRight);
    int xMax = std::max(cellCount, 1);
    for (int i = 0; i < series.size(); ++i) {
        const AnytimeSeries &s = series.at(i);
        const QColor color = seriesColor(i);
        auto *curve = new QCPGraph(plot->xAxis, plot->yAxis);
        curve->removeFromLegend();
        curve->setLineStyle(QCPGraph::lsStepLeft);
        QColor faded = color;
        faded.setAlpha(70);
        curve->setPen(QPen(faded, 1.5, Qt::DashLine));
        auto *shown = new QCPGraph(plot->xAxis, plot->yAxis);
        shown->setLineStyle(QCPGraph::lsStepLeft);
        shown->setPen(QPen(color, 2.5));
        shown->setName(s.name);
        curve->addData(0, 0);
        shown->addData(0, 0);
        for (const CurvePoint &p : s.curve) {
            yLow = std::min(yLow, p.attainment);
            yHigh = std::max(yHigh, p.attainment);
            curve->addData(p.calls, p.attainment);
            if (s.shownCalls < 0 || p.calls <= s.shownCalls)
                shown->addData(p.calls, p.attainment);
        }
        if (!s.curve.isEmpty())
            curve->addData(xMax, s.curve.last().attainment);
        if (s.shownCalls >= 0) {
            auto *marker = new QCPItemStraightLine(plot);
            marker->point1->setCoords(s.shownCalls, 0);
            marker->point2->setCoords(s.shownCalls, 1);
            marker->setPen(QPen(color, 1, Qt::DotLine));
        }
    }
    // Re-evaluated cells: the mean of their repeats with its 95 % interval at
    // the call that made them the best so far; a lucky cell's step stands above its bar.
    bool named = false;
    for (int i = 0; i < series.size(); ++i) {
        const AnytimeSeries &s = series.at(i);
        QList<const AnytimeInterval *> shown;
        for (const AnytimeInterval &v : s.intervals) {
            if (s.shownCalls < 0 || v.calls <= s.shownCalls)
                shown.append(&v);
        }
        if (shown.isEmpty())
            continue;
        const QColor color = seriesColor(i);
        auto *means = new QCPGraph(plot->xAxis, plot->yAxis);
        means->setLineStyle(QCPGraph::lsNone);
        means->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDiamond, QPen(color, 1.5),
                                               dark ? QColor(0x1e, 0x1f, 0x22) : QColor(Qt::white), 8));
        auto *bars = new QCPErrorBars(plot->xAxis, plot->yAxis);
        bars->removeFromLegend();
        bars->setDataPlottable(means);
        bars->setPen(QPen(color, 1.5));
        bars->setWhiskerWidth(8);
        QVector<double> minus, plus;
        for (const AnytimeInterval *v : std::as_const(shown)) {
            means->addData(v->calls, v->mean);
            minus.append(v->mean - v->low);
            plus.append(v->high - v->mean);
            yLow = std::min(yLow, v->low);
            yHigh = std::max(yHigh, v->high);
        }
        bars->setData(minus, plus);
        if (named) {
            means->removeFromLegend();
        } else {
            named = true;
            means->setName(QCoreApplication::translate("dreamrsi::PlotStyle", "Re-evaluated: mean, 95 % interval"));
            FigureLayout::setShortName(means, QCoreApplication::translate("dreamrsi::PlotStyle", "Re-evaluated (95 %)"));
        }
    }
    plot->xAxis->setRange(0, xMax);
    plot->yAxis->setRange(axis == AttainmentAxis::Full ? QCPRange(0, 1.05) : fittedAttainmentRange(yLow, yHigh));
    keepLegendClear(plot);
    plot->replot();
}

QList<AnytimeInterval> PlotStyle::anytimeIntervals(const EpisodeResult &episode, const DiscoveryTree &world,
                                                   const QList<ReevaluationStats> &stats)
{
    QList<AnytimeInterval> out;
    const double S = world.bestEffectiveScore();
    if (stats.isEmpty() || !(S > 0))
        return out; // an unscorable world's attainments are all 0
    QHash<QString, const ReevaluationStats *> byId;
    for (const ReevaluationStats &s : stats)
        byId.insert(s.cellId, &s);
    // The engine's best-so-far rule (core/replay/replayengine.cpp): the first reveal, then a higher effective score.
    bool any = false;
    double best = 0;
    const qsizetype n = std::min(episode.revealed.size(), episode.curve.size());
    for (qsizetype k = 0; k < n; ++k) {
        const int index = world.indexOfId(episode.revealed.at(k));
        if (index < 0)
            continue;
        const double e = world.cells().at(index).effectiveScore();
        if (any && !(e > best))
            continue;
        any = true;
        best = std::max(best, e);
        const ReevaluationStats *s = byId.value(episode.revealed.at(k));
        if (!s || !s->mean || !s->ci95)
            continue;
        out.append(AnytimeInterval{s->cellId, episode.curve.at(k).calls, *s->mean / S, s->ci95->first / S,
                                   s->ci95->second / S, s->lucky});
    }
    return out;
}

FigureTable PlotStyle::frontierTable(const QList<FrontierSeries> &series, const QString &world)
{
    FigureTable table;
    table.header = {QCoreApplication::translate("dreamrsi::PlotStyle", "Version"), QCoreApplication::translate("dreamrsi::PlotStyle", "Value"), QCoreApplication::translate("dreamrsi::PlotStyle", "HV"), QCoreApplication::translate("dreamrsi::PlotStyle", "Penalty")};
    for (const FrontierSeries &s : series) {
        if (const auto n = frontierNumbers(s, world))
            table.rows.append({s.name, fmt(n->value), fmt(n->hypervolume), fmt(n->penalty)});
    }
    return table;
}

FigureTable PlotStyle::anytimeTable(const QList<AnytimeSeries> &series)
{
    FigureTable table;
    table.header = {QCoreApplication::translate("dreamrsi::PlotStyle", "Series"), QCoreApplication::translate("dreamrsi::PlotStyle", "Final attainment"), QCoreApplication::translate("dreamrsi::PlotStyle", "Calls to reach it")};
    for (const AnytimeSeries &s : series) {
        if (s.curve.isEmpty()) {
            table.rows.append({s.name, fmt(std::nullopt), fmt(std::nullopt)});
            continue;
        }
        const CurvePoint &last = s.curve.last();
        table.rows.append({s.name, QString::number(last.attainment, 'f', 3), QString::number(last.calls)});
    }
    return table;
}

} // namespace dreamrsi
