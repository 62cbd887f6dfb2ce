#pragma once

// A stand-in for the HTTP providers of docs/online.md#http-providers, on 127.0.0.1 inside a
// test: it parses each request (method, path, headers, JSON body), records
// it, and plays a scripted reply (a status with headers and a body, a hang
// that never answers, or a connection closed without an answer), or the
// reply a responder function makes from the request (for a client that asks
// several things in an order of its own, like a coding agent's CLI).

#include <QByteArray>
#include <QHash>
#include <QHostAddress>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QPointer>
#include <QTcpServer>
#include <QTcpSocket>

#include <functional>

namespace dreamrsi::test {

struct StandInRequest
{
    QByteArray method;
    QByteArray path;
    QHash<QByteArray, QByteArray> headers; ///< names in lower case
    QByteArray body;
    QJsonObject json;
    bool jsonOk = false;
};

struct StandInReply
{
    enum class Mode { Answer, Hang, Close };
    Mode mode = Mode::Answer;
    int status = 200;
    QList<QPair<QByteArray, QByteArray>> headers;
    QByteArray body;

    static StandInReply json(int status, const QJsonObject &object)
    {
        StandInReply r;
        r.status = status;
        r.body = QJsonDocument(object).toJson(QJsonDocument::Compact);
        r.headers.append(qMakePair(QByteArray("Content-Type"), QByteArray("application/json")));
        return r;
    }
    static StandInReply raw(int status, QByteArray body)
    {
        StandInReply r;
        r.status = status;
        r.body = std::move(body);
        r.headers.append(qMakePair(QByteArray("Content-Type"), QByteArray("application/json")));
        return r;
    }
    /// A Server-Sent Events stream (the streamed Messages, Responses and
    /// streamGenerateContent APIs): each event as `event: NAME` (when
    /// given) and `data: JSON`, then a blank line.
    static StandInReply events(const QList<QPair<QByteArray, QJsonObject>> &events)
    {
        StandInReply r;
        for (const auto &[name, data] : events) {
            if (!name.isEmpty())
                r.body += "event: " + name + "\n";
            r.body += "data: " + QJsonDocument(data).toJson(QJsonDocument::Compact) + "\n\n";
        }
        r.headers.append(qMakePair(QByteArray("Content-Type"), QByteArray("text/event-stream")));
        r.headers.append(qMakePair(QByteArray("Cache-Control"), QByteArray("no-cache")));
        return r;
    }
    static StandInReply hang()
    {
        StandInReply r;
        r.mode = Mode::Hang;
        return r;
    }
    static StandInReply close()
    {
        StandInReply r;
        r.mode = Mode::Close;
        return r;
    }
    StandInReply &withHeader(QByteArray name, QByteArray value)
    {
        headers.append(qMakePair(std::move(name), std::move(value)));
        return *this;
    }
};

class ProviderStandIn final : public QObject
{
public:
    ProviderStandIn()
    {
        connect(&m_server, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket *socket = m_server.nextPendingConnection()) {
                m_sockets.append(socket);
                connect(socket, &QTcpSocket::readyRead, this, [this, socket] { onData(socket); });
            }
        });
    }
    ~ProviderStandIn() override
    {
        for (const QPointer<QTcpSocket> &s : std::as_const(m_sockets))
            if (s)
                s->abort();
    }

    bool listen() { return m_server.listen(QHostAddress::LocalHost, 0); }
    QString baseUrl() const { return QStringLiteral("http://127.0.0.1:%1").arg(m_server.serverPort()); }

    /// Replies in order; the last one repeats.
    void setScript(QList<StandInReply> script) { m_script = std::move(script); }
    /// Every reply made by `responder` from the request instead (on the
    /// stand-in's thread, as requests arrive).
    void setResponder(std::function<StandInReply(const StandInRequest &)> responder) { m_responder = std::move(responder); }
    const QList<StandInRequest> &requests() const { return m_requests; }

