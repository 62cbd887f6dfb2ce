// The sandbox: hostile candidates are contained, classified within their
// limit plus one second, and leave no process behind; the environment is
// scrubbed; the score protocol of custom evaluators; the evaluation pool.
#include "evaltestsupport.h"

#include "eval/evaluationpool.h"
#include "eval/evaluator.h"
#include "eval/failureclassifier.h"
#include "eval/sandboxisolation.h"
#include "eval/sandboxrunner.h"
#include "model/cell.h"

#include <QSignalSpy>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <csignal>

#include <unistd.h>

using namespace dreamrsi;

Q_DECLARE_METATYPE(dreamrsi::SandboxMode)

namespace {

constexpr int wallLimitMs = 2000;

QString python()
{
    return QFileInfo(QStringLiteral("/usr/bin/python3")).isExecutable() ? QStringLiteral("/usr/bin/python3")
                                                                          : QStringLiteral("python3");
}


} // namespace

class TestEvalSandbox : public QObject
{
    Q_OBJECT

private:
    void addModes();
    /// Runs `request` and checks containment: finished within the wall limit
    /// plus one second, with its process group (and, as root, every process of
    /// the sandbox user) gone by then.
    SandboxResult runContained(SandboxRequest request, const QString &what);

    QTemporaryDir m_root{QDir::tempPath() + QStringLiteral("/dreamrsi-tst-sandbox-XXXXXX")};

private slots:
    void initTestCase();
    void hostile_data();
    void hostile();
    void loopbackIsUnreachable_data();
    void loopbackIsUnreachable();
    void writeOutsideIsRefused_data();
    void writeOutsideIsRefused();
    void secretsAreScrubbed_data();
    void secretsAreScrubbed();
    void scrubbedNames();
    void bubblewrapArgumentsOfARequest();
    void cancelKillsTheGroup();
    void candidateFailuresAreClassified_data();
    void candidateFailuresAreClassified();
    void customEvaluatorProtocol_data();
    void customEvaluatorProtocol();
    void poolRunsAtMostW();
    void programTimeLeavesTheSandboxOut_data();
    void programTimeLeavesTheSandboxOut();
};

void TestEvalSandbox::initTestCase()
{
    QVERIFY(m_root.isValid());
    // The work directories must be reachable by the sandbox user.
    QFile::setPermissions(m_root.path(), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner | QFile::ReadOther
                                             | QFile::ExeOther | QFile::ReadGroup | QFile::ExeGroup);
    qInfo("bubblewrap: %s", SandboxRunner::bubblewrapAvailable()
                                ? "available"
                                : qPrintable(QStringLiteral("unavailable: ") + SandboxRunner::bubblewrapProblem()));
}

void TestEvalSandbox::addModes()
{
    // Both paths are tested wherever bubblewrap works; the fallback always.
    QTest::addColumn<SandboxMode>("mode");
}

SandboxResult TestEvalSandbox::runContained(SandboxRequest request, const QString &what)
{
    static int counter = 0;
    if (request.workDir.isEmpty()) {
        request.workDir = m_root.path() + QStringLiteral("/work-%1").arg(++counter);
        QDir().mkpath(request.workDir);
    }
    SandboxRunner runner;
    QSignalSpy spy(&runner, &SandboxRunner::finished);
    runner.start(request);
    // Generous bounds: they only stop a hung run from blocking the suite; the
    // checks are on what happened, not on how long it took.
    const int bound = int(request.limits.wallMs + request.limits.termGraceMs) + 30'000;
    if (!spy.wait(bound) && spy.isEmpty()) {
        qWarning("%s did not finish", qPrintable(what));
        return {};
    }
    const SandboxResult result = spy.first().first().value<SandboxResult>();
    qInfo("%-22s %-10s %s", qPrintable(what), result.bubblewrap ? "bubblewrap" : "fallback",
          qPrintable(result.describe()));
    // Everything it started must be gone.
    const bool ownUser = ::geteuid() == 0 && result.userId > 0;
    [&] {
        QTRY_COMPARE_WITH_TIMEOUT(evaltest::liveMembers(result.processGroup), 0, bound);
        if (ownUser)
            QTRY_COMPARE_WITH_TIMEOUT(evaltest::liveProcessesOf(uid_t(result.userId)), 0, bound);
    }();
    return result;
}

