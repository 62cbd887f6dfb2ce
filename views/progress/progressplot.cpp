#include "progressplot.h"

#include "figures/figurelayout.h"
#include "figures/plotstyle.h"
#include "figures/qcp.h"

#include <QCoreApplication>
#include <QHash>
#include <QMap>

#include <algorithm>
#include <cmath>
#include <limits>

namespace dreamrsi {

namespace {
QString plotNumber(double v)
{
    return QString::number(v, 'g', 6);
}
} // namespace

bool ProgressPlot::mixesTasks(const QList<ProgressCurve> &curves)
{
    QStringList tasks;
    for (const ProgressCurve &c : curves) {
        if (!c.task.isEmpty() && !tasks.contains(c.task))
            tasks.append(c.task);
    }
    return tasks.size() > 1;
}

double ProgressPlot::attainment(double best, double taskBest, double first)
{
    if (taskBest > 0)
        return std::clamp(best / taskBest, 0.0, 1.0);
    return taskBest > first ? std::clamp((best - first) / (taskBest - first), 0.0, 1.0) : 1.0;
}

int ProgressPlot::populate(QCustomPlot *plot, const QList<ProgressCurve> &curves, bool dark)
{
    // Tasks on scales of their own share one axis as attainment.
    const bool perTask = mixesTasks(curves);
    QHash<QString, double> taskBest;
    for (const ProgressCurve &c : curves) {
        if (c.best)
            taskBest[c.task] = taskBest.contains(c.task) ? std::max(taskBest.value(c.task), *c.best) : *c.best;
    }
    auto yOf = [&](const ProgressCurve &c, double best) {
        return perTask && !c.points.isEmpty() ? attainment(best, taskBest.value(c.task, best), c.points.first().best) : best;
    };
    plot->clearPlottables();
    plot->clearItems();
    PlotStyle::applyTheme(plot, dark);
    plot->xAxis->setLabel(QCoreApplication::translate("dreamrsi::ProgressPlot", "Cumulative agent calls"));
    FigureLayout::setShortLabel(plot->xAxis, QCoreApplication::translate("dreamrsi::ProgressPlot", "Agent calls"));
    FigureLayout::setIntegerAxis(plot->xAxis);
    if (perTask) {
        plot->yAxis->setLabel(QCoreApplication::translate("dreamrsi::ProgressPlot", "Attainment (best so far / task's best)"));
        FigureLayout::setShortLabel(plot->yAxis, QCoreApplication::translate("dreamrsi::ProgressPlot", "Attainment"));
    } else {
        plot->yAxis->setLabel(QCoreApplication::translate("dreamrsi::ProgressPlot", "Best score so far"));
        FigureLayout::setShortLabel(plot->yAxis, QCoreApplication::translate("dreamrsi::ProgressPlot", "Best score"));
    }
    if (FigureLayout::isIntegerAxis(plot->yAxis))
        plot->yAxis->setTicker(QSharedPointer<QCPAxisTicker>::create());
    plot->legend->setVisible(true);
    plot->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignBottom | Qt::AlignRight);

