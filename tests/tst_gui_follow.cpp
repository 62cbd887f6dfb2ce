// Following a round that another process runs (offscreen): round_helper runs
// a live round of the toy task in a child process and holds its agent calls
// at a gate file; the workbench opens the project, finds it written by that
// process, opens it read-only and follows the round: Launch, Stop and Resume
// disabled, a label naming the process, the attempts held at the gate
// listed running, rows inserted (never a reset) as the child runs and
// stores attempts, and the finished iteration a replay world once the
// child has let the project go. A child killed mid-round leaves its
// iteration interrupted, and the follower says so. A followed round's
// progress counts what its stored limits allow, and nothing that writes
// (Dream…) is offered while the project is read-only. A followed `dreamrsi
// round` whose command agent hangs shows its running attempt, marks it
// stalled by the rule `dreamrsi status` applies, and Kill from the follower
// (through the project's inbox) ends it when the round accepts steering;
// when it does not, Kill is shown disabled, saying why.
#include "live/livedashboard.h"
#include "models/livetreemodel.h"
#include "session/roundcontroller.h"
#include "live/roundpanel.h"
#include "live/roundstatus.h"
#include "tree/treeview.h"
#include "loop/round/roundfollower.h"
#include "policies/dreamingdialog.h"
#include "session/projectsession.h"
#include "models/workspace.h"
#include "clirunsupport.h"
#include "storetestsupport.h"
#include "window/mainwindow.h"

#include "loop/round/roundliveness.h"
#include "loop/round/roundtree.h"
#include "store/projectlock.h"
#include "store/projectstore.h"

#include <QAction>
#include <QApplication>
#include <QFile>
#include <QInputDialog>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QMenu>
#include <QPlainTextEdit>
#include <QProcess>
#include <QProgressBar>
#include <QSignalSpy>
#include <QStatusBar>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QThread>
#include <QTimer>
#include <QtTest>

#include <csignal>

#include <sys/prctl.h>

#include <algorithm>
#include <cmath>

using namespace dreamrsi;
using dreamrsi::test::take;

class TestGuiFollow : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void followsARoundToItsEnd();
    void childKilledMidRound();
    void followerKnowsTheLimitsAndCannotDream();
    void followedAttemptStallsAndIsKilled();
    void followedRoundWithoutSteeringOffersNoKill();

private:
    /// A new empty project; returns its path.
    QString newProject(const QString &name);
    /// Starts round_helper on `project`, its agent held until `gate` exists; returns the iteration it began.
    qint64 startChild(QProcess &child, const QString &project, const QString &gate);
    /// Starts `dreamrsi round` on the toy task (W 2, 2 rounds, 3 calls) whose
    /// command agent hangs in its first call, with `extra` arguments; its
    /// output goes to files beside the project.
    void startHangingRound(QProcess &round, const QString &project, const QStringList &extra);
    /// Follows `project` in `window` once its round runs attempts; the followed iteration.
    IterationId followRound(MainWindow &window, const QString &project);

    std::unique_ptr<QTemporaryDir> m_dir;
};

