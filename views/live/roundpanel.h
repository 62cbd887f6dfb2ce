#pragma once

#include "task/task.h"
#include "loop/round/roundliveness.h"
#include "loop/round/roundtypes.h"
#include "model/cell.h"
#include "store/storetypes.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QHash>
#include <QList>
#include <QSet>
#include <QStringList>
#include <QWidget>

#include <optional>

class QAction;
class QDialog;
class QLabel;
class QMenu;
class QPlainTextEdit;
class QTimer;
class QTreeView;

namespace dreamrsi {

class ApprovalBar;
class JobTracker;
class LiveDashboard;
class LiveTreeModel;
class ManualBatchBar;
class Preferences;
class ProjectStore;
class RoundController;
class RemoteFollower;
class RoundStatus;
class TreeView;

/// A live round in the workbench (docs/online.md#a-live-round, #commands): Launch Round (dialog),
/// Stop (a second press kills the running attempts), Resume for interrupted
/// or stopped iterations; the discovery tree growing as cells arrive (an
/// item tree whose rows are inserted, running attempts animated with their
/// elapsed time, and the drawn tree redrawn as cells are stored), the run
/// log, live counters of calls, tokens, cost and best score, and a
/// dashboard charting the best score by agent call and the cost over time.
/// In the main window's status bar, the round's progress and a cancel
/// button (the same Stop).
///
/// What the round does is RoundController's, which this panel wires to its
/// widgets: a round run here (RoundRunner, on its own threads; every signal
/// reaches the panel queued, so the GUI thread never waits on an agent, an
/// evaluator or the store) or one followed in another process that writes
/// the project, opened read-only (RoundFollower): the same tree, log and
/// dashboard, Launch, Stop and Resume disabled, its end reported like the
/// end of an own round; its attempts in flight listed and drawn as the
/// process publishes them, stalled ones marked, and Kill offered when its
/// round accepts steering. A manual round's picks are the ManualBatchBar's, a
/// followed loop's wait for approval the ApprovalBar's.
class RoundPanel final : public QWidget
{
    Q_OBJECT
public:
    /// `preferences`: Launch Round's cluster and agent time limit, who steers
    /// (RoundController::setPreferences); the ones in QSettings when null.
    RoundPanel(ProjectStore *store, Preferences *preferences = nullptr, QWidget *parent = nullptr);
    /// Kills a round still running and waits for its threads.
    ~RoundPanel() override;
    /// A third of a default window's height (its tree, list and charts
    /// side by side need no more), not the drawn tree's own hint: docked
    /// below the tabs it would take them all (MainWindow::createRoundMenu).
    QSize sizeHint() const override;

    /// The round itself: start, stop, follow, steer, resume, approve.
    RoundController *controller() const { return m_controller; }

    QAction *launchAction() const { return m_launch; }
    QAction *stopAction() const { return m_stop; }
    QAction *resumeAction() const { return m_resume; }
    QAction *pauseAction() const { return m_pause; }
    QAction *continueAction() const { return m_continue; }
    /// The status-bar part: progress and cancel (the main window puts it in its status bar).
    RoundStatus *statusWidget() const { return m_status; }
    /// The manual round's picking bar (visible while a batch is wanted).
    ManualBatchBar *manualBar() const { return m_manualBar; }
    /// The bar that says a followed loop waits for approval.
    ApprovalBar *approvalBar() const { return m_approvalBar; }
    LiveTreeModel *model() const { return m_model; }
    TreeView *treeView() const { return m_view; }
    QTreeView *cellList() const { return m_list; }
    LiveDashboard *dashboard() const { return m_dashboard; }
    /// The line that says what the round does, or how it ended.
    QLabel *stateLabel() const { return m_state; }

    /// The steering menu of the cell list for `branch` (or no branch): the
    /// caller owns it. Its requests are disabled unless a round is live.
    QMenu *steeringMenuFor(std::optional<int> branch);
    /// The menu of the drawn tree at `pos` (widget coordinates): the branch's
    /// there; before the first cell, when the tree is only its placeholder,
    /// a submenu for each branch with a running attempt. The caller owns it.
    QMenu *treeMenuAt(const QPointF &pos);
    /// The dialog a hint is written in, listing the task's directions.
    QDialog *hintDialog(std::optional<int> branch);
    /// The task's directions of the round shown (loaded when it starts).
    const QList<Task::Direction> &directions() const { return m_directions; }
    /// Reads the directions (and time limit) of `task` off the GUI thread,
    /// for the hint dialog and the drawn tree; a round does it as it starts.
    void loadDirections(const QString &task);

