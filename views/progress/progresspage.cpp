#include "progresspage.h"

#include "figures/figuredata.h"
#include "figures/figurelayout.h"
#include "simulationplot.h"
#include "progressplot.h"
#include "simulationplot.h"
#include "figures/qcp.h"
#include "models/workspace.h"

#include <QComboBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QTimer>
#include <QJsonObject>
#include <QLocale>
#include <QVBoxLayout>

#include <algorithm>

namespace dreamrsi {

ProgressPage::ProgressPage(Workspace *workspace, QWidget *parent)
    : QWidget(parent)
    , m_workspace(workspace)
{
    m_hint = new QLabel;
    m_hint->setWordWrap(true);
    m_plot = new QCustomPlot;
    m_plot->setMinimumSize(300, 240);
    m_simulationPlot = new QCustomPlot;
    m_simulationPlot->setMinimumSize(300, 240);
    m_simulationPlot->hide();
    m_view = new QComboBox;
    m_view->setObjectName(QStringLiteral("progressView"));
    m_view->addItem(tr("This project's progress"));
    m_view->setToolTip(tr("The project's own iterations, or a simulated loop (Replay ▸ Simulate the Loop…)"));
    auto *top = new QHBoxLayout;
    top->addWidget(m_view);
    top->addWidget(m_hint, 1);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(top);
    layout->addWidget(m_plot, 1);
    layout->addWidget(m_simulationPlot, 1);
    connect(m_view, &QComboBox::currentIndexChanged, this, &ProgressPage::showView);

    m_pending = new QTimer(this);
    m_pending->setSingleShot(true);
    m_pending->setInterval(0);
    connect(m_pending, &QTimer::timeout, this, &ProgressPage::refresh);
    connect(workspace, &Workspace::worldsChanged, this, &ProgressPage::scheduleRefresh);
    connect(workspace, &Workspace::worldChanged, this, &ProgressPage::scheduleRefresh);
    connect(workspace, &Workspace::cellAppended, this, &ProgressPage::scheduleRefresh);
    connect(workspace, &Workspace::worldsCleared, this, &ProgressPage::scheduleRefresh);
    refresh();
}

void ProgressPage::setDark(bool dark)
{
    m_dark = dark;
    refresh();
    if (m_view->currentIndex() > 0)
        showView(m_view->currentIndex());
}

QCustomPlot *ProgressPage::plot() const
{
    return m_view->currentIndex() > 0 ? m_simulationPlot : m_plot;
}

QStringList ProgressPage::views() const
{
    QStringList out;
    for (int i = 0; i < m_view->count(); ++i)
        out.append(m_view->itemText(i));
    return out;
}

void ProgressPage::setProject(const QString &projectPath)
{
    // Runs kept in memory stay; the stored ones are those of the new project.
    QList<SimulationView> kept;
    for (const SimulationView &v : std::as_const(m_simulations)) {
        if (v.path.isEmpty())
            kept.append(v);
    }
    if (!projectPath.isEmpty()) {
        for (const StoredSimulation &s : ProjectSimulations::list(projectPath))
            kept.append({tr("Simulation of %1").arg(QLocale().toString(s.created.toLocalTime(), QLocale::ShortFormat)), s.path, {}});
    }
    m_simulations = kept;
    const QSignalBlocker block(m_view);
    m_view->clear();
    m_view->addItem(tr("This project's progress"));
    for (const SimulationView &v : std::as_const(m_simulations))
        m_view->addItem(v.label);
    showView(0);
}

void ProgressPage::showSimulation(const QString &label, const SimulationCurves &curves)
{
    m_simulations.append({label, QString(), curves});
    m_view->addItem(label);
    m_view->setCurrentIndex(m_view->count() - 1);
}

std::optional<SimulationCurves> ProgressPage::shownSimulation() const
{
    const int i = m_view->currentIndex() - 1;
    if (i < 0 || i >= m_simulations.size())
        return std::nullopt;
    return m_simulations.at(i).curves;
}

void ProgressPage::showView(int index)
{
    const bool simulation = index > 0 && index - 1 < m_simulations.size();
    m_plot->setVisible(!simulation);
    m_simulationPlot->setVisible(simulation);
    if (!simulation) {
        refresh();
        return;
    }
    SimulationView &v = m_simulations[index - 1];
    if (!v.curves) {
        const Result<SimulationCurves> read = ProjectSimulations::readCurves(v.path);
        if (!read.ok()) {
            m_simulationPlot->clearPlottables();
            m_simulationPlot->replot();
            m_hint->setText(tr("Cannot show this simulation: %1").arg(read.error));
            emit refreshed();
            return;
        }
        v.curves = read.value;
    }
    SimulationPlot::populate(m_simulationPlot, *v.curves, m_dark);
    QStringList parts;
    for (const SimulationArmCurve &c : std::as_const(v.curves->arms)) {
        const QJsonObject s = v.curves->summary.value(c.arm).toObject();
        parts.append(tr("%1: %2 calls per iteration, attainment %3")
                         .arg(SimulationPlot::armLabel(c.arm))
                         .arg(QString::number(s.value(QStringLiteral("calls_mean")).toDouble(), 'f', 1))
                         .arg(QString::number(s.value(QStringLiteral("attainment_mean")).toDouble(), 'f', 3)));
    }
    const QJsonObject reach = v.curves->summary.value(QStringLiteral("calls_to_reach_fixed_best")).toObject();
    if (reach.value(QStringLiteral("mean")).isDouble())
        parts.append(tr("Dream-RSI reaches fixed exploration's final best after %1 calls on average")
                         .arg(QString::number(reach.value(QStringLiteral("mean")).toDouble(), 'f', 1)));
    m_hint->setText(parts.join(QStringLiteral("; ")) + QLatin1Char('.'));
    emit refreshed();
}

void ProgressPage::scheduleRefresh()
{
    m_pending->start();
}

void ProgressPage::refresh()
{
    m_pending->stop();
    if (m_view->currentIndex() > 0)
        return; // a simulation is shown; the project's figure is redrawn when selected again
    // The project's iterations in the order the store made them (ids grow);
    // loose tree files are no part of the project's progress.
    QList<const WorldEntry *> iterations;
    for (const WorldEntry &w : m_workspace->worlds()) {
        if (w.iteration != 0 && w.tree)
            iterations.append(&w);
    }
    std::stable_sort(iterations.begin(), iterations.end(),
                     [](const WorldEntry *a, const WorldEntry *b) { return a->iteration < b->iteration; });
    QList<IterationData> data;
    for (const WorldEntry *w : std::as_const(iterations)) {
        IterationData d;
        d.info.id = w->iteration;
        d.info.task = w->tree->meta().task;
        d.cells = w->tree->cells();
        data.append(d);
    }
    // One curve per task: scores of different tasks are not comparable.
    m_curves = ProjectProgress::curvesByTask(QString(), data);
    if (m_curves.size() == 1)
        m_curves.first().label = tr("This project");
    ProgressPlot::populate(m_plot, m_curves, m_dark);
    if (m_curves.isEmpty())
        m_hint->setText(tr("Open a project with iterations to see its best score against cumulative agent calls."));
    else if (m_curves.size() == 1)
        m_hint->setText(tr("%n iteration(s), %1 agent calls, best score %2.", nullptr, int(m_curves.first().marks.size()))
                            .arg(m_curves.first().totalCalls)
                            .arg(m_curves.first().best ? QString::number(*m_curves.first().best, 'g', 6) : tr("none")));
    else
        m_hint->setText(tr("%n iteration(s) of %1 tasks, one curve per task.", nullptr, int(data.size())).arg(m_curves.size()));
    emit refreshed();
}

QString ProgressPage::figureName() const
{
    return tr("Progress");
}

FigureExport::Painter ProgressPage::figurePainter()
{
    if (m_curves.isEmpty() && !shownSimulation())
        return {};
    return FigureLayout::paperPainterFor(plot(), m_dark, [this](bool dark) { setDark(dark); });
}

FigureTable ProgressPage::figureData() const
{
    if (const std::optional<SimulationCurves> simulation = shownSimulation())
        return SimulationPlot::data(*simulation);
    return FigureData::progress(m_curves);
}

} // namespace dreamrsi
