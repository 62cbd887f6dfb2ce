#include "worldmodelplot.h"

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

QJsonObject stratumObject(const QJsonObject &model, const QString &name)
{
    for (const QJsonValue &v : model.value(QLatin1String("strata")).toArray()) {
        if (v.toObject().value(QLatin1String("stratum")).toString() == name)
            return v.toObject();
    }
    return {};
}

/// A small text on the plot at plot coordinates (x, y), above the point.
void countLabel(QCustomPlot *plot, double x, double y, const QString &text, const QColor &color)
{
    auto *label = new QCPItemText(plot);
    label->setClipToAxisRect(false);
    label->position->setType(QCPItemPosition::ptPlotCoords);
    label->position->setCoords(x, y);
    label->setPositionAlignment(Qt::AlignBottom | Qt::AlignHCenter);
    label->setPadding(QMargins(1, 0, 1, 3));
    label->setColor(color);
    QFont f = label->font();
    f.setPointSizeF(std::max(6.0, f.pointSizeF() * 0.85));
    label->setFont(f);
    label->setText(text);
}

/// The cap as a dashed horizontal line with its value.
void capLine(QCustomPlot *plot, const QJsonObject &model, const QColor &color)
{
    const QJsonValue cap = model.value(QLatin1String("cap"));
    if (!cap.isDouble())
        return;
    auto *line = new QCPItemStraightLine(plot);
    line->point1->setCoords(0, cap.toDouble());
    line->point2->setCoords(1, cap.toDouble());
    line->setPen(QPen(color, 1, Qt::DashLine));
    // Named in the top left corner, clear of the counts over the points.
    auto *label = new QCPItemText(plot);
    label->position->setType(QCPItemPosition::ptAxisRectRatio);
    label->position->setCoords(0.0, 0.0);
    label->setPositionAlignment(Qt::AlignTop | Qt::AlignLeft);
    label->setPadding(QMargins(4, 2, 2, 2));
    label->setColor(color);
    label->setText(QCoreApplication::translate("dreamrsi::WorldModelPlot", "dashed: cap %1").arg(QString::number(cap.toDouble(), 'g', 4)));
}

} // namespace

QString WorldModelPlot::title(Panel panel)
{
    switch (panel) {
    case Panel::FirstScores: return QCoreApplication::translate("dreamrsi::WorldModelPlot", "First-attempt scores by direction");
    case Panel::Gains: return QCoreApplication::translate("dreamrsi::WorldModelPlot", "Gain over the branch's best by depth");
    case Panel::Failures: return QCoreApplication::translate("dreamrsi::WorldModelPlot", "Failure rate by depth (pooled)");
    }
    return {};
}

QString WorldModelPlot::stratumLabel(const QString &stratum)
{
    if (stratum == QLatin1String("*"))
        return QCoreApplication::translate("dreamrsi::WorldModelPlot", "pooled");
    return stratum.startsWith(QLatin1String("direction:")) ? stratum.mid(10) : stratum;
}

QStringList WorldModelPlot::strata(const QJsonObject &model)
{
    QStringList out;
    for (const QJsonValue &v : model.value(QLatin1String("strata")).toArray())
        out.append(v.toObject().value(QLatin1String("stratum")).toString());
    return out;
}

