#pragma once

#include "base/result.h"

#include "loop/round/roundliveness.h"
#include "remote/remoteaccess.h"
#include "store/storetypes.h"

#include <QAbstractHttpServer>
#include <QByteArray>
#include <QElapsedTimer>
#include <QHash>
#include <QList>
#include <QPointer>
#include <QThreadPool>
#include <QUrl>

#include <memory>

class QTcpServer;
class QTcpSocket;
class QTimer;

namespace dreamrsi {

/// What `dreamrsi serve` was asked for (docs/remote.md).
struct ServeOptions
{
    QString projectPath;
    RemoteAccess::ListenAddress listen;
    QByteArray readToken;         ///< every request needs it (or the steering token)
    QByteArray steeringToken;     ///< the write endpoints need it; empty: they answer 403
    QString tlsCert;              ///< PEM files; both or neither
    QString tlsKey;
    int maxClients = 32;          ///< connections at once, streams included
    int pollMs = 200;             ///< how often the stream looks at the project
    qint64 maxHeaderBytes = 16 * 1024;
    qint64 maxBodyBytes = 64 * 1024;
    int minEventGapMs = 1000;     ///< per stream client: attempts/state events at most this often
};

/// One project served over HTTP with the Qt HTTP Server module
/// (QAbstractHttpServer, its parser; the routing, limits and the stream
/// are ours): the endpoints of docs/remote.md, every request with a bearer
/// token compared in constant time. The project is read as a reader only
/// (ProjectReader, one per pool thread, never the writer's lock), so it
/// serves beside the process that writes it, across its rounds, resumes
/// and death. Steering goes to the round through the project's inbox as
/// `dreamrsi steer` sends it (sendSteeringRequest), approval as `dreamrsi
/// approve` makes it (runApproveCommand), each recorded with the client's
/// name and "via serve".
///
/// The stream (GET /api/v1/events) is Server-Sent Events: one poller looks
/// at the project every pollMs (the followed iteration: the newest running
/// one, else the newest), keeps that iteration's cells as events and sends
/// each stream client the ones after its cursor (`?iteration=N&after=SEQ`
/// or `Last-Event-ID: N:SEQ`), in seq order, none twice; running attempts,
/// stalls and state changes as they are seen.
class ProjectServer final : public QAbstractHttpServer
{
    Q_OBJECT
public:
    explicit ProjectServer(ServeOptions options, QObject *parent = nullptr);
    ~ProjectServer() override;

    /// Loads the TLS certificate and key (when given) and listens. The port
    /// listened on, or a failure saying why not.
    Result<quint16> start();
    /// http(s)://ADDR:PORT/ once started.
    QUrl url() const;
    /// Connections open now.
    int clientCount() const;

signals:
    /// What happened worth a line on stderr: refusals, write requests and
    /// their answers, streams opened and closed. Never a token.
    void logLine(const QString &line);

protected:
    bool handleRequest(const QHttpServerRequest &request, QTcpSocket *socket) override;
    void missingHandler(const QHttpServerRequest &request, QTcpSocket *socket) override;

private:
    struct Answer
    {
        int status = 200;
        QByteArray body;
        QByteArray type = QByteArrayLiteral("application/json");
    };
    struct StreamClient
    {
        QPointer<QTcpSocket> socket;
        IterationId iteration = 0; ///< the iteration its cursor is in; 0: the followed one
        bool told = false;         ///< the iteration event was sent
        qint64 lastSeq = -1;
        QElapsedTimer lastLive;    ///< when attempts/state were last sent
        bool livePending = false;  ///< attempts/state changed since
        QString lastState;         ///< the state it was told last
        QElapsedTimer lastWrite;
        bool approvalTold = false; ///< the approval event was sent once
        QString approvalKey;       ///< the wait it was told last ("" none)
    };
    struct Look;

    bool admit(QTcpSocket *socket);
    void guard(QTcpSocket *socket);
    void reject(QTcpSocket *socket, int status, const QString &message);
    void send(QTcpSocket *socket, const Answer &answer, bool close = false, const QByteArray &extraHeaders = {});
    void sendError(QTcpSocket *socket, int status, const QString &message, bool close = false,
                   const QByteArray &extraHeaders = {});
    /// Runs `work` on the reader pool and answers the socket with its result.
    void answerLater(QTcpSocket *socket, std::function<Answer()> work, bool close);
    void openStream(QTcpSocket *socket, IterationId iteration, qint64 afterSeq);
    void look();
    void took(const std::shared_ptr<Look> &look);
    void deliver(StreamClient &client);
    void sendLive(StreamClient &client);
    void writeEvent(StreamClient &client, const QByteArray &event);
    void housekeeping();

    ServeOptions m_options;
    QTcpServer *m_tcp = nullptr;
    QObject *m_guardContext = nullptr;
    QThreadPool m_pool;
    QTimer *m_poll = nullptr;
    QTimer *m_house = nullptr;
    QHash<QTcpSocket *, QByteArray> m_pending; ///< bytes of each connection's request under way (the limits)
    QHash<QTcpSocket *, QElapsedTimer> m_idle;  ///< since each connection's last request
    QList<QPointer<QTcpSocket>> m_clients;
    QList<StreamClient> m_streams;
    bool m_looking = false;
    // The followed iteration, as of the last look.
    IterationId m_followed = 0;
    IterationInfo m_followedInfo;
    QList<std::pair<qint64, QByteArray>> m_cells; ///< (seq, the event) in seq order
    StoredTimes m_stored;
    QByteArray m_liveEvents; ///< the liveness of the last look, as the attempts and state events' data
    QString m_state;
    QString m_liveKey;         ///< the state and attempts the last live event told
    QString m_approvalKey;     ///< the loop's wait for approval ("event:name"), "" when none waits
    QByteArray m_approvalEvent = "event: approval\ndata: {\"awaiting\":false}\n\n";
};

} // namespace dreamrsi