void TestEvalSandbox::hostile_data()
{
    QTest::addColumn<SandboxMode>("mode");
    QTest::addColumn<QString>("script");
    QTest::addColumn<int>("outcome");
    QTest::addColumn<QString>("failClass");
    struct Case
    {
        const char *name;
        const char *script;
        SandboxResult::Outcome outcome;
        const char *failClass;
    };
    const Case cases[] = {
        {"infinite loop", "infinite_loop.py", SandboxResult::Outcome::TimedOut, FailClass::Timeout},
        {"fork bomb", "fork_bomb.py", SandboxResult::Outcome::Exited, FailClass::Resource},
        {"allocate 50 GB", "alloc_50gb.py", SandboxResult::Outcome::Exited, FailClass::Resource},
        {"print 10 GB", "print_10gb.py", SandboxResult::Outcome::OutputLimit, FailClass::Resource},
        {"sleep ignoring SIGTERM", "sleep_ignore_term.py", SandboxResult::Outcome::TimedOut, FailClass::Timeout},
        {"daemon leaving the group", "daemonize.py", SandboxResult::Outcome::Exited, FailClass::Runtime},
    };
    for (SandboxMode mode : {SandboxMode::Bubblewrap, SandboxMode::Fallback}) {
        for (const Case &c : cases) {
            QTest::addRow("%s/%s", mode == SandboxMode::Bubblewrap ? "bwrap" : "fallback", c.name)
                << mode << QString::fromLatin1(c.script) << int(c.outcome) << QString::fromLatin1(c.failClass);
        }
    }
}

void TestEvalSandbox::hostile()
{
    QFETCH(SandboxMode, mode);
    QFETCH(QString, script);
    QFETCH(int, outcome);
    QFETCH(QString, failClass);
    if (mode == SandboxMode::Bubblewrap && !SandboxRunner::bubblewrapAvailable())
        QSKIP(qPrintable(QStringLiteral("bubblewrap unusable here: ") + SandboxRunner::bubblewrapProblem()));
    if (mode == SandboxMode::Fallback && script == QLatin1String("daemonize.py") && ::geteuid() != 0)
        QSKIP("an unprivileged fallback cannot find a process that left its group (needs bubblewrap or root)");
    SandboxRequest request;
    request.program = python();
    request.arguments = {evaltest::dataPath(QStringLiteral("hostile/") + script)};
    request.mode = mode;
    request.limits.wallMs = wallLimitMs;
    request.limits.cpuSeconds = 10;
    request.limits.addressSpaceBytes = qint64(1) << 30;
    request.limits.maxProcesses = 48;
    request.limits.outputBytes = qint64(4) << 20;
    const SandboxResult result = runContained(request, QString::fromLatin1(QTest::currentDataTag()));
    if (QTest::currentTestFailed())
        return;
    QCOMPARE(int(result.outcome), outcome);
    const auto failure = FailureClassifier::classify(result, FailureClassifier::Stage::Run, QStringLiteral("candidate"));
    QVERIFY(failure.has_value());
    QCOMPARE(failure->failClass, failClass);
}

void TestEvalSandbox::loopbackIsUnreachable_data()
{
    QTest::addColumn<SandboxMode>("mode");
    QTest::newRow("bwrap") << SandboxMode::Bubblewrap;
    QTest::newRow("fallback") << SandboxMode::Fallback;
}

void TestEvalSandbox::loopbackIsUnreachable()
{
    QFETCH(SandboxMode, mode);
    if (mode == SandboxMode::Bubblewrap && !SandboxRunner::bubblewrapAvailable())
        QSKIP("bubblewrap unusable here");
    if (mode == SandboxMode::Fallback && !SandboxRunner::fallbackIsolatesNetwork())
        QSKIP("this fallback cannot create a network namespace (needs root with CAP_SYS_ADMIN)");
    QTcpServer server;
    QVERIFY(server.listen(QHostAddress::LocalHost, 0)); // loopback only
    SandboxRequest request;
    request.program = python();
    request.arguments = {evaltest::dataPath(QStringLiteral("hostile/connect_loopback.py")), QString::number(server.serverPort())};
    request.mode = mode;
    request.limits.wallMs = wallLimitMs;
    const SandboxResult result = runContained(request, QStringLiteral("connect 127.0.0.1"));
    if (QTest::currentTestFailed())
        return;
    QVERIFY(!server.waitForNewConnection(100));
    QVERIFY(!result.standardOutput.contains("connected"));
    const auto failure = FailureClassifier::classify(result, FailureClassifier::Stage::Run, QStringLiteral("candidate"));
    QVERIFY(failure.has_value());
    QCOMPARE(failure->failClass, QStringLiteral("runtime"));
}

