#pragma once

#include "demoproject.h"
#include "session/appsettings.h"
#include "model/discoverytree.h"
#include "store/storetypes.h"

#include <QIcon>
#include <QMainWindow>

#include <functional>
#include <optional>
#include <memory>

class QComboBox;
class QAction;
class QDialog;
class QLabel;
class QLineEdit;
class QMenu;
class QSortFilterProxyModel;
class QTabWidget;
class QTableView;
class QToolBar;
class QTreeView;

namespace dreamrsi {

class CellTableModel;
class CellsPage;
class ComparePage;
class DiscoveryPage;
class FigureSource;
class FrontierPage;
class ImaginedCells;
class ProgressPage;
class InspectorWidget;
class JobTracker;
class PoliciesPage;
class ProjectSession;
class ProjectTreeModel;
class ReevaluationActions;
class ReplayPage;
class RoundPanel;
class SweepRunner;
class TreeView;
class Workspace;
class WorldModelPage;
struct PolicyVersion;
struct ReplayResult;

/// The workbench's main window: a project dock (worlds and policy
/// versions), an inspector dock and the central tabs. Opens tree files by
/// dialog, command line, drag-and-drop and the recent-files menu; every
/// file is parsed off the GUI thread.
///
/// It only builds the window and connects: the open project is a
/// ProjectSession (store, staged loading, writes), background answers go
/// through one JobTracker, each page owns its widgets. Menus are built one
/// per function (createFileMenu, …); a new action goes into its menu's
/// function and, when it depends on state, into updateActions().
class MainWindow final : public QMainWindow
{
    Q_OBJECT
public:
    enum Tab { DiscoveryTab, CellsTab, ReplayTab, FrontiersTab, PoliciesTab, ProgressTab, WorldModelTab, CompareTab, TabCount };

    explicit MainWindow(QWidget *parent = nullptr);
    ~MainWindow() override;

    /// Starts loading the files off the GUI thread; treeOpened / openFailed follow.
    /// A run of OpenEvolve or ShinkaEvolve (a folder, a Shinka database) opens
    /// as the tree it maps onto (openRun).
    void openFiles(const QStringList &paths);
    /// Opens an OpenEvolve folder or a ShinkaEvolve database read-only as a
    /// world (core/import). A run without combined_score asks which of its
    /// numeric metrics to score by, unless `metric` is given ("" = the
    /// framework's own fallback). treeOpened / openFailed follow.
    void openRun(const QString &path, std::optional<QString> metric = std::nullopt);
    /// Answers openRun()'s question: the run's path and its numeric metrics;
    /// the metric chosen ("" for the mean of all), or nothing to cancel.
    using MetricChooser = std::function<std::optional<QString>(const QString &run, const QStringList &metrics)>;
    /// Replaces the dialog that asks (tests answer it themselves).
    void setMetricChooser(MetricChooser chooser) { m_metricChooser = std::move(chooser); }
    /// Opens a project file (SQLite) with its worlds, versions and results;
    /// projectOpened or openFailed follow.
    void openProject(const QString &path);
    /// Creates an empty project seeded with the built-in policies, then opens it.
    void newProject(const QString &path);
    /// Stores tree files in the open project as new iterations.
    void importTrees(const QStringList &paths);
    QString projectPath() const;
    /// Reloads the project and opens the approval dialog on `name`, the
    /// version a followed loop waits to have approved (RoundPanel::answerApproval).
    void reviewAwaitedApproval(const QString &name);
    ProjectSession *session() const { return m_session; }
    JobTracker *jobs() const { return m_jobs; }
    /// Replays the versions (by name) in every open world under replayConfig()
    /// (the project's: W, λ, β, K, the valuation and C) and stores their
    /// values: the one path of Replay ▸ Replay Selected Versions, Frontiers'
    /// Replay Checked Versions and the replay of stale versions. The status
    /// bar then says each version's value, or why nothing was valued.
    void replayVersions(const QStringList &names);
    /// The versions Replay ▸ Replay Selected Versions replays: the version
    /// selected in the Project dock while it has the focus; else on the
    /// Policies tab the one selected there; else the versions checked in
    /// Frontiers (what its Replay Checked Versions replays). May be empty.
    QStringList selectedVersions() const;
    /// Shows two versions side by side in the Replay tab.
    void compareVersions(const QString &a, const QString &b);
    FrontierPage *frontierPage() const { return m_frontiers; }
    ProgressPage *progressPage() const { return m_progress; }
    ComparePage *comparePage() const { return m_compare; }
    WorldModelPage *worldModelPage() const { return m_worldModel; }
    DiscoveryPage *discoveryPage() const { return m_discovery; }
    ReplayPage *replayPage() const { return m_replay; }
    PoliciesPage *policiesPage() const { return m_policies; }
    SweepRunner *sweepRunner() const { return m_runner; }
    RoundPanel *roundPanel() const { return m_roundPanel; }

