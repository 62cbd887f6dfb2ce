// `dreamrsi round` (docs/online.md#commands): bad usage exits 2 naming the problem,
// --help describes every flag, an agent that cannot be made exits 1, and a
// real round with the built-in agent prints the JSON summary and stores its
// cells in the project; SIGTERM stops a round cleanly (exit 0, stopped). A
// round whose first attempts all fail for an environment reason (a CUDA
// round without the toolkit, or without a GPU) stops after them: exit 1,
// status stopped, the cause on stderr. `loop` reads a round's options with
// the same parser (the same help, the same words for the same mistakes) and
// checks a Slurm backend before it touches the project; a resume without
// --task reads the iteration's own.
#include "clirunsupport.h"
#include "storetestsupport.h"
#include "loop/round/roundsession.h"
#include "store/projectstore.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>

using namespace dreamrsi;
using dreamrsi::test::take;

namespace {

using Run = test::CliRun;

Run cli(const QStringList &args, int timeoutMs = 300000,
        const QProcessEnvironment &env = QProcessEnvironment::systemEnvironment())
{
    return test::runDreamrsi(QStringList{QStringLiteral("round")} + args, env, timeoutMs);
}

} // namespace

class TestLoopCli : public QObject
{
    Q_OBJECT
private slots:
    void help();
    void usageErrors_data();
    void usageErrors();
    void agentThatCannotBeMadeExits1();
    void builtinRoundPrintsSummary();
    void loopTakesTheRoundsOptions();
    void loopUsageErrors_data();
    void loopUsageErrors();
    void loopWithSlurmChecksItsBackendFirst();
    void resumeOfAMissingIteration();
    void allowEnvReachesTheCommandAgent();
    void agentSeedIsTheRounds();
    void cudaRoundWithoutToolkitStops();
    void cudaRoundWithoutGpuSaysSo();

private:
    QTemporaryDir m_dir;
};

void TestLoopCli::help()
{
    const Run r = cli({QStringLiteral("--help")});
    QCOMPARE(r.exitCode, 0);
    for (const char *flag : {"--project", "--task", "--agent", "--model", "--base-url", "--command", "--workers",
                             "--rounds", "--policy", "--beta", "--seed", "--max-calls", "--max-usd", "--resume", "--json"})
        QVERIFY2(r.out.contains(flag), flag);
}

void TestLoopCli::usageErrors_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("message");
    const QString p = m_dir.filePath(QStringLiteral("u.dreamrsi"));
    const QString t = QStringLiteral("circle_packing_26");
    auto base = [&](QStringList more) {
        return QStringList{QStringLiteral("--project"), p, QStringLiteral("--task"), t, QStringLiteral("--agent"),
                           QStringLiteral("builtin")}
               + more;
    };
    QTest::newRow("nothing") << QStringList() << QStringLiteral("--project is required");
    QTest::newRow("no agent") << QStringList{QStringLiteral("--project"), p, QStringLiteral("--task"), t}
                              << QStringLiteral("--agent is required");
    QTest::newRow("no task") << QStringList{QStringLiteral("--project"), p, QStringLiteral("--agent"), QStringLiteral("builtin")}
                             << QStringLiteral("--task is required");
    QTest::newRow("unknown agent") << QStringList{QStringLiteral("--project"), p, QStringLiteral("--task"), t,
                                                  QStringLiteral("--agent"), QStringLiteral("gpt")}
                                   << QStringLiteral("unknown agent 'gpt'");
    QTest::newRow("unknown option") << base({QStringLiteral("--frobnicate")}) << QStringLiteral("frobnicate");
    QTest::newRow("positional") << base({QStringLiteral("extra")}) << QStringLiteral("unexpected argument 'extra'");
    QTest::newRow("workers 0") << base({QStringLiteral("--workers"), QStringLiteral("0")}) << QStringLiteral("--workers");
    QTest::newRow("rounds text") << base({QStringLiteral("--rounds"), QStringLiteral("many")}) << QStringLiteral("--rounds");
    QTest::newRow("beta 1.5") << base({QStringLiteral("--beta"), QStringLiteral("1.5")}) << QStringLiteral("--beta");
    QTest::newRow("negative usd") << base({QStringLiteral("--max-usd"), QStringLiteral("-1")}) << QStringLiteral("--max-usd");
    QTest::newRow("calls 0") << base({QStringLiteral("--max-calls"), QStringLiteral("0")}) << QStringLiteral("--max-calls");
    QTest::newRow("tokens text") << base({QStringLiteral("--max-tokens"), QStringLiteral("lots")}) << QStringLiteral("--max-tokens");
    QTest::newRow("seed text") << base({QStringLiteral("--seed"), QStringLiteral("x")}) << QStringLiteral("--seed");
    QTest::newRow("unknown built-in policy") << base({QStringLiteral("--policy"), QStringLiteral("builtin:nosuch")})
                                             << QStringLiteral("--policy: unknown built-in policy 'builtin:nosuch' (known: builtin:");
    QTest::newRow("resume 0") << base({QStringLiteral("--resume"), QStringLiteral("0")}) << QStringLiteral("--resume");
    QTest::newRow("unknown task") << QStringList{QStringLiteral("--project"), p, QStringLiteral("--task"),
                                                 QStringLiteral("no_such_task"), QStringLiteral("--agent"),
                                                 QStringLiteral("builtin")}
                                  << QStringLiteral("unknown task 'no_such_task'");
    QTest::newRow("command without command") << QStringList{QStringLiteral("--project"), p, QStringLiteral("--task"), t,
                                                            QStringLiteral("--agent"), QStringLiteral("command")}
                                             << QStringLiteral("--command");
    QTest::newRow("allow-env not a name") << base({QStringLiteral("--allow-env"), QStringLiteral("GOOD,1BAD")})
                                          << QStringLiteral("--allow-env: '1BAD' is not a variable name");
    QTest::newRow("allow-env without command") << base({QStringLiteral("--allow-env"), QStringLiteral("HOME")})
                                               << QStringLiteral("--allow-env is for --agent command");
    QTest::newRow("project twice") << base({QStringLiteral("--project"), p}) << QStringLiteral("more than once");
}

