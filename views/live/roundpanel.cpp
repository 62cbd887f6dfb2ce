#include "roundpanel.h"

#include "approvalbar.h"
#include "launchrounddialog.h"
#include "livedashboard.h"
#include "manualbatchbar.h"
#include "roundstatus.h"

#include "models/livetreemodel.h"
#include "session/jobtracker.h"
#include "session/preferences.h"
#include "session/remotefollower.h"
#include "session/roundcontroller.h"
#include "tree/treeview.h"

#include "loop/round/roundfollower.h"
#include "loop/round/roundliveness.h"
#include "loop/round/roundtree.h"
#include "model/discoverytree.h"
#include "store/projectstore.h"

#include <QAction>
#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QScrollBar>
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

RoundPanel::RoundPanel(ProjectStore *store, Preferences *preferences, QWidget *parent)
    : QWidget(parent)
    , m_store(store)
    , m_preferences(preferences ? preferences : new Preferences(this))
    , m_controller(new RoundController(store, this))
    , m_model(new LiveTreeModel(this))
    , m_jobs(new JobTracker(this))
{
    setObjectName(QStringLiteral("roundPanel"));
    m_controller->setPreferences(m_preferences);
    createActions();
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
    QWidget *views = createViews();
    createBars();
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(buttons);
    layout->addWidget(m_approvalBar);
    layout->addWidget(m_manualBar);
    layout->addWidget(views, 1);

    m_ticker = new QTimer(this);
    m_ticker->setInterval(250);
    connect(m_ticker, &QTimer::timeout, m_model, &LiveTreeModel::tick);
    // The drawn tree shows each running attempt's time against its limit.
    connect(m_ticker, &QTimer::timeout, this, [this] { m_view->setRunningAttempts(m_model->runningAttempts(m_timeLimitS)); });
    connect(m_ticker, &QTimer::timeout, this, [this] {
        if (!m_livenessClock.isValid() || m_livenessClock.elapsed() >= 1000)
            checkLiveness();
    });
    m_redraw = new QTimer(this);
    m_redraw->setSingleShot(true);
    m_redraw->setInterval(150); // coalesces bursts of cells into one redraw
    connect(m_redraw, &QTimer::timeout, this, &RoundPanel::redrawTree);
    m_status = new RoundStatus(m_stop, this);
    m_status->hide();
    connectController();
    onCounters(RoundCounters{}, false);
    updateActionStates();
    // Asked once the panel exists: an answer the store already has would
    // otherwise arrive (and be emitted) inside this constructor, before
    // anyone could connect to resumableChecked.
    QMetaObject::invokeMethod(m_controller, &RoundController::refreshResumable, Qt::QueuedConnection);
}

RoundPanel::~RoundPanel()
{
    // The round's threads end before the widgets its signals reach.
    m_controller->disconnect(this);
    delete m_controller;
}

void RoundPanel::createActions()
{
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
    connect(m_stop, &QAction::triggered, m_controller, &RoundController::stop);
    connect(m_resume, &QAction::triggered, this, &RoundPanel::chooseResume);
    m_pause = new QAction(style()->standardIcon(QStyle::SP_MediaPause), tr("&Pause After This Batch"), this);
    m_pause->setObjectName(QStringLiteral("actionPauseRound"));
    m_pause->setStatusTip(tr("No new batch starts until Continue; running attempts finish"));
    m_continue = new QAction(style()->standardIcon(QStyle::SP_MediaPlay), tr("C&ontinue Round"), this);
    m_continue->setObjectName(QStringLiteral("actionContinueRound"));
    m_continue->setStatusTip(tr("Let a paused round start its next batch"));
    connect(m_pause, &QAction::triggered, this, [this] { m_controller->steer(QStringLiteral("pause")); });
    connect(m_continue, &QAction::triggered, this, [this] { m_controller->steer(QStringLiteral("continue")); });
}

QSize RoundPanel::sizeHint() const
{
    return {QWidget::sizeHint().width(), 300};
}

