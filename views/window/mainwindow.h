#pragma once

#include "session/demoproject.h"
#include "projectpage.h"
#include "session/preferences.h"
#include "worldopener.h"

#include <QIcon>
#include <QMainWindow>

class QAction;
class QComboBox;
class QDialog;
class QLineEdit;
class QSortFilterProxyModel;
class QTableView;
class QToolBar;

namespace dreamrsi {

class CellTableModel;
class DemoReset;
class RecentMenu;
class TreeView;

/// The workbench's main window (docs/architecture.md#the-rooms-of-views):
/// the menus, the tool bar, the status bar and the docks around the
/// project's pages. It knows pages, not their tabs' wiring: the ProjectPage
/// (the central tabs, the Project and Inspector docks' widgets, replays,
/// the world shown), the live round's RoundPanel (its dock), the served
/// project's RemoteWorkbench; tree files and runs open through the
/// WorldOpener, the project through the ProjectSession. Menus are built one
/// per function (createFileMenu, …); a new action goes into its menu's
/// function and, when it depends on state, into updateActions(). The
/// accessors below hand the pages' parts to tests and the screenshot tour.
class MainWindow final : public QMainWindow
{
    Q_OBJECT
public:
    using Tab = ProjectPage::Tab;
    using enum ProjectPage::Tab;

    explicit MainWindow(QWidget *parent = nullptr);
    ~MainWindow() override;

    /// Opens tree files and runs as worlds (WorldOpener); treeOpened / openFailed follow.
    void openFiles(const QStringList &paths) { m_opener->openFiles(paths); }
    /// An OpenEvolve folder or ShinkaEvolve database, read-only; without
    /// combined_score the MetricChooser asks which metric scores, unless `metric` is given.
    void openRun(const QString &path, std::optional<QString> metric = std::nullopt) { m_opener->openRun(path, metric); }
    using MetricChooser = WorldOpener::MetricChooser;
    /// Replaces the dialog that asks (tests answer it themselves).
    void setMetricChooser(MetricChooser chooser) { m_opener->setMetricChooser(std::move(chooser)); }
    /// Opens a project file (SQLite); projectOpened or openFailed follow.
    void openProject(const QString &path);
    /// Creates an empty project seeded with the built-in policies, then opens it.
    void newProject(const QString &path);
    /// Stores tree files in the open project as new iterations.
    void importTrees(const QStringList &paths) { m_opener->importTrees(paths); }
    QString projectPath() const;
    /// Reloads the project and opens the approval dialog on `name`, the
    /// version a followed loop waits to have approved (RoundPanel::answerApproval).
    void reviewAwaitedApproval(const QString &name);
    ProjectSession *session() const { return m_session; }
    JobTracker *jobs() const { return m_jobs; }
    ProjectPage *projectPage() const { return m_page; }
    /// The one path of every replay from the window (ProjectPage::replayVersions).
    void replayVersions(const QStringList &names) { m_page->replayVersions(names); }
    /// The Project dock's version while it has the focus, else Policies' on its tab, else Frontiers' checked ones.
    QStringList selectedVersions() const { return m_page->selectedVersions(); }
    /// Shows two versions side by side in the Replay tab.
    void compareVersions(const QString &a, const QString &b) { m_page->compareVersions(a, b); }
    FrontierPage *frontierPage() const { return m_page->frontierPage(); }
    ProgressPage *progressPage() const { return m_page->progressPage(); }
    ComparePage *comparePage() const { return m_page->comparePage(); }
    WorldModelPage *worldModelPage() const { return m_page->worldModelPage(); }
    DiscoveryPage *discoveryPage() const { return m_page->discoveryPage(); }
    ReplayPage *replayPage() const { return m_page->replayPage(); }
    PoliciesPage *policiesPage() const { return m_page->policiesPage(); }
    SweepRunner *sweepRunner() const { return m_page->sweepRunner(); }
    RoundPanel *roundPanel() const { return m_roundPanel; }