void TestLoopCli::usageErrors()
{
    QFETCH(QStringList, args);
    QFETCH(QString, message);
    const Run r = cli(args);
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(QString::fromUtf8(r.err).contains(message), r.err.constData());
    QVERIFY(r.out.isEmpty());
    QVERIFY(!QFileInfo::exists(m_dir.filePath(QStringLiteral("u.dreamrsi")))); // nothing created on bad usage
}

void TestLoopCli::agentThatCannotBeMadeExits1()
{
    // The built-in agent knows only the bundled tasks, never a custom folder.
    const Run r = cli({QStringLiteral("--project"), m_dir.filePath(QStringLiteral("a.dreamrsi")), QStringLiteral("--task"),
                       QStringLiteral(DREAMRSI_SOURCE_DIR "/tests/data/loop/toy_task"), QStringLiteral("--agent"),
                       QStringLiteral("builtin"), QStringLiteral("--json")});
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains("error: agent builtin"), r.err.constData());
}

void TestLoopCli::builtinRoundPrintsSummary()
{
    const QString project = m_dir.filePath(QStringLiteral("b.dreamrsi"));
    const Run r = cli({QStringLiteral("--project"), project, QStringLiteral("--task"), QStringLiteral("circle_packing_26"),
                       QStringLiteral("--agent"), QStringLiteral("builtin"), QStringLiteral("--workers"), QStringLiteral("2"),
                       QStringLiteral("--rounds"), QStringLiteral("2"), QStringLiteral("--json")});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const QJsonObject o = QJsonDocument::fromJson(r.out.trimmed()).object();
    QStringList keys = o.keys();
    keys.sort();
    QCOMPARE(keys, (QStringList{QStringLiteral("best_score"), QStringLiteral("calls"), QStringLiteral("cells"),
                                QStringLiteral("grid"), QStringLiteral("iteration"), QStringLiteral("rounds"),
                                QStringLiteral("status"), QStringLiteral("tokens_in"), QStringLiteral("tokens_out"),
                                QStringLiteral("usd")}));
    QCOMPARE(o.value(QStringLiteral("status")).toString(), QStringLiteral("finished"));
    QCOMPARE(o.value(QStringLiteral("rounds")).toInt(), 2);
    const int cells = o.value(QStringLiteral("cells")).toInt();
    QVERIFY(cells >= 2 && cells <= 4);
    QCOMPARE(o.value(QStringLiteral("calls")).toInt(), cells);
    QVERIFY(o.value(QStringLiteral("grid")).toObject().contains(QStringLiteral("branches")));
    QVERIFY(r.err.contains("policy: built-in policy builtin:portfolio")); // the default, said on stderr

    ProjectStore store;
    take(store.open(project));
    const IterationData data = take(store.iterationData(o.value(QStringLiteral("iteration")).toInteger()));
    QCOMPARE(data.cells.size(), qsizetype(cells));
    QCOMPARE(data.info.status, IterationStatus::Finished);
    for (const Cell &c : data.cells)
        QVERIFY(!c.failClass.isEmpty());
    take(store.close());

    // A finished iteration cannot be resumed: an error, exit 1, and no
    // summary of a round that never began.
    const Run again = cli({QStringLiteral("--project"), project, QStringLiteral("--agent"), QStringLiteral("builtin"),
                           QStringLiteral("--resume"), QString::number(o.value(QStringLiteral("iteration")).toInteger()),
                           QStringLiteral("--json")});
    QCOMPARE(again.exitCode, 1);
    QVERIFY2(again.err.contains("only an interrupted or stopped round can be resumed"), again.err.constData());
    QVERIFY2(again.out.trimmed().isEmpty(), again.out.constData());
}

