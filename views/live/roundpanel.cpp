#include "roundpanel.h"

#include "session/appsettings.h"
#include "launchrounddialog.h"
#include "livedashboard.h"
#include "models/livetreemodel.h"
#include "roundstatus.h"
#include "steeringcontroller.h"

#include "session/jobtracker.h"
#include "tree/treeview.h"

#include "loop/round/roundfollower.h"
#include "loop/round/roundrunner.h"
#include "loop/round/roundsession.h"
#include "model/discoverytree.h"
#include "store/projectstore.h"

#include <QAction>
#include <QCoreApplication>
#include <QDialog>
#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QJsonObject>
#include <QLabel>
#include <QListWidget>
#include <QMenu>
#include <QPushButton>
#include <QRegularExpression>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QScrollBar>
#include <QPointer>
#include <QSplitter>
#include <QStyle>
#include <QTime>
#include <QTimer>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

namespace dreamrsi {

namespace {

/// The JobTracker scope of the drawn tree's builds.
const QString TreeScope = QStringLiteral("live tree");

} // namespace

RoundPanel::RoundPanel(ProjectStore *store, QWidget *parent)
    : QWidget(parent)
    , m_store(store)
    , m_model(new LiveTreeModel(this))
    , m_jobs(new JobTracker(this))
{
    setObjectName(QStringLiteral("roundPanel"));
    m_launch = new QAction(style()->standardIcon(QStyle::SP_MediaPlay), tr("&Launch Round…"), this);
    m_launch->setObjectName(QStringLiteral("actionLaunchRound"));
    m_launch->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_L)); // no other action has it
    m_launch->setStatusTip(tr("Run a live round: the policy picks attempts, the agent writes programs, the evaluator scores them"));
    m_stop = new QAction(style()->standardIcon(QStyle::SP_MediaStop), tr("&Stop Round"), this);
    m_stop->setObjectName(QStringLiteral("actionStopRound"));
    m_stop->setStatusTip(tr("Let the running attempts finish and stop; press again to kill them"));
    m_resume = new QAction(style()->standardIcon(QStyle::SP_MediaSeekForward), tr("&Resume Round…"), this);
    m_resume->setObjectName(QStringLiteral("actionResumeRound"));
    m_resume->setStatusTip(tr("Continue an interrupted or stopped iteration"));
    connect(m_launch, &QAction::triggered, this, &RoundPanel::launch);
    connect(m_stop, &QAction::triggered, this, &RoundPanel::stop);
    connect(m_resume, &QAction::triggered, this, &RoundPanel::chooseResume);
    m_pause = new QAction(style()->standardIcon(QStyle::SP_MediaPause), tr("&Pause After This Batch"), this);
    m_pause->setObjectName(QStringLiteral("actionPauseRound"));
    m_pause->setStatusTip(tr("No new batch starts until Continue; running attempts finish"));
    m_continue = new QAction(style()->standardIcon(QStyle::SP_MediaPlay), tr("C&ontinue Round"), this);
    m_continue->setObjectName(QStringLiteral("actionContinueRound"));
    m_continue->setStatusTip(tr("Let a paused round start its next batch"));
    connect(m_pause, &QAction::triggered, this, [this] { steer(QStringLiteral("pause")); });
    connect(m_continue, &QAction::triggered, this, [this] { steer(QStringLiteral("continue")); });
    m_steering = new SteeringController(this);
    connect(m_steering, &SteeringController::answered, this, [this](const SteeringRequest &request, const SteeringAck &ack) {
        const QString line = ack.applied ? tr("steering by %1: %2 — applied: %3").arg(request.by, request.describe(), ack.message)
                                         : tr("steering by %1: %2 — refused: %3").arg(request.by, request.describe(), ack.message);
        // The own round logs (and marks) what it applied itself, even when it
        // has ended by the time the answer is read (an empty manual batch); a
        // followed one does not.
        const bool own = m_ownRequests.remove(request.id);
        if (!ack.applied || !own)
            appendLog(line);
        emit statusMessage(line);
        if (ack.applied && !own) {
            if (request.branch)
                markSteered(*request.branch, request.action);
            if (request.action == QLatin1String("pause") || request.action == QLatin1String("continue"))
                setPaused(request.action == QLatin1String("pause"));
        }
        if (!ack.applied && request.action == QLatin1String("batch") && isRunning())
            m_manualBar->show(); // pick again
    });

    auto *buttons = new QHBoxLayout;
    for (QAction *a : {m_launch, m_stop, m_resume}) {
        auto *b = new QToolButton;
        b->setDefaultAction(a);
        b->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
        buttons->addWidget(b);
    }
    m_state = new QLabel(tr("No round running"));
    m_state->setObjectName(QStringLiteral("roundState"));
    buttons->addWidget(m_state, 1);
    m_counters = new QLabel;
    m_counters->setObjectName(QStringLiteral("roundCounters"));
    m_counters->setTextInteractionFlags(Qt::TextSelectableByMouse);
    buttons->addWidget(m_counters);

    m_list = new QTreeView;
    m_list->setObjectName(QStringLiteral("roundCells"));
    m_list->setModel(m_model);
    m_list->setUniformRowHeights(true);
    // Widths from the font, set once: sizing columns to their contents
    // measured the text of up to a thousand rows on every inserted cell.
    {
        const QFontMetrics fm(m_list->font());
        const int pad = fm.horizontalAdvance(QLatin1Char('M')) * 2;
        m_list->header()->setSectionResizeMode(QHeaderView::Interactive);
        m_list->setColumnWidth(LiveTreeModel::IdColumn, m_list->indentation() + fm.horizontalAdvance(tr("Branch %1").arg(999)) + pad);
        m_list->setColumnWidth(LiveTreeModel::StatusColumn, fm.horizontalAdvance(tr("%n attempt(s)", nullptr, 999)) + pad);
        m_list->setColumnWidth(LiveTreeModel::ScoreColumn, fm.horizontalAdvance(QStringLiteral("-0.000000e-00")) + pad);
        m_list->setColumnWidth(LiveTreeModel::TimeColumn, fm.horizontalAdvance(tr("%1 s").arg(9999.9, 0, 'f', 1)) + pad);
    }
    m_list->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_list, &QWidget::customContextMenuRequested, this, &RoundPanel::steeringMenu);
    // A branch shows its attempts while the round is small. A tree view lays
    // out every row it shows again when a row is inserted under an expanded
    // branch, and paints them again: with thousands of attempts shown that
    // was most of every frame of a growing round. Past ExpandedRows the
    // branches are collapsed, once, and new ones stay so (each still shows
    // its attempts' count and best score); one opened by hand stays open.
    connect(m_model, &QAbstractItemModel::rowsInserted, m_list, [this](const QModelIndex &parent) {
        if (!parent.isValid())
            return;
        if (m_model->attemptCount() <= ExpandedRows) {
            m_list->expand(parent);
        } else if (!m_listCollapsed) {
            m_listCollapsed = true;
            m_list->collapseAll();
        }
    });
    connect(m_model, &QAbstractItemModel::modelReset, this, [this] { m_listCollapsed = false; });
    m_view = new TreeView;
    m_view->setObjectName(QStringLiteral("roundTree"));
    m_log = new QPlainTextEdit;
    m_log->setObjectName(QStringLiteral("roundLog"));
    m_log->setReadOnly(true);
    m_log->setMaximumBlockCount(20000);
    connect(m_log->verticalScrollBar(), &QScrollBar::actionTriggered, this, [this] {
        QScrollBar *bar = m_log->verticalScrollBar();
        m_logFollows = bar->sliderPosition() >= bar->maximum() - 2; // a reader's scroll only
    });
    connect(m_log->verticalScrollBar(), &QScrollBar::rangeChanged, this, [this](int, int max) {
        if (m_logFollows) // laid out, resized or grown: stay on the newest line
            m_log->verticalScrollBar()->setValue(max);
    });

    m_dashboard = new LiveDashboard;
    auto *top = new QSplitter(Qt::Horizontal);
    top->addWidget(m_list);
    top->addWidget(m_view);
    top->addWidget(m_dashboard);
    top->setStretchFactor(1, 2);
    top->setStretchFactor(2, 1);
    // The list wide enough for its columns, the charts for their axis titles.
    top->setSizes({m_list->header()->length() + m_list->verticalScrollBar()->sizeHint().width() + 4, 560, 380});
    auto *split = new QSplitter(Qt::Vertical);
    split->addWidget(top);
    split->addWidget(m_log);
    split->setStretchFactor(0, 3);
    // Manual exploration: shown while a manual round waits for its batch.
    m_manualBar = new QWidget;
    m_manualBar->setObjectName(QStringLiteral("manualBar"));
    {
        auto *bar = new QHBoxLayout(m_manualBar);
        bar->setContentsMargins(0, 0, 0, 0);
        m_manualPrompt = new QLabel;
        m_manualPrompt->setObjectName(QStringLiteral("manualPrompt"));
        m_manualPrompt->setWordWrap(true);
        m_manualList = new QListWidget;
        m_manualList->setObjectName(QStringLiteral("manualLegal"));
        m_manualList->setFlow(QListView::LeftToRight);
        m_manualList->setWrapping(true);
        m_manualList->setResizeMode(QListView::Adjust);
        m_manualList->setMaximumHeight(m_manualList->fontMetrics().height() * 4 + 12);
        m_manualList->setToolTip(tr("The cells legal now: tick up to W of them, or click branches in the list or the tree"));
        m_manualRun = new QPushButton(tr("&Run Batch"));
        m_manualRun->setObjectName(QStringLiteral("manualRun"));
        auto *left = new QVBoxLayout;
        left->addWidget(m_manualPrompt);
        left->addWidget(m_manualList);
        bar->addLayout(left, 1);
        bar->addWidget(m_manualRun, 0, Qt::AlignBottom);
        connect(m_manualRun, &QPushButton::clicked, this, &RoundPanel::runManualBatch);
        connect(m_manualList, &QListWidget::itemChanged, this, [this](QListWidgetItem *item) {
            if (item->checkState() == Qt::Checked && manualPicks().size() > m_manualWorkers) {
                const QSignalBlocker block(m_manualList);
                item->setCheckState(Qt::Unchecked);
                emit statusMessage(tr("At most %n cell(s) per batch (W)", nullptr, m_manualWorkers));
                return;
            }
            if (item->checkState() == Qt::Checked) {
                const QSignalBlocker block(m_manualList); // the pick order is not a change to answer
                item->setData(Qt::UserRole + 1, ++m_manualPickCounter);
            }
            updateManualPrompt();
        });
    }
    m_manualBar->hide();
    connect(m_list, &QTreeView::clicked, this, [this](const QModelIndex &index) {
        if (!m_manualBar->isVisible())
            return;
        if (const std::optional<int> branch = m_model->branchOf(index))
            toggleManualBranch(*branch);
    });
    connect(m_view, &TreeView::cellActivated, this, [this](int cellIndex) {
        const std::shared_ptr<const DiscoveryTree> tree = m_view->tree();
        if (m_manualBar->isVisible() && tree && cellIndex >= 0 && cellIndex < tree->cells().size())
            toggleManualBranch(tree->cells().at(cellIndex).branch);
    });

    // A loop in another process that waits for approval (dreamrsi loop --await-approval).
    m_approvalBar = new QWidget;
    m_approvalBar->setObjectName(QStringLiteral("approvalBar"));
    {
        auto *bar = new QHBoxLayout(m_approvalBar);
        bar->setContentsMargins(0, 0, 0, 0);
        m_approvalText = new QLabel;
        m_approvalText->setObjectName(QStringLiteral("approvalText"));
        m_approvalText->setWordWrap(true);
        auto *review = new QPushButton(tr("Review and &Approve…"));
        review->setObjectName(QStringLiteral("approvalReview"));
        auto *decline = new QPushButton(tr("&Decline"));
        decline->setObjectName(QStringLiteral("approvalDecline"));
        decline->setToolTip(tr("The loop goes on with the deployed version; the proposal stays listed"));
        bar->addWidget(m_approvalText, 1);
        bar->addWidget(review);
        bar->addWidget(decline);
        connect(review, &QPushButton::clicked, this, [this] {
            emit approvalReviewRequested(m_approvalShown.section(QLatin1Char(':'), 1));
        });
        connect(decline, &QPushButton::clicked, this, [this] { answerApproval({}); });
    }
    m_approvalBar->hide();
    m_approvalPoll = new QTimer(this);
    m_approvalPoll->setInterval(1000);
    connect(m_approvalPoll, &QTimer::timeout, this, &RoundPanel::checkApprovalWait);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(buttons);
    layout->addWidget(m_approvalBar);
    layout->addWidget(m_manualBar);
    layout->addWidget(split, 1);

    m_ticker = new QTimer(this);
    m_ticker->setInterval(250);
    connect(m_ticker, &QTimer::timeout, m_model, &LiveTreeModel::tick);
    // The drawn tree shows each running attempt's time against its limit.
    connect(m_ticker, &QTimer::timeout, this, [this] { m_view->setRunningAttempts(m_model->runningAttempts(m_timeLimitS)); });
    m_redraw = new QTimer(this);
    m_redraw->setSingleShot(true);
    m_redraw->setInterval(150); // coalesces bursts of cells into one redraw
    connect(m_redraw, &QTimer::timeout, this, &RoundPanel::redrawTree);

    m_status = new RoundStatus(m_stop, this);
    m_status->hide();
    m_follower = new RoundFollower(m_store, this);
    connectEvents(m_follower);
    connect(m_follower, &RoundFollower::writerGone, this, [this] {
        showStatus(false);
        m_state->setText(tr("The other process (pid %1) has closed the project").arg(m_follower->writer().pid));
        appendLog(m_state->text());
        updateActions();
        emit followingChanged(false);
        emit writerReleased();
    });
    // A round stopped, finished or resumed (here, or by whoever writes the
    // project) changes what Resume can continue.
    if (m_store)
        connect(m_store, &ProjectStore::iterationChanged, this, &RoundPanel::refreshResumable);
    onCounters(RoundCounters{});
    updateActionStates();
    // Asked once the panel exists: an answer the store already has would
    // otherwise arrive (and be emitted) inside this constructor, before
    // anyone could connect to resumableChecked.
    QMetaObject::invokeMethod(this, &RoundPanel::refreshResumable, Qt::QueuedConnection);
}

