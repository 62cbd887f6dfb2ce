// `dreamrsi replay`, `dreamrsi synth` and ReplayProcess, driving the real binary.
#include "clirunsupport.h"

#include "model/treejson.h"
#include "policy/policyspec.h"
#include "replay/replayengine.h"
#include "replay/replayjson.h"
#include "replay/replayprocess.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace dreamrsi;

namespace {

using Run = test::CliRun;

QString binary()
{
    return test::dreamrsiProgram();
}

Run cli(const QStringList &args, int timeoutMs = 60000)
{
    return test::runDreamrsi(args, QProcessEnvironment::systemEnvironment(), timeoutMs);
}

} // namespace

class TestReplayCli : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    QStringList m_worlds;

    QString writeFile(const QString &name, const QByteArray &content)
    {
        const QString path = m_dir.filePath(name);
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly))
            qFatal("cannot write %s", qUtf8Printable(path));
        f.write(content);
        return path;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QVERIFY2(QFileInfo(binary()).isExecutable(), qPrintable(binary()));
        const Run r = cli({QStringLiteral("synth"), QStringLiteral("--out"), m_dir.filePath(QStringLiteral("worlds")),
                                QStringLiteral("--worlds"), QStringLiteral("3"), QStringLiteral("--seed"), QStringLiteral("11"),
                                QStringLiteral("--regime"), QStringLiteral("plateau"), QStringLiteral("--width"),
                                QStringLiteral("8"), QStringLiteral("--depth"), QStringLiteral("9")});
        QCOMPARE(r.exitCode, 0);
        const QDir dir(m_dir.filePath(QStringLiteral("worlds")));
        for (const QString &name : dir.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name))
            m_worlds.append(dir.filePath(name));
        QCOMPARE(m_worlds.size(), 3);
        for (const QString &w : m_worlds)
            QVERIFY2(TreeJson::readFile(w).ok(), qPrintable(w));
    }

    void usageErrors_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("message");
        QTest::addRow("nothing") << QStringList{QStringLiteral("replay")} << 2 << QStringLiteral("--world");
        QTest::addRow("no policy") << QStringList{QStringLiteral("replay"), QStringLiteral("--world"), QStringLiteral("a.json")}
                                   << 2 << QStringLiteral("--policy");
        // W, K, λ and β: the shared reader's bounds (store/replaybounds.h) and texts, as `replay --project`.
        QTest::addRow("empty beta item") << QStringList{QStringLiteral("replay"), QStringLiteral("--betas"), QStringLiteral("0,,1")}
                                         << 2 << QStringLiteral("--betas has an empty item (got '0,,1'");
        QTest::addRow("bad beta") << QStringList{QStringLiteral("replay"), QStringLiteral("--betas"), QStringLiteral("0,2")}
                                  << 2 << QStringLiteral("--betas must be a number in [0, 1] (got '2')");
        QTest::addRow("bad workers") << QStringList{QStringLiteral("replay"), QStringLiteral("--workers"), QStringLiteral("0")}
                                     << 2 << QStringLiteral("--workers must be an integer in [1, 10000] (got '0')");
        QTest::addRow("too many workers") << QStringList{QStringLiteral("replay"), QStringLiteral("--workers"), QStringLiteral("10001")}
                                          << 2 << QStringLiteral("--workers must be an integer in [1, 10000] (got '10001')");
        QTest::addRow("bad lambda") << QStringList{QStringLiteral("replay"), QStringLiteral("--lambda"), QStringLiteral("-1")}
                                    << 2 << QStringLiteral("--lambda must be a number in [0, 1000] (got '-1')");
        QTest::addRow("bad rounds") << QStringList{QStringLiteral("replay"), QStringLiteral("--rounds"), QStringLiteral("many")}
                                    << 2 << QStringLiteral("--rounds must be an integer in [0, 1000000] (got 'many'); none removes the limit");
        QTest::addRow("negative rounds") << QStringList{QStringLiteral("replay"), QStringLiteral("--rounds"), QStringLiteral("-1")}
                                         << 2 << QStringLiteral("--rounds must be an integer in [0, 1000000] (got '-1')");
        QTest::addRow("workers without value") << QStringList{QStringLiteral("replay"), QStringLiteral("--workers")}
                                               << 2 << QStringLiteral("--workers must be an integer in [1, 10000] (got '')");
        QTest::addRow("unknown option") << QStringList{QStringLiteral("replay"), QStringLiteral("--frobnicate")} << 2
                                        << QStringLiteral("unknown argument '--frobnicate'");
        QTest::addRow("unknown builtin") << QStringList{QStringLiteral("replay"), QStringLiteral("--world"), QStringLiteral("a.json"),
                                                        QStringLiteral("--policy"), QStringLiteral("builtin:nope")}
                                         << 1 << QStringLiteral("unknown built-in policy 'nope'");
        QTest::addRow("missing world") << QStringList{QStringLiteral("replay"), QStringLiteral("--world"), QStringLiteral("/no/such.json"),
                                                      QStringLiteral("--policy"), QStringLiteral("builtin:portfolio")}
                                       << 1 << QStringLiteral("/no/such.json");
        QTest::addRow("project") << QStringList{QStringLiteral("replay"), QStringLiteral("--project"), QStringLiteral("p.dreamrsi")}
                                 << 2 << QStringLiteral("usage: dreamrsi replay --project P.dreamrsi --policy");
        QTest::addRow("synth without seed") << QStringList{QStringLiteral("synth"), QStringLiteral("--out"), QStringLiteral("/tmp/x"),
                                                           QStringLiteral("--worlds"), QStringLiteral("1")}
                                            << 2 << QStringLiteral("--seed");
        QTest::addRow("synth bad regime") << QStringList{QStringLiteral("synth"), QStringLiteral("--out"), QStringLiteral("/tmp/x"),
                                                         QStringLiteral("--worlds"), QStringLiteral("1"), QStringLiteral("--seed"),
                                                         QStringLiteral("1"), QStringLiteral("--regime"), QStringLiteral("wild")}
                                          << 2 << QStringLiteral("unknown regime 'wild'");
    }
    void usageErrors()
    {
        QFETCH(QStringList, args);
        QFETCH(int, exitCode);
        QFETCH(QString, message);
        const Run r = cli(args);
        QCOMPARE(r.exitCode, exitCode);
        QVERIFY2(QString::fromUtf8(r.err).contains(message), r.err.constData());
    }

    void syntaxErrorInPolicy()
    {
        const QString js = writeFile(QStringLiteral("syntax.js"), "function selectBatch(s) {\n  return [;\n}\n");
        const Run r = cli({QStringLiteral("replay"), QStringLiteral("--world"), m_worlds.at(0), QStringLiteral("--policy"), js,
                                QStringLiteral("--json")});
        QCOMPARE(r.exitCode, 1);
        QVERIFY(r.err.contains("syntax.js: line 2"));
        QVERIFY(r.out.isEmpty());
    }

    // --rounds through the shared reader: K, none for no limit, and 0 as
    // the contract's K = 0 (the loop stops while k = 0: no round, no call),
    // for the built-in and the scripted engine alike.
    void roundLimit_data()
    {
        QTest::addColumn<QString>("policy");
        QTest::addColumn<QString>("rounds");
        QTest::addColumn<QJsonValue>("maxRounds");
        QTest::addColumn<int>("mostRounds");
        const QString builtin = QStringLiteral("builtin:portfolio");
        const QString script = QStringLiteral(DREAMRSI_SOURCE_DIR "/resources/policies/parallel_refine.js");
        QTest::addRow("three") << builtin << QStringLiteral("3") << QJsonValue(3) << 3;
        QTest::addRow("none") << builtin << QStringLiteral("none") << QJsonValue(QJsonValue::Null) << -1;
        QTest::addRow("zero") << builtin << QStringLiteral("0") << QJsonValue(0) << 0;
        QTest::addRow("zero, scripted") << script << QStringLiteral("0") << QJsonValue(0) << 0;
        QTest::addRow("one, scripted") << script << QStringLiteral("1") << QJsonValue(1) << 1;
    }
    void roundLimit()
    {
        QFETCH(QString, policy);
        QFETCH(QString, rounds);
        QFETCH(QJsonValue, maxRounds);
        QFETCH(int, mostRounds);
        const Run r = cli({QStringLiteral("replay"), QStringLiteral("--world"), m_worlds.at(0), QStringLiteral("--policy"), policy,
                           QStringLiteral("--rounds"), rounds, QStringLiteral("--json")});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject out = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(out.value(QLatin1String("max_rounds")), maxRounds);
        const QJsonArray sweep = out.value(QLatin1String("worlds")).toArray().at(0).toObject().value(QLatin1String("sweep")).toArray();
        QCOMPARE(sweep.size(), 5);
        int deepest = 0;
        for (const QJsonValue &entry : sweep) {
            const QJsonObject e = entry.toObject();
            deepest = std::max(deepest, e.value(QLatin1String("rounds")).toInt());
            if (mostRounds == 0) {
                QCOMPARE(e.value(QLatin1String("calls")).toInt(-1), 0);
                QVERIFY(e.value(QLatin1String("revealed")).toArray().isEmpty());
            }
        }
        if (mostRounds >= 0)
            QCOMPARE(deepest, mostRounds);
        else
            QVERIFY(deepest > 3); // no limit: the first world takes more than three rounds
    }

    void jsonMatchesTheEngine_data()
    {
        QTest::addColumn<QString>("policy");
        QTest::addRow("builtin") << QStringLiteral("builtin:portfolio");
        QTest::addRow("script") << QStringLiteral(DREAMRSI_SOURCE_DIR "/resources/policies/parallel_refine.js");
    }
    void jsonMatchesTheEngine()
    {
        QFETCH(QString, policy);
        const Run r = cli({QStringLiteral("replay"), QStringLiteral("--world"), m_worlds.at(0), QStringLiteral("--world"),
                                m_worlds.at(1), QStringLiteral("--policy"), policy, QStringLiteral("--workers"), QStringLiteral("4"),
                                QStringLiteral("--lambda"), QStringLiteral("0.2"), QStringLiteral("--betas"),
                                QStringLiteral("0,0.5,1"), QStringLiteral("--json")});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject j = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(j.value(QLatin1String("policy")).toString(), policy);
        QCOMPARE(j.value(QLatin1String("lambda")).toDouble(), 0.2);
        QCOMPARE(j.value(QLatin1String("workers")).toInt(), 4);
        QCOMPARE(j.value(QLatin1String("betas")).toArray(), (QJsonArray{0, 0.5, 1}));
        QVERIFY(j.value(QLatin1String("value")).isDouble());
        const QJsonArray worlds = j.value(QLatin1String("worlds")).toArray();
        QCOMPARE(worlds.size(), 2);
        QCOMPARE(worlds.at(0).toObject().value(QLatin1String("world")).toString(), m_worlds.at(0));
        QCOMPARE(worlds.at(0).toObject().value(QLatin1String("sweep")).toArray().size(), 3);

        // Same numbers, to the bit, as the engine in this process.
        QList<ReplayWorld> loaded;
        for (int i = 0; i < 2; ++i)
            loaded.append(ReplayWorld{m_worlds.at(i), std::make_shared<DiscoveryTree>(*TreeJson::readFile(m_worlds.at(i)).tree)});
        ReplayOptions o;
        o.workers = 4;
        o.lambda = 0.2;
        o.betas = {0.0, 0.5, 1.0};
        const Result<PolicySpec> spec = PolicySpec::fromArgument(policy);
        QVERIFY2(spec, qPrintable(spec.error));
        const ReplayResult here = ReplayEngine::runWorlds(loaded, *spec.value, o);
        QCOMPARE(j, ReplayJson::resultToJson(here));
    }

    void smallOutputsArriveWhole()
    {
        // `dreamrsi replay` ends without freeing its result (after flushing):
        // a short JSON and a short table still arrive whole, byte for byte.
        const Run j = cli({QStringLiteral("replay"), QStringLiteral("--world"), m_worlds.at(0), QStringLiteral("--policy"),
                           QStringLiteral("builtin:portfolio"), QStringLiteral("--betas"), QStringLiteral("0"), QStringLiteral("--json")});
        QCOMPARE(j.exitCode, 0);
        ReplayOptions o;
        o.betas = {0.0};
        const ReplayResult here = ReplayEngine::runWorlds(
            {ReplayWorld{m_worlds.at(0), std::make_shared<DiscoveryTree>(*TreeJson::readFile(m_worlds.at(0)).tree)}},
            PolicySpec::builtin(QStringLiteral("portfolio")), o);
        QCOMPARE(j.out, ReplayJson::resultToIndentedJson(here));
        const Run t = cli({QStringLiteral("replay"), QStringLiteral("--world"), m_worlds.at(0), QStringLiteral("--policy"),
                           QStringLiteral("builtin:portfolio"), QStringLiteral("--betas"), QStringLiteral("0")});
        QCOMPARE(t.exitCode, 0);
        const QByteArray last = QByteArrayLiteral("value (mean over 1 scorable world): ") + QByteArray::number(*here.value, 'g', 6) + '\n';
        QVERIFY2(t.out.endsWith(last), t.out.constData());
    }

    void largeOutputsArriveWhole()
    {
        // 40 worlds' JSON (several times a pipe's buffer) gathered from its
        // pieces: byte for byte the document, through a pipe and into a
        // file; a file that takes nothing (/dev/full) is an error, exit 1.
        const QString out = m_dir.filePath(QStringLiteral("many"));
        const Run synth = cli({QStringLiteral("synth"), QStringLiteral("--out"), out, QStringLiteral("--worlds"), QStringLiteral("40"),
                               QStringLiteral("--seed"), QStringLiteral("5")});
        QCOMPARE(synth.exitCode, 0);
        const QDir dir(out);
        QStringList args{QStringLiteral("replay"), QStringLiteral("--policy"), QStringLiteral("builtin:portfolio"), QStringLiteral("--json")};
        QList<ReplayWorld> loaded;
        for (const QString &name : dir.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name)) {
            args << QStringLiteral("--world") << dir.filePath(name);
            loaded.append(ReplayWorld{dir.filePath(name), std::make_shared<DiscoveryTree>(*TreeJson::readFile(dir.filePath(name)).tree)});
        }
        QCOMPARE(loaded.size(), 40);
        const QByteArray expected =
            ReplayJson::resultToIndentedJson(ReplayEngine::runWorlds(loaded, PolicySpec::builtin(QStringLiteral("portfolio")), ReplayOptions{}));
        QVERIFY(expected.size() > 4 * 65536);
        const Run piped = cli(args);
        QCOMPARE(piped.exitCode, 0);
        QVERIFY(piped.out == expected);

        QProcess toFile;
        toFile.setStandardOutputFile(m_dir.filePath(QStringLiteral("many.json")));
        toFile.start(binary(), args);
        QVERIFY(toFile.waitForFinished(60000));
        QCOMPARE(toFile.exitCode(), 0);
        QFile written(m_dir.filePath(QStringLiteral("many.json")));
        QVERIFY(written.open(QIODevice::ReadOnly));
        QVERIFY(written.readAll() == expected);

        if (!QFileInfo::exists(QStringLiteral("/dev/full")))
            QSKIP("no /dev/full here");
        QProcess full;
        full.setStandardOutputFile(QStringLiteral("/dev/full"));
        full.start(binary(), args);
        QVERIFY(full.waitForFinished(60000));
        QCOMPARE(full.exitCode(), 1);
        const QByteArray err = full.readAllStandardError();
        QVERIFY2(err.contains("cannot write the replay's JSON"), err.constData());
    }

    void handComputedCase()
    {
        // tests/data/replay/sparse: a world, a policy and the numbers worked out by hand.
        const QString world = QFINDTESTDATA("data/replay/sparse/world.json");
        const QString policy = QFINDTESTDATA("data/replay/sparse/policy.js");
        QFile file(QFINDTESTDATA("data/replay/sparse/expected.json"));
        QVERIFY(!world.isEmpty() && !policy.isEmpty() && file.open(QIODevice::ReadOnly));
        const QJsonObject expected = QJsonDocument::fromJson(file.readAll()).object();
        const Run r = cli({QStringLiteral("replay"), QStringLiteral("--world"), world, QStringLiteral("--policy"), policy,
                           QStringLiteral("--workers"), QStringLiteral("3"), QStringLiteral("--betas"), QStringLiteral("0,0.5,1"),
                           QStringLiteral("--json")});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject j = QJsonDocument::fromJson(r.out).object();
        const QJsonObject w = j.value(QLatin1String("worlds")).toArray().at(0).toObject();
        QCOMPARE(w.value(QLatin1String("cells")).toInt(), 6);
        QCOMPARE(w.value(QLatin1String("best")).toDouble(), 4.0);
        const QJsonArray sweep = w.value(QLatin1String("sweep")).toArray();
        const QJsonArray want = expected.value(QLatin1String("sweep")).toArray();
        QCOMPARE(sweep.size(), want.size());
        for (qsizetype i = 0; i < want.size(); ++i) {
            const QJsonObject a = sweep.at(i).toObject();
            const QJsonObject e = want.at(i).toObject();
            for (const char *k : {"beta", "calls", "rounds", "best", "attainment", "revealed"})
                QCOMPARE(a.value(QLatin1String(k)), e.value(QLatin1String(k)));
        }
        for (const char *k : {"hypervolume", "penalty", "value"}) {
            const double got = w.value(QLatin1String(k)).toDouble();
            const double want = expected.value(QLatin1String(k)).toDouble();
            QVERIFY2(std::fabs(got - want) <= 1e-12, k);
        }
        QCOMPARE(j.value(QLatin1String("value")).toDouble(), w.value(QLatin1String("value")).toDouble());

        const Run two = cli({QStringLiteral("replay"), QStringLiteral("--world"), world, QStringLiteral("--policy"), policy,
                             QStringLiteral("--workers"), QStringLiteral("2"), QStringLiteral("--betas"), QStringLiteral("0,0.5,1"),
                             QStringLiteral("--json")});
        QCOMPARE(two.exitCode, 1);
        const QJsonObject tw = QJsonDocument::fromJson(two.out).object().value(QLatin1String("worlds")).toArray().at(0).toObject();
        QVERIFY(tw.value(QLatin1String("value")).isNull());
        QCOMPARE(tw.value(QLatin1String("sweep")).toArray().at(2).toObject().value(QLatin1String("error")).toString(),
                 expected.value(QLatin1String("with_two_workers_error")).toString());
        QVERIFY(!tw.value(QLatin1String("sweep")).toArray().at(1).toObject().contains(QLatin1String("error")));
    }

    void policyErrorGivesNullValueAndNonZeroExit()
    {
        const QString js = writeFile(QStringLiteral("illegal.js"),
                                     "function selectBatch(s) { return s.round === 0 ? [s.legal[0]] : ['nope']; }\n");
        const Run r = cli({QStringLiteral("replay"), QStringLiteral("--world"), m_worlds.at(0), QStringLiteral("--policy"), js,
                                QStringLiteral("--json")});
        QCOMPARE(r.exitCode, 1);
        const QJsonObject j = QJsonDocument::fromJson(r.out).object();
        QVERIFY(j.value(QLatin1String("value")).isNull());
        const QJsonObject w = j.value(QLatin1String("worlds")).toArray().at(0).toObject();
        QVERIFY(w.value(QLatin1String("value")).isNull());
        const QJsonObject e = w.value(QLatin1String("sweep")).toArray().at(0).toObject();
        QCOMPARE(e.value(QLatin1String("error")).toString(), QStringLiteral("round 2: id nope is not legal"));
        QCOMPARE(e.value(QLatin1String("calls")).toInt(), 1);
        QVERIFY(r.err.contains("round 2: id nope is not legal"));
    }

    void spinningPolicyIsStopped()
    {
        const QString js = writeFile(QStringLiteral("spin.js"), "function selectBatch(s) { while (true) {} }\n");
        const Run r = cli({QStringLiteral("replay"), QStringLiteral("--world"), m_worlds.at(0), QStringLiteral("--policy"), js,
                                QStringLiteral("--time-limit-ms"), QStringLiteral("100"), QStringLiteral("--betas"),
                                QStringLiteral("0,1"), QStringLiteral("--json")});
        QCOMPARE(r.exitCode, 1);
        const QJsonObject e = QJsonDocument::fromJson(r.out).object().value(QLatin1String("worlds")).toArray().at(0)
                                  .toObject().value(QLatin1String("sweep")).toArray().at(1).toObject();
        QCOMPARE(e.value(QLatin1String("error")).toString(),
                 QStringLiteral("round 1: selectBatch ran past its time limit of 100 ms"));
    }

    void traceAndTable()
    {
        const QString trace = m_dir.filePath(QStringLiteral("trace.jsonl"));
        const Run r = cli({QStringLiteral("replay"), QStringLiteral("--world"), m_worlds.at(0), QStringLiteral("--world"),
                                m_worlds.at(2), QStringLiteral("--policy"), QStringLiteral("builtin:parallel_refine"),
                                QStringLiteral("--trace"), trace});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains("hypervol"));
        QVERIFY(r.out.contains("value (mean over 2 scorable worlds)"));
        QFile f(trace);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = f.readAll().trimmed().split('\n');
        QCOMPARE(lines.size(), 2 * 5);
        const QJsonObject first = QJsonDocument::fromJson(lines.at(0)).object();
        QCOMPARE(first.value(QLatin1String("world")).toString(), m_worlds.at(0));
        QCOMPARE(first.value(QLatin1String("beta")).toDouble(), 0.0);
        const QJsonArray rounds = first.value(QLatin1String("rounds_trace")).toArray();
        QCOMPARE(rounds.size(), first.value(QLatin1String("rounds")).toInt() + 1); // plus the final empty batch
        const QJsonObject r0 = rounds.at(0).toObject();
        QCOMPARE(r0.value(QLatin1String("prefix")).toObject().value(QLatin1String("calls")).toInt(), 0);
        QCOMPARE(r0.value(QLatin1String("batch")).toArray(), r0.value(QLatin1String("revealed")).toArray().size() == 1
                     ? QJsonArray{r0.value(QLatin1String("revealed")).toArray().at(0).toObject().value(QLatin1String("id"))}
                     : QJsonArray{});
    }

    void replayProcessReturnsResults()
    {
        ReplayProcess process;
        QSignalSpy finished(&process, &ReplayProcess::finished);
        QSignalSpy failed(&process, &ReplayProcess::failed);
        QSignalSpy progress(&process, &ReplayProcess::progress);
        ReplayProcessRequest request;
        request.program = binary();
        request.worldPaths = m_worlds.mid(0, 2);
        request.worlds = {ReplayWorld{QStringLiteral("in memory"), std::make_shared<DiscoveryTree>(*TreeJson::readFile(m_worlds.at(2)).tree)}};
        request.policySource = QStringLiteral("function selectBatch(s) { return s.observed.length < 6 ? [s.legal[0]] : []; }");
        const Result<Done> started = process.start(request);
        QVERIFY2(started, qPrintable(started.error));
        QVERIFY(!process.start(request));
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 60000);
        QCOMPARE(failed.size(), 0);
        QVERIFY(!progress.isEmpty());
        QCOMPARE(progress.constLast().at(0).toInt(), 15);
        const auto output = finished.at(0).at(0).value<std::shared_ptr<const ReplayProcessOutput>>();
        QVERIFY(output);
        QCOMPARE(output->exitCode, 0);
        QCOMPARE(output->result.worlds.size(), 3);
        QVERIFY(output->result.value);
        for (const SweepResult &s : output->result.worlds)
            QCOMPARE(s.episodes.at(0).calls, 6);
        QCOMPARE(output->traces.size(), 15);
        QCOMPARE(output->traces.at(0).trace.size(), 7);
        QVERIFY(!process.isRunning());
    }

    // Cancelled while its worlds are still being written: no child starts,
    // exactly one failed("cancelled") arrives.
    void replayProcessCancelledBeforeTheChildStarts()
    {
        ReplayProcess process;
        QSignalSpy finished(&process, &ReplayProcess::finished);
        QSignalSpy failed(&process, &ReplayProcess::failed);
        ReplayProcessRequest request;
        request.program = binary();
        request.worlds = {ReplayWorld{QStringLiteral("w"), std::make_shared<DiscoveryTree>(*TreeJson::readFile(m_worlds.at(0)).tree)}};
        request.policyArgument = QStringLiteral("builtin:portfolio");
        QVERIFY(process.start(request));
        QVERIFY(process.isRunning());
        process.cancel();
        QCOMPARE(failed.size(), 1);
        QCOMPARE(failed.at(0).at(0).toString(), QStringLiteral("cancelled"));
        QVERIFY(!process.isRunning());
        QCOMPARE(finished.size(), 0);
        // The same object replays again afterwards, and the cancelled start
        // never launches a child of its own: exactly one child starts, one
        // result arrives, and no second failure.
        QSignalSpy childStarted(&process, &ReplayProcess::childStarted);
        QVERIFY(process.start(request));
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 60000);
        QCOMPARE(childStarted.size(), 1);
        QCOMPARE(failed.size(), 1);
        QVERIFY(!process.isRunning());
    }

    // Progress lines that arrive in pieces (a read ending mid-line) are put
    // back together; a stand-in child prints them that way.
    void replayProcessJoinsSplitProgressLines()
    {
        QTemporaryDir dir;
        const QString script = dir.filePath(QStringLiteral("fake-dreamrsi"));
        QFile f(script);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("#!/bin/sh\n"
                "printf 'progress 1' >&2; sleep 0.3; printf '4/15\\nprogress 1' >&2; sleep 0.3\n"
                "printf '5/15\\nsome warn' >&2; sleep 0.3; printf 'ing\\n' >&2\n"
                "echo '{\"betas\": [0], \"worlds\": []}'\n");
        f.close();
        QVERIFY(f.setPermissions(f.permissions() | QFileDevice::ExeOwner));
        ReplayProcess process;
        QSignalSpy finished(&process, &ReplayProcess::finished);
        QSignalSpy progress(&process, &ReplayProcess::progress);
        ReplayProcessRequest request;
        request.program = script;
        request.worldPaths = {m_worlds.at(0)};
        request.policyArgument = QStringLiteral("builtin:portfolio");
        request.trace = false;
        QVERIFY(process.start(request));
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 20000);
        QCOMPARE(progress.size(), 2);
        QCOMPARE(progress.at(0).at(0).toInt(), 14);
        QCOMPARE(progress.at(1).at(0).toInt(), 15);
        QCOMPARE(progress.at(1).at(1).toInt(), 15);
    }

    // A wide machine under a tight memory limit gets fewer child threads, not a crash.
    void replayProcessFitsThreadsInMemory()
    {
        QCOMPARE(ReplayProcess::threadsWithin(qint64(4) << 30, 2), 2);
        QCOMPARE(ReplayProcess::threadsWithin(qint64(1) << 30, 16), 12);
        QCOMPARE(ReplayProcess::threadsWithin(qint64(4) << 30, 64), 60);
        QCOMPARE(ReplayProcess::threadsWithin(qint64(100) << 20, 8), 1);
        // Twelve scripted threads fit in 1 GiB.
        ReplayProcess process;
        QSignalSpy finished(&process, &ReplayProcess::finished);
        QSignalSpy failed(&process, &ReplayProcess::failed);
        ReplayProcessRequest request;
        request.program = binary();
        request.worldPaths = m_worlds;
        request.policyArgument = QStringLiteral(DREAMRSI_SOURCE_DIR "/resources/policies/portfolio.js");
        request.limits.memoryBytes = qint64(1) << 30;
        request.threads = ReplayProcess::threadsWithin(request.limits.memoryBytes, 16);
        request.trace = false;
        QVERIFY(process.start(request));
        QTRY_VERIFY_WITH_TIMEOUT(finished.size() + failed.size() == 1, 60000);
        QVERIFY2(failed.isEmpty(), failed.isEmpty() ? "" : qPrintable(failed.at(0).at(0).toString()));
        const auto output = finished.at(0).at(0).value<std::shared_ptr<const ReplayProcessOutput>>();
        QVERIFY2(output->result.ok(), qPrintable(output->result.firstError()));
        QCOMPARE(output->result.worlds.size(), m_worlds.size());
    }

    void replayProcessContainsBadPolicies_data()
    {
        QTest::addColumn<QString>("source");
        QTest::addColumn<int>("wallMs");
        QTest::addColumn<bool>("cancel");
        QTest::addColumn<QString>("expected");
        QTest::addRow("memory hog") << QStringLiteral(
            "var keep = []; function selectBatch(s) { for (;;) keep.push(new Array(1000000).fill(s.round + 0.5)); }")
                                    << 60000 << false << QStringLiteral("memory");
        QTest::addRow("wall clock") << QStringLiteral("function selectBatch(s) { for (;;) {} }") << 800 << false
                                    << QStringLiteral("wall-clock limit of 800 ms");
        QTest::addRow("cancel") << QStringLiteral("function selectBatch(s) { for (;;) {} }") << 60000 << true
                                << QStringLiteral("cancelled");
    }
    void replayProcessContainsBadPolicies()
    {
        QFETCH(QString, source);
        QFETCH(int, wallMs);
        QFETCH(bool, cancel);
        QFETCH(QString, expected);
        ReplayProcess process;
        QSignalSpy finished(&process, &ReplayProcess::finished);
        QSignalSpy failed(&process, &ReplayProcess::failed);
        ReplayProcessRequest request;
        request.program = binary();
        request.worldPaths = {m_worlds.at(0)};
        request.policySource = source;
        // The hog must meet its 1 GiB address-space limit (or the 3 s script
        // limit), never the machine's memory.
        request.limits.callMs = expected == QLatin1String("memory") ? 3000 : 20000;
        request.betas = {0.0};
        request.limits.memoryBytes = qint64(1) << 30;
        request.limits.wallMs = wallMs;
        request.threads = 1;
        QSignalSpy childStarted(&process, &ReplayProcess::childStarted);
        QVERIFY(process.start(request));
        if (cancel) {
            // Cancel a child that is really running, not one still being set up.
            QTRY_COMPARE_WITH_TIMEOUT(childStarted.size(), 1, 60000);
            process.cancel();
        }
        QTRY_VERIFY_WITH_TIMEOUT(finished.size() + failed.size() == 1, 60000);
        if (expected == QLatin1String("memory") && finished.size() == 1) {
            // The interpreter may report running out of memory as a policy error.
            const auto output = finished.at(0).at(0).value<std::shared_ptr<const ReplayProcessOutput>>();
            QVERIFY(!output->result.ok());
            QVERIFY(output->exitCode != 0);
            return;
        }
        QCOMPARE(failed.size(), 1);
        const QString message = failed.at(0).at(0).toString();
        if (expected == QLatin1String("memory"))
            QVERIFY2(!message.isEmpty() && !message.contains(QLatin1String("wall-clock")), qPrintable(message));
        else
            QVERIFY2(message.contains(expected), qPrintable(message));
        QVERIFY(!process.isRunning());
    }
};

QTEST_GUILESS_MAIN(TestReplayCli)
#include "tst_replay_cli.moc"
