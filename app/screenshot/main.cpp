// dreamrsi-screenshot: the screenshot tour of packaging/screenshot.sh, kept out
// of the production workbench. Opens a project or tree files in a MainWindow,
// replays every version that has no result, compares two versions a few
// rounds in, inspects the best cell, then saves one PNG per tab (and the
// approval and settings dialogs, and a dream of the built-in improver with
// its candidates) into DIR.
#include "figures/figureexport.h"
#include "import/runimport.h"
#include "islandsbench.h"
#include "tree/behaviourgridview.h"
#include "models/livetreemodel.h"
#include "live/launchrounddialog.h"
#include "live/manualbatchbar.h"
#include "progress/comparepage.h"
#include "session/roundcontroller.h"
#include "live/roundpanel.h"
#include "session/steeringcontroller.h"
#include "policies/approvaldialog.h"
#include "policies/dreamingdialog.h"
#include "replay/worldmodel.h"
#include "replayview/frontierpage.h"
#include "replayview/replaypage.h"
#include "replayview/worldmodelpage.h"
#include "tree/discoverypage.h"
#include "tree/inspectorwidget.h"
#include "session/projectsession.h"
#include "session/sweeprunner.h"
#include "store/projectstore.h"
#include "models/workspace.h"
#include "tree/treeview.h"
#include "window/mainwindow.h"
#include "window/settingsdialog.h"
#include "window/userguidedialog.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QSpinBox>
#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>
#include <QEventLoop>
#include <QPushButton>
#include <QTabWidget>
#include <QTextStream>
#include <QTemporaryDir>
#include <QTimer>

#include <limits>
#include <memory>

