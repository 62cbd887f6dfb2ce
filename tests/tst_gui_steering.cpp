// Steering from the workbench (offscreen), issue 26: a manual round whose
// batches are picked by clicking branches (illegal picks refused, W
// enforced, the batch recorded, an empty batch ends the round), an
// intervention marking its branch in the live tree, and the approval bar
// answering a loop that waits for approval (approve, then decline), and a
// stalled attempt ringed on the drawn tree with Kill in its menu.
#include "looptestsupport.h"
#include "storetestsupport.h"

#include "models/livetreemodel.h"
#include "live/approvalbar.h"
#include "live/manualbatchbar.h"
#include "session/roundcontroller.h"
#include "live/roundpanel.h"
#include "session/steeringcontroller.h"
#include "tree/treeview.h"

#include "backend/localevaluationbackend.h"
#include "loop/dream/policyimprover.h"
#include "loop/recursiveloop.h"
#include "loop/round/roundfollower.h"
#include "loop/round/steeringinbox.h"
#include "store/projectstore.h"

#include <QDialog>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QMenu>
#include <QPlainTextEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QThread>
#include <QtTest>

using namespace dreamrsi;
using dreamrsi::test::FakeAgent;
using dreamrsi::test::take;

class TestGuiSteering : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void manualRoundPickedByClicking();
    void approvalBarAnswersAWaitingLoop();
    void hintDialogListsTheDirections();
    void stalledAttemptOffersKillOnTheTree();
    void treeOffersTheBranchesBeforeTheFirstCell();

private:
    std::unique_ptr<QTemporaryDir> m_dir;
};

void TestGuiSteering::initTestCase()
{
    QCoreApplication::setOrganizationName(QStringLiteral("DreamRSI-test-gui-steering"));
    m_dir = std::make_unique<QTemporaryDir>();
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, m_dir->path());
    qputenv("USER", "tester");
}