    Workspace *workspace() const { return m_workspace; }
    int openTreeCount() const;
    int currentWorld() const { return m_currentWorld; }
    void setCurrentWorld(int row);
    std::shared_ptr<const DiscoveryTree> currentTree() const;
    QSortFilterProxyModel *cellProxyModel() const;
    CellTableModel *cellModel() const;
    QTableView *cellView() const;
    QLineEdit *filterEdit() const;
    QComboBox *filterColumn() const;
    TreeView *treeView() const;
    /// Whether `path` is the bundled demo's private copy (named after its
    /// content's hash): menus and the title call it "Demo project".
    static bool isDemoCopy(const QString &path);
    /// The bundled demo (app/workbench/main.cpp sets it; tests name the
    /// source folder's): File ▸ Reset Demo is on while its private copy is
    /// the open project, writable, with no round or replay running.
    void setDemo(const DemoProject &demo);
    /// File ▸ Reset Demo: asks (it discards the user's changes to the private
    /// copy, a question named "resetDemoQuestion"), then closes the copy,
    /// makes it again from the bundled demo and opens it (projectLoaded follows).
    void resetDemo();
    /// Where New Project starts: the last project's folder when writable,
    /// else the documents folder (never an imported run's folder).
    static QString newProjectFolder();
    /// Help ▸ Keyboard Shortcuts: every shortcut of the menus and the tree view (the caller owns it).
    QDialog *shortcutsDialog();
    InspectorWidget *inspector() const { return m_inspector; }
    QTabWidget *tabs() const { return m_tabs; }
    QTreeView *projectView() const { return m_projectView; }
    ProjectTreeModel *projectModel() const { return m_projectModel; }
    QStringList recentFiles() const;
    const AppSettings &settings() const { return m_settings; }
    void applySettings(const AppSettings &settings);
    /// The replay configuration replays run under: the open project's, else
    /// the loose tree files' one from the preferences.
    ReplayConfig replayConfig() const;
    bool isDarkTheme() const { return m_dark; }

    /// The page on screen as a figure (FigureSource), or null when it draws none.
    FigureSource *currentFigureSource() const;
    /// Renders the current tab's figure into a file (PNG/PDF/SVG by suffix).
    Result<Done> exportCurrentFigure(const QString &path);
    /// Writes the numbers behind the current tab's figure as CSV (FigureData).
    Result<Done> exportCurrentFigureData(const QString &path);

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
    void connectRunner();
    void createActions();
    QIcon themeIcon(const char *name, int fallback) const;
    void createFileMenu();
    void createEditMenu();
    void createViewMenu();
    void createReplayMenu();
    void simulateLoop();
    /// The live round: its dock, its actions on the toolbar and in the Round menu, its status.
    void createRoundMenu();
    void createHelpMenu();
    void showWorld(int row);
    /// Tells the Discovery page where the shown world is in the project's
    /// history and the project's C (for Show imagined cells).
    void updateImaginationContext();
    /// What the Discovery tab says while it shows no tree (the project's state).
    void updateDiscoveryPlaceholder();
    void inspectCell(int cellIndex);
    void closeCurrentWorld();
    void addRecentFile(const QString &path);
    void addRecentProject(const QString &path);
    void rebuildRecentMenu();
    void updateActions();
    void applyTheme();
    void exportFigureInteractive();
    void editSettings();
    /// Hands the preferences and replayConfig() to the replay runner and the replay page.
    void pushReplaySettings();
    /// What a finished replay gave, for the status bar: "Replayed v6 over 5 worlds: value 0.9047", or why it has no value.
    QString replayOutcome(const QString &name, const ReplayResult &result) const;
    /// After the project's replay configuration changed: offers to replay the
    /// versions it made stale (as a replay job with progress).
    void offerStaleReplay(const QStringList &staleVersions);
    /// The project iteration shown, 0 for none (a loose file, no project).
    IterationId currentIteration() const;
    // File ▸ Reset Demo (mainwindowdemo.cpp).
    void createResetDemoAction(QMenu *file);
    void updateResetDemoAction();
    /// Replaces the open demo copy by the bundled demo and reopens it (confirmed).
    void replaceDemoCopy();

    Workspace *m_workspace = nullptr;
    JobTracker *m_jobs = nullptr;
    MetricChooser m_metricChooser;
    ProjectSession *m_session = nullptr;
    AppSettings m_settings;
    bool m_dark = false;
    bool m_defaultDockSizes = false;
    int m_currentWorld = -1;
    SweepRunner *m_runner = nullptr;
    RoundPanel *m_roundPanel = nullptr;
    ReevaluationActions *m_reevaluation = nullptr;
    std::optional<DemoProject> m_demo; ///< the bundled demo, when the window knows it
    QString m_demoCopy;                ///< its private copy's path
    QAction *m_resetDemoAction = nullptr;
    QStringList m_replayOutcomes; ///< what each replay gave since the runner was last idle, said when it is
    FrontierPage *m_frontiers = nullptr;
    ProgressPage *m_progress = nullptr;
    WorldModelPage *m_worldModel = nullptr;
    ComparePage *m_compare = nullptr;
    ImaginedCells *m_imaginedCells = nullptr; ///< draws the Discovery page's imagined cells
    ReplayPage *m_replay = nullptr;
    PoliciesPage *m_policies = nullptr;
    QAction *m_importAction = nullptr;
    QAction *m_replayAction = nullptr;
    QAction *m_compareAction = nullptr;
    QAction *m_cancelReplayAction = nullptr;
    QAction *m_dreamAction = nullptr;

    QTabWidget *m_tabs = nullptr;
    DiscoveryPage *m_discovery = nullptr;
    CellsPage *m_cells = nullptr;
    QTreeView *m_projectView = nullptr;
    ProjectTreeModel *m_projectModel = nullptr;
    InspectorWidget *m_inspector = nullptr;
    QToolBar *m_toolbar = nullptr;
    QMenu *m_recentMenu = nullptr;
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