QWidget *RoundPanel::createViews()
{
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
    // Steering from the drawn tree too: a cell, a running attempt (Kill) or a
    // branch's column (its label included).
    m_view->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_view, &QWidget::customContextMenuRequested, this, [this](const QPoint &pos) {
        std::unique_ptr<QMenu> menu(treeMenuAt(pos));
        menu->exec(m_view->mapToGlobal(pos));
    });
    m_log = new QPlainTextEdit;
    m_log->setObjectName(QStringLiteral("roundLog"));
    m_log->setReadOnly(true);
    m_log->setMaximumBlockCount(20000);
    m_log->setMinimumHeight(40); // a few lines: the panel stays low in its dock (sizeHint)
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
    top->setSizes({m_list->header()->length() + m_list->verticalScrollBar()->sizeHint().width() + 4, 560, 540});
    auto *split = new QSplitter(Qt::Vertical);
    split->addWidget(top);
    split->addWidget(m_log);
    split->setStretchFactor(0, 3);
    return split;
}

void RoundPanel::createBars()
{
    // Manual exploration: shown while a manual round waits for its batch;
    // a click on a branch in the list or the tree picks it too.
    m_manualBar = new ManualBatchBar;
    connect(m_manualBar, &ManualBatchBar::message, this, &RoundPanel::statusMessage);
    connect(m_manualBar, &ManualBatchBar::batchChosen, this, [this](const QStringList &ids) {
        if (m_controller->sendBatch(ids))
            m_manualBar->hide();
    });
    connect(m_list, &QTreeView::clicked, this, [this](const QModelIndex &index) {
        if (!m_manualBar->isVisible())
            return;
        if (const std::optional<int> branch = m_model->branchOf(index))
            m_manualBar->toggleBranch(*branch);
    });
    connect(m_view, &TreeView::cellActivated, this, [this](int cellIndex) {
        const std::shared_ptr<const DiscoveryTree> tree = m_view->tree();
        if (m_manualBar->isVisible() && tree && cellIndex >= 0 && cellIndex < tree->cells().size())
            m_manualBar->toggleBranch(tree->cells().at(cellIndex).branch);
    });
    // A loop in another process that waits for approval (dreamrsi loop --await-approval).
    m_approvalBar = new ApprovalBar;
    connect(m_approvalBar, &ApprovalBar::reviewRequested, this, &RoundPanel::approvalReviewRequested);
    connect(m_approvalBar, &ApprovalBar::declineRequested, this, [this] { m_controller->answerApproval({}); });
}

void RoundPanel::connectController()
{
    RoundController *c = m_controller;
    connect(c, &RoundController::statusMessage, this, &RoundPanel::statusMessage);
    connect(c, &RoundController::logLine, this, &RoundPanel::appendLog);
    connect(c, &RoundController::stateChanged, this, &RoundPanel::updateActionStates);
    connect(c, &RoundController::runningChanged, this, [this](bool running) {
        if (running)
            onRunning();
        emit runningChanged(running);
    });
    connect(c, &RoundController::followingChanged, this, &RoundPanel::onFollowing);
    connect(c, &RoundController::writerGone, this, &RoundPanel::onWriterGone);
    connect(c, &RoundController::iterationStarted, this, &RoundPanel::onIterationStarted);
    connect(c, &RoundController::backlogStarted, m_dashboard, &LiveDashboard::reset);
    connect(c, &RoundController::cellStored, this, &RoundPanel::takeCell);
    connect(c, &RoundController::countersChanged, this, &RoundPanel::onCounters);
    connect(c, &RoundController::finished, this, &RoundPanel::onFinished);
    connect(c, &RoundController::followedAttempts, this, &RoundPanel::onFollowedAttempts);
    // How many attempts run now is the counters' (Running); the message says what the batch was.
    connect(c, &RoundController::batchStarted, this, [this](int round, const QStringList &batch) {
        emit statusMessage(tr("Round %1 started a batch of %n attempt(s)", nullptr, int(batch.size())).arg(round + 1));
    });
    connect(c, &RoundController::attemptStarted, m_model, &LiveTreeModel::markRunning);
    connect(c, &RoundController::attemptProgress, m_model, &LiveTreeModel::setProgress);
    connect(c, &RoundController::attemptAbandoned, m_model, &LiveTreeModel::removeRunning);
    connect(c, &RoundController::branchSteered, this, [this](int branch, const QString &kind) {
        markSteered(branch, kind);
        // A branch closed while a manual round waits for its batch is no pick any more.
        if (kind == QLatin1String("close") && m_manualBar->isVisible())
            m_manualBar->dropBranch(branch);
    });
    connect(c, &RoundController::pausedChanged, this, [this](bool paused) {
        const IterationId id = m_controller->iteration().id;
        m_state->setText(paused ? tr("Iteration %1 paused: Continue starts the next batch").arg(id)
                                : tr("Iteration %1 running").arg(id));
    });
    connect(c, &RoundController::batchWanted, this, &RoundPanel::onBatchWanted);
    connect(c, &RoundController::batchRefused, m_manualBar, &QWidget::show); // pick again
    connect(c, &RoundController::approvalChanged, this, [this] { m_approvalBar->setWait(m_controller->approvalWait()); });
    connect(c, &RoundController::approvalAwaited, this,
            [this](const ApprovalWait &wait) { appendLog(ApprovalBar::describe(wait)); });
}