RoundPanel::~RoundPanel()
{
    if (m_runner) {
        m_runner->disconnect(this);
        m_runner->stop(RoundRunner::StopMode::Kill);
        m_runner.reset();
    }
}

bool RoundPanel::isRunning() const
{
    return m_runner && m_runner->isRunning();
}

void RoundPanel::showStatus(bool visible)
{
    // Until the window puts it in its status bar it has no place to be shown.
    m_status->setVisible(visible && m_status->parentWidget() != this);
}

bool RoundPanel::isFollowing() const
{
    return m_follower->isActive();
}

void RoundPanel::updateActions()
{
    updateActionStates();
    refreshResumable();
}

void RoundPanel::updateActionStates()
{
    const bool running = isRunning() || m_starting;
    // Launch and Resume say so when no project is open; a project open
    // read-only (another process writes it) takes no round.
    const bool readOnly = m_store && m_store->isReadOnly();
    m_launch->setEnabled(!running && !readOnly);
    m_resume->setEnabled(!running && !readOnly && m_resumable);
    m_stop->setEnabled(isRunning());
    m_stop->setText(isRunning() && m_runner->stopRequests() > 0 ? tr("&Kill Running Attempts") : tr("&Stop Round"));
    // Steering needs a round that runs: here, or in the process followed
    // (not one that has ended, nor a follower waiting for the next round).
    const bool live = isRoundLive();
    m_pause->setEnabled(live && !m_paused);
    m_continue->setEnabled(live && m_paused);
    updatePlaceholder();
}

