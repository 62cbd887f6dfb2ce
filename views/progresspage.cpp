#include "progresspage.h"

#include "progressplot.h"
#include "qcp.h"
#include "workspace.h"

#include <QLabel>
#include <QTimer>
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
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_hint);
    layout->addWidget(m_plot, 1);

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
}

void ProgressPage::scheduleRefresh()
{
    m_pending->start();
}

void ProgressPage::refresh()
{
    m_pending->stop();
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

} // namespace dreamrsi