void TestEvalSandbox::writeOutsideIsRefused_data()
{
    loopbackIsUnreachable_data();
}

void TestEvalSandbox::writeOutsideIsRefused()
{
    QFETCH(SandboxMode, mode);
    if (mode == SandboxMode::Bubblewrap && !SandboxRunner::bubblewrapAvailable())
        QSKIP("bubblewrap unusable here");
    if (mode == SandboxMode::Fallback && ::geteuid() != 0)
        QSKIP("an unprivileged fallback runs the candidate as the same user: no filesystem isolation to test");
    // A directory of ours outside /tmp (the build tree): read-only under
    // bubblewrap, not writable by the sandbox user `nobody` in the fallback.
    QString base = QDir::currentPath();
    if (base.startsWith(QDir::tempPath()))
        base = QString::fromUtf8(DREAMRSI_BIN_DIR);
    QTemporaryDir outsideDir(base + QStringLiteral("/outside-XXXXXX"));
    if (!outsideDir.isValid())
        QSKIP(qPrintable(QStringLiteral("no writable directory outside /tmp to test with (%1)").arg(base)));
    QFile::setPermissions(outsideDir.path(), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner | QFile::ReadOther
                                                 | QFile::ExeOther | QFile::ReadGroup | QFile::ExeGroup);
    const QString outside = outsideDir.path() + QStringLiteral("/escaped.txt");
    SandboxRequest request;
    request.program = python();
    request.arguments = {evaltest::dataPath(QStringLiteral("hostile/write_outside.py")), outside};
    request.mode = mode;
    request.limits.wallMs = wallLimitMs;
    const SandboxResult result = runContained(request, QStringLiteral("write outside"));
    if (QTest::currentTestFailed())
        return;
    QVERIFY2(!QFile::exists(outside), "the candidate wrote outside its work directory");
    const auto failure = FailureClassifier::classify(result, FailureClassifier::Stage::Run, QStringLiteral("candidate"));
    QVERIFY(failure.has_value());
    QCOMPARE(failure->failClass, QStringLiteral("runtime"));
    // Refused as read-only or not permitted; where the build tree itself is under
    // /tmp, the private /tmp of the sandbox does not even show the directory.
    QVERIFY2(result.standardError.contains("Read-only file system") || result.standardError.contains("Permission denied")
                 || (base.startsWith(QDir::tempPath()) && result.standardError.contains("No such file or directory")),
             result.standardError.constData());

    if (mode == SandboxMode::Bubblewrap) {
        // /tmp is private: a write there succeeds but never reaches the host.
        const QString hostTmp = m_root.path() + QStringLiteral("/private-tmp.txt");
        request.arguments = {evaltest::dataPath(QStringLiteral("hostile/write_outside.py")), hostTmp};
        const SandboxResult tmp = runContained(request, QStringLiteral("write /tmp"));
        QVERIFY(tmp.succeeded());
        QVERIFY(!QFile::exists(hostTmp));
    }
}

void TestEvalSandbox::secretsAreScrubbed_data()
{
    loopbackIsUnreachable_data();
}

void TestEvalSandbox::secretsAreScrubbed()
{
    QFETCH(SandboxMode, mode);
    if (mode == SandboxMode::Bubblewrap && !SandboxRunner::bubblewrapAvailable())
        QSKIP("bubblewrap unusable here");
    qputenv("OPENAI_API_KEY", "sk-dreamrsi-test-1234567890");
    qputenv("GITHUB_TOKEN", "ghp-dreamrsi-test");
    qputenv("https_proxy", "http://proxy.invalid:3128");
    qputenv("DREAMRSI_HARMLESS", "visible");
    SandboxRequest request;
    request.program = python();
    request.arguments = {evaltest::dataPath(QStringLiteral("hostile/read_api_key.py"))};
    request.mode = mode;
    request.limits.wallMs = wallLimitMs;
    const SandboxResult result = runContained(request, QStringLiteral("read API key"));
    qunsetenv("OPENAI_API_KEY");
    qunsetenv("GITHUB_TOKEN");
    qunsetenv("https_proxy");
    if (QTest::currentTestFailed())
        return;
    QVERIFY(result.succeeded());
    QVERIFY(result.standardOutput.contains("DREAMRSI_HARMLESS=visible"));
    QVERIFY(!result.standardOutput.contains("sk-dreamrsi-test"));
    QVERIFY(!result.standardOutput.contains("ghp-dreamrsi-test"));
    QVERIFY(!result.standardOutput.contains("proxy.invalid"));
}

