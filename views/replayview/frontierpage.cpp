#include "frontierpage.h"

#include "figures/figuredata.h"
#include "figures/figurelayout.h"
#include "figures/plotstyle.h"
#include "figures/qcp.h"
#include "models/reevaluationsummary.h"
#include "models/workspace.h"

#include <QCheckBox>
#include <QComboBox>
#include <QEvent>
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
    m_plot->installEventFilter(this); // the legend's columns follow the width

    // Under the plot: what re-evaluation says of the shown worlds' best cells.
    m_reevaluation = new QLabel;
    m_reevaluation->setObjectName(QStringLiteral("frontiersReevaluation"));
    m_reevaluation->setWordWrap(true);
    m_reevaluation->setVisible(false);
    auto *plotSide = new QWidget;
    auto *plotLayout = new QVBoxLayout(plotSide);
    plotLayout->setContentsMargins(0, 0, 0, 0);
    plotLayout->addWidget(m_plot, 1);
    plotLayout->addWidget(m_reevaluation);

    auto *splitter = new QSplitter;
    splitter->addWidget(side);
    splitter->addWidget(plotSide);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({260, 900});
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(splitter);

    connect(replay, &QPushButton::clicked, this, [this] { emit replayRequested(checkedVersions()); });
    connect(m_world, &QComboBox::currentIndexChanged, this, &FrontierPage::refresh);
    connect(m_fullAxis, &QCheckBox::toggled, this, &FrontierPage::refresh);
    connect(m_versions, &QListWidget::itemChanged, this, [this] {
        // A tick changed by hand: the researcher's choice from now on.
        if (checkedVersions() != m_lastChecked)
            m_defaultTicks = false;
        refresh();
    });
    connect(workspace, &Workspace::versionsChanged, this, &FrontierPage::rebuildVersions);
    connect(workspace, &Workspace::versionsCleared, this, [this] {
        // Another project: its own default ticks.
        m_defaultTicks = true;
        m_proposal.clear();
        m_expected.clear();
    });
    connect(workspace, &Workspace::worldsChanged, this, &FrontierPage::rebuildWorlds);
    connect(workspace, &Workspace::resultsChanged, this, [this](const QString &name) {
        if (m_defaultTicks)
            return applyTicks(defaultVersions());
        // A fresh result of a replay the researcher asked for: show it. A
        // dream's many results are not ticked one by one (showDream()).
        if (m_expected.remove(name) && m_workspace->result(name)) {
            for (int i = 0; i < m_versions->count(); ++i) {
                QListWidgetItem *item = m_versions->item(i);
                if (item->data(Qt::UserRole).toString() == name) {
                    const QSignalBlocker blocker(m_versions);
                    item->setCheckState(Qt::Checked);
                }
            }
        }
        refresh();
    });
    connect(workspace, &Workspace::replayConfigChanged, this, &FrontierPage::updateConfigLabel);
    connect(workspace, &Workspace::reevaluationsChanged, this, &FrontierPage::updateReevaluationNote);
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
    m_defaultTicks = false;
    applyTicks(versionNames);
}

void FrontierPage::applyTicks(const QStringList &versionNames)
{
    {
        const QSignalBlocker blocker(m_versions);
        for (int i = 0; i < m_versions->count(); ++i) {
            QListWidgetItem *item = m_versions->item(i);
            item->setCheckState(versionNames.contains(item->data(Qt::UserRole).toString()) ? Qt::Checked : Qt::Unchecked);
        }
    }
    refresh();
}

QStringList FrontierPage::defaultVersions() const
{
    // The deployed version: the newest approval's, else the built-in a round
    // runs without one (docs/online.md, "Approval").
    QStringList names;
    const PolicyVersionId deployed = m_workspace->deployedVersion();
    for (const PolicyVersion &v : m_workspace->versions()) {
        if (deployed != 0 ? v.id == deployed : v.name == QLatin1String("builtin:portfolio")) {
            names.append(v.name);
            break;
        }
    }
    if (!m_proposal.isEmpty() && m_workspace->indexOfVersion(m_proposal) >= 0 && !names.contains(m_proposal))
        names.append(m_proposal);
    // The best few by mean value over the open worlds.
    QList<std::pair<double, QString>> valued;
    for (const PolicyVersion &v : m_workspace->versions()) {
        if (const ReplayResultPtr r = m_workspace->result(v.name); r && r->value)
            valued.append({*r->value, v.name});
    }
    std::stable_sort(valued.begin(), valued.end(), [](const auto &a, const auto &b) { return a.first > b.first; });
    int added = 0;
    for (const auto &[value, name] : std::as_const(valued)) {
        if (added == BestFew)
            break;
        if (!names.contains(name)) {
            names.append(name);
            ++added;
        }
    }
    return names;
}

void FrontierPage::showDream(const QString &proposal)
{
    m_proposal = proposal;
    m_defaultTicks = true;
    applyTicks(defaultVersions());
}