void TestLoopCli::loopTakesTheRoundsOptions()
{
    // `round` and `loop` read a round's options with one parser: both list them.
    const QStringList shared = {QStringLiteral("--project"),  QStringLiteral("--task"),       QStringLiteral("--agent"),
                                QStringLiteral("--model"),    QStringLiteral("--base-url"),   QStringLiteral("--command"),
                                QStringLiteral("--workers"),  QStringLiteral("--rounds"),     QStringLiteral("--beta"),
                                QStringLiteral("--seed"),     QStringLiteral("--max-calls"),  QStringLiteral("--max-usd"),
                                QStringLiteral("--backend"),  QStringLiteral("--partition"),  QStringLiteral("--account"),
                                QStringLiteral("--qos"),      QStringLiteral("--sbatch-args"), QStringLiteral("--shared-dir"),
                                QStringLiteral("--accept-steering"), QStringLiteral("--policy"),
                                QStringLiteral("--max-tokens"), QStringLiteral("--allow-env")};
    const Run round = cli({QStringLiteral("--help")});
    const Run loop = test::runDreamrsi({QStringLiteral("loop"), QStringLiteral("--help")});
    QCOMPARE(round.exitCode, 0);
    QCOMPARE(loop.exitCode, 0);
    for (const QString &flag : shared) {
        QVERIFY2(QString::fromUtf8(round.out).contains(flag), qPrintable(QStringLiteral("round: ") + flag));
        QVERIFY2(QString::fromUtf8(loop.out).contains(flag), qPrintable(QStringLiteral("loop: ") + flag));
    }
    // What only a single round has.
    QVERIFY(!loop.out.contains("--resume"));
}

void TestLoopCli::loopUsageErrors_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("message");
    const QString p = m_dir.filePath(QStringLiteral("l.dreamrsi"));
    auto base = [&](QStringList more) {
        return QStringList{QStringLiteral("--project"), p, QStringLiteral("--task"), QStringLiteral("circle_packing_26"),
                           QStringLiteral("--agent"), QStringLiteral("builtin"), QStringLiteral("--fixed")}
               + more;
    };
    // The same words as `round` for the same mistakes.
    QTest::newRow("no agent") << QStringList{QStringLiteral("--project"), p, QStringLiteral("--task"),
                                             QStringLiteral("circle_packing_26")}
                              << QStringLiteral("--agent is required");
    QTest::newRow("unknown agent") << QStringList{QStringLiteral("--project"), p, QStringLiteral("--task"),
                                                  QStringLiteral("circle_packing_26"), QStringLiteral("--agent"),
                                                  QStringLiteral("gpt")}
                                   << QStringLiteral("unknown agent 'gpt'");
    QTest::newRow("workers 0") << base({QStringLiteral("--workers"), QStringLiteral("0")}) << QStringLiteral("--workers");
    QTest::newRow("partition without slurm") << base({QStringLiteral("--partition"), QStringLiteral("debug")})
                                             << QStringLiteral("--partition needs --backend slurm");
    QTest::newRow("unknown backend") << base({QStringLiteral("--backend"), QStringLiteral("cloud")})
                                     << QStringLiteral("--backend must be local or slurm, not 'cloud'");
    QTest::newRow("open quote") << base({QStringLiteral("--backend"), QStringLiteral("slurm"), QStringLiteral("--sbatch-args"),
                                         QStringLiteral("--comment 'open")})
                                << QStringLiteral("quote");
    QTest::newRow("resume is round's") << base({QStringLiteral("--resume"), QStringLiteral("1")}) << QStringLiteral("resume");
    QTest::newRow("allow-env not a name") << base({QStringLiteral("--allow-env"), QStringLiteral("GOOD,1BAD")})
                                          << QStringLiteral("--allow-env: '1BAD' is not a variable name");
    QTest::newRow("allow-env without command") << base({QStringLiteral("--allow-env"), QStringLiteral("HOME")})
                                               << QStringLiteral("--allow-env is for --agent command");
    QTest::newRow("project twice") << base({QStringLiteral("--project"), p}) << QStringLiteral("more than once");
}