namespace {

QString helperPath()
{
    return QCoreApplication::applicationDirPath() + QStringLiteral("/round_helper");
}

/// A command agent whose first call (the one that makes `hang` first)
/// hangs; every other call writes a program at once.
QString hangingAgent(const QString &hang)
{
    return QStringLiteral("cat > /dev/null; if mkdir '%1' 2>/dev/null; then sleep 600; fi; "
                          "printf 'VALUE = 2\\n' > \"$DREAMRSI_PROGRAM_FILE\"; printf '# Idea\\nTwo.\\n' > proposal.md")
        .arg(hang);
}

/// Stops a `dreamrsi round` still running: SIGTERM lets running attempts
/// finish, a second one kills them (the hanging agent's process group too).
void stopRound(QProcess &round)
{
    if (round.state() == QProcess::NotRunning)
        return;
    round.terminate();
    QThread::msleep(300);
    round.terminate();
    if (!round.waitForFinished(30000)) {
        round.kill();
        round.waitForFinished(10000);
    }
}

/// The item of the live list that shows attempt `id`.
QModelIndex rowOf(const LiveTreeModel *model, const QString &id)
{
    for (int b = 0; b < model->rowCount(); ++b) {
        const QModelIndex branch = model->index(b, 0);
        for (int a = 0; a < model->rowCount(branch); ++a) {
            const QModelIndex item = model->index(a, LiveTreeModel::IdColumn, branch);
            if (item.data().toString() == id)
                return item;
        }
    }
    return {};
}

/// What the live list's Status column says of attempt `id`.
QString statusOf(const LiveTreeModel *model, const QString &id)
{
    const QModelIndex item = rowOf(model, id);
    return model->index(item.row(), LiveTreeModel::StatusColumn, item.parent()).data().toString();
}

/// Whether the live list has attempt `id` running and named stalled.
bool stalledIn(const LiveTreeModel *model, const QString &id)
{
    for (const RunningAttempt &a : model->runningAttempts(std::nullopt)) {
        if (RoundTree::idOf(a.branch, a.attempt) == id)
            return a.stalled;
    }
    return false;
}

/// Whether the round in `project` publishes `id` among its attempts in flight.
bool publishes(const QString &project, const QString &id)
{
    const std::optional<LiveRound> live = RoundLiveness::read(project);
    return live
           && std::any_of(live->attempts.cbegin(), live->attempts.cend(), [&](const LiveAttempt &a) { return a.id == id; });
}

/// The Kill action for `id` in a steering menu, or null.
QAction *killActionOf(QMenu *menu, const QString &id)
{
    for (QAction *a : menu->actions()) {
        if (a->objectName() == QLatin1String("actionKillAttempt") && a->data().toString() == id)
            return a;
    }
    return nullptr;
}

} // namespace

void TestGuiFollow::initTestCase()
{
    QCoreApplication::setOrganizationName(QStringLiteral("DreamRSI-test-gui-follow"));
    m_dir = std::make_unique<QTemporaryDir>();
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, m_dir->path());
    QVERIFY(QFileInfo::exists(helperPath()));
    // The command agent's workspaces lie under the folder (as in tst_round_status).
    const QString dir = m_dir->path();
    QFile::setPermissions(dir, QFile::permissions(dir) | QFileDevice::ExeGroup | QFileDevice::ExeOther);
}

QString TestGuiFollow::newProject(const QString &name)
{
    const QString path = m_dir->filePath(name);
    ProjectStore store;
    take(store.create(path, ProjectInfo()));
    take(store.close());
    return path;
}

qint64 TestGuiFollow::startChild(QProcess &child, const QString &project, const QString &gate)
{
    child.setProgram(helperPath());
    // The round dies with the test (a test that crashes or times out leaves none behind).
    child.setChildProcessModifier([] { ::prctl(PR_SET_PDEATHSIG, SIGKILL); });
    child.setArguments({project, QStringLiteral(DREAMRSI_SOURCE_DIR "/tests/data/loop/toy_task"), QStringLiteral("0"), gate});
    child.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    child.start();
    if (!child.waitForStarted(30000))
        return 0;
    // "iteration N": the round's row is committed and its agent calls wait at the gate.
    QByteArray seen;
    QRegularExpressionMatch m;
    const QRegularExpression re(QStringLiteral("^iteration (\\d+)$"), QRegularExpression::MultilineOption);
    QElapsedTimer waited;
    waited.start();
    while (!(m = re.match(QString::fromUtf8(seen))).hasMatch() && child.state() == QProcess::Running && waited.elapsed() < 60000) {
        child.waitForReadyRead(1000);
        seen += child.readAllStandardOutput();
    }
    return m.hasMatch() ? m.captured(1).toLongLong() : 0;
}