void RoundPanel::updatePlaceholder()
{
    QString text;
    if (isRunning() || (isFollowing() && m_follower->iteration() != 0)) {
        text = tr("Iteration %1: the first attempts are running; the tree grows here as their cells are stored.")
                   .arg(m_iteration.id);
    } else if (isFollowing()) {
        text = tr("Another process (pid %1) holds this project: its next round is followed here as it runs.")
                   .arg(m_follower->writer().pid);
    } else if (m_store && !m_store->path().isEmpty()) {
        text = tr("No round is running. Launch Round… runs one; its tree grows here.");
    } else {
        text = tr("No project is open. Open or create one, then Launch Round… to run a round here.");
    }
    m_view->setPlaceholderText(text);
}

bool RoundPanel::isRoundLive() const
{
    return isRunning() || (isFollowing() && m_follower->iteration() != 0);
}

void RoundPanel::setPaused(bool paused)
{
    m_paused = paused;
    updateActionStates();
}

void RoundPanel::markSteered(int branch, const QString &kind)
{
    m_model->markSteered(branch, kind);
    m_steeredBranches[branch].append(kind);
    m_view->setBranchMarks(m_steeredBranches);
}

void RoundPanel::refreshResumable()
{
    const quint64 query = ++m_resumableQuery;
    if (!m_store || m_store->path().isEmpty()) {
        m_resumable = false;
        m_resumableIds.clear();
        m_resume->setEnabled(false);
        return;
    }
    m_store->iterations().then(this, [this, query](StoreResult<QList<IterationInfo>> list) {
        if (query != m_resumableQuery)
            return; // a newer question is on its way
        m_resumableIds.clear();
        if (list.ok()) {
            for (const IterationInfo &it : std::as_const(*list.value)) {
                if (it.status == IterationStatus::Interrupted || it.status == IterationStatus::Stopped)
                    m_resumableIds.append({it.id, iterationStatusName(it.status)});
            }
        }
        // The most recent first: the one just stopped is the one to go on with.
        std::sort(m_resumableIds.begin(), m_resumableIds.end(),
                  [](const auto &a, const auto &b) { return a.first > b.first; });
        m_resumable = !m_resumableIds.isEmpty();
        m_resume->setEnabled(!isRunning() && !m_store->isReadOnly() && m_resumable);
        emit resumableChecked(m_resumable);
    });
}

