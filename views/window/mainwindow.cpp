#include "mainwindow.h"

#include "apptheme.h"
#include "demoreset.h"
#include "recentmenu.h"
#include "settingsdialog.h"
#include "shortcutsdialog.h"

#include "live/roundpanel.h"
#include "models/workspace.h"
#include "policies/approvaldialog.h"
#include "progress/comparepage.h"
#include "session/jobtracker.h"
#include "session/projectsession.h"
#include "session/uistate.h"
#include "tree/cellspage.h"
#include "tree/inspectorwidget.h"
#include "tree/discoverypage.h"
#include "tree/treeview.h"

#include <QCloseEvent>
#include <QDockWidget>
#include <QFileInfo>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTimer>

namespace dreamrsi {

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent)
    , m_workspace(new Workspace(this))
    , m_jobs(new JobTracker(this))
    , m_preferences(new Preferences(this))
{
    setWindowTitle(tr("Dream-RSI Workbench"));
    setAcceptDrops(true);
    setDockNestingEnabled(true);
    m_session = new ProjectSession(m_workspace, m_jobs, this);
    m_roundPanel = new RoundPanel(m_session->store(), m_preferences, this);
    // The project's pages, each tab's wiring theirs (projectpage.h).
    m_page = new ProjectPage(m_workspace, m_jobs, m_session, m_roundPanel, m_preferences);
    connect(m_page, &ProjectPage::statusMessage, this, &MainWindow::showMessage);
    connect(m_page, &ProjectPage::actionsChanged, this, &MainWindow::updateActions);
    connect(m_page, &ProjectPage::cellInspected, this, &MainWindow::cellInspected);
    connect(m_page, &ProjectPage::worldShown, this, [this](const QString &name) {
        setWindowTitle(name.isEmpty() ? tr("Dream-RSI Workbench") : tr("%1 — Dream-RSI Workbench").arg(name));
    });
    setCentralWidget(m_page);
    m_opener = new WorldOpener(m_page, m_session, m_jobs, this);
    connect(m_opener, &WorldOpener::statusMessage, this, &MainWindow::showMessage);
    connect(m_opener, &WorldOpener::treeOpened, this, &MainWindow::treeOpened);
    connect(m_opener, &WorldOpener::openFailed, this, &MainWindow::openFailed);
    m_demoReset = new DemoReset(m_session, m_jobs, m_roundPanel, m_page->sweepRunner(), this);
    connect(m_demoReset, &DemoReset::statusMessage, this, &MainWindow::showMessage);
    connect(m_demoReset, &DemoReset::openRequested, this, &MainWindow::openProject);
    createDocks();
    createActions();
    // A tree file or a run shown as a world is not the round's: the Live
    // Round dock lets go of a finished round it showed (RoundPanel::showWorldFile).
    connect(m_opener, &WorldOpener::worldOpened, this, [this](const QString &path) {
        m_recentMenu->addFile(path);
        m_roundPanel->showWorldFile();
    });
    // A round that ended (here or in the process being followed) becomes a
    // world: reopening reads it, for writing once the other process let go.
    connect(m_roundPanel, &RoundPanel::roundFinished, this, [this] { openProject(m_session->path()); });
    connect(m_roundPanel, &RoundPanel::writerReleased, this, [this] { openProject(m_session->path()); });
    connect(m_roundPanel, &RoundPanel::runningChanged, m_page, &ProjectPage::updateDiscoveryPlaceholder);
    connect(m_roundPanel, &RoundPanel::followingChanged, m_page, &ProjectPage::updateDiscoveryPlaceholder);
    // A followed loop waits for approval: reload (the dream's versions and
    // values are new), then the same dialog as for an own approval; its
    // answer goes to the loop through the inbox.
    connect(m_roundPanel, &RoundPanel::approvalReviewRequested, this, &MainWindow::reviewAwaitedApproval);
    statusBar()->showMessage(tr("Ready"));
    connectSession();
    m_page->addReevaluation(this, menuBar()->findChild<QMenu *>(QStringLiteral("menuRound")));

    if (!restoreGeometry(UiState::windowGeometry())) {
        // The default size, within the screen's free area.
        const QRect free = screen() ? screen()->availableGeometry() : QRect(0, 0, 1400, 860);
        resize(std::min(1400, free.width()), std::min(860, free.height()));
    }
    // Without a saved layout, size the docks once the window has its real size.
    m_defaultDockSizes = !restoreState(UiState::windowState());
    m_recentMenu->rebuild();
    applyTheme();
    // The theme follows the preferences, from Settings or View ▸ Dark Theme.
    connect(m_preferences, &Preferences::themeChanged, this, &MainWindow::applyTheme);
    updateActions();
}

MainWindow::~MainWindow() = default;

void MainWindow::showMessage(const QString &text, int timeoutMs)
{
    statusBar()->showMessage(text, timeoutMs);
}

