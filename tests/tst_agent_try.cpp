// `dreamrsi agent try`: one attempt of a discovery agent from the task's
// initial program, evaluated by the sandboxed evaluator. The built-in agent
// on a CPU task, an OpenAI-compatible stand-in on 127.0.0.1 (answer, answer
// without a code block) and bad usage.
#include "agentstandin.h"
#include "clirunsupport.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

using namespace dreamrsi::test;

namespace {

const QString kModel = QStringLiteral("gpt-4o");
const QByteArray kKey = QByteArrayLiteral("sk-test-agent-try-0001");

QString initialProgram()
{
    QFile f(QStringLiteral(DREAMRSI_SOURCE_DIR "/evaluators/sums_differences/initial.py"));
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

QProcessEnvironment envWithKey()
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("OPENAI_API_KEY"), QString::fromLatin1(kKey));
    return env;
}

QStringList tryArgs(const QString &agent, const QStringList &more = {})
{
    return QStringList{QStringLiteral("agent"), QStringLiteral("try"), QStringLiteral("--task"),
                       QStringLiteral("sums_differences"), QStringLiteral("--agent"), agent}
        + more;
}

} // namespace

class TestAgentTry : public QObject
{
    Q_OBJECT
private slots:
    void builtinGivesValidScore();
    void standInPrintsUsage();
    void standInJson();
    void noCodeBlockIsAgentFailure();
    void badUsage();
};

void TestAgentTry::builtinGivesValidScore()
{
    // About a quarter of the built-in agent's programs carry a deliberate
    // mistake (its progress model); seed 8's attempt is a correct one.
    const CliRun r = runDreamrsi(tryArgs(QStringLiteral("builtin"), {QStringLiteral("--seed"), QStringLiteral("8"),
                                                                     QStringLiteral("--json")}));
    QVERIFY2(r.finished, r.err.constData());
    QCOMPARE(r.exitCode, 0);
    QJsonParseError error;
    const QJsonObject o = QJsonDocument::fromJson(r.out, &error).object();
    QCOMPARE(error.error, QJsonParseError::NoError);
    QCOMPARE(o.value(QStringLiteral("agent")).toString(), QStringLiteral("builtin"));
    QVERIFY(o.value(QStringLiteral("ok")).toBool());
    QVERIFY2(o.value(QStringLiteral("score")).isDouble(), r.out.constData());
    QVERIFY(o.value(QStringLiteral("valid")).toBool());
    QVERIFY(o.value(QStringLiteral("error")).isNull());
    QVERIFY(o.value(QStringLiteral("program_bytes")).toInteger() > 0);
    QVERIFY(!o.value(QStringLiteral("proposal")).toString().trimmed().isEmpty());
}

void TestAgentTry::standInPrintsUsage()
{
    ProviderStandIn server;
    QVERIFY(server.listen());
    const QString answer = QStringLiteral("Keep Conway's set as it is.\n\n```python\n") + initialProgram() + QStringLiteral("```\n");
    server.setScript({StandInReply::json(200, providerAnswer(QStringLiteral("openai"), kModel, answer, 1200, 300))});
    const CliRun r = runDreamrsi(tryArgs(QStringLiteral("openai"), {QStringLiteral("--model"), kModel, QStringLiteral("--base-url"),
                                                                    server.baseUrl() + QStringLiteral("/v1")}),
                                 envWithKey());
    QVERIFY2(r.finished, r.err.constData());
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QCOMPARE(server.requests().size(), 1);
    QCOMPARE(server.requests().first().headers.value("authorization"), QByteArray("Bearer " + kKey));
    // Attempt 0 of branch 0 is asked for the task's first direction, described.
    const QByteArray body = server.requests().first().body;
    QVERIFY2(body.contains("direction \\\"tensor-anneal\\\" ("), body.left(3000).constData());
    const QString out = QString::fromUtf8(r.out);
    QVERIFY2(out.contains(QStringLiteral("Keep Conway's set as it is.")), r.out.constData());
    QVERIFY2(out.contains(QStringLiteral("tokens: 1200 in, 300 out")), r.out.constData());
    // gpt-4o: $2.50 in, $10.00 out per million tokens.
    QVERIFY2(out.contains(QStringLiteral("cost: $0.006000")), r.out.constData());
    QVERIFY2(out.contains(QStringLiteral("verdict: ")) && out.contains(QStringLiteral("(valid)")), r.out.constData());
    QVERIFY2(out.contains(QStringLiteral("program: main.py, %1 bytes").arg(initialProgram().toUtf8().size())), r.out.constData());
    QVERIFY(!r.out.contains(kKey) && !r.err.contains(kKey));
}

