// The Slurm evaluation backend on a real single-node Slurm cluster that the
// suite starts (packaging/slurm-test-cluster.sh) and stops: a round through
// Slurm gives the same cells and scores as the local backend (and records
// each attempt's job, queue wait and run time), a restart of slurmctld and
// slurmd in the middle of a round loses nothing, a job the controller lost
// (restarted without its job state) is submitted once more, a job past its time limit
// becomes `timeout`, a candidate past its memory becomes `resource` whether
// the sandbox's own limit inside the job stops it or Slurm kills the job,
// cancelling leaves no job, a missing partition is an error before any
// attempt; `dreamrsi loop --backend slurm` evaluates its rounds there too.
// How a job's end maps to a fail class is also checked without a cluster.
// Prints the per-attempt scheduling overhead (never asserted).
#include "storetestsupport.h"
#include "roundtestsupport.h"

#include "backend/localevaluationbackend.h"
#include "loop/round/roundrunner.h"
#include "backend/slurmevaluationbackend.h"
#include "store/projectstore.h"

#include <QDir>
#include <QFile>
#include <QHash>
#include <QJsonDocument>
#include <QProcess>
#include <QScopeGuard>
#include <QSet>
#include <QTemporaryDir>
#include <QThread>
#include <QtTest>

#include <algorithm>
#include <csignal>
#include <functional>
#include <mutex>

#include <sys/types.h>
#include <unistd.h>

using namespace dreamrsi;
using dreamrsi::test::take;
using dreamrsi::test::FakeAgent;

namespace {

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

/// A daemon of the test cluster by the process id it recorded; 0 when none.
pid_t daemonPid(const QString &name)
{
    QFile file(clusterDir + QLatin1Char('/') + name + QStringLiteral(".pid"));
    if (!file.open(QIODevice::ReadOnly))
        return 0;
    return pid_t(file.readAll().trimmed().toLongLong());
}

bool alive(pid_t pid)
{
    if (pid <= 0 || ::kill(pid, 0) != 0)
        return false;
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    return !stat.open(QIODevice::ReadOnly) || !stat.readAll().contains(") Z ");
}

/// A log sink shared by the backend's threads and the test.
struct Log
{
    std::mutex mutex;
    QStringList lines;

    SlurmEvaluationBackend::LogSink sink()
    {
        return [this](const QString &line) {
            std::lock_guard lock(mutex);
            lines << line;
        };
    }
    bool contains(const QString &text)
    {
        std::lock_guard lock(mutex);
        return std::any_of(lines.cbegin(), lines.cend(), [&](const QString &l) { return l.contains(text); });
    }
    QString text()
    {
        std::lock_guard lock(mutex);
        return lines.join(QLatin1Char('\n'));
    }
};

} // namespace

#define NEED_CLUSTER()                                                                                                 \
    do {                                                                                                               \
        if (!m_unavailable.isEmpty())                                                                                  \
            QSKIP(qPrintable(m_unavailable));                                                                          \
    } while (false)

class TestSlurm : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void splitsSbatchArguments();
    void jobEndsMapToFailClasses();
    void roundMatchesTheLocalBackend();
    void daemonRestartLosesNothing();
    void jobLostByTheControllerRunsAgain();
    void missingPartitionSpendsNoAttempt();
    void cancelLeavesNoJob();
    void startBetweenPollsIsReported();
    void timeLimitBecomesTimeout();
    void memoryLimitInsideTheJobIsResource();
    void slurmMemoryKillIsResource();
    void jobSpecFromTheRequest();
    void refusedJobSpendsNoAgentCall();
    void refusalDuringTheRoundStopsIt();
    void loopEvaluatesOnSlurm();

public:
    struct RoundOutcome
    {
        RoundSummary summary;
        QList<Cell> cells;
        int agentCalls = 0;
        /// attemptProgress reports per cell, in arrival order.
        QHash<QString, QList<EvaluationProgress>> progress;
    };

private:
    SlurmSettings settings() const;
    /// Runs the toy round (3 × 1 grid, W 2, b2a0 fails its evaluation) on
    /// `backend`; `during` runs on this thread while the round runs.
    RoundOutcome runRound(const std::shared_ptr<EvaluationBackend> &backend, const QString &name, const QString &task = {},
                          const std::function<void(RoundOutcome &)> &during = {});
    /// The same round on the local backend (run once).
    const RoundOutcome &localReference();
    /// Compares a round's cells with the local backend's.
    void compareWithLocal(const RoundOutcome &remote);
    /// A copy of the toy task whose task.json asks `options`.
    QString toyTaskWith(const QString &name, const QByteArray &options);
    /// An evaluation request whose candidate is `program` run by python3.
    EvaluationRequest pythonCandidate(const QString &name, const QByteArray &program, int memoryMb);

    QString m_unavailable; ///< why Slurm cannot run here; empty when it can
    std::optional<RoundOutcome> m_local;
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
    if (start.exitCode == 3) {
        // The cluster-free checks still run; the others skip with this reason.
        m_unavailable = QStringLiteral("Slurm cannot run here (not installed and cannot be installed, or not root): ")
                        + start.output.trimmed();
        return;
    }
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
    const Result<QStringList> words =
        SlurmSettings::splitArguments(QStringLiteral(" --constraint=avx2  --comment='two words' -J\"x y\" "));
    QVERIFY2(words.ok(), qPrintable(words.error));
    QCOMPARE(*words.value, (QStringList{QStringLiteral("--constraint=avx2"),
                                        QStringLiteral("--comment=two words"), QStringLiteral("-Jx y")}));
    const Result<QStringList> open = SlurmSettings::splitArguments(QStringLiteral("--comment='open"));
    QVERIFY(!open.ok());
    QVERIFY(open.error.contains(QStringLiteral("unterminated")));
}

