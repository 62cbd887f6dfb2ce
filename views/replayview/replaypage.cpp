#include "replaypage.h"

#include <algorithm>

#include "figures/figuredata.h"
#include "figures/figurelayout.h"
#include "session/jobtracker.h"
#include "figures/plotstyle.h"
#include "figures/qcp.h"
#include "session/replayjobs.h"
#include "tree/treeview.h"
#include "models/workspace.h"

#include <QComboBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QSlider>
#include <QSplitter>
#include <QStyle>
#include <QToolButton>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

namespace dreamrsi {

namespace {
const QString TrackerScope = QStringLiteral("replay page");

// The re-evaluated cells' intervals on an episode's curve, when `tree` is a
// project iteration's world with re-evaluations (docs/online.md#re-evaluating-the-best).
QList<AnytimeInterval> intervalsOf(const Workspace &workspace, const std::shared_ptr<const DiscoveryTree> &tree,
                                   const EpisodeResult &episode)
{
    if (!tree)
        return {};
    for (const WorldEntry &w : workspace.worlds()) {
        if (w.tree == tree && w.iteration > 0)
            return PlotStyle::anytimeIntervals(episode, *tree, workspace.reevaluations(w.iteration));
    }
    return {};
}
} // namespace

ReplayPage::ReplayPage(Workspace *workspace, QWidget *parent)
    : QWidget(parent)
    , m_workspace(workspace)
    , m_tracker(new JobTracker(this))
{
    m_config.valuation = Valuation::Revealed; // the loose files' defaults until told
    auto *controls = new QHBoxLayout;
    m_world = new QComboBox;
    m_world->setMinimumContentsLength(14);
    m_beta = new QComboBox;
    for (int s = 0; s < 2; ++s) {
        m_version[s] = new QComboBox;
        m_version[s]->setMinimumContentsLength(16);
    }
    controls->addWidget(new QLabel(tr("World:")));
    controls->addWidget(m_world, 1);
    controls->addWidget(new QLabel(tr("β:")));
    controls->addWidget(m_beta);
    controls->addWidget(new QLabel(tr("A:")));
    controls->addWidget(m_version[0], 1);
    controls->addWidget(new QLabel(tr("B:")));
    controls->addWidget(m_version[1], 1);
    auto tool = [this](QStyle::StandardPixmap icon, const QString &tip) {
        auto *b = new QToolButton;
        b->setIcon(style()->standardIcon(icon));
        b->setToolTip(tip);
        b->setAutoRaise(true);
        return b;
    };
    m_restart = tool(QStyle::SP_MediaSkipBackward, tr("Back to the first round (Home)"));
    m_back = tool(QStyle::SP_MediaSeekBackward, tr("One round back (Left)"));
    m_playButton = tool(QStyle::SP_MediaPlay, tr("Play (Space)"));
    m_forward = tool(QStyle::SP_MediaSeekForward, tr("One round forward (Right)"));
    m_back->setShortcut(QKeySequence(Qt::Key_Left));
    m_forward->setShortcut(QKeySequence(Qt::Key_Right));
    m_playButton->setShortcut(QKeySequence(Qt::Key_Space));
    m_restart->setShortcut(QKeySequence(Qt::Key_Home));
    m_speed = new QSlider(Qt::Horizontal);
    m_speed->setRange(1, 20);
    m_speed->setValue(4);
    m_speed->setMinimumWidth(90);
    m_speed->setMaximumWidth(140);
    m_speed->setToolTip(tr("Playback speed (rounds per second)"));
    m_roundLabel = new QLabel;
    m_roundLabel->setMinimumWidth(120);
    // Playback on a line of its own, so the page fits a narrow window.
    auto *playback = new QHBoxLayout;
    playback->addWidget(m_restart);
    playback->addWidget(m_back);
    playback->addWidget(m_playButton);
    playback->addWidget(m_forward);
    playback->addSpacing(8);
    playback->addWidget(new QLabel(tr("Speed:")));
    playback->addWidget(m_speed);
    playback->addSpacing(8);
    playback->addWidget(m_roundLabel, 1);

    auto *trees = new QWidget;
    auto *grid = new QGridLayout(trees);
    grid->setContentsMargins(0, 0, 0, 0);
    for (int s = 0; s < 2; ++s) {
        m_sideLabel[s] = new QLabel;
        m_sideLabel[s]->setTextFormat(Qt::RichText);
        m_views[s] = new TreeView;
        m_views[s]->setLegendVisible(false);
        grid->addWidget(m_sideLabel[s], 0, s);
        grid->addWidget(m_views[s], 1, s);
        connect(m_views[s], &TreeView::cellActivated, this, [this, s](int cell) { emit cellActivated(s, cell); });
    }
    grid->setRowStretch(1, 1);
    m_plot = new QCustomPlot;
    m_plot->setMinimumHeight(120); // low enough that the trees keep the height beside the Live Round dock
    // At that height the y axis has room for a few labels only: one tick per
    // 30 px of the axis, so its labels never run together.
    connect(m_plot, &QCustomPlot::beforeReplot, this, [this] {
        m_plot->yAxis->ticker()->setTickCount(std::clamp(m_plot->axisRect()->height() / 30, 2, 5));
    });
    auto *splitter = new QSplitter(Qt::Vertical);
    splitter->addWidget(trees);
    splitter->addWidget(m_plot);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 1);
    // The plot's size hint is small; start it at a quarter of the page, where
    // its axis titles and a few ticks fit (the Live Round dock may take it down to 120 px).
    splitter->setSizes({750, 250});

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(controls);
    layout->addLayout(playback);
    layout->addWidget(splitter, 1);