bool RoundPanel::steer(const QString &action, std::optional<int> branch, const QString &text, bool newBranch,
                       const QString &why)
{
    if (!m_store || m_store->path().isEmpty()) {
        emit statusMessage(tr("Open a project to steer its round"));
        return false;
    }
    m_steering->setProjectPath(m_store->path());
    SteeringRequest request;
    request.action = action;
    request.branch = branch;
    request.newBranch = newBranch;
    request.text = text;
    request.why = why;
    request.by = AppSettings::load().steeringName();
    const Result<QString> sent = m_steering->send(request);
    if (!sent) {
        const QString line = tr("steering: %1 not sent: %2").arg(request.describe(), sent.error);
        appendLog(line);
        emit statusMessage(line);
        return false;
    }
    if (isRunning())
        m_ownRequests.insert(*sent.value);
    emit statusMessage(tr("Sent %1; it applies before the next batch").arg(request.describe()));
    return true;
}

void RoundPanel::steeringMenu(const QPoint &pos)
{
    std::unique_ptr<QMenu> menu(steeringMenuFor(m_model->branchOf(m_list->indexAt(pos))));
    menu->exec(m_list->viewport()->mapToGlobal(pos));
}

QMenu *RoundPanel::steeringMenuFor(std::optional<int> branch)
{
    auto *menu = new QMenu(this);
    auto item = [menu, this](const QString &text, auto slot) {
        QAction *a = menu->addAction(text);
        connect(a, &QAction::triggered, this, slot);
    };
    if (branch) {
        const int b = *branch;
        item(tr("Close Branch b%1").arg(b), [this, b] { steer(QStringLiteral("close"), b); });
        item(tr("Refine b%1 Next").arg(b), [this, b] { steer(QStringLiteral("refine"), b); });
        item(tr("Hint for b%1's Next Attempt…").arg(b), [this, b] {
            std::unique_ptr<QDialog> dialog(hintDialog(b));
            if (dialog->exec() != QDialog::Accepted)
                return;
            const QString text = dialog->findChild<QPlainTextEdit *>(QStringLiteral("hintText"))->toPlainText().trimmed();
            if (!text.isEmpty())
                steer(QStringLiteral("hint"), b, text);
        });
    }
    item(tr("Hint for the Next New Branch…"), [this] {
        std::unique_ptr<QDialog> dialog(hintDialog(std::nullopt));
        if (dialog->exec() != QDialog::Accepted)
            return;
        const QString text = dialog->findChild<QPlainTextEdit *>(QStringLiteral("hintText"))->toPlainText().trimmed();
        if (!text.isEmpty())
            steer(QStringLiteral("hint"), std::nullopt, text, true);
    });
    const bool live = isRoundLive();
    for (QAction *a : menu->actions())
        a->setEnabled(live);
    menu->addSeparator();
    menu->addAction(m_pause);
    menu->addAction(m_continue);
    return menu;
}

QDialog *RoundPanel::hintDialog(std::optional<int> branch)
{
    auto *dialog = new QDialog(this);
    dialog->setObjectName(QStringLiteral("hintDialog"));
    dialog->setWindowTitle(branch ? tr("Hint for b%1").arg(*branch) : tr("Hint for the next new branch"));
    auto *layout = new QVBoxLayout(dialog);
    layout->addWidget(new QLabel(branch ? tr("Text given to the agent with branch b%1's next attempt:").arg(*branch)
                                        : tr("Text given to the agent with the next branch the round opens:")));
    // The task's directions: what each branch is asked to explore, so that a
    // hint can build on (or steer away from) its branch's.
    auto *directions = new QLabel;
    directions->setObjectName(QStringLiteral("hintDirections"));
    directions->setWordWrap(true);
    directions->setTextFormat(Qt::RichText);
    directions->setTextInteractionFlags(Qt::TextSelectableByMouse);
    if (m_directions.isEmpty()) {
        directions->setText(tr("The task names no directions: each branch is the agent's own idea."));
    } else {
        QStringList rows;
        for (qsizetype i = 0; i < m_directions.size(); ++i) {
            const RoundTask::Direction &d = m_directions.at(i);
            const bool mine = branch && *branch % m_directions.size() == i;
            QString row = QStringLiteral("<b>%1</b>").arg(d.name.toHtmlEscaped());
            if (!d.detail.isEmpty())
                row += QStringLiteral(": ") + d.detail.toHtmlEscaped();
            if (mine)
                row = tr("%1 <i>(b%2's direction)</i>").arg(row).arg(*branch);
            rows.append(QStringLiteral("<li>%1</li>").arg(row));
        }
        directions->setText(tr("The task's directions, given to branches in turn (branch b<i>N</i> takes direction "
                               "<i>N</i> mod %n):", nullptr, int(m_directions.size()))
                            + QStringLiteral("<ul style='margin-left:0'>%1</ul>").arg(rows.join(QString())));
    }
    layout->addWidget(directions);
    auto *text = new QPlainTextEdit;
    text->setObjectName(QStringLiteral("hintText"));
    layout->addWidget(text, 1);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    connect(buttons, &QDialogButtonBox::accepted, dialog, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::reject);
    layout->addWidget(buttons);
    dialog->resize(520, 380);
    return dialog;
}

void RoundPanel::loadDirections(const QString &task)
{
    m_directions.clear();
    m_timeLimitS.reset();
    m_directionsTask = task;
    if (task.isEmpty())
        return;
    // task.json and problem.md are read off the GUI thread.
    QtConcurrent::run([task] { return RoundTask::resolve(task); }).then(this, [this, task](Result<RoundTask> resolved) {
        if (resolved.ok() && m_directionsTask == task) { // not a task asked for before
            m_directions = resolved.value->directions;
            m_timeLimitS = resolved.value->timeLimitSeconds;
        }
    });
}

