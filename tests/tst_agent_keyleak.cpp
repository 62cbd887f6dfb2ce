// An API key never leaks, end to end: a live round with the OpenAI provider
// against a stand-in on 127.0.0.1, with a planted key in OPENAI_API_KEY. The
// stand-in must receive it (Authorization header); the project file, every
// file of the artifact folder, the exports and the bundle, the command's own
// output and the evaluated programs' environment and command lines must not
// hold it. And the same round's token budget: `--max-tokens N` stops it
// cleanly once the stand-in's reported tokens reach N.
#include "agentstandin.h"
#include "clirunsupport.h"

#include <QDirIterator>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QtTest>

using namespace dreamrsi::test;

namespace {

// The program every attempt gets: the task's initial set, printed only when
// no planted key is in its environment, its arguments or its parent's
// command line (otherwise the attempt fails and the round has no score).
const QString kProgram = QStringLiteral(
    "import json, os, sys\n"
    "marker = 'sk-' + 'PLANTED'\n"
    "leak = any(marker in v for v in os.environ.values()) or any(marker in a for a in sys.argv)\n"
    "try:\n"
    "    with open('/proc/%d/cmdline' % os.getppid(), 'rb') as f:\n"
    "        leak = leak or marker.encode() in f.read()\n"
    "except OSError:\n"
    "    pass\n"
    "print('the key reached the program' if leak else json.dumps({'set': [0, 2, 3, 4, 7, 11, 12, 14]}))\n");

} // namespace

class TestAgentKeyLeak : public QObject
{
    Q_OBJECT
private slots:
    void plantedKeyStaysInMemory();
    void tokenBudgetStopsTheRound();
};

void TestAgentKeyLeak::tokenBudgetStopsTheRound()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    ProviderStandIn server;
    QVERIFY(server.listen());
    const QString answer = QStringLiteral("Print the classic set.\n\n```python\n") + kProgram + QStringLiteral("```\n");
    // 800 + 200 tokens a call: one call at a time, the third reaches 2,500.
    server.setScript({StandInReply::json(200, providerAnswer(QStringLiteral("openai"), QStringLiteral("gpt-4o"), answer, 800, 200))});
    const CliRun round = runDreamrsi({QStringLiteral("round"), QStringLiteral("--project"), dir.filePath(QStringLiteral("t.dreamrsi")),
                                      QStringLiteral("--task"), QStringLiteral("sums_differences"), QStringLiteral("--agent"),
                                      QStringLiteral("openai"), QStringLiteral("--model"), QStringLiteral("gpt-4o"),
                                      QStringLiteral("--base-url"), server.baseUrl() + QStringLiteral("/v1"), QStringLiteral("--workers"),
                                      QStringLiteral("1"), QStringLiteral("--max-tokens"), QStringLiteral("2500"), QStringLiteral("--json")});
    QVERIFY2(round.finished, round.err.constData());
    QVERIFY2(round.exitCode == 0, round.err.constData());
    const QJsonObject summary = QJsonDocument::fromJson(round.out).object();
    QCOMPARE(summary.value(QStringLiteral("calls")).toInteger(), 3);
    QCOMPARE(summary.value(QStringLiteral("tokens_in")).toInteger() + summary.value(QStringLiteral("tokens_out")).toInteger(), 3000);
    QCOMPARE(server.requests().size(), qsizetype(3));
    QVERIFY2(round.err.contains("budget: 2500 tokens reached"), round.err.constData());

    const CliRun zero = runDreamrsi({QStringLiteral("round"), QStringLiteral("--project"), dir.filePath(QStringLiteral("z.dreamrsi")),
                                     QStringLiteral("--task"), QStringLiteral("sums_differences"), QStringLiteral("--agent"),
                                     QStringLiteral("builtin"), QStringLiteral("--max-tokens"), QStringLiteral("0")});
    QCOMPARE(zero.exitCode, 2);
    QVERIFY2(zero.err.contains("--max-tokens"), zero.err.constData());
}

