// The loop's approval gate (`loop --await-approval`): after each dream the
// loop waits, the project records the wait with its proposal, and a second
// process answers with `dreamrsi approve` through the inbox (the loop holds
// the project; without --by and without $USER it names the account): the approved version drives the next round, a declined
// proposal leaves the deployed one. Stop while waiting ends the loop
// cleanly with the proposal still unanswered. Each wait is on the loop's
// stream (RecursiveLoop::events(): approvalAwaited, then approvalEnded).
// Without --await-approval or --auto-approve the loop says that no dreamed
// version will be deployed.
#include "clirunsupport.h"
#include "looptestsupport.h"
#include "storetestsupport.h"

#include "backend/localevaluationbackend.h"
#include "loop/dream/policyimprover.h"
#include "loop/recursiveloop.h"
#include "loop/round/steeringinbox.h"
#include "store/projectstore.h"

#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QThread>
#include <QtTest>

#include <pwd.h>
#include <unistd.h>

using namespace dreamrsi;
using dreamrsi::test::FakeAgent;
using dreamrsi::test::take;

namespace {

LoopSettings toySettings(int iterations)
{
    return test::toyLoopSettings(iterations);
}

/// The login name of the account this test runs as, from the system's user database.
QString accountLoginName()
{
    const passwd *entry = getpwuid(geteuid());
    return entry && entry->pw_name ? QString::fromLocal8Bit(entry->pw_name) : QString();
}

test::TextRun approve(const QStringList &args)
{
    return test::runText(QStringList{QStringLiteral("approve")} + args, 120000);
}

} // namespace

class TestLoopApproval : public QObject
{
    Q_OBJECT
private slots:
    void approvedThenDeclinedFromAnotherProcess();
    void stopWhileWaitingEndsCleanly();
    void withoutApprovalTheLoopSaysSo();
    void badApproveUsage();
};

void TestLoopApproval::approvedThenDeclinedFromAnotherProcess()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("gate.dreamrsi"));
    ProjectStore store;
    take(store.create(path, ProjectInfo()));
    RecursiveLoop loop(&store, std::make_shared<FakeAgent>(), std::make_shared<LocalEvaluationBackend>(),
                       std::make_shared<PolicyImprover>(2));
    // The waits come on the loop's stream, as a round's events do.
    QList<ApprovalWait> waits;
    int ended = 0;
    connect(loop.events(), &RoundEvents::approvalAwaited, this, [&](const ApprovalWait &w) { waits.append(w); },
            Qt::DirectConnection);
    connect(loop.events(), &RoundEvents::approvalEnded, this, [&] { ++ended; }, Qt::DirectConnection);
    LoopReport report;
    QThread *worker = QThread::create([&] { report = loop.run(toySettings(3)); });
    worker->start();

    // First wait: approve the proposal by name, from another process.
    QTRY_VERIFY_WITH_TIMEOUT(SteeringInbox::readLive(path).has_value(), 240000);
    const SteeringLive first = *SteeringInbox::readLive(path);
    QCOMPARE(first.kind, QStringLiteral("approval"));
    const QString name = first.proposal.value(QStringLiteral("name")).toString();
    QVERIFY(!name.isEmpty());
    test::TextRun r = approve({QStringLiteral("--project"), path, QStringLiteral("--version"), QStringLiteral("no-such-version"),
                        QStringLiteral("--by"), QStringLiteral("ada")});
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains(QStringLiteral("not one of this dream's versions")), qPrintable(r.err));
    // Without --by and without $USER (as in many containers and CI jobs), the
    // approval names the account the command runs as.
    QProcessEnvironment noUser = QProcessEnvironment::systemEnvironment();
    for (const QString &variable : {QStringLiteral("USER"), QStringLiteral("LOGNAME"), QStringLiteral("USERNAME")})
        noUser.remove(variable);
    const QString account = accountLoginName();
    QVERIFY2(!account.isEmpty(), "this account has no entry in the system's user database");
    const test::CliRun plain = test::runDreamrsi({QStringLiteral("approve"), QStringLiteral("--project"), path,
                                                  QStringLiteral("--version"), name, QStringLiteral("--note"),
                                                  QStringLiteral("looks right")},
                                                 noUser, 120000);
    QVERIFY2(plain.finished && plain.exitCode == 0, plain.err.constData());
    QVERIFY2(QString::fromUtf8(plain.out).contains(QStringLiteral("approved by ") + account), plain.out.constData());

    // Second wait: decline.
    QTRY_VERIFY_WITH_TIMEOUT(SteeringInbox::readLive(path).has_value()
                                 && SteeringInbox::readLive(path)->proposal.value(QStringLiteral("index")).toInt() == 2,
                             240000);
    r = approve({QStringLiteral("--project"), path, QStringLiteral("--decline"), QStringLiteral("--by"), QStringLiteral("ada")});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY2(r.out.contains(QStringLiteral("declined by ada")), qPrintable(r.out));

    QTRY_VERIFY_WITH_TIMEOUT(worker->isFinished(), 240000);
    delete worker;
    QVERIFY2(report.error.isEmpty(), qPrintable(report.error));
    QCOMPARE(report.iterations.size(), 3);
    const LoopIteration &one = report.iterations.at(0);
    QVERIFY(one.approved != 0);
    QCOMPARE(report.iterations.at(1).policyVersion, one.approved);  // the approved version drove round 2
    QCOMPARE(report.iterations.at(1).approved, PolicyVersionId(0));                  // declined
    QCOMPARE(report.iterations.at(2).policyVersion, one.approved);  // the deployed one stays
    const QList<Approval> approvals = take(store.approvals());
    QCOMPARE(approvals.size(), 1);
    QCOMPARE(approvals.at(0).who, account);
    QCOMPARE(approvals.at(0).note, QStringLiteral("looks right"));
    QCOMPARE(approvals.at(0).version, one.approved);
    QStringList actions;
    for (const SteeringEvent &e : take(store.steeringEvents()))
        actions.append(e.action);
    QCOMPARE(actions, (QStringList{QStringLiteral("awaiting_approval"), QStringLiteral("approved"),
                                   QStringLiteral("awaiting_approval"), QStringLiteral("declined")}));
    QCOMPARE(waits.size(), 2); // two waits, each announced and ended
    QCOMPARE(ended, 2);
    QCOMPARE(waits.at(0).name(), name);
    QCOMPARE(waits.at(0).pid, QCoreApplication::applicationPid());
    QCOMPARE(waits.at(1).proposal.value(QStringLiteral("index")).toInt(), 2);
    QVERIFY(waits.at(0).key() != waits.at(1).key());
    QVERIFY(!SteeringInbox::readLive(path).has_value());
    // Nothing waits now: --decline is refused.
    take(store.close());
    r = approve({QStringLiteral("--project"), path, QStringLiteral("--decline")});
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains(QStringLiteral("nothing awaits approval")), qPrintable(r.err));
}