bool RoundPanel::isRunning() const
{
    return m_controller->isRunning();
}

bool RoundPanel::isFollowing() const
{
    return m_controller->isFollowing();
}

void RoundPanel::followProject(const WriterInfo &writer)
{
    m_controller->follow(writer);
}

void RoundPanel::followRemote(RemoteFollower *remote)
{
    m_controller->followRemote(remote);
}

void RoundPanel::stopFollowing()
{
    m_controller->stopFollowing();
}

bool RoundPanel::answerApproval(const QString &version, const QString &by, const QString &note)
{
    return m_controller->answerApproval(version, by, note);
}

void RoundPanel::showStatus(bool visible)
{
    // Until the window puts it in its status bar it has no place to be shown.
    m_status->setVisible(visible && m_status->parentWidget() != this);
}

void RoundPanel::updateActionStates()
{
    const bool busy = m_controller->isBusy();
    const bool running = m_controller->isRunning();
    // Launch and Resume say so when no project is open; a project open
    // read-only (another process writes it) takes no round.
    // A served project is read here (docs/remote.md): its rounds run where it is served.
    const bool readOnly = (m_store && m_store->isReadOnly()) || m_controller->remoteFollower();
    m_launch->setEnabled(!busy && !readOnly);
    m_resume->setEnabled(!busy && !readOnly && !m_controller->resumable().isEmpty());
    m_stop->setEnabled(running);
    m_stop->setText(running && m_controller->stopRequests() > 0 ? tr("&Kill Running Attempts") : tr("&Stop Round"));
    // Steering needs a round that runs: here, or in the process followed
    // (not one that has ended, nor a follower waiting for the next round).
    const bool live = m_controller->isRoundLive();
    m_pause->setEnabled(live && !m_controller->isPaused());
    m_continue->setEnabled(live && m_controller->isPaused());
    updatePlaceholder();
}

void RoundPanel::updatePlaceholder()
{
    QString text;
    if (m_controller->isRoundLive()) {
        text = tr("Iteration %1: the first attempts are running; the tree grows here as their cells are stored.")
                   .arg(m_controller->iteration().id);
    } else if (m_controller->remoteFollower()) {
        text = tr("The served project at %1 runs no round now: its next round is followed here as it runs.")
                   .arg(m_controller->remoteFollower()->host());
    } else if (isFollowing()) {
        text = tr("Another process (pid %1) holds this project: its next round is followed here as it runs.")
                   .arg(m_controller->follower()->writer().pid);
    } else if (m_store && !m_store->path().isEmpty()) {
        text = tr("No round is running. Launch Round… runs one; its tree grows here.");
    } else {
        text = tr("No project is open. Open or create one, then Launch Round… to run a round here.");
    }
    m_view->setPlaceholderText(text);
}

