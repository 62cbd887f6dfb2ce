#include "simulationplot.h"

#include "figures/figurelayout.h"
#include "figures/plotstyle.h"
#include "figures/qcp.h"

#include <QCoreApplication>
#include <QJsonArray>

#include <algorithm>
#include <cmath>
#include <limits>

namespace dreamrsi {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("dreamrsi::SimulationPlot", text);
}

QString plusMinus(const QJsonValue &mean, const QJsonValue &ci, int digits)
{
    if (!mean.isDouble())
        return QStringLiteral("–");
    QString s = QString::number(mean.toDouble(), 'f', digits);
    if (ci.isDouble())
        s += QStringLiteral(" ± ") + QString::number(ci.toDouble(), 'f', digits);
    return s;
}

/// The range a quantity can take; a band is cut to it.
struct Bounds
{
    double low = -std::numeric_limits<double>::infinity();
    double high = std::numeric_limits<double>::infinity();
};

/// A mean curve with its interval shaded between mean − ci and mean + ci,
/// clamped to `bounds`. The fill is light and each edge of the band is
/// outlined in the arm's colour, solid for the first arm and dashed for the
/// next, so where two arms' bands overlap both stay readable (and tell apart
/// without colour).
void addBand(QCPAxis *x, QCPAxis *y, const QList<int> &xs, const QList<double> &mean, const QList<double> &ci, Bounds bounds,
             int arm, const QString &name, const QString &shortName, bool legend)
{
    const QColor color = PlotStyle::seriesColor(arm);
    auto *low = new QCPGraph(x, y);
    auto *high = new QCPGraph(x, y);
    auto *line = new QCPGraph(x, y);
    for (qsizetype i = 0; i < xs.size(); ++i) {
        if (!std::isfinite(mean.at(i)))
            continue;
        const double c = std::isfinite(ci.at(i)) ? ci.at(i) : 0.0;
        low->addData(xs.at(i), std::clamp(mean.at(i) - c, bounds.low, bounds.high));
        high->addData(xs.at(i), std::clamp(mean.at(i) + c, bounds.low, bounds.high));
        line->addData(xs.at(i), mean.at(i));
    }
    QColor fill = color;
    fill.setAlpha(30);
    static const Qt::PenStyle edges[] = {Qt::SolidLine, Qt::DashLine, Qt::DotLine, Qt::DashDotLine};
    const QPen edgePen(color, 1.2, edges[arm % int(std::size(edges))]);
    low->setPen(edgePen);
    high->setPen(edgePen);
    high->setBrush(fill);
    high->setChannelFillGraph(low);
    low->removeFromLegend();
    high->removeFromLegend();
    line->setName(name);
    FigureLayout::setShortName(line, shortName);
    // The mean line dashed as its band's edges after the first arm, and the
    // first arm's line on a layer above the others: where two arms' means
    // are equal, Dream-RSI's solid line and filled dots stay in sight inside
    // the other arm's dashes and hollow, larger squares.
    line->setPen(QPen(color, 2.0, arm == 0 ? Qt::SolidLine : edges[arm % int(std::size(edges))]));
    line->setScatterStyle(arm == 0 ? QCPScatterStyle(QCPScatterStyle::ssDisc, color, 6)
                                   : QCPScatterStyle(arm % 2 ? QCPScatterStyle::ssSquare : QCPScatterStyle::ssDiamond,
                                                     QPen(color, 1.3), Qt::NoBrush, 8));
    if (arm == 0) {
        QCustomPlot *plot = x->parentPlot();
        if (!plot->layer(QStringLiteral("firstArm")))
            plot->addLayer(QStringLiteral("firstArm"), plot->layer(QStringLiteral("main")), QCustomPlot::limAbove);
        line->setLayer(QStringLiteral("firstArm"));
    }
    if (!legend)
        line->removeFromLegend();
}

} // namespace