    Workspace *workspace() const { return m_workspace; }
    int openTreeCount() const;
    int currentWorld() const { return m_page->currentWorld(); }
    void setCurrentWorld(int row) { m_page->setCurrentWorld(row); }
    std::shared_ptr<const DiscoveryTree> currentTree() const { return m_page->currentTree(); }
    QSortFilterProxyModel *cellProxyModel() const;
    CellTableModel *cellModel() const;
    QTableView *cellView() const;
    QLineEdit *filterEdit() const;
    QComboBox *filterColumn() const;
    TreeView *treeView() const;
    /// Whether `path` is the bundled demo's private copy (DemoProject::isDemoCopy).
    static bool isDemoCopy(const QString &path) { return DemoProject::isDemoCopy(path); }
    /// The bundled demo, for File ▸ Reset Demo (DemoReset).
    void setDemo(const DemoProject &demo);
    /// File ▸ Reset Demo: asks ("resetDemoQuestion"), then makes the copy again and opens it.
    void resetDemo();
    /// Where New Project starts: the last project's folder when writable,
    /// else the documents folder (never an imported run's folder).
    static QString newProjectFolder();
    /// Help ▸ Keyboard Shortcuts (the caller owns it).
    QDialog *shortcutsDialog();
    InspectorWidget *inspector() const { return m_page->inspector(); }
    QTabWidget *tabs() const { return m_page; }
    QTreeView *projectView() const { return m_page->projectView(); }
    ProjectTreeModel *projectModel() const { return m_page->projectModel(); }
    QStringList recentFiles() const;
    /// The person's preferences, one object the pages and dialogs read and
    /// connect to (Preferences); settings() is theirs.
    Preferences *preferences() const { return m_preferences; }
    const AppSettings &settings() const { return m_preferences->settings(); }
    /// Settings' OK: the preferences take them (and tell whoever uses them).
    void applySettings(const AppSettings &settings) { m_preferences->set(settings); }
    /// The replay configuration replays run under: the open project's, else
    /// the loose tree files' one from the preferences.
    ReplayConfig replayConfig() const { return m_page->replayConfig(); }
    bool isDarkTheme() const { return m_dark; }

    /// The page on screen as a figure, its file and its data (ProjectPage).
    FigureSource *currentFigureSource() const { return m_page->currentFigureSource(); }
    Result<Done> exportCurrentFigure(const QString &path) { return m_page->exportCurrentFigure(path); }
    Result<Done> exportCurrentFigureData(const QString &path) { return m_page->exportCurrentFigureData(path); }

signals:
    void treeOpened(const QString &path);
    void openFailed(const QString &path, const QString &message);
    void cellInspected(int cellIndex);
    void projectOpened(const QString &path);
    void projectLoaded(const QString &path);
    void resultsStored(const QString &versionName);
    /// An approval of `versionName` for redeployment is in the project.
    void approvalStored(const QString &versionName);

protected:
    void closeEvent(QCloseEvent *event) override;
    void showEvent(QShowEvent *event) override;
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;

private:
    void createDocks();
    void connectSession();
    void createActions();
    QIcon themeIcon(const char *name, int fallback) const;
    void createFileMenu();
    void createEditMenu();
    void createViewMenu();
    void createReplayMenu();
    /// The live round: its dock, its actions on the toolbar and in the Round menu, its status.
    void createRoundMenu();
    void createHelpMenu();
    void updateActions();
    void applyTheme();
    void editSettings();
    void showMessage(const QString &text, int timeoutMs);

    Workspace *m_workspace = nullptr;
    JobTracker *m_jobs = nullptr;
    ProjectSession *m_session = nullptr;
    Preferences *m_preferences = nullptr;
    bool m_dark = false;
    bool m_defaultDockSizes = false;
    RoundPanel *m_roundPanel = nullptr;
    ProjectPage *m_page = nullptr;
    WorldOpener *m_opener = nullptr;
    DemoReset *m_demoReset = nullptr;
    RecentMenu *m_recentMenu = nullptr;
    QToolBar *m_toolbar = nullptr;
    QAction *m_importAction = nullptr;
    QAction *m_replayAction = nullptr;
    QAction *m_compareAction = nullptr;
    QAction *m_cancelReplayAction = nullptr;
    QAction *m_dreamAction = nullptr;
    QAction *m_closeAction = nullptr;
    QAction *m_exportAction = nullptr;
    QAction *m_zoomInAction = nullptr;
    QAction *m_zoomOutAction = nullptr;
    QAction *m_fitAction = nullptr;
    QAction *m_legendAction = nullptr;
    QAction *m_findAction = nullptr;
    QAction *m_darkAction = nullptr;
};

} // namespace dreamrsi