TestSlurm::RoundOutcome TestSlurm::runRound(const std::shared_ptr<EvaluationBackend> &backend, const QString &name,
                                            const QString &task, const std::function<void(RoundOutcome &)> &during)
{
    RoundOutcome outcome;
    ProjectStore store;
    take(store.create(m_projects.filePath(name + QStringLiteral(".dreamrsi")), ProjectInfo()));
    PolicyVersion v;
    v.name = QStringLiteral("all");
    v.code = QString::fromLatin1(allLegal);
    take(store.addPolicyVersion(v));
    RoundConfig c;
    c.task = task.isEmpty() ? test::toyTaskDir() : task;
    c.agent.kind = QStringLiteral("fake");
    c.policy = PolicyChoice::stored(QStringLiteral("all"));
    c.workers = 2;
    c.seed = 7;
    c.evaluateBaseline = true;
    c.fallbackGrid = GridPlan{3, 1, QStringLiteral("fallback")};
    auto agent = std::make_shared<FakeAgent>();
    agent->evalFailIds = {QStringLiteral("b2a0")};
    RoundRunner runner(&store, c, agent, backend);
    bool done = false;
    connect(&runner, &RoundRunner::finished, this, [&done] { done = true; });
    connect(&runner, &RoundRunner::attemptProgress, this,
            [&outcome](const QString &id, const EvaluationProgress &p) { outcome.progress[id].append(p); });
    runner.start();
    if (during)
        during(outcome);
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

const TestSlurm::RoundOutcome &TestSlurm::localReference()
{
    if (!m_local)
        m_local = runRound(std::make_shared<LocalEvaluationBackend>(), QStringLiteral("local"));
    return *m_local;
}

void TestSlurm::compareWithLocal(const RoundOutcome &remote)
{
    const RoundOutcome &local = localReference();
    QVERIFY2(local.summary.ok(), qPrintable(local.summary.error));
    QCOMPARE(remote.summary.status, local.summary.status);
    QCOMPARE(remote.cells.size(), 6);
    QCOMPARE(remote.cells.size(), local.cells.size());
    QSet<QString> ids;
    for (qsizetype i = 0; i < local.cells.size(); ++i) {
        const Cell &a = local.cells.at(i);
        const Cell &b = remote.cells.at(i);
        ids.insert(b.id);
        QCOMPARE(b.id, a.id);
        QCOMPARE(b.failClass, a.failClass);
        QCOMPARE(b.score.has_value(), a.score.has_value());
        QCOMPARE(b.score.value_or(-1), a.score.value_or(-1));
        QCOMPARE(b.error.value_or(QString()), a.error.value_or(QString()));
        QCOMPARE(b.evaluated, a.evaluated);
    }
    QCOMPARE(ids.size(), 6); // every cell stored exactly once
    QCOMPARE(remote.summary.counters.bestScore.value_or(-1), local.summary.counters.bestScore.value_or(-1));
}

void TestSlurm::roundMatchesTheLocalBackend()
{
    NEED_CLUSTER();
    auto slurm = std::make_shared<SlurmEvaluationBackend>(settings());
    Log log;
    slurm->setLogSink(log.sink());
    const RoundOutcome remote = runRound(slurm, QStringLiteral("slurm"));
    QVERIFY2(remote.summary.ok(), qPrintable(remote.summary.error + log.text()));
    compareWithLocal(remote);
    if (QTest::currentTestFailed())
        return;

    // Every evaluated attempt ran as a Slurm job: its states reached the
    // runner's listeners, the stored cell keeps the job and its queue wait
    // apart from its run time; the overhead per attempt is printed.
    QList<double> waits;
    QList<double> lags;
    QList<double> runs;
    for (const Cell &cell : remote.cells) {
        if (!cell.evaluated)
            continue;
        const QJsonObject info = cell.payload.value(QStringLiteral("metrics")).toObject().value(QStringLiteral("slurm")).toObject();
        const QString job = info.value(QStringLiteral("job_id")).toString();
        QVERIFY2(!job.isEmpty(), qPrintable(cell.id));
        QVERIFY(info.contains(QStringLiteral("queue_wait_s")));
        const QJsonObject timing = cell.payload.value(QStringLiteral("timing")).toObject();
        QVERIFY2(timing.contains(QStringLiteral("queue_wait_s")) && timing.contains(QStringLiteral("run_s")), qPrintable(cell.id));
        QVERIFY(timing.value(QStringLiteral("queue_wait_s")).toDouble() >= 0.0);
        QVERIFY(timing.value(QStringLiteral("run_s")).toDouble() > 0.0);
        const QJsonObject scheduler = cell.payload.value(QStringLiteral("scheduler")).toObject();
        QCOMPARE(scheduler.value(QStringLiteral("backend")).toString(), QStringLiteral("slurm"));
        QCOMPARE(scheduler.value(QStringLiteral("job_id")).toString(), job);
        QCOMPARE(scheduler.value(QStringLiteral("state")).toString(), QStringLiteral("COMPLETED"));
        const QList<EvaluationProgress> reports = remote.progress.value(cell.id);
        QVERIFY2(reports.size() >= 3, qPrintable(cell.id)); // submitted, at least one state, the end
        QCOMPARE(reports.first().state, QStringLiteral("SUBMITTED"));
        QVERIFY(std::all_of(reports.cbegin(), reports.cend(), [&](const EvaluationProgress &p) { return p.jobId == job; }));
        QVERIFY2(std::any_of(reports.cbegin(), reports.cend(),
                             [](const EvaluationProgress &p) { return p.state == QLatin1String("RUNNING") || p.state == QLatin1String("PENDING"); }),
                 qPrintable(cell.id));
        QVERIFY(reports.last().finished);
        QCOMPARE(reports.last().queueWaitS.value_or(-1), timing.value(QStringLiteral("queue_wait_s")).toDouble());
        waits << info.value(QStringLiteral("queue_wait_s")).toDouble();
        runs << info.value(QStringLiteral("run_s")).toDouble();
        lags << info.value(QStringLiteral("result_lag_s")).toDouble();
    }
    const RoundOutcome &local = localReference();
    const auto evaluatedLocally = std::count_if(local.cells.cbegin(), local.cells.cend(), [](const Cell &c) { return c.evaluated; });
    QVERIFY(evaluatedLocally >= 5);
    QCOMPARE(waits.size(), qsizetype(evaluatedLocally));
    QVERIFY2(log.contains(QStringLiteral(": RUNNING")), qPrintable(log.text()));
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

/// Waits until an attempt's job is queued or running (the runner reported
/// it), stops slurmctld and slurmd by their process ids, and waits until the
/// backend has noticed that the controller does not answer.
void takeTheDaemonsDown(TestSlurm::RoundOutcome &o, Log &log)
{
    auto jobInFlight = [&o] {
        for (const QList<EvaluationProgress> &reports : std::as_const(o.progress)) {
            const EvaluationProgress &p = reports.last();
            if (!p.finished && (p.state == QLatin1String("RUNNING") || p.state == QLatin1String("PENDING")))
                return true;
        }
        return false;
    };
    QTRY_VERIFY_WITH_TIMEOUT(jobInFlight(), 300'000);
    for (const QString &name : {QStringLiteral("slurmctld"), QStringLiteral("slurmd")}) {
        const pid_t pid = daemonPid(name);
        QVERIFY2(alive(pid), qPrintable(name));
        QCOMPARE(::kill(pid, SIGTERM), 0);
        QTRY_VERIFY_WITH_TIMEOUT(!alive(pid), 60'000);
    }
    QTRY_VERIFY_WITH_TIMEOUT(log.contains(QStringLiteral("does not answer")) || log.contains(QStringLiteral("cannot reach the controller")),
                             120'000);
}

void TestSlurm::daemonRestartLosesNothing()
{
    NEED_CLUSTER();
    // The toy task with a scorer that takes a few seconds, so that jobs are
    // in the queue or running when the daemons go.
    QTemporaryDir taskDir;
    QVERIFY(taskDir.isValid());
    for (const QString &file : QDir(test::toyTaskDir()).entryList(QDir::Files))
        QVERIFY(QFile::copy(test::toyTaskDir() + QLatin1Char('/') + file, taskDir.filePath(file)));
    {
        QFile spec(taskDir.filePath(QStringLiteral("task.json")));
        QVERIFY(spec.remove());
        QVERIFY(spec.open(QIODevice::WriteOnly));
        spec.write(R"({"evaluator": {"command": "sleep 3; python3 \"$DREAMRSI_TASK_DIR/score.py\""},
                       "options": {"time_limit_s": 60, "memory_mb": 1024}})");
    }
    QFile::setPermissions(taskDir.path(), QFile::permissions(taskDir.path()) | QFileDevice::ReadOther | QFileDevice::ExeOther);

    SlurmSettings s = settings();
    s.pollMaxMs = 2000;
    auto slurm = std::make_shared<SlurmEvaluationBackend>(s);
    Log log;
    slurm->setLogSink(log.sink());
    QString restartOutput;
    int restartExit = -1;
    const RoundOutcome remote = runRound(slurm, QStringLiteral("restart"), taskDir.path(), [&](RoundOutcome &o) {
        takeTheDaemonsDown(o, log);
        // They come back with the state they saved (also after a failed check above, so the round can end).
        const Run start = runCommand(QStringLiteral("bash"), {clusterScript, QStringLiteral("start"), clusterDir}, 120'000);
        restartExit = start.exitCode;
        restartOutput = start.output;
    });
    QVERIFY2(restartExit == 0, qPrintable(restartOutput));
    QVERIFY2(remote.summary.ok(), qPrintable(remote.summary.error + log.text()));
    QCOMPARE(remote.summary.status, IterationStatus::Finished);
    compareWithLocal(remote);
    // The outage was seen and outlasted: polls that failed were followed by an answer.
    QVERIFY2(log.contains(QStringLiteral("does not answer")) || log.contains(QStringLiteral("cannot reach the controller")),
             qPrintable(log.text()));
    if (log.contains(QStringLiteral("does not answer")))
        QVERIFY2(log.contains(QStringLiteral("the controller answers again")), qPrintable(log.text()));
    QVERIFY(!log.contains(QStringLiteral("vanished")));
    for (const Cell &cell : remote.cells) {
        if (cell.evaluated)
            QVERIFY2(!cell.payload.value(QStringLiteral("scheduler")).toObject().value(QStringLiteral("job_id")).toString().isEmpty(),
                     qPrintable(cell.id));
    }
    QTRY_COMPARE_WITH_TIMEOUT(liveJobs(), QString(), 60'000);
    qInfo("restart: %s", qPrintable(log.text().split(QLatin1Char('\n')).filter(QStringLiteral("controller")).join(QStringLiteral("; "))));
}

void TestSlurm::jobLostByTheControllerRunsAgain()
{
    NEED_CLUSTER();
    // The controller comes back without its job state (as after losing its
    // state folder): the running job is unknown to it, so it is lost, `env`,
    // and submitted once more; the second job's result is the answer.
    SlurmSettings s = settings();
    s.pollMaxMs = 1000;
    SlurmEvaluationBackend backend(s);
    QCOMPARE(backend.prepare(), QString());
    Log log;
    backend.setLogSink(log.sink());
    EvaluationRequest request;
    request.task = QStringLiteral("custom");
    request.command = QStringLiteral(R"(sleep 5; echo '{"score": 1.5, "valid": true, "fail_class": "ok", "error": null}')");
    request.options.insert(QStringLiteral("time_limit_s"), 120);
    request.options.insert(QStringLiteral("memory_mb"), 256);
    std::atomic_bool cancel{false};
    EvaluationResult result;
    std::mutex reportsMutex;
    QList<EvaluationProgress> reports;
    auto runningJobs = [&] {
        std::lock_guard lock(reportsMutex);
        QSet<QString> ids;
        for (const EvaluationProgress &p : std::as_const(reports)) {
            if (p.state == QLatin1String("RUNNING"))
                ids.insert(p.jobId);
        }
        return ids;
    };
    std::unique_ptr<QThread> worker(QThread::create([&] {
        result = backend.evaluate(request, cancel, [&](const EvaluationProgress &p) {
            std::lock_guard lock(reportsMutex);
            reports << p;
        });
    }));
    worker->start();
    auto restore = qScopeGuard([&] {
        // Whatever failed above, the cluster runs again for the next test and the worker ends.
        runCommand(QStringLiteral("bash"), {clusterScript, QStringLiteral("start"), clusterDir}, 120'000);
        cancel.store(!worker->wait(240'000));
        worker->wait();
    });
    QTRY_COMPARE_WITH_TIMEOUT(runningJobs().size(), 1, 120'000);
    const pid_t pid = daemonPid(QStringLiteral("slurmctld"));
    QVERIFY(alive(pid));
    QCOMPARE(::kill(pid, SIGTERM), 0);
    QTRY_VERIFY_WITH_TIMEOUT(!alive(pid), 60'000);
    for (const QString &file : {QStringLiteral("job_state"), QStringLiteral("job_state.old")})
        QFile::remove(clusterDir + QStringLiteral("/state/") + file);
    const Run start = runCommand(QStringLiteral("bash"), {clusterScript, QStringLiteral("start"), clusterDir}, 120'000);
    QVERIFY2(start.exitCode == 0, qPrintable(start.output));
    QVERIFY(worker->wait(240'000));
    QVERIFY2(result.failClass == QLatin1String("ok"), qPrintable(result.error.value_or(QString()) + QLatin1Char('\n') + log.text()));
    QCOMPARE(result.score.value_or(-1), 1.5);
    const QJsonObject info = result.metrics.value(QStringLiteral("slurm")).toObject();
    QCOMPARE(info.value(QStringLiteral("submits")).toInt(), 2);
    QVERIFY2(log.contains(QStringLiteral("vanished")) && log.contains(QStringLiteral("submitting it once more")), qPrintable(log.text()));
    QCOMPARE(runningJobs().size(), 2); // two jobs ran: the lost one and its resubmission
    QTRY_COMPARE_WITH_TIMEOUT(liveJobs(), QString(), 60'000);
}

void TestSlurm::missingPartitionSpendsNoAttempt()
{
    NEED_CLUSTER();
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
    NEED_CLUSTER();
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

void TestSlurm::startBetweenPollsIsReported()
{
    NEED_CLUSTER();
    // squeue is asked once at the submission and then only after 10 s, long
    // after this job has run: its start marker still makes it "RUNNING" in
    // the reports and the log, with the time the job script began.
    SlurmSettings s = settings();
    s.pollInitialMs = 10'000;
    s.pollMaxMs = 10'000;
    SlurmEvaluationBackend backend(s);
    QCOMPARE(backend.prepare(), QString());
    Log log;
    backend.setLogSink(log.sink());
    const EvaluationRequest request = pythonCandidate(QStringLiteral("quick"), QByteArrayLiteral("print(1)\n"), 256);
    std::mutex mutex;
    QList<EvaluationProgress> reports;
    std::atomic_bool cancel{false};
    const EvaluationResult result = backend.evaluate(request, cancel, [&](const EvaluationProgress &p) {
        std::lock_guard lock(mutex);
        reports << p;
    });
    const QJsonObject info = result.metrics.value(QStringLiteral("slurm")).toObject();
    QCOMPARE(info.value(QStringLiteral("state")).toString(), QStringLiteral("COMPLETED"));
    QVERIFY2(reports.size() >= 3, qPrintable(log.text()));
    QCOMPARE(reports.first().state, QStringLiteral("SUBMITTED"));
    QVERIFY(reports.last().finished);
    QCOMPARE(reports.last().state, QStringLiteral("COMPLETED"));
    const auto running = std::find_if(reports.cbegin(), reports.cend(), [](const EvaluationProgress &p) { return p.state == QLatin1String("RUNNING"); });
    QVERIFY2(running != reports.cend(), qPrintable(log.text()));
    QVERIFY2(log.contains(QStringLiteral(": RUNNING")), qPrintable(log.text()));
    // Once running, never back to waiting; the start is the job script's.
    QVERIFY(std::none_of(running, reports.cend(), [](const EvaluationProgress &p) { return p.state == QLatin1String("PENDING"); }));
    QVERIFY(running->startedMs > 0);
    // The job script's start marker gives the time (written whole, by a
    // rename, so never read half-written); only if squeue shows the job
    // running before the script has begun is the time the earlier sighting.
    QVERIFY2(running->startedMs <= reports.last().startedMs,
             qPrintable(QStringLiteral("%1 > %2").arg(running->startedMs).arg(reports.last().startedMs)));
    QVERIFY(running->startedMs >= reports.first().submittedMs);
    QVERIFY2(log.text().indexOf(QStringLiteral(": RUNNING")) < log.text().indexOf(QStringLiteral(": COMPLETED")), qPrintable(log.text()));
}

void TestSlurm::timeLimitBecomesTimeout()
{
    NEED_CLUSTER();
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

void TestSlurm::jobEndsMapToFailClasses()
{
    // No cluster needed: how the state a job ended in becomes a fail class.
    auto end = [](const QString &state, bool haveResult, const QString &output = {}) {
        SlurmEvaluationBackend::JobEnd e;
        e.jobId = QStringLiteral("42");
        e.state = state;
        e.memory = QStringLiteral("1280M");
        e.minutes = 3;
        e.haveResult = haveResult;
        e.output = output;
        return SlurmEvaluationBackend::verdict(e);
    };
    auto classOf = [](const std::optional<EvaluationResult> &r) { return r ? r->failClass : QStringLiteral("(evaluator)"); };
    auto retried = [](const std::optional<EvaluationResult> &r) { return r && r->metrics.value(QStringLiteral("retry")).toBool(); };

    const std::optional<EvaluationResult> oom = end(QStringLiteral("OUT_OF_MEMORY"), false);
    QCOMPARE(classOf(oom), QStringLiteral("resource"));
    QVERIFY(oom->error->contains(QStringLiteral("1280M")));
    QVERIFY(!retried(oom));
    QCOMPARE(classOf(end(QStringLiteral("OUT_OF_MEMORY"), true)), QStringLiteral("resource"));
    // Killed for memory without cgroups: Slurm says FAILED (or CANCELLED), slurmstepd says why.
    const QString stepd = QStringLiteral("slurmstepd-vm: error: StepId=42.batch exceeded memory limit (434610176 > 67108864), being killed\n"
                                         "slurmstepd-vm: error: Exceeded job memory limit");
    const std::optional<EvaluationResult> killed = end(QStringLiteral("FAILED"), false, stepd);
    QCOMPARE(classOf(killed), QStringLiteral("resource"));
    QVERIFY(!retried(killed));
    QCOMPARE(classOf(end(QStringLiteral("CANCELLED"), false, stepd)), QStringLiteral("resource"));
    QCOMPARE(classOf(end(QStringLiteral("FAILED"), false,
                         QStringLiteral("slurmstepd: error: Detected 1 oom-kill event(s) in StepId=42.batch."))),
             QStringLiteral("resource"));
    QCOMPARE(classOf(end(QStringLiteral("TIMEOUT"), false)), QStringLiteral("timeout"));
    QCOMPARE(classOf(end(QStringLiteral("DEADLINE"), true)), QStringLiteral("timeout"));
    // The evaluator's own JSON decides a job that got to its end.
    QVERIFY(!end(QStringLiteral("COMPLETED"), true));
    QVERIFY(!end(QStringLiteral("FAILED"), true));
    // Lost, not judged: env, worth one more submission.
    for (const QString &state : {QStringLiteral("NODE_FAIL"), QStringLiteral("PREEMPTED"), QStringLiteral("BOOT_FAIL"),
                                 QStringLiteral("CANCELLED"), QStringLiteral("COMPLETED")}) {
        const std::optional<EvaluationResult> r = end(state, false);
        QCOMPARE(classOf(r), QStringLiteral("env"));
        QVERIFY2(retried(r), qPrintable(state));
        QVERIFY2(r->error->contains(state), qPrintable(*r->error));
    }
    SlurmEvaluationBackend::JobEnd gone;
    gone.jobId = QStringLiteral("43");
    gone.gone = true;
    QVERIFY(retried(SlurmEvaluationBackend::verdict(gone)));
    gone.haveResult = true; // purged after it finished: its result stands
    QVERIFY(!SlurmEvaluationBackend::verdict(gone));
}

EvaluationRequest TestSlurm::pythonCandidate(const QString &name, const QByteArray &program, int memoryMb)
{
    const QString dir = m_projects.filePath(name);
    QDir().mkpath(dir);
    QFile file(dir + QStringLiteral("/main.py"));
    if (!file.open(QIODevice::WriteOnly) || file.write(program) != program.size())
        qFatal("cannot write %s", qPrintable(file.fileName()));
    EvaluationRequest request;
    request.task = QStringLiteral("custom");
    request.command = QStringLiteral("python3");
    request.candidatePath = file.fileName();
    request.options.insert(QStringLiteral("time_limit_s"), 120);
    request.options.insert(QStringLiteral("memory_mb"), memoryMb);
    return request;
}

void TestSlurm::memoryLimitInsideTheJobIsResource()
{
    NEED_CLUSTER();
    // 2 GiB against a 256 MB limit: the sandbox's address-space limit inside
    // the job stops the candidate before Slurm's memory check can; the
    // evaluator reports it, as it does locally.
    const EvaluationRequest request =
        pythonCandidate(QStringLiteral("bigalloc"), QByteArrayLiteral("x = bytearray(2 * 1024 * 1024 * 1024)\nprint(len(x))\n"), 256);
    std::atomic_bool cancel{false};
    const EvaluationResult local = LocalEvaluationBackend().evaluate(request, cancel);
    QCOMPARE(local.failClass, QStringLiteral("resource"));
    SlurmEvaluationBackend backend(settings());
    QCOMPARE(backend.prepare(), QString());
    const EvaluationResult remote = backend.evaluate(request, cancel);
    QVERIFY2(remote.failClass == QLatin1String("resource"), qPrintable(remote.failClass + QStringLiteral(": ") + remote.error.value_or(QString())));
    QVERIFY2(remote.error.value_or(QString()).contains(QStringLiteral("memory")), qPrintable(remote.error.value_or(QString())));
    const QJsonObject info = remote.metrics.value(QStringLiteral("slurm")).toObject();
    QCOMPARE(info.value(QStringLiteral("state")).toString(), QStringLiteral("COMPLETED")); // the job itself was fine
    QCOMPARE(info.value(QStringLiteral("submits")).toInt(), 1);
}

void TestSlurm::slurmMemoryKillIsResource()
{
    NEED_CLUSTER();
    // The job asks Slurm for 100 MB (an extra --mem after the task's) while
    // the sandbox allows 2 GB: the candidate keeps 400 MB resident, Slurm's
    // memory enforcement (OverMemoryKill, no cgroups here) kills the job,
    // and that is `resource`, not a lost job submitted again.
    SlurmSettings s = settings();
    s.extraArgs = {QStringLiteral("--mem=100M")};
    SlurmEvaluationBackend backend(s);
    QCOMPARE(backend.prepare(), QString());
    Log log;
    backend.setLogSink(log.sink());
    const EvaluationRequest request = pythonCandidate(QStringLiteral("resident"), QByteArrayLiteral(R"(import time
x = bytearray(400 * 1024 * 1024)
for i in range(0, len(x), 4096):
    x[i] = 1
time.sleep(100)
print("not killed")
)"), 2048);
    std::atomic_bool cancel{false};
    const EvaluationResult result = backend.evaluate(request, cancel);
    QVERIFY2(result.failClass == QLatin1String("resource"),
             qPrintable(result.failClass + QStringLiteral(": ") + result.error.value_or(QString()) + QLatin1Char('\n') + log.text()));
    QVERIFY2(result.error.value_or(QString()).contains(QStringLiteral("memory")), qPrintable(result.error.value_or(QString())));
    const QJsonObject info = result.metrics.value(QStringLiteral("slurm")).toObject();
    QCOMPARE(info.value(QStringLiteral("submits")).toInt(), 1);
    QCOMPARE(info.value(QStringLiteral("memory")).toString(), QStringLiteral("100M"));
    QVERIFY2(QStringList({QStringLiteral("FAILED"), QStringLiteral("CANCELLED"), QStringLiteral("OUT_OF_MEMORY")})
                 .contains(info.value(QStringLiteral("state")).toString()),
             qPrintable(info.value(QStringLiteral("state")).toString()));
    QVERIFY(!log.contains(QStringLiteral("submitting it once more")));
    QTRY_COMPARE_WITH_TIMEOUT(liveJobs(), QString(), 60'000);
    qInfo("Slurm's memory kill: job state %s; %s", qPrintable(info.value(QStringLiteral("state")).toString()),
          qPrintable(result.error.value_or(QString())));
}


QString TestSlurm::toyTaskWith(const QString &name, const QByteArray &options)
{
    const QString dir = m_projects.filePath(name);
    QDir().mkpath(dir);
    for (const QString &file : QDir(test::toyTaskDir()).entryList(QDir::Files)) {
        if (file != QLatin1String("task.json"))
            QFile::copy(test::toyTaskDir() + QLatin1Char('/') + file, dir + QLatin1Char('/') + file);
    }
    QFile spec(dir + QStringLiteral("/task.json"));
    if (!spec.open(QIODevice::WriteOnly))
        qFatal("cannot write %s", qPrintable(spec.fileName()));
    spec.write(R"({"evaluator": {"command": "python3 \"$DREAMRSI_TASK_DIR/score.py\""}, "options": )" + options + "}");
    QFile::setPermissions(dir, QFile::permissions(dir) | QFileDevice::ReadOther | QFileDevice::ExeOther);
    return dir;
}

void TestSlurm::jobSpecFromTheRequest()
{
    // No cluster needed: the job a request becomes.
    SlurmSettings s;
    s.partition = QStringLiteral("gpu");
    s.account = QStringLiteral("lab");
    s.qos = QStringLiteral("short");
    s.extraArgs = {QStringLiteral("--constraint=avx2")};
    EvaluationRequest request;
    request.task = QStringLiteral("circle_packing_26");
    request.candidatePath = QStringLiteral("/work/attempts/1/b0a0/main.py");
    request.options.insert(QStringLiteral("time_limit_s"), 100);
    request.options.insert(QStringLiteral("seed"), 3);
    const QJsonObject defaults{{QStringLiteral("memory_mb"), 2000}, {QStringLiteral("time_limit_s"), 900}, {QStringLiteral("cpus"), 4}};
    const auto spec = SlurmEvaluationBackend::jobSpec(request, s, QStringLiteral("/shared/job-1"), QStringLiteral("/opt/bin/dreamrsi"), defaults);
    QCOMPARE(spec.minutes, 5);     // (100 × 1.5 + 120) s, rounded up to minutes: the request's limit wins over the task's
    QCOMPARE(spec.memoryMb, 2256); // the task's 2000 MB and 256 MB for the evaluator itself
    QCOMPARE(spec.cpus, 4);
    QCOMPARE(spec.gpus, 0);
    QCOMPARE(spec.sbatchArgs,
             (QStringList{QStringLiteral("--job-name=dreamrsi-eval"), QStringLiteral("--chdir=/shared/job-1"),
                          QStringLiteral("--output=/shared/job-1/slurm.out"), QStringLiteral("--export=NONE"),
                          QStringLiteral("--nodes=1"), QStringLiteral("--ntasks=1"), QStringLiteral("--time=5"),
                          QStringLiteral("--mem=2256M"), QStringLiteral("--cpus-per-task=4"), QStringLiteral("--partition=gpu"),
                          QStringLiteral("--account=lab"), QStringLiteral("--qos=short"), QStringLiteral("--constraint=avx2"),
                          QStringLiteral("/shared/job-1/job.sh")}));
    QVERIFY2(spec.script.contains(QStringLiteral("cd '/shared/job-1' || exit 3")), qPrintable(spec.script));
    QVERIFY2(spec.script.contains(QStringLiteral("'/opt/bin/dreamrsi' 'evaluate' '--task' 'circle_packing_26' '--option' 'seed=3' "
                                                 "'--option' 'time_limit_s=100' '--sandbox' 'auto' '--json' "
                                                 "'/shared/job-1/candidate/main.py' > result.part")),
             qPrintable(spec.script));
    QCOMPARE(spec.requestText(), QStringLiteral("2256 MB of memory, 5 min, 4 CPUs, partition gpu, account lab, qos short"));

    // A CUDA task asks a GPU; defaults without a task folder: 8 GiB, 600 s; a settings time limit overrides.
    EvaluationRequest cuda;
    cuda.task = QStringLiteral("cuda_kernels");
    cuda.candidatePath = QStringLiteral("/w/kernel.cu");
    SlurmSettings plain;
    plain.timeLimitMinutes = 42;
    const auto gpu = SlurmEvaluationBackend::jobSpec(cuda, plain, QStringLiteral("/s/j 2"), QStringLiteral("/bin/dreamrsi"));
    QCOMPARE(gpu.memoryMb, 8448);
    QCOMPARE(gpu.minutes, 42);
    QCOMPARE(gpu.gpus, 1);
    QVERIFY(gpu.sbatchArgs.contains(QStringLiteral("--gres=gpu:1")));
    QVERIFY(!gpu.sbatchArgs.join(u' ').contains(QStringLiteral("--partition")));
    QVERIFY2(gpu.script.contains(QStringLiteral("cd '/s/j 2' || exit 3")), qPrintable(gpu.script));
    QCOMPARE(gpu.requestText(), QStringLiteral("8448 MB of memory, 42 min, 1 CPU, 1 GPU"));

    // A task folder's options are its defaults; a quote in a path stays one word.
    QTemporaryDir task;
    QVERIFY(task.isValid());
    QFile json(task.filePath(QStringLiteral("task.json")));
    QVERIFY(json.open(QIODevice::WriteOnly));
    json.write(R"({"options": {"memory_mb": 512, "time_limit_s": 60, "gpus": 2}})");
    json.close();
    QCOMPARE(SlurmEvaluationBackend::taskOptionDefaults(task.path()).value(QStringLiteral("memory_mb")).toInt(), 512);
    QVERIFY(SlurmEvaluationBackend::taskOptionDefaults(QStringLiteral("circle_packing_26")).isEmpty());
    EvaluationRequest folder;
    folder.task = task.path();
    folder.candidatePath = QStringLiteral("/w/it's.py");
    const auto fromFolder = SlurmEvaluationBackend::jobSpec(folder, plain, QStringLiteral("/s/j"), QStringLiteral("/bin/dreamrsi"),
                                                            SlurmEvaluationBackend::taskOptionDefaults(task.path()));
    QCOMPARE(fromFolder.memoryMb, 768);
    QVERIFY(fromFolder.sbatchArgs.contains(QStringLiteral("--gres=gpu:2")));
    QVERIFY2(fromFolder.script.contains(QStringLiteral("'/s/j/candidate/it'\\''s.py'")), qPrintable(fromFolder.script));
}

void TestSlurm::refusedJobSpendsNoAgentCall()
{
    NEED_CLUSTER();
    // The node has RealMemory below this machine's; a task asking 50 TB
    // cannot run on it (Slurm: "Memory specification can not be satisfied").
    // sbatch --test-only with the real job finds it before the baseline or
    // any agent call.
    const QString task = toyTaskWith(QStringLiteral("hugememory"), R"({"time_limit_s": 60, "memory_mb": 50000000})");
    auto slurm = std::make_shared<SlurmEvaluationBackend>(settings());
    Log log;
    slurm->setLogSink(log.sink());
    const RoundOutcome outcome = runRound(slurm, QStringLiteral("hugememory"), task);
    QVERIFY(!outcome.summary.ok());
    QCOMPARE(outcome.summary.status, IterationStatus::Stopped);
    QVERIFY2(outcome.summary.error.contains(QStringLiteral("Slurm would refuse the evaluation jobs (50000256 MB of memory")),
             qPrintable(outcome.summary.error));
    // Slurm's own answer is generic ("Requested node configuration is not
    // available"); the nodes' sizes name the request that no node meets.
    QVERIFY2(outcome.summary.error.contains(QStringLiteral("no node of partition debug has 50000256 MB of memory (the largest has ")),
             qPrintable(outcome.summary.error));
    QCOMPARE(outcome.agentCalls, 0);
    QCOMPARE(outcome.cells.size(), 0);
    QCOMPARE(outcome.summary.iteration, IterationId(0));
    QCOMPARE(liveJobs(), QString());

    // The same check passes for a job the node can run.
    SlurmEvaluationBackend backend(settings());
    Log accepted;
    backend.setLogSink(accepted.sink());
    EvaluationRequest fits;
    fits.task = test::toyTaskDir();
    fits.candidatePath = test::toyTaskDir() + QStringLiteral("/initial.py");
    QCOMPARE(backend.checkJob(fits), QString());
    QVERIFY2(accepted.contains(QStringLiteral("would be accepted")), qPrintable(accepted.text()));
    QCOMPARE(liveJobs(), QString()); // --test-only submits nothing

    // The CLI refuses it the same way, exit 1.
    const Run cli = runCommand(QStringLiteral(DREAMRSI_BIN_DIR "/dreamrsi"),
                               {QStringLiteral("round"), QStringLiteral("--project"), m_projects.filePath(QStringLiteral("huge-cli.dreamrsi")),
                                QStringLiteral("--task"), task, QStringLiteral("--agent"), QStringLiteral("command"),
                                QStringLiteral("--command"), QStringLiteral("echo called >> ") + m_projects.filePath(QStringLiteral("calls")),
                                QStringLiteral("--backend"), QStringLiteral("slurm"), QStringLiteral("--partition"),
                                QStringLiteral("debug"), QStringLiteral("--shared-dir"), m_shared.path()});
    QCOMPARE(cli.exitCode, 1);
    QVERIFY2(cli.output.contains(QStringLiteral("no node of partition debug has 50000256 MB of memory")), qPrintable(cli.output));
    QVERIFY(!QFileInfo::exists(m_projects.filePath(QStringLiteral("calls")))); // the agent command never ran
}

void TestSlurm::refusalDuringTheRoundStopsIt()
{
    NEED_CLUSTER();
    // A partition of this test's own that stops accepting jobs (drained)
    // after the baseline ran and while the first batch's agents work: both
    // jobs are refused, and the round stops there instead of calling the
    // agent for the four cells left.
    char host[256] = {};
    QCOMPARE(::gethostname(host, sizeof host - 1), 0);
    const QString node = QString::fromLocal8Bit(host).section(QLatin1Char('.'), 0, 0);
    const QString partition = QStringLiteral("dreamrsi-refuse");
    runCommand(QStringLiteral("scontrol"), {QStringLiteral("delete"), QStringLiteral("PartitionName=") + partition});
    const Run created = runCommand(QStringLiteral("scontrol"), {QStringLiteral("create"), QStringLiteral("PartitionName=") + partition,
                                                                QStringLiteral("Nodes=") + node, QStringLiteral("State=UP"),
                                                                QStringLiteral("MaxTime=INFINITE")});
    QVERIFY2(created.exitCode == 0, qPrintable(created.output));
    const auto removePartition = qScopeGuard([&] {
        runCommand(QStringLiteral("scontrol"), {QStringLiteral("delete"), QStringLiteral("PartitionName=") + partition});
    });

    ProjectStore store;
    take(store.create(m_projects.filePath(QStringLiteral("drained.dreamrsi")), ProjectInfo()));
    PolicyVersion v;
    v.name = QStringLiteral("all");
    v.code = QString::fromLatin1(allLegal);
    take(store.addPolicyVersion(v));
    RoundConfig c;
    c.task = test::toyTaskDir();
    c.agent.kind = QStringLiteral("fake");
    c.policy = PolicyChoice::stored(QStringLiteral("all"));
    c.workers = 2;
    c.seed = 7;
    c.evaluateBaseline = true;
    c.fallbackGrid = GridPlan{3, 1, QStringLiteral("fallback")};
    auto agent = std::make_shared<FakeAgent>();
    agent->closeGate();
    SlurmSettings s = settings();
    s.partition = partition;
    auto slurm = std::make_shared<SlurmEvaluationBackend>(s);
    Log log;
    slurm->setLogSink(log.sink());
    RoundRunner runner(&store, c, agent, slurm);
    bool done = false;
    connect(&runner, &RoundRunner::finished, this, [&done] { done = true; });
    runner.start();
    // The baseline job ran; the first batch's two agent calls wait at the gate.
    QTRY_VERIFY_WITH_TIMEOUT(agent->waiting.load() == 2, 300'000);
    const Run drained = runCommand(QStringLiteral("scontrol"), {QStringLiteral("update"), QStringLiteral("PartitionName=") + partition,
                                                                QStringLiteral("State=DRAIN")});
    QVERIFY2(drained.exitCode == 0, qPrintable(drained.output));
    agent->openGate();
    QTRY_VERIFY_WITH_TIMEOUT(done, 300'000);
    runner.wait();
    QCoreApplication::processEvents();
    const RoundSummary summary = runner.summary();
    QVERIFY(!summary.ok());
    QCOMPARE(summary.status, IterationStatus::Stopped);
    QVERIFY2(summary.error.contains(QStringLiteral("sbatch refused the evaluation job")), qPrintable(summary.error));
    QVERIFY2(summary.error.contains(QStringLiteral("partition dreamrsi-refuse")), qPrintable(summary.error));
    QVERIFY2(summary.error.contains(QStringLiteral("before more agent calls")), qPrintable(summary.error));
    QCOMPARE(agent->calls.load(), 2);
    const QList<Cell> cells = take(store.iterationData(summary.iteration)).cells;
    take(store.close());
    QCOMPARE(cells.size(), 2); // the first batch is kept, as env failures
    for (const Cell &cell : cells) {
        QCOMPARE(cell.failClass, QStringLiteral("env"));
        QVERIFY2(cell.error.value_or(QString()).contains(QStringLiteral("sbatch refused")), qPrintable(cell.error.value_or(QString())));
    }
    QCOMPARE(liveJobs(), QString());
}

void TestSlurm::loopEvaluatesOnSlurm()
{
    NEED_CLUSTER();
    // `dreamrsi loop` takes the Slurm options of `round` (one parser for
    // both): the loop's round is evaluated by Slurm jobs, each cell keeping
    // its job.
    const QString project = m_projects.filePath(QStringLiteral("loop.dreamrsi"));
    const Run loop = runCommand(QStringLiteral(DREAMRSI_BIN_DIR "/dreamrsi"),
                                {QStringLiteral("loop"), QStringLiteral("--project"), project, QStringLiteral("--task"),
                                 QStringLiteral("circle_packing_26"), QStringLiteral("--agent"), QStringLiteral("builtin"),
                                 QStringLiteral("--fixed"), QStringLiteral("--iterations"), QStringLiteral("1"),
                                 QStringLiteral("--workers"), QStringLiteral("2"), QStringLiteral("--rounds"), QStringLiteral("1"),
                                 QStringLiteral("--backend"), QStringLiteral("slurm"), QStringLiteral("--partition"),
                                 QStringLiteral("debug"), QStringLiteral("--shared-dir"), m_shared.path()},
                                600'000);
    QVERIFY2(loop.exitCode == 0, qPrintable(loop.output));
    ProjectStore store;
    take(store.open(project));
    const QList<IterationInfo> iterations = take(store.iterations());
    QCOMPARE(iterations.size(), 1);
    QCOMPARE(iterations.at(0).status, IterationStatus::Finished);
    const IterationData data = take(store.iterationData(iterations.at(0).id));
    QCOMPARE(data.cells.size(), 2); // one round of W 2
    for (const Cell &c : data.cells) {
        const QJsonObject scheduler = c.payload.value(QStringLiteral("scheduler")).toObject();
        QCOMPARE(scheduler.value(QStringLiteral("backend")).toString(), QStringLiteral("slurm"));
        QVERIFY2(!scheduler.value(QStringLiteral("job_id")).toString().isEmpty(), qPrintable(c.id));
    }
    take(store.close());
    QCOMPARE(liveJobs(), QString());
}

QTEST_GUILESS_MAIN(TestSlurm)
#include "tst_slurm.moc"