void RoundPanel::markSteered(int branch, const QString &kind)
{
    m_model->markSteered(branch, kind);
    m_steeredBranches[branch].append(kind);
    m_view->setBranchMarks(m_steeredBranches);
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
        return a;
    };
    // The hint written in the dialog, for `branch` or the next new branch.
    auto hint = [this](std::optional<int> b) {
        std::unique_ptr<QDialog> dialog(hintDialog(b));
        if (dialog->exec() != QDialog::Accepted)
            return;
        const QString text = dialog->findChild<QPlainTextEdit *>(QStringLiteral("hintText"))->toPlainText().trimmed();
        if (!text.isEmpty())
            m_controller->steer(QStringLiteral("hint"), b, text, !b);
    };
    if (branch) {
        const int b = *branch;
        item(tr("Close Branch b%1").arg(b), [this, b] { m_controller->steer(QStringLiteral("close"), b); });
        item(tr("Refine b%1 Next").arg(b), [this, b] { m_controller->steer(QStringLiteral("refine"), b); });
        item(tr("Hint for b%1's Next Attempt…").arg(b), [hint, b] { hint(b); });
        // A running attempt of the branch can be killed now (stalled or not):
        // from the list, the branch's column or the attempt's ringed cell.
        // A followed round's too, through the project's inbox, when that
        // round accepts steering; otherwise Kill is shown disabled, saying why.
        for (const RunningAttempt &a : m_model->runningAttempts(std::nullopt)) {
            if (a.branch != b)
                continue;
            const QString id = RoundTree::idOf(a.branch, a.attempt);
            QAction *kill = item(a.stalled ? tr("Kill %1 (stalled)…").arg(id) : tr("Kill %1…").arg(id), [this, id] {
                bool ok = false;
                // A short title (the window manager cuts long ones); the attempt in the text.
                const QString why = QInputDialog::getText(this, tr("Kill"), tr("Why kill %1? (stored with the failure)").arg(id),
                                                          QLineEdit::Normal, {}, &ok);
                if (ok)
                    m_controller->killAttempt(id, why.trimmed());
            });
            kill->setObjectName(QStringLiteral("actionKillAttempt"));
            kill->setData(id);
        }
    }
    item(tr("Hint for the Next New Branch…"), [hint] { hint(std::nullopt); })->setObjectName(QStringLiteral("actionHintNewBranch"));
    const bool live = m_controller->isRoundLive();
    QString whyNoKill;
    const bool killable = m_controller->canKill(&whyNoKill);
    for (QAction *a : menu->actions()) {
        const bool isKill = a->objectName() == QLatin1String("actionKillAttempt");
        a->setEnabled(live && (!isKill || killable));
        if (isKill && live && !killable) {
            a->setToolTip(tr("Not offered: %1").arg(whyNoKill));
            a->setStatusTip(a->toolTip());
        }
    }
    menu->setToolTipsVisible(true);
    menu->addSeparator();
    menu->addAction(m_pause);
    menu->addAction(m_continue);
    return menu;
}

QMenu *RoundPanel::treeMenuAt(const QPointF &pos)
{
    const std::optional<int> branch = m_view->branchAt(pos);
    QMenu *menu = steeringMenuFor(branch);
    if (branch || m_view->tree())
        return menu;
    // Before the first cell the drawn tree shows its placeholder only: the
    // branches the list shows running are offered here too, each its own
    // entries of the list's menu (Close, Refine, Hint, Kill).
    QList<int> branches;
    for (const RunningAttempt &a : m_model->runningAttempts(std::nullopt)) {
        if (!branches.contains(a.branch))
            branches.append(a.branch);
    }
    std::sort(branches.begin(), branches.end());
    QAction *before = menu->actions().value(0);
    for (const int b : branches) {
        QMenu *sub = steeringMenuFor(b);
        sub->setParent(menu, sub->windowFlags());
        sub->setTitle(tr("Branch b%1").arg(b));
        // The menu's own entries (the next new branch, Pause, Continue) once, below.
        bool own = false;
        for (QAction *a : sub->actions()) {
            own = own || a->objectName() == QLatin1String("actionHintNewBranch");
            if (own)
                sub->removeAction(a);
        }
        menu->insertMenu(before, sub);
    }
    if (!branches.isEmpty())
        menu->insertSeparator(before);
    return menu;
}