namespace {

// The tabs grabbed first (01 … 06); the later pages and dialogs are numbered
// after them, so adding a tab does not renumber the screenshots.
constexpr int TourTabs = 6;

/// Waits (in this tool only) until `signal` of `sender` fires or `ms` pass.
template<typename Sender, typename Signal>
void waitFor(Sender *sender, Signal signal, int ms)
{
    QEventLoop loop;
    QObject::connect(sender, signal, &loop, &QEventLoop::quit);
    QTimer::singleShot(ms, &loop, &QEventLoop::quit);
    loop.exec();
}

/// Show imagined cells on the first history world (completion 0, seed 0),
/// an imagined cell inspected, then the World Model tab.
QStringList shootImagination(dreamrsi::MainWindow &window, const QString &dir)
{
    QStringList written;
    auto *page = window.discoveryPage();
    if (window.workspace()->worlds().isEmpty() || !page->imaginedToggle()->isEnabled())
        return written;
    window.tabs()->setCurrentIndex(dreamrsi::MainWindow::DiscoveryTab);
    page->imaginedToggle()->setChecked(true);
    waitFor(page, &dreamrsi::DiscoveryPage::imaginedDrawn, 60000);
    if (const auto tree = page->shownTree(); tree && page->showsImagined()) {
        // The best imagined cell, so the inspector says where its draw came from.
        int pick = -1;
        for (int i = 0; i < tree->cellCount(); ++i) {
            const auto &c = tree->cells().at(i);
            if (!dreamrsi::Imagination::isImagined(c) || !c.score)
                continue;
            if (pick < 0 || *c.score > *tree->cells().at(pick).score)
                pick = i;
        }
        if (pick >= 0)
            emit page->treeView()->cellActivated(pick);
        QApplication::processEvents();
        const QString path = QDir(dir).filePath(QStringLiteral("%1-imagined-cells.png").arg(TourTabs + 6, 2, 10, QLatin1Char('0')));
        if (window.grab().save(path))
            written.append(path);
    }
    page->imaginedToggle()->setChecked(false);
    auto *model = window.worldModelPage();
    window.tabs()->setCurrentWidget(model);
    if (model->model().isEmpty())
        waitFor(model, &dreamrsi::WorldModelPage::modelFitted, 60000);
    model->showPanel(dreamrsi::WorldModelPlot::Panel::Gains);
    QApplication::processEvents();
    const QString path = QDir(dir).filePath(QStringLiteral("%1-world-model.png").arg(TourTabs + 7, 2, 10, QLatin1Char('0')));
    if (window.grab().save(path))
        written.append(path);
    // Each panel as it goes into a paper: one column (89 mm) at 300 dpi.
    const struct
    {
        dreamrsi::WorldModelPlot::Panel panel;
        const char *name;
    } panels[] = {{dreamrsi::WorldModelPlot::Panel::FirstScores, "first-scores"},
                  {dreamrsi::WorldModelPlot::Panel::Gains, "gains"},
                  {dreamrsi::WorldModelPlot::Panel::Failures, "failures"}};
    dreamrsi::FigureExport::Options options;
    options.sizeMm = QSizeF(89, 64);
    options.dpi = 300;
    int number = TourTabs + 8;
    for (const auto &p : panels) {
        model->showPanel(p.panel);
        const QString figure =
            QDir(dir).filePath(QStringLiteral("%1-world-model-%2.png").arg(number++, 2, 10, QLatin1Char('0')).arg(QLatin1String(p.name)));
        if (dreamrsi::FigureExport::write(figure, options, model->figurePainter()).ok())
            written.append(figure);
    }
    model->showPanel(dreamrsi::WorldModelPlot::Panel::Gains);
    window.tabs()->setCurrentIndex(dreamrsi::MainWindow::DiscoveryTab);
    return written;
}

/// A dream of the built-in improver over the open project (three versions,
/// stored in the tour's copy of the project; nothing approved), grabbed
/// with every candidate of the dream listed.
QStringList shootDream(dreamrsi::MainWindow &window, const QString &dir)
{
    QStringList written;
    dreamrsi::ProjectStore *store = window.session()->store();
    if (!store || store->path().isEmpty() || store->isReadOnly() || window.workspace()->worlds().isEmpty())
        return written;
    dreamrsi::DreamingDialog dialog(*window.workspace(), store, window.preferences(), &window);
    dialog.versionsBox()->setValue(3);
    dialog.resize(1400, 860);
    dialog.show();
    if (!dialog.start())
        return written;
    waitFor(&dialog, &dreamrsi::DreamingDialog::dreamFinished, 600000);
    if (dialog.isRunning()) { // too slow for a tour: no shot
        dialog.cancel();
        waitFor(&dialog, &dreamrsi::DreamingDialog::dreamFinished, 60000);
        return written;
    }
    dialog.allCandidatesBox()->setChecked(true);
    QApplication::processEvents();
    const QString path = QDir(dir).filePath(QStringLiteral("%1-dream-candidates.png").arg(TourTabs + 12, 2, 10, QLatin1Char('0')));
    if (dialog.grab().save(path))
        written.append(path);
    // Frontiers after the dream, as the window shows it then: the deployed
    // version, the proposal and the best few ticked (04 again).
    const dreamrsi::DreamVersion *proposal = dialog.report().proposal();
    window.frontierPage()->showDream(proposal ? proposal->developed.version.name : QString());
    dialog.close();
    const int current = window.tabs()->currentIndex();
    window.tabs()->setCurrentIndex(dreamrsi::MainWindow::FrontiersTab);
    QApplication::processEvents();
    const QString frontiers = QDir(dir).filePath(QStringLiteral("04-frontiers.png"));
    if (window.grab().save(frontiers))
        written.append(frontiers);
    window.tabs()->setCurrentIndex(current);
    return written;
}

/// Help ▸ User Guide as 24-user-guide.png, and the window in the dark theme
/// (the Discovery tab, the live round's dock) as 25-dark-theme.png.
QStringList shootGuideAndDarkTheme(dreamrsi::MainWindow &window, const QString &dir)
{
    QStringList written;
    {
        dreamrsi::UserGuideDialog guide(&window);
        guide.resize(1000, 760);
        guide.show();
        QApplication::processEvents();
        const QString path = QDir(dir).filePath(QStringLiteral("24-user-guide.png"));
        if (guide.grab().save(path))
            written.append(path);
    }
    QAction *dark = window.findChild<QAction *>(QStringLiteral("actionDark"));
    if (!dark || window.isDarkTheme())
        return written;
    const int current = window.tabs()->currentIndex();
    dark->trigger();
    window.tabs()->setCurrentIndex(dreamrsi::MainWindow::DiscoveryTab);
    QApplication::processEvents();
    const QString path = QDir(dir).filePath(QStringLiteral("25-dark-theme.png"));
    if (window.grab().save(path))
        written.append(path);
    dark->trigger();
    window.tabs()->setCurrentIndex(current);
    QApplication::processEvents();
    return written;
}

QStringList saveScreenshots(dreamrsi::MainWindow &window, const QString &dir)
{
    QStringList written;
    QDir().mkpath(dir);
    static const char *const names[] = {"discovery", "cells", "replay", "frontiers", "policies", "progress"};
    const int current = window.tabs()->currentIndex();
    for (int i = 0; i < TourTabs && i < window.tabs()->count(); ++i) {
        window.tabs()->setCurrentIndex(i);
        QApplication::processEvents();
        const QString name = i < int(std::size(names)) ? QLatin1String(names[i]) : QStringLiteral("tab%1").arg(i + 1);
        const QString path = QDir(dir).filePath(QStringLiteral("%1-%2.png").arg(i + 1, 2, 10, QLatin1Char('0')).arg(name));
        if (window.grab().save(path))
            written.append(path);
    }
    window.tabs()->setCurrentIndex(current);
    // The approval dialog for the best-valued version that is not deployed yet.
    QString candidate;
    double best = -std::numeric_limits<double>::infinity();
    for (const dreamrsi::PolicyVersion &v : window.workspace()->versions()) {
        const dreamrsi::ReplayResultPtr r = window.workspace()->result(v.name);
        if (r && r->value && *r->value > best && v.id != window.workspace()->deployedVersion()) {
            best = *r->value;
            candidate = v.name;
        }
    }
    if (!candidate.isEmpty()) {
        dreamrsi::ApprovalDialog dialog(*window.workspace(), candidate, window.preferences(), &window);
        dialog.show();
        QApplication::processEvents();
        const QString path = QDir(dir).filePath(QStringLiteral("%1-approval.png").arg(TourTabs + 1, 2, 10, QLatin1Char('0')));
        if (dialog.grab().save(path))
            written.append(path);
        dialog.close();
    }
    // The settings, with the replay process's limits.
    dreamrsi::SettingsDialog settings(window.settings(), &window);
    if (const auto &config = window.workspace()->replayConfig())
        settings.setProjectReplayConfig(config->config, QStringLiteral("demo"));
    settings.show();
    QApplication::processEvents();
    const QString settingsPath =
        QDir(dir).filePath(QStringLiteral("%1-settings.png").arg(TourTabs + 2, 2, 10, QLatin1Char('0')));
    if (settings.grab().save(settingsPath))
        written.append(settingsPath);
    settings.close();
    written += shootImagination(window, dir);
    written += shootDream(window, dir);
    written += shootGuideAndDarkTheme(window, dir);
    return written;
}

/// A manual round of the built-in agent on `task`: grabs the first batch
/// being picked, then (after it ran) the round with branch b1 closed by hand
/// and the next picks, then ends the round and quits.
void shootSteering(dreamrsi::MainWindow &window, dreamrsi::RoundPanel &panel, const QString &dir, const QString &task)
{
    const int first = TourTabs + 4;
    auto grab = [&window, dir](int number, const char *name) {
        QApplication::processEvents();
        const QString path = QDir(dir).filePath(QStringLiteral("%1-%2.png").arg(number, 2, 10, QLatin1Char('0')).arg(QLatin1String(name)));
        if (window.grab().save(path))
            QTextStream(stdout) << path << '\n';
    };
    // A small state machine driven by what the panel shows: each step waits
    // for the round to ask for its next batch (the cells of the last one stored).
    auto step = std::make_shared<int>(0);
    auto *wanted = new QTimer(&window);
    wanted->setInterval(200);
    QObject::connect(wanted, &QTimer::timeout, &window, [&window, &panel, grab, step, first, wanted] {
        if (!panel.manualBar()->isVisible())
            return;
        auto *run = panel.manualBar()->findChild<QPushButton *>(QStringLiteral("manualRun"));
        const int cells = panel.model()->cellCount();
        switch (*step) {
        case 0: // round 1: open three branches
            panel.manualBar()->toggleBranch(0);
            panel.manualBar()->toggleBranch(1);
            panel.manualBar()->toggleBranch(2);
            QTimer::singleShot(500, &window, [grab, first] { grab(first, "manual-round"); });
            QTimer::singleShot(900, &window, [run] { run->click(); });
            *step = 1;
            break;
        case 1: // round 2 asks: close b1 by hand, and give b0's next attempt a hint
            if (cells < 3)
                return;
            panel.controller()->steer(QStringLiteral("close"), 1, {}, false, QStringLiteral("its first program scored lowest"));
            panel.controller()->steer(QStringLiteral("hint"), 0, QStringLiteral("try a finer grid near the best value so far"));
            *step = 2;
            break;
        case 2: // closed: refine b0 and b2
            if (panel.controller()->steering()->waiting() > 0)
                return;
            panel.manualBar()->toggleBranch(0);
            panel.manualBar()->toggleBranch(2);
            QTimer::singleShot(700, &window, [grab, first] { grab(first + 1, "steering"); });
            QTimer::singleShot(1100, &window, [run] { run->click(); });
            *step = 3;
            break;
        default: // round 3 asks: nothing picked ends the round
            if (cells < 5)
                return;
            wanted->stop();
            QTimer::singleShot(300, &window, [run] { run->click(); });
            break;
        }
    });
    QObject::connect(&panel, &dreamrsi::RoundPanel::roundFinished, &window, [] { QTimer::singleShot(500, qApp, [] { QApplication::exit(0); }); });
    dreamrsi::RoundConfig config;
    config.task = task;
    config.policy = dreamrsi::PolicyChoice::manual();
    config.workers = 3;
    config.seed = 3;
    window.tabs()->setCurrentIndex(dreamrsi::MainWindow::DiscoveryTab);
    if (!panel.controller()->start(dreamrsi::RoundOptions{config, std::nullopt}))
        return QApplication::exit(1);
    wanted->start();
}

} // namespace