void TestGuiSteering::manualRoundPickedByClicking()
{
    const QString path = m_dir->filePath(QStringLiteral("manual.dreamrsi"));
    ProjectStore store;
    take(store.create(path, ProjectInfo()));
    RoundPanel panel(&store);
    panel.resize(1000, 640);
    panel.show();
    RoundConfig c;
    c.task = test::toyTaskDir();
    c.policy = PolicyChoice::manual();
    c.workers = 2;
    c.evaluateBaseline = false;
    c.fallbackGrid = GridPlan{3, 2, QStringLiteral("manual grid")};
    RoundController *round = panel.controller();
    ManualBatchBar *bar = panel.manualBar();
    QSignalSpy finished(&panel, &RoundPanel::roundFinished);
    QSignalSpy logged(round, &RoundController::logLine);
    QVERIFY(round->start(RoundOptions{c, std::nullopt}, std::make_shared<FakeAgent>()));
    auto *legal = bar->findChild<QListWidget *>(QStringLiteral("manualLegal"));
    auto *run = bar->findChild<QPushButton *>(QStringLiteral("manualRun"));
    QVERIFY(legal && run);

    // Round 1: the three roots are legal; W = 2 is enforced.
    QTRY_VERIFY_WITH_TIMEOUT(bar->isVisible(), 30000);
    QCOMPARE(legal->count(), 3);
    QCOMPARE(run->text().remove(u'&'), QStringLiteral("End Round")); // nothing picked yet
    QVERIFY(!bar->toggleBranch(7)); // not a legal branch: refused
    QVERIFY(bar->toggleBranch(0));
    QVERIFY(bar->toggleBranch(2));
    QVERIFY(!bar->toggleBranch(1)); // a third cell exceeds W
    legal->item(1)->setCheckState(Qt::Checked); // ticking it is undone too
    QCOMPARE(legal->item(1)->checkState(), Qt::Unchecked);
    QCOMPARE(bar->picks(), (QStringList{QStringLiteral("b0a0"), QStringLiteral("b2a0")}));
    QCOMPARE(run->text().remove(u'&'), QStringLiteral("Run Batch"));
    run->click();
    QVERIFY(!bar->isVisible());

    // Round 2: both cells stored; close b2 from the panel, it is marked in the tree.
    QTRY_VERIFY_WITH_TIMEOUT(bar->isVisible() && panel.model()->cellCount() == 2, 60000);
    QVERIFY(round->steer(QStringLiteral("close"), 2, {}, false, QStringLiteral("wasting calls")));
    QTRY_VERIFY_WITH_TIMEOUT(panel.model()->index(1, LiveTreeModel::IdColumn).data().toString().contains(QChar(0x2715)),
                             30000);
    // The drawn tree carries the mark too, under b2's leaf.
    QCOMPARE(panel.treeView()->renderer().branchMarks().value(2), QStringList{QStringLiteral("close")});
    QCOMPARE(TreeRenderer::steeringGlyphs({QStringLiteral("close"), QStringLiteral("refine"), QStringLiteral("hint")}),
             QStringLiteral("\u2715\u21E7\u270E"));
    // A killed attempt's branch is not marked as hinted (issue 53).
    QCOMPARE(TreeRenderer::steeringGlyphs({QStringLiteral("kill")}), QStringLiteral("\u2298"));
    // b2's refinement is not legal any more: it left the list, a pick of it is refused.
    QTRY_COMPARE_WITH_TIMEOUT(round->steering()->waiting(), 0, 30000);

    // Pause while the round runs unpaused; Continue only while it is paused.
    QVERIFY(round->isRoundLive());
    QVERIFY(panel.pauseAction()->isEnabled());
    QVERIFY(!panel.continueAction()->isEnabled());
    QVERIFY(round->steer(QStringLiteral("pause")));
    QTRY_VERIFY_WITH_TIMEOUT(panel.continueAction()->isEnabled(), 30000);
    QVERIFY(!panel.pauseAction()->isEnabled());
    QVERIFY(round->steer(QStringLiteral("continue")));
    QTRY_VERIFY_WITH_TIMEOUT(!panel.continueAction()->isEnabled(), 30000);
    QVERIFY(panel.pauseAction()->isEnabled());
    QTRY_COMPARE_WITH_TIMEOUT(round->steering()->waiting(), 0, 30000);
    QCOMPARE(legal->count(), 2);
    QVERIFY(!bar->toggleBranch(2));
    QVERIFY(bar->toggleBranch(1));
    QVERIFY(bar->toggleBranch(0));
    run->click();

    // Round 3: nothing picked ends the round.
    QTRY_VERIFY_WITH_TIMEOUT(bar->isVisible() && panel.model()->cellCount() == 4, 60000);
    QVERIFY(bar->picks().isEmpty());
    run->click();
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 60000);
    QCOMPARE(finished.first().at(1).toString(), QStringLiteral("finished"));
    QVERIFY(!bar->isVisible());

    // The empty batch is logged once: by the round, not again when its answer is read after the round's end.
    QTRY_COMPARE_WITH_TIMEOUT(round->steering()->waiting(), 0, 30000);
    QCOMPARE(std::count_if(logged.cbegin(), logged.cend(),
                           [](const QList<QVariant> &line) {
                               return line.at(0).toString().contains(QStringLiteral("picked an empty batch (the round ends)"));
                           }),
             1);
    // The ended round takes no steering: every request of the menu, Pause and Continue are disabled.
    QVERIFY(!round->isRoundLive());
    QVERIFY(!panel.pauseAction()->isEnabled());
    QVERIFY(!panel.continueAction()->isEnabled());
    for (const std::optional<int> branch : {std::optional<int>(1), std::optional<int>()}) {
        std::unique_ptr<QMenu> menu(panel.steeringMenuFor(branch));
        for (QAction *a : menu->actions())
            QVERIFY2(a->isSeparator() || !a->isEnabled(), qPrintable(a->text()));
    }
    // What ended it is said once, the counts in words.
    QVERIFY2(!panel.stateLabel()->text().contains(QStringLiteral("(finished)")), qPrintable(panel.stateLabel()->text()));
    QVERIFY2(panel.stateLabel()->text().contains(QStringLiteral("(the researcher picked an empty batch)")),
             qPrintable(panel.stateLabel()->text()));

    // The batches and the closing are in the history, by Settings' name (the login name here).
    QStringList events;
    for (const SteeringEvent &e : take(store.steeringEvents())) {
        events.append(QStringLiteral("%1:%2:%3").arg(e.action, e.action == QLatin1String("batch") ? e.text : QString::number(e.branch.value_or(-1)), e.who));
    }
    QCOMPARE(events, (QStringList{QStringLiteral("batch:b0a0 b2a0:tester"), QStringLiteral("close:2:tester"),
                                  QStringLiteral("pause:-1:tester"), QStringLiteral("continue:-1:tester"),
                                  QStringLiteral("batch:b1a0 b0a1:tester"), QStringLiteral("batch::tester")}));
    take(store.close());
}