// The isolation policy without running anything: what bwrap is asked to show.
void TestEvalSandbox::bubblewrapArgumentsOfARequest()
{
    QTemporaryDir outside(QDir::tempPath() + QStringLiteral("/iso-XXXXXX"));
    QVERIFY(outside.isValid());
    const QString script = outside.filePath(QStringLiteral("eval.py"));
    QFile f(script);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.close();
    const QString work = outside.filePath(QStringLiteral("work"));
    SandboxRequest request;
    request.program = QStringLiteral("/bin/sh");
    // A /tmp file named inside an argument is bound back read-only, once;
    // a missing one and the work folder's own files are not.
    request.arguments = {QStringLiteral("-c"),
                         QStringLiteral("python3 %1 %1 /tmp/none-such %2/x").arg(script, work)};
    const QStringList args = SandboxIsolation::bubblewrapArguments(request, work);
    const QStringList base = SandboxIsolation::baseArguments();
    QCOMPARE(args.mid(0, base.size()), base);
    QVERIFY(base.contains(QStringLiteral("--unshare-all")) &&
            base.contains(QStringLiteral("--die-with-parent")));
    QCOMPARE(args.count(script), 2); // --ro-bind script script
    QCOMPARE(args.at(args.indexOf(script) - 1), QStringLiteral("--ro-bind"));
    QVERIFY(!args.contains(QStringLiteral("/tmp/none-such")));
    const qsizetype bind = args.indexOf(QStringLiteral("--bind"));
    QVERIFY(bind > 0);
    QCOMPARE(args.mid(bind, 5),
             (QStringList{QStringLiteral("--bind"), work, work, QStringLiteral("--chdir"), work}));
    QCOMPARE(args.mid(bind + 5), (QStringList{QStringLiteral("--"), request.program} + request.arguments));
    QVERIFY(!args.contains(QStringLiteral("--dev-bind"))); // no GPU asked
}

void TestEvalSandbox::scrubbedNames()
{
    for (const char *name : {"OPENAI_API_KEY", "ANTHROPIC_API_KEY", "aws_secret_access_key", "GH_TOKEN", "DB_PASSWORD",
                             "http_proxy", "HTTPS_PROXY", "ALL_PROXY", "no_proxy"})
        QVERIFY2(SandboxRunner::isScrubbedName(QString::fromLatin1(name)), name);
    for (const char *name : {"PATH", "HOME", "LANG", "OMP_NUM_THREADS", "MONKEYS"})
        QVERIFY2(!SandboxRunner::isScrubbedName(QString::fromLatin1(name)) || QByteArray(name) == "MONKEYS", name);
}