QString SimulationPlot::armLabel(const QString &arm)
{
    if (arm == QLatin1String("dream"))
        return tr("Dream-RSI");
    if (arm == QLatin1String("dream_guarded"))
        return tr("Dream-RSI, guarded");
    // The study runs the loop under both valuations: "dream" under the
    // configured one (imagined), "dream_revealed" on the revealed cells only.
    if (arm == QLatin1String("dream_revealed"))
        return tr("Dream-RSI, revealed");
    // ... and the oracle arm over the complete recorded worlds.
    if (arm == QLatin1String("dream_oracle"))
        return tr("Dream-RSI, oracle");
    // The frugality-trap study (docs/online.md#probes): probes and rules apart.
    if (arm == QLatin1String("dream_noprobe"))
        return tr("Dream-RSI, no probes");
    if (arm == QLatin1String("dream_widened"))
        return tr("Dream-RSI, widened rule");
    if (arm == QLatin1String("dream_uncertain"))
        return tr("Dream-RSI, uncertain rule");
    if (arm == QLatin1String("dream_anchored"))
        return tr("Dream-RSI, anchored rule");
    if (arm == QLatin1String("fixed_probe"))
        return tr("Fixed exploration + probes");
    if (arm == QLatin1String("fixed"))
        return tr("Fixed exploration");
    return arm;
}

int SimulationPlot::populate(QCustomPlot *plot, const SimulationCurves &curves, bool dark)
{
    plot->clearPlottables();
    plot->clearItems();
    // A second axis rect below the first for the calls; made once per plot.
    QCPLayoutGrid *layout = plot->plotLayout();
    QCPAxisRect *bottom = nullptr;
    if (layout->rowCount() > 1)
        bottom = qobject_cast<QCPAxisRect *>(layout->element(1, 0));
    if (!bottom) {
        bottom = new QCPAxisRect(plot);
        layout->addElement(1, 0, bottom);
        for (QCPAxis *axis : bottom->axes())
            axis->setLayer(QStringLiteral("axes"));
        auto *margins = new QCPMarginGroup(plot);
        plot->axisRect()->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
        bottom->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
    }
    PlotStyle::applyTheme(plot, dark);
    // The theme styles the first rect's axes; the second takes the same pens.
    const QList<QCPAxis *> styled{plot->xAxis, plot->yAxis};
    const QList<QCPAxis *> copies{bottom->axis(QCPAxis::atBottom), bottom->axis(QCPAxis::atLeft)};
    for (qsizetype i = 0; i < styled.size(); ++i) {
        QCPAxis *from = styled.at(i), *to = copies.at(i);
        to->setBasePen(from->basePen());
        to->setTickPen(from->tickPen());
        to->setSubTickPen(from->subTickPen());
        to->setTickLabelColor(from->tickLabelColor());
        to->setTickLabelFont(from->tickLabelFont());
        to->setLabelColor(from->labelColor());
        to->setLabelFont(from->labelFont());
        to->grid()->setPen(from->grid()->pen());
        to->grid()->setSubGridPen(from->grid()->subGridPen());
    }
    bottom->setBackground(plot->axisRect()->backgroundBrush());

    QCPAxis *x1 = plot->xAxis, *y1 = plot->yAxis;
    QCPAxis *x2 = bottom->axis(QCPAxis::atBottom), *y2 = bottom->axis(QCPAxis::atLeft);
    // The panels share the iterations: the lower one labels them.
    x1->setLabel(QString());
    x1->setTickLabels(false);
    y1->setLabel(tr("Attainment (mean, 95 % CI)"));
    FigureLayout::setShortLabel(y1, tr("Attainment"));
    x2->setLabel(tr("Iteration"));
    y2->setLabel(tr("Cumulative agent calls"));
    FigureLayout::setShortLabel(y2, tr("Calls"));
    FigureLayout::setIntegerAxis(x1);
    FigureLayout::setIntegerAxis(x2);
    plot->legend->setVisible(true);
    plot->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignBottom | Qt::AlignRight);

    int maxT = 1;
    double callsMax = 1.0;
    double aMin = 1.0;
    // Attainment lies in [0, 1] and cumulative calls are never negative.
    const Bounds attainment{0.0, 1.0};
    const Bounds calls{0.0, std::numeric_limits<double>::infinity()};
    for (qsizetype i = 0; i < curves.arms.size(); ++i) {
        const SimulationArmCurve &c = curves.arms.at(i);
        const QString name = c.repeats > 1 ? tr("%1 (%2 repeats)").arg(armLabel(c.arm)).arg(c.repeats) : armLabel(c.arm);
        // A figure's legend names the arm; the repeats are in its caption table.
        addBand(x1, y1, c.iterations, c.attainmentMean, c.attainmentCi95, attainment, int(i), name, armLabel(c.arm), true);
        addBand(x2, y2, c.iterations, c.callsMean, c.callsCi95, calls, int(i), name, armLabel(c.arm), false);
        if (!c.iterations.isEmpty())
            maxT = std::max(maxT, c.iterations.last());
        for (qsizetype t = 0; t < c.callsMean.size(); ++t) {
            const double ci = std::isfinite(c.callsCi95.at(t)) ? c.callsCi95.at(t) : 0.0;
            callsMax = std::max(callsMax, c.callsMean.at(t) + ci);
            if (std::isfinite(c.attainmentMean.at(t)))
                aMin = std::min(aMin, std::max(0.0, c.attainmentMean.at(t) - (std::isfinite(c.attainmentCi95.at(t)) ? c.attainmentCi95.at(t) : 0.0)));
        }
    }
    x1->setRange(0.7, maxT + 0.3);
    x2->setRange(0.7, maxT + 0.3);
    y1->setRange(std::max(0.0, std::min(aMin, 1.0) - 0.05), 1.02);
    y2->setRange(0, callsMax * 1.08);
    plot->replot();
    return int(curves.arms.size());
}