void TestGuiFollow::followsARoundToItsEnd()
{
    const QString project = newProject(QStringLiteral("followed.dreamrsi"));
    const QString gate = m_dir->filePath(QStringLiteral("gate-1"));
    QProcess child;
    const qint64 iteration = startChild(child, project, gate);
    QVERIFY2(iteration > 0, "the child round did not begin");

    MainWindow window;
    window.resize(1400, 900);
    window.show();
    RoundPanel *panel = window.roundPanel();
    QVERIFY(panel);
    panel->controller()->follower()->setInterval(200);
    QSignalSpy opened(&window, &MainWindow::projectOpened);
    QSignalSpy failed(&window, &MainWindow::openFailed);
    window.openProject(project);
    QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, 30000);
    QCOMPARE(failed.count(), 0);
    QVERIFY(window.session()->isReadOnly());
    QCOMPARE(window.session()->writer().value_or(WriterInfo()).pid, child.processId());
    QVERIFY(window.windowTitle().contains(QStringLiteral("read-only")));

    // The follower finds the child's running iteration.
    QTRY_COMPARE_WITH_TIMEOUT(panel->controller()->follower()->iteration(), iteration, 30000);
    QVERIFY(panel->isFollowing());
    QVERIFY(!panel->launchAction()->isEnabled());
    QVERIFY(!panel->stopAction()->isEnabled());
    QVERIFY(!panel->resumeAction()->isEnabled());
    QVERIFY2(panel->stateLabel()->text().contains(QStringLiteral("another process (pid %1)").arg(child.processId())),
             qPrintable(panel->stateLabel()->text()));
    QVERIFY(panel->statusWidget()->isVisible());
    QCOMPARE(panel->model()->cellCount(), 0); // the gate holds every attempt
    // No "No tree open" while a project is open and its round followed: both trees say what they wait for.
    QVERIFY2(!panel->treeView()->placeholderText().startsWith(QStringLiteral("No tree open")),
             qPrintable(panel->treeView()->placeholderText()));
    QVERIFY2(panel->treeView()->placeholderText().contains(QStringLiteral("Iteration %1").arg(iteration)),
             qPrintable(panel->treeView()->placeholderText()));
    QVERIFY2(!window.treeView()->placeholderText().startsWith(QStringLiteral("No tree open")),
             qPrintable(window.treeView()->placeholderText()));
    // The followed round takes steering: Pause is offered, Continue is not (nothing is paused).
    QVERIFY(panel->controller()->isRoundLive());
    QVERIFY(panel->pauseAction()->isEnabled());
    QVERIFY(!panel->continueAction()->isEnabled());

    LiveTreeModel *model = panel->model();
    // The attempts held at the gate are listed running: the child publishes them.
    QTRY_COMPARE_WITH_TIMEOUT(model->runningCount(), 3, 10000);
    QSignalSpy resets(model, &QAbstractItemModel::modelReset);
    QSignalSpy inserted(model, &QAbstractItemModel::rowsInserted);
    QSignalSpy ended(panel, &RoundPanel::roundFinished);
    {
        QFile open(gate);
        QVERIFY(open.open(QIODevice::WriteOnly));
    }
    // Cells the child stores show up while it still runs (or has just ended).
    QTRY_VERIFY_WITH_TIMEOUT(model->cellCount() >= 1, 60000);
    QVERIFY(test::waitForExit(child, 120000));
    QCOMPARE(child.exitCode(), 0);
    QTRY_COMPARE_WITH_TIMEOUT(ended.count(), 1, 30000);
    QCOMPARE(ended.first().at(0).toLongLong(), iteration);
    QCOMPARE(ended.first().at(1).toString(), QStringLiteral("finished"));
    // Rows were inserted (the later rounds' attempts, running or stored), never reset.
    QVERIFY(inserted.count() >= 1);
    QCOMPARE(resets.count(), 0);
    QCOMPARE(model->cellCount(), 12); // 3 branches x 4 attempts
    QCOMPARE(panel->dashboard()->calls(), 12);

    // The child let the project go: it is reopened for writing and the
    // finished iteration is a replay world.
    auto hasWorld = [&] {
        for (const WorldEntry &w : window.workspace()->worlds()) {
            if (w.iteration == iteration)
                return w.tree && w.tree->cellCount() == 12;
        }
        return false;
    };
    QTRY_VERIFY_WITH_TIMEOUT(hasWorld(), 30000);
    QTRY_VERIFY_WITH_TIMEOUT(!window.session()->isReadOnly() && window.session()->isOpen(), 30000);
    QVERIFY(!panel->isFollowing());
    QVERIFY(panel->launchAction()->isEnabled());
    QVERIFY(!panel->statusWidget()->isVisible());
    // The followed round has ended: no steering is offered, and a request
    // says no round runs, without naming this window's own process.
    QVERIFY(!panel->controller()->isRoundLive());
    QVERIFY(!panel->pauseAction()->isEnabled());
    QVERIFY(!panel->continueAction()->isEnabled());
    {
        std::unique_ptr<QMenu> menu(panel->steeringMenuFor(0));
        for (QAction *a : menu->actions())
            QVERIFY2(a->isSeparator() || !a->isEnabled(), qPrintable(a->text()));
    }
    QSignalSpy logged(panel->controller(), &RoundController::logLine);
    QVERIFY(!panel->controller()->steer(QStringLiteral("close"), 0));
    QVERIFY(!logged.isEmpty());
    const QString refusal = logged.last().at(0).toString();
    QVERIFY2(refusal.contains(QStringLiteral("no round is running")), qPrintable(refusal));
    QVERIFY2(!refusal.contains(QStringLiteral("pid %1").arg(QCoreApplication::applicationPid()))
                 && !refusal.contains(QStringLiteral("process %1").arg(QCoreApplication::applicationPid())),
             qPrintable(refusal));
    QVERIFY2(!window.treeView()->placeholderText().startsWith(QStringLiteral("No tree open")),
             qPrintable(window.treeView()->placeholderText()));
}

