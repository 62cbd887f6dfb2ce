#pragma once

#include "loop/roundtypes.h"
#include "loop/slurmsettings.h"
#include "model/cell.h"

#include <QSet>
#include <QWidget>

#include <memory>

class QAction;
class QLabel;
class QMainWindow;
class QPlainTextEdit;
class QTimer;
class QTreeView;

namespace dreamrsi {

class DiscoveryAgent;
class LiveTreeModel;
class ProjectStore;
class RoundRunner;
class TreeView;

/// A live round in the workbench (online.md §1, §6): Launch Round (dialog),
/// Stop (a second press kills the running attempts), Resume for interrupted
/// or stopped iterations; the discovery tree growing as cells arrive (an
/// item tree whose rows are inserted, running attempts animated with their
/// elapsed time, and the drawn tree redrawn as cells are stored), the run
/// log and live counters of calls, tokens, cost and best score.
///
/// The round runs on its own threads (RoundRunner); every signal reaches
/// the panel queued, so the GUI thread never waits on an agent, an
/// evaluator or the store.
class RoundPanel final : public QWidget
{
    Q_OBJECT
public:
    RoundPanel(ProjectStore *store, QWidget *parent = nullptr);
    /// Kills a round still running and waits for its threads.
    ~RoundPanel() override;

    /// Puts the panel in a dock of `window`, its actions on the window's
    /// main toolbar and in a Round menu, and its messages in the status bar.
    void install(QMainWindow *window);

    QAction *launchAction() const { return m_launch; }
    QAction *stopAction() const { return m_stop; }
    QAction *resumeAction() const { return m_resume; }
    bool isRunning() const;
    LiveTreeModel *model() const { return m_model; }
    TreeView *treeView() const { return m_view; }
    QLabel *countersLabel() const { return m_counters; }
    QPlainTextEdit *log() const { return m_log; }

    /// Starts (or, with config.resume, continues) a round with `agent`, or
    /// with the agent config.agent names when null. False with a message
    /// when one is already running, no project is open or the agent cannot
    /// be made.
    bool startRound(const RoundConfig &config, std::shared_ptr<DiscoveryAgent> agent = {});
    /// Stop: first press lets running attempts finish, second kills them.
    void stop();

signals:
    void runningChanged(bool running);
    void statusMessage(const QString &text);
    /// The round ended; its iteration is stored with `status`.
    void roundFinished(qint64 iteration, const QString &status);

private:
    void launch();
    void chooseResume();
    void onCell(qint64 iteration, const Cell &cell);
    void onCounters(const RoundCounters &counters);
    void onFinished(const RoundSummary &summary);
    void appendLog(const QString &line);
    void redrawTree();
    void updateActions();

    ProjectStore *m_store;
    std::unique_ptr<RoundRunner> m_runner;
    LiveTreeModel *m_model = nullptr;
    QTreeView *m_list = nullptr;
    TreeView *m_view = nullptr;
    QLabel *m_counters = nullptr;
    QLabel *m_state = nullptr;
    QPlainTextEdit *m_log = nullptr;
    QAction *m_launch = nullptr;
    QAction *m_stop = nullptr;
    QAction *m_resume = nullptr;
    QTimer *m_ticker = nullptr;
    QTimer *m_redraw = nullptr;
    QList<Cell> m_cells;
    QSet<QString> m_cellIds;
    IterationInfo m_iteration;
    RoundConfig m_config;
    std::optional<SlurmSettings> m_slurm; ///< the backend of the next round: Slurm when set, else local
};

} // namespace dreamrsi