/// Launch Round's Check (the preflight) on `project` with the built-in agent
/// on `task`: the dialog with its report, as 20-preflight.png.
int shootPreflight(const QString &dir, const QString &project, const QString &task)
{
    dreamrsi::Preferences preferences; // the ones in QSettings, as the window's
    dreamrsi::LaunchRoundDialog dialog({}, &preferences);
    dialog.setProjectPath(project);
    qobject_cast<QComboBox *>(dialog.field(QStringLiteral("task")))->setCurrentText(task);
    qobject_cast<QComboBox *>(dialog.field(QStringLiteral("agent")))->setCurrentText(QStringLiteral("builtin"));
    dialog.resize(760, 900);
    dialog.show();
    dialog.check();
    waitFor(&dialog, &dreamrsi::LaunchRoundDialog::checkFinished, 120000);
    QApplication::processEvents();
    const QString path = QDir(dir).filePath(QStringLiteral("20-preflight.png"));
    if (!dialog.grab().save(path))
        return 1;
    QTextStream(stdout) << path << '\n';
    return 0;
}

/// The Compare tab over `sources` ([LABEL=]PATH: projects, runs, tree files;
/// one label for the seeds of a setting) as 22-compare.png, then the last
/// source opened with the inspector's Path page on its best cell, the path
/// drawn on the tree, as 23-path.png (docs/compare.md).
int shootCompare(const QString &dir, const QStringList &sources, const QSize &size)
{
    QDir().mkpath(dir);
    dreamrsi::MainWindow window;
    window.resize(size);
    window.show();
    auto *page = window.comparePage();
    page->setProject(QString());
    while (!page->sources().isEmpty())
        page->removeSource(0);
    QString last;
    for (const QString &source : sources) {
        const qsizetype eq = source.indexOf(QLatin1Char('='));
        const QString label = eq > 0 ? source.left(eq) : QString();
        last = QFileInfo(eq > 0 ? source.mid(eq + 1) : source).absoluteFilePath();
        page->addSource(dreamrsi::CompareSourceSpec{dreamrsi::CompareCurves::kindOf(last), last, std::nullopt, label});
    }
    while (page->isReading())
        waitFor(page, &dreamrsi::ComparePage::refreshed, 60000);
    window.tabs()->setCurrentIndex(dreamrsi::MainWindow::CompareTab);
    QApplication::processEvents();
    const QString compare = QDir(dir).filePath(QStringLiteral("22-compare.png"));
    if (!window.grab().save(compare))
        return 1;
    QTextStream(stdout) << compare << '\n';

    window.openFiles({last});
    waitFor(&window, &dreamrsi::MainWindow::treeOpened, 60000);
    window.tabs()->setCurrentIndex(dreamrsi::MainWindow::DiscoveryTab);
    // The chains of branches: the layout the path is drawn on (TreeRenderer::setPath).
    window.discoveryPage()->setLayoutShown(dreamrsi::DiscoveryPage::Layout::Branches);
    const auto tree = window.currentTree();
    if (!tree || tree->bestCellIndex() < 0)
        return 1;
    emit window.discoveryPage()->treeView()->cellActivated(tree->bestCellIndex());
    window.inspector()->pages()->setCurrentIndex(dreamrsi::InspectorWidget::PathPage);
    QApplication::processEvents();
    const QString path = QDir(dir).filePath(QStringLiteral("23-path.png"));
    if (!window.grab().save(path))
        return 1;
    QTextStream(stdout) << path << '\n';
    return 0;
}