FigureTable SimulationPlot::table(const SimulationCurves &curves)
{
    FigureTable t;
    t.header = {tr("Arm"), tr("Repeats"), tr("Calls per iteration"), tr("Attainment"), tr("Total calls"), tr("Calls to reach fixed best")};
    for (const SimulationArmCurve &c : curves.arms) {
        const QJsonObject s = curves.summary.value(c.arm).toObject();
        QString reach = QStringLiteral("–");
        const QJsonObject r = s.value(QStringLiteral("calls_to_reach_fixed_best")).toObject();
        if (!r.isEmpty()) {
            const int reached = r.value(QStringLiteral("reached")).toInt();
            const int of = int(r.value(QStringLiteral("per_repeat")).toArray().size());
            reach = r.value(QStringLiteral("mean")).isDouble()
                        ? tr("%1 (%2 of %3 repeats)").arg(QString::number(r.value(QStringLiteral("mean")).toDouble(), 'f', 1)).arg(reached).arg(of)
                        : tr("never (%1 repeats)").arg(of);
        }
        t.rows.append({armLabel(c.arm), QString::number(c.repeats),
                       plusMinus(s.value(QStringLiteral("calls_mean")), s.value(QStringLiteral("calls_ci95")), 2),
                       plusMinus(s.value(QStringLiteral("attainment_mean")), s.value(QStringLiteral("attainment_ci95")), 3),
                       plusMinus(s.value(QStringLiteral("total_calls_mean")), s.value(QStringLiteral("total_calls_ci95")), 1), reach});
    }
    return t;
}

FigureTable SimulationPlot::data(const SimulationCurves &curves)
{
    FigureTable t;
    t.header = {QStringLiteral("arm"), QStringLiteral("iteration"), QStringLiteral("repeats"), QStringLiteral("attainment_mean"),
                QStringLiteral("attainment_ci95"), QStringLiteral("cumulative_calls_mean"), QStringLiteral("cumulative_calls_ci95")};
    auto num = [](double v) { return std::isfinite(v) ? QString::number(v, 'g', 10) : QString(); };
    for (const SimulationArmCurve &c : curves.arms) {
        for (qsizetype i = 0; i < c.iterations.size(); ++i)
            t.rows.append({c.arm, QString::number(c.iterations.at(i)), QString::number(c.repeats), num(c.attainmentMean.at(i)),
                           num(c.attainmentCi95.at(i)), num(c.callsMean.at(i)), num(c.callsCi95.at(i))});
    }
    return t;
}

} // namespace dreamrsi
