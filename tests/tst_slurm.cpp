// The Slurm evaluation backend on a real single-node Slurm cluster that the
// suite starts (packaging/slurm-test-cluster.sh) and stops: a round through
// Slurm gives the same cells and scores as the local backend, a job past its
// time limit becomes `timeout`, cancelling leaves no job, a missing partition
// is an error before any attempt. Prints the per-attempt scheduling overhead.
#include "roundtestsupport.h"

#include "loop/localevaluationbackend.h"
#include "loop/roundrunner.h"
#include "loop/slurmevaluationbackend.h"
#include "store/projectstore.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QProcess>
#include <QTemporaryDir>
#include <QThread>
#include <QtTest>

#include <algorithm>

using namespace dreamrsi;
using dreamrsi::test::FakeAgent;

namespace {

template<typename T>
T take(QFuture<StoreResult<T>> future)
{
    future.waitForFinished();
    const StoreResult<T> r = future.result();
    if (!r.ok())
        qFatal("store call failed: %s", qPrintable(r.error));
    return *r.value;
}

const char *const allLegal = R"js(
function planGrid(context) { return {branches: 3, refinements: 1, reason: "slurm grid 3x1"}; }
function selectBatch(state) { return state.legal.slice(0, state.maxParallelism); }
)js";

const QString clusterScript = QStringLiteral(DREAMRSI_SOURCE_DIR "/packaging/slurm-test-cluster.sh");
const QString clusterDir = QStringLiteral("/tmp/dreamrsi-slurm-test");

struct Run
{
    int exitCode = -1;
    QString output;
};

Run runCommand(const QString &program, const QStringList &args, int timeoutMs = 60'000)
{
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(program, args);
    Run r;
    if (!p.waitForStarted(10'000)) {
        r.output = p.errorString();
        return r;
    }
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished();
        r.output = QStringLiteral("timed out");
        return r;
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.output = QString::fromLocal8Bit(p.readAll());
    return r;
}

/// Our jobs Slurm still holds as pending, running or completing.
QString liveJobs()
{
    return runCommand(QStringLiteral("squeue"), {QStringLiteral("-h"), QStringLiteral("-n"), QStringLiteral("dreamrsi-eval"),
                                                 QStringLiteral("-t"), QStringLiteral("PD,R,CG"), QStringLiteral("-o"),
                                                 QStringLiteral("%i %T")})
        .output.trimmed();
}

} // namespace

class TestSlurm : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void splitsSbatchArguments();
    void roundMatchesTheLocalBackend();
    void missingPartitionSpendsNoAttempt();
    void cancelLeavesNoJob();
    void timeLimitBecomesTimeout();

private:
    SlurmSettings settings() const;
    struct RoundOutcome
    {
        RoundSummary summary;
        QList<Cell> cells;
        int agentCalls = 0;
    };
    RoundOutcome runRound(const std::shared_ptr<EvaluationBackend> &backend, const QString &name);

    bool m_started = false;
    QTemporaryDir m_shared{QStringLiteral("/tmp/dreamrsi-slurm-shared-XXXXXX")};
    QTemporaryDir m_projects;
};