void TestAgentTry::standInJson()
{
    ProviderStandIn server;
    QVERIFY(server.listen());
    const QString answer = QStringLiteral("Same set.\n\n```python\n") + initialProgram() + QStringLiteral("```\n");
    server.setScript({StandInReply::json(503, providerError(QStringLiteral("openai"), QStringLiteral("busy"))).withHeader("Retry-After", "0"),
                      StandInReply::json(200, providerAnswer(QStringLiteral("openai"), kModel, answer, 1000, 100))});
    const CliRun r = runDreamrsi(tryArgs(QStringLiteral("openai"), {QStringLiteral("--model"), kModel, QStringLiteral("--base-url"),
                                                                    server.baseUrl() + QStringLiteral("/v1"), QStringLiteral("--json")}),
                                 envWithKey());
    QVERIFY2(r.finished, r.err.constData());
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const QJsonObject o = QJsonDocument::fromJson(r.out).object();
    QCOMPARE(o.value(QStringLiteral("tokens_in")).toInteger(), 1000);
    QCOMPARE(o.value(QStringLiteral("tokens_out")).toInteger(), 100);
    QCOMPARE(o.value(QStringLiteral("retries")).toInt(), 1);
    QCOMPARE(o.value(QStringLiteral("calls")).toInt(), 2);
    QVERIFY(qAbs(o.value(QStringLiteral("usd")).toDouble() - (1000 * 2.5 + 100 * 10.0) / 1e6) < 1e-12);
    QVERIFY(o.value(QStringLiteral("latency_s")).toDouble() > 0.0);
    QVERIFY(o.value(QStringLiteral("score")).isDouble());
    QCOMPARE(server.requests().size(), 2);
}

void TestAgentTry::noCodeBlockIsAgentFailure()
{
    ProviderStandIn server;
    QVERIFY(server.listen());
    server.setScript({StandInReply::json(
        200, providerAnswer(QStringLiteral("openai"), kModel, QStringLiteral("I would add 19 to the set, but here is no code."), 50, 12))});
    const CliRun r = runDreamrsi(tryArgs(QStringLiteral("openai"), {QStringLiteral("--model"), kModel, QStringLiteral("--base-url"),
                                                                    server.baseUrl() + QStringLiteral("/v1")}),
                                 envWithKey());
    QVERIFY2(r.finished, r.err.constData());
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains("no fenced code block"), r.err.constData());
    QVERIFY2(r.out.contains("agent failure: ") && r.out.contains("tokens: 50 in, 12 out"), r.out.constData());
    QVERIFY(!r.out.contains("verdict: "));
}

void TestAgentTry::badUsage()
{
    CliRun r = runDreamrsi(tryArgs(QStringLiteral("clairvoyant")));
    QVERIFY(r.finished);
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("unknown agent 'clairvoyant'"), r.err.constData());

    r = runDreamrsi({QStringLiteral("agent"), QStringLiteral("try"), QStringLiteral("--agent"), QStringLiteral("builtin")});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("--task is required"), r.err.constData());

    r = runDreamrsi(tryArgs(QStringLiteral("builtin"), {QStringLiteral("--seed"), QStringLiteral("-3")}));
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("--seed"), r.err.constData());

    r = runDreamrsi({QStringLiteral("agent"), QStringLiteral("try"), QStringLiteral("--task"), QStringLiteral("no_such_task"),
                     QStringLiteral("--agent"), QStringLiteral("builtin")});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("no_such_task"), r.err.constData());

    r = runDreamrsi({QStringLiteral("agent"), QStringLiteral("fly")});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("unknown subcommand 'fly'"), r.err.constData());

    r = runDreamrsi({QStringLiteral("agent"), QStringLiteral("try"), QStringLiteral("--help")});
    QCOMPARE(r.exitCode, 0);
    QVERIFY(r.out.contains("usage: dreamrsi agent try"));
}

QTEST_GUILESS_MAIN(TestAgentTry)
#include "tst_agent_try.moc"