bool RoundPanel::startRound(const RoundOptions &options, std::shared_ptr<DiscoveryAgent> agent)
{
    if (isRunning() || m_starting) {
        emit statusMessage(tr("A round is already running"));
        return false;
    }
    if (!m_store || m_store->path().isEmpty()) {
        emit statusMessage(tr("Open or create a project before launching a round"));
        return false;
    }
    if (m_store->isReadOnly()) {
        emit statusMessage(tr("The project is open read-only while another process writes it; no round can start here"));
        return false;
    }
    RoundOptions round = options;
    // Rounds started from the workbench accept steering (`dreamrsi steer`, a following workbench).
    round.round.acceptSteering = true;
    // A new round leaves an interrupted or stopped iteration as it is: say so,
    // and how to go on with it.
    QString leftAsIs;
    if (round.round.resume == 0 && !m_resumableIds.isEmpty())
        leftAsIs = tr("Iteration %1 stays %2; Resume Round continues it later")
                       .arg(m_resumableIds.constFirst().first)
                       .arg(m_resumableIds.constFirst().second);
    // The Slurm poller thread reports job states and Slurm's reasons; the log lives on the GUI thread.
    QPointer<RoundPanel> self(this);
    const RoundSession::LogSink log = [self](const QString &line) {
        QMetaObject::invokeMethod(
            qApp, [self, line] {
                if (self)
                    self->appendLog(line);
            },
            Qt::QueuedConnection);
    };
    QFuture<Result<PreparedRound>> prepared = RoundSession::prepare(m_store, round, log, {std::move(agent), {}});
    if (prepared.isFinished()) // a new round, or a resume naming its task: made at once
        return runPrepared(prepared.result(), leftAsIs);
    // A resume runs its iteration's stored task: read first.
    m_starting = true;
    updateActionStates();
    prepared
        .then(this, [this, leftAsIs](const Result<PreparedRound> &made) {
            m_starting = false;
            runPrepared(made, leftAsIs);
        })
        .onCanceled(this, [this] {
            m_starting = false;
            runPrepared(Result<PreparedRound>::failure(tr("the project was closed")), {});
        });
    return true;
}

bool RoundPanel::runPrepared(const Result<PreparedRound> &prepared, const QString &leftAsIs)
{
    if (!prepared.ok()) {
        const QString message = tr("The round cannot start: %1").arg(prepared.error);
        appendLog(message);
        emit statusMessage(message);
        updateActions();
        return false;
    }
    m_runner.reset();
    m_follower->stop();
    m_config = prepared.value->config;
    clearRound(QDateTime::currentDateTimeUtc());
    m_runner = std::make_unique<RoundRunner>(m_store, m_config, prepared.value->agent, prepared.value->backend);
    RoundRunner *r = m_runner.get();
    connectEvents(r);
    // How many attempts run now is the counters' (Running); the message says what the batch was.
    connect(r, &RoundRunner::roundStarted, this, [this](int round, const QStringList &batch) {
        emit statusMessage(tr("Round %1 started a batch of %n attempt(s)", nullptr, int(batch.size())).arg(round + 1));
    });
    connect(r, &RoundRunner::attemptStarted, m_model, &LiveTreeModel::markRunning);
    connect(r, &RoundRunner::attemptProgress, m_model, &LiveTreeModel::setProgress);
    connect(r, &RoundRunner::attemptAbandoned, m_model, &LiveTreeModel::removeRunning);
    connect(r, &RoundRunner::steered, this, [this](const SteeringEvent &e) {
        if (e.branch)
            markSteered(*e.branch, e.action);
        if (e.action == QLatin1String("pause") || e.action == QLatin1String("continue"))
            setPaused(e.action == QLatin1String("pause"));
        // A branch closed while a manual round waits for its batch is no pick any more.
        if (e.branch && e.action == QLatin1String("close") && m_manualBar->isVisible()) {
            for (int i = m_manualList->count() - 1; i >= 0; --i) {
                if (m_manualList->item(i)->data(Qt::UserRole + 2).toInt() == *e.branch)
                    delete m_manualList->takeItem(i);
            }
            updateManualPrompt();
        }
    });
    connect(r, &RoundRunner::pausedChanged, this, [this](bool paused) {
        setPaused(paused);
        m_state->setText(paused ? tr("Iteration %1 paused: Continue starts the next batch").arg(m_iteration.id)
                                : tr("Iteration %1 running").arg(m_iteration.id));
    });
    connect(r, &RoundRunner::batchWanted, this, &RoundPanel::onBatchWanted);
    m_log->clear();
    if (!leftAsIs.isEmpty())
        appendLog(leftAsIs);
    loadDirections(m_config.task);
    r->start();
    m_ticker->start();
    m_status->setCaption(tr("Round"));
    m_status->setProgress(0, 0);
    showStatus(true);
    updateActions();
    emit runningChanged(true);
    if (!leftAsIs.isEmpty())
        emit statusMessage(leftAsIs);
    return true;
}

void RoundPanel::stop()
{
    if (!isRunning())
        return;
    // The first press lets the running attempts finish, the next kills them.
    m_runner->stop(m_runner->stopRequests() == 0 ? RoundRunner::StopMode::Finish : RoundRunner::StopMode::Kill);
    appendLog(m_runner->stopRequests() == 1 ? tr("Stop: the running attempts finish, then the round stops (press again to kill them)")
                                            : tr("Stop again: killing the running attempts"));
    updateActions();
}

void RoundPanel::launch()
{
    if (!m_store || m_store->path().isEmpty()) {
        QMessageBox::information(this, tr("Launch Round"), tr("Open or create a project first: rounds are stored in it."));
        return;
    }
    m_store->policyVersions().then(this, [this](StoreResult<QList<PolicyVersion>> versions) {
        QStringList names;
        if (versions.ok()) {
            for (const PolicyVersion &v : *versions.value)
                names.append(v.name);
        }
        // open(), not exec(): no nested event loop inside the store's answer.
        auto *dialog = new LaunchRoundDialog(names, this);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        connect(dialog, &QDialog::accepted, this, [this, dialog] { startRound(dialog->options()); });
        dialog->open();
    });
}