void TestGuiSteering::approvalBarAnswersAWaitingLoop()
{
    // The loop holds the project (a store of its own, as another process
    // would); the panel follows it read-only, as the main window does, and
    // hears of each wait for approval from the follower's stream
    // (RoundEvents::approvalAwaited), not by asking.
    const QString path = m_dir->filePath(QStringLiteral("gate.dreamrsi"));
    ProjectStore store;
    take(store.create(path, ProjectInfo()));
    ProjectStore reader;
    const OpenReport opened = take(reader.openReadOnly(path));
    QVERIFY(opened.writer.has_value());
    const WriterInfo writer = *opened.writer;
    RoundPanel panel(&reader);
    panel.show();
    RoundController *round = panel.controller();
    round->follower()->setInterval(100);
    // The main window reopens the project when a followed round ends and follows it again.
    connect(&panel, &RoundPanel::roundFinished, this, [&] { round->follow(writer); });
    round->follow(writer);
    RecursiveLoop loop(&store, std::make_shared<FakeAgent>(), std::make_shared<LocalEvaluationBackend>(),
                       std::make_shared<PolicyImprover>(2));
    const LoopSettings s = test::toyLoopSettings(3);
    QSignalSpy awaited(round, &RoundController::approvalAwaited);
    LoopReport report;
    QThread *worker = QThread::create([&] { report = loop.run(s); });
    worker->start();

    // The first proposal: the bar says so once; approve it from the panel.
    QTRY_VERIFY_WITH_TIMEOUT(panel.approvalBar()->isVisible() || worker->isFinished(), 240000);
    if (worker->isFinished()) {
        QStringList what{report.error};
        for (const LoopIteration &it : std::as_const(report.iterations))
            what.append(QStringLiteral("iteration %1 (%5, %6 cells): round %2 %3, dream %4").arg(it.index).arg(it.round.error, it.round.stopReason,
                                                                                   it.dream ? it.dream->error : QStringLiteral("none"), it.policyName).arg(it.round.counters.cells));
        QFAIL(qPrintable(QStringLiteral("the loop ended without waiting: ") + what.join(QStringLiteral("; "))));
    }
    QCOMPARE(awaited.count(), 1);
    QTest::qWait(300); // more looks of the follower
    QCOMPARE(awaited.count(), 1); // once per proposal
    const QString name = awaited.first().at(0).value<ApprovalWait>().name();
    QVERIFY(!name.isEmpty());
    QVERIFY(panel.approvalBar()->findChild<QLabel *>(QStringLiteral("approvalText"))->text().contains(name));
    QSignalSpy answered(round->steering(), &SteeringController::answered);
    QVERIFY(round->answerApproval(name, QStringLiteral("ada"), QStringLiteral("looks right")));
    QTRY_COMPARE_WITH_TIMEOUT(answered.count(), 1, 60000);
    QVERIFY(answered.first().at(1).value<SteeringAck>().applied);

    // The second: decline with the bar's button.
    QTRY_VERIFY_WITH_TIMEOUT(awaited.count() == 2 && panel.approvalBar()->isVisible(), 240000);
    panel.approvalBar()->findChild<QPushButton *>(QStringLiteral("approvalDecline"))->click();
    QTRY_COMPARE_WITH_TIMEOUT(answered.count(), 2, 60000);
    QVERIFY(answered.at(1).at(1).value<SteeringAck>().applied);

    // The third round ends the loop (no dream after the last).
    QTRY_VERIFY_WITH_TIMEOUT(worker->isFinished(), 240000);
    QCOMPARE(awaited.count(), 2);
    delete worker;
    QVERIFY2(report.error.isEmpty(), qPrintable(report.error));
    QCOMPARE(report.iterations.size(), 3);
    const PolicyVersionId approved = report.iterations.at(0).approved;
    QVERIFY(approved != 0);
    QCOMPARE(report.iterations.at(1).policyVersion, approved);
    QCOMPARE(report.iterations.at(2).policyVersion, approved); // declined: the deployed one stays
    const QList<Approval> approvals = take(store.approvals());
    QCOMPARE(approvals.size(), 1);
    QCOMPARE(approvals.at(0).who, QStringLiteral("ada"));
    QTRY_VERIFY_WITH_TIMEOUT(!panel.approvalBar()->isVisible(), 30000); // nobody waits any more
    QVERIFY(!round->approvalWait());
    round->stopFollowing();
    take(reader.close());
    take(store.close());
}

