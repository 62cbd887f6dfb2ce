#include "httpchatmodel.h"

#include "pricetable.h"
#include "sessionkeys.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QHostAddress>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>
#include <QNetworkAccessManager>
#include <QNetworkProxy>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QRandomGenerator>
#include <QTimer>

#include <algorithm>
#include <cmath>

namespace dreamrsi {

namespace {

constexpr qint64 kMaxResponseBytes = 64LL * 1024 * 1024; // a larger answer is refused, not buffered
constexpr int kMaxBackoffMs = 60000;
constexpr int kPollMs = 50;

/// What one HTTP request came back with.
struct Exchange
{
    int status = 0;              ///< HTTP status; 0 = no HTTP answer
    QByteArray body;
    QString networkError;        ///< set when status is 0 (or the transfer broke)
    std::optional<qint64> retryAfterMs;
    bool timedOut = false;
    bool cancelled = false;
    bool tooLarge = false;
    double seconds = 0.0;
};

std::optional<qint64> parseRetryAfter(const QNetworkReply *reply)
{
    const QByteArray ms = reply->rawHeader("retry-after-ms").trimmed();
    bool ok = false;
    if (!ms.isEmpty()) {
        const double v = ms.toDouble(&ok);
        if (ok && v >= 0)
            return qint64(v);
    }
    const QString value = QString::fromLatin1(reply->rawHeader("Retry-After")).trimmed();
    if (value.isEmpty())
        return std::nullopt;
    const double seconds = value.toDouble(&ok);
    if (ok && seconds >= 0)
        return qint64(seconds * 1000.0);
    QDateTime when = QDateTime::fromString(value, Qt::RFC2822Date);
    if (!when.isValid()) {
        // IMF-fixdate "Sun, 06 Nov 1994 08:49:37 GMT" in case the RFC 2822 reader refuses the zone name.
        QString bare = value;
        bare.remove(QLatin1String(" GMT"));
        when = QLocale::c().toDateTime(bare, QStringLiteral("ddd, dd MMM yyyy HH:mm:ss"));
        if (when.isValid())
            when.setTimeSpec(Qt::UTC);
    }
    if (!when.isValid())
        return std::nullopt;
    return std::max<qint64>(0, QDateTime::currentDateTimeUtc().msecsTo(when));
}

bool isLoopbackHost(const QString &host)
{
    if (host.compare(QLatin1String("localhost"), Qt::CaseInsensitive) == 0)
        return true;
    const QHostAddress address(host);
    return !address.isNull() && address.isLoopback();
}

/// One POST, blocking the calling thread in a local event loop.
Exchange post(QNetworkAccessManager &manager, const QNetworkRequest &request, const QByteArray &body,
              qint64 timeoutMs, const std::atomic_bool &cancel)
{
    Exchange ex;
    QElapsedTimer clock;
    clock.start();
    QNetworkReply *reply = manager.post(request, body);
    QEventLoop loop;
    QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    QObject::connect(reply, &QNetworkReply::downloadProgress, &loop, [&](qint64 received, qint64) {
        if (received > kMaxResponseBytes && !ex.tooLarge) {
            ex.tooLarge = true;
            reply->abort();
        }
    });
    QTimer poll;
    poll.setInterval(kPollMs);
    QObject::connect(&poll, &QTimer::timeout, &loop, [&] {
        if (cancel.load() && !ex.cancelled) {
            ex.cancelled = true;
            reply->abort();
        }
    });
    QTimer deadline;
    deadline.setSingleShot(true);
    QObject::connect(&deadline, &QTimer::timeout, &loop, [&] {
        if (!reply->isFinished()) {
            ex.timedOut = true;
            reply->abort();
        }
    });
    poll.start();
    deadline.start(int(std::clamp<qint64>(timeoutMs, 1, std::numeric_limits<int>::max())));
    if (cancel.load()) {
        ex.cancelled = true;
        reply->abort();
    }
    if (!reply->isFinished())
        loop.exec();
    poll.stop();
    deadline.stop();
    ex.seconds = double(clock.elapsed()) / 1000.0;
    ex.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    if (!ex.cancelled && !ex.timedOut && !ex.tooLarge) {
        ex.body = reply->readAll();
        if (reply->error() != QNetworkReply::NoError && ex.status == 0)
            ex.networkError = reply->errorString();
        else if (reply->error() != QNetworkReply::NoError && ex.status >= 200 && ex.status < 300)
            ex.networkError = reply->errorString(); // the transfer broke after the headers
        ex.retryAfterMs = parseRetryAfter(reply);
    }
    reply->deleteLater();
    return ex;
}

/// The provider's own words from an error body, else the body's start.
QString providerMessage(const QByteArray &body)
{
    const QJsonDocument doc = QJsonDocument::fromJson(body);
    if (doc.isObject()) {
        const QJsonObject obj = doc.object();
        const QJsonValue error = obj.value(QStringLiteral("error"));
        if (error.isObject()) {
            const QJsonObject e = error.toObject();
            QString message = e.value(QStringLiteral("message")).toString();
            const QString type = e.value(QStringLiteral("type")).toString(e.value(QStringLiteral("status")).toString());
            if (!type.isEmpty())
                message = message.isEmpty() ? type : QStringLiteral("%1 (%2)").arg(message, type);
            if (!message.isEmpty())
                return message;
        } else if (error.isString()) {
            return error.toString();
        }
        const QString message = obj.value(QStringLiteral("message")).toString();
        if (!message.isEmpty())
            return message;
    }
    QString text = QString::fromUtf8(body.left(400)).simplified();
    if (body.size() > 400)
        text += QStringLiteral(" …");
    return text.isEmpty() ? QStringLiteral("(empty body)") : text;
}

bool retryableStatus(int status)
{
    return status == 408 || status == 429 || (status >= 500 && status <= 599);
}

/// Text, usage and any refusal read from a successful answer.
struct ParsedReply
{
    bool ok = false;
    QString error;
    QString text;
    QString model;
    qint64 tokensIn = 0;
    qint64 tokensOut = 0;
};

QString joinTextParts(const QJsonArray &parts, const QString &textKey, bool skipThoughts)
{
    QString text;
    for (const QJsonValue &part : parts) {
        const QJsonObject p = part.toObject();
        if (skipThoughts && p.value(QStringLiteral("thought")).toBool())
            continue;
        const QString type = p.value(QStringLiteral("type")).toString();
        if (!type.isEmpty() && type != QLatin1String("text") && type != QLatin1String("output_text"))
            continue;
        text += p.value(textKey).toString();
    }
    return text;
}

ParsedReply parseOpenAI(const QJsonObject &obj)
{
    ParsedReply r;
    r.model = obj.value(QStringLiteral("model")).toString();
    const QJsonObject usage = obj.value(QStringLiteral("usage")).toObject();
    r.tokensIn = usage.value(QStringLiteral("prompt_tokens")).toInteger();
    r.tokensOut = usage.value(QStringLiteral("completion_tokens")).toInteger();
    const QJsonArray choices = obj.value(QStringLiteral("choices")).toArray();
    if (choices.isEmpty()) {
        r.error = obj.contains(QStringLiteral("error"))
                      ? QStringLiteral("the provider answered with an error: %1")
                            .arg(providerMessage(QJsonDocument(obj).toJson(QJsonDocument::Compact)))
                      : QStringLiteral("the answer has no 'choices'");
        return r;
    }
    const QJsonObject choice = choices.first().toObject();
    const QJsonObject message = choice.value(QStringLiteral("message")).toObject();
    const QJsonValue content = message.value(QStringLiteral("content"));
    r.text = content.isArray() ? joinTextParts(content.toArray(), QStringLiteral("text"), false) : content.toString();
    const QString refusal = message.value(QStringLiteral("refusal")).toString();
    const QString finish = choice.value(QStringLiteral("finish_reason")).toString();
    if (r.text.trimmed().isEmpty()) {
        if (!refusal.isEmpty())
            r.error = QStringLiteral("the model refused: %1").arg(refusal);
        else if (finish == QLatin1String("content_filter"))
            r.error = QStringLiteral("the model refused (finish_reason content_filter)");
        else if (finish == QLatin1String("length"))
            r.error = QStringLiteral("the answer is empty: the output token limit was reached first (finish_reason length)");
        else
            r.error = QStringLiteral("the answer is empty");
        return r;
    }
    r.ok = true;
    return r;
}

ParsedReply parseAnthropic(const QJsonObject &obj)
{
    ParsedReply r;
    r.model = obj.value(QStringLiteral("model")).toString();
    const QJsonObject usage = obj.value(QStringLiteral("usage")).toObject();
    r.tokensIn = usage.value(QStringLiteral("input_tokens")).toInteger();
    r.tokensOut = usage.value(QStringLiteral("output_tokens")).toInteger();
    if (obj.value(QStringLiteral("type")).toString() == QLatin1String("error")) {
        r.error = QStringLiteral("the provider answered with an error: %1")
                      .arg(providerMessage(QJsonDocument(obj).toJson(QJsonDocument::Compact)));
        return r;
    }
    if (!obj.value(QStringLiteral("content")).isArray()) {
        r.error = QStringLiteral("the answer has no 'content' array");
        return r;
    }
    r.text = joinTextParts(obj.value(QStringLiteral("content")).toArray(), QStringLiteral("text"), false);
    const QString stop = obj.value(QStringLiteral("stop_reason")).toString();
    if (stop == QLatin1String("refusal")) {
        r.error = r.text.trimmed().isEmpty() ? QStringLiteral("the model refused (stop_reason refusal)")
                                             : QStringLiteral("the model refused: %1").arg(r.text.trimmed().left(300));
        return r;
    }
    if (r.text.trimmed().isEmpty()) {
        r.error = stop == QLatin1String("max_tokens")
                      ? QStringLiteral("the answer is empty: the output token limit was reached first (stop_reason max_tokens)")
                      : QStringLiteral("the answer is empty");
        return r;
    }
    r.ok = true;
    return r;
}

ParsedReply parseGemini(const QJsonObject &obj)
{
    ParsedReply r;
    r.model = obj.value(QStringLiteral("modelVersion")).toString();
    const QJsonObject usage = obj.value(QStringLiteral("usageMetadata")).toObject();
    r.tokensIn = usage.value(QStringLiteral("promptTokenCount")).toInteger();
    r.tokensOut = usage.value(QStringLiteral("candidatesTokenCount")).toInteger();
    const QJsonArray candidates = obj.value(QStringLiteral("candidates")).toArray();
    if (candidates.isEmpty()) {
        const QString blocked =
            obj.value(QStringLiteral("promptFeedback")).toObject().value(QStringLiteral("blockReason")).toString();
        r.error = !blocked.isEmpty() ? QStringLiteral("the model refused: the prompt was blocked (%1)").arg(blocked)
                  : obj.contains(QStringLiteral("error"))
                      ? QStringLiteral("the provider answered with an error: %1")
                            .arg(providerMessage(QJsonDocument(obj).toJson(QJsonDocument::Compact)))
                      : QStringLiteral("the answer has no 'candidates'");
        return r;
    }
    const QJsonObject candidate = candidates.first().toObject();
    r.text = joinTextParts(candidate.value(QStringLiteral("content")).toObject().value(QStringLiteral("parts")).toArray(),
                           QStringLiteral("text"), true);
    const QString finish = candidate.value(QStringLiteral("finishReason")).toString();
    if (r.text.trimmed().isEmpty()) {
        if (finish == QLatin1String("SAFETY") || finish == QLatin1String("RECITATION")
            || finish == QLatin1String("PROHIBITED_CONTENT") || finish == QLatin1String("BLOCKLIST")
            || finish == QLatin1String("SPII"))
            r.error = QStringLiteral("the model refused (finishReason %1)").arg(finish);
        else if (finish == QLatin1String("MAX_TOKENS"))
            r.error = QStringLiteral("the answer is empty: the output token limit was reached first (finishReason MAX_TOKENS)");
        else
            r.error = QStringLiteral("the answer is empty");
        return r;
    }
    r.ok = true;
    return r;
}

QString stamp(const QElapsedTimer &clock)
{
    return QStringLiteral("[+%1s] ").arg(double(clock.elapsed()) / 1000.0, 0, 'f', 2);
}

/// The POST of a chat request to `endpoint`, with the provider kind's key header.
QNetworkRequest chatRequest(const QUrl &endpoint, const QString &kind, const QString &key)
{
    QNetworkRequest netRequest(endpoint);
    netRequest.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    netRequest.setRawHeader("Accept", "application/json");
    netRequest.setRawHeader("User-Agent", "dreamrsi-workbench");
    netRequest.setAttribute(QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::SameOriginRedirectPolicy);
    if (kind == QLatin1String("openai")) {
        if (!key.isEmpty())
            netRequest.setRawHeader("Authorization", "Bearer " + key.toUtf8());
    } else if (kind == QLatin1String("anthropic")) {
        netRequest.setRawHeader("x-api-key", key.toUtf8());
        netRequest.setRawHeader("anthropic-version", "2023-06-01");
    } else {
        netRequest.setRawHeader("x-goog-api-key", key.toUtf8());
    }
    return netRequest;
}

/// The log line of one request's exchange (1-based `request`).
QString exchangeLine(int request, const Exchange &ex)
{
    return QStringLiteral("request %1: %2 in %3 s, %4 bytes")
        .arg(request)
        .arg(ex.status > 0 ? QStringLiteral("HTTP %1").arg(ex.status)
                           : QStringLiteral("network error (%1)").arg(ex.networkError))
        .arg(ex.seconds, 0, 'f', 2)
        .arg(ex.body.size());
}

/// Takes a 2xx answer into `response` (text or error, model and tokens) and
/// logs it; the caller finishes the response.
void takeAnswer(const QString &kind, const Exchange &ex, const QElapsedTimer &clock, ChatResponse &response,
                QStringList &log)
{
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(ex.body, &parseError);
    if (!doc.isObject()) {
        response.error = QStringLiteral("the answer of %1 is not a JSON object (%2 at byte %3 of %4)")
                             .arg(kind, parseError.errorString())
                             .arg(parseError.offset)
                             .arg(ex.body.size());
        return;
    }
    const ParsedReply parsed = kind == QLatin1String("openai")      ? parseOpenAI(doc.object())
                               : kind == QLatin1String("anthropic") ? parseAnthropic(doc.object())
                                                                    : parseGemini(doc.object());
    if (!parsed.model.isEmpty())
        response.usage.model = parsed.model;
    response.usage.tokensIn += parsed.tokensIn;
    response.usage.tokensOut += parsed.tokensOut;
    log.append(stamp(clock) + QStringLiteral("answer from %1: %2 tokens in, %3 tokens out, %4 characters")
                                  .arg(response.usage.model)
                                  .arg(parsed.tokensIn)
                                  .arg(parsed.tokensOut)
                                  .arg(parsed.text.size()));
    if (!parsed.ok) {
        response.error = parsed.error;
        return;
    }
    response.ok = true;
    response.text = parsed.text;
}

/// The wait before retry `attempt` + 1: the server's Retry-After, else an
/// exponential backoff from `baseDelayMs` with jitter, at most kMaxBackoffMs.
qint64 retryWaitMs(const Exchange &ex, int baseDelayMs, int attempt)
{
    if (ex.retryAfterMs)
        return *ex.retryAfterMs;
    const double base = double(std::max(0, baseDelayMs)) * std::pow(2.0, attempt);
    const double jitter = 0.5 + QRandomGenerator::global()->generateDouble(); // 0.5 … 1.5
    return qint64(std::min(double(kMaxBackoffMs), base * jitter));
}

/// Waits `waitMs`, polling the cancel flag; true when cancelled.
bool waitUnlessCancelled(qint64 waitMs, const std::atomic_bool &cancel)
{
    QElapsedTimer waited;
    waited.start();
    QEventLoop loop;
    QTimer poll;
    QObject::connect(&poll, &QTimer::timeout, &loop, [&] {
        if (cancel.load() || waited.elapsed() >= waitMs)
            loop.quit();
    });
    poll.start(std::clamp<int>(int(waitMs), 1, kPollMs));
    if (!cancel.load() && waitMs > 0)
        loop.exec();
    return cancel.load();
}

} // namespace

std::optional<HttpProviderInfo> httpProviderInfo(const QString &kind)
{
    if (kind == QLatin1String("openai"))
        return HttpProviderInfo{kind, QStringLiteral("https://api.openai.com/v1"), QStringLiteral("gpt-4.1"),
                                QStringLiteral("OPENAI_API_KEY"), false};
    if (kind == QLatin1String("anthropic"))
        return HttpProviderInfo{kind, QStringLiteral("https://api.anthropic.com"), QStringLiteral("claude-sonnet-4-5"),
                                QStringLiteral("ANTHROPIC_API_KEY"), true};
    if (kind == QLatin1String("gemini"))
        return HttpProviderInfo{kind, QStringLiteral("https://generativelanguage.googleapis.com"),
                                QStringLiteral("gemini-2.5-pro"), QStringLiteral("GEMINI_API_KEY"), true};
    return std::nullopt;
}

Result<std::unique_ptr<HttpChatModel>> HttpChatModel::create(const AgentConfig &config)
{
    auto fail = [](const QString &message) { return Result<std::unique_ptr<HttpChatModel>>::failure(message); };
    const auto info = httpProviderInfo(config.kind);
    if (!info)
        return fail(QStringLiteral("'%1' is not an HTTP provider (expected openai, anthropic or gemini)").arg(config.kind));
    std::unique_ptr<HttpChatModel> model(new HttpChatModel);
    model->m_info = *info;
    model->m_config = config;
    model->m_config.apiKey.clear();
    model->m_model = config.model.trimmed().isEmpty() ? info->defaultModel : config.model.trimmed();

    QString base = config.baseUrl.trimmed().isEmpty() ? info->defaultBaseUrl : config.baseUrl.trimmed();
    while (base.endsWith(u'/'))
        base.chop(1);
    const QUrl baseUrl(base, QUrl::StrictMode);
    if (!baseUrl.isValid() || baseUrl.host().isEmpty()
        || (baseUrl.scheme() != QLatin1String("http") && baseUrl.scheme() != QLatin1String("https")))
        return fail(QStringLiteral("base URL '%1' for %2 is not an http(s) URL with a host").arg(base, info->kind));
    model->m_hostedOpenAI = info->kind == QLatin1String("openai") && base == info->defaultBaseUrl;
    model->m_base = base;
    if (info->kind == QLatin1String("openai"))
        model->m_endpoint = QUrl(base + QStringLiteral("/chat/completions"));
    else if (info->kind == QLatin1String("anthropic"))
        model->m_endpoint = QUrl(base + QStringLiteral("/v1/messages"));
    else
        model->m_endpoint = QUrl(base + QStringLiteral("/v1beta/models/")
                                 + QString::fromLatin1(QUrl::toPercentEncoding(model->m_model, "-._~"))
                                 + QStringLiteral(":generateContent"));

    QString key = config.apiKey.trimmed();
    if (key.isEmpty())
        key = SessionKeys::get(info->kind);
    if (key.isEmpty())
        key = qEnvironmentVariable(qPrintable(info->keyVariable)).trimmed();
    if (key.isEmpty() && (info->keyRequired || model->m_hostedOpenAI))
        return fail(QStringLiteral("no API key for %1: set the environment variable %2 (or type a key for this "
                                   "session in Settings)%3")
                        .arg(info->kind, info->keyVariable,
                             info->kind == QLatin1String("openai")
                                 ? QStringLiteral("; a local OpenAI-compatible server needs none: give its --base-url")
                                 : QString()));
    if (key.contains(u'\n') || key.contains(u'\r'))
        return fail(QStringLiteral("the API key for %1 contains a line break").arg(info->kind));
    model->m_key = key;
    return Result<std::unique_ptr<HttpChatModel>>::success(std::move(model));
}

HttpChatModel::Probe HttpChatModel::probe(int timeoutMs) const
{
    Probe probe;
    QString path = QStringLiteral("/models");
    if (m_info.kind == QLatin1String("anthropic"))
        path = QStringLiteral("/v1/models");
    else if (m_info.kind == QLatin1String("gemini"))
        path = QStringLiteral("/v1beta/models");
    const QUrl url(m_base + path);
    QNetworkRequest request(url);
    request.setRawHeader("Accept", "application/json");
    request.setRawHeader("User-Agent", "dreamrsi-workbench");
    if (m_info.kind == QLatin1String("openai")) {
        if (!m_key.isEmpty())
            request.setRawHeader("Authorization", "Bearer " + m_key.toUtf8());
    } else if (m_info.kind == QLatin1String("anthropic")) {
        request.setRawHeader("x-api-key", m_key.toUtf8());
        request.setRawHeader("anthropic-version", "2023-06-01");
    } else {
        request.setRawHeader("x-goog-api-key", m_key.toUtf8());
    }
    QNetworkAccessManager manager;
    if (isLoopbackHost(url.host()))
        manager.setProxy(QNetworkProxy::NoProxy);
    QNetworkReply *reply = manager.get(request);
    QEventLoop loop;
    QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    QTimer deadline;
    deadline.setSingleShot(true);
    bool timedOut = false;
    QObject::connect(&deadline, &QTimer::timeout, &loop, [&] {
        timedOut = true;
        reply->abort();
    });
    deadline.start(std::max(1, timeoutMs));
    if (!reply->isFinished())
        loop.exec();
    deadline.stop();
    probe.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    const QString what = QStringLiteral("GET %1").arg(url.toDisplayString());
    if (probe.status == 0) {
        probe.detail = timedOut ? QStringLiteral("%1: no answer within %2 s").arg(what).arg(timeoutMs / 1000.0)
                                : QStringLiteral("%1: unreachable (%2)").arg(what, reply->errorString());
    } else {
        probe.reachable = true;
        probe.accepted = probe.status >= 200 && probe.status < 300;
        QString models;
        if (probe.accepted) {
            const QJsonObject o = QJsonDocument::fromJson(reply->readAll()).object();
            const QJsonArray list = o.value(o.contains(QStringLiteral("models")) ? QStringLiteral("models") : QStringLiteral("data")).toArray();
            models = QStringLiteral(", %1 model%2 listed").arg(list.size()).arg(list.size() == 1 ? QString() : QStringLiteral("s"));
        } else if (probe.status == 401 || probe.status == 403) {
            models = QStringLiteral(": the key was refused");
        }
        probe.detail = QStringLiteral("%1: HTTP %2%3").arg(what).arg(probe.status).arg(models);
    }
    reply->deleteLater();
    probe.detail = hideKey(probe.detail);
    return probe;
}

QByteArray HttpChatModel::requestBody(const ChatRequest &request) const
{
    const int maxTokens = request.maxOutputTokens > 0 ? request.maxOutputTokens : m_config.maxOutputTokens;
    QJsonObject body;
    if (m_info.kind == QLatin1String("openai")) {
        QJsonArray messages;
        if (!request.system.isEmpty())
            messages.append(QJsonObject{{QStringLiteral("role"), QStringLiteral("system")},
                                        {QStringLiteral("content"), request.system}});
        messages.append(QJsonObject{{QStringLiteral("role"), QStringLiteral("user")},
                                    {QStringLiteral("content"), request.user}});
        body.insert(QStringLiteral("model"), m_model);
        body.insert(QStringLiteral("messages"), messages);
        // The hosted reasoning models take only max_completion_tokens and their
        // default temperature; compatible servers know max_tokens.
        const bool reasoning = m_hostedOpenAI
                               && (m_model.startsWith(u'o') || m_model.startsWith(QLatin1String("gpt-5")));
        body.insert(m_hostedOpenAI ? QStringLiteral("max_completion_tokens") : QStringLiteral("max_tokens"), maxTokens);
        if (!reasoning)
            body.insert(QStringLiteral("temperature"), request.temperature);
    } else if (m_info.kind == QLatin1String("anthropic")) {
        body.insert(QStringLiteral("model"), m_model);
        body.insert(QStringLiteral("max_tokens"), maxTokens);
        if (!request.system.isEmpty())
            body.insert(QStringLiteral("system"), request.system);
        body.insert(QStringLiteral("messages"),
                    QJsonArray{QJsonObject{{QStringLiteral("role"), QStringLiteral("user")},
                                           {QStringLiteral("content"), request.user}}});
        body.insert(QStringLiteral("temperature"), std::clamp(request.temperature, 0.0, 1.0));
    } else {
        if (!request.system.isEmpty())
            body.insert(QStringLiteral("systemInstruction"),
                        QJsonObject{{QStringLiteral("parts"),
                                     QJsonArray{QJsonObject{{QStringLiteral("text"), request.system}}}}});
        body.insert(QStringLiteral("contents"),
                    QJsonArray{QJsonObject{{QStringLiteral("role"), QStringLiteral("user")},
                                           {QStringLiteral("parts"),
                                            QJsonArray{QJsonObject{{QStringLiteral("text"), request.user}}}}}});
        body.insert(QStringLiteral("generationConfig"),
                    QJsonObject{{QStringLiteral("maxOutputTokens"), maxTokens},
                                {QStringLiteral("temperature"), request.temperature}});
    }
    return QJsonDocument(body).toJson(QJsonDocument::Compact);
}

QString HttpChatModel::hideKey(QString text) const
{
    if (m_key.size() >= 4)
        text.replace(m_key, QStringLiteral("[key]"));
    return text;
}

ChatResponse HttpChatModel::complete(const ChatRequest &request, const std::atomic_bool &cancel)
{
    QElapsedTimer clock;
    clock.start();
    ChatResponse response;
    response.usage.model = m_model;
    response.usage.calls = 0;
    QStringList log;
    const qint64 timeoutMs = std::max(1, m_config.timeoutMs);

    auto finish = [&](ChatResponse r) {
        r.usage.latencyS = double(clock.elapsed()) / 1000.0;
        // Priced as the model the answer names, else as the one asked for (a
        // server may answer with a build name the price table does not know).
        const PriceTable prices = PriceTable::current();
        r.usage.usd = prices.usd(prices.priceFor(r.usage.model) ? r.usage.model : m_model, r.usage.tokensIn,
                                 r.usage.tokensOut);
        if (!r.ok && !r.error.isEmpty())
            log.append(stamp(clock) + (r.cancelled ? QStringLiteral("cancelled") : QStringLiteral("failed: ") + r.error));
        r.log = hideKey(log.join(u'\n') + u'\n');
        r.error = hideKey(r.error);
        r.text = hideKey(r.text);
        return r;
    };
    auto cancelled = [&] {
        response.ok = false;
        response.cancelled = true;
        response.error = QStringLiteral("cancelled");
        return finish(response);
    };

    const QNetworkRequest netRequest = chatRequest(m_endpoint, m_info.kind, m_key);
    const QByteArray body = requestBody(request);

    QNetworkAccessManager manager;
    if (isLoopbackHost(m_endpoint.host()))
        manager.setProxy(QNetworkProxy::NoProxy);
    log.append(stamp(clock) + QStringLiteral("%1 model %2, POST %3, %4 bytes of request, time limit %5 s, at most %6 retries")
                                  .arg(m_info.kind, m_model, m_endpoint.toDisplayString())
                                  .arg(body.size())
                                  .arg(double(timeoutMs) / 1000.0)
                                  .arg(m_config.maxRetries));

    QString lastProblem;
    for (int attempt = 0;; ++attempt) {
        if (cancel.load())
            return cancelled();
        const qint64 remaining = timeoutMs - clock.elapsed();
        if (remaining <= 0) {
            response.error = QStringLiteral("no answer within the time limit of %1 s%2")
                                 .arg(double(timeoutMs) / 1000.0)
                                 .arg(lastProblem.isEmpty() ? QString() : QStringLiteral(" (last: %1)").arg(lastProblem));
            return finish(response);
        }
        const Exchange ex = post(manager, netRequest, body, remaining, cancel);
        ++response.usage.calls;
        if (ex.cancelled)
            return cancelled();
        if (ex.timedOut) {
            log.append(stamp(clock) + QStringLiteral("request %1: no complete answer after %2 s").arg(attempt + 1).arg(ex.seconds, 0, 'f', 2));
            response.error = QStringLiteral("%1 gave no answer within the time limit of %2 s")
                                 .arg(m_info.kind)
                                 .arg(double(timeoutMs) / 1000.0);
            if (response.usage.retries > 0)
                response.error += QStringLiteral(" (after %1 retries; last: %2)").arg(response.usage.retries).arg(lastProblem);
            return finish(response);
        }
        if (ex.tooLarge) {
            response.error = QStringLiteral("the answer of %1 is larger than %2 MiB; refused")
                                 .arg(m_info.kind)
                                 .arg(kMaxResponseBytes / (1024 * 1024));
            return finish(response);
        }
        log.append(stamp(clock) + exchangeLine(attempt + 1, ex));

        if (ex.status == 0 || (ex.status >= 200 && ex.status < 300 && !ex.networkError.isEmpty())) {
            lastProblem = QStringLiteral("network error: %1").arg(ex.networkError);
        } else if (ex.status >= 200 && ex.status < 300) {
            takeAnswer(m_info.kind, ex, clock, response, log);
            return finish(response);
        } else if (retryableStatus(ex.status)) {
            lastProblem = QStringLiteral("HTTP %1: %2").arg(ex.status).arg(providerMessage(ex.body));
        } else {
            response.error = QStringLiteral("%1 refused the request with HTTP %2: %3")
                                 .arg(m_info.kind)
                                 .arg(ex.status)
                                 .arg(providerMessage(ex.body));
            return finish(response);
        }

        // Retryable from here on.
        if (attempt >= m_config.maxRetries) {
            response.error = QStringLiteral("%1 failed after %2 %3: %4")
                                 .arg(m_info.kind)
                                 .arg(attempt + 1)
                                 .arg(attempt == 0 ? QStringLiteral("request") : QStringLiteral("requests (%1 retries)").arg(attempt))
                                 .arg(lastProblem);
            return finish(response);
        }
        const qint64 waitMs = retryWaitMs(ex, m_config.retryBaseDelayMs, attempt);
        if (clock.elapsed() + waitMs >= timeoutMs) {
            response.error = QStringLiteral("%1 failed: waiting %2 s before retry %3 would pass the time limit of %4 s "
                                            "(last: %5)")
                                 .arg(m_info.kind)
                                 .arg(double(waitMs) / 1000.0)
                                 .arg(attempt + 1)
                                 .arg(double(timeoutMs) / 1000.0)
                                 .arg(lastProblem);
            return finish(response);
        }
        log.append(stamp(clock) + QStringLiteral("retry %1 of %2 in %3 s%4 after %5")
                                      .arg(attempt + 1)
                                      .arg(m_config.maxRetries)
                                      .arg(double(waitMs) / 1000.0, 0, 'f', 2)
                                      .arg(ex.retryAfterMs ? QStringLiteral(" (Retry-After)") : QString())
                                      .arg(lastProblem));
        ++response.usage.retries;
        if (waitUnlessCancelled(waitMs, cancel))
            return cancelled();
    }
}

Result<std::unique_ptr<ChatModel>> createHttpChatModel(const AgentConfig &config)
{
    Result<std::unique_ptr<HttpChatModel>> model = HttpChatModel::create(config);
    if (!model)
        return model.failureAs<std::unique_ptr<ChatModel>>();
    return Result<std::unique_ptr<ChatModel>>::success(std::move(*model.value));
}

} // namespace dreamrsi