    // What the main window asks of the round (RoundController's).
    bool isRunning() const;
    bool isFollowing() const;
    /// Follows the rounds of `writer`, the process that holds the (read-only)
    /// project; Launch and Resume stay disabled while the project is read-only.
    void followProject(const WriterInfo &writer);
    /// Follows the rounds of a served project (docs/remote.md) through
    /// `remote`, shown as a followed round is; Launch and Resume stay
    /// disabled, steering goes to the server. stopFollowing() ends it.
    void followRemote(RemoteFollower *remote);
    /// Stops following (the project was closed or reopened).
    void stopFollowing();
    /// A project was opened: when it is another project than the one whose
    /// round the panel shows, and no round runs, the panel is cleared (tree,
    /// list, log, counters, status), so nothing of the previous project's
    /// round reads as this one's. Opening the same project again (after a
    /// round) keeps what is shown.
    void showProject(const QString &path);
    /// A tree file or a run was opened as a world: the panel is cleared as
    /// for another project (nothing of a finished round reads as the
    /// world's), unless a round runs or is followed here.
    void showWorldFile();
    /// Answers a followed loop that waits for approval (RoundController::answerApproval).
    bool answerApproval(const QString &version, const QString &by = {}, const QString &note = {});

signals:
    void runningChanged(bool running);
    void statusMessage(const QString &text);
    /// The round ended (an own round, or one followed in another process);
    /// its iteration is stored with `status`.
    void roundFinished(qint64 iteration, const QString &status);
    void followingChanged(bool following);
    /// A round of the served project followed (followRemote) ended; the
    /// panel goes on following its next one.
    void remoteRoundFinished(qint64 iteration, const QString &status);
    /// The process that held the followed project has let it go.
    void writerReleased();
    /// The researcher asked to review the waiting proposal (Review and Approve…).
    void approvalReviewRequested(const QString &name);

private:
    void createActions();
    /// The cell list, the drawn tree, the dashboard and the log, split.
    QWidget *createViews();
    void createBars();
    void connectController();

    void launch();
    /// Resume Round: the interrupted and stopped iterations, asked afresh.
    void chooseResume();
    void showResumeChooser();
    void onRunning();
    void onIterationStarted(const IterationInfo &info, bool resumed, bool followed);
    void onCounters(const RoundCounters &counters, bool followed);
    void onFinished(const RoundSummary &summary, bool followed);
    void onFollowing(bool following);
    void onWriterGone(qint64 pid);
    void onBatchWanted(int round, const QStringList &legal, int workers);
    /// Shows a stored cell everywhere: tree, drawn tree, dashboard, progress.
    void takeCell(const Cell &cell);
    void clearRound(const QDateTime &started);
    /// Tree, list, log, counters and status cleared (showProject, showWorldFile).
    void clearShown();
    void appendLog(const QString &line);
    void redrawTree();
    /// The actions' states and the tree's placeholder, from the controller's state.
    void updateActionStates();
    /// The context menu of the cell list: steer the branch under `pos`.
    void steeringMenu(const QPoint &pos);
    /// Shows what was done to a branch in the list and on the drawn tree.
    void markSteered(int branch, const QString &kind);
    /// What the drawn tree says while it has no cell: the round's state.
    void updatePlaceholder();
    void updateProgress();
    void showStatus(bool visible);
    /// Whether the round is alive (docs/online.md#is-it-alive), from the
    /// attempts it publishes and the cells stored: stalled attempts marked in
    /// the list, the state in the status bar when it changes.
    void checkLiveness();
    /// A followed round's attempts in flight (RoundController::followedAttempts):
    /// running rows in the list and the drawn tree, stalled ones marked, the
    /// state in the status bar when it changes.
    void onFollowedAttempts(const IterationLiveness &liveness);
    /// Says in the status bar that the round is live or stalled, when that changed.
    void tellLiveness(const IterationLiveness &state, bool killable);

    ProjectStore *m_store;
    Preferences *m_preferences;
    RoundController *m_controller = nullptr;
    LiveTreeModel *m_model = nullptr;
    QTreeView *m_list = nullptr;
    TreeView *m_view = nullptr;
    QLabel *m_counters = nullptr;
    QLabel *m_state = nullptr;
    QPlainTextEdit *m_log = nullptr;
    LiveDashboard *m_dashboard = nullptr;
    RoundStatus *m_status = nullptr;
    QAction *m_launch = nullptr;
    QAction *m_stop = nullptr;
    QAction *m_resume = nullptr;
    QAction *m_pause = nullptr;
    QAction *m_continue = nullptr;
    ManualBatchBar *m_manualBar = nullptr;
    ApprovalBar *m_approvalBar = nullptr;
    /// Attempt rows up to which the cell list shows every branch expanded.
    static constexpr int ExpandedRows = 1000;
    bool m_listCollapsed = false; ///< the list went past ExpandedRows and was collapsed
    bool m_logFollows = true; ///< the log shows its newest line (until the reader scrolls up)
    QTimer *m_ticker = nullptr;
    QTimer *m_redraw = nullptr;
    /// The round's stored cells, in order, in blocks of CellBlock: a tree
    /// build on a worker shares the blocks, and a cell stored meanwhile
    /// copies only the last block, not every cell (tens of milliseconds of
    /// the GUI thread at 50,000 cells).
    QList<QList<Cell>> m_cells;
    qsizetype m_cellCount = 0;
    StoredTimes m_storedTimes; ///< the stored cells' times, for the stall rule (checkLiveness)
    static constexpr qsizetype CellBlock = 1024;
    bool m_building = false;    ///< a tree build runs on a worker
    bool m_redrawAgain = false; ///< cells arrived during that build
    /// The drawn tree is built off the GUI thread; a new round renews TreeScope,
    /// so that a build of the round before is dropped.
    JobTracker *m_jobs = nullptr;
    QHash<int, QStringList> m_steeredBranches; ///< branch -> steering kinds, in the order applied
    QList<Task::Direction> m_directions;
    std::optional<double> m_timeLimitS; ///< the task's evaluation time limit, when it names one
    QString m_directionsTask;           ///< the task loadDirections() was asked last
    QString m_project;                  ///< the project whose round the panel shows
    QDateTime m_roundStarted;           ///< UTC, when the round shown began (clearRound)
    QElapsedTimer m_livenessClock;      ///< since the last checkLiveness()
    QString m_livenessText;             ///< the last state said in the status bar
};

} // namespace dreamrsi