/// An imported run, the synthetic OpenEvolve run of `dreamrsi bench islands`
/// (300 programs on 4 islands), in the Discovery tab: laid out by island as
/// 26-islands.png, its behaviour grid over speed and size as
/// 27-behaviour-grid.png (docs/tree-format.md#the-genealogy-and-islands-of-an-imported-run).
int shootIslands(const QString &dir, const QSize &size)
{
    QTemporaryDir tmp;
    QTextStream err(stderr);
    const QString run = tmp.filePath(QStringLiteral("openevolve_output/db"));
    if (!tmp.isValid() || !dreamrsi::writeSyntheticRun(run, 300, 4, err))
        return 1;
    dreamrsi::Result<dreamrsi::RunImport::Imported> imported = dreamrsi::RunImport::read(run);
    if (!imported) {
        err << imported.error << '\n';
        return 1;
    }
    QDir().mkpath(dir);
    dreamrsi::DiscoveryPage page;
    page.resize(size);
    page.show();
    page.setTree(dreamrsi::RunImport::worldName(run),
                 std::make_shared<const dreamrsi::DiscoveryTree>(std::move(imported.value->tree)));
    page.setLayoutShown(dreamrsi::DiscoveryPage::Layout::Islands);
    QApplication::processEvents();
    const QString islands = QDir(dir).filePath(QStringLiteral("26-islands.png"));
    if (!page.grab().save(islands))
        return 1;
    page.setLayoutShown(dreamrsi::DiscoveryPage::Layout::BehaviourGrid);
    dreamrsi::BehaviourGridView *grid = page.gridView();
    grid->xMetricBox()->setCurrentText(QStringLiteral("speed"));
    grid->yMetricBox()->setCurrentText(QStringLiteral("size"));
    QApplication::processEvents();
    const QString behaviour = QDir(dir).filePath(QStringLiteral("27-behaviour-grid.png"));
    if (!page.grab().save(behaviour))
        return 1;
    QTextStream(stdout) << islands << '\n' << behaviour << '\n';
    return 0;
}

