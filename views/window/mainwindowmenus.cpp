// MainWindow's menus and tool bar: one function per menu. A new action goes
// into its menu's function and, when its state depends on the window, into
// updateActions(); what an action does is its page's (ProjectPage, RoundPanel, …).
#include "mainwindow.h"

#include "demoreset.h"
#include "recentmenu.h"
#include "remoteworkbench.h"
#include "userguidedialog.h"

#include "live/roundpanel.h"
#include "live/roundstatus.h"
#include "models/workspace.h"
#include "session/projectsession.h"
#include "session/sweeprunner.h"
#include "session/uistate.h"
#include "tree/discoverypage.h"

#include <QApplication>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QStatusBar>
#include <QStyle>
#include <QToolBar>

namespace dreamrsi {

QIcon MainWindow::themeIcon(const char *name, int fallback) const
{
    return QIcon::fromTheme(QLatin1String(name), style()->standardIcon(QStyle::StandardPixmap(fallback)));
}

void MainWindow::createActions()
{
    m_toolbar = addToolBar(tr("Main Toolbar")); // its View menu entry says what it shows
    m_toolbar->setObjectName(QStringLiteral("mainToolBar"));
    m_toolbar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    createFileMenu();
    createEditMenu();
    createViewMenu();
    createReplayMenu();
    createRoundMenu();
    createHelpMenu();
}

void MainWindow::createRoundMenu()
{
    // The live round's panel in a dock, out of the way until a round runs
    // (it shows itself then); the Round menu brings it back at any time.
    auto *dock = new QDockWidget(tr("Live Round"), this);
    dock->setObjectName(QStringLiteral("roundDock"));
    dock->setWidget(m_roundPanel);
    addDockWidget(Qt::BottomDockWidgetArea, dock);
    dock->hide(); // shown, as high as its panel asks (RoundPanel::sizeHint), above the tabs' own minimum
    m_toolbar->addSeparator();
    m_toolbar->addAction(m_roundPanel->launchAction());
    m_toolbar->addAction(m_roundPanel->stopAction());
    QMenu *menu = menuBar()->addMenu(tr("R&ound"));
    menu->setObjectName(QStringLiteral("menuRound"));
    menu->addAction(m_roundPanel->launchAction());
    menu->addAction(m_roundPanel->stopAction());
    menu->addAction(m_roundPanel->resumeAction());
    menu->addSeparator();
    menu->addAction(m_roundPanel->pauseAction());
    menu->addAction(m_roundPanel->continueAction());
    menu->addSeparator();
    menu->addAction(dock->toggleViewAction());
    connect(m_roundPanel, &RoundPanel::statusMessage, this, [this](const QString &text) { statusBar()->showMessage(text); });
    auto showDock = [dock](bool active) {
        if (active) {
            dock->show();
            dock->raise();
        }
    };
    connect(m_roundPanel, &RoundPanel::runningChanged, dock, showDock);
    connect(m_roundPanel, &RoundPanel::followingChanged, dock, showDock);
    statusBar()->addPermanentWidget(m_roundPanel->statusWidget());
}

void MainWindow::createFileMenu()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    QAction *open = file->addAction(themeIcon("document-open", QStyle::SP_DialogOpenButton), tr("&Open Tree…"));
    open->setObjectName(QStringLiteral("actionOpen"));
    open->setShortcut(QKeySequence::Open);
    open->setStatusTip(tr("Open discovery-tree files (dreamrsi-tree/1 JSON) or ShinkaEvolve databases"));
    connect(open, &QAction::triggered, this, [this] {
        const QStringList paths = QFileDialog::getOpenFileNames(
            this, tr("Open Discovery Trees"), UiState::lastDir(),
            tr("Discovery trees and runs (*.json *.sqlite *.sqlite3 *.db);;Discovery trees (*.json);;"
               "ShinkaEvolve databases (*.sqlite *.sqlite3 *.db);;All files (*)"));
        if (!paths.isEmpty()) {
            UiState::setLastDir(QFileInfo(paths.first()).absolutePath());
            openFiles(paths);
        }
    });
    m_toolbar->addAction(open);
    // OpenEvolve writes folders: an output, checkpoint or db folder is chosen as a folder.
    QAction *openRunFolder = file->addAction(themeIcon("folder-open", QStyle::SP_DirOpenIcon), tr("Open &Run Folder…"));
    openRunFolder->setObjectName(QStringLiteral("actionOpenRunFolder"));
    openRunFolder->setStatusTip(tr("Open an OpenEvolve output, checkpoint or db folder as a tree (read-only)"));
    connect(openRunFolder, &QAction::triggered, this, [this] {
        const QString folder = QFileDialog::getExistingDirectory(this, tr("Open OpenEvolve Run Folder"), UiState::lastDir());
        if (!folder.isEmpty()) {
            UiState::setLastDir(QFileInfo(folder).absolutePath());
            openRun(folder);
        }
    });
    file->addSeparator();
    QAction *openProjectAction = file->addAction(themeIcon("folder-open", QStyle::SP_DirOpenIcon), tr("Open &Project…"));
    openProjectAction->setObjectName(QStringLiteral("actionOpenProject"));
    openProjectAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    openProjectAction->setStatusTip(tr("Open a Dream-RSI project (iterations, policy versions, replay results)"));
    connect(openProjectAction, &QAction::triggered, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open Project"), UiState::lastProjectDir(),
                                                          tr("Dream-RSI projects (*.dreamrsi *.sqlite *.db);;All files (*)"));
        if (!path.isEmpty()) {
            UiState::setLastProjectDir(QFileInfo(path).absolutePath());
            openProject(path);
        }
    });
    m_toolbar->insertAction(m_toolbar->actions().value(1), openProjectAction);
    QAction *newProjectAction = file->addAction(themeIcon("document-new", QStyle::SP_FileIcon), tr("&New Project…"));
    newProjectAction->setObjectName(QStringLiteral("actionNewProject"));
    newProjectAction->setShortcut(QKeySequence::New);
    connect(newProjectAction, &QAction::triggered, this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("New Project"), newProjectFolder(), tr("Dream-RSI projects (*.dreamrsi)"));
        if (!path.isEmpty()) {
            UiState::setLastProjectDir(QFileInfo(path).absolutePath());
            newProject(path.endsWith(QLatin1String(".dreamrsi")) ? path : path + QStringLiteral(".dreamrsi"));
        }
    });
    // One list of what was open lately: projects first, then tree files.
    m_recentMenu = new RecentMenu(file);
    file->addMenu(m_recentMenu);
    connect(m_recentMenu, &RecentMenu::projectRequested, this, &MainWindow::openProject);
    connect(m_recentMenu, &RecentMenu::fileRequested, this, [this](const QString &path) { openFiles({path}); });
    // Connect to Server… (views/remote): the served project shown in the window's pages.
    file->insertAction(m_recentMenu->menuAction(), (new RemoteWorkbench(this, m_page, m_session, m_roundPanel))->connectAction());
    m_importAction = file->addAction(themeIcon("document-import", QStyle::SP_ArrowRight), tr("&Import Trees into Project…"));
    m_importAction->setObjectName(QStringLiteral("actionImport"));
    m_importAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_I));
    m_importAction->setStatusTip(tr("Store tree files in the open project as new iterations"));
    connect(m_importAction, &QAction::triggered, this, [this] {
        const QStringList paths = QFileDialog::getOpenFileNames(this, tr("Import Discovery Trees"), QString(),
                                                                tr("Discovery trees (*.json);;All files (*)"));
        if (!paths.isEmpty())
            importTrees(paths);
    });
    file->addAction(m_demoReset->action());
    file->addSeparator();
    m_exportAction = file->addAction(themeIcon("document-save-as", QStyle::SP_DialogSaveButton), tr("&Export Figure…"));
    m_exportAction->setObjectName(QStringLiteral("actionExport"));
    m_exportAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    m_exportAction->setStatusTip(tr("Export the current tab's figure to PDF, SVG or PNG"));
    connect(m_exportAction, &QAction::triggered, m_page, &ProjectPage::exportFigureInteractive);
    m_toolbar->addAction(m_exportAction);
    m_closeAction = file->addAction(themeIcon("document-close", QStyle::SP_DialogCloseButton), tr("&Close World"));
    m_closeAction->setObjectName(QStringLiteral("actionClose"));
    m_closeAction->setShortcut(QKeySequence::Close);
    connect(m_closeAction, &QAction::triggered, m_page, &ProjectPage::closeCurrentWorld);
    file->addSeparator();
    QAction *quit = file->addAction(themeIcon("application-exit", QStyle::SP_DialogCloseButton), tr("&Quit"));
    quit->setObjectName(QStringLiteral("actionQuit"));
    quit->setShortcut(QKeySequence::Quit);
    connect(quit, &QAction::triggered, this, &QWidget::close);

}