void TestAgentKeyLeak::plantedKeyStaysInMemory()
{
    const QByteArray key = "sk-PLANTED-" + QByteArray::number(QRandomGenerator::global()->generate64(), 16) + "-secret";
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString project = dir.filePath(QStringLiteral("p.dreamrsi"));

    ProviderStandIn server;
    QVERIFY(server.listen());
    const QString answer = QStringLiteral("Print the classic set.\n\n```python\n") + kProgram + QStringLiteral("```\n");
    server.setScript({StandInReply::json(200, providerAnswer(QStringLiteral("openai"), QStringLiteral("gpt-4o"), answer, 800, 200))});

    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("OPENAI_API_KEY"), QString::fromLatin1(key));
    const CliRun round = runDreamrsi({QStringLiteral("round"), QStringLiteral("--project"), project, QStringLiteral("--task"),
                                      QStringLiteral("sums_differences"), QStringLiteral("--agent"), QStringLiteral("openai"),
                                      QStringLiteral("--model"), QStringLiteral("gpt-4o"), QStringLiteral("--base-url"),
                                      server.baseUrl() + QStringLiteral("/v1"), QStringLiteral("--workers"), QStringLiteral("2"),
                                      QStringLiteral("--rounds"), QStringLiteral("1"), QStringLiteral("--json")},
                                     env);
    QVERIFY2(round.finished, round.err.constData());
    QVERIFY2(round.exitCode == 0, round.err.constData());
    const QJsonObject summary = QJsonDocument::fromJson(round.out).object();
    QVERIFY2(summary.value(QStringLiteral("calls")).toInteger() >= 1, round.out.constData());
    // Every attempt's program ran without meeting the key.
    QVERIFY2(summary.value(QStringLiteral("best_score")).isDouble(), QByteArray(round.out + round.err).constData());

    // The key was really planted: the stand-in got it in each request's header, nowhere else.
    QVERIFY(!server.requests().isEmpty());
    QCOMPARE(server.requests().size(), qsizetype(summary.value(QStringLiteral("calls")).toInteger()));
    for (const StandInRequest &r : server.requests()) {
        QCOMPARE(r.headers.value("authorization"), QByteArray("Bearer " + key));
        QVERIFY(!r.body.contains(key));
        QVERIFY(!r.path.contains(key));
    }
    QVERIFY(!round.out.contains(key));
    QVERIFY(!round.err.contains(key));

    // Exports: every iteration, one iteration with its artifacts, the bundle.
    const QString iteration = QString::number(summary.value(QStringLiteral("iteration")).toInteger());
    const QList<QStringList> exports = {
        {QStringLiteral("export"), project, QStringLiteral("--all"), QStringLiteral("--dir"), dir.filePath(QStringLiteral("all"))},
        {QStringLiteral("export"), project, QStringLiteral("--iteration"), iteration, QStringLiteral("--dir"),
         dir.filePath(QStringLiteral("one"))},
        {QStringLiteral("export"), project, QStringLiteral("--bundle"), dir.filePath(QStringLiteral("p.dreamrsi-bundle"))},
    };
    for (const QStringList &args : exports) {
        const CliRun e = runDreamrsi(args, env);
        QVERIFY2(e.finished && e.exitCode == 0, QByteArray(args.join(QLatin1Char(' ')).toUtf8() + ": " + e.err).constData());
        QVERIFY(!e.out.contains(key) && !e.err.contains(key));
    }

    // Every file in the folder: the project (+ -wal/-shm while present), its
    // artifact folder, the exports, the bundle.
    int files = 0;
    int agentLogs = 0;
    bool sawProject = false;
    bool sawBundle = false;
    QDirIterator it(dir.path(), QDir::Files | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        QFile f(path);
        QVERIFY2(f.open(QIODevice::ReadOnly), qPrintable(path));
        const QByteArray content = f.readAll();
        QVERIFY2(!content.contains(key), qPrintable(QStringLiteral("the key is in ") + path));
        ++files;
        sawProject = sawProject || path == project;
        sawBundle = sawBundle || path.endsWith(QLatin1String(".dreamrsi-bundle"));
        if (it.fileName() == QLatin1String("agent.log")) {
            ++agentLogs;
            QVERIFY2(content.contains("from the last fenced block"), content.constData());
        }
    }
    QVERIFY(sawProject);
    QVERIFY(sawBundle);
    QVERIFY2(agentLogs >= 1, "no agent.log in the artifact folder or the export");
    qInfo("scanned %d files (%d agent.log), %d requests carried the key in their header", files, agentLogs,
          int(server.requests().size()));
}

QTEST_GUILESS_MAIN(TestAgentKeyLeak)
#include "tst_agent_keyleak.moc"