void MainWindow::connectSession()
{
    connect(m_session, &ProjectSession::opened, this, [this](const QString &path, const OpenReport &report) {
        m_recentMenu->addProject(path);
        m_roundPanel->showProject(path); // before following: what is followed below is this project's
        const QString name = isDemoCopy(path) ? tr("Demo project") : QFileInfo(path).completeBaseName();
        if (report.readOnly && report.writer) {
            setWindowTitle(tr("%1 (read-only) — Dream-RSI Workbench").arg(name));
            statusBar()->showMessage(tr("Another process (pid %1) writes this project: it is open read-only and its round is followed")
                                         .arg(report.writer->pid),
                                     8000);
            m_roundPanel->followProject(*report.writer);
        } else {
            setWindowTitle(tr("%1 — Dream-RSI Workbench").arg(name));
            m_roundPanel->stopFollowing();
        }
        if (!report.interrupted.isEmpty())
            statusBar()->showMessage(tr("%n interrupted round(s) found; their finished attempts are kept.", nullptr,
                                        int(report.interrupted.size())), 8000);
        m_page->setProject(path);
        updateActions();
        emit projectOpened(path);
    });
    connect(m_session, &ProjectSession::openFailed, this, [this](const QString &path, const QString &message) {
        emit openFailed(path, message);
        QMessageBox::warning(this, tr("Cannot open project"), message);
        statusBar()->clearMessage();
    });
    // A part that cannot be read is said in the window and the rest still loads.
    connect(m_session, &ProjectSession::stageFailed, this, [this](ProjectSession::Stage stage, const QString &message) {
        const QString title = stage == ProjectSession::Stage::Worlds     ? tr("Cannot read project")
                              : stage == ProjectSession::Stage::Versions ? tr("Cannot read policy versions")
                              : stage == ProjectSession::Stage::Results  ? tr("Cannot read replay results")
                                                                         : tr("Cannot read approvals");
        QMessageBox::warning(this, title, message);
    });
    connect(m_session, &ProjectSession::loaded, this, [this](const QString &path) {
        statusBar()->showMessage(tr("Project %1: %2 worlds, %3 policy versions")
                                     .arg(QFileInfo(path).fileName())
                                     .arg(m_workspace->worlds().size())
                                     .arg(m_workspace->versions().size()), 6000);
        if (currentWorld() < 0 && !m_workspace->worlds().isEmpty())
            setCurrentWorld(0);
        updateActions();
        emit projectLoaded(path);
    });
    connect(m_session, &ProjectSession::treeImported, this, [this](const QString &source, int row) {
        setCurrentWorld(row);
        statusBar()->showMessage(tr("Imported %1 into the project").arg(QFileInfo(source).fileName()), 5000);
        emit treeOpened(source);
    });
    connect(m_session, &ProjectSession::importFailed, this, [this](const QString &source, const QString &message) {
        emit openFailed(source, message);
        QMessageBox::warning(this, tr("Cannot import tree"), message);
    });
    connect(m_session, &ProjectSession::storeFailed, this, [this](const QString &what, const QString &message) {
        QMessageBox::warning(this, tr("Cannot store %1").arg(what), message);
    });
    connect(m_session, &ProjectSession::resultsStored, this, &MainWindow::resultsStored);
    connect(m_session, &ProjectSession::replayConfigStored, m_page, &ProjectPage::offerStaleReplay);
    connect(m_session, &ProjectSession::approvalStored, this, [this](const QString &name) {
        statusBar()->showMessage(tr("%1 approved: the next online round deploys it").arg(name), 8000);
        emit approvalStored(name);
    });
}

void MainWindow::openProject(const QString &path)
{
    statusBar()->showMessage(tr("Opening project %1…").arg(QFileInfo(path).fileName()));
    m_roundPanel->stopFollowing(); // the store is about to close; opened() says what to follow next
    m_session->open(path);
}

void MainWindow::reviewAwaitedApproval(const QString &name)
{
    connect(
        m_session, &ProjectSession::loaded, this,
        [this, name] {
            if (m_workspace->indexOfVersion(name) < 0) {
                statusBar()->showMessage(tr("Version %1 is not in the project (yet); try again").arg(name), 8000);
                return;
            }
            auto *dialog = new ApprovalDialog(*m_workspace, name, m_preferences, this);
            dialog->setAttribute(Qt::WA_DeleteOnClose);
            dialog->setObjectName(QStringLiteral("awaitedApprovalDialog"));
            connect(dialog, &QDialog::accepted, this, [this, dialog, name] {
                const Approval a = dialog->approval();
                m_roundPanel->answerApproval(name, a.who, a.note);
            });
            dialog->open();
        },
        Qt::SingleShotConnection);
    openProject(m_session->path());
}

void MainWindow::newProject(const QString &path)
{
    m_roundPanel->stopFollowing();
    m_session->create(path);
}