    m_debounce.setSingleShot(true);
    m_debounce.setInterval(150);
    connect(&m_debounce, &QTimer::timeout, this, &ReplayPage::run);
    connect(&m_play, &QTimer::timeout, this, [this] {
        stepForward();
        if (m_position >= roundCount() && m_play.isActive())
            togglePlay(); // the last round is shown: ▶ again at once
    });
    connect(m_speed, &QSlider::valueChanged, this, [this](int perSecond) { m_play.setInterval(1000 / perSecond); });
    m_play.setInterval(1000 / m_speed->value());
    connect(m_back, &QToolButton::clicked, this, &ReplayPage::stepBack);
    connect(m_forward, &QToolButton::clicked, this, &ReplayPage::stepForward);
    connect(m_playButton, &QToolButton::clicked, this, &ReplayPage::togglePlay);
    connect(m_restart, &QToolButton::clicked, this, &ReplayPage::restart);
    for (QComboBox *box : {m_world, m_beta, m_version[0], m_version[1]})
        connect(box, &QComboBox::currentIndexChanged, this, &ReplayPage::scheduleRun);
    connect(workspace, &Workspace::worldsChanged, this, &ReplayPage::rebuildChoices);
    connect(workspace, &Workspace::versionsChanged, this, &ReplayPage::rebuildChoices);
    connect(workspace, &Workspace::reevaluationsChanged, this, &ReplayPage::showPosition);
    rebuildChoices();
}

ReplayPage::~ReplayPage()
{
    if (m_cancelRun)
        m_cancelRun->store(true); // no child outlives the page
}

void ReplayPage::setPreferences(const Preferences *preferences)
{
    if (m_preferences)
        disconnect(m_preferences, nullptr, this, nullptr);
    m_preferences = preferences;
    auto showSpeed = [this](int intervalMs) { m_speed->setValue(std::clamp(1000 / std::max(intervalMs, 1), 1, 20)); };
    showSpeed(Preferences::of(preferences).playIntervalMs);
    scheduleRun();
    if (!preferences)
        return;
    connect(preferences, &Preferences::playIntervalChanged, this, showSpeed);
    connect(preferences, &Preferences::scriptLimitsChanged, this, &ReplayPage::scheduleRun);
}

void ReplayPage::setReplayConfig(const ReplayConfig &config)
{
    m_config = config;
    const double current = beta();
    const QSignalBlocker blocker(m_beta);
    m_beta->clear();
    for (double b : config.betas)
        m_beta->addItem(QString::number(b), b);
    const int i = m_beta->findData(current);
    m_beta->setCurrentIndex(i >= 0 ? i : 0);
    scheduleRun();
}

void ReplayPage::setDark(bool dark)
{
    m_dark = dark;
    for (TreeView *v : m_views)
        v->setDarkPalette(dark);
    showPosition();
}

double ReplayPage::beta() const
{
    return m_beta->currentIndex() >= 0 ? m_beta->currentData().toDouble() : 0.5;
}

