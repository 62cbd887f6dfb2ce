// The HTTP providers (docs/online.md#http-providers) against stand-ins of their APIs on
// 127.0.0.1: request shape (method, path, headers, body), program = last
// fenced block, usage → tokens and cost, retries on 429/500 and network
// errors, refusals, timeouts, cancellation, and a planted key that never
// comes back in anything returned.
#include "agentstandin.h"

#include "agent/agentfactory.h"
#include "agent/chatdiscoveryagent.h"
#include "agent/httpchatmodel.h"
#include "agent/pricetable.h"
#include "agent/sessionkeys.h"

#include <QFuture>
#include <QTest>
#include <QtConcurrent/QtConcurrentRun>

#include <atomic>

using namespace dreamrsi;
using namespace dreamrsi::test;

namespace {

const QString kKey = QStringLiteral("sk-PLANTED-123");
const QString kModel = QStringLiteral("standin-model-1");

const QString kAnswer = QStringLiteral(
    "# Proposal\n\nReplace the greedy start by a spiral lattice.\n\n"
    "A first sketch:\n\n```python\nprint('draft')\n```\n\n"
    "The final program:\n\n```python\nimport math\nprint(math.pi)\n```\n");

AttemptContext sampleContext()
{
    AttemptContext c;
    c.task = QStringLiteral("circle_packing_26");
    c.taskStatement = QStringLiteral("Pack 26 circles in the unit square; maximise the sum of radii.");
    c.programFileName = QStringLiteral("main.py");
    c.cellId = QStringLiteral("b0a1");
    c.branch = 0;
    c.attempt = 1;
    c.iteration = 1;
    c.parentProgram = QStringLiteral("print(1)\n");
    c.parentProposal = QStringLiteral("Start from a grid.");
    c.parentScore = 2.5;
    c.baselineScore = 2.0;
    AttemptRecord r;
    r.cellId = QStringLiteral("b0a0");
    r.iteration = 1;
    r.score = 2.5;
    r.proposal = QStringLiteral("Start from a grid.");
    c.history = {r};
    c.directionHint = QStringLiteral("direction:lattice");
    return c;
}

AgentConfig configFor(const QString &kind, const ProviderStandIn &server)
{
    AgentConfig config;
    config.kind = kind;
    config.model = kModel;
    config.baseUrl = server.baseUrl();
    config.apiKey = kKey;
    config.timeoutMs = 20000;
    config.maxRetries = 2;
    config.retryBaseDelayMs = 10;
    return config;
}

QByteArray expectedPath(const QString &kind)
{
    if (kind == QLatin1String("openai"))
        return "/chat/completions";
    if (kind == QLatin1String("anthropic"))
        return "/v1/messages";
    return "/v1beta/models/" + kModel.toUtf8() + ":generateContent";
}

/// Runs propose() on a worker thread while this thread serves the stand-in.
AgentOutcome proposeAsync(DiscoveryAgent &agent, const AttemptContext &context, std::atomic_bool &cancel,
                          const std::function<void()> &whileRunning = {})
{
    QFuture<AgentOutcome> future = QtConcurrent::run([&] { return agent.propose(context, cancel); });
    if (whileRunning)
        whileRunning();
    [&] { QTRY_VERIFY_WITH_TIMEOUT(future.isFinished(), 60000); }();
    return future.isFinished() ? future.result() : AgentOutcome::failure(QStringLiteral("test: never finished"));
}

void verifyNoKey(const AgentOutcome &outcome)
{
    QVERIFY2(!outcome.log.contains(kKey), qPrintable(outcome.log));
    QVERIFY(!outcome.error.contains(kKey));
    QVERIFY(!outcome.proposal.contains(kKey));
    QVERIFY(!outcome.program.contains(kKey));
}

} // namespace

