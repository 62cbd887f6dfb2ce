#pragma once

#include "loop/round/roundoptions.h"
#include "loop/round/roundtask.h"
#include "loop/round/roundtypes.h"
#include "backend/slurmsettings.h"
#include "model/cell.h"

#include <QJsonObject>
#include <QSet>
#include <QWidget>

#include <memory>

class QAction;
class QDialog;
class QLabel;
class QMenu;
class QPlainTextEdit;
class QTimer;
class QTreeView;

class QListWidget;
class QPushButton;

namespace dreamrsi {

class DiscoveryAgent;
class LiveDashboard;
class LiveTreeModel;
class ProjectStore;
class JobTracker;
class RoundEvents;
class RoundFollower;
class RoundRunner;
class RoundStatus;
struct PreparedRound;
class SteeringController;
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
/// The round runs on its own threads (RoundRunner); every signal reaches
/// the panel queued, so the GUI thread never waits on an agent, an
/// evaluator or the store.
///
/// A project opened read-only because another process writes it is
/// followed (RoundFollower): that process's running round grows the same
/// tree, log and dashboard from what it stores, Launch, Stop and Resume
/// are disabled, and its end is reported like the end of an own round.
class RoundPanel final : public QWidget
{
    Q_OBJECT
public:
    RoundPanel(ProjectStore *store, QWidget *parent = nullptr);
    /// Kills a round still running and waits for its threads.
    ~RoundPanel() override;

    QAction *launchAction() const { return m_launch; }
    QAction *stopAction() const { return m_stop; }
    QAction *resumeAction() const { return m_resume; }
    QAction *pauseAction() const { return m_pause; }
    QAction *continueAction() const { return m_continue; }
    SteeringController *steering() const { return m_steering; }
    /// The manual round's picking bar (visible while a batch is wanted).
    QWidget *manualBar() const { return m_manualBar; }
    /// Cell ids picked for the manual round's next batch, in pick order.
    QStringList manualPicks() const;
    /// Manual picking: toggles branch `branch`'s legal cell; false (with a
    /// status message) when the branch has none or W cells are picked.
    bool toggleManualBranch(int branch);
    /// The bar that says a followed loop waits for approval.
    QWidget *approvalBar() const { return m_approvalBar; }
    /// Answers a followed loop that waits for approval: approve `version`
    /// (a name), recorded as by `by` with `note`, or decline when `version`
    /// is empty. The answer comes back in the log. False with a message when
    /// no loop waits.
    bool answerApproval(const QString &version, const QString &by = {}, const QString &note = {});
    /// Looks at once whether a followed loop waits for approval (a timer does it every second).
    void checkApprovalWait();
    bool isRunning() const;
    /// A round runs that can be steered: here, or in the process followed
    /// (not a follower waiting for its next round).
    bool isRoundLive() const;
    /// The steering menu of the cell list for `branch` (or no branch): the
    /// caller owns it. Its requests are disabled unless isRoundLive().
    QMenu *steeringMenuFor(std::optional<int> branch);
    /// The dialog a hint is written in, listing the task's directions.
    QDialog *hintDialog(std::optional<int> branch);
    /// The task's directions of the round shown (loaded when it starts).
    const QList<RoundTask::Direction> &directions() const { return m_directions; }
    /// Reads the directions (and time limit) of `task` off the GUI thread,
    /// for the hint dialog and the drawn tree; a round does it as it starts.
    void loadDirections(const QString &task);
    LiveTreeModel *model() const { return m_model; }
    TreeView *treeView() const { return m_view; }
    QTreeView *cellList() const { return m_list; }
    QLabel *countersLabel() const { return m_counters; }
    QLabel *stateLabel() const { return m_state; }
    QPlainTextEdit *log() const { return m_log; }
    LiveDashboard *dashboard() const { return m_dashboard; }
    /// The status-bar part: progress and cancel (the main window puts it in its status bar).
    RoundStatus *statusWidget() const { return m_status; }
    RoundFollower *follower() const { return m_follower; }