void TestLoopCli::loopUsageErrors()
{
    QFETCH(QStringList, args);
    QFETCH(QString, message);
    const Run r = test::runDreamrsi(QStringList{QStringLiteral("loop")} + args);
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(QString::fromUtf8(r.err).contains(message), r.err.constData());
    QVERIFY(!QFileInfo::exists(m_dir.filePath(QStringLiteral("l.dreamrsi"))));
}

void TestLoopCli::loopWithSlurmChecksItsBackendFirst()
{
    // `loop --backend slurm` makes the Slurm backend and asks it first, as
    // `round` does: a partition this machine has no cluster for (or no
    // such partition) is an error before the project or an agent is touched.
    // tst_slurm runs such a loop on a real cluster.
    const QString project = m_dir.filePath(QStringLiteral("slurmloop.dreamrsi"));
    const Run r = test::runDreamrsi({QStringLiteral("loop"), QStringLiteral("--project"), project, QStringLiteral("--task"),
                                     QStringLiteral("circle_packing_26"), QStringLiteral("--agent"), QStringLiteral("builtin"),
                                     QStringLiteral("--fixed"), QStringLiteral("--iterations"), QStringLiteral("1"),
                                     QStringLiteral("--backend"), QStringLiteral("slurm"), QStringLiteral("--partition"),
                                     QStringLiteral("dreamrsi-no-such-partition"), QStringLiteral("--shared-dir"),
                                     m_dir.filePath(QStringLiteral("shared"))});
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains("error: slurm backend: "), r.err.constData());
    QVERIFY(!QFileInfo::exists(project));
}

void TestLoopCli::allowEnvReachesTheCommandAgent()
{
    // A command agent that writes the environment it got into its workspace.
    const QString project = m_dir.filePath(QStringLiteral("env.dreamrsi"));
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("DREAMRSI_TEST_LET_THROUGH"), QStringLiteral("through-41"));
    env.insert(QStringLiteral("DREAMRSI_TEST_KEPT_OUT"), QStringLiteral("out-42"));
    const QString program = QStringLiteral("print('{\"circles\": [[0.1, 0.1, 0.05]]}')");
    const Run r = cli({QStringLiteral("--project"), project, QStringLiteral("--task"), QStringLiteral("circle_packing_26"),
                       QStringLiteral("--agent"), QStringLiteral("command"), QStringLiteral("--command"),
                       QStringLiteral("cat > /dev/null; env > env.seen; echo \"") + program + QStringLiteral("\" > main.py"),
                       QStringLiteral("--allow-env"), QStringLiteral("DREAMRSI_TEST_LET_THROUGH,DREAMRSI_TEST_SET=given"),
                       QStringLiteral("--workers"), QStringLiteral("1"), QStringLiteral("--rounds"), QStringLiteral("1"),
                       QStringLiteral("--json")},
                      300000, env);
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QFile seen(project + QStringLiteral("-artifacts/attempts/1/b0a0/env.seen"));
    QVERIFY2(seen.open(QIODevice::ReadOnly), qPrintable(seen.fileName()));
    const QByteArray text = seen.readAll();
    QVERIFY2(text.contains("DREAMRSI_TEST_LET_THROUGH=through-41"), text.constData());
    QVERIFY2(text.contains("DREAMRSI_TEST_SET=given"), text.constData());
    QVERIFY2(!text.contains("DREAMRSI_TEST_KEPT_OUT") && !text.contains("out-42"), text.constData());
}

void TestLoopCli::resumeOfAMissingIteration()
{
    // A resume without --task reads the iteration's own (RoundSession::prepare, as the workbench does).
    const QString project = m_dir.filePath(QStringLiteral("missing.dreamrsi"));
    ProjectStore store;
    take(store.create(project, ProjectInfo()));
    take(store.close());
    const Run r = cli({QStringLiteral("--project"), project, QStringLiteral("--agent"), QStringLiteral("builtin"),
                       QStringLiteral("--resume"), QStringLiteral("7")});
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains("iteration 7 does not exist"), r.err.constData());
}