void TestLoopApproval::stopWhileWaitingEndsCleanly()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("stop.dreamrsi"));
    ProjectStore store;
    take(store.create(path, ProjectInfo()));
    RecursiveLoop loop(&store, std::make_shared<FakeAgent>(), std::make_shared<LocalEvaluationBackend>(),
                       std::make_shared<PolicyImprover>(2));
    int ended = 0;
    connect(loop.events(), &RoundEvents::approvalEnded, this, [&] { ++ended; }, Qt::DirectConnection);
    LoopReport report;
    QThread *worker = QThread::create([&] { report = loop.run(toySettings(2)); });
    worker->start();
    QTRY_VERIFY_WITH_TIMEOUT(SteeringInbox::readLive(path).has_value(), 240000);
    loop.stop();
    QTRY_VERIFY_WITH_TIMEOUT(worker->isFinished(), 60000);
    delete worker;
    QVERIFY2(report.error.isEmpty(), qPrintable(report.error));
    QVERIFY(report.stopped);
    QCOMPARE(ended, 1); // the wait's end is on the loop's stream too
    QCOMPARE(report.iterations.size(), 1);
    const QList<SteeringEvent> events = take(store.steeringEvents());
    QCOMPARE(events.size(), 1); // the proposal is still listed, unanswered
    QCOMPARE(events.at(0).action, QStringLiteral("awaiting_approval"));
    QVERIFY(!events.at(0).payload.value(QStringLiteral("name")).toString().isEmpty());
    QVERIFY(!SteeringInbox::readLive(path).has_value());
}

void TestLoopApproval::withoutApprovalTheLoopSaysSo()
{
    QTemporaryDir dir;
    ProjectStore store;
    take(store.create(dir.filePath(QStringLiteral("plain.dreamrsi")), ProjectInfo()));
    RecursiveLoop loop(&store, std::make_shared<FakeAgent>(), std::make_shared<LocalEvaluationBackend>(),
                       std::make_shared<PolicyImprover>(2));
    QStringList lines;
    connect(&loop, &RecursiveLoop::message, this, [&](const QString &line) { lines.append(line); }, Qt::DirectConnection);
    LoopSettings s = toySettings(1);
    s.awaitApproval = false;
    const LoopReport report = loop.run(s);
    QVERIFY2(report.error.isEmpty(), qPrintable(report.error));
    QVERIFY(!lines.isEmpty());
    QVERIFY2(lines.first().startsWith(QStringLiteral("no dreamed version will be deployed")), qPrintable(lines.first()));
}

void TestLoopApproval::badApproveUsage()
{
    QTemporaryDir dir;
    const QString p = dir.filePath(QStringLiteral("x.dreamrsi"));
    for (const QStringList &args : {QStringList{QStringLiteral("--project"), p, QStringLiteral("--best"), QStringLiteral("--decline")},
                                    QStringList{QStringLiteral("--project"), p}}) {
        const test::TextRun r = approve(args);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QStringLiteral("--decline")), qPrintable(r.err));
    }
    // --await-approval excludes --auto-approve and --fixed.
    for (const QString &other : {QStringLiteral("--auto-approve"), QStringLiteral("--fixed")}) {
        QProcess loop;
        loop.start(QStringLiteral(DREAMRSI_BIN_DIR "/dreamrsi"),
                   {QStringLiteral("loop"), QStringLiteral("--project"), p, QStringLiteral("--task"), test::toyTaskDir(),
                    QStringLiteral("--agent"), QStringLiteral("builtin"), QStringLiteral("--await-approval"), other});
        QVERIFY(loop.waitForFinished(60000));
        QCOMPARE(loop.exitCode(), 2);
        QVERIFY(QString::fromUtf8(loop.readAllStandardError()).contains(QStringLiteral("--await-approval cannot go with")));
    }
    QVERIFY(!QFileInfo::exists(p));
}

QTEST_GUILESS_MAIN(TestLoopApproval)
#include "tst_loop_approval.moc"
