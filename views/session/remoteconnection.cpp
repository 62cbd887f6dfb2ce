#include "remoteconnection.h"

#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <QNetworkProxy>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QPointer>
#include <QTimer>

namespace dreamrsi {

RemoteConnection::RemoteConnection(RemoteProject project, QByteArray steeringToken, QObject *parent)
    : QObject(parent)
    , m_project(std::move(project))
    , m_steeringToken(std::move(steeringToken))
    , m_net(new QNetworkAccessManager(this))
{
    // The server is reached directly or through `ssh -L`, never a proxy the
    // environment names (the token would pass through it).
    m_net->setProxy(QNetworkProxy::NoProxy);
}

RemoteConnection::~RemoteConnection() = default;

QString RemoteConnection::describeFailure(const QString &host, int status, const QByteArray &body, int networkError,
                                          const QString &networkErrorString)
{
    if (status == 0) {
        switch (QNetworkReply::NetworkError(networkError)) {
        case QNetworkReply::ConnectionRefusedError:
            return tr("Nothing answers at %1: is `dreamrsi serve` running there, and the port forwarded (ssh -L)?").arg(host);
        case QNetworkReply::HostNotFoundError:
            return tr("The host of %1 is not known").arg(host);
        case QNetworkReply::RemoteHostClosedError:
            return tr("%1 closed the connection").arg(host);
        case QNetworkReply::OperationCanceledError:
        case QNetworkReply::TimeoutError:
            return tr("%1 did not answer in time").arg(host);
        case QNetworkReply::SslHandshakeFailedError:
            return tr("%1: the TLS handshake failed (%2)").arg(host, networkErrorString);
        default:
            return tr("%1: %2").arg(host, networkErrorString);
        }
    }
    RemoteClient::Reply reply;
    reply.status = status;
    reply.body = body;
    const QString said = reply.errorMessage();
    if (status == 401)
        return tr("%1 refused the token (401): %2").arg(host, said);
    if (status == 403)
        return tr("%1 refused (403): %2").arg(host, said);
    if (status == 409)
        return tr("%1 refused (409): %2").arg(host, said);
    if (status == 503)
        return tr("%1 is busy (503): %2").arg(host, said);
    return tr("%1 answered %2: %3").arg(host).arg(status).arg(said);
}

void RemoteConnection::send(const QByteArray &method, const QString &path, const QByteArray &token, const QByteArray &body,
                            Answer answer, int timeoutMs)
{
    QUrl url = m_project.base;
    const qsizetype query = path.indexOf(QLatin1Char('?'));
    url.setPath(query < 0 ? path : path.left(query));
    if (query >= 0)
        url.setQuery(path.mid(query + 1));
    QNetworkRequest req(url);
    req.setRawHeader("Authorization", "Bearer " + token);
    req.setAttribute(QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::ManualRedirectPolicy);
    req.setTransferTimeout(timeoutMs);
    if (!body.isEmpty())
        req.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    QNetworkReply *reply = m_net->sendCustomRequest(req, method, body);
    const QString host = this->host();
    connect(reply, &QNetworkReply::finished, this, [reply, host, answer = std::move(answer)] {
        reply->deleteLater();
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        const QByteArray bytes = reply->readAll();
        if (status >= 200 && status < 300)
            return answer(Result<QByteArray>::success(bytes));
        answer(Result<QByteArray>::failure(describeFailure(host, status, bytes, int(reply->error()), reply->errorString())));
    });
}

void RemoteConnection::get(const QString &path, Answer answer, int timeoutMs)
{
    send("GET", path, m_project.token, {}, std::move(answer), timeoutMs);
}

namespace {
Result<QJsonObject> jsonOf(const QString &host, const QString &path, const Result<QByteArray> &body)
{
    if (!body)
        return body.failureAs<QJsonObject>();
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(*body.value, &error);
    if (!doc.isObject())
        return Result<QJsonObject>::failure(
            RemoteConnection::tr("%1%2: the answer is not a JSON object (%3)").arg(host, path, error.errorString()));
    return Result<QJsonObject>::success(doc.object());
}
} // namespace

void RemoteConnection::getJson(const QString &path, JsonAnswer answer, int timeoutMs)
{
    get(path, [host = host(), path, answer = std::move(answer)](Result<QByteArray> body) { answer(jsonOf(host, path, body)); },
        timeoutMs);
}

void RemoteConnection::post(const QString &path, const QJsonObject &body, JsonAnswer answer, int timeoutMs)
{
    if (m_steeringToken.isEmpty()) {
        // Said at once, on the next turn of the event loop, like any answer.
        QTimer::singleShot(0, this, [this, answer = std::move(answer)] {
            answer(Result<QJsonObject>::failure(
                tr("Connected to %1 without a steering token: reconnect with the token of --steering-token-file to steer or approve")
                    .arg(host())));
        });
        return;
    }
    send("POST", path, m_steeringToken, QJsonDocument(body).toJson(QJsonDocument::Compact),
         [host = host(), path, answer = std::move(answer)](Result<QByteArray> bytes) { answer(jsonOf(host, path, bytes)); },
         timeoutMs);
}

QNetworkReply *RemoteConnection::openStream(const QString &path, const QByteArray &lastEventId)
{
    QUrl url = m_project.base;
    const qsizetype query = path.indexOf(QLatin1Char('?'));
    url.setPath(query < 0 ? path : path.left(query));
    if (query >= 0)
        url.setQuery(path.mid(query + 1));
    QNetworkRequest req(url);
    req.setRawHeader("Authorization", "Bearer " + m_project.token);
    req.setRawHeader("Accept", "text/event-stream");
    if (!lastEventId.isEmpty())
        req.setRawHeader("Last-Event-ID", lastEventId);
    req.setAttribute(QNetworkRequest::CacheLoadControlAttribute, QNetworkRequest::AlwaysNetwork);
    return m_net->get(req);
}

} // namespace dreamrsi