QString ReplayPage::versionName(int side) const
{
    return m_version[side]->currentText();
}

int ReplayPage::roundCount() const
{
    return std::max(m_state[0].roundCount(), m_state[1].roundCount());
}

void ReplayPage::rebuildChoices()
{
    const QString world = m_world->currentText();
    const QString a = m_version[0]->currentText();
    const QString b = m_version[1]->currentText();
    {
        const QSignalBlocker b1(m_world), b2(m_version[0]), b3(m_version[1]);
        m_world->clear();
        for (const WorldEntry &w : m_workspace->worlds()) {
            m_world->addItem(w.name);
            // Stepped only when chosen: an approximate world (imported, with forks or orphans) says so.
            if (w.tree && w.tree->meta().approximate)
                m_world->setItemData(m_world->count() - 1,
                                     tr("An approximate world: an imported run whose forks replay as new ideas"),
                                     Qt::ToolTipRole);
        }
        for (int s = 0; s < 2; ++s) {
            m_version[s]->clear();
            for (const PolicyVersion &v : m_workspace->versions())
                m_version[s]->addItem(v.name);
        }
        m_world->setCurrentIndex(std::max(0, m_world->findText(world)));
        m_version[0]->setCurrentIndex(std::max(0, m_version[0]->findText(a)));
        int ib = m_version[1]->findText(b);
        if (ib < 0 || (ib == m_version[0]->currentIndex() && m_version[1]->count() > 1))
            ib = m_version[0]->currentIndex() == 0 ? std::min(1, m_version[1]->count() - 1) : 0;
        m_version[1]->setCurrentIndex(ib);
    }
    if (m_beta->count() == 0)
        setReplayConfig(m_config);
    scheduleRun();
}

void ReplayPage::compare(const QString &world, const QString &versionA, const QString &versionB, double b)
{
    const QSignalBlocker b1(m_world), b2(m_version[0]), b3(m_version[1]), b4(m_beta);
    m_world->setCurrentIndex(std::max(0, m_world->findText(world)));
    m_version[0]->setCurrentIndex(std::max(0, m_version[0]->findText(versionA)));
    m_version[1]->setCurrentIndex(std::max(0, m_version[1]->findText(versionB)));
    int bi = m_beta->findData(b);
    if (bi < 0) {
        m_beta->addItem(QString::number(b), b);
        bi = m_beta->count() - 1;
    }
    m_beta->setCurrentIndex(bi);
    run();
}

void ReplayPage::scheduleRun()
{
    m_debounce.start();
}

void ReplayPage::run()
{
    m_debounce.stop();
    if (m_play.isActive())
        togglePlay();
    m_tracker->renew(TrackerScope);
    if (m_cancelRun)
        m_cancelRun->store(true); // the children of the run before are killed; their answers are stale
    m_cancelRun = std::make_shared<std::atomic_bool>(false);
    const int w = m_workspace->indexOfWorld(m_world->currentText());
    for (int s = 0; s < 2; ++s) {
        m_state[s] = StepperState();
        m_views[s]->setTree(w >= 0 ? m_workspace->worlds().at(w).tree : nullptr);
    }
    m_position = 0;
    m_pending = 0;
    if (w < 0) {
        showPosition();
        return;
    }
    const WorldEntry world = m_workspace->worlds().at(w);
    int versionRow[2];
    for (int s = 0; s < 2; ++s) {
        versionRow[s] = m_workspace->indexOfVersion(m_version[s]->currentText());
        if (versionRow[s] >= 0)
            ++m_pending; // counted first: a side that fails at once must not look like the last one
    }
    for (int s = 0; s < 2; ++s) {
        const int v = versionRow[s];
        if (v < 0)
            continue;
        const VersionReplayJob job = ReplayJobs::tracedEpisodeJob({world.name, world.tree}, m_workspace->versions().at(v),
                                                                  beta(), m_config, Preferences::of(m_preferences));
        QFuture<std::shared_ptr<const EpisodeResult>> episode = QtConcurrent::run(ReplayJobs::pool(), [job, cancel = m_cancelRun] {
            const SandboxedReplayOutcome outcome = VersionReplay::run(job, {}, cancel.get());
            if (outcome.output)
                return ReplayJobs::tracedEpisodeOf(*outcome.output);
            // A child that failed or could not start shows as that side's error.
            auto failed = std::make_shared<EpisodeResult>();
            failed->error = outcome.error;
            return std::shared_ptr<const EpisodeResult>(failed);
        });
        // Applied only while this run is the newest: the choices may change meanwhile.
        m_tracker->then(TrackerScope, episode, this, [this, s, tree = world.tree](std::shared_ptr<const EpisodeResult> e) {
            m_state[s] = StepperState(tree, std::move(e));
            m_state[s].seek(m_position);
            if (--m_pending == 0)
                emit episodesReady();
            showPosition();
        });
    }
    showPosition();
}

