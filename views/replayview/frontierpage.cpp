#include "frontierpage.h"

#include "figures/figuredata.h"
#include "figures/figurelayout.h"
#include "figures/plotstyle.h"
#include "figures/qcp.h"
#include "models/workspace.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QSplitter>
#include <QVBoxLayout>

#include <algorithm>

namespace dreamrsi {

FrontierPage::FrontierPage(Workspace *workspace, QWidget *parent)
    : QWidget(parent)
    , m_workspace(workspace)
{
    auto *side = new QWidget;
    auto *sideLayout = new QVBoxLayout(side);
    sideLayout->setContentsMargins(0, 0, 0, 0);
    sideLayout->addWidget(new QLabel(tr("World:")));
    m_world = new QComboBox;
    sideLayout->addWidget(m_world);
    sideLayout->addWidget(new QLabel(tr("Policy versions:")));
    m_versions = new QListWidget;
    sideLayout->addWidget(m_versions, 1);
    auto *replay = new QPushButton(tr("Replay Checked Versions"));
    replay->setToolTip(tr("Run the β sweep of every checked version in every open world"));
    sideLayout->addWidget(replay);
    m_fullAxis = new QCheckBox(tr("Attainment axis from 0 to 1"));
    m_fullAxis->setObjectName(QStringLiteral("frontiersFullAxis"));
    m_fullAxis->setToolTip(tr("Unchecked, the attainment axis fits the points drawn, so frontiers close to 1 stay apart"));
    sideLayout->addWidget(m_fullAxis);
    m_hint = new QLabel;
    m_hint->setWordWrap(true);
    sideLayout->addWidget(m_hint);
    m_config = new QLabel;
    m_config->setObjectName(QStringLiteral("frontiersReplayConfig"));
    m_config->setWordWrap(true);
    sideLayout->addWidget(m_config);

    m_plot = new QCustomPlot;
    m_plot->setMinimumSize(300, 240);

    auto *splitter = new QSplitter;
    splitter->addWidget(side);
    splitter->addWidget(m_plot);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({260, 900});
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(splitter);

    connect(replay, &QPushButton::clicked, this, [this] { emit replayRequested(checkedVersions()); });
    connect(m_world, &QComboBox::currentIndexChanged, this, &FrontierPage::refresh);
    connect(m_fullAxis, &QCheckBox::toggled, this, &FrontierPage::refresh);
    connect(m_versions, &QListWidget::itemChanged, this, &FrontierPage::refresh);
    connect(workspace, &Workspace::versionsChanged, this, &FrontierPage::rebuildVersions);
    connect(workspace, &Workspace::worldsChanged, this, &FrontierPage::rebuildWorlds);
    connect(workspace, &Workspace::resultsChanged, this, [this](const QString &name) {
        // A fresh result of an unchecked version is what the researcher asked for: show it.
        for (int i = 0; i < m_versions->count(); ++i) {
            QListWidgetItem *item = m_versions->item(i);
            if (item->data(Qt::UserRole).toString() == name && m_workspace->result(name))
                item->setCheckState(Qt::Checked);
        }
        refresh();
    });
    connect(workspace, &Workspace::replayConfigChanged, this, &FrontierPage::updateConfigLabel);
    rebuildWorlds();
    rebuildVersions();
    updateConfigLabel();
}

void FrontierPage::updateConfigLabel()
{
    const std::optional<StoredReplayConfig> &config = m_workspace->replayConfig();
    m_config->setVisible(config.has_value());
    m_config->setText(config ? tr("Frontiers under the project's replay configuration: %1. Results under other "
                                  "configurations are listed on the Policies tab, not drawn here.")
                                   .arg(config->config.label())
                             : QString());
}

void FrontierPage::setDark(bool dark)
{
    m_dark = dark;
    refresh();
}

bool FrontierPage::fullAttainmentAxis() const
{
    return m_fullAxis->isChecked();
}

void FrontierPage::setFullAttainmentAxis(bool full)
{
    m_fullAxis->setChecked(full);
}

QStringList FrontierPage::checkedVersions() const
{
    QStringList names;
    for (int i = 0; i < m_versions->count(); ++i) {
        if (m_versions->item(i)->checkState() == Qt::Checked)
            names.append(m_versions->item(i)->data(Qt::UserRole).toString());
    }
    return names;
}

void FrontierPage::setChecked(const QStringList &versionNames)
{
    const QSignalBlocker blocker(m_versions);
    for (int i = 0; i < m_versions->count(); ++i) {
        QListWidgetItem *item = m_versions->item(i);
        item->setCheckState(versionNames.contains(item->data(Qt::UserRole).toString()) ? Qt::Checked : Qt::Unchecked);
    }
    refresh();
}

QString FrontierPage::currentWorld() const
{
    return m_world->currentData().toString();
}

void FrontierPage::setCurrentWorld(const QString &world)
{
    const int i = m_world->findData(world);
    if (i >= 0)
        m_world->setCurrentIndex(i);
}

void FrontierPage::rebuildVersions()
{
    const QStringList checked = checkedVersions();
    const QSignalBlocker blocker(m_versions);
    m_versions->clear();
    for (const PolicyVersion &v : m_workspace->versions()) {
        auto *item = new QListWidgetItem(v.name, m_versions);
        item->setData(Qt::UserRole, v.name);
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        item->setCheckState(checked.contains(v.name) || (checked.isEmpty() && m_workspace->result(v.name)) ? Qt::Checked
                                                                                                          : Qt::Unchecked);
    }
    refresh();
}

void FrontierPage::rebuildWorlds()
{
    const QString current = currentWorld();
    const QSignalBlocker blocker(m_world);
    m_world->clear();
    m_world->addItem(tr("Mean over all worlds"), QString());
    for (const WorldEntry &w : m_workspace->worlds())
        m_world->addItem(w.tree && w.tree->meta().approximate ? tr("%1 (approximate)").arg(w.name) : w.name, w.name);
    const int i = m_world->findData(current);
    m_world->setCurrentIndex(std::max(i, 0));
    refresh();
}

void FrontierPage::refresh()
{
    QList<FrontierSeries> series;
    for (int i = 0; i < m_versions->count(); ++i) {
        QListWidgetItem *item = m_versions->item(i);
        const QString name = item->data(Qt::UserRole).toString();
        const ReplayResultPtr r = m_workspace->result(name);
        item->setForeground(r ? PlotStyle::seriesColor(i) : palette().color(QPalette::Disabled, QPalette::Text));
        item->setToolTip(r ? QString() : tr("Not replayed yet"));
        // Colours follow the row so a version keeps its colour when others are unchecked.
        if (item->checkState() == Qt::Checked)
            series.append({name, r});
        else
            series.append({name, nullptr});
    }
    m_shown = PlotStyle::populateFrontier(m_plot, series, currentWorld(), m_dark,
                                          m_fullAxis->isChecked() ? PlotStyle::AttainmentAxis::Full : PlotStyle::AttainmentAxis::Fitted);
    if (m_workspace->worlds().isEmpty())
        m_hint->setText(tr("Open tree files or a project to have worlds to replay in."));
    else if (m_shown == 0)
        m_hint->setText(tr("Check versions and press “Replay Checked Versions” to compute their frontiers."));
    else
        m_hint->setText(tr("Shaded: the hypervolume each frontier dominates, in its version's colour (the largest behind). "
                           "Filled dots: non-dominated β points."));
    // Results over approximate worlds (imported runs with forks or orphans) are labelled.
    int approximate = 0;
    for (const FrontierSeries &s : std::as_const(series)) {
        if (!s.result)
            continue;
        approximate = std::max(approximate, int(std::count_if(s.result->worlds.cbegin(), s.result->worlds.cend(),
                                                                 [](const SweepResult &x) { return x.approximate; })));
    }
    if (approximate > 0 && m_shown > 0)
        m_hint->setText(m_hint->text() + QLatin1Char(' ')
                        + tr("Over %n approximate world(s) (imported runs with forks or orphans).", nullptr, approximate));
}

QString FrontierPage::figureName() const
{
    return tr("Frontiers");
}

FigureExport::Painter FrontierPage::figurePainter()
{
    if (m_workspace->worlds().isEmpty())
        return {};
    return FigureLayout::paperPainterFor(m_plot, m_dark, [this](bool dark) { setDark(dark); });
}

FigureTable FrontierPage::figureData() const
{
    QList<FrontierSeries> series;
    for (const QString &name : checkedVersions()) {
        if (const ReplayResultPtr r = m_workspace->result(name))
            series.append({name, r});
    }
    return FigureData::frontier(series);
}

} // namespace dreamrsi