    /// Follows the rounds of `writer`, the process that holds the (read-only)
    /// project; Launch and Resume stay disabled while the project is read-only.
    void followProject(const WriterInfo &writer);
    /// Stops following (the project was closed or reopened).
    void stopFollowing();
    bool isFollowing() const;

    /// Starts (or, with options.round.resume, continues) a round with
    /// `agent`, or with the agent options.round.agent names when null
    /// (RoundSession::prepare, as `dreamrsi round` does). False with a
    /// message when one is already running, no project is open or the
    /// agent cannot be made; a resume whose task is read from its stored
    /// iteration starts, or says why not, once the store has answered.
    bool startRound(const RoundOptions &options, std::shared_ptr<DiscoveryAgent> agent = {});
    /// startRound() evaluating on this machine.
    bool startRound(const RoundConfig &config, std::shared_ptr<DiscoveryAgent> agent = {})
    {
        return startRound(RoundOptions{config, std::nullopt}, std::move(agent));
    }
    /// Stop: first press lets running attempts finish, second kills them.
    void stop();
    /// Steers the round that runs in the project, here or in the process
    /// followed (close, refine, hint with `branch` or `newBranch`, pause,
    /// continue), as Settings' "Your name". The answer, applied or refused
    /// with the reason, goes to the log and the status bar. False with a
    /// message when no round accepts steering.
    bool steer(const QString &action, std::optional<int> branch = std::nullopt, const QString &text = {},
               bool newBranch = false, const QString &why = {});

signals:
    void runningChanged(bool running);
    void statusMessage(const QString &text);
    /// The round ended (an own round, or one followed in another process);
    /// its iteration is stored with `status`.
    void roundFinished(qint64 iteration, const QString &status);
    void followingChanged(bool following);
    /// The process that held the followed project has let it go.
    void writerReleased();
    /// The store answered whether something can be resumed (Resume's state is set).
    void resumableChecked(bool resumable);
    /// A followed loop waits for approval of version `name` (`proposal` as the
    /// loop published it: version, name, value, index, versions). Once per proposal.
    void approvalAwaited(const QString &name, const QJsonObject &proposal);
    /// The researcher asked to review the waiting proposal (Review and Approve…).
    void approvalReviewRequested(const QString &name);

private:
    void launch();
    void chooseResume();
    void onCell(qint64 iteration, const Cell &cell);
    void onCounters(const RoundCounters &counters);
    /// Shows a round's RoundEvents: one run here (RoundRunner) or one
    /// followed in another process (m_follower) alike.
    void connectEvents(RoundEvents *events);
    void onIterationStarted(const IterationInfo &info, bool resumed, bool followed);
    void onFinished(const RoundSummary &summary, bool followed);
    /// Shows a stored cell everywhere: tree, drawn tree, dashboard, progress.
    void takeCell(const Cell &cell);
    void clearRound(const QDateTime &started);
    void appendLog(const QString &line);
    void redrawTree();
    /// The actions' states, then asks the store what Resume can continue.
    void updateActions();
    /// The actions' states from what is known now.
    void updateActionStates();
    /// Asks the store whether an iteration is interrupted or stopped (what
    /// Resume can continue) and enables Resume from the answer.
    void refreshResumable();
    /// The context menu of the cell list: steer the branch under `pos`.
    void steeringMenu(const QPoint &pos);
    /// Shows what was done to a branch in the list and on the drawn tree.
    void markSteered(int branch, const QString &kind);
    /// What the drawn tree says while it has no cell: the round's state.
    void updatePlaceholder();
    /// The round waits for Continue (true) or runs on; sets Pause and Continue.
    void setPaused(bool paused);