void RoundPanel::chooseResume()
{
    if (!m_store || m_store->path().isEmpty())
        return;
    m_store->iterations().then(this, [this](StoreResult<QList<IterationInfo>> list) {
        if (!list.ok()) {
            emit statusMessage(list.error);
            return;
        }
        QStringList items;
        QList<IterationId> ids;
        // The most recently stopped first (iterations are numbered in the order they began).
        QList<IterationInfo> newestFirst = *list.value;
        std::sort(newestFirst.begin(), newestFirst.end(),
                  [](const IterationInfo &a, const IterationInfo &b) { return a.id > b.id; });
        for (const IterationInfo &it : std::as_const(newestFirst)) {
            if (it.status == IterationStatus::Interrupted || it.status == IterationStatus::Stopped) {
                items.append(tr("Iteration %1 (%2, %3, %4)")
                                 .arg(it.id)
                                 .arg(iterationStatusName(it.status))
                                 .arg(tr("%n cell(s)", nullptr, int(it.cellCount)))
                                 .arg(it.task.value_or(QString())));
                ids.append(it.id);
            }
        }
        // open(), not exec(): no nested event loop inside the store's answer.
        if (items.isEmpty()) {
            auto *box = new QMessageBox(QMessageBox::Information, tr("Resume Round"),
                                        tr("No interrupted or stopped iteration in this project."), QMessageBox::Ok, this);
            box->setAttribute(Qt::WA_DeleteOnClose);
            box->open();
            return;
        }
        auto *choose = new QInputDialog(this);
        choose->setAttribute(Qt::WA_DeleteOnClose);
        choose->setWindowTitle(tr("Resume Round"));
        choose->setLabelText(tr("Iteration:"));
        choose->setComboBoxItems(items);
        choose->setComboBoxEditable(false);
        QHash<QString, IterationId> byItem;
        for (qsizetype i = 0; i < items.size(); ++i)
            byItem.insert(items.at(i), ids.at(i));
        connect(choose, &QInputDialog::textValueSelected, this, [this, byItem](const QString &item) {
            const IterationId id = byItem.value(item);
            auto *dialog = new LaunchRoundDialog({}, this);
            dialog->setAttribute(Qt::WA_DeleteOnClose);
            dialog->setWindowTitle(tr("Resume Iteration %1").arg(id));
            connect(dialog, &QDialog::accepted, this, [this, dialog, id] {
                // The iteration's own task, read by RoundSession::prepare as for `dreamrsi round --resume`.
                RoundOptions options = dialog->options();
                options.round.resume = id;
                options.round.task.clear();
                startRound(options);
            });
            dialog->open();
        });
        choose->open();
    });
}

void RoundPanel::onCell(qint64 iteration, const Cell &cell)
{
    if (iteration != m_iteration.id || m_cellIds.contains(cell.id))
        return;
    if (m_awaitingBacklog) {
        m_deferred.append(cell);
        return;
    }
    takeCell(cell);
}

void RoundPanel::takeCell(const Cell &cell)
{
    if (m_cellIds.contains(cell.id))
        return;
    m_model->addCell(cell);
    if (m_cells.isEmpty() || m_cells.constLast().size() >= CellBlock) {
        m_cells.append(QList<Cell>());
        m_cells.last().reserve(CellBlock);
    }
    m_cells.last().append(cell);
    ++m_cellCount;
    m_cellIds.insert(cell.id);
    m_dashboard->addCell(cell);
    if (!m_redraw->isActive()) {
        // The progress bar moves with the tree. A big tree is laid out and
        // painted less often: 150 ms up to 1,000 cells, then slower, 1 s at most.
        m_redraw->setInterval(int(std::clamp<qsizetype>(150 + (m_cellCount - 1000) / 20, 150, 1000)));
        m_redraw->start();
    }
}

void RoundPanel::clearRound(const QDateTime &started)
{
    m_jobs->renew(TreeScope); // a tree still being built belongs to the round before
    m_redrawAgain = false;
    m_cells.clear();
    m_cellCount = 0;
    m_cellIds.clear();
    m_deferred.clear();
    m_awaitingBacklog = false;
    m_model->reset({});
    m_view->setTree(nullptr);
    m_steeredBranches.clear();
    m_view->setBranchMarks({});
    m_view->setRunningAttempts({});
    m_dashboard->reset(started);
    m_iteration = IterationInfo{};
    m_paused = false;
    m_ownRequests.clear();
}

qint64 RoundPanel::plannedAttempts() const
{
    qint64 planned = 0;
    auto cap = [&planned](qint64 n) {
        if (n > 0)
            planned = planned > 0 ? std::min(planned, n) : n;
    };
    if (m_iteration.grid)
        cap(qint64(m_iteration.grid->branches) * (m_iteration.grid->refinements + 1));
    // The limits the round runs under, stored with its iteration (so the
    // same for a round run here and one followed in another process).
    if (m_iteration.callLimit)
        cap(*m_iteration.callLimit);
    if (m_iteration.roundLimit && m_iteration.maxParallelism.value_or(0) > 0)
        cap(qint64(*m_iteration.roundLimit) * *m_iteration.maxParallelism);
    return planned;
}

void RoundPanel::updateProgress()
{
    m_status->setProgress(m_cellCount, m_iteration.id != 0 ? plannedAttempts() : 0);
}

void RoundPanel::followProject(const WriterInfo &writer)
{
    if (isRunning())
        return;
    m_follower->start(writer);
    m_approvalPoll->start();
    checkApprovalWait();
    m_state->setText(tr("Read-only: another process (pid %1) writes this project; waiting for its round").arg(writer.pid));
    m_status->setCaption(tr("Waiting for pid %1").arg(writer.pid));
    m_status->setProgress(0, 0);
    showStatus(true);
    updateActions();
    emit followingChanged(true);
}

void RoundPanel::stopFollowing()
{
    const bool was = isFollowing();
    m_follower->stop();
    m_approvalPoll->stop();
    m_approvalBar->hide();
    if (was) {
        showStatus(false);
        m_state->setText(tr("No round running"));
        emit followingChanged(false);
    }
    updateActions();
}

void RoundPanel::connectEvents(RoundEvents *events)
{
    const bool followed = events == m_follower;
    connect(events, &RoundEvents::iterationStarted, this,
            [this, followed](const IterationInfo &info, bool resumed) { onIterationStarted(info, resumed, followed); });
    connect(events, &RoundEvents::cellFinished, this, &RoundPanel::onCell);
    connect(events, &RoundEvents::countersChanged, this, &RoundPanel::onCounters);
    connect(events, &RoundEvents::logLine, this, &RoundPanel::appendLog);
    connect(events, &RoundEvents::finished, this, [this, followed](const RoundSummary &summary) { onFinished(summary, followed); });
}