void ReplayPage::stepForward()
{
    if (m_position >= roundCount())
        return;
    ++m_position;
    for (StepperState &s : m_state)
        s.seek(m_position);
    showPosition();
}

void ReplayPage::stepBack()
{
    if (m_position <= 0)
        return;
    --m_position;
    for (StepperState &s : m_state)
        s.seek(m_position);
    showPosition();
}

void ReplayPage::restart()
{
    m_position = 0;
    for (StepperState &s : m_state)
        s.seek(0);
    showPosition();
}

void ReplayPage::togglePlay()
{
    if (m_play.isActive()) {
        m_play.stop();
    } else {
        if (m_position >= roundCount())
            restart();
        if (roundCount() > 0)
            m_play.start();
    }
    m_playButton->setIcon(style()->standardIcon(m_play.isActive() ? QStyle::SP_MediaPause : QStyle::SP_MediaPlay));
    m_playButton->setToolTip(m_play.isActive() ? tr("Pause (Space)") : tr("Play (Space)"));
}

void ReplayPage::showPosition()
{
    QList<AnytimeSeries> curves;
    int cells = 0;
    for (int s = 0; s < 2; ++s) {
        const StepperState &st = m_state[s];
        const QString name = m_version[s]->currentText();
        QString text = QStringLiteral("<b>%1</b> %2").arg(s == 0 ? QStringLiteral("A") : QStringLiteral("B"), name.toHtmlEscaped());
        if (st.isValid()) {
            m_views[s]->setOverlay(st.overlay());
            const EpisodeResult &e = *st.episode();
            text += QStringLiteral(" — ") + tr("round %1/%2, %3 calls, attainment %4")
                                                .arg(st.position())
                                                .arg(st.roundCount())
                                                .arg(st.calls())
                                                .arg(st.attainment(), 0, 'f', 3);
            if (!e.ok())
                text += QStringLiteral(" <span style='color:#d62728'>%1</span>").arg(e.error.toHtmlEscaped());
            curves.append({name, e.curve, st.calls(), intervalsOf(*m_workspace, m_views[s]->tree(), e)});
            if (m_views[s]->tree())
                cells = m_views[s]->tree()->cellCount();
        } else {
            m_views[s]->setOverlay({});
            if (m_pending > 0)
                text += QStringLiteral(" — ") + tr("replaying…");
            curves.append({name, {}, 0});
        }
        m_sideLabel[s]->setText(text);
    }
    const int rounds = roundCount();
    m_roundLabel->setText(m_pending > 0 && rounds == 0 ? tr("replaying…") : tr("Round %1 of %2").arg(m_position).arg(rounds));
    m_back->setEnabled(m_position > 0);
    m_restart->setEnabled(m_position > 0);
    m_forward->setEnabled(m_position < rounds);
    m_playButton->setEnabled(rounds > 0);
    // The axis fits the curves (as Frontiers' does), so attainments close to 1 stay apart.
    PlotStyle::populateAnytime(m_plot, curves, cells, m_dark, PlotStyle::AttainmentAxis::Fitted);
}

QString ReplayPage::figureName() const
{
    return tr("Anytime curves");
}

FigureExport::Painter ReplayPage::figurePainter()
{
    if (m_workspace->worlds().isEmpty())
        return {};
    return FigureLayout::paperPainterFor(m_plot, m_dark, [this](bool dark) { setDark(dark); });
}

FigureTable ReplayPage::figureData() const
{
    QList<AnytimeSeries> series;
    for (int side : {0, 1}) {
        if (const auto episode = state(side).episode())
            series.append({versionName(side), episode->curve, -1, intervalsOf(*m_workspace, m_views[side]->tree(), *episode)});
    }
    return FigureData::anytime(series);
}

} // namespace dreamrsi