void TestGuiFollow::childKilledMidRound()
{
    const QString project = newProject(QStringLiteral("killed.dreamrsi"));
    QProcess child;
    const qint64 iteration = startChild(child, project, m_dir->filePath(QStringLiteral("never")));
    QVERIFY2(iteration > 0, "the child round did not begin");

    MainWindow window;
    window.show();
    RoundPanel *panel = window.roundPanel();
    panel->controller()->follower()->setInterval(200);
    window.openProject(project);
    QTRY_COMPARE_WITH_TIMEOUT(panel->controller()->follower()->iteration(), iteration, 30000);
    QSignalSpy ended(panel, &RoundPanel::roundFinished);
    child.kill();
    QVERIFY(child.waitForFinished(30000));
    QTRY_COMPARE_WITH_TIMEOUT(ended.count(), 1, 30000);
    QCOMPARE(ended.first().at(1).toString(), QStringLiteral("interrupted"));
    QVERIFY(panel->stateLabel()->text().contains(QStringLiteral("interrupted")));
    // Reopened for writing, the store marks it interrupted too: it can be resumed.
    QTRY_VERIFY_WITH_TIMEOUT(!window.session()->isReadOnly() && window.session()->isOpen(), 30000);
    QCOMPARE(take(window.session()->store()->iterationData(iteration)).info.status, IterationStatus::Interrupted);
    QTRY_VERIFY_WITH_TIMEOUT(panel->resumeAction()->isEnabled(), 10000); // once the store has answered
}

void TestGuiFollow::followerKnowsTheLimitsAndCannotDream()
{
    // A round begun elsewhere with W 2 and a round limit of 6 on a 10 x 10
    // grid makes at most 12 attempts, not the grid's 110. The writer is a
    // second store in this process: it holds the project's lock as another
    // process would.
    const QString project = newProject(QStringLiteral("limits.dreamrsi"));
    ProjectStore writer;
    take(writer.open(project));
    IterationInfo info;
    info.number = 1;
    info.task = QStringLiteral("circle_packing_26");
    info.maxParallelism = 2;
    info.roundLimit = 6;
    info.grid = GridShape{10, 10};
    info.status = IterationStatus::Running;
    info.started = QDateTime::currentDateTimeUtc();
    const IterationId iteration = take(writer.beginIteration(info));
    const IterationInfo stored = take(writer.iterationData(iteration)).info;
    QCOMPARE(stored.roundLimit, std::optional<int>(6));
    QCOMPARE(stored.maxParallelism, std::optional<int>(2));
    QVERIFY(!stored.callLimit);

    MainWindow window;
    window.show();
    RoundPanel *panel = window.roundPanel();
    panel->controller()->follower()->setInterval(200);
    QSignalSpy opened(&window, &MainWindow::projectOpened);
    window.openProject(project);
    QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, 30000);
    QVERIFY(window.session()->isReadOnly());
    QTRY_COMPARE_WITH_TIMEOUT(panel->controller()->follower()->iteration(), iteration, 30000);
    auto *bar = window.statusBar()->findChild<QProgressBar *>(QStringLiteral("roundProgress"));
    QVERIFY(bar);
    QCOMPARE(bar->maximum(), 12);

    // Read-only: no dreaming (it stores versions); a dialog opened anyway refuses.
    QAction *dream = window.findChild<QAction *>(QStringLiteral("actionDream"));
    QVERIFY(dream);
    QVERIFY(!dream->isEnabled());
    DreamingDialog dialog(*window.workspace(), window.session()->store(), window.preferences());
    QVERIFY(!dialog.start());
    QVERIFY(dialog.findChild<QPlainTextEdit *>(QStringLiteral("dreamLog"))->toPlainText().contains(QStringLiteral("read-only")));

    // The writer lets go: the project is writable again, and so is dreaming.
    take(writer.finishIteration(iteration, IterationStatus::Finished));
    take(writer.close());
    QTRY_VERIFY_WITH_TIMEOUT(!window.session()->isReadOnly() && window.session()->isOpen(), 30000);
    QTRY_VERIFY_WITH_TIMEOUT(dream->isEnabled(), 10000);
}