int main(int argc, char *argv[])
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("dreamrsi-workbench"));
    QApplication::setOrganizationName(QStringLiteral("DreamRSI"));
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Screenshots of the Dream-RSI Workbench, one PNG per tab."));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("dir"), QStringLiteral("Folder the PNGs are written to."));
    parser.addPositionalArgument(QStringLiteral("files"), QStringLiteral("Tree files, or one project (*.dreamrsi)."),
                                 QStringLiteral("[FILE...]"));
    const QCommandLineOption sizeOption(QStringLiteral("size"), QStringLiteral("Window size, e.g. 1600x1000."),
                                        QStringLiteral("WxH"), QStringLiteral("1600x1000"));
    parser.addOption(sizeOption);
    const QCommandLineOption liveOption(QStringLiteral("live-round"),
                                        QStringLiteral("After the tour, launch a round of the built-in agent on TASK in the "
                                                       "project and grab the window while it runs."),
                                        QStringLiteral("TASK"));
    parser.addOption(liveOption);
    const QCommandLineOption steeringOption(QStringLiteral("steering-round"),
                                            QStringLiteral("After the tour, run a manual round of the built-in agent on TASK: grab "
                                                           "the batch being picked, then a closed branch and the next picks."),
                                            QStringLiteral("TASK"));
    parser.addOption(steeringOption);
    const QCommandLineOption preflightOption(QStringLiteral("preflight"),
                                             QStringLiteral("Only grab Launch Round's Check on TASK in the project given, "
                                                            "then exit."),
                                             QStringLiteral("TASK"));
    parser.addOption(preflightOption);
    const QCommandLineOption compareOption(QStringLiteral("compare"),
                                           QStringLiteral("Only grab the Compare tab over the files given ([LABEL=]PATH: projects, "
                                                          "runs, tree files) and the Path page on the last one's best, then exit."));
    parser.addOption(compareOption);
    const QCommandLineOption islandsOption(QStringLiteral("islands"),
                                           QStringLiteral("Only grab an imported run's islands and behaviour grid (a "
                                                          "synthetic OpenEvolve run), then exit."));
    parser.addOption(islandsOption);
    parser.process(app);
    QStringList files = parser.positionalArguments();
    if (files.isEmpty()) {
        QTextStream(stderr) << parser.helpText();
        return 2;
    }
    const QString dir = files.takeFirst();
    if (parser.isSet(compareOption)) {
        const QStringList wh = parser.value(sizeOption).split(QLatin1Char('x'));
        return shootCompare(dir, files, QSize(std::max(800, wh.value(0).toInt()), std::max(600, wh.value(1).toInt())));
    }
    if (parser.isSet(islandsOption)) {
        const QStringList wh = parser.value(sizeOption).split(QLatin1Char('x'));
        return shootIslands(dir, QSize(std::max(800, wh.value(0).toInt()), std::max(600, wh.value(1).toInt())));
    }
    if (parser.isSet(preflightOption))
        return shootPreflight(dir, files.value(0), parser.value(preflightOption));
    QString project;
    for (const QString &f : std::as_const(files)) {
        if (f.endsWith(QLatin1String(".dreamrsi")))
            project = f;
    }
    if (!project.isEmpty())
        files.clear();

    dreamrsi::MainWindow window;
    { // the tour
        const QStringList wh = parser.value(sizeOption).split(QLatin1Char('x'));
        window.resize(wh.value(0).toInt() > 0 ? wh.value(0).toInt() : 1600, wh.value(1).toInt() > 0 ? wh.value(1).toInt() : 1000);
        auto remaining = std::make_shared<int>(int(files.size()));
        const QString liveTask = parser.value(liveOption);
        const QString steeringTask = parser.value(steeringOption);
        auto grabAll = [&window, dir, liveTask, steeringTask] {
            // Let the last layout and paint settle before grabbing.
            QTimer::singleShot(400, &window, [&window, dir, liveTask, steeringTask] {
                const QStringList written = saveScreenshots(window, dir);
                for (const QString &path : written)
                    QTextStream(stdout) << path << '\n';
                auto *panel = window.findChild<dreamrsi::RoundPanel *>();
                if (!written.isEmpty() && !steeringTask.isEmpty() && panel)
                    return shootSteering(window, *panel, dir, steeringTask);
                if (written.isEmpty() || liveTask.isEmpty() || !panel)
                    return QApplication::exit(written.isEmpty() ? 1 : 0);
                // A live round of the built-in agent, grabbed while attempts run
                // and once more when it has ended.
                dreamrsi::RoundConfig config;
                config.task = liveTask;
                config.workers = 4;
                config.maxRounds = 3;
                config.seed = 3;
                const QString live = QDir(dir).filePath(QStringLiteral("%1-live-round.png").arg(TourTabs + 3, 2, 10, QLatin1Char('0')));
                auto grabLive = [&window, live] {
                    if (window.grab().save(live))
                        QTextStream(stdout) << live << '\n';
                };
                auto *midway = new QTimer(&window);
                midway->setSingleShot(true);
                QObject::connect(midway, &QTimer::timeout, &window, grabLive);
                QObject::connect(panel, &dreamrsi::RoundPanel::roundFinished, &window, [&window, midway, grabLive] {
                    if (!midway->isActive())
                        return QApplication::exit(0);
                    // Ended before the mid-round grab: grab once the last
                    // cells' redraw and the charts' layout have run.
                    midway->stop();
                    QTimer::singleShot(600, &window, [grabLive] {
                        grabLive();
                        QApplication::exit(0);
                    });
                });
                window.tabs()->setCurrentIndex(dreamrsi::MainWindow::DiscoveryTab);
                if (!panel->controller()->start(dreamrsi::RoundOptions{config, std::nullopt}))
                    return QApplication::exit(1);
                midway->start(25000);
            });
        };
        // Before grabbing, show what a researcher would look at: every version
        // replayed, two of them compared a few rounds in, the best cell inspected.
        auto shoot = [&window, grabAll] {
            auto *ws = window.workspace();
            if (ws->worlds().isEmpty() || ws->versions().isEmpty())
                return grabAll();
            window.setCurrentWorld(0);
            if (auto tree = window.currentTree(); tree && tree->bestCellIndex() >= 0)
                emit window.treeView()->cellActivated(tree->bestCellIndex());
            QStringList names;
            QStringList missing;
            for (const auto &v : ws->versions()) {
                names.append(v.name);
                if (!ws->result(v.name))
                    missing.append(v.name);
            }
            auto compare = [&window, names, grabAll] {
                QObject::connect(window.replayPage(), &dreamrsi::ReplayPage::episodesReady, &window, [&window, grabAll] {
                    for (int i = 0; i < 4; ++i)
                        window.replayPage()->stepForward();
                    window.tabs()->setCurrentIndex(dreamrsi::MainWindow::DiscoveryTab);
                    grabAll();
                }, Qt::SingleShotConnection);
                window.compareVersions(names.value(0), names.value(names.size() > 1 ? 1 : 0));
            };
            if (missing.isEmpty())
                return compare();
            QObject::connect(window.sweepRunner(), &dreamrsi::SweepRunner::idle, &window, compare, Qt::SingleShotConnection);
            window.replayVersions(missing);
        };
        auto oneDone = [remaining, shoot] {
            if (--*remaining == 0)
                shoot();
        };
        if (!project.isEmpty()) {
            QObject::connect(&window, &dreamrsi::MainWindow::projectLoaded, &window, shoot, Qt::SingleShotConnection);
            QObject::connect(&window, &dreamrsi::MainWindow::openFailed, &window, [] { QApplication::exit(1); });
        } else {
            QObject::connect(&window, &dreamrsi::MainWindow::treeOpened, &window, oneDone);
            QObject::connect(&window, &dreamrsi::MainWindow::openFailed, &window, oneDone);
            if (files.isEmpty())
                shoot();
        }
    }
    window.show();
    if (!project.isEmpty())
        window.openProject(project);
    else if (!files.isEmpty())
        window.openFiles(files);
    return QApplication::exec();
}