void TestEvalSandbox::cancelKillsTheGroup()
{
    const QString work = m_root.path() + QStringLiteral("/cancel");
    QDir().mkpath(work);
    SandboxRequest request;
    request.program = python();
    request.arguments = {evaltest::dataPath(QStringLiteral("hostile/sleep_ignore_term.py"))};
    request.workDir = work;
    request.limits.wallMs = 60'000;
    SandboxRunner runner;
    QSignalSpy spy(&runner, &SandboxRunner::finished);
    runner.start(request);
    // The candidate is up once its process group has a live member.
    QTRY_VERIFY_WITH_TIMEOUT(runner.processGroup() > 0 && evaltest::liveMembers(runner.processGroup()) > 0, 30'000);
    QVERIFY(runner.isRunning());
    const qint64 pgid = runner.processGroup();
    runner.cancel();
    QVERIFY(spy.wait(30'000));
    QCOMPARE(int(spy.first().first().value<SandboxResult>().outcome), int(SandboxResult::Outcome::Cancelled));
    QTRY_COMPARE_WITH_TIMEOUT(evaltest::liveMembers(pgid), 0, 30'000);
}

void TestEvalSandbox::candidateFailuresAreClassified_data()
{
    QTest::addColumn<QString>("candidate");
    QTest::addColumn<QString>("failClass");
    QTest::addColumn<QString>("errorContains");
    QTest::newRow("compile error") << QStringLiteral("hostile/compile_error.cpp") << QStringLiteral("compile")
                                   << QStringLiteral("undefined_symbol");
    QTest::newRow("SIGSEGV") << QStringLiteral("hostile/segfault.cpp") << QStringLiteral("runtime")
                             << QStringLiteral("SIGSEGV");
    QTest::newRow("non-JSON output") << QStringLiteral("hostile/not_json.py") << QStringLiteral("correctness")
                                     << QStringLiteral("twenty-six lovely circles");
    QTest::newRow("infinite loop") << QStringLiteral("hostile/infinite_loop.py") << QStringLiteral("timeout")
                                   << QStringLiteral("wall-clock");
    QTest::newRow("no program") << QStringLiteral("hostile/does_not_exist.py") << QStringLiteral("agent")
                                << QStringLiteral("no candidate program");
}

void TestEvalSandbox::candidateFailuresAreClassified()
{
    QFETCH(QString, candidate);
    QFETCH(QString, failClass);
    QFETCH(QString, errorContains);
    EvaluationRequest request;
    request.task = QStringLiteral("circle_packing_26");
    request.candidatePath = evaltest::dataPath(candidate);
    request.options = {{QStringLiteral("time_limit_s"), 2}};
    const EvaluationResult result = Evaluator::evaluate(request);
    QCOMPARE(result.failClass, failClass);
    QVERIFY(!result.valid);
    QVERIFY(!result.score.has_value());
    QVERIFY2(result.error && result.error->contains(errorContains), qPrintable(result.error.value_or(QString())));
}

void TestEvalSandbox::customEvaluatorProtocol_data()
{
    QTest::addColumn<QString>("command");
    QTest::addColumn<QString>("failClass");
    QTest::addColumn<double>("score");
    QTest::addColumn<QString>("errorContains");
    QTest::newRow("score on last line")
        << QStringLiteral("echo warming up; echo '{\"score\": 2.5, \"valid\": true, \"fail_class\": \"ok\", \"error\": null, "
                          "\"n_valid\": 3, \"n_total\": 3, \"metrics\": {\"ms\": 0.4}}'")
        << QStringLiteral("ok") << 2.5 << QString();
    QTest::newRow("reported failure")
        << QStringLiteral("echo '{\"score\": null, \"valid\": false, \"fail_class\": \"correctness\", \"error\": \"off by one\"}'")
        << QStringLiteral("correctness") << -1.0 << QStringLiteral("off by one");
    QTest::newRow("malformed output") << QStringLiteral("echo 'score: 12 (trust me)'") << QStringLiteral("env") << -1.0
                                      << QStringLiteral("score: 12 (trust me)");
    QTest::newRow("wrong type") << QStringLiteral("echo '{\"score\": \"high\"}'") << QStringLiteral("env") << -1.0
                                << QStringLiteral("'score' must be a number");
    QTest::newRow("silent crash") << QStringLiteral("kill -SEGV $$") << QStringLiteral("env") << -1.0
                                  << QStringLiteral("SIGSEGV");
}

void TestEvalSandbox::customEvaluatorProtocol()
{
    QFETCH(QString, command);
    QFETCH(QString, failClass);
    QFETCH(double, score);
    QFETCH(QString, errorContains);
    EvaluationRequest request;
    request.task = QStringLiteral("custom");
    request.command = command;
    request.options = {{QStringLiteral("time_limit_s"), 5}};
    const EvaluationResult result = Evaluator::evaluate(request);
    QCOMPARE(result.failClass, failClass);
    if (score >= 0) {
        QVERIFY(result.score.has_value());
        QCOMPARE(*result.score, score);
        QCOMPARE(result.nValid.value_or(-1), 3);
        QCOMPARE(result.metrics.value(QStringLiteral("ms")).toDouble(), 0.4);
    } else {
        QVERIFY(!result.score.has_value());
        QVERIFY2(result.error && result.error->contains(errorContains), qPrintable(result.error.value_or(QString())));
    }
}

void TestEvalSandbox::poolRunsAtMostW()
{
    EvaluationPool pool(2);
    QSignalSpy started(&pool, &EvaluationPool::started);
    QSignalSpy finished(&pool, &EvaluationPool::finished);
    int running = 0;
    int peak = 0;
    connect(&pool, &EvaluationPool::started, this, [&] { peak = std::max(peak, ++running); });
    connect(&pool, &EvaluationPool::finished, this, [&] { --running; });
    EvaluationRequest request;
    request.task = QStringLiteral("custom");
    request.command = QStringLiteral("sleep 0.3; echo '{\"score\": 1}'");
    for (int i = 0; i < 5; ++i)
        pool.submit(request);
    EvaluationRequest slow = request;
    slow.command = QStringLiteral("sleep 30; echo '{\"score\": 1}'");
    const quint64 slowId = pool.submit(slow);
    QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 5, 10'000);
    QVERIFY(pool.cancel(slowId));
    QVERIFY(pool.waitForIdle(3000));
    QCOMPARE(finished.size(), 6);
    QVERIFY(peak <= 2);
    QVERIFY(peak >= 1);
    const auto last = finished.last();
    QCOMPARE(last.at(0).toULongLong(), slowId);
    QCOMPARE(last.at(1).value<EvaluationResult>().failClass, QStringLiteral("env"));
    QCOMPARE(*last.at(1).value<EvaluationResult>().error, QStringLiteral("cancelled"));
}

// SandboxRequest::timeProgram: the program's own time, measured from its
// start inside the sandbox; its stdin, stdout, stderr, exit code and death
// by a signal are as without it (the start line is taken off stderr).
void TestEvalSandbox::programTimeLeavesTheSandboxOut_data()
{
    loopbackIsUnreachable_data();
}

void TestEvalSandbox::programTimeLeavesTheSandboxOut()
{
    QFETCH(SandboxMode, mode);
    if (mode == SandboxMode::Bubblewrap && !SandboxRunner::bubblewrapAvailable())
        QSKIP("bubblewrap unusable here");
    const QString input = m_root.filePath(QStringLiteral("timed-input.txt"));
    {
        QFile f(input);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("from stdin\n");
    }
    SandboxRequest request;
    request.program = QStringLiteral("/bin/sh");
    request.arguments = {QStringLiteral("-c"), QStringLiteral("cat; echo to-stderr >&2; sleep 0.3; exit 3")};
    request.stdinFile = input;
    request.mode = mode;
    request.limits.wallMs = 20'000;
    request.timeProgram = true;
    const SandboxResult timed = runContained(request, QStringLiteral("timed program"));
    QCOMPARE(timed.outcome, SandboxResult::Outcome::Exited);
    QCOMPARE(timed.exitCode, 3);
    QCOMPARE(timed.standardOutput, QByteArray("from stdin\n"));
    QCOMPARE(timed.standardError, QByteArray("to-stderr\n"));
    QVERIFY2(timed.programSeconds, "no program time");
    QVERIFY2(*timed.programSeconds >= 0.3 && *timed.programSeconds <= timed.wallSeconds,
             qPrintable(QStringLiteral("%1 s of %2 s").arg(*timed.programSeconds).arg(timed.wallSeconds)));
    qInfo("program %.1f ms of %.1f ms (%s)", *timed.programSeconds * 1e3, timed.wallSeconds * 1e3,
          timed.bubblewrap ? "bubblewrap" : "fallback");

    // A program that dies of a signal is still seen to.
    request.arguments = {QStringLiteral("-c"), QStringLiteral("kill -SEGV $$")};
    request.stdinFile.clear();
    const SandboxResult killed = runContained(request, QStringLiteral("timed, killed"));
    QCOMPARE(killed.outcome, SandboxResult::Outcome::Signaled);
    QCOMPARE(killed.signal, SIGSEGV);
    QVERIFY(killed.standardError.isEmpty());

    // Untimed runs have none.
    request.timeProgram = false;
    request.arguments = {QStringLiteral("-c"), QStringLiteral("exit 0")};
    QVERIFY(!runContained(request, QStringLiteral("untimed")).programSeconds);
}

QTEST_GUILESS_MAIN(TestEvalSandbox)
#include "tst_evalsandbox.moc"