void TestGuiSteering::hintDialogListsTheDirections()
{
    // A task folder naming two directions and a time limit.
    const QString task = m_dir->filePath(QStringLiteral("directed"));
    QVERIFY(QDir().mkpath(task));
    for (const QString &name : {QStringLiteral("initial.py"), QStringLiteral("problem.md"), QStringLiteral("score.py")})
        QVERIFY(QFile::copy(test::toyTaskDir() + QLatin1Char('/') + name, task + QLatin1Char('/') + name));
    QFile json(task + QStringLiteral("/task.json"));
    QVERIFY(json.open(QIODevice::WriteOnly));
    json.write(R"({"evaluator": {"command": "python3 \"$DREAMRSI_TASK_DIR/score.py\""},
                   "options": {"time_limit_s": 45},
                   "directions": [{"name": "greedy", "description": "place one at a time"}, "annealing"]})");
    json.close();
    RoundPanel panel(nullptr);
    panel.loadDirections(task);
    QTRY_COMPARE_WITH_TIMEOUT(panel.directions().size(), 2, 30000);
    std::unique_ptr<QDialog> dialog(panel.hintDialog(3));
    auto *listed = dialog->findChild<QLabel *>(QStringLiteral("hintDirections"));
    QVERIFY(listed);
    QVERIFY2(listed->text().contains(QStringLiteral("greedy")) && listed->text().contains(QStringLiteral("place one at a time")),
             qPrintable(listed->text()));
    // Branch 3 takes direction 3 mod 2 = 1, annealing.
    QVERIFY2(listed->text().contains(QStringLiteral("annealing</b> <i>(b3's direction)</i>")), qPrintable(listed->text()));
    QVERIFY(dialog->findChild<QPlainTextEdit *>(QStringLiteral("hintText")));
    // The limit the task names is shown against a running attempt's time on the drawn tree.
    QCOMPARE(TreeRenderer::runningLabel(RunningAttempt{3, 1, 12.4, 45.0}), QStringLiteral("12/45 s"));
    QCOMPARE(TreeRenderer::runningLabel(RunningAttempt{3, 1, 12.4, std::nullopt}), QStringLiteral("12 s"));
}