void TestSlurm::initTestCase()
{
    QVERIFY(m_shared.isValid());
    QVERIFY(m_projects.isValid());
    QVERIFY2(QFileInfo(QStringLiteral(DREAMRSI_BIN_DIR "/dreamrsi")).isExecutable(), "build the dreamrsi target first");
    const bool wasRunning = runCommand(QStringLiteral("bash"), {clusterScript, QStringLiteral("status"), clusterDir})
                                .output.contains(QStringLiteral("slurmctld running"));
    const Run start = runCommand(QStringLiteral("bash"), {clusterScript, QStringLiteral("start"), clusterDir}, 900'000);
    if (start.exitCode == 3)
        QSKIP(qPrintable(QStringLiteral("Slurm cannot run here (not installed and cannot be installed, or not root): ")
                         + start.output.trimmed()));
    QVERIFY2(start.exitCode == 0, qPrintable(start.output));
    m_started = !wasRunning;
    qputenv("SLURM_CONF", QFile::encodeName(clusterDir + QStringLiteral("/slurm.conf")));
    // The shared directory must be usable by the sandbox user the job's evaluator switches to.
    QFile::setPermissions(m_shared.path(), QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner
                                               | QFileDevice::ReadOther | QFileDevice::ExeOther);
}

void TestSlurm::cleanupTestCase()
{
    if (m_started) {
        const Run stop = runCommand(QStringLiteral("bash"), {clusterScript, QStringLiteral("stop"), clusterDir});
        QVERIFY2(stop.exitCode == 0, qPrintable(stop.output));
    }
}

SlurmSettings TestSlurm::settings() const
{
    SlurmSettings s;
    s.partition = QStringLiteral("debug");
    s.sharedDir = m_shared.path();
    s.program = QStringLiteral(DREAMRSI_BIN_DIR "/dreamrsi");
    return s;
}

void TestSlurm::splitsSbatchArguments()
{
    QString error;
    QCOMPARE(SlurmSettings::splitArguments(QStringLiteral(" --constraint=avx2  --comment='two words' -J\"x y\" "), &error),
             (QStringList{QStringLiteral("--constraint=avx2"), QStringLiteral("--comment=two words"), QStringLiteral("-Jx y")}));
    QVERIFY(error.isEmpty());
    QVERIFY(SlurmSettings::splitArguments(QStringLiteral("--comment='open"), &error).isEmpty());
    QVERIFY(error.contains(QStringLiteral("unterminated")));
}

TestSlurm::RoundOutcome TestSlurm::runRound(const std::shared_ptr<EvaluationBackend> &backend, const QString &name)
{
    RoundOutcome outcome;
    ProjectStore store;
    take(store.create(m_projects.filePath(name + QStringLiteral(".dreamrsi")), ProjectInfo()));
    PolicyVersion v;
    v.name = QStringLiteral("all");
    v.code = QString::fromLatin1(allLegal);
    take(store.addPolicyVersion(v));
    RoundConfig c;
    c.task = test::toyTaskDir();
    c.agent.kind = QStringLiteral("fake");
    c.policy = QStringLiteral("all");
    c.workers = 2;
    c.seed = 7;
    c.evaluateBaseline = true;
    c.fallbackGrid = GridPlan{3, 1, QStringLiteral("fallback")};
    auto agent = std::make_shared<FakeAgent>();
    agent->evalFailIds = {QStringLiteral("b2a0")};
    RoundRunner runner(&store, c, agent, backend);
    bool done = false;
    connect(&runner, &RoundRunner::finished, this, [&done] { done = true; });
    runner.start();
    [&] { QTRY_VERIFY_WITH_TIMEOUT(done, 600'000); }();
    runner.wait();
    QCoreApplication::processEvents();
    outcome.summary = runner.summary();
    outcome.agentCalls = agent->calls.load();
    if (outcome.summary.iteration != 0)
        outcome.cells = take(store.iterationData(outcome.summary.iteration)).cells;
    std::sort(outcome.cells.begin(), outcome.cells.end(), [](const Cell &a, const Cell &b) { return a.id < b.id; });
    take(store.close());
    return outcome;
}

void TestSlurm::roundMatchesTheLocalBackend()
{
    const RoundOutcome local = runRound(std::make_shared<LocalEvaluationBackend>(), QStringLiteral("local"));
    QVERIFY2(local.summary.ok(), qPrintable(local.summary.error));
    auto slurm = std::make_shared<SlurmEvaluationBackend>(settings());
    QStringList log;
    std::mutex logMutex;
    slurm->setLogSink([&](const QString &line) {
        std::lock_guard lock(logMutex);
        log << line;
    });
    const RoundOutcome remote = runRound(slurm, QStringLiteral("slurm"));
    QVERIFY2(remote.summary.ok(), qPrintable(remote.summary.error + log.join(QLatin1Char('\n'))));
    QCOMPARE(remote.summary.status, local.summary.status);
    QCOMPARE(remote.cells.size(), 6);
    QCOMPARE(remote.cells.size(), local.cells.size());
    for (qsizetype i = 0; i < local.cells.size(); ++i) {
        const Cell &a = local.cells.at(i);
        const Cell &b = remote.cells.at(i);
        QCOMPARE(b.id, a.id);
        QCOMPARE(b.failClass, a.failClass);
        QCOMPARE(b.score.has_value(), a.score.has_value());
        QCOMPARE(b.score.value_or(-1), a.score.value_or(-1));
        QCOMPARE(b.error.value_or(QString()), a.error.value_or(QString()));
        QCOMPARE(b.evaluated, a.evaluated);
    }
    QCOMPARE(remote.summary.counters.bestScore.value_or(-1), local.summary.counters.bestScore.value_or(-1));

    // Every evaluated attempt ran as a Slurm job; the overhead per attempt.
    QList<double> waits;
    QList<double> lags;
    QList<double> runs;
    for (const Cell &cell : remote.cells) {
        if (!cell.evaluated)
            continue;
        const QJsonObject info = cell.payload.value(QStringLiteral("metrics")).toObject().value(QStringLiteral("slurm")).toObject();
        QVERIFY2(!info.value(QStringLiteral("job_id")).toString().isEmpty(), qPrintable(cell.id));
        QVERIFY(info.contains(QStringLiteral("queue_wait_s")));
        waits << info.value(QStringLiteral("queue_wait_s")).toDouble();
        runs << info.value(QStringLiteral("run_s")).toDouble();
        lags << info.value(QStringLiteral("result_lag_s")).toDouble();
    }
    const auto evaluatedLocally = std::count_if(local.cells.cbegin(), local.cells.cend(), [](const Cell &c) { return c.evaluated; });
    QVERIFY(evaluatedLocally >= 5);
    QCOMPARE(waits.size(), qsizetype(evaluatedLocally));
    const bool reported = std::any_of(log.cbegin(), log.cend(), [](const QString &l) { return l.contains(QStringLiteral(": RUNNING")); });
    QVERIFY2(reported, qPrintable(log.join(QLatin1Char('\n'))));
    auto stats = [](QList<double> v) {
        std::sort(v.begin(), v.end());
        double sum = 0;
        for (double x : v)
            sum += x;
        return QStringLiteral("median %1 s, mean %2 s, max %3 s")
            .arg(v.at(v.size() / 2), 0, 'f', 2)
            .arg(sum / double(v.size()), 0, 'f', 2)
            .arg(v.last(), 0, 'f', 2);
    };
    qInfo("per-attempt Slurm overhead over %d jobs (W 2): submit→start %s; end→result %s; run (evaluate) %s",
          int(waits.size()), qPrintable(stats(waits)), qPrintable(stats(lags)), qPrintable(stats(runs)));
}

void TestSlurm::missingPartitionSpendsNoAttempt()
{
    SlurmSettings s = settings();
    s.partition = QStringLiteral("no-such-partition");
    const RoundOutcome outcome = runRound(std::make_shared<SlurmEvaluationBackend>(s), QStringLiteral("nopartition"));
    QVERIFY(!outcome.summary.ok());
    QVERIFY2(outcome.summary.error.contains(QStringLiteral("partition 'no-such-partition' does not exist")),
             qPrintable(outcome.summary.error));
    QVERIFY2(outcome.summary.error.contains(QStringLiteral("debug")), qPrintable(outcome.summary.error)); // names the real ones
    QCOMPARE(outcome.agentCalls, 0);
    QCOMPARE(outcome.cells.size(), 0);
    QCOMPARE(outcome.summary.iteration, IterationId(0));
    QCOMPARE(liveJobs(), QString());

    // The CLI says the same and exits 1.
    const Run cli = runCommand(QStringLiteral(DREAMRSI_BIN_DIR "/dreamrsi"),
                               {QStringLiteral("round"), QStringLiteral("--project"), m_projects.filePath(QStringLiteral("cli.dreamrsi")),
                                QStringLiteral("--task"), test::toyTaskDir(), QStringLiteral("--agent"), QStringLiteral("command"),
                                QStringLiteral("--command"), QStringLiteral("true"), QStringLiteral("--backend"), QStringLiteral("slurm"), QStringLiteral("--partition"),
                                QStringLiteral("no-such-partition"), QStringLiteral("--shared-dir"), m_shared.path()});
    QCOMPARE(cli.exitCode, 1);
    QVERIFY2(cli.output.contains(QStringLiteral("partition 'no-such-partition' does not exist")), qPrintable(cli.output));
    QVERIFY2(!QFileInfo::exists(m_projects.filePath(QStringLiteral("cli.dreamrsi"))), "the project was created");
    const Run usage = runCommand(QStringLiteral(DREAMRSI_BIN_DIR "/dreamrsi"),
                                 {QStringLiteral("round"), QStringLiteral("--project"), m_projects.filePath(QStringLiteral("cli2.dreamrsi")),
                                  QStringLiteral("--task"), test::toyTaskDir(), QStringLiteral("--agent"), QStringLiteral("command"),
                                  QStringLiteral("--command"), QStringLiteral("true"), QStringLiteral("--partition"), QStringLiteral("debug")});
    QCOMPARE(usage.exitCode, 2);
    QVERIFY2(usage.output.contains(QStringLiteral("--partition needs --backend slurm")), qPrintable(usage.output));
}

void TestSlurm::cancelLeavesNoJob()
{
    SlurmEvaluationBackend backend(settings());
    QCOMPARE(backend.prepare(), QString());
    EvaluationRequest request;
    request.task = QStringLiteral("custom");
    request.command = QStringLiteral("sleep 300");
    request.options.insert(QStringLiteral("time_limit_s"), 400);
    request.options.insert(QStringLiteral("memory_mb"), 256);
    std::atomic_bool cancel{false};
    EvaluationResult result;
    std::unique_ptr<QThread> worker(QThread::create([&] { result = backend.evaluate(request, cancel); }));
    worker->start();
    QTRY_VERIFY_WITH_TIMEOUT(liveJobs().contains(QStringLiteral("RUNNING")), 120'000);
    cancel.store(true);
    QVERIFY(worker->wait(30'000));
    QCOMPARE(result.failClass, QStringLiteral("env"));
    QCOMPARE(result.error.value_or(QString()), QStringLiteral("cancelled"));
    QTRY_COMPARE_WITH_TIMEOUT(liveJobs(), QString(), 60'000);
}

void TestSlurm::timeLimitBecomesTimeout()
{
    SlurmSettings s = settings();
    s.timeLimitMinutes = 1; // Slurm's smallest limit; the evaluator itself would allow 400 s
    SlurmEvaluationBackend backend(s);
    QCOMPARE(backend.prepare(), QString());
    EvaluationRequest request;
    request.task = QStringLiteral("custom");
    request.command = QStringLiteral("sleep 300");
    request.options.insert(QStringLiteral("time_limit_s"), 400);
    request.options.insert(QStringLiteral("memory_mb"), 256);
    std::atomic_bool cancel{false};
    const EvaluationResult result = backend.evaluate(request, cancel);
    QCOMPARE(result.failClass, QStringLiteral("timeout"));
    QVERIFY2(result.error.value_or(QString()).contains(QStringLiteral("time limit")), qPrintable(result.error.value_or(QString())));
    const QJsonObject info = result.metrics.value(QStringLiteral("slurm")).toObject();
    QCOMPARE(info.value(QStringLiteral("state")).toString(), QStringLiteral("TIMEOUT"));
    QTRY_COMPARE_WITH_TIMEOUT(liveJobs(), QString(), 60'000);
}

QTEST_GUILESS_MAIN(TestSlurm)
#include "tst_slurm.moc"