void MainWindow::createEditMenu()
{
    QMenu *edit = menuBar()->addMenu(tr("&Edit"));
    m_findAction = edit->addAction(themeIcon("edit-find", QStyle::SP_FileDialogContentsView), tr("&Find Cells…"));
    m_findAction->setObjectName(QStringLiteral("actionFind"));
    m_findAction->setShortcut(QKeySequence::Find);
    connect(m_findAction, &QAction::triggered, m_page, &ProjectPage::findCells);
    edit->addSeparator();
    QAction *prefs = edit->addAction(themeIcon("preferences-system", QStyle::SP_FileDialogDetailedView), tr("&Settings…"));
    prefs->setObjectName(QStringLiteral("actionSettings"));
    prefs->setShortcut(QKeySequence::Preferences);
    prefs->setMenuRole(QAction::PreferencesRole);
    connect(prefs, &QAction::triggered, this, &MainWindow::editSettings);

}

void MainWindow::createViewMenu()
{
    QMenu *view = menuBar()->addMenu(tr("&View"));
    // Zoom and Fit Tree act on whichever layout the Discovery tab shows.
    DiscoveryPage *tree = m_page->discoveryPage();
    m_zoomInAction = view->addAction(themeIcon("zoom-in", QStyle::SP_ArrowUp), tr("Zoom &In"));
    m_zoomInAction->setObjectName(QStringLiteral("actionZoomIn"));
    m_zoomInAction->setShortcut(QKeySequence::ZoomIn);
    connect(m_zoomInAction, &QAction::triggered, tree, &DiscoveryPage::zoomIn);
    m_zoomOutAction = view->addAction(themeIcon("zoom-out", QStyle::SP_ArrowDown), tr("Zoom &Out"));
    m_zoomOutAction->setObjectName(QStringLiteral("actionZoomOut"));
    m_zoomOutAction->setShortcut(QKeySequence::ZoomOut);
    connect(m_zoomOutAction, &QAction::triggered, tree, &DiscoveryPage::zoomOut);
    m_fitAction = view->addAction(themeIcon("zoom-fit-best", QStyle::SP_TitleBarMaxButton), tr("&Fit Tree"));
    m_fitAction->setObjectName(QStringLiteral("actionFit"));
    m_fitAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_0));
    connect(m_fitAction, &QAction::triggered, tree, &DiscoveryPage::fitToView);
    m_legendAction = view->addAction(tr("Show &Legend"));
    m_legendAction->setObjectName(QStringLiteral("actionLegend"));
    m_legendAction->setCheckable(true);
    m_legendAction->setChecked(true);
    m_legendAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_L));
    connect(m_legendAction, &QAction::toggled, tree, &DiscoveryPage::setLegendVisible);
    m_darkAction = view->addAction(tr("&Dark Theme"));
    m_darkAction->setObjectName(QStringLiteral("actionDark"));
    m_darkAction->setCheckable(true);
    m_darkAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_D));
    connect(m_darkAction, &QAction::triggered, this, [this](bool dark) {
        const AppSettings::Theme theme = dark ? AppSettings::Theme::Dark : AppSettings::Theme::Light;
        if (settings().theme == theme)
            applyTheme(); // the action back in step with the theme
        else
            m_preferences->setTheme(theme); // then applyTheme()
    });
    view->addSeparator();
    m_toolbar->addSeparator();
    m_toolbar->addAction(m_zoomInAction);
    m_toolbar->addAction(m_zoomOutAction);
    m_toolbar->addAction(m_fitAction);
    QMenu *tabsMenu = view->addMenu(tr("&Go to Tab"));
    for (int i = 0; i < m_page->count(); ++i) {
        QAction *a = tabsMenu->addAction(m_page->tabText(i));
        a->setObjectName(QStringLiteral("actionTab%1").arg(i + 1));
        a->setShortcut(QKeySequence(Qt::ALT | Qt::Key(Qt::Key_1 + i)));
        connect(a, &QAction::triggered, this, [this, i] { m_page->setCurrentIndex(i); });
    }
    view->addSeparator();
    for (QDockWidget *dock : findChildren<QDockWidget *>())
        view->addAction(dock->toggleViewAction());
    view->addAction(m_toolbar->toggleViewAction());

}