class TestAgentHttp : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        PriceTable prices = PriceTable::defaults();
        prices.setPrice({kModel, 2.0, 8.0});
        PriceTable::setCurrent(prices);
    }

    void success_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::newRow("openai") << QStringLiteral("openai");
        QTest::newRow("anthropic") << QStringLiteral("anthropic");
        QTest::newRow("gemini") << QStringLiteral("gemini");
    }
    void success()
    {
        QFETCH(QString, kind);
        ProviderStandIn server;
        QVERIFY(server.listen());
        server.setScript({StandInReply::json(200, providerAnswer(kind, kModel, kAnswer, 1200, 300))});
        auto made = createDiscoveryAgent(configFor(kind, server), QStringLiteral("circle_packing_26"));
        QVERIFY2(made, qPrintable(made.error));
        auto agent = std::move(*made.value);
        QCOMPARE(agent->kind(), kind);
        QCOMPARE(agent->model(), kModel);
        std::atomic_bool cancel = false;
        const AgentOutcome outcome = proposeAsync(*agent, sampleContext(), cancel);
        QVERIFY2(outcome.ok, qPrintable(outcome.error));
        QCOMPARE(outcome.program, QStringLiteral("import math\nprint(math.pi)\n"));
        QVERIFY(outcome.proposal.contains(QStringLiteral("spiral lattice")));
        QVERIFY(!outcome.proposal.contains(QStringLiteral("math.pi")));
        QCOMPARE(outcome.usage.tokensIn, 1200);
        QCOMPARE(outcome.usage.tokensOut, 300);
        QCOMPARE(outcome.usage.usd, (1200 * 2.0 + 300 * 8.0) / 1e6);
        QCOMPARE(outcome.usage.retries, 0);
        QCOMPARE(outcome.usage.calls, 1);
        QCOMPARE(outcome.usage.model, kModel);
        verifyNoKey(outcome);

        QCOMPARE(server.requests().size(), 1);
        const StandInRequest &req = server.requests().first();
        QCOMPARE(req.method, QByteArray("POST"));
        QCOMPARE(req.path, expectedPath(kind));
        QVERIFY(req.headers.value("content-type").startsWith("application/json"));
        QVERIFY(req.jsonOk);
        QString promptText;
        if (kind == QLatin1String("openai")) {
            QCOMPARE(req.headers.value("authorization"), "Bearer " + kKey.toUtf8());
            QCOMPARE(req.json.value(QStringLiteral("model")).toString(), kModel);
            const QJsonArray messages = req.json.value(QStringLiteral("messages")).toArray();
            QCOMPARE(messages.size(), 2);
            QCOMPARE(messages.at(0).toObject().value(QStringLiteral("role")).toString(), QStringLiteral("system"));
            QCOMPARE(messages.at(1).toObject().value(QStringLiteral("role")).toString(), QStringLiteral("user"));
            promptText = messages.at(1).toObject().value(QStringLiteral("content")).toString();
        } else if (kind == QLatin1String("anthropic")) {
            QCOMPARE(req.headers.value("x-api-key"), kKey.toUtf8());
            QCOMPARE(req.headers.value("anthropic-version"), QByteArray("2023-06-01"));
            QVERIFY(!req.headers.contains("authorization"));
            QCOMPARE(req.json.value(QStringLiteral("model")).toString(), kModel);
            QVERIFY(req.json.value(QStringLiteral("max_tokens")).toInt() > 0);
            QVERIFY(!req.json.value(QStringLiteral("system")).toString().isEmpty());
            const QJsonArray messages = req.json.value(QStringLiteral("messages")).toArray();
            QCOMPARE(messages.size(), 1);
            QCOMPARE(messages.at(0).toObject().value(QStringLiteral("role")).toString(), QStringLiteral("user"));
            promptText = messages.at(0).toObject().value(QStringLiteral("content")).toString();
        } else {
            QCOMPARE(req.headers.value("x-goog-api-key"), kKey.toUtf8());
            QVERIFY(!req.path.contains("key="));
            const QJsonArray contents = req.json.value(QStringLiteral("contents")).toArray();
            QCOMPARE(contents.size(), 1);
            promptText = contents.at(0).toObject().value(QStringLiteral("parts")).toArray().at(0).toObject()
                             .value(QStringLiteral("text")).toString();
            QVERIFY(req.json.value(QStringLiteral("systemInstruction")).isObject());
            QVERIFY(req.json.value(QStringLiteral("generationConfig")).toObject().value(QStringLiteral("maxOutputTokens")).toInt() > 0);
        }
        QVERIFY(promptText.contains(QStringLiteral("Pack 26 circles")));
        QVERIFY(promptText.contains(QStringLiteral("print(1)")));
        QVERIFY(!promptText.contains(kKey));
    }

    // The answer names a model the price table does not know (a server's
    // build name): the cell keeps that name and is priced as the model
    // that was asked for.
    void unpricedAnswerModel_data() { success_data(); }
    void unpricedAnswerModel()
    {
        QFETCH(QString, kind);
        ProviderStandIn server;
        QVERIFY(server.listen());
        const QString served = QStringLiteral("stand-in-build-7");
        server.setScript({StandInReply::json(200, providerAnswer(kind, served, kAnswer, 1200, 300))});
        auto made = createDiscoveryAgent(configFor(kind, server), QStringLiteral("circle_packing_26"));
        QVERIFY2(made, qPrintable(made.error));
        auto agent = std::move(*made.value);
        std::atomic_bool cancel = false;
        const AgentOutcome outcome = proposeAsync(*agent, sampleContext(), cancel);
        QVERIFY2(outcome.ok, qPrintable(outcome.error));
        QCOMPARE(outcome.usage.model, served);
        QCOMPARE(outcome.usage.usd, (1200 * 2.0 + 300 * 8.0) / 1e6);
    }

    void noCodeBlock_data() { success_data(); }
    void noCodeBlock()
    {
        QFETCH(QString, kind);
        ProviderStandIn server;
        QVERIFY(server.listen());
        server.setScript({StandInReply::json(
            200, providerAnswer(kind, kModel, QStringLiteral("I would try a spiral, but here is no code."), 50, 10))});
        auto made = createDiscoveryAgent(configFor(kind, server), QString());
        QVERIFY2(made, qPrintable(made.error));
        auto agent = std::move(*made.value);
        std::atomic_bool cancel = false;
        const AgentOutcome outcome = proposeAsync(*agent, sampleContext(), cancel);
        QVERIFY(!outcome.ok);
        QVERIFY2(outcome.error.contains(QStringLiteral("no fenced code block")), qPrintable(outcome.error));
        QCOMPARE(outcome.usage.tokensIn, 50); // the call was made and paid for
        QVERIFY(outcome.usage.usd > 0);
        verifyNoKey(outcome);
    }

    void retryAfter429_data() { success_data(); }
    void retryAfter429()
    {
        QFETCH(QString, kind);
        ProviderStandIn server;
        QVERIFY(server.listen());
        server.setScript({StandInReply::json(429, providerError(kind, QStringLiteral("slow down"))).withHeader("Retry-After", "1"),
                          StandInReply::json(200, providerAnswer(kind, kModel, kAnswer, 10, 20))});
        auto made = createDiscoveryAgent(configFor(kind, server), QString());
        QVERIFY2(made, qPrintable(made.error));
        auto agent = std::move(*made.value);
        std::atomic_bool cancel = false;
        const AgentOutcome outcome = proposeAsync(*agent, sampleContext(), cancel);
        QVERIFY2(outcome.ok, qPrintable(outcome.error));
        QCOMPARE(server.requests().size(), 2);
        QCOMPARE(outcome.usage.retries, 1);
        QCOMPARE(outcome.usage.calls, 2);
        QVERIFY2(outcome.log.contains(QStringLiteral("Retry-After")), qPrintable(outcome.log));
        QVERIFY(outcome.log.contains(QStringLiteral("HTTP 429")));
        verifyNoKey(outcome);
    }

    void serverErrorsGiveUp_data() { success_data(); }
    void serverErrorsGiveUp()
    {
        QFETCH(QString, kind);
        ProviderStandIn server;
        QVERIFY(server.listen());
        server.setScript({StandInReply::json(500, providerError(kind, QStringLiteral("internal trouble")))});
        AgentConfig config = configFor(kind, server);
        config.maxRetries = 3;
        auto made = createDiscoveryAgent(config, QString());
        QVERIFY2(made, qPrintable(made.error));
        auto agent = std::move(*made.value);
        std::atomic_bool cancel = false;
        const AgentOutcome outcome = proposeAsync(*agent, sampleContext(), cancel);
        QVERIFY(!outcome.ok);
        QCOMPARE(server.requests().size(), 4);
        QCOMPARE(outcome.usage.retries, 3);
        QVERIFY2(outcome.error.contains(QStringLiteral("HTTP 500")), qPrintable(outcome.error));
        QVERIFY(outcome.error.contains(QStringLiteral("internal trouble")));
        QVERIFY(outcome.error.contains(QStringLiteral("3 retries")));
        verifyNoKey(outcome);
    }

    void networkErrorThenSuccess()
    {
        ProviderStandIn server;
        QVERIFY(server.listen());
        // Qt itself resends a request once or twice when a connection closes
        // before the answer, so the stand-in closes often enough to be seen.
        server.setScript({StandInReply::close(), StandInReply::close(), StandInReply::close(),
                          StandInReply::json(200, providerAnswer(QStringLiteral("openai"), kModel, kAnswer, 1, 2))});
        AgentConfig config = configFor(QStringLiteral("openai"), server);
        config.maxRetries = 6;
        auto made = createDiscoveryAgent(config, QString());
        QVERIFY2(made, qPrintable(made.error));
        auto agent = std::move(*made.value);
        std::atomic_bool cancel = false;
        const AgentOutcome outcome = proposeAsync(*agent, sampleContext(), cancel);
        QVERIFY2(outcome.ok, qPrintable(outcome.error));
        QVERIFY(outcome.usage.retries >= 1);
        QCOMPARE(outcome.usage.calls, outcome.usage.retries + 1);
        QVERIFY(outcome.log.contains(QStringLiteral("network error")));
    }

    void clientErrorFailsAtOnceWithoutTheKey_data() { success_data(); }
    void clientErrorFailsAtOnceWithoutTheKey()
    {
        QFETCH(QString, kind);
        ProviderStandIn server;
        QVERIFY(server.listen());
        // A provider that echoes the key it was given in its error message.
        server.setScript({StandInReply::json(401, providerError(kind, QStringLiteral("invalid key ") + kKey))});
        auto made = createDiscoveryAgent(configFor(kind, server), QString());
        QVERIFY2(made, qPrintable(made.error));
        auto agent = std::move(*made.value);
        std::atomic_bool cancel = false;
        const AgentOutcome outcome = proposeAsync(*agent, sampleContext(), cancel);
        QVERIFY(!outcome.ok);
        QCOMPARE(server.requests().size(), 1);
        QCOMPARE(outcome.usage.retries, 0);
        QVERIFY2(outcome.error.contains(QStringLiteral("HTTP 401")), qPrintable(outcome.error));
        QVERIFY(outcome.error.contains(QStringLiteral("invalid key")));
        verifyNoKey(outcome);
    }

    void truncatedJson()
    {
        ProviderStandIn server;
        QVERIFY(server.listen());
        server.setScript({StandInReply::raw(200, QByteArrayLiteral("{\"choices\":[{\"message\":{\"content\":\"```py\\nx=1"))});
        auto made = createDiscoveryAgent(configFor(QStringLiteral("openai"), server), QString());
        QVERIFY2(made, qPrintable(made.error));
        auto agent = std::move(*made.value);
        std::atomic_bool cancel = false;
        const AgentOutcome outcome = proposeAsync(*agent, sampleContext(), cancel);
        QVERIFY(!outcome.ok);
        QVERIFY2(outcome.error.contains(QStringLiteral("not a JSON object")), qPrintable(outcome.error));
    }

    void refusal_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QJsonObject>("answer");
        QTest::newRow("openai") << QStringLiteral("openai")
                                << QJsonObject{{QStringLiteral("model"), kModel},
                                               {QStringLiteral("choices"),
                                                QJsonArray{QJsonObject{
                                                    {QStringLiteral("message"),
                                                     QJsonObject{{QStringLiteral("role"), QStringLiteral("assistant")},
                                                                 {QStringLiteral("content"), QJsonValue::Null},
                                                                 {QStringLiteral("refusal"), QStringLiteral("I cannot help with that.")}}},
                                                    {QStringLiteral("finish_reason"), QStringLiteral("stop")}}}}};
        QTest::newRow("anthropic") << QStringLiteral("anthropic")
                                   << QJsonObject{{QStringLiteral("type"), QStringLiteral("message")},
                                                  {QStringLiteral("content"), QJsonArray{}},
                                                  {QStringLiteral("stop_reason"), QStringLiteral("refusal")},
                                                  {QStringLiteral("usage"), QJsonObject{{QStringLiteral("input_tokens"), 5},
                                                                                        {QStringLiteral("output_tokens"), 0}}}};
        QTest::newRow("gemini") << QStringLiteral("gemini")
                                << QJsonObject{{QStringLiteral("promptFeedback"),
                                                QJsonObject{{QStringLiteral("blockReason"), QStringLiteral("SAFETY")}}}};
    }
    void refusal()
    {
        QFETCH(QString, kind);
        QFETCH(QJsonObject, answer);
        ProviderStandIn server;
        QVERIFY(server.listen());
        server.setScript({StandInReply::json(200, answer)});
        auto made = createDiscoveryAgent(configFor(kind, server), QString());
        QVERIFY2(made, qPrintable(made.error));
        auto agent = std::move(*made.value);
        std::atomic_bool cancel = false;
        const AgentOutcome outcome = proposeAsync(*agent, sampleContext(), cancel);
        QVERIFY(!outcome.ok);
        QVERIFY2(outcome.error.contains(QStringLiteral("refused")), qPrintable(outcome.error));
        QCOMPARE(server.requests().size(), 1);
    }

    void hugeAnswer()
    {
        ProviderStandIn server;
        QVERIFY(server.listen());
        QString text = QStringLiteral("# A long proposal\n\n");
        for (int i = 0; i < 40000; ++i)
            text += QStringLiteral("Line %1 of the reasoning about the lattice.\n").arg(i);
        text += QStringLiteral("```python\nprint('huge')\n```\n");
        server.setScript({StandInReply::json(200, providerAnswer(QStringLiteral("anthropic"), kModel, text, 10, 400000))});
        auto made = createDiscoveryAgent(configFor(QStringLiteral("anthropic"), server), QString());
        QVERIFY2(made, qPrintable(made.error));
        auto agent = std::move(*made.value);
        std::atomic_bool cancel = false;
        const AgentOutcome outcome = proposeAsync(*agent, sampleContext(), cancel);
        QVERIFY2(outcome.ok, qPrintable(outcome.error));
        QCOMPARE(outcome.program, QStringLiteral("print('huge')\n"));
        QVERIFY(outcome.proposal.contains(QStringLiteral("Line 39999 of the reasoning")));
        QCOMPARE(outcome.usage.tokensOut, 400000);
    }

    void timeoutWhenTheServerHangs()
    {
        ProviderStandIn server;
        QVERIFY(server.listen());
        server.setScript({StandInReply::hang()});
        AgentConfig config = configFor(QStringLiteral("gemini"), server);
        config.timeoutMs = 1500;
        auto made = createDiscoveryAgent(config, QString());
        QVERIFY2(made, qPrintable(made.error));
        auto agent = std::move(*made.value);
        std::atomic_bool cancel = false;
        const AgentOutcome outcome = proposeAsync(*agent, sampleContext(), cancel);
        QVERIFY(!outcome.ok);
        QVERIFY(!outcome.cancelled);
        QVERIFY2(outcome.error.contains(QStringLiteral("time limit")), qPrintable(outcome.error));
        QCOMPARE(server.requests().size(), 1); // the time limit covers the whole call: no retry after it
        verifyNoKey(outcome);
    }

    void cancelMidRequest()
    {
        ProviderStandIn server;
        QVERIFY(server.listen());
        server.setScript({StandInReply::hang()});
        AgentConfig config = configFor(QStringLiteral("anthropic"), server);
        config.timeoutMs = 600000;
        auto made = createDiscoveryAgent(config, QString());
        QVERIFY2(made, qPrintable(made.error));
        auto agent = std::move(*made.value);
        std::atomic_bool cancel = false;
        const AgentOutcome outcome = proposeAsync(*agent, sampleContext(), cancel, [&] {
            QTRY_COMPARE_WITH_TIMEOUT(server.requests().size(), qsizetype(1), 20000);
            cancel = true;
        });
        QVERIFY(!outcome.ok);
        QVERIFY(outcome.cancelled);
        QCOMPARE(server.requests().size(), 1);
    }

    void cancelDuringBackoff()
    {
        ProviderStandIn server;
        QVERIFY(server.listen());
        server.setScript({StandInReply::json(503, providerError(QStringLiteral("openai"), QStringLiteral("busy")))
                              .withHeader("Retry-After", "3600")});
        AgentConfig config = configFor(QStringLiteral("openai"), server);
        config.timeoutMs = 24 * 3600 * 1000;
        auto made = createDiscoveryAgent(config, QString());
        QVERIFY2(made, qPrintable(made.error));
        auto agent = std::move(*made.value);
        std::atomic_bool cancel = false;
        const AgentOutcome outcome = proposeAsync(*agent, sampleContext(), cancel, [&] {
            QTRY_COMPARE_WITH_TIMEOUT(server.requests().size(), qsizetype(1), 20000);
            cancel = true;
        });
        QVERIFY(outcome.cancelled);
        QCOMPARE(server.requests().size(), 1);
    }

    void retryAfterPastTheTimeLimitGivesUp()
    {
        ProviderStandIn server;
        QVERIFY(server.listen());
        server.setScript({StandInReply::json(429, providerError(QStringLiteral("openai"), QStringLiteral("quota")))
                              .withHeader("Retry-After", "Wed, 21 Oct 2099 07:28:00 GMT")});
        AgentConfig config = configFor(QStringLiteral("openai"), server);
        auto made = createDiscoveryAgent(config, QString());
        QVERIFY2(made, qPrintable(made.error));
        auto agent = std::move(*made.value);
        std::atomic_bool cancel = false;
        const AgentOutcome outcome = proposeAsync(*agent, sampleContext(), cancel);
        QVERIFY(!outcome.ok);
        QCOMPARE(server.requests().size(), 1);
        QVERIFY2(outcome.error.contains(QStringLiteral("would pass the time limit")), qPrintable(outcome.error));
    }

    void keys()
    {
        // Hosted providers need a key; the error names the variable.
        const QByteArray saved = qgetenv("ANTHROPIC_API_KEY");
        qunsetenv("ANTHROPIC_API_KEY");
        SessionKeys::clear();
        AgentConfig config;
        config.kind = QStringLiteral("anthropic");
        QString error;
        error = createChatModel(config).error;
        QVERIFY(!error.isEmpty());
        QVERIFY2(error.contains(QStringLiteral("ANTHROPIC_API_KEY")), qPrintable(error));
        // A key typed in for the session, then one from the environment.
        SessionKeys::set(QStringLiteral("anthropic"), QStringLiteral("typed-key-1"));
        const auto typed = HttpChatModel::create(config);
        QVERIFY2(typed && (*typed.value)->hasKey(), qPrintable(typed.error));
        QCOMPARE((*typed.value)->endpoint(), QUrl(QStringLiteral("https://api.anthropic.com/v1/messages")));
        SessionKeys::clear();
        qputenv("ANTHROPIC_API_KEY", "env-key-1");
        QVERIFY(HttpChatModel::create(config));
        if (saved.isEmpty())
            qunsetenv("ANTHROPIC_API_KEY");
        else
            qputenv("ANTHROPIC_API_KEY", saved);

        // An OpenAI-compatible local server needs none, and gets no Authorization header.
        const QByteArray savedOpenAI = qgetenv("OPENAI_API_KEY");
        qunsetenv("OPENAI_API_KEY");
        ProviderStandIn server;
        QVERIFY(server.listen());
        server.setScript({StandInReply::json(200, providerAnswer(QStringLiteral("openai"), kModel, kAnswer, 3, 4))});
        AgentConfig local = configFor(QStringLiteral("openai"), server);
        local.apiKey.clear();
        auto agentMade = createDiscoveryAgent(local, QString());
        QVERIFY2(agentMade, qPrintable(agentMade.error));
        auto agent = std::move(*agentMade.value);
        std::atomic_bool cancel = false;
        const AgentOutcome outcome = proposeAsync(*agent, sampleContext(), cancel);
        QVERIFY2(outcome.ok, qPrintable(outcome.error));
        QVERIFY(!server.requests().first().headers.contains("authorization"));
        // The hosted OpenAI endpoint does need one.
        AgentConfig hosted;
        hosted.kind = QStringLiteral("openai");
        error = createChatModel(hosted).error;
        QVERIFY(!error.isEmpty());
        QVERIFY(error.contains(QStringLiteral("OPENAI_API_KEY")));
        if (!savedOpenAI.isEmpty())
            qputenv("OPENAI_API_KEY", savedOpenAI);

        // A malformed base URL is refused, naming it.
        AgentConfig bad = configFor(QStringLiteral("gemini"), server);
        bad.baseUrl = QStringLiteral("ftp://nowhere");
        error = createChatModel(bad).error;
        QVERIFY(!error.isEmpty());
        QVERIFY(error.contains(QStringLiteral("ftp://nowhere")));
    }

    void concurrentCallsOnOneAgent()
    {
        // W workers share one agent: each call has its own connection and event loop.
        ProviderStandIn server;
        QVERIFY(server.listen());
        server.setScript({StandInReply::json(200, providerAnswer(QStringLiteral("openai"), kModel, kAnswer, 7, 9))});
        auto made = createDiscoveryAgent(configFor(QStringLiteral("openai"), server), QString());
        QVERIFY2(made, qPrintable(made.error));
        auto agent = std::move(*made.value);
        std::atomic_bool cancel = false;
        QList<QFuture<AgentOutcome>> futures;
        for (int i = 0; i < 4; ++i)
            futures.append(QtConcurrent::run([&] { return agent->propose(sampleContext(), cancel); }));
        for (const auto &future : std::as_const(futures)) {
            QTRY_VERIFY_WITH_TIMEOUT(future.isFinished(), 60000);
            QVERIFY2(future.result().ok, qPrintable(future.result().error));
            QCOMPARE(future.result().program, QStringLiteral("import math\nprint(math.pi)\n"));
        }
        QCOMPARE(server.requests().size(), 4);
    }

    void defaultsPerProvider()
    {
        for (const QString &kind : {QStringLiteral("openai"), QStringLiteral("anthropic"), QStringLiteral("gemini")}) {
            const auto info = httpProviderInfo(kind);
            QVERIFY(info);
            QVERIFY(!info->defaultModel.isEmpty());
            QVERIFY(PriceTable::defaults().priceFor(info->defaultModel)); // every default model has a price
        }
        AgentConfig config;
        config.kind = QStringLiteral("gemini");
        config.apiKey = kKey;
        auto made = HttpChatModel::create(config);
        QVERIFY2(made, qPrintable(made.error));
        auto model = std::move(*made.value);
        QCOMPARE(model->endpoint().toString(),
                 QStringLiteral("https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-pro:generateContent"));
    }
};

QTEST_GUILESS_MAIN(TestAgentHttp)
#include "tst_agent_http.moc"