void RoundPanel::onIterationStarted(const IterationInfo &info, bool resumed, bool followed)
{
    const qint64 pid = m_follower->writer().pid;
    if (followed) {
        clearRound(info.started);
        m_log->clear();
    }
    m_iteration = info;
    m_paused = false;
    if (followed)
        loadDirections(info.task.value_or(QString()));
    updateActionStates(); // a followed round now takes steering; the tree says what it waits for
    if (followed) {
        m_state->setText(tr("Following iteration %1, a round running in another process (pid %2); read-only")
                             .arg(info.id)
                             .arg(pid));
        m_status->setCaption(tr("Following pid %1").arg(pid));
        appendLog(m_state->text());
        showStatus(true);
    } else {
        m_state->setText(resumed ? tr("Iteration %1 resumed").arg(info.id) : tr("Iteration %1 running").arg(info.id));
        m_status->setCaption(tr("Iteration %1").arg(info.id));
    }
    updateProgress();
    if (!resumed)
        return;
    // The kept cells first (charts need them in stored order), then what arrived meanwhile.
    const IterationId iteration = info.id;
    m_awaitingBacklog = true;
    m_store->iterationData(iteration).then(this, [this, iteration](StoreResult<IterationData> data) {
        if (m_iteration.id != iteration)
            return;
        m_awaitingBacklog = false;
        if (data.ok()) {
            m_dashboard->reset(data.value->info.started);
            for (const Cell &c : std::as_const(data.value->cells))
                takeCell(c);
        }
        for (const Cell &c : std::exchange(m_deferred, {}))
            takeCell(c);
    });
}

void RoundPanel::redrawTree()
{
    updateProgress();
    // Building the tree of thousands of cells takes milliseconds: on a
    // worker, one build at a time, the newest cells in the next one.
    if (m_building) {
        m_redrawAgain = true;
        return;
    }
    m_building = true;
    TreeMeta meta;
    meta.iteration = m_iteration.id;
    meta.grid = m_iteration.grid;
    // A tree of the round before (clearRound renewed the scope) is not built
    // to the end, nor shown.
    const JobTracker::CancelCheck stale = m_jobs->cancelCheck(TreeScope);
    // The tree and what its painter derives from the cells (colours, glyphs:
    // tens of milliseconds at 50,000 cells) are both made on the worker.
    struct Built
    {
        std::shared_ptr<const DiscoveryTree> tree;
        TreeCellStyles styles;
    };
    QtConcurrent::run([meta, blocks = m_cells, count = m_cellCount, stale]() -> std::shared_ptr<Built> {
        if (stale())
            return nullptr;
        QList<Cell> cells;
        cells.reserve(count);
        for (const QList<Cell> &block : blocks)
            cells.append(block);
        TreeError error;
        std::optional<DiscoveryTree> tree = DiscoveryTree::build(meta, std::move(cells), &error);
        if (!tree || stale())
            return nullptr;
        auto built = std::make_shared<Built>();
        built->styles = TreeCellStyles::of(*tree);
        built->tree = std::make_shared<const DiscoveryTree>(std::move(*tree));
        return built;
    }).then(this, [this, stale](std::shared_ptr<Built> built) {
        m_building = false;
        if (!stale() && built) {
            // The tree shown until now is freed on a worker: tens of
            // thousands of cells take milliseconds to free.
            std::shared_ptr<const DiscoveryTree> old = m_view->tree();
            m_view->setTree(std::move(built->tree), std::move(built->styles));
            if (old.use_count() == 1)
                (void)QtConcurrent::run([old = std::move(old)]() mutable { old.reset(); });
        }
        if (std::exchange(m_redrawAgain, false))
            redrawTree();
    });
}

void RoundPanel::onCounters(const RoundCounters &c)
{
    const QString best = c.bestScore ? QString::number(*c.bestScore, 'g', 6) : tr("none");
    if (isFollowing()) { // what runs in the other process is not stored, so not known here
        m_counters->setText(tr("Calls %1 · Tokens %2 in / %3 out · Cost $%4 · Best %5")
                                .arg(c.calls)
                                .arg(c.tokensIn)
                                .arg(c.tokensOut)
                                .arg(c.usd, 0, 'f', 4)
                                .arg(best));
        return;
    }
    m_counters->setText(tr("Calls %1 · Tokens %2 in / %3 out · Cost $%4 · Best %5 · Running %6")
                            .arg(c.calls)
                            .arg(c.tokensIn)
                            .arg(c.tokensOut)
                            .arg(c.usd, 0, 'f', 4)
                            .arg(best)
                            .arg(c.running));
}

void RoundPanel::onFinished(const RoundSummary &summary, bool followed)
{
    if (!followed) {
        m_manualBar->hide();
        m_ticker->stop();
        m_model->tick();
    }
    m_paused = false;
    m_view->setRunningAttempts({});
    m_dashboard->flush();
    showStatus(false);
    if (m_redraw->isActive()) {
        m_redraw->stop();
        redrawTree();
    }
    const QString status = iterationStatusName(summary.status);
    const qint64 pid = m_follower->writer().pid;
    QString text;
    if (followed) {
        text = summary.status == IterationStatus::Interrupted
                   ? tr("Iteration %1 interrupted: the process that ran it (pid %2) ended without closing it")
                         .arg(summary.iteration)
                         .arg(pid)
                   : tr("Iteration %1 %2 in another process (pid %3): %4")
                         .arg(summary.iteration)
                         .arg(status)
                         .arg(pid)
                         .arg(tr("%n cell(s)", nullptr, int(m_cellCount)));
        appendLog(text);
    } else if (summary.ok()) {
        text = tr("Iteration %1 %2: %3 in %4")
                   .arg(summary.iteration)
                   .arg(status)
                   .arg(tr("%n cell(s)", nullptr, int(summary.counters.cells)))
                   .arg(tr("%n round(s)", nullptr, summary.counters.rounds));
        // The reason only when it adds to the status ("stopped (stopped)" says nothing).
        if (!summary.stopReason.isEmpty() && summary.stopReason != status)
            text = tr("%1 (%2)").arg(text, summary.stopReason);
    } else {
        text = tr("Iteration %1 %2: %3").arg(summary.iteration).arg(status, summary.error);
    }
    m_state->setText(text);
    emit statusMessage(text);
    updateActions();
    if (followed)
        emit followingChanged(false);
    else
        emit runningChanged(false);
    emit roundFinished(summary.iteration, status);
}