void TestLoopCli::agentSeedIsTheRounds()
{
    // One rule, in RoundSession::prepare: the agent is made with the round's
    // seed (`round --seed`, Launch Round, the loop's S + t − 1); an agent
    // handed in (the loop's, made once) is used as it is.
    const QString project = m_dir.filePath(QStringLiteral("seed.dreamrsi"));
    ProjectStore store;
    take(store.create(project, ProjectInfo()));
    RoundOptions options;
    options.round.task = QStringLiteral("sums_differences");
    options.round.agent.kind = QStringLiteral("builtin");
    options.round.agent.seed = 99; // whatever a caller left here is not the rule
    options.round.seed = 11;
    const Result<PreparedRound> made = RoundSession::prepare(&store, options).result();
    QVERIFY2(made.ok(), qPrintable(made.error));
    QCOMPARE(made.value->config.agent.seed, quint64(11));
    QVERIFY(made.value->agent);

    options.round.seed = 12;
    const Result<PreparedRound> given =
        RoundSession::prepare(&store, options, {}, RoundSession::Parts{made.value->agent, {}}).result();
    QVERIFY2(given.ok(), qPrintable(given.error));
    QCOMPARE(given.value->config.agent.seed, quint64(12));
    QCOMPARE(given.value->agent.get(), made.value->agent.get());
    take(store.close());
}

namespace {

/// Runs a built-in CUDA round (W 2, at most 3 rounds) and checks that it
/// stopped after its first round with `cause` on stderr.
void checkStoppedByEnvironment(const QString &project, const QProcessEnvironment &env, const QString &cause)
{
    const Run r = cli({QStringLiteral("--project"), project, QStringLiteral("--task"), QStringLiteral("cuda_kernels"),
                       QStringLiteral("--agent"), QStringLiteral("builtin"), QStringLiteral("--workers"), QStringLiteral("2"),
                       QStringLiteral("--rounds"), QStringLiteral("3"), QStringLiteral("--json")},
                      300000, env);
    QVERIFY2(r.exitCode == 1, r.err.constData());
    const QJsonObject o = QJsonDocument::fromJson(r.out.trimmed()).object();
    QCOMPARE(o.value(QStringLiteral("status")).toString(), QStringLiteral("stopped"));
    QCOMPARE(o.value(QStringLiteral("cells")).toInt(), 2); // the first round only
    QCOMPARE(o.value(QStringLiteral("calls")).toInt(), 2);
    QVERIFY2(o.value(QStringLiteral("error")).toString().contains(QStringLiteral("every attempt of the first round failed")),
             r.out.constData());
    const QString err = QString::fromUtf8(r.err);
    QVERIFY2(err.contains(QStringLiteral("error: every attempt of the first round failed for an environment reason")),
             r.err.constData());
    QVERIFY2(err.contains(cause), r.err.constData());
    ProjectStore store;
    take(store.open(project));
    QCOMPARE(take(store.iterationData(o.value(QStringLiteral("iteration")).toInteger())).info.status, IterationStatus::Stopped);
    take(store.close());
}

} // namespace

void TestLoopCli::cudaRoundWithoutToolkitStops()
{
    // No nvcc anywhere the evaluator looks: PATH holds only bubblewrap,
    // CUDA_HOME points nowhere.
    QTemporaryDir bin;
    const QString bwrap = QStandardPaths::findExecutable(QStringLiteral("bwrap"));
    if (!bwrap.isEmpty())
        QVERIFY(QFile::link(bwrap, bin.filePath(QStringLiteral("bwrap"))));
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("PATH"), bin.path());
    env.insert(QStringLiteral("CUDA_HOME"), bin.filePath(QStringLiteral("no-cuda")));
    checkStoppedByEnvironment(m_dir.filePath(QStringLiteral("nvcc.dreamrsi")), env, QStringLiteral("needs the CUDA toolkit"));
}

void TestLoopCli::cudaRoundWithoutGpuSaysSo()
{
    const bool nvcc = !QStandardPaths::findExecutable(QStringLiteral("nvcc")).isEmpty()
                      || QFileInfo::exists(qEnvironmentVariable("CUDA_HOME", QStringLiteral("/usr/local/cuda")) + QStringLiteral("/bin/nvcc"));
    if (!nvcc)
        QSKIP("no CUDA toolkit here (the round without it is checked above)");
    if (QFileInfo::exists(QStringLiteral("/dev/nvidia0")) || QFileInfo::exists(QStringLiteral("/dev/nvidiactl")))
        QSKIP("this machine has a CUDA GPU");
    checkStoppedByEnvironment(m_dir.filePath(QStringLiteral("gpu.dreamrsi")), QProcessEnvironment::systemEnvironment(),
                              QStringLiteral("no CUDA GPU on this machine"));
}

QTEST_GUILESS_MAIN(TestLoopCli)
#include "tst_loop_cli.moc"