    /// A manual round asks for round `round`'s batch: at most `workers` of `legal`.
    void onBatchWanted(int round, const QStringList &legal, int workers);
    void updateManualPrompt();
    /// Sends the picked batch (empty: end the round).
    void runManualBatch();
    void updateProgress();
    void showStatus(bool visible);
    /// Runs a round RoundSession::prepare made; false with a message when it could not be made.
    bool runPrepared(const Result<PreparedRound> &prepared, const QString &leftAsIs);
    /// Attempts the round can run at most (grid, round limit, call budget); 0 = unknown.
    qint64 plannedAttempts() const;

    ProjectStore *m_store;
    std::unique_ptr<RoundRunner> m_runner;
    LiveTreeModel *m_model = nullptr;
    QTreeView *m_list = nullptr;
    TreeView *m_view = nullptr;
    QLabel *m_counters = nullptr;
    QLabel *m_state = nullptr;
    QPlainTextEdit *m_log = nullptr;
    LiveDashboard *m_dashboard = nullptr;
    RoundStatus *m_status = nullptr;
    RoundFollower *m_follower = nullptr;
    QAction *m_launch = nullptr;
    QAction *m_stop = nullptr;
    QAction *m_resume = nullptr;
    QAction *m_pause = nullptr;
    QAction *m_continue = nullptr;
    SteeringController *m_steering = nullptr;
    QWidget *m_manualBar = nullptr;
    QLabel *m_manualPrompt = nullptr;
    QListWidget *m_manualList = nullptr;
    QPushButton *m_manualRun = nullptr;
    int m_manualRound = -1;
    int m_manualWorkers = 0;
    int m_manualPickCounter = 0;
    /// Attempt rows up to which the cell list shows every branch expanded.
    static constexpr int ExpandedRows = 1000;
    bool m_listCollapsed = false; ///< the list went past ExpandedRows and was collapsed
    bool m_logFollows = true; ///< the log shows its newest line (until the reader scrolls up)
    QWidget *m_approvalBar = nullptr;
    QLabel *m_approvalText = nullptr;
    QTimer *m_approvalPoll = nullptr;
    QString m_approvalShown; ///< the proposal the bar shows ("event id:name"), empty when none
    QTimer *m_ticker = nullptr;
    QTimer *m_redraw = nullptr;
    /// The round's stored cells, in order, in blocks of CellBlock: a tree
    /// build on a worker shares the blocks, and a cell stored meanwhile
    /// copies only the last block, not every cell (tens of milliseconds of
    /// the GUI thread at 50,000 cells).
    QList<QList<Cell>> m_cells;
    qsizetype m_cellCount = 0;
    static constexpr qsizetype CellBlock = 1024;
    QSet<QString> m_cellIds;
    /// A resumed round's stored cells are read first; live cells wait here meanwhile.
    bool m_awaitingBacklog = false;
    bool m_building = false;    ///< a tree build runs on a worker
    bool m_redrawAgain = false; ///< cells arrived during that build
    /// The drawn tree is built off the GUI thread; a new round renews TreeScope,
    /// so that a build of the round before is dropped.
    JobTracker *m_jobs = nullptr;
    bool m_resumable = false;   ///< the store has an interrupted or stopped iteration
    /// The interrupted and stopped iterations (id, status), the most recent first.
    QList<std::pair<IterationId, QString>> m_resumableIds;
    bool m_paused = false;      ///< the round shown waits for Continue
    QSet<QString> m_ownRequests; ///< steering requests sent to the round this panel runs
    QHash<int, QStringList> m_steeredBranches; ///< branch -> steering kinds, in the order applied
    QList<RoundTask::Direction> m_directions;
    std::optional<double> m_timeLimitS; ///< the task's evaluation time limit, when it names one
    QString m_directionsTask;           ///< the task loadDirections() was asked last
    quint64 m_resumableQuery = 0; ///< the latest question; older answers are dropped
    QList<Cell> m_deferred;
    IterationInfo m_iteration;
    RoundConfig m_config;
    bool m_starting = false; ///< a resume's stored iteration is read before its round starts
};

} // namespace dreamrsi