private:
    void onData(QTcpSocket *socket)
    {
        QByteArray &buffer = m_buffers[socket];
        buffer += socket->readAll();
        for (;;) {
            const qsizetype end = buffer.indexOf("\r\n\r\n");
            if (end < 0)
                return;
            StandInRequest request;
            const QList<QByteArray> lines = buffer.left(end).split('\n');
            const QList<QByteArray> first = lines.value(0).trimmed().split(' ');
            request.method = first.value(0);
            request.path = first.value(1);
            qsizetype length = 0;
            for (qsizetype i = 1; i < lines.size(); ++i) {
                const QByteArray line = lines.at(i).trimmed();
                const qsizetype colon = line.indexOf(':');
                if (colon <= 0)
                    continue;
                const QByteArray name = line.left(colon).trimmed().toLower();
                const QByteArray value = line.mid(colon + 1).trimmed();
                request.headers.insert(name, value);
                if (name == "content-length")
                    length = value.toLongLong();
            }
            if (buffer.size() < end + 4 + length)
                return;
            request.body = buffer.mid(end + 4, length);
            buffer.remove(0, end + 4 + length);
            QJsonParseError error;
            const QJsonDocument doc = QJsonDocument::fromJson(request.body, &error);
            request.jsonOk = doc.isObject();
            request.json = doc.object();
            const int index = int(m_requests.size());
            m_requests.append(request);
            if (m_responder)
                respond(socket, m_responder(request));
            else
                respond(socket, m_script.isEmpty() ? StandInReply::json(500, {})
                                                   : m_script.value(std::min<int>(index, int(m_script.size()) - 1)));
        }
    }

    void respond(QTcpSocket *socket, const StandInReply &reply)
    {
        if (reply.mode == StandInReply::Mode::Hang)
            return;
        if (reply.mode == StandInReply::Mode::Close) {
            socket->abort();
            return;
        }
        QByteArray head = "HTTP/1.1 " + QByteArray::number(reply.status) + " Stand-in\r\n";
        for (const auto &h : reply.headers)
            head += h.first + ": " + h.second + "\r\n";
        head += "Content-Length: " + QByteArray::number(reply.body.size()) + "\r\nConnection: close\r\n\r\n";
        socket->write(head + reply.body);
        socket->disconnectFromHost();
    }

    QTcpServer m_server;
    QList<QPointer<QTcpSocket>> m_sockets;
    QHash<QTcpSocket *, QByteArray> m_buffers;
    QList<StandInReply> m_script;
    std::function<StandInReply(const StandInRequest &)> m_responder;
    QList<StandInRequest> m_requests;
};

/// A successful answer in each provider's own format.
inline QJsonObject providerAnswer(const QString &kind, const QString &model, const QString &text, qint64 in, qint64 out)
{
    if (kind == QLatin1String("openai"))
        return QJsonObject{
            {QStringLiteral("id"), QStringLiteral("chatcmpl-1")},
            {QStringLiteral("object"), QStringLiteral("chat.completion")},
            {QStringLiteral("model"), model},
            {QStringLiteral("choices"),
             QJsonArray{QJsonObject{{QStringLiteral("index"), 0},
                                    {QStringLiteral("message"), QJsonObject{{QStringLiteral("role"), QStringLiteral("assistant")},
                                                                            {QStringLiteral("content"), text}}},
                                    {QStringLiteral("finish_reason"), QStringLiteral("stop")}}}},
            {QStringLiteral("usage"), QJsonObject{{QStringLiteral("prompt_tokens"), in},
                                                  {QStringLiteral("completion_tokens"), out},
                                                  {QStringLiteral("total_tokens"), in + out}}}};
    if (kind == QLatin1String("anthropic"))
        return QJsonObject{
            {QStringLiteral("id"), QStringLiteral("msg_1")},
            {QStringLiteral("type"), QStringLiteral("message")},
            {QStringLiteral("role"), QStringLiteral("assistant")},
            {QStringLiteral("model"), model},
            {QStringLiteral("content"),
             QJsonArray{QJsonObject{{QStringLiteral("type"), QStringLiteral("text")}, {QStringLiteral("text"), text}}}},
            {QStringLiteral("stop_reason"), QStringLiteral("end_turn")},
            {QStringLiteral("usage"), QJsonObject{{QStringLiteral("input_tokens"), in}, {QStringLiteral("output_tokens"), out}}}};
    return QJsonObject{
        {QStringLiteral("candidates"),
         QJsonArray{QJsonObject{
             {QStringLiteral("content"),
              QJsonObject{{QStringLiteral("role"), QStringLiteral("model")},
                          {QStringLiteral("parts"), QJsonArray{QJsonObject{{QStringLiteral("text"), text}}}}}},
             {QStringLiteral("finishReason"), QStringLiteral("STOP")}}}},
        {QStringLiteral("usageMetadata"), QJsonObject{{QStringLiteral("promptTokenCount"), in},
                                                      {QStringLiteral("candidatesTokenCount"), out},
                                                      {QStringLiteral("totalTokenCount"), in + out}}},
        {QStringLiteral("modelVersion"), model}};
}

/// An error body in each provider's own format.
inline QJsonObject providerError(const QString &kind, const QString &message)
{
    if (kind == QLatin1String("anthropic"))
        return QJsonObject{{QStringLiteral("type"), QStringLiteral("error")},
                           {QStringLiteral("error"), QJsonObject{{QStringLiteral("type"), QStringLiteral("api_error")},
                                                                 {QStringLiteral("message"), message}}}};
    if (kind == QLatin1String("gemini"))
        return QJsonObject{{QStringLiteral("error"), QJsonObject{{QStringLiteral("code"), 400},
                                                                 {QStringLiteral("message"), message},
                                                                 {QStringLiteral("status"), QStringLiteral("INVALID_ARGUMENT")}}}};
    return QJsonObject{{QStringLiteral("error"), QJsonObject{{QStringLiteral("message"), message},
                                                             {QStringLiteral("type"), QStringLiteral("invalid_request_error")}}}};
}

} // namespace dreamrsi::test