void TestGuiFollow::startHangingRound(QProcess &round, const QString &project, const QStringList &extra)
{
    round.setProgram(test::dreamrsiProgram());
    round.setArguments(QStringList{QStringLiteral("round"), QStringLiteral("--project"), project,
                                   QStringLiteral("--task"),
                                   QStringLiteral(DREAMRSI_SOURCE_DIR "/tests/data/loop/toy_task"),
                                   QStringLiteral("--agent"), QStringLiteral("command"), QStringLiteral("--command"),
                                   hangingAgent(project + QStringLiteral(".hang")), QStringLiteral("--workers"),
                                   QStringLiteral("2"), QStringLiteral("--rounds"), QStringLiteral("2"),
                                   QStringLiteral("--max-calls"), QStringLiteral("3")}
                       + extra);
    round.setStandardOutputFile(project + QStringLiteral(".out"));
    round.setStandardErrorFile(project + QStringLiteral(".err"));
    round.start();
    QVERIFY(round.waitForStarted(30000));
}

IterationId TestGuiFollow::followRound(MainWindow &window, const QString &project)
{
    // The round runs attempts once it publishes them (the project exists and is held).
    auto publishing = [&] {
        const std::optional<LiveRound> live = RoundLiveness::read(project);
        return live && !live->attempts.isEmpty();
    };
    [&] { QTRY_VERIFY_WITH_TIMEOUT(publishing(), 60000); }();
    if (!publishing())
        return 0;
    RoundPanel *panel = window.roundPanel();
    panel->controller()->follower()->setInterval(200);
    QSignalSpy opened(&window, &MainWindow::projectOpened);
    window.openProject(project);
    [&] { QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, 30000); }();
    if (!window.session()->isReadOnly())
        return 0;
    [&] { QTRY_VERIFY_WITH_TIMEOUT(panel->controller()->follower()->iteration() != 0, 30000); }();
    return panel->controller()->follower()->iteration();
}

