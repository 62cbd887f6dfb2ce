// Following a round that another process runs (offscreen): round_helper runs
// a live round of the toy task in a child process and holds its agent calls
// at a gate file; the workbench opens the project, finds it written by that
// process, opens it read-only and follows the round: Launch, Stop and Resume
// disabled, a label naming the process, rows inserted (never a reset) as
// the child stores cells, and the finished iteration a replay world once the
// child has let the project go. A child killed mid-round leaves its
// iteration interrupted, and the follower says so. A followed round's
// progress counts what its stored limits allow, and nothing that writes
// (Dream…) is offered while the project is read-only.
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

#include "store/projectstore.h"

#include <QAction>
#include <QFile>
#include <QLabel>
#include <QMenu>
#include <QPlainTextEdit>
#include <QProcess>
#include <QProgressBar>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QtTest>

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

private:
    /// A new empty project; returns its path.
    QString newProject(const QString &name);
    /// Starts round_helper on `project`, its agent held until `gate` exists; returns the iteration it began.
    qint64 startChild(QProcess &child, const QString &project, const QString &gate);

    std::unique_ptr<QTemporaryDir> m_dir;
};

namespace {

QString helperPath()
{
    return QCoreApplication::applicationDirPath() + QStringLiteral("/round_helper");
}

} // namespace

void TestGuiFollow::initTestCase()
{
    QCoreApplication::setOrganizationName(QStringLiteral("DreamRSI-test-gui-follow"));
    m_dir = std::make_unique<QTemporaryDir>();
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, m_dir->path());
    QVERIFY(QFileInfo::exists(helperPath()));
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
    QSignalSpy resets(model, &QAbstractItemModel::modelReset);
    QSignalSpy inserted(model, &QAbstractItemModel::rowsInserted);
    QSignalSpy ended(panel, &RoundPanel::roundFinished);
    {
        QFile open(gate);
        QVERIFY(open.open(QIODevice::WriteOnly));
    }
    // Cells the child stores show up while it still runs (or has just ended).
    QTRY_VERIFY_WITH_TIMEOUT(model->cellCount() >= 1, 60000);
    QVERIFY(inserted.count() >= 1);
    QVERIFY(test::waitForExit(child, 120000));
    QCOMPARE(child.exitCode(), 0);
    QTRY_COMPARE_WITH_TIMEOUT(ended.count(), 1, 30000);
    QCOMPARE(ended.first().at(0).toLongLong(), iteration);
    QCOMPARE(ended.first().at(1).toString(), QStringLiteral("finished"));
    QCOMPARE(resets.count(), 0); // rows were inserted, never reset
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
    DreamingDialog dialog(*window.workspace(), window.session()->store(), AppSettings());
    QVERIFY(!dialog.start());
    QVERIFY(dialog.findChild<QPlainTextEdit *>(QStringLiteral("dreamLog"))->toPlainText().contains(QStringLiteral("read-only")));

    // The writer lets go: the project is writable again, and so is dreaming.
    take(writer.finishIteration(iteration, IterationStatus::Finished));
    take(writer.close());
    QTRY_VERIFY_WITH_TIMEOUT(!window.session()->isReadOnly() && window.session()->isOpen(), 30000);
    QTRY_VERIFY_WITH_TIMEOUT(dream->isEnabled(), 10000);
}

QTEST_MAIN(TestGuiFollow)
#include "tst_gui_follow.moc"