// A stalled attempt (docs/online.md#is-it-alive) is ringed on the drawn live
// tree, and the menu on its cell names it stalled and offers Kill, the same
// entry as the branch menu of the list (RoundController::killAttempt).
void TestGuiSteering::stalledAttemptOffersKillOnTheTree()
{
    const QString path = m_dir->filePath(QStringLiteral("stalled.dreamrsi"));
    ProjectStore store;
    take(store.create(path, ProjectInfo()));
    RoundPanel panel(&store);
    panel.resize(1000, 640);
    panel.show();
    panel.model()->markRunning(QStringLiteral("b3a0"));
    panel.model()->markRunning(QStringLiteral("b3a1"));
    panel.model()->setStalled({QStringLiteral("b3a1")});
    const QList<RunningAttempt> running = panel.model()->runningAttempts(60.0);
    QCOMPARE(running.size(), 2);
    QVERIFY(!running.at(0).stalled);
    QVERIFY(running.at(1).stalled);
    TreeView *view = panel.treeView();
    view->setRunningAttempts(running);
    const QPointF at = view->renderer().runningRect(running.at(1)).center() * view->scale() + view->offset();
    const std::optional<RunningAttempt> under = view->runningAttemptAt(at);
    QVERIFY(under && under->stalled && under->attempt == 1);
    const std::optional<int> branch = view->branchAt(at);
    QCOMPARE(branch, std::optional<int>(3));
    std::unique_ptr<QMenu> menu(panel.steeringMenuFor(branch));
    QStringList texts;
    for (QAction *a : menu->actions())
        texts.append(a->text());
    QVERIFY2(texts.contains(QStringLiteral("Kill b3a1 (stalled)…")), qPrintable(texts.join(QLatin1String(" | "))));
    QVERIFY2(texts.contains(QStringLiteral("Kill b3a0…")), qPrintable(texts.join(QLatin1String(" | "))));
    // No round is live here, so nothing can be sent: every steering entry is off.
    for (QAction *a : menu->actions()) {
        if (a->text().startsWith(QLatin1String("Kill")))
            QVERIFY(!a->isEnabled());
    }
    // No longer named stalled: the ring goes with the next tick's attempts.
    panel.model()->setStalled({});
    QVERIFY(!panel.model()->runningAttempts(60.0).at(1).stalled);
    take(store.close());
}

// Before the first cell the drawn tree is only its placeholder: its menu
// offers each branch that has a running attempt, as the list's menu does
// (Close, Refine, Hint, Kill), in a submenu per branch; the next new branch,
// Pause and Continue once, below. Once the tree has a cell, a place off any
// branch offers only those.
void TestGuiSteering::treeOffersTheBranchesBeforeTheFirstCell()
{
    const QString path = m_dir->filePath(QStringLiteral("first.dreamrsi"));
    ProjectStore store;
    take(store.create(path, ProjectInfo()));
    RoundPanel panel(&store);
    panel.resize(1000, 640);
    panel.show();
    panel.model()->markRunning(QStringLiteral("b1a0"));
    panel.model()->markRunning(QStringLiteral("b0a0"));
    TreeView *view = panel.treeView();
    view->setRunningAttempts(panel.model()->runningAttempts(60.0));
    QVERIFY(!view->tree());
    const QPointF off(view->width() - 5, view->height() - 5); // the placeholder, no running attempt drawn there
    QVERIFY(!view->branchAt(off));
    std::unique_ptr<QMenu> menu(panel.treeMenuAt(off));
    QStringList titles;
    QStringList top;
    for (QAction *a : menu->actions()) {
        if (QMenu *sub = a->menu()) {
            titles.append(sub->title());
            QStringList texts;
            for (QAction *e : sub->actions())
                texts.append(e->text());
            const QString b = sub->title().section(QLatin1Char(' '), -1);
            QCOMPARE(texts, (QStringList{QStringLiteral("Close Branch %1").arg(b), QStringLiteral("Refine %1 Next").arg(b),
                                         QStringLiteral("Hint for %1's Next Attempt…").arg(b), QStringLiteral("Kill %1a0…").arg(b)}));
        } else if (!a->isSeparator()) {
            top.append(a->text());
        }
    }
    QCOMPARE(titles, (QStringList{QStringLiteral("Branch b0"), QStringLiteral("Branch b1")}));
    QCOMPARE(top, (QStringList{QStringLiteral("Hint for the Next New Branch…"), panel.pauseAction()->text(),
                               panel.continueAction()->text()}));
    // A tree with cells: off its branches only the round's own entries.
    Cell cell;
    cell.id = QStringLiteral("b0a0");
    cell.score = 1.0;
    std::optional<DiscoveryTree> tree = DiscoveryTree::build(TreeMeta(), {cell});
    QVERIFY(tree);
    view->setTree(std::make_shared<const DiscoveryTree>(std::move(*tree)));
    QVERIFY(!view->branchAt(off));
    menu.reset(panel.treeMenuAt(off));
    for (QAction *a : menu->actions())
        QVERIFY2(!a->menu(), qPrintable(a->text()));
    take(store.close());
}

QTEST_MAIN(TestGuiSteering)
#include "tst_gui_steering.moc"
