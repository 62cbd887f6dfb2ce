#pragma once

#include "appsettings.h"
#include "model/discoverytree.h"
#include "store/storetypes.h"

#include <QMainWindow>

#include <memory>

class QComboBox;
class QLabel;
class QLineEdit;
class QMenu;
class QSortFilterProxyModel;
class QTabWidget;
class QTableView;
class QTreeView;

namespace dreamrsi {

class CellTableModel;
class DiscoveryPage;
class FrontierPage;
class InspectorWidget;
class PoliciesPage;
class ProjectStore;
class ProjectTreeModel;
class ReplayPage;
class SweepRunner;
class TreeView;
class Workspace;
struct PolicyVersion;

/// The workbench's main window: a project dock (worlds and policy
/// versions), an inspector dock and the central tabs. Opens tree files by
/// dialog, command line, drag-and-drop and the recent-files menu; every
/// file is parsed off the GUI thread.
class MainWindow final : public QMainWindow
{
    Q_OBJECT
public:
    enum Tab { DiscoveryTab, CellsTab, ReplayTab, FrontiersTab, PoliciesTab, TabCount };

    explicit MainWindow(QWidget *parent = nullptr);
    ~MainWindow() override;

    /// Starts loading the files off the GUI thread; treeOpened / openFailed follow.
    void openFiles(const QStringList &paths);
    /// Opens a project file (SQLite) with its worlds, versions and results;
    /// projectOpened or openFailed follow.
    void openProject(const QString &path);
    /// Creates an empty project seeded with the built-in policies, then opens it.
    void newProject(const QString &path);
    /// Stores tree files in the open project as new iterations.
    void importTrees(const QStringList &paths);
    QString projectPath() const { return m_projectPath; }
    /// Replays the versions (by name) in every open world.
    void replayVersions(const QStringList &names);
    /// Shows two versions side by side in the Replay tab.
    void compareVersions(const QString &a, const QString &b);
    FrontierPage *frontierPage() const { return m_frontiers; }
    ReplayPage *replayPage() const { return m_replay; }
    PoliciesPage *policiesPage() const { return m_policies; }
    SweepRunner *sweepRunner() const { return m_runner; }

    Workspace *workspace() const { return m_workspace; }
    int openTreeCount() const;
    int currentWorld() const { return m_currentWorld; }
    void setCurrentWorld(int row);
    std::shared_ptr<const DiscoveryTree> currentTree() const;
    QSortFilterProxyModel *cellProxyModel() const { return m_proxy; }
    CellTableModel *cellModel() const { return m_cellModel; }
    QTableView *cellView() const { return m_cellView; }
    QLineEdit *filterEdit() const { return m_filterEdit; }
    QComboBox *filterColumn() const { return m_filterColumn; }
    TreeView *treeView() const;
    InspectorWidget *inspector() const { return m_inspector; }
    QTabWidget *tabs() const { return m_tabs; }
    QTreeView *projectView() const { return m_projectView; }
    ProjectTreeModel *projectModel() const { return m_projectModel; }
    QStringList recentFiles() const;
    const AppSettings &settings() const { return m_settings; }
    void applySettings(const AppSettings &settings);
    bool isDarkTheme() const { return m_dark; }

    /// Renders the current tab's figure into a file (PNG/PDF/SVG by suffix).
    bool exportCurrentFigure(const QString &path, QString *error = nullptr);
    /// Grabs every tab into DIR/NN-name.png; used by packaging/screenshot.sh.
    QStringList saveScreenshots(const QString &dir);

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
    void createActions();
    void createDocks();
    QWidget *createCellsPage();
    void showWorld(int row);
    void inspectCell(int cellIndex);
    void closeCurrentWorld();
    void addRecentFile(const QString &path);
    void rebuildRecentMenu();
    void updateActions();
    void applyFilter();
    void applyTheme();
    void exportFigureInteractive();
    void editSettings();
    void loadProject();
    void storeVersion(const PolicyVersion &version);
    void storeApproval(const Approval &approval);
    void storeResult(const QString &versionName, const std::shared_ptr<const struct ReplayResult> &result);
    void addRecentProject(const QString &path);

    Workspace *m_workspace = nullptr;
    AppSettings m_settings;
    bool m_dark = false;
    bool m_defaultDockSizes = false;
    int m_currentWorld = -1;
    int m_pendingLoads = 0;
    SweepRunner *m_runner = nullptr;
    QStringList m_replayFailures; ///< since the runner was last idle, shown when it is
    ProjectStore *m_store = nullptr;
    QString m_projectPath;
    FrontierPage *m_frontiers = nullptr;
    ReplayPage *m_replay = nullptr;
    PoliciesPage *m_policies = nullptr;
    QAction *m_importAction = nullptr;
    QAction *m_replayAction = nullptr;
    QAction *m_compareAction = nullptr;
    QAction *m_cancelReplayAction = nullptr;
    QMenu *m_recentProjectsMenu = nullptr;

    QTabWidget *m_tabs = nullptr;
    DiscoveryPage *m_discovery = nullptr;
    QTreeView *m_projectView = nullptr;
    ProjectTreeModel *m_projectModel = nullptr;
    InspectorWidget *m_inspector = nullptr;
    QTableView *m_cellView = nullptr;
    CellTableModel *m_cellModel = nullptr;
    QSortFilterProxyModel *m_proxy = nullptr;
    QLineEdit *m_filterEdit = nullptr;
    QComboBox *m_filterColumn = nullptr;
    QLabel *m_cellsLabel = nullptr;
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