void RoundPanel::checkLiveness()
{
    m_livenessClock.start();
    if (isFollowing())
        return; // the follower reads the other process's attempts at each look (onFollowedAttempts)
    const QString project = m_store && !m_store->path().isEmpty() ? m_store->path() : m_project;
    const std::optional<LiveRound> live = project.isEmpty() ? std::nullopt : RoundLiveness::read(project);
    if (!live || !isRunning()) {
        m_model->setStalled({});
        return;
    }
    IterationInfo info;
    info.id = live->iteration;
    info.status = IterationStatus::Running;
    info.started = m_roundStarted;
    const IterationLiveness state =
        RoundLiveness::assess(info, m_storedTimes, live, true, QDateTime::currentDateTimeUtc());
    QSet<QString> stalled;
    for (const AttemptLiveness &a : state.attempts) {
        if (a.stalled)
            stalled.insert(a.id);
    }
    m_model->setStalled(stalled);
    tellLiveness(state, true);
}

void RoundPanel::onFollowedAttempts(const IterationLiveness &liveness)
{
    if (!isFollowing() || liveness.iteration != m_controller->iteration().id)
        return;
    const bool killable = m_controller->canKill();
    m_model->setKillOffered(killable);
    m_model->setRunning(liveness.attempts);
    m_view->setRunningAttempts(m_model->runningAttempts(m_timeLimitS));
    if (liveness.state == QLatin1String("live") || liveness.state == QLatin1String("stalled"))
        tellLiveness(liveness, killable);
}

void RoundPanel::tellLiveness(const IterationLiveness &state, bool killable)
{
    QString text;
    if (state.state == QLatin1String("stalled")) {
        text = killable ? tr("Iteration %1 is stalled: %2. Right-click a stalled attempt's branch to kill it.")
                              .arg(state.number)
                              .arg(state.why)
                        : tr("Iteration %1 is stalled: %2. Its round takes no steering: no attempt can be "
                             "killed from here.")
                              .arg(state.number)
                              .arg(state.why);
    } else {
        text = tr("Iteration %1 is live: %n attempt(s) running", nullptr, int(state.attempts.size())).arg(state.number);
    }
    if (text != m_livenessText) {
        m_livenessText = text;
        emit statusMessage(text);
    }
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
        auto *dialog = new LaunchRoundDialog(names, m_preferences, this);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->setProjectPath(m_store->path());
        connect(dialog, &QDialog::accepted, this, [this, dialog] { m_controller->start(dialog->options()); });
        dialog->open();
    });
}

void RoundPanel::chooseResume()
{
    if (!m_store || m_store->path().isEmpty())
        return;
    connect(m_controller, &RoundController::resumableChecked, this, &RoundPanel::showResumeChooser,
            Qt::SingleShotConnection);
    m_controller->refreshResumable();
}

void RoundPanel::showResumeChooser()
{
    const QList<IterationInfo> &resumable = m_controller->resumable(); // the most recently stopped first
    // open(), not exec(): no nested event loop inside the store's answer.
    if (resumable.isEmpty()) {
        auto *box = new QMessageBox(QMessageBox::Information, tr("Resume Round"),
                                    tr("No interrupted or stopped iteration in this project."), QMessageBox::Ok, this);
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
        return;
    }
    QStringList items;
    QHash<QString, IterationId> byItem;
    QHash<IterationId, QString> taskOf;
    for (const IterationInfo &it : resumable) {
        items.append(tr("Iteration %1 (%2, %3, %4)")
                         .arg(it.id)
                         .arg(iterationStatusName(it.status))
                         .arg(tr("%n cell(s)", nullptr, int(it.cellCount)))
                         .arg(it.task.value_or(QString())));
        byItem.insert(items.constLast(), it.id);
        taskOf.insert(it.id, it.task.value_or(QString()));
    }
    auto *choose = new QInputDialog(this);
    choose->setAttribute(Qt::WA_DeleteOnClose);
    choose->setWindowTitle(tr("Resume"));
    choose->setLabelText(tr("Iteration to resume:"));
    choose->setComboBoxItems(items);
    choose->setComboBoxEditable(false);
    connect(choose, &QInputDialog::textValueSelected, this, [this, byItem, taskOf](const QString &item) {
        const IterationId id = byItem.value(item);
        auto *dialog = new LaunchRoundDialog({}, m_preferences, this);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->setWindowTitle(tr("Resume Iteration %1").arg(id));
        // The iteration's own task, as `dreamrsi round --resume` without
        // --task: shown, and not offered for editing (it was ignored).
        if (auto *task = qobject_cast<QComboBox *>(dialog->field(QStringLiteral("task")))) {
            task->setCurrentText(taskOf.value(id));
            task->setEnabled(false);
            task->setToolTip(tr("A resumed iteration keeps its own task"));
        }
        connect(dialog, &QDialog::accepted, this,
                [this, dialog, id] { m_controller->start(RoundController::resumeOptions(dialog->options(), id)); });
        dialog->open();
    });
    choose->open();
}