void RoundPanel::appendLog(const QString &line)
{
    m_log->appendPlainText(QTime::currentTime().toString(QStringLiteral("HH:mm:ss ")) + line);
    // Follow the newest line unless the reader scrolled up to read older ones.
    if (m_logFollows)
        m_log->verticalScrollBar()->setValue(m_log->verticalScrollBar()->maximum());
}

QStringList RoundPanel::manualPicks() const
{
    QList<QListWidgetItem *> picked;
    for (int i = 0; i < m_manualList->count(); ++i) {
        if (m_manualList->item(i)->checkState() == Qt::Checked)
            picked.append(m_manualList->item(i));
    }
    std::sort(picked.begin(), picked.end(), [](QListWidgetItem *a, QListWidgetItem *b) {
        return a->data(Qt::UserRole + 1).toInt() < b->data(Qt::UserRole + 1).toInt();
    });
    QStringList ids;
    for (QListWidgetItem *item : std::as_const(picked))
        ids.append(item->data(Qt::UserRole).toString());
    return ids;
}

void RoundPanel::onBatchWanted(int round, const QStringList &legal, int workers)
{
    m_manualRound = round;
    m_manualWorkers = workers;
    const QSignalBlocker block(m_manualList);
    m_manualList->clear();
    static const QRegularExpression idPattern(QStringLiteral("^b(\\d+)a(\\d+)$"));
    for (const QString &id : legal) {
        const QRegularExpressionMatch m = idPattern.match(id);
        const int branch = m.hasMatch() ? m.captured(1).toInt() : -1;
        const int attempt = m.hasMatch() ? m.captured(2).toInt() : -1;
        const QString what = attempt == 0 ? tr("%1 · open branch b%2").arg(id).arg(branch)
                                          : tr("%1 · refine b%2 (attempt %3)").arg(id).arg(branch).arg(attempt);
        auto *item = new QListWidgetItem(what, m_manualList);
        item->setData(Qt::UserRole, id);
        item->setData(Qt::UserRole + 2, branch);
        item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable);
        item->setCheckState(Qt::Unchecked);
    }
    m_manualBar->show();
    updateManualPrompt();
    m_state->setText(tr("Iteration %1: round %2 waits for your batch").arg(m_iteration.id).arg(round + 1));
    emit statusMessage(m_state->text());
}

bool RoundPanel::toggleManualBranch(int branch)
{
    for (int i = 0; i < m_manualList->count(); ++i) {
        QListWidgetItem *item = m_manualList->item(i);
        if (item->data(Qt::UserRole + 2).toInt() != branch)
            continue;
        const bool pick = item->checkState() != Qt::Checked;
        if (pick && manualPicks().size() >= m_manualWorkers) {
            emit statusMessage(tr("At most %n cell(s) per batch (W)", nullptr, m_manualWorkers));
            return false;
        }
        item->setCheckState(pick ? Qt::Checked : Qt::Unchecked);
        return true;
    }
    emit statusMessage(tr("Branch b%1 has no legal attempt now (finished, closed or beyond the grid)").arg(branch));
    return false;
}

void RoundPanel::updateManualPrompt()
{
    const QStringList picks = manualPicks();
    m_manualPrompt->setText(picks.isEmpty()
                                ? tr("Round %1 is yours: pick up to %n cell(s) (ticks, or click branches in the list or the tree), "
                                     "then Run. Run with nothing picked ends the round.", nullptr, m_manualWorkers)
                                      .arg(m_manualRound + 1)
                                : tr("Round %1: %2 of at most %3 picked: %4")
                                      .arg(m_manualRound + 1)
                                      .arg(picks.size())
                                      .arg(m_manualWorkers)
                                      .arg(picks.join(QStringLiteral(", "))));
    m_manualRun->setText(picks.isEmpty() ? tr("&End Round") : tr("&Run Batch"));
}

void RoundPanel::runManualBatch()
{
    const QStringList picks = manualPicks();
    if (steer(QStringLiteral("batch"), std::nullopt, picks.join(QLatin1Char(' '))))
        m_manualBar->hide();
}

void RoundPanel::checkApprovalWait()
{
    const QString path = m_store ? m_store->path() : QString();
    const std::optional<SteeringLive> live = path.isEmpty() ? std::nullopt : SteeringInbox::readLive(path);
    if (!live || live->kind != QLatin1String("approval") || !SteeringInbox::whyNotAccepting(path, live->kind).isEmpty()) {
        m_approvalBar->hide();
        return;
    }
    const QString name = live->proposal.value(QStringLiteral("name")).toString();
    const QString key = QStringLiteral("%1:%2").arg(live->proposal.value(QStringLiteral("event")).toVariant().toString(), name);
    const QJsonValue value = live->proposal.value(QStringLiteral("value"));
    m_approvalText->setText(tr("The loop (pid %1) waits for approval after iteration %2: the dream proposes %3 (mean value %4). "
                               "Until you answer, no round runs.")
                                .arg(live->pid)
                                .arg(live->proposal.value(QStringLiteral("index")).toInt())
                                .arg(name, value.isDouble() ? QString::number(value.toDouble(), 'g', 6) : tr("none")));
    m_approvalBar->show();
    if (key == m_approvalShown)
        return;
    m_approvalShown = key;
    appendLog(m_approvalText->text());
    emit approvalAwaited(name, live->proposal);
}

bool RoundPanel::answerApproval(const QString &version, const QString &by, const QString &note)
{
    if (!m_store || m_store->path().isEmpty())
        return false;
    m_steering->setProjectPath(m_store->path());
    SteeringRequest request;
    request.action = version.isEmpty() ? QStringLiteral("decline") : QStringLiteral("approve");
    request.version = version;
    request.why = note;
    request.by = by.isEmpty() ? AppSettings::load().steeringName() : by;
    if (const Result<QString> sent = m_steering->send(request, QStringLiteral("approval")); !sent) {
        const QString line = tr("approval: %1 not sent: %2").arg(request.describe(), sent.error);
        appendLog(line);
        emit statusMessage(line);
        return false;
    }
    m_approvalBar->hide();
    emit statusMessage(tr("Sent %1 to the waiting loop").arg(request.describe()));
    return true;
}

} // namespace dreamrsi