void MainWindow::createReplayMenu()
{
    QMenu *replayMenu = menuBar()->addMenu(tr("&Replay"));
    m_replayAction = replayMenu->addAction(themeIcon("media-playback-start", QStyle::SP_MediaPlay), tr("&Replay Selected Versions"));
    m_replayAction->setObjectName(QStringLiteral("actionReplay"));
    m_replayAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
    m_replayAction->setStatusTip(tr("Replay the version selected in the Project dock or on the Policies tab, else the versions "
                                    "checked in Frontiers, in every open world under the project's replay configuration"));
    // The same path as Frontiers' Replay Checked Versions: replayVersions().
    connect(m_replayAction, &QAction::triggered, this, [this] {
        replayVersions(selectedVersions());
        if (m_page->currentIndex() != PoliciesTab)
            m_page->setCurrentIndex(FrontiersTab);
    });
    m_cancelReplayAction = replayMenu->addAction(themeIcon("process-stop", QStyle::SP_BrowserStop), tr("&Cancel Replays"));
    m_cancelReplayAction->setObjectName(QStringLiteral("actionCancelReplay"));
    m_cancelReplayAction->setShortcut(QKeySequence(Qt::Key_Escape));
    connect(m_cancelReplayAction, &QAction::triggered, m_page->sweepRunner(), &SweepRunner::cancel);
    m_compareAction = replayMenu->addAction(themeIcon("view-split-left-right", QStyle::SP_FileDialogListView), tr("&Compare Two Versions"));
    m_compareAction->setObjectName(QStringLiteral("actionCompare"));
    m_compareAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C));
    m_compareAction->setStatusTip(tr("Step through the replays of two versions side by side"));
    connect(m_compareAction, &QAction::triggered, m_page, &ProjectPage::compareCheckedVersions);
    m_dreamAction = replayMenu->addAction(themeIcon("system-run", QStyle::SP_ComputerIcon), tr("&Dream…"));
    m_dreamAction->setObjectName(QStringLiteral("actionDream"));
    m_dreamAction->setStatusTip(tr("Write, replay and propose new policy versions over the project's worlds"));
    connect(m_dreamAction, &QAction::triggered, m_page, &ProjectPage::dream);
    QAction *simulate = replayMenu->addAction(themeIcon("media-seek-forward", QStyle::SP_MediaSeekForward), tr("&Simulate the Loop…"));
    simulate->setObjectName(QStringLiteral("actionSimulateLoop"));
    simulate->setStatusTip(tr("Dream-RSI against fixed exploration over recorded worlds, repeated over many world orders"));
    connect(simulate, &QAction::triggered, m_page, &ProjectPage::simulateLoop);
    m_toolbar->addSeparator();
    m_toolbar->addAction(m_replayAction);
    m_toolbar->addAction(m_compareAction);
    m_toolbar->addAction(m_dreamAction);

}