    qint64 xMax = 1;
    double yMin = std::numeric_limits<double>::infinity();
    double yMax = -std::numeric_limits<double>::infinity();
    int withScore = 0;
    // Iteration starts by position on the calls axis: runs with the same
    // budgets share their lines, and one label names the iteration.
    QMap<qint64, QStringList> starts;
    QMap<qint64, QList<int>> startRuns; // which runs start an iteration there
    for (int i = 0; i < curves.size(); ++i) {
        const ProgressCurve &c = curves.at(i);
        const QColor color = PlotStyle::seriesColor(i);
        xMax = std::max(xMax, c.totalCalls);
        auto *graph = new QCPGraph(plot->xAxis, plot->yAxis);
        graph->setName(c.label);
        graph->setLineStyle(QCPGraph::lsStepLeft);
        graph->setPen(QPen(color, 2.0));
        for (const ProgressPoint &p : c.points) {
            const double y = yOf(c, p.best);
            graph->addData(double(p.calls), y);
            yMin = std::min(yMin, y);
            yMax = std::max(yMax, y);
        }
        withScore += c.best.has_value();
        // Where each iteration ends: a marker on the curve.
        auto *ends = new QCPGraph(plot->xAxis, plot->yAxis);
        ends->removeFromLegend();
        ends->setLineStyle(QCPGraph::lsNone);
        ends->setScatterStyle(QCPScatterStyle(i % 2 ? QCPScatterStyle::ssSquare : QCPScatterStyle::ssCircle, color,
                                              dark ? QColor(Qt::black) : QColor(Qt::white), 6));
        for (const IterationMark &m : c.marks) {
            if (m.bestAfter)
                ends->addData(double(m.startCalls + m.calls), yOf(c, *m.bestAfter));
            QStringList &names = starts[m.startCalls];
            // Each task's run counts its iterations from 1: mixed, the project's numbers tell them apart.
            const QString name = QString::number(perTask && m.iteration != 0 ? m.iteration : m.index);
            if (!names.contains(name))
                names.append(name);
            if (!startRuns[m.startCalls].contains(i))
                startRuns[m.startCalls].append(i);
        }
    }
    const QColor guide = dark ? QColor(170, 170, 170) : QColor(110, 110, 110);
    // Runs whose iteration starts a call or two apart would print the same
    // label twice, one over the other: the first label names both (grey).
    const double near = std::max(1.0, 0.04 * double(xMax));
    QCPItemText *lastLabel = nullptr;
    qint64 lastStart = 0;
    for (auto it = starts.cbegin(); it != starts.cend(); ++it) {
        // A start only one run has takes that run's colour; shared ones stay grey.
        const QList<int> runs = startRuns.value(it.key());
        const QColor color = runs.size() == 1 && curves.size() > 1 ? PlotStyle::seriesColor(runs.first()) : guide;
        if (it.key() > 0) {
            auto *line = new QCPItemStraightLine(plot);
            line->point1->setCoords(double(it.key()), 0);
            line->point2->setCoords(double(it.key()), 1);
            line->setPen(QPen(color, 1, Qt::DotLine));
        }
        const QString text = QCoreApplication::translate("dreamrsi::ProgressPlot", "it. %1").arg(it.value().join(QLatin1Char('/')));
        if (lastLabel && lastLabel->text() == text && double(it.key() - lastStart) < near) {
            lastLabel->setColor(guide);
            continue;
        }
        auto *label = new QCPItemText(plot);
        lastLabel = label;
        lastStart = it.key();
        label->setClipToAxisRect(true);
        label->position->setTypeX(QCPItemPosition::ptPlotCoords);
        label->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
        label->position->setCoords(double(it.key()), 0.0);
        label->setPositionAlignment(Qt::AlignTop | Qt::AlignLeft);
        label->setPadding(QMargins(3, 2, 3, 2));
        label->setColor(color);
        label->setText(text);
    }
    plot->xAxis->setRange(0, double(xMax));
    if (withScore == 0) {
        plot->yAxis->setRange(0, 1);
    } else {
        // Fitted to the curves, attainment too (its curves often all lie
        // above 0.8): head room above the best for the iteration labels.
        const double flat = perTask ? 0.05 : std::max(std::abs(yMax), 1.0) * 0.1;
        const double span = yMax > yMin ? yMax - yMin : flat;
        plot->yAxis->setRange(yMin - 0.08 * span, yMax + 0.25 * span);
    }
    PlotStyle::keepLegendClear(plot);
    plot->replot();
    return withScore;
}

FigureTable ProgressPlot::table(const QList<ProgressCurve> &curves)
{
    FigureTable t;
    t.header = {QCoreApplication::translate("dreamrsi::ProgressPlot", "Run"), QCoreApplication::translate("dreamrsi::ProgressPlot", "Iterations"), QCoreApplication::translate("dreamrsi::ProgressPlot", "Agent calls"), QCoreApplication::translate("dreamrsi::ProgressPlot", "Best score"), QCoreApplication::translate("dreamrsi::ProgressPlot", "Calls to reach it")};
    for (const ProgressCurve &c : curves) {
        QString best = QStringLiteral("–"), reached = QStringLiteral("–");
        if (c.best) {
            best = plotNumber(*c.best);
            for (const ProgressPoint &p : c.points) {
                if (p.best == *c.best) {
                    reached = QString::number(p.calls);
                    break;
                }
            }
        }
        t.rows.append({c.label, QString::number(c.marks.size()), QString::number(c.totalCalls), best, reached});
    }
    return t;
}

} // namespace dreamrsi