void FrontierPage::expectResult(const QString &versionName)
{
    m_expected.insert(versionName);
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
    const QStringList checked = m_defaultTicks ? defaultVersions() : checkedVersions();
    {
        const QSignalBlocker blocker(m_versions);
        m_versions->clear();
        for (const PolicyVersion &v : m_workspace->versions()) {
            auto *item = new QListWidgetItem(v.name, m_versions);
            item->setData(Qt::UserRole, v.name);
            item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
            item->setCheckState(checked.contains(v.name) ? Qt::Checked : Qt::Unchecked);
        }
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
    m_lastChecked = checkedVersions();
    QList<FrontierSeries> series;
    int unvalued = 0; // checked, without a value under the configuration: not drawn
    const QSignalBlocker blocker(m_versions); // colours, texts and tooltips are not the researcher's ticks
    for (int i = 0; i < m_versions->count(); ++i) {
        QListWidgetItem *item = m_versions->item(i);
        const QString name = item->data(Qt::UserRole).toString();
        const ReplayResultPtr r = valuedResult(name);
        item->setForeground(r ? PlotStyle::seriesColor(i) : palette().color(QPalette::Disabled, QPalette::Text));
        item->setText(r ? name : tr("%1 (not valued under this configuration)").arg(name));
        item->setToolTip(r ? QString() : notValuedReason(name));
        // Colours follow the row so a version keeps its colour when others are unchecked.
        const bool checked = item->checkState() == Qt::Checked;
        unvalued += checked && !r ? 1 : 0;
        series.append({name, checked ? r : nullptr});
    }
    m_shown = PlotStyle::populateFrontier(m_plot, series, currentWorld(), m_dark,
                                          m_fullAxis->isChecked() ? PlotStyle::AttainmentAxis::Full : PlotStyle::AttainmentAxis::Fitted);
    placeLegend();
    if (m_workspace->worlds().isEmpty())
        m_hint->setText(tr("Open tree files or a project to have worlds to replay in."));
    else if (m_shown == 0)
        m_hint->setText(tr("Check versions and press “Replay Checked Versions” to compute their frontiers."));
    else
        m_hint->setText(tr("Shaded: the hypervolume each frontier dominates, in its version's colour (the largest behind). "
                           "Filled dots: non-dominated β points."));
    if (unvalued > 0 && !m_workspace->worlds().isEmpty())
        m_hint->setText(m_hint->text() + QLatin1Char(' ')
                        + tr("%n checked version(s) without a value under this configuration: no frontier is drawn for "
                             "them until they are replayed.",
                             nullptr, unvalued));
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
    updateReevaluationNote();
}

void FrontierPage::updateReevaluationNote()
{
    // The world shown, or every world of the mean (docs/online.md#re-evaluating-the-best).
    const QString shown = currentWorld();
    QStringList lines;
    bool lucky = false;
    for (const WorldEntry &w : m_workspace->worlds()) {
        if (w.iteration <= 0 || !w.tree || (!shown.isEmpty() && w.name != shown))
            continue;
        const QList<ReevaluationStats> stats = m_workspace->reevaluations(w.iteration);
        if (const QString note = ReevaluationSummary::frontierNote(w.name, *w.tree, stats); !note.isEmpty())
            lines.append(note.toHtmlEscaped());
        const int best = w.tree->bestCellIndex();
        for (const ReevaluationStats &s : stats)
            lucky = lucky || (s.lucky && best >= 0 && s.cellId == w.tree->cells().at(best).id);
    }
    if (lucky)
        lines.append(QStringLiteral("<i>%1</i>").arg(tr("Attainments are measured against each world's recorded best: "
                                                        "a lucky best makes them all look lower.").toHtmlEscaped()));
    m_reevaluation->setText(lines.join(QStringLiteral("<br>")));
    m_reevaluation->setVisible(!lines.isEmpty());
}

QString FrontierPage::reevaluationNote() const
{
    return m_reevaluation->text();
}

bool FrontierPage::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_plot && event->type() == QEvent::Resize)
        placeLegend();
    return QWidget::eventFilter(watched, event);
}

void FrontierPage::placeLegend()
{
    // Above the plot, never over it: as many columns as the width takes.
    QCPLegend *legend = m_plot->legend;
    if (legend->layout() != m_plot->plotLayout()) {
        if (auto *inset = qobject_cast<QCPLayoutInset *>(legend->layout()))
            inset->take(legend);
        m_plot->plotLayout()->insertRow(0);
        m_plot->plotLayout()->addElement(0, 0, legend);
        m_plot->plotLayout()->setRowSpacing(0);
        m_plot->plotLayout()->setRowStretchFactor(0, 0.001);
    }
    legend->setVisible(m_shown > 0);
    int widest = 1;
    for (int i = 0; i < legend->itemCount(); ++i)
        widest = std::max(widest, legend->item(i)->minimumOuterSizeHint().width() + legend->columnSpacing());
    const int columns = std::clamp((m_plot->width() - 16) / widest, 1, std::max(1, legend->itemCount()));
    legend->setWrap(columns);
    legend->setFillOrder(QCPLayoutGrid::foColumnsFirst, true);
    m_plot->replot();
}

bool FrontierPage::legendOutsidePlot() const
{
    return m_plot->legend->layout() == m_plot->plotLayout()
           && !m_plot->axisRect()->outerRect().intersects(m_plot->legend->outerRect());
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
        if (const ReplayResultPtr r = valuedResult(name))
            series.append({name, r});
    }
    return FigureData::frontier(series);
}

ReplayResultPtr FrontierPage::valuedResult(const QString &versionName) const
{
    // A result without a value (replayed on part of the worlds, or with a
    // policy error) has no frontier to compare: the caption's rule.
    const ReplayResultPtr r = m_workspace->result(versionName);
    return r && r->value ? r : nullptr;
}

QString FrontierPage::notValuedReason(const QString &versionName) const
{
    const ReplayResultPtr r = m_workspace->result(versionName);
    if (!r)
        return tr("Not replayed yet");
    if (!r->ok())
        return tr("No value: %1").arg(r->firstError());
    return tr("Replayed on %1 of the %2 worlds under this configuration, so it has no value and no frontier here; "
              "replay it to value it")
        .arg(m_workspace->worldsReplayed(*r))
        .arg(m_workspace->worlds().size());
}

} // namespace dreamrsi
