#pragma once

#include "session/preferences.h"
#include "model/discoverytree.h"
#include "store/storetypes.h"

#include <QTabWidget>

#include <memory>

class QMenu;
class QTreeView;

namespace dreamrsi {

class CellsPage;
class ComparePage;
class DiscoveryPage;
class FigureSource;
class FrontierPage;
class ImaginedCells;
class InspectorWidget;
class JobTracker;
class PoliciesPage;
class ProgressPage;
class ProjectSession;
class ProjectTreeModel;
class ReevaluationActions;
class ReplayPage;
class RoundPanel;
class SweepRunner;
class Workspace;
class WorldModelPage;
struct ReplayResult;

/// The project's pages between the main window and its tabs
/// (docs/architecture.md#the-rooms-of-views): the central tabs (Discovery,
/// Cells, Replay, Frontiers, Policies, Progress, World Model, Compare), the
/// widgets of the Project and Inspector docks (the window docks them), the
/// replay runner, and their wiring: the world shown, the cell inspected,
/// the replays and what they gave, the figure on screen. The window knows
/// this page, its menus call it; what it says for the status bar comes as
/// statusMessage().
class ProjectPage final : public QTabWidget
{
    Q_OBJECT
public:
    enum Tab { DiscoveryTab, CellsTab, ReplayTab, FrontiersTab, PoliciesTab, ProgressTab, WorldModelTab, CompareTab, TabCount };

    /// `round` is the live round's panel: the Discovery tab's placeholder
    /// says when a round runs. The pages, the runner and the dialogs read
    /// `preferences` and follow their changes themselves.
    ProjectPage(Workspace *workspace, JobTracker *jobs, ProjectSession *session, RoundPanel *round,
                Preferences *preferences, QWidget *parent = nullptr);
    ~ProjectPage() override;

    /// Re-evaluation's actions (views/tree/reevaluationactions): `window`
    /// parents their dialogs, Re-evaluate the Best… goes into `roundMenu`.
    void addReevaluation(QWidget *window, QMenu *roundMenu);

    Workspace *workspace() const { return m_workspace; }
    JobTracker *jobs() const { return m_jobs; }
    DiscoveryPage *discoveryPage() const { return m_discovery; }
    CellsPage *cellsPage() const { return m_cells; }
    ReplayPage *replayPage() const { return m_replay; }
    FrontierPage *frontierPage() const { return m_frontiers; }
    PoliciesPage *policiesPage() const { return m_policies; }
    ProgressPage *progressPage() const { return m_progress; }
    WorldModelPage *worldModelPage() const { return m_worldModel; }
    ComparePage *comparePage() const { return m_compare; }
    InspectorWidget *inspector() const { return m_inspector; }
    QTreeView *projectView() const { return m_projectView; }
    ProjectTreeModel *projectModel() const { return m_projectModel; }
    SweepRunner *sweepRunner() const { return m_runner; }

    /// The world shown in Discovery and Cells (a row of the workspace), -1 for none.
    int currentWorld() const { return m_currentWorld; }
    void setCurrentWorld(int row);
    std::shared_ptr<const DiscoveryTree> currentTree() const;
    /// The project iteration shown, 0 for none (a loose file, no project).
    IterationId currentIteration() const;
    void closeCurrentWorld();
    /// What the Discovery tab says while it shows no tree (the project's state).
    void updateDiscoveryPlaceholder();
    /// The Progress and Compare tabs read this project file ("" for none).
    void setProject(const QString &path);
    /// The Progress and Compare tabs for a served project, through its
    /// iterations' temporary copy at `copyPath` (docs/remote.md).
    void setServedProject(const QString &copyPath);

    /// The open project's replay configuration, else the loose tree files' one from the preferences.
    ReplayConfig replayConfig() const;
    void setDark(bool dark);

    /// MainWindow::replayVersions, selectedVersions and compareVersions.
    void replayVersions(const QStringList &names);
    QStringList selectedVersions() const;
    void compareVersions(const QString &a, const QString &b);
    /// After the project's replay configuration changed: offers to replay the
    /// versions it made stale (as a replay job with progress).
    void offerStaleReplay(const QStringList &staleVersions);

    /// Edit ▸ Find Cells: the Cells tab's filter there, else the Discovery tab's search.
    void findCells();
    /// Replay ▸ Compare Two Versions: the versions checked in Frontiers, filled up with the first ones.
    void compareCheckedVersions();
    /// Replay ▸ Dream… and Simulate the Loop…: their dialogs over the project.
    void dream();
    void simulateLoop();

    /// The page on screen as a figure (FigureSource), or null when it draws none.
    FigureSource *currentFigureSource() const;
    Result<Done> exportCurrentFigure(const QString &path);
    Result<Done> exportCurrentFigureData(const QString &path);
    /// File ▸ Export Figure…: the dialog, then both files.
    void exportFigureInteractive();

signals:
    /// A line for the status bar (timeout 0: until the next).
    void statusMessage(const QString &text, int timeoutMs);
    /// The world shown changed: its name, empty for none (the window's title).
    void worldShown(const QString &name);
    void cellInspected(int cellIndex);
    /// What the window's actions depend on changed.
    void actionsChanged();

private:
    void createDocksWidgets();
    void connectPages();
    void connectRunner();
    void showWorld(int row);
    /// Tells the Discovery page where the shown world is in the project's
    /// history and the project's C (for Show imagined cells).
    void updateImaginationContext();
    void inspectCell(int cellIndex);
    /// replayConfig() to the runner and the Replay tab (the project's changed, or the preferences' for tree files).
    void pushReplayConfig();
    /// What a finished replay gave, for the status bar: "Replayed v6 over 5 worlds: value 0.9047", or why it has no value.
    QString replayOutcome(const QString &name, const ReplayResult &result) const;

    Workspace *m_workspace;
    JobTracker *m_jobs;
    ProjectSession *m_session;
    RoundPanel *m_round;
    Preferences *m_preferences;
    int m_currentWorld = -1;
    SweepRunner *m_runner = nullptr;
    QStringList m_replayOutcomes; ///< what each replay gave since the runner was last idle, said when it is
    ReevaluationActions *m_reevaluation = nullptr;
    DiscoveryPage *m_discovery = nullptr;
    CellsPage *m_cells = nullptr;
    ReplayPage *m_replay = nullptr;
    FrontierPage *m_frontiers = nullptr;
    PoliciesPage *m_policies = nullptr;
    ProgressPage *m_progress = nullptr;
    WorldModelPage *m_worldModel = nullptr;
    ComparePage *m_compare = nullptr;
    ImaginedCells *m_imaginedCells = nullptr; ///< draws the Discovery page's imagined cells
    InspectorWidget *m_inspector = nullptr;
    QTreeView *m_projectView = nullptr;
    ProjectTreeModel *m_projectModel = nullptr;
};

} // namespace dreamrsi
