#pragma once

#include "remote/remoteclient.h"

#include "base/result.h"

#include <QByteArray>
#include <QJsonObject>
#include <QObject>
#include <QString>

#include <functional>

class QNetworkAccessManager;
class QNetworkReply;

namespace dreamrsi {

/// A served project (docs/remote.md) read from the GUI thread without ever
/// blocking it: each request is answered later, by callback, on the thread
/// that owns the connection. What the window's remote project and its
/// follower ask through (RemoteClient is the blocking twin of the
/// commands). Every failure is a sentence a person can act on: nothing
/// answers at the address, the token is wrong (401), the token may not
/// steer (403), and the server's own message otherwise.
class RemoteConnection final : public QObject
{
    Q_OBJECT
public:
    /// `project.token` reads; `steeringToken`, when given, also steers
    /// (POST /api/v1/steer and /approve).
    RemoteConnection(RemoteProject project, QByteArray steeringToken = {}, QObject *parent = nullptr);
    ~RemoteConnection() override;

    const RemoteProject &project() const { return m_project; }
    /// "HOST:PORT".
    QString host() const { return m_project.host(); }
    bool canSteer() const { return !m_steeringToken.isEmpty(); }

    using Answer = std::function<void(Result<QByteArray>)>;
    using JsonAnswer = std::function<void(Result<QJsonObject>)>;

    /// GET `path` ("/api/v1/…"): the body of a 2xx answer, else a failure
    /// saying why. Answers that come after the connection is gone are dropped.
    void get(const QString &path, Answer answer, int timeoutMs = 60000);
    void getJson(const QString &path, JsonAnswer answer, int timeoutMs = 60000);
    /// POST a JSON body with the steering token (steer, approve): the
    /// answer's JSON object, or a failure with the server's reason (409
    /// refused, 403 no steering, 400 malformed).
    void post(const QString &path, const QJsonObject &body, JsonAnswer answer, int timeoutMs = 60000);

    /// Opens the event stream (GET `path` with Accept: text/event-stream and
    /// `lastEventId` when given); the caller reads and aborts the reply.
    QNetworkReply *openStream(const QString &path, const QByteArray &lastEventId = {});

    /// What a failed reply means, in words: an answer without a status (the
    /// network's error, nothing answering) or the status with the server's
    /// message.
    static QString describeFailure(const QString &host, int status, const QByteArray &body, int networkError,
                                   const QString &networkErrorString);

private:
    void send(const QByteArray &method, const QString &path, const QByteArray &token, const QByteArray &body, Answer answer,
              int timeoutMs);

    RemoteProject m_project;
    QByteArray m_steeringToken;
    QNetworkAccessManager *m_net = nullptr;
};

} // namespace dreamrsi