void TestGuiFollow::followedAttemptStallsAndIsKilled()
{
    const QString project = m_dir->filePath(QStringLiteral("stalled.dreamrsi"));
    QProcess round;
    auto stop = qScopeGuard([&round] { stopRound(round); });
    startHangingRound(round, project, {QStringLiteral("--accept-steering")});
    if (QTest::currentTestFailed())
        return;
    // The no-cell rule's 60 s floor, shortened for this process (the follower) only.
    qputenv("DREAMRSI_STALL_FLOOR_S", "2");
    auto floor = qScopeGuard([] { qunsetenv("DREAMRSI_STALL_FLOOR_S"); });

    MainWindow window;
    window.resize(1400, 900);
    window.show();
    RoundPanel *panel = window.roundPanel();
    const IterationId iteration = followRound(window, project);
    QVERIFY2(iteration > 0, "the round was not followed");
    QVERIFY(window.session()->isReadOnly());
    QCOMPARE(window.session()->writer().value_or(WriterInfo()).pid, round.processId());
    LiveTreeModel *model = panel->model();

    // Its attempts in flight are listed within a few seconds: first the
    // batch of two, then the hanging one alone once its batch mate is stored.
    QTRY_VERIFY_WITH_TIMEOUT(model->runningCount() >= 1, 5000);
    QTRY_VERIFY_WITH_TIMEOUT(model->cellCount() == 1 && model->runningCount() == 1, 60000);
    const RunningAttempt hanging = model->runningAttempts(std::nullopt).constFirst();
    const QString id = RoundTree::idOf(hanging.branch, hanging.attempt);
    const std::optional<LiveRound> live = RoundLiveness::read(project); // the writer's own list
    QVERIFY(live);
    QCOMPARE(live->iteration, iteration);
    QVERIFY(publishes(project, id));
    const QModelIndex row = rowOf(model, id);
    QVERIFY(row.isValid());
    QVERIFY(row.data(LiveTreeModel::RunningRole).toBool());
    QCOMPARE(model->branchOf(row), std::optional<int>(hanging.branch)); // the list's menu is the branch's
    // Its age is the writer's (since the attempt began there), not since this window saw it.
    for (const LiveAttempt &a : live->attempts) {
        if (a.id != id)
            continue;
        const double writerAge = double(a.started.msecsTo(QDateTime::currentDateTimeUtc())) / 1000.0;
        const double shown = model->runningAttempts(std::nullopt).constFirst().elapsedS;
        QVERIFY2(std::abs(shown - writerAge) < 1.5, qPrintable(QStringLiteral("%1 vs %2").arg(shown).arg(writerAge)));
    }

    // Stalled by the rule `dreamrsi status` applies: the row says so, the drawn tree rings it.
    QTRY_VERIFY_WITH_TIMEOUT(stalledIn(model, id), 30000);
    QTRY_VERIFY_WITH_TIMEOUT(statusOf(model, id).contains(QStringLiteral("stalled")), 5000);
    auto ringed = [&] {
        for (const RunningAttempt &a : panel->treeView()->renderer().running()) {
            if (a.branch == hanging.branch && a.attempt == hanging.attempt)
                return a.stalled;
        }
        return false;
    };
    QTRY_VERIFY_WITH_TIMEOUT(ringed(), 5000);
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("DREAMRSI_STALL_FLOOR_S"), QStringLiteral("2"));
        const test::CliRun status =
            test::runDreamrsi({QStringLiteral("status"), project, QStringLiteral("--json")}, env, 60000);
        QVERIFY2(status.finished && status.exitCode == 0, status.err.constData());
        const QJsonObject json = QJsonDocument::fromJson(status.out).object();
        QStringList stalled;
        for (const QJsonValue &it : json.value(QStringLiteral("iterations")).toArray()) {
            for (const QJsonValue &a : it.toObject().value(QStringLiteral("attempts")).toArray()) {
                if (a.toObject().value(QStringLiteral("stalled")).toBool())
                    stalled.append(a.toObject().value(QStringLiteral("id")).toString());
            }
        }
        QCOMPARE(stalled, QStringList{id});
    }

    // The round accepts steering: Kill is offered for the branch, on the list and the tree alike.
    QString whyNot;
    QVERIFY2(panel->controller()->canKill(&whyNot), qPrintable(whyNot));
    std::unique_ptr<QMenu> menu(panel->steeringMenuFor(hanging.branch));
    QAction *kill = killActionOf(menu.get(), id);
    QVERIFY(kill);
    QVERIFY(kill->isEnabled());
    QVERIFY2(kill->text().contains(QStringLiteral("stalled")), qPrintable(kill->text()));
    // Kill asks why; the answer is given here.
    QTimer answer;
    answer.setInterval(50);
    bool answered = false;
    bool titled = false;
    connect(&answer, &QTimer::timeout, this, [&] {
        for (QWidget *w : QApplication::topLevelWidgets()) {
            if (auto *dialog = qobject_cast<QInputDialog *>(w); dialog && dialog->isVisible()) {
                // A short title; the attempt is named in the text (issue 53).
                titled = dialog->windowTitle() == QLatin1String("Kill") && dialog->labelText().contains(QLatin1String("Why kill b"));
                dialog->setTextValue(QStringLiteral("hangs"));
                dialog->accept();
                answered = true;
                answer.stop();
            }
        }
    });
    QSignalSpy logged(panel->controller(), &RoundController::logLine);
    answer.start();
    kill->trigger();
    answer.stop();
    QVERIFY(answered);
    QVERIFY(titled);
    // The request went to the inbox; the round applies it and stores the attempt as killed.
    const QString applied = QStringLiteral("kill %1 — applied").arg(id);
    auto appliedLogged = [&] {
        for (const QList<QVariant> &line : std::as_const(logged)) {
            if (line.at(0).toString().contains(applied))
                return true;
        }
        return false;
    };
    QTRY_VERIFY_WITH_TIMEOUT(appliedLogged(), 30000);
    QTRY_VERIFY_WITH_TIMEOUT(!rowOf(model, id).data(LiveTreeModel::RunningRole).toBool(), 30000);
    QCOMPARE(statusOf(model, id), QStringLiteral("env"));
    const QString error = rowOf(model, id).data(Qt::ToolTipRole).toString();
    QVERIFY2(error.contains(QStringLiteral("killed by")) && error.contains(QStringLiteral("hangs")), qPrintable(error));

    // The round goes on and finishes; nothing is left running in the follower.
    QTRY_VERIFY_WITH_TIMEOUT(round.state() == QProcess::NotRunning, 120000);
    QCOMPARE(round.exitCode(), 0);
    QTRY_VERIFY_WITH_TIMEOUT(!window.session()->isReadOnly() && window.session()->isOpen(), 30000);
    QCOMPARE(model->runningCount(), 0);
    const IterationData stored = take(window.session()->store()->iterationData(iteration));
    QCOMPARE(stored.cells.size(), 3); // the killed one, its batch mate, and round 2's
    const auto cell =
        std::find_if(stored.cells.cbegin(), stored.cells.cend(), [&](const Cell &c) { return c.id == id; });
    QVERIFY(cell != stored.cells.cend());
    QCOMPARE(cell->failClass, QStringLiteral("env"));
    const QString storedError = cell->error.value_or(QString());
    QVERIFY2(storedError.contains(QStringLiteral("killed by")) && storedError.contains(QStringLiteral("hangs")),
             qPrintable(storedError));
}

