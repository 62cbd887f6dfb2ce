// `dreamrsi round --preflight` (docs/online.md#before-a-round-preflight-and-cost):
// every check named when it fails (exit 1) and no iteration created; the
// agent's endpoint asked with a request that costs no tokens; the calls
// estimate the mean calls `dreamrsi replay --project` prints for the same
// policy, β and W.
#include "agentstandin.h"
#include "clirunsupport.h"

#include "store/projectstore.h"
#include "store/storeawait.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace dreamrsi;
using namespace dreamrsi::test;

namespace {

QString toyTask()
{
    return QStringLiteral(DREAMRSI_SOURCE_DIR "/tests/data/loop/toy_task");
}

/// The checks of a `--json` preflight by name: whether each passed.
QHash<QString, bool> checksOf(const QJsonObject &report)
{
    QHash<QString, bool> checks;
    for (const QJsonValue &v : report.value(QStringLiteral("checks")).toArray())
        checks.insert(v.toObject().value(QStringLiteral("name")).toString(), v.toObject().value(QStringLiteral("ok")).toBool());
    return checks;
}

} // namespace

class TestRoundPreflight : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    QString m_project;

    /// The project's iterations, read without writing.
    int iterationCount()
    {
        ProjectStore store;
        if (!await(store.openReadOnly(m_project)).ok())
            return -1;
        const StoreResult<QList<IterationInfo>> list = await(store.iterations());
        await(store.close());
        return list.ok() ? int(list.value->size()) : -1;
    }

    /// A preflight of the toy task with `extra`, run with `env`.
    CliRun preflight(const QStringList &extra, const QProcessEnvironment &env = QProcessEnvironment::systemEnvironment())
    {
        return runDreamrsi(QStringList{QStringLiteral("round"), QStringLiteral("--project"), m_project, QStringLiteral("--task"),
                                       toyTask(), QStringLiteral("--preflight"), QStringLiteral("--json")}
                               + extra,
                           env, 120000);
    }

    /// A failed preflight: exit 1, `check` failed (in the JSON and on
    /// stderr), the others as `alsoOk` says, and no iteration created.
    void expectFailed(const CliRun &run, const QString &check)
    {
        QVERIFY2(run.finished, run.err.constData());
        QCOMPARE(run.exitCode, 1);
        const QJsonObject report = QJsonDocument::fromJson(run.out).object();
        QCOMPARE(report.value(QStringLiteral("ok")).toBool(true), false);
        const QHash<QString, bool> checks = checksOf(report);
        QVERIFY2(checks.contains(check) && !checks.value(check), run.out.constData());
        QVERIFY2(QString::fromUtf8(run.err).contains(QStringLiteral("preflight: %1 failed").arg(check)), run.err.constData());
        QCOMPARE(iterationCount(), 5);
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        // The sandbox may run as another user: it must reach the task copies here.
        QFile::setPermissions(m_dir.path(), QFile::permissions(m_dir.path()) | QFileDevice::ExeGroup | QFileDevice::ExeOther);
        m_project = m_dir.filePath(QStringLiteral("p.dreamrsi"));
        const TextRun made = runText({QStringLiteral("project"), QStringLiteral("new"), m_project});
        QVERIFY2(made.exitCode == 0, qPrintable(made.err));
        const QString worlds = m_dir.filePath(QStringLiteral("worlds"));
        const TextRun synth = runText({QStringLiteral("synth"), QStringLiteral("--out"), worlds, QStringLiteral("--worlds"),
                                       QStringLiteral("5"), QStringLiteral("--seed"), QStringLiteral("3")});
        QVERIFY2(synth.exitCode == 0, qPrintable(synth.err));
        QStringList import = {QStringLiteral("import"), m_project};
        for (const QString &f : QDir(worlds).entryList({QStringLiteral("*.json")}, QDir::Files))
            import.append(QDir(worlds).filePath(f));
        const TextRun imported = runText(import);
        QVERIFY2(imported.exitCode == 0, qPrintable(imported.err));
        QCOMPARE(iterationCount(), 5);
    }

    void passesWithACommandAgent()
    {
        const CliRun run = preflight({QStringLiteral("--agent"), QStringLiteral("command"), QStringLiteral("--command"), QStringLiteral("true")});
        QVERIFY2(run.finished && run.exitCode == 0, run.err.constData());
        const QJsonObject report = QJsonDocument::fromJson(run.out).object();
        QVERIFY(report.value(QStringLiteral("ok")).toBool());
        const QHash<QString, bool> checks = checksOf(report);
        for (const char *name : {"project", "agent", "backend", "evaluator", "policy"})
            QVERIFY2(checks.value(QString::fromLatin1(name)), name);
        QCOMPARE(iterationCount(), 5);
        // The basis names the worlds and the completions, not the episodes (issue 53: "24 replay worlds" of 3).
        const QString basis = report.value(QStringLiteral("estimate")).toObject().value(QStringLiteral("basis")).toObject()
                                  .value(QStringLiteral("calls")).toString();
        QVERIFY2(basis.contains(QStringLiteral("over 5 replay worlds × 8 imagined completions")), qPrintable(basis));
    }

    // The time per call takes the task's stored evaluations when there are
    // some (issue 53: the initial program's 0.2 s where real evaluations
    // took 1.6–3 s), the initial program's only without them.
    void secondsFromTheTasksStoredEvaluations()
    {
        const CliRun none = preflight({QStringLiteral("--agent"), QStringLiteral("command"), QStringLiteral("--command"), QStringLiteral("true")});
        QVERIFY2(none.finished && none.exitCode == 0, none.err.constData());
        const QString without = QJsonDocument::fromJson(none.out).object().value(QStringLiteral("estimate")).toObject()
                                    .value(QStringLiteral("basis")).toObject().value(QStringLiteral("seconds")).toString();
        QVERIFY2(without.contains(QStringLiteral("the initial program's; the task has no stored evaluation")), qPrintable(without));

        // A project holding a tree of the toy task whose evaluations took 2 s and 3 s.
        const QString project = m_dir.filePath(QStringLiteral("timed.dreamrsi"));
        const TextRun made = runText({QStringLiteral("project"), QStringLiteral("new"), project});
        QVERIFY2(made.exitCode == 0, qPrintable(made.err));
        QJsonArray cells;
        for (int i = 0; i < 2; ++i) {
            cells.append(QJsonObject{{QStringLiteral("id"), QStringLiteral("b%1a0").arg(i)}, {QStringLiteral("branch"), i},
                                     {QStringLiteral("attempt"), 0}, {QStringLiteral("seq"), i}, {QStringLiteral("score"), 0.5 + i},
                                     {QStringLiteral("fail_class"), QStringLiteral("ok")},
                                     {QStringLiteral("timing"), QJsonObject{{QStringLiteral("eval_s"), 2.0 + i}, {QStringLiteral("wall_s"), 2.0 + i}}}});
        }
        const QString tree = m_dir.filePath(QStringLiteral("timed.json"));
        QFile f(tree);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QJsonDocument(QJsonObject{{QStringLiteral("format"), QStringLiteral("dreamrsi-tree/1")},
                                          {QStringLiteral("task"), QFileInfo(toyTask()).absoluteFilePath()},
                                          {QStringLiteral("cells"), cells}})
                    .toJson());
        f.close();
        const TextRun imported = runText({QStringLiteral("import"), project, tree});
        QVERIFY2(imported.exitCode == 0, qPrintable(imported.err));
        const CliRun run = runDreamrsi({QStringLiteral("round"), QStringLiteral("--project"), project, QStringLiteral("--task"), toyTask(),
                                        QStringLiteral("--agent"), QStringLiteral("command"), QStringLiteral("--command"), QStringLiteral("true"),
                                        QStringLiteral("--max-calls"), QStringLiteral("4"), QStringLiteral("--workers"), QStringLiteral("1"),
                                        QStringLiteral("--preflight"), QStringLiteral("--json")},
                                       QProcessEnvironment::systemEnvironment(), 120000);
        QVERIFY2(run.finished && run.exitCode == 0, run.err.constData());
        const QJsonObject estimate = QJsonDocument::fromJson(run.out).object().value(QStringLiteral("estimate")).toObject();
        const QString basis = estimate.value(QStringLiteral("basis")).toObject().value(QStringLiteral("seconds")).toString();
        QVERIFY2(basis.contains(QStringLiteral("evaluation 2.50 s, the mean of the task's 2 stored evaluations")), qPrintable(basis));
        // Calls × 2.5 s at W 1 (the command agent records no agent seconds here).
        const QJsonObject seconds = estimate.value(QStringLiteral("seconds")).toObject();
        const double calls = estimate.value(QStringLiteral("calls")).toObject().value(QStringLiteral("mean")).toDouble();
        QVERIFY(calls > 0);
        QVERIFY2(std::abs(seconds.value(QStringLiteral("mean")).toDouble() - std::ceil(calls) * 2.5) <= 2.5 * 1.0 + 1e-9,
                 QJsonDocument(seconds).toJson().constData());
    }

    void missingKeyFailsTheAgentCheck()
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove(QStringLiteral("ANTHROPIC_API_KEY"));
        const CliRun run = preflight({QStringLiteral("--agent"), QStringLiteral("anthropic")}, env);
        expectFailed(run, QStringLiteral("agent"));
        QVERIFY2(QString::fromUtf8(run.err).contains(QStringLiteral("ANTHROPIC_API_KEY")), run.err.constData());
    }

    void unreachableEndpointFailsTheAgentCheck()
    {
        // A port that was free a moment ago: nothing listens there.
        QTcpServer probe;
        QVERIFY(probe.listen(QHostAddress::LocalHost, 0));
        const quint16 port = probe.serverPort();
        probe.close();
        const CliRun run = preflight({QStringLiteral("--agent"), QStringLiteral("openai"), QStringLiteral("--base-url"),
                                      QStringLiteral("http://127.0.0.1:%1/v1").arg(port)});
        expectFailed(run, QStringLiteral("agent"));
        QVERIFY2(QString::fromUtf8(run.err).contains(QStringLiteral("unreachable")), run.err.constData());
    }

    void reachableEndpointIsAskedForItsModelsOnly()
    {
        ProviderStandIn server;
        QVERIFY(server.listen());
        server.setScript({StandInReply::json(200, QJsonObject{{QStringLiteral("data"),
                                                               QJsonArray{QJsonObject{{QStringLiteral("id"), QStringLiteral("claude-x")}}}}})});
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("ANTHROPIC_API_KEY"), QStringLiteral("sk-test-preflight"));
        const CliRun run = preflight({QStringLiteral("--agent"), QStringLiteral("anthropic"), QStringLiteral("--base-url"),
                                      server.baseUrl()},
                                     env);
        QVERIFY2(run.finished && run.exitCode == 0, run.err.constData());
        QCOMPARE(server.requests().size(), 1);
        QCOMPARE(server.requests().first().method, QByteArray("GET"));
        QCOMPARE(server.requests().first().path, QByteArray("/v1/models")); // no paid request
        QCOMPARE(server.requests().first().headers.value("x-api-key"), QByteArray("sk-test-preflight"));
        QVERIFY(!run.out.contains("sk-test-preflight"));
    }

    void failingInitialProgramFailsTheEvaluatorCheck()
    {
        const QString task = m_dir.filePath(QStringLiteral("broken_task"));
        QVERIFY(QDir().mkpath(task));
        for (const QString &name : QDir(toyTask()).entryList(QDir::Files))
            QVERIFY(QFile::copy(QDir(toyTask()).filePath(name), task + QLatin1Char('/') + name));
        QFile initial(task + QStringLiteral("/initial.py"));
        QVERIFY(initial.setPermissions(initial.permissions() | QFileDevice::WriteOwner));
        QVERIFY(initial.open(QIODevice::WriteOnly | QIODevice::Truncate));
        initial.write("raise RuntimeError('the initial program is broken')\n");
        initial.close();
        const CliRun run = runDreamrsi({QStringLiteral("round"), QStringLiteral("--project"), m_project, QStringLiteral("--task"),
                                        task, QStringLiteral("--agent"), QStringLiteral("command"), QStringLiteral("--command"), QStringLiteral("true"), QStringLiteral("--preflight"),
                                        QStringLiteral("--json")},
                                       QProcessEnvironment::systemEnvironment(), 120000);
        expectFailed(run, QStringLiteral("evaluator"));
    }

    void callsEstimateIsTheReplaysMeanCalls()
    {
        const QString beta = QStringLiteral("0.4");
        const QString workers = QStringLiteral("3");
        const TextRun replay = runText({QStringLiteral("replay"), QStringLiteral("--project"), m_project, QStringLiteral("--policy"),
                                        QStringLiteral("builtin:portfolio"), QStringLiteral("--workers"), workers,
                                        QStringLiteral("--betas"), beta, QStringLiteral("--no-store")});
        QVERIFY2(replay.exitCode == 0, qPrintable(replay.err));
        static const QRegularExpression line(QStringLiteral("beta 0\\.4\\s+calls\\s+(\\d+)"));
        double sum = 0;
        int n = 0;
        for (auto it = line.globalMatch(replay.out); it.hasNext();) {
            sum += it.next().captured(1).toDouble();
            n += 1;
        }
        QVERIFY(n >= 5);
        const CliRun run = preflight({QStringLiteral("--agent"), QStringLiteral("command"), QStringLiteral("--command"), QStringLiteral("true"), QStringLiteral("--policy"),
                                      QStringLiteral("builtin:portfolio"), QStringLiteral("--beta"), beta,
                                      QStringLiteral("--workers"), workers});
        QVERIFY2(run.finished && run.exitCode == 0, run.err.constData());
        const QJsonObject calls =
            QJsonDocument::fromJson(run.out).object().value(QStringLiteral("estimate")).toObject().value(QStringLiteral("calls")).toObject();
        QCOMPARE(calls.value(QStringLiteral("worlds")).toInt(), n);
        QCOMPARE(calls.value(QStringLiteral("mean")).toDouble(), sum / n);
        QVERIFY(calls.value(QStringLiteral("p10")).toDouble() <= calls.value(QStringLiteral("mean")).toDouble());
        QVERIFY(calls.value(QStringLiteral("p90")).toDouble() >= calls.value(QStringLiteral("mean")).toDouble());
        QCOMPARE(iterationCount(), 5); // a replay without storing: nothing written
    }

    void withoutWorldsTheLimitsBoundTheCalls()
    {
        const QString fresh = m_dir.filePath(QStringLiteral("fresh.dreamrsi"));
        const CliRun run = runDreamrsi({QStringLiteral("round"), QStringLiteral("--project"), fresh, QStringLiteral("--task"), toyTask(),
                                        QStringLiteral("--agent"), QStringLiteral("command"), QStringLiteral("--command"), QStringLiteral("true"), QStringLiteral("--max-calls"),
                                        QStringLiteral("7"), QStringLiteral("--preflight"), QStringLiteral("--json")},
                                       QProcessEnvironment::systemEnvironment(), 120000);
        QVERIFY2(run.finished && run.exitCode == 0, run.err.constData());
        const QJsonObject estimate = QJsonDocument::fromJson(run.out).object().value(QStringLiteral("estimate")).toObject();
        const QJsonObject calls = estimate.value(QStringLiteral("calls")).toObject();
        QCOMPARE(calls.value(QStringLiteral("worlds")).toInt(), 0);
        QCOMPARE(calls.value(QStringLiteral("mean")).toDouble(), 7.0);
        QVERIFY(estimate.value(QStringLiteral("basis")).toObject().value(QStringLiteral("calls")).toString().contains(
            QStringLiteral("no replay world")));
        QVERIFY(!QFile::exists(fresh)); // a preflight creates no project
    }
};

QTEST_GUILESS_MAIN(TestRoundPreflight)
#include "tst_round_preflight.moc"