int WorldModelPlot::populate(QCustomPlot *plot, const QJsonObject &model, Panel panel, bool dark)
{
    plot->clearPlottables();
    plot->clearItems();
    PlotStyle::applyTheme(plot, dark);
    plot->legend->setVisible(false);
    // One plot shows every panel: what a panel set on the axes goes first.
    for (QCPAxis *axis : {plot->xAxis, plot->yAxis}) {
        axis->setTicker(QSharedPointer<QCPAxisTicker>::create());
        axis->setTickLabelRotation(0);
        FigureLayout::setShortLabel(axis, QString());
    }
    const QColor ink = dark ? QColor(220, 220, 220) : QColor(40, 40, 40);
    const QColor guide = dark ? QColor(170, 170, 170) : QColor(110, 110, 110);
    const QStringList names = strata(model);
    int drawn = 0;
    double yMin = std::numeric_limits<double>::infinity();
    double yMax = -std::numeric_limits<double>::infinity();
    auto extend = [&](double y) {
        yMin = std::min(yMin, y);
        yMax = std::max(yMax, y);
    };

    switch (panel) {
    case Panel::FirstScores: {
        // Every value of a stratum as a point (spread sideways by its place
        // in the list), its mean as a bar mark, its count above.
        auto ticker = QSharedPointer<QCPAxisTickerText>::create();
        plot->xAxis->setLabel(QCoreApplication::translate("dreamrsi::WorldModelPlot", "Direction (stratum)"));
        plot->yAxis->setLabel(QCoreApplication::translate("dreamrsi::WorldModelPlot", "First-attempt score"));
        FigureLayout::setShortLabel(plot->yAxis, QCoreApplication::translate("dreamrsi::WorldModelPlot", "First score"));
        for (int i = 0; i < names.size(); ++i) {
            const QJsonObject s = stratumObject(model, names.at(i));
            const QJsonArray first = s.value(QLatin1String("first")).toArray();
            ticker->addTick(i, stratumLabel(names.at(i)));
            const QColor color = i == 0 ? guide : PlotStyle::seriesColor(i - 1);
            auto *points = new QCPGraph(plot->xAxis, plot->yAxis);
            points->setName(stratumLabel(names.at(i)));
            points->setLineStyle(QCPGraph::lsNone);
            points->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, color, Qt::NoBrush, 4));
            double sum = 0;
            const int n = int(first.size());
            for (int v = 0; v < n; ++v) {
                const double x = i + (n > 1 ? 0.5 * (double(v) / (n - 1) - 0.5) : 0.0);
                points->addData(x, first.at(v).toDouble());
                sum += first.at(v).toDouble();
                extend(first.at(v).toDouble());
            }
            drawn += n;
            double top = n > 0 ? -std::numeric_limits<double>::infinity() : 0.0;
            for (const QJsonValue &v : first)
                top = std::max(top, v.toDouble());
            if (n > 0) {
                auto *mean = new QCPItemLine(plot);
                mean->start->setCoords(i - 0.3, sum / n);
                mean->end->setCoords(i + 0.3, sum / n);
                mean->setPen(QPen(color, 2.0));
            }
            countLabel(plot, i, top, QCoreApplication::translate("dreamrsi::WorldModelPlot", "n = %1").arg(n), ink);
        }
        plot->xAxis->setTicker(ticker);
        plot->xAxis->setTickLabelRotation(names.size() > 3 ? -30 : 0); // long direction names side by side
        plot->xAxis->setRange(-0.6, std::max(0.6, names.size() - 0.4));
        capLine(plot, model, guide);
        if (model.value(QLatin1String("cap")).isDouble())
            extend(model.value(QLatin1String("cap")).toDouble());
        break;
    }
    case Panel::Gains: {
        // One series per stratum: the mean gain at each depth with its
        // min–max range, points shifted a little sideways per stratum.
        plot->legend->setVisible(true);
        plot->xAxis->setLabel(QCoreApplication::translate("dreamrsi::WorldModelPlot", "Attempt depth"));
        FigureLayout::setIntegerAxis(plot->xAxis);
        plot->yAxis->setLabel(QCoreApplication::translate("dreamrsi::WorldModelPlot", "Gain over the branch's best so far"));
        FigureLayout::setShortLabel(plot->yAxis, QCoreApplication::translate("dreamrsi::WorldModelPlot", "Gain"));
        int maxDepth = 1;
        const double step = names.size() > 1 ? 0.5 / (names.size() - 1) : 0.0;
        for (int i = 0; i < names.size(); ++i) {
            const QJsonObject s = stratumObject(model, names.at(i));
            const QColor color = i == 0 ? guide : PlotStyle::seriesColor(i - 1);
            auto *graph = new QCPGraph(plot->xAxis, plot->yAxis);
            graph->setName(stratumLabel(names.at(i)));
            graph->setPen(QPen(color, i == 0 ? 2.0 : 1.5, i == 0 ? Qt::DashLine : Qt::SolidLine));
            graph->setScatterStyle(QCPScatterStyle(i % 2 ? QCPScatterStyle::ssSquare : QCPScatterStyle::ssCircle, color,
                                                   dark ? QColor(Qt::black) : QColor(Qt::white), 6));
            auto *bars = new QCPErrorBars(plot->xAxis, plot->yAxis);
            bars->removeFromLegend();
            bars->setDataPlottable(graph);
            bars->setPen(QPen(color, 1.0));
            QVector<double> minus, plus;
            for (const QJsonValue &gv : s.value(QLatin1String("gains")).toArray()) {
                const QJsonObject g = gv.toObject();
                const QJsonArray values = g.value(QLatin1String("values")).toArray();
                if (values.isEmpty())
                    continue;
                const int attempt = g.value(QLatin1String("attempt")).toInt();
                double sum = 0, lo = values.first().toDouble(), hi = lo;
                for (const QJsonValue &v : values) {
                    sum += v.toDouble();
                    lo = std::min(lo, v.toDouble());
                    hi = std::max(hi, v.toDouble());
                }
                const double mean = sum / double(values.size());
                const double x = attempt + (i - (names.size() - 1) / 2.0) * step;
                graph->addData(x, mean);
                minus.append(mean - lo);
                plus.append(hi - mean);
                extend(lo);
                extend(hi);
                countLabel(plot, x, hi, QString::number(values.size()), color);
                maxDepth = std::max(maxDepth, attempt);
                drawn += int(values.size());
            }
            bars->setData(minus, plus);
        }
        plot->xAxis->setRange(0.4, maxDepth + 0.6);
        auto *zero = new QCPItemStraightLine(plot);
        zero->point1->setCoords(0, 0);
        zero->point2->setCoords(1, 0);
        zero->setPen(QPen(guide, 1, Qt::DotLine));
        extend(0.0);
        break;
    }
    case Panel::Failures: {
        plot->xAxis->setLabel(QCoreApplication::translate("dreamrsi::WorldModelPlot", "Attempt depth"));
        FigureLayout::setIntegerAxis(plot->xAxis);
        plot->yAxis->setLabel(QCoreApplication::translate("dreamrsi::WorldModelPlot", "Failure rate"));
        auto *bars = new QCPBars(plot->xAxis, plot->yAxis);
        bars->setName(QCoreApplication::translate("dreamrsi::WorldModelPlot", "failure rate"));
        bars->setWidth(0.6);
        bars->setPen(QPen(PlotStyle::seriesColor(0).darker(130), 1.0));
        bars->setBrush(PlotStyle::seriesColor(0));
        int maxDepth = 0;
        for (const QJsonValue &fv : model.value(QLatin1String("failures")).toArray()) {
            const QJsonObject f = fv.toObject();
            const int attempt = f.value(QLatin1String("attempt")).toInt();
            const int trials = f.value(QLatin1String("trials")).toInt();
            const int failures = f.value(QLatin1String("failures")).toInt();
            // The rate the model draws with (its own depth's, or the fallback when too few trials).
            const double rate = f.value(QLatin1String("rate")).toDouble();
            bars->addData(attempt, rate);
            countLabel(plot, attempt, rate, QStringLiteral("%1/%2").arg(failures).arg(trials), ink);
            maxDepth = std::max(maxDepth, attempt);
            extend(rate);
            drawn += trials;
        }
        const QJsonObject deep = model.value(QLatin1String("failures_deep")).toObject();
        if (deep.value(QLatin1String("trials")).toInt() > 0) {
            auto *line = new QCPItemStraightLine(plot);
            line->point1->setCoords(0, deep.value(QLatin1String("rate")).toDouble());
            line->point2->setCoords(1, deep.value(QLatin1String("rate")).toDouble());
            line->setPen(QPen(guide, 1, Qt::DashLine));
            auto *label = new QCPItemText(plot);
            label->position->setType(QCPItemPosition::ptAxisRectRatio);
            label->position->setCoords(1.0, 0.0);
            label->setPositionAlignment(Qt::AlignTop | Qt::AlignRight);
            label->setPadding(QMargins(2, 2, 4, 2));
            label->setColor(guide);
            label->setText(QCoreApplication::translate("dreamrsi::WorldModelPlot", "dashed: depth ≥ 1, %1/%2 failed")
                               .arg(deep.value(QLatin1String("failures")).toInt())
                               .arg(deep.value(QLatin1String("trials")).toInt()));
            extend(deep.value(QLatin1String("rate")).toDouble());
        }
        plot->xAxis->setRange(-0.6, maxDepth + 0.6);
        extend(0.0);
        break;
    }
    }

    if (!std::isfinite(yMin)) {
        yMin = 0.0;
        yMax = 1.0;
    }
    const double span = yMax > yMin ? yMax - yMin : std::max(std::abs(yMax), 1.0) * 0.1;
    // Head room for the counts above the points.
    if (panel == Panel::Failures)
        plot->yAxis->setRange(0.0, std::max(0.1, yMax * 1.3)); // a rate: never a range of rounding noise
    else
        plot->yAxis->setRange(yMin - 0.06 * span, yMax + (panel == Panel::FirstScores ? 0.3 : 0.18) * span);
    plot->replot();
    return drawn;
}

} // namespace dreamrsi