void RoundPanel::showProject(const QString &path)
{
    if (path == m_project)
        return;
    m_project = path;
    if (isRunning())
        return;
    clearShown();
}

void RoundPanel::showWorldFile()
{
    if (isRunning() || isFollowing())
        return;
    clearShown();
}

void RoundPanel::clearShown()
{
    clearRound(QDateTime());
    m_log->clear();
    m_counters->clear();
    if (!isFollowing()) {
        showStatus(false);
        m_state->setText(tr("No round running"));
    }
    updatePlaceholder();
    updateActionStates();
}

void RoundPanel::onRunning()
{
    clearRound(QDateTime::currentDateTimeUtc());
    m_log->clear();
    loadDirections(m_controller->config().task);
    m_ticker->start();
    m_status->setCaption(tr("Round"));
    m_status->setProgress(0, 0);
    showStatus(true);
    updateActionStates();
}

void RoundPanel::onFollowing(bool following)
{
    if (following && m_controller->remoteFollower()) {
        const QString host = m_controller->remoteFollower()->host();
        m_state->setText(tr("Read-only: the project served at %1; waiting for its round").arg(host));
        m_status->setCaption(tr("Waiting for %1").arg(host));
        m_status->setProgress(0, 0);
        showStatus(true);
    } else if (following) {
        const qint64 pid = m_controller->follower()->writer().pid;
        m_state->setText(tr("Read-only: another process (pid %1) writes this project; waiting for its round").arg(pid));
        m_status->setCaption(tr("Waiting for pid %1").arg(pid));
        m_status->setProgress(0, 0);
        showStatus(true);
    } else {
        showStatus(false);
        m_state->setText(tr("No round running"));
        if (!isRunning()) {
            m_ticker->stop();
            m_model->setRunning({});
            m_view->setRunningAttempts({});
        }
    }
    updateActionStates();
    emit followingChanged(following);
}

void RoundPanel::onWriterGone(qint64 pid)
{
    showStatus(false);
    m_ticker->stop();
    m_state->setText(tr("The other process (pid %1) has closed the project").arg(pid));
    appendLog(m_state->text());
    updateActionStates();
    emit followingChanged(false);
    emit writerReleased();
}

void RoundPanel::onIterationStarted(const IterationInfo &info, bool resumed, bool followed)
{
    if (followed) {
        const qint64 pid = m_controller->follower()->writer().pid;
        clearRound(info.started);
        m_log->clear();
        loadDirections(info.task.value_or(QString()));
        if (const RemoteFollower *remote = m_controller->remoteFollower()) {
            m_state->setText(tr("Following iteration %1, a round running at %2 (remote); read-only").arg(info.id).arg(remote->host()));
            m_status->setCaption(tr("Following %1").arg(remote->host()));
        } else {
            m_state->setText(tr("Following iteration %1, a round running in another process (pid %2); read-only")
                                 .arg(info.id)
                                 .arg(pid));
            m_status->setCaption(tr("Following pid %1").arg(pid));
        }
        appendLog(m_state->text());
        showStatus(true);
        // Its attempts in flight tick as an own round's do (onFollowedAttempts).
        m_ticker->start();
    } else {
        m_state->setText(resumed ? tr("Iteration %1 resumed").arg(info.id) : tr("Iteration %1 running").arg(info.id));
        m_status->setCaption(tr("Iteration %1").arg(info.id));
    }
    updateActionStates(); // a followed round now takes steering; the tree says what it waits for
    updateProgress();
}