void MainWindow::createHelpMenu()
{
    QMenu *help = menuBar()->addMenu(tr("&Help"));
    help->setObjectName(QStringLiteral("menuHelp")); // the last menu
    QAction *guide = help->addAction(themeIcon("help-contents", QStyle::SP_DialogHelpButton), tr("&User Guide"));
    guide->setObjectName(QStringLiteral("actionUserGuide"));
    guide->setShortcut(QKeySequence::HelpContents);
    guide->setStatusTip(tr("Read the user guide (README and docs) in a window of its own"));
    connect(guide, &QAction::triggered, this, [this] {
        auto *dialog = new UserGuideDialog(this);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->show();
    });
    QAction *keys = help->addAction(tr("&Keyboard Shortcuts"));
    keys->setObjectName(QStringLiteral("actionShortcuts"));
    keys->setStatusTip(tr("Every keyboard shortcut of the window"));
    connect(keys, &QAction::triggered, this, [this] {
        QDialog *dialog = shortcutsDialog();
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->open();
    });
    help->addSeparator();
    QAction *about = help->addAction(tr("&About Dream-RSI Workbench"));
    about->setObjectName(QStringLiteral("actionAbout"));
    about->setMenuRole(QAction::AboutRole);
    connect(about, &QAction::triggered, this, [this] {
        QMessageBox::about(this, tr("About Dream-RSI Workbench"),
                           tr("<p><b>Dream-RSI Workbench</b> %1</p><p>Replay-based recursive self-improvement "
                              "of exploration policies for LLM-driven program discovery.</p>")
                               .arg(QCoreApplication::applicationVersion()));
    });
}

