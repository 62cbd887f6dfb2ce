// Dreaming with an HTTP provider: `dreamrsi dream --agent openai` against a
// stand-in on 127.0.0.1 over a project of worlds from `dreamrsi synth`. The
// stand-in answers a working policy, then one that throws in selectBatch,
// then a working one again: the failing version is stored with its error,
// the dream goes on, and each prompt carries the earlier versions' results
// and the per-direction statistics of the worlds.
#include "agentstandin.h"
#include "clirunsupport.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

using namespace dreamrsi::test;

namespace {

const QString kGood = QStringLiteral(
    "// the widest legal batch\n"
    "function selectBatch(state) {\n"
    "    return state.legal.slice(0, state.maxParallelism);\n"
    "}\n");
const QString kThrows = QStringLiteral(
    "function selectBatch(state) {\n"
    "    throw new Error('planted failure in selectBatch');\n"
    "}\n");
const QString kNarrow = QStringLiteral(
    "// one at a time\n"
    "function selectBatch(state) {\n"
    "    return state.legal.slice(0, 1);\n"
    "}\n");

QJsonObject answer(const QString &code)
{
    return providerAnswer(QStringLiteral("openai"), QStringLiteral("gpt-4o"),
                          QStringLiteral("Here is the next version.\n\n```javascript\n") + code + QStringLiteral("```\n"), 2000, 150);
}

QString userText(const StandInRequest &r)
{
    QString text;
    for (const QJsonValue &m : r.json.value(QStringLiteral("messages")).toArray())
        text += m.toObject().value(QStringLiteral("content")).toString() + QLatin1Char('\n');
    return text;
}

} // namespace

class TestDreamHttp : public QObject
{
    Q_OBJECT
private slots:
    void dreamWithProvider();
};

void TestDreamHttp::dreamWithProvider()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString worlds = dir.filePath(QStringLiteral("worlds"));
    const QString project = dir.filePath(QStringLiteral("p.dreamrsi"));
    CliRun r = runDreamrsi({QStringLiteral("synth"), QStringLiteral("--out"), worlds, QStringLiteral("--worlds"), QStringLiteral("2"),
                            QStringLiteral("--seed"), QStringLiteral("11"), QStringLiteral("--regime"), QStringLiteral("needle")});
    QVERIFY2(r.finished && r.exitCode == 0, r.err.constData());
    QStringList files;
    for (const QString &f : QDir(worlds).entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name))
        files << worlds + QLatin1Char('/') + f;
    QCOMPARE(files.size(), 2);
    r = runDreamrsi({QStringLiteral("project"), QStringLiteral("new"), project});
    QVERIFY2(r.finished && r.exitCode == 0, r.err.constData());
    r = runDreamrsi(QStringList{QStringLiteral("import"), project} + files);
    QVERIFY2(r.finished && r.exitCode == 0, r.err.constData());

    ProviderStandIn server;
    QVERIFY(server.listen());
    server.setScript({StandInReply::json(200, answer(kGood)), StandInReply::json(200, answer(kThrows)),
                      StandInReply::json(200, answer(kNarrow))});
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("OPENAI_API_KEY"), QStringLiteral("sk-test-dream-http"));
    r = runDreamrsi({QStringLiteral("dream"), QStringLiteral("--project"), project, QStringLiteral("--versions"), QStringLiteral("4"),
                     QStringLiteral("--agent"), QStringLiteral("openai"), QStringLiteral("--model"), QStringLiteral("gpt-4o"),
                     QStringLiteral("--base-url"), server.baseUrl() + QStringLiteral("/v1"), QStringLiteral("--workers"),
                     QStringLiteral("2"), QStringLiteral("--json")},
                    env, 600000);
    QVERIFY2(r.finished, r.err.constData());
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QJsonParseError parseError;
    const QJsonObject o = QJsonDocument::fromJson(r.out, &parseError).object();
    QCOMPARE(parseError.error, QJsonParseError::NoError);
    const QJsonArray versions = o.value(QStringLiteral("versions")).toArray();
    QCOMPARE(versions.size(), 4);
    QCOMPARE(server.requests().size(), 3);

    const QJsonObject v1 = versions.at(1).toObject();
    QVERIFY2(v1.value(QStringLiteral("value")).isDouble(), QJsonDocument(v1).toJson().constData());
    QVERIFY(v1.value(QStringLiteral("error")).isNull());
    QVERIFY(v1.value(QStringLiteral("id")).toInteger() > 0);

    const QJsonObject v2 = versions.at(2).toObject();
    QVERIFY2(v2.value(QStringLiteral("error")).toString().contains(QStringLiteral("planted failure in selectBatch")),
             QJsonDocument(v2).toJson().constData());
    QVERIFY(v2.value(QStringLiteral("id")).toInteger() > 0); // stored, with its error

    // The dream went on past the failure.
    const QJsonObject v3 = versions.at(3).toObject();
    QVERIFY2(v3.value(QStringLiteral("value")).isDouble(), QJsonDocument(v3).toJson().constData());
    QVERIFY(v3.value(QStringLiteral("error")).isNull());
    QVERIFY(o.value(QStringLiteral("proposed")).toObject().value(QStringLiteral("value")).isDouble());

    // Each prompt carries what came before: the second the first version's
    // mean value, the third the second version's failure.
    const QString name1 = v1.value(QStringLiteral("name")).toString();
    const QString value1 = QString::number(v1.value(QStringLiteral("value")).toDouble(), 'g', 6);
    const QString second = userText(server.requests().at(1));
    QVERIFY2(second.contains(name1), qPrintable(name1));
    QVERIFY2(second.contains(value1), qPrintable(value1 + QStringLiteral(" not in the second prompt")));
    QVERIFY(second.contains(QStringLiteral("state.legal.slice(0, state.maxParallelism)")));
    // Every prompt carries the history's per-direction statistics (synth tags d0 … d4).
    const QString first = userText(server.requests().at(0));
    QVERIFY(first.contains(QStringLiteral("# What the stored worlds show, per direction")));
    QVERIFY(first.contains(QStringLiteral("| direction | worlds | branches | calls | successes | best score |")));
    QVERIFY(first.contains(QStringLiteral("| d0 | 2 | ")));
    QVERIFY(first.contains(QStringLiteral("Where gains arrive along a branch")));
    const QString third = userText(server.requests().at(2));
    QVERIFY(third.contains(QStringLiteral("FAILED")));
    QVERIFY(third.contains(QStringLiteral("planted failure in selectBatch")));
    qInfo("v1 %s value %s; v2 error: %s; v3 value %g", qPrintable(name1), qPrintable(value1),
          qPrintable(v2.value(QStringLiteral("error")).toString()), v3.value(QStringLiteral("value")).toDouble());
    for (const StandInRequest &req : server.requests())
        QCOMPARE(req.headers.value("authorization"), QByteArray("Bearer sk-test-dream-http"));
}

QTEST_GUILESS_MAIN(TestDreamHttp)
#include "tst_dream_http.moc"