void RoundPanel::takeCell(const Cell &cell)
{
    m_model->addCell(cell);
    if (m_cells.isEmpty() || m_cells.constLast().size() >= CellBlock) {
        m_cells.append(QList<Cell>());
        m_cells.last().reserve(CellBlock);
    }
    m_cells.last().append(cell);
    ++m_cellCount;
    m_storedTimes.add(cell);
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
    m_roundStarted = started;
    m_livenessText.clear();
    m_model->setStalled({});
    m_model->setKillOffered(true);
    m_storedTimes = StoredTimes{};
    m_jobs->renew(TreeScope); // a tree still being built belongs to the round before
    m_redrawAgain = false;
    m_cells.clear();
    m_cellCount = 0;
    m_model->reset({});
    m_view->setTree(nullptr);
    m_steeredBranches.clear();
    m_view->setBranchMarks({});
    m_view->setRunningAttempts({});
    m_dashboard->reset(started);
}

void RoundPanel::updateProgress()
{
    m_status->setProgress(m_cellCount, m_controller->iteration().id != 0 ? m_controller->plannedAttempts() : 0);
}

void RoundPanel::onCounters(const RoundCounters &c, bool followed)
{
    const QString best = c.bestScore ? QString::number(*c.bestScore, 'g', 6) : tr("none");
    if (followed) { // what runs in the other process is not stored, so not known here
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
    } else {
        // What was still in flight when the other process ended runs again on resume.
        m_model->setRunning({});
    }
    m_ticker->stop();
    m_model->tick();
    m_view->setRunningAttempts({});
    m_dashboard->flush();
    showStatus(false);
    if (m_redraw->isActive()) {
        m_redraw->stop();
        redrawTree();
    }
    const QString status = iterationStatusName(summary.status);
    const qint64 pid = m_controller->follower()->writer().pid;
    QString text;
    if (followed && m_controller->remoteFollower()) {
        text = tr("Iteration %1 %2 at %3: %4")
                   .arg(summary.iteration)
                   .arg(status, m_controller->remoteFollower()->host(), tr("%n cell(s)", nullptr, int(m_cellCount)));
        appendLog(text);
    } else if (followed) {
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
        // Cells without a policy round (a baseline alone) say no "in 0 rounds".
        const QString cells = tr("%n cell(s)", nullptr, int(summary.counters.cells));
        text = summary.counters.rounds > 0 ? tr("Iteration %1 %2: %3 in %4")
                                                 .arg(summary.iteration)
                                                 .arg(status)
                                                 .arg(cells)
                                                 .arg(tr("%n round(s)", nullptr, summary.counters.rounds))
                                           : tr("Iteration %1 %2: %3").arg(summary.iteration).arg(status, cells);
        // The reason only when it adds to the status ("stopped (stopped)" says nothing).
        if (!summary.stopReason.isEmpty() && summary.stopReason != status)
            text = tr("%1 (%2)").arg(text, summary.stopReason);
    } else {
        text = tr("Iteration %1 %2: %3").arg(summary.iteration).arg(status, summary.error);
    }
    m_state->setText(text);
    emit statusMessage(text);
    updateActionStates();
    // A served project follows on: its next round is its stream's; whoever
    // shows it reads the project again (RemoteWorkbench).
    if (m_controller->remoteFollower()) {
        emit remoteRoundFinished(summary.iteration, status);
        return;
    }
    if (followed)
        emit followingChanged(false);
    emit roundFinished(summary.iteration, status);
}

void RoundPanel::onBatchWanted(int round, const QStringList &legal, int workers)
{
    m_manualBar->offer(round, legal, workers);
    m_state->setText(tr("Iteration %1: round %2 waits for your batch").arg(m_controller->iteration().id).arg(round + 1));
    emit statusMessage(m_state->text());
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
            const Task::Direction &d = m_directions.at(i);
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
    QtConcurrent::run([task] { return Task::resolve(task); }).then(this, [this, task](Result<Task> resolved) {
        if (resolved.ok() && m_directionsTask == task) { // not a task asked for before
            m_directions = resolved.value->directions;
            m_timeLimitS = resolved.value->timeLimitSeconds;
        }
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
    meta.iteration = m_controller->iteration().id;
    meta.grid = m_controller->iteration().grid;
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


void RoundPanel::appendLog(const QString &line)
{
    m_log->appendPlainText(QTime::currentTime().toString(QStringLiteral("HH:mm:ss ")) + line);
    // Follow the newest line unless the reader scrolled up to read older ones.
    if (m_logFollows)
        m_log->verticalScrollBar()->setValue(m_log->verticalScrollBar()->maximum());
}

} // namespace dreamrsi