void MainWindow::updateActions()
{
    if (!m_replayAction)
        return; // still constructing
    m_page->updateDiscoveryPlaceholder();
    const bool hasTree = currentTree() != nullptr;
    const int tab = m_page->currentIndex();
    m_closeAction->setEnabled(currentWorld() >= 0);
    filterEdit()->setEnabled(hasTree);
    filterColumn()->setEnabled(hasTree);
    const bool onTree = tab == DiscoveryTab && hasTree;
    m_zoomInAction->setEnabled(onTree);
    m_zoomOutAction->setEnabled(onTree);
    m_fitAction->setEnabled(onTree);
    m_legendAction->setEnabled(onTree);
    m_findAction->setEnabled(hasTree);
    const bool hasWorlds = !m_workspace->worlds().isEmpty();
    const bool hasVersions = !m_workspace->versions().isEmpty();
    FigureSource *figure = currentFigureSource();
    m_exportAction->setEnabled(figure && figure->figurePainter());
    const bool writable = m_session->isOpen() && !m_session->isReadOnly();
    m_importAction->setEnabled(writable);
    // Dreaming stores versions and results (not in a project another process
    // writes) and replays them in the project's finished iterations.
    const bool hasIterations = std::any_of(m_workspace->worlds().cbegin(), m_workspace->worlds().cend(),
                                           [](const WorldEntry &w) { return w.iteration != 0 && w.tree; });
    m_dreamAction->setEnabled(writable && hasIterations);
    m_dreamAction->setToolTip(!m_session->isOpen()     ? tr("Dream… needs a project: open or create one")
                              : !writable              ? tr("Dream… is off: another process writes this project")
                              : !hasIterations         ? tr("Dream… is off: the project has no finished iteration to replay "
                                                            "versions in (run a round or import trees first)")
                                                       : tr("Write, replay and propose new policy versions over the "
                                                            "project's worlds"));
    m_replayAction->setEnabled(hasWorlds && hasVersions);
    m_compareAction->setEnabled(hasWorlds && hasVersions);
    m_cancelReplayAction->setEnabled(sweepRunner()->isRunning());
    m_demoReset->update();
}

} // namespace dreamrsi
