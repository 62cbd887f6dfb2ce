#pragma once

#include "agent.h"

#include <QByteArray>
#include <QUrl>

#include <memory>

namespace dreamrsi {

/// The fixed facts of one HTTP provider (docs/online.md#http-providers, the provider table).
struct HttpProviderInfo
{
    QString kind;            ///< "openai", "anthropic", "gemini"
    QString defaultBaseUrl;  ///< public endpoint, used when AgentConfig::baseUrl is empty
    QString defaultModel;    ///< used when AgentConfig::model is empty
    QString keyVariable;     ///< OPENAI_API_KEY, ANTHROPIC_API_KEY, GEMINI_API_KEY
    bool keyRequired = true; ///< false for openai (local servers need none), unless the base is the hosted one
};

/// The provider of `kind`; nullopt for any other kind.
std::optional<HttpProviderInfo> httpProviderInfo(const QString &kind);

/// A chat model behind an HTTP provider, on QNetworkAccessManager (no SDK).
///
/// Requests (docs/online.md#http-providers):
/// - openai:    POST {base}/chat/completions, `Authorization: Bearer KEY` (omitted without a key);
///              usage.prompt_tokens / usage.completion_tokens.
/// - anthropic: POST {base}/v1/messages, `x-api-key`, `anthropic-version: 2023-06-01`;
///              usage.input_tokens / usage.output_tokens.
/// - gemini:    POST {base}/v1beta/models/{model}:generateContent, `x-goog-api-key`;
///              usageMetadata.promptTokenCount / usageMetadata.candidatesTokenCount.
///
/// Promises of complete():
/// - blocking, on the calling thread (its own QNetworkAccessManager and a
///   local event loop per call), safe from several threads at once;
/// - `AgentConfig::timeoutMs` bounds the whole call, retries and waits
///   included; `cancel` is polled every 50 ms and aborts the request or the
///   wait at once (response.cancelled);
/// - 408, 429, 5xx and network errors are retried up to `maxRetries` times,
///   after the provider's `Retry-After` (seconds or HTTP date; also
///   `retry-after-ms`) or else an exponential back-off with jitter;
///   other 4xx fail at once with the provider's own error message;
/// - usage: tokens as reported, usd from PriceTable::current(), latency of
///   the whole call, retries and requests made;
/// - the key (AgentConfig::apiKey, else SessionKeys, else the environment
///   variable) is sent only in the provider's header; it never appears in
///   the error, the log or the text returned (any echo is replaced by "[key]").
class HttpChatModel final : public ChatModel
{
public:
    /// A failure for an unknown kind, a malformed base URL or a missing key
    /// where one is needed (naming the environment variable).
    static Result<std::unique_ptr<HttpChatModel>> create(const AgentConfig &config);

    QString kind() const override { return m_info.kind; }
    QString model() const override { return m_model; }
    ChatResponse complete(const ChatRequest &request, const std::atomic_bool &cancel) override;

    /// The URL requests go to.
    QUrl endpoint() const { return m_endpoint; }
    /// Whether a key will be sent.
    bool hasKey() const { return !m_key.isEmpty(); }

    /// What a request that costs no tokens found (docs/online.md#before-a-round-preflight-and-cost).
    struct Probe
    {
        bool reachable = false; ///< an HTTP answer came back
        bool accepted = false;  ///< 2xx: the endpoint answers and takes the key
        int status = 0;         ///< the HTTP status, 0 when none came
        QString detail;         ///< what was asked and what came back, never the key
    };
    /// Asks the provider's model list, the request that costs no tokens:
    /// GET {base}/models (openai), {base}/v1/models (anthropic),
    /// {base}/v1beta/models (gemini), with the provider's key header.
    /// Blocking, within `timeoutMs`; from any thread.
    Probe probe(int timeoutMs = 10000) const;

private:
    HttpChatModel() = default;
    QByteArray requestBody(const ChatRequest &request) const;
    QString hideKey(QString text) const;

    HttpProviderInfo m_info;
    AgentConfig m_config; ///< without the key
    QString m_model;
    QString m_key;
    QUrl m_endpoint;
    QString m_base; ///< the base URL, without a trailing '/'
    bool m_hostedOpenAI = false;
};

/// The factory entry of agentfactory.cpp: HttpChatModel::create for openai | anthropic | gemini.
Result<std::unique_ptr<ChatModel>> createHttpChatModel(const AgentConfig &config);

} // namespace dreamrsi