void TestGuiFollow::followedRoundWithoutSteeringOffersNoKill()
{
    const QString project = m_dir->filePath(QStringLiteral("unsteerable.dreamrsi"));
    QProcess round;
    auto stop = qScopeGuard([&round] { stopRound(round); });
    startHangingRound(round, project, {});
    if (QTest::currentTestFailed())
        return;
    qputenv("DREAMRSI_STALL_FLOOR_S", "2");
    auto floor = qScopeGuard([] { qunsetenv("DREAMRSI_STALL_FLOOR_S"); });

    MainWindow window;
    window.show();
    RoundPanel *panel = window.roundPanel();
    const IterationId iteration = followRound(window, project);
    QVERIFY2(iteration > 0, "the round was not followed");
    LiveTreeModel *model = panel->model();
    QTRY_VERIFY_WITH_TIMEOUT(model->cellCount() == 1 && model->runningCount() == 1, 60000);
    const RunningAttempt hanging = model->runningAttempts(std::nullopt).constFirst();
    const QString id = RoundTree::idOf(hanging.branch, hanging.attempt);

    // Listed and marked stalled, but nothing says it can be killed from here.
    QTRY_VERIFY_WITH_TIMEOUT(stalledIn(model, id), 30000);
    QTRY_VERIFY_WITH_TIMEOUT(statusOf(model, id).contains(QStringLiteral("stalled")), 5000);
    const QString status = statusOf(model, id);
    QVERIFY2(!status.contains(QStringLiteral("kill")), qPrintable(status));

    QString whyNot;
    QVERIFY(!panel->controller()->canKill(&whyNot));
    QVERIFY2(whyNot.contains(QStringLiteral("does not accept steering")), qPrintable(whyNot));
    std::unique_ptr<QMenu> menu(panel->steeringMenuFor(hanging.branch));
    QAction *kill = killActionOf(menu.get(), id);
    QVERIFY(kill);
    QVERIFY(!kill->isEnabled());
    QVERIFY2(kill->toolTip().contains(QStringLiteral("does not accept steering")), qPrintable(kill->toolTip()));
    QVERIFY(menu->toolTipsVisible());
    // Nothing was sent: the attempt still runs, in the writer's own list too.
    QVERIFY(rowOf(model, id).data(LiveTreeModel::RunningRole).toBool());
    QVERIFY(publishes(project, id));
}

QTEST_MAIN(TestGuiFollow)
#include "tst_gui_follow.moc"