QString MainWindow::projectPath() const
{
    return m_session->path();
}

QString MainWindow::newProjectFolder()
{
    // The folder of the last project opened or made, when it can take a new
    // one; never the last imported run's (often read-only) folder.
    const QFileInfo last(UiState::lastProjectDir());
    if (!last.filePath().isEmpty() && last.isDir() && last.isWritable())
        return last.absoluteFilePath();
    const QString documents = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    return QFileInfo(documents).isDir() ? documents : QDir::homePath();
}

void MainWindow::setDemo(const DemoProject &demo)
{
    m_demoReset->setDemo(demo);
    updateActions();
}

void MainWindow::resetDemo()
{
    m_demoReset->reset();
}

QDialog *MainWindow::shortcutsDialog()
{
    return new ShortcutsDialog(menuBar(), this);
}

QStringList MainWindow::recentFiles() const
{
    return RecentMenu::recentFiles();
}

void MainWindow::createDocks()
{
    auto *projectDock = new QDockWidget(tr("Project"), this);
    projectDock->setObjectName(QStringLiteral("projectDock"));
    projectDock->setWidget(m_page->projectView());
    addDockWidget(Qt::LeftDockWidgetArea, projectDock);
    auto *inspectorDock = new QDockWidget(tr("Inspector"), this);
    inspectorDock->setObjectName(QStringLiteral("inspectorDock"));
    inspectorDock->setWidget(m_page->inspector());
    addDockWidget(Qt::RightDockWidgetArea, inspectorDock);
}

int MainWindow::openTreeCount() const
{
    return int(m_workspace->worlds().size());
}

TreeView *MainWindow::treeView() const
{
    return m_page->discoveryPage()->treeView();
}

QSortFilterProxyModel *MainWindow::cellProxyModel() const
{
    return m_page->cellsPage()->proxy();
}

CellTableModel *MainWindow::cellModel() const
{
    return m_page->cellsPage()->model();
}

QTableView *MainWindow::cellView() const
{
    return m_page->cellsPage()->view();
}

QLineEdit *MainWindow::filterEdit() const
{
    return m_page->cellsPage()->filterEdit();
}

QComboBox *MainWindow::filterColumn() const
{
    return m_page->cellsPage()->filterColumn();
}

void MainWindow::applyTheme()
{
    m_dark = AppTheme::apply(settings().theme);
    m_darkAction->setChecked(m_dark);
    m_page->setDark(m_dark);
    // The live round's tree and charts, and icons that would vanish on a dark palette.
    m_roundPanel->treeView()->setDarkPalette(m_dark);
    AppTheme::styleCharts(this, m_dark);
    AppTheme::adaptIcons(findChildren<QAction *>(), m_dark);
    m_page->comparePage()->setDark(m_dark);
}

void MainWindow::editSettings()
{
    auto *dialog = new SettingsDialog(settings(), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    const std::optional<StoredReplayConfig> config = m_session->isOpen() ? m_workspace->replayConfig() : std::nullopt;
    if (config)
        dialog->setProjectReplayConfig(config->config, QFileInfo(m_session->path()).completeBaseName());
    connect(dialog, &QDialog::accepted, this, [this, dialog, config] {
        applySettings(dialog->settings());
        const std::optional<ReplayConfig> edited = dialog->projectReplayConfig();
        if (config && edited && !(*edited == config->config))
            m_session->setReplayConfig(*edited); // then ProjectPage::offerStaleReplay()
    });
    dialog->open();
}

void MainWindow::showEvent(QShowEvent *event)
{
    QMainWindow::showEvent(event);
    if (!m_defaultDockSizes)
        return;
    m_defaultDockSizes = false;
    // After the first layout pass, when the docks have their places.
    QTimer::singleShot(0, this, [this] {
        QList<QDockWidget *> docks;
        QList<int> widths;
        for (QDockWidget *d : findChildren<QDockWidget *>()) {
            docks.append(d);
            widths.append(d->objectName() == QLatin1String("inspectorDock") ? width() * 3 / 10 : width() / 6);
        }
        resizeDocks(docks, widths, Qt::Horizontal);
    });
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    UiState::setWindowLayout(saveGeometry(), saveState());
    event->accept();
}

void MainWindow::dragEnterEvent(QDragEnterEvent *event)
{
    if (event->mimeData()->hasUrls())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent *event)
{
    QStringList paths;
    for (const QUrl &url : event->mimeData()->urls()) {
        if (!url.isLocalFile())
            continue;
        // A dropped project opens as the project; tree files and runs
        // (OpenEvolve folders, ShinkaEvolve databases) open as worlds.
        if (url.toLocalFile().endsWith(QLatin1String(".dreamrsi")))
            openProject(url.toLocalFile());
        else
            paths.append(url.toLocalFile());
    }
    if (!paths.isEmpty())
        openFiles(paths);
    event->acceptProposedAction();
}

} // namespace dreamrsi
