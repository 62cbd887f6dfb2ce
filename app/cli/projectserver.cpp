// The server of `dreamrsi serve` (docs/remote.md): QAbstractHttpServer's
// parser under our routing, limits, tokens and Server-Sent Events.
#include "projectserver.h"

#include "projectreplaycommand.h"
#include "steercommand.h"

#include "loop/round/steeringinbox.h"
#include "model/treejson.h"
#include "remote/remoteapi.h"
#include "store/projectlock.h"
#include "store/projectreader.h"

#include <QFile>
#include <QHttpServerRequest>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QSslCertificate>
#include <QSslConfiguration>
#include <QSslKey>
#include <QSslServer>
#include <QSslSocket>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTextStream>
#include <QTimer>
#include <QUrlQuery>
#include <QtConcurrent>

#include <functional>

namespace dreamrsi {

namespace {

/// A listening socket that asks before handing a connection on: the server's
/// limit of clients and its guard of each request's size, installed before
/// QAbstractHttpServer sees the connection.
template<class Base>
class GuardedServer final : public Base
{
public:
    explicit GuardedServer(std::function<bool(QTcpSocket *)> admit, QObject *parent)
        : Base(parent)
        , m_admit(std::move(admit))
    {
    }
    QTcpSocket *nextPendingConnection() override
    {
        while (QTcpSocket *socket = Base::nextPendingConnection()) {
            if (m_admit(socket))
                return socket;
        }
        return nullptr;
    }

private:
    std::function<bool(QTcpSocket *)> m_admit;
};

QByteArray reasonOf(int status)
{
    switch (status) {
    case 200: return "OK";
    case 400: return "Bad Request";
    case 401: return "Unauthorized";
    case 403: return "Forbidden";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 408: return "Request Timeout";
    case 409: return "Conflict";
    case 411: return "Length Required";
    case 413: return "Payload Too Large";
    case 414: return "URI Too Long";
    case 415: return "Unsupported Media Type";
    case 431: return "Request Header Fields Too Large";
    case 500: return "Internal Server Error";
    case 503: return "Service Unavailable";
    default: return "Status";
    }
}

QByteArray compact(const QJsonObject &o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

/// This pool thread's reader of the project, opened on first use and again
/// after a failed read (the file may have been replaced).
struct ThreadReader
{
    QString path;
    std::unique_ptr<ProjectReader> reader;
};

thread_local ThreadReader threadReader;

Result<ProjectReader *> readerFor(const QString &path)
{
    // A copy of an older project upgraded in memory does not see what is
    // written later: once the file changed (a round upgraded it), read it anew.
    if (!threadReader.reader || threadReader.path != path || threadReader.reader->outdatedCopy()) {
        StoreResult<std::unique_ptr<ProjectReader>> opened = ProjectReader::open(path);
        if (!opened)
            return opened.failureAs<ProjectReader *>();
        threadReader.reader = std::move(*opened.value);
        threadReader.path = path;
    }
    return Result<ProjectReader *>::success(threadReader.reader.get());
}

/// After a failed read: the next read on this thread opens the project again.
void forgetReader()
{
    threadReader.reader.reset();
}

/// Whether a read's failure says that what was asked does not exist (404) rather than that reading failed.
bool notFound(const QString &error)
{
    return error.contains(QLatin1String("no iteration"), Qt::CaseInsensitive)
           || error.contains(QLatin1String("not found"), Qt::CaseInsensitive)
           || error.contains(QLatin1String("no such"), Qt::CaseInsensitive)
           || error.contains(QLatin1String("does not exist"), Qt::CaseInsensitive)
           || error.contains(QLatin1String("missing"), Qt::CaseInsensitive);
}

/// A name a client sends for itself: printable, at most 100 characters.
QString whyNotName(const QString &who)
{
    if (who.trimmed().isEmpty())
        return QStringLiteral("\"who\" is missing: the name of the person asking, recorded with the request");
    if (who.size() > 100)
        return QStringLiteral("\"who\" is longer than 100 characters");
    for (const QChar c : who) {
        if (c.category() == QChar::Other_Control)
            return QStringLiteral("\"who\" holds a control character");
    }
    return {};
}

} // namespace

struct ProjectServer::Look
{
    QString error;
    IterationId target = 0;
    IterationInfo info;
    bool fresh = false;       ///< `cells` are all of `target`'s (it was not followed before)
    QList<Cell> cells;        ///< after the last seq seen, or all when fresh
    std::optional<LiveRound> live;
    bool writerAlive = false;
    std::optional<SteeringLive> approval; ///< a loop waits for approval (docs/steering.md#the-loops-approval-gate)
};

ProjectServer::ProjectServer(ServeOptions options, QObject *parent)
    : QAbstractHttpServer(parent)
    , m_options(std::move(options))
    , m_guardContext(new QObject(this))
    , m_poll(new QTimer(this))
    , m_house(new QTimer(this))
{
    m_pool.setMaxThreadCount(4);
    m_pool.setExpiryTimeout(-1); // keep the threads, and with them their readers
    connect(m_poll, &QTimer::timeout, this, &ProjectServer::look);
    connect(m_house, &QTimer::timeout, this, &ProjectServer::housekeeping);
}

ProjectServer::~ProjectServer()
{
    m_poll->stop();
    m_pool.waitForDone();
}

Result<quint16> ProjectServer::start()
{
    using R = Result<quint16>;
    const bool tls = !m_options.tlsCert.isEmpty();
    auto admit = [this](QTcpSocket *socket) { return this->admit(socket); };
    if (tls) {
        QFile certFile(m_options.tlsCert);
        if (!certFile.open(QIODevice::ReadOnly))
            return R::failure(QStringLiteral("--tls-cert %1: cannot read it (%2)").arg(m_options.tlsCert, certFile.errorString()));
        const QList<QSslCertificate> chain = QSslCertificate::fromData(certFile.readAll(), QSsl::Pem);
        if (chain.isEmpty())
            return R::failure(QStringLiteral("--tls-cert %1: no PEM certificate in it").arg(m_options.tlsCert));
        QFile keyFile(m_options.tlsKey);
        if (!keyFile.open(QIODevice::ReadOnly))
            return R::failure(QStringLiteral("--tls-key %1: cannot read it (%2)").arg(m_options.tlsKey, keyFile.errorString()));
        const QByteArray keyData = keyFile.readAll();
        QSslKey key(keyData, QSsl::Rsa, QSsl::Pem);
        if (key.isNull())
            key = QSslKey(keyData, QSsl::Ec, QSsl::Pem);
        if (key.isNull())
            return R::failure(QStringLiteral("--tls-key %1: no unencrypted PEM RSA or EC private key in it").arg(m_options.tlsKey));
        QSslConfiguration config = QSslConfiguration::defaultConfiguration();
        config.setLocalCertificateChain(chain);
        config.setPrivateKey(key);
        config.setPeerVerifyMode(QSslSocket::VerifyNone);
        auto *server = new GuardedServer<QSslServer>(admit, this);
        server->setSslConfiguration(config);
        m_tcp = server;
    } else {
        m_tcp = new GuardedServer<QTcpServer>(admit, this);
    }
    m_tcp->setMaxPendingConnections(m_options.maxClients + 8);
    if (!m_tcp->listen(m_options.listen.address, m_options.listen.port))
        return R::failure(QStringLiteral("cannot listen on %1: %2").arg(m_options.listen.text, m_tcp->errorString()));
    bind(m_tcp);
    m_poll->start(m_options.pollMs);
    m_house->start(1000);
    look();
    return R::success(m_tcp->serverPort());
}

QUrl ProjectServer::url() const
{
    QUrl url;
    url.setScheme(m_options.tlsCert.isEmpty() ? QStringLiteral("http") : QStringLiteral("https"));
    url.setHost(m_options.listen.address.toString());
    url.setPort(m_tcp ? m_tcp->serverPort() : m_options.listen.port);
    url.setPath(QStringLiteral("/"));
    return url;
}

int ProjectServer::clientCount() const
{
    int n = 0;
    for (const QPointer<QTcpSocket> &s : m_clients)
        n += (s && s->state() != QAbstractSocket::UnconnectedState) ? 1 : 0;
    return n;
}

// ---- connections and their limits ----

bool ProjectServer::admit(QTcpSocket *socket)
{
    if (clientCount() >= m_options.maxClients) {
        emit logLine(QStringLiteral("refused a connection from %1: %2 clients already")
                         .arg(socket->peerAddress().toString())
                         .arg(m_options.maxClients));
        sendError(socket, 503, QStringLiteral("the server has %1 clients already; try again later").arg(m_options.maxClients),
                  true);
        connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
        return false;
    }
    m_clients.append(socket);
    m_idle[socket].start();
    connect(socket, &QObject::destroyed, m_guardContext, [this, socket] {
        m_pending.remove(socket);
        m_idle.remove(socket);
        m_clients.removeIf([](const QPointer<QTcpSocket> &s) { return s.isNull(); });
    });
    // Ahead of QAbstractHttpServer's own reader of the socket, connected after this returns.
    connect(socket, &QTcpSocket::readyRead, m_guardContext, [this, socket] { guard(socket); });
    return true;
}

void ProjectServer::guard(QTcpSocket *socket)
{
    for (const StreamClient &c : std::as_const(m_streams)) {
        if (c.socket == socket) {
            socket->readAll(); // a stream's client has nothing more to say
            return;
        }
    }
    // QAbstractHttpServer reads what arrives each time; what is available now is new.
    QByteArray &pending = m_pending[socket];
    pending += socket->peek(socket->bytesAvailable());
    const qsizetype end = pending.indexOf("\r\n\r\n");
    if (end < 0) {
        if (pending.size() > m_options.maxHeaderBytes)
            reject(socket, 431, QStringLiteral("the request's header is longer than %1 bytes").arg(m_options.maxHeaderBytes));
        return;
    }
    if (end > m_options.maxHeaderBytes) {
        reject(socket, 431, QStringLiteral("the request's header is longer than %1 bytes").arg(m_options.maxHeaderBytes));
        return;
    }
    const QList<QByteArray> lines = pending.left(end).split('\n');
    static const QRegularExpression requestLine(QStringLiteral("^[A-Z]{1,16} /[\\x21-\\x7e]* HTTP/1\\.[01]\\r?$"));
    if (!requestLine.match(QString::fromLatin1(lines.first())).hasMatch()) {
        reject(socket, 400, QStringLiteral("malformed request line (expected METHOD /PATH HTTP/1.1)"));
        return;
    }
    qint64 length = 0;
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const QByteArray line = lines.at(i).endsWith('\r') ? lines.at(i).chopped(1) : lines.at(i);
        const qsizetype colon = line.indexOf(':');
        if (colon <= 0 || line.left(colon).contains(' ') || line.left(colon).contains('\t')) {
            reject(socket, 400, QStringLiteral("malformed header line %1").arg(i + 1));
            return;
        }
        const QByteArray name = line.left(colon).toLower();
        const QByteArray value = line.mid(colon + 1).trimmed();
        if (name == "transfer-encoding") {
            reject(socket, 411, QStringLiteral("send the body with a Content-Length; chunked bodies are not taken"));
            return;
        }
        if (name == "content-length") {
            bool ok = false;
            length = value.toLongLong(&ok);
            if (!ok || length < 0) {
                reject(socket, 400, QStringLiteral("Content-Length is not a number of bytes"));
                return;
            }
        }
    }
    if (length > m_options.maxBodyBytes)
        reject(socket, 413, QStringLiteral("the body has %1 bytes; at most %2 are taken").arg(length).arg(m_options.maxBodyBytes));
}

void ProjectServer::reject(QTcpSocket *socket, int status, const QString &message)
{
    emit logLine(QStringLiteral("%1 from %2: %3").arg(status).arg(socket->peerAddress().toString(), message));
    // QAbstractHttpServer reads this socket no more: what it holds is refused.
    disconnect(socket, &QTcpSocket::readyRead, this, nullptr);
    disconnect(socket, &QTcpSocket::readyRead, m_guardContext, nullptr);
    m_pending.remove(socket);
    sendError(socket, status, message, true);
}

void ProjectServer::send(QTcpSocket *socket, const Answer &answer, bool close, const QByteArray &extraHeaders)
{
    if (!socket || socket->state() != QAbstractSocket::ConnectedState)
        return;
    QByteArray head = "HTTP/1.1 " + QByteArray::number(answer.status) + ' ' + reasonOf(answer.status) + "\r\n";
    head += "Content-Type: " + answer.type + "\r\n";
    head += "Content-Length: " + QByteArray::number(answer.body.size()) + "\r\n";
    head += "Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\n";
    if (close)
        head += "Connection: close\r\n";
    head += extraHeaders;
    head += "\r\n";
    socket->write(head + answer.body);
    if (close)
        socket->disconnectFromHost();
}

void ProjectServer::sendError(QTcpSocket *socket, int status, const QString &message, bool close, const QByteArray &extraHeaders)
{
    send(socket, Answer{status, compact(RemoteApi::error(status, message)) + '\n', "application/json"}, close, extraHeaders);
}

void ProjectServer::housekeeping()
{
    // Connections that went quiet for a minute without a stream are closed;
    // streams get a comment line every 15 s so that proxies keep them.
    for (auto it = m_idle.begin(); it != m_idle.end(); ++it) {
        QTcpSocket *socket = it.key();
        const bool streaming = std::any_of(m_streams.cbegin(), m_streams.cend(), [&](const StreamClient &c) { return c.socket == socket; });
        if (!streaming && it.value().hasExpired(60000) && socket->state() == QAbstractSocket::ConnectedState)
            socket->disconnectFromHost();
    }
    m_streams.removeIf([](const StreamClient &c) { return c.socket.isNull() || c.socket->state() != QAbstractSocket::ConnectedState; });
    for (StreamClient &c : m_streams) {
        if (c.livePending)
            sendLive(c);
        if (c.lastWrite.hasExpired(15000))
            writeEvent(c, QByteArrayLiteral(": keep-alive\n\n"));
    }
}

// ---- requests ----

void ProjectServer::missingHandler(const QHttpServerRequest &, QTcpSocket *socket)
{
    sendError(socket, 404, QStringLiteral("no such path"));
}

bool ProjectServer::handleRequest(const QHttpServerRequest &request, QTcpSocket *socket)
{
    m_pending.remove(socket);
    if (m_idle.contains(socket))
        m_idle[socket].restart();
    const bool close = request.value("connection").toLower() == "close";
    const QString path = request.url().path(QUrl::FullyEncoded);
    const QHttpServerRequest::Method method = request.method();
    const QString peer = socket->peerAddress().toString();

    // Who asks: every path needs a token; the write endpoints the steering token.
    const QByteArray given = RemoteAccess::bearerOf(request.value("authorization"));
    const bool steering = RemoteAccess::sameToken(given, m_options.steeringToken);
    const bool reading = steering | RemoteAccess::sameToken(given, m_options.readToken);
    if (!reading) {
        emit logLine(QStringLiteral("401 %1: %2").arg(peer, given.isEmpty() ? QStringLiteral("no bearer token") : QStringLiteral("a wrong token")));
        sendError(socket, 401,
                  given.isEmpty() ? QStringLiteral("this server needs a token: send Authorization: Bearer TOKEN")
                                  : QStringLiteral("the token is wrong"),
                  close, "WWW-Authenticate: Bearer realm=\"dreamrsi\"\r\n");
        return true;
    }

    const QString prefix = QString::fromLatin1(RemoteApi::Prefix);
    if (path.contains(QLatin1String("..")) || path.contains(QLatin1String("//")) || path.contains(QLatin1Char('\\'))
        || path.contains(QLatin1String("%2e"), Qt::CaseInsensitive) || path.contains(QLatin1String("%2f"), Qt::CaseInsensitive)
        || path.contains(QLatin1String("%00"))) {
        sendError(socket, 400, QStringLiteral("the path '%1' leaves the API (.., //, \\ or an encoded / . or NUL)").arg(path), close);
        return true;
    }
    if (!path.startsWith(prefix + QLatin1Char('/'))) {
        sendError(socket, 404, QStringLiteral("no such path '%1'; every path begins with %2/ (docs/remote.md)").arg(path, prefix), close);
        return true;
    }
    const QStringList parts = path.mid(prefix.size() + 1).split(QLatin1Char('/'));
    const QUrlQuery query = request.query();
    auto wrongMethod = [&](const char *allowed) {
        sendError(socket, 405, QStringLiteral("%1 takes %2 only").arg(path, QString::fromLatin1(allowed)), close,
                  QByteArray("Allow: ") + allowed + "\r\n");
        return true;
    };
    const QString projectPath = m_options.projectPath;
    auto readJson = [projectPath](std::function<Result<QJsonObject>(ProjectReader &)> read) -> Answer {
        const Result<ProjectReader *> reader = readerFor(projectPath);
        if (!reader)
            return Answer{503, compact(RemoteApi::error(503, QStringLiteral("cannot read the project: ") + reader.error)) + '\n'};
        const Result<QJsonObject> body = read(**reader.value);
        if (!body) {
            forgetReader();
            const int status = notFound(body.error) ? 404 : 503;
            return Answer{status, compact(RemoteApi::error(status, body.error)) + '\n'};
        }
        return Answer{200, compact(*body.value) + '\n'};
    };

    // GET /project, /status, /replay-results, /events
    if (parts.size() == 1 && parts.first() == QLatin1String("project")) {
        if (method != QHttpServerRequest::Method::Get)
            return wrongMethod("GET");
        answerLater(socket, [readJson] { return readJson([](ProjectReader &r) { return RemoteApi::project(r); }); }, close);
        return true;
    }
    if (parts.size() == 1 && parts.first() == QLatin1String("status")) {
        if (method != QHttpServerRequest::Method::Get)
            return wrongMethod("GET");
        answerLater(socket, [projectPath]() -> Answer {
            const Result<QList<IterationLiveness>> status = RoundLiveness::status(projectPath);
            if (!status)
                return Answer{503, compact(RemoteApi::error(503, status.error)) + '\n'};
            return Answer{200, QJsonDocument(RemoteApi::status(*status.value)).toJson(QJsonDocument::Indented)};
        }, close);
        return true;
    }
    if (parts.size() == 1 && parts.first() == QLatin1String("replay-results")) {
        if (method != QHttpServerRequest::Method::Get)
            return wrongMethod("GET");
        PolicyVersionId version = 0;
        if (query.hasQueryItem(QStringLiteral("version"))) {
            bool ok = false;
            version = query.queryItemValue(QStringLiteral("version")).toLongLong(&ok);
            if (!ok || version < 1) {
                sendError(socket, 400, QStringLiteral("version must be a policy version's id (a number > 0)"), close);
                return true;
            }
        }
        answerLater(socket, [readJson, version] { return readJson([version](ProjectReader &r) { return RemoteApi::replayResults(r, version); }); }, close);
        return true;
    }
    if (parts.size() == 1 && parts.first() == QLatin1String("events")) {
        if (method != QHttpServerRequest::Method::Get)
            return wrongMethod("GET");
        IterationId iteration = 0;
        qint64 after = -1;
        const QByteArray lastId = request.value("last-event-id");
        static const QRegularExpression cursor(QStringLiteral("^(\\d+):(-?\\d+)$"));
        if (const QRegularExpressionMatch m = cursor.match(QString::fromLatin1(lastId)); m.hasMatch()) {
            iteration = m.captured(1).toLongLong();
            after = m.captured(2).toLongLong();
        } else if (!lastId.isEmpty()) {
            sendError(socket, 400, QStringLiteral("Last-Event-ID must be ITERATION:SEQ, as the events' ids are"), close);
            return true;
        }
        if (query.hasQueryItem(QStringLiteral("iteration")) || query.hasQueryItem(QStringLiteral("after"))) {
            bool ok1 = true, ok2 = true;
            iteration = query.hasQueryItem(QStringLiteral("iteration")) ? query.queryItemValue(QStringLiteral("iteration")).toLongLong(&ok1) : 0;
            after = query.hasQueryItem(QStringLiteral("after")) ? query.queryItemValue(QStringLiteral("after")).toLongLong(&ok2) : -1;
            if (!ok1 || !ok2 || iteration < 0 || after < -1) {
                sendError(socket, 400, QStringLiteral("iteration must be an iteration's id and after a seq (a number ≥ -1)"), close);
                return true;
            }
        }
        openStream(socket, iteration, after);
        return true;
    }
    if (parts.size() == 2 && parts.first() == QLatin1String("artifacts")) {
        if (method != QHttpServerRequest::Method::Get)
            return wrongMethod("GET");
        const QString hash = parts.at(1);
        if (!RemoteApi::isArtifactHash(hash)) {
            sendError(socket, 400, QStringLiteral("'%1' is not an artifact's hash (64 lowercase hex digits)").arg(hash.left(80)), close);
            return true;
        }
        answerLater(socket, [projectPath, hash]() -> Answer {
            const Result<ProjectReader *> reader = readerFor(projectPath);
            if (!reader)
                return Answer{503, compact(RemoteApi::error(503, reader.error)) + '\n'};
            const StoreResult<QByteArray> bytes = (*reader.value)->readArtifact(hash);
            if (!bytes)
                return Answer{404, compact(RemoteApi::error(404, bytes.error)) + '\n'};
            return Answer{200, *bytes.value, "application/octet-stream"};
        }, close);
        return true;
    }
    if (parts.size() == 3 && parts.first() == QLatin1String("iterations")) {
        bool ok = false;
        const IterationId iteration = parts.at(1).toLongLong(&ok);
        if (!ok || iteration < 1) {
            sendError(socket, 400, QStringLiteral("'%1' is not an iteration's id (a number ≥ 1)").arg(parts.at(1).left(40)), close);
            return true;
        }
        if (parts.at(2) == QLatin1String("tree")) {
            if (method != QHttpServerRequest::Method::Get)
                return wrongMethod("GET");
            answerLater(socket, [projectPath, iteration]() -> Answer {
                const Result<ProjectReader *> reader = readerFor(projectPath);
                if (!reader)
                    return Answer{503, compact(RemoteApi::error(503, reader.error)) + '\n'};
                const Result<QByteArray> tree = RemoteApi::tree(**reader.value, iteration);
                if (!tree) {
                    const int status = notFound(tree.error) ? 404 : 409;
                    return Answer{status, compact(RemoteApi::error(status, tree.error)) + '\n'};
                }
                return Answer{200, *tree.value};
            }, close);
            return true;
        }
        if (parts.at(2) == QLatin1String("cells")) {
            if (method != QHttpServerRequest::Method::Get)
                return wrongMethod("GET");
            qint64 after = -1;
            if (query.hasQueryItem(QStringLiteral("after"))) {
                after = query.queryItemValue(QStringLiteral("after")).toLongLong(&ok);
                if (!ok || after < -1) {
                    sendError(socket, 400, QStringLiteral("after must be a seq (a number ≥ -1)"), close);
                    return true;
                }
            }
            const StoredTimes stored = iteration == m_followed ? m_stored : StoredTimes{};
            answerLater(socket, [readJson, projectPath, iteration, after, stored] {
                return readJson([&](ProjectReader &r) { return RemoteApi::cellsAfter(r, projectPath, iteration, after, stored); });
            }, close);
            return true;
        }
    }
    if (parts.size() == 5 && parts.first() == QLatin1String("iterations") && parts.at(2) == QLatin1String("cells")
        && parts.at(4) == QLatin1String("artifacts")) {
        bool ok = false;
        const IterationId iteration = parts.at(1).toLongLong(&ok);
        if (!ok || iteration < 1) {
            sendError(socket, 400, QStringLiteral("'%1' is not an iteration's id (a number ≥ 1)").arg(parts.at(1).left(40)), close);
            return true;
        }
        const QString cellId = parts.at(3);
        if (!RemoteApi::isCellId(cellId)) {
            sendError(socket, 400, QStringLiteral("'%1' is not a cell's id (letters, digits, _ - .)").arg(cellId.left(40)), close);
            return true;
        }
        if (method != QHttpServerRequest::Method::Get)
            return wrongMethod("GET");
        answerLater(socket, [readJson, iteration, cellId] {
            return readJson([&](ProjectReader &r) { return RemoteApi::cellArtifacts(r, iteration, cellId); });
        }, close);
        return true;
    }
    if (parts.size() == 1 && (parts.first() == QLatin1String("steer") || parts.first() == QLatin1String("approve"))) {
        if (method != QHttpServerRequest::Method::Post)
            return wrongMethod("POST");
        if (m_options.steeringToken.isEmpty()) {
            emit logLine(QStringLiteral("403 %1: %2 on a server without steering").arg(peer, path));
            sendError(socket, 403, QStringLiteral("this server takes no steering: it was started without --steering-token-file"), close);
            return true;
        }
        if (!steering) {
            emit logLine(QStringLiteral("403 %1: %2 with the read token").arg(peer, path));
            sendError(socket, 403, QStringLiteral("%1 needs the steering token; the read token only reads").arg(path), close);
            return true;
        }
        QJsonParseError parseError;
        const QJsonDocument doc = QJsonDocument::fromJson(request.body(), &parseError);
        if (!doc.isObject()) {
            sendError(socket, 400, QStringLiteral("the body must be a JSON object (%1)").arg(parseError.errorString()), close);
            return true;
        }
        const QJsonObject body = doc.object();
        const QString who = body.value(QStringLiteral("who")).toString().trimmed();
        if (const QString why = whyNotName(who); !why.isEmpty()) {
            sendError(socket, 400, why, close);
            return true;
        }
        const QString by = who + QStringLiteral(" via serve");
        if (parts.first() == QLatin1String("steer")) {
            const QString words = body.value(QStringLiteral("request")).toString();
            Result<SteeringRequest> parsed =
                parseSteeringWords(words.split(QRegularExpression(QStringLiteral("\\s+")), Qt::SkipEmptyParts));
            if (!parsed) {
                sendError(socket, 400, QStringLiteral("\"request\": ") + parsed.error, close);
                return true;
            }
            SteeringRequest steer = std::move(*parsed.value);
            steer.by = by;
            steer.why = body.value(QStringLiteral("why")).toString().trimmed();
            emit logLine(QStringLiteral("steer from %1 (%2): %3").arg(peer, by, steer.describe()));
            answerLater(socket, [this, projectPath, steer]() -> Answer {
                const Result<SteeringAck> answer = sendSteeringRequest(projectPath, steer, QStringLiteral("round"), 30);
                Answer a;
                if (!answer) {
                    a = Answer{409, compact(RemoteApi::error(409, answer.error)) + '\n'};
                } else if (!answer.value->applied) {
                    a = Answer{409, compact(QJsonObject{{QStringLiteral("error"), QString(QStringLiteral("refused: ") + answer.value->message)},
                                                        {QStringLiteral("status"), 409},
                                                        {QStringLiteral("applied"), false}})
                                         + '\n'};
                } else {
                    a = Answer{200, compact(QJsonObject{{QStringLiteral("applied"), true},
                                                        {QStringLiteral("message"), answer.value->message},
                                                        {QStringLiteral("event"), answer.value->eventId}})
                                         + '\n'};
                }
                QMetaObject::invokeMethod(this, [this, status = a.status, msg = answer ? answer.value->message : answer.error] {
                    emit logLine(QStringLiteral("steer answered %1: %2").arg(status).arg(msg));
                }, Qt::QueuedConnection);
                return a;
            }, close);
            return true;
        }
        // approve: exactly `dreamrsi approve`'s rules and paths.
        QStringList args{QStringLiteral("--project"), projectPath, QStringLiteral("--by"), by};
        const int forms = int(body.contains(QStringLiteral("version"))) + int(body.value(QStringLiteral("best")).toBool())
                          + int(body.value(QStringLiteral("decline")).toBool());
        if (forms != 1) {
            sendError(socket, 400, QStringLiteral("give one of \"version\": \"V\", \"best\": true or \"decline\": true"), close);
            return true;
        }
        if (body.contains(QStringLiteral("version"))) {
            const QString version = body.value(QStringLiteral("version")).toString().trimmed();
            if (version.isEmpty() || version.startsWith(QLatin1Char('-'))) {
                sendError(socket, 400, QStringLiteral("\"version\" must name a policy version (its name or id)"), close);
                return true;
            }
            args << QStringLiteral("--version") << version << QStringLiteral("--json");
        } else if (body.value(QStringLiteral("best")).toBool()) {
            args << QStringLiteral("--best") << QStringLiteral("--json");
        } else {
            args << QStringLiteral("--decline");
        }
        const QString note = body.value(QStringLiteral("note")).toString();
        if (!note.isEmpty())
            args << QStringLiteral("--note") << note;
        emit logLine(QStringLiteral("approve from %1 (%2): %3").arg(peer, by, args.mid(4, 2).join(QLatin1Char(' '))));
        answerLater(socket, [this, args]() -> Answer {
            QString out, err;
            QTextStream o(&out), e(&err);
            const int rc = runApproveCommand(args, o, e);
            o.flush();
            e.flush();
            Answer a;
            if (rc == 0) {
                const QJsonDocument doc = QJsonDocument::fromJson(out.toUtf8());
                QJsonObject answer{{QStringLiteral("approved"), !args.contains(QStringLiteral("--decline"))}};
                if (doc.isObject())
                    answer.insert(QStringLiteral("approval"), doc.object());
                else
                    answer.insert(QStringLiteral("message"), out.trimmed());
                a = Answer{200, compact(answer) + '\n'};
            } else {
                QString message = err.section(QLatin1Char('\n'), 0, 0).trimmed();
                if (message.startsWith(QLatin1String("error: ")))
                    message = message.mid(7);
                const int status = rc == 2 ? 400 : 409;
                a = Answer{status, compact(RemoteApi::error(status, message)) + '\n'};
            }
            QMetaObject::invokeMethod(this, [this, status = a.status] { emit logLine(QStringLiteral("approve answered %1").arg(status)); },
                                      Qt::QueuedConnection);
            return a;
        }, close);
        return true;
    }
    sendError(socket, 404, QStringLiteral("no such path '%1' (docs/remote.md lists them)").arg(path), close);
    return true;
}

void ProjectServer::answerLater(QTcpSocket *socket, std::function<Answer()> work, bool close)
{
    QPointer<QTcpSocket> target(socket);
    QtConcurrent::run(&m_pool, std::move(work)).then(this, [this, target, close](const Answer &answer) {
        if (target)
            send(target, answer, close);
    });
}

// ---- the stream ----

void ProjectServer::openStream(QTcpSocket *socket, IterationId iteration, qint64 afterSeq)
{
    // The socket is the stream's from now on: QAbstractHttpServer reads no more requests from it.
    disconnect(socket, &QTcpSocket::readyRead, this, nullptr);
    socket->write(QByteArrayLiteral("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream; charset=utf-8\r\n"
                                    "Cache-Control: no-store\r\nX-Accel-Buffering: no\r\nConnection: keep-alive\r\n\r\n"
                                    "retry: 2000\n\n"));
    StreamClient client;
    client.socket = socket;
    client.iteration = iteration;
    client.lastSeq = afterSeq;
    client.lastWrite.start();
    client.livePending = true;
    m_streams.append(client);
    emit logLine(QStringLiteral("stream opened for %1 (%2 open)").arg(socket->peerAddress().toString()).arg(m_streams.size()));
    connect(socket, &QTcpSocket::disconnected, m_guardContext, [this, socket] {
        m_streams.removeIf([socket](const StreamClient &c) { return c.socket.isNull() || c.socket == socket; });
        emit logLine(QStringLiteral("stream closed (%1 open)").arg(m_streams.size()));
    });
    StreamClient &added = m_streams.last();
    if (m_followed != 0)
        deliver(added);
}

void ProjectServer::writeEvent(StreamClient &client, const QByteArray &event)
{
    if (!client.socket || client.socket->state() != QAbstractSocket::ConnectedState)
        return;
    // A client that reads far slower than the run stores is let go; it resumes from its Last-Event-ID.
    if (client.socket->bytesToWrite() > 16 * 1024 * 1024) {
        emit logLine(QStringLiteral("stream of %1 closed: it reads too slowly").arg(client.socket->peerAddress().toString()));
        client.socket->abort();
        return;
    }
    client.socket->write(event);
    client.lastWrite.restart();
}

void ProjectServer::deliver(StreamClient &client)
{
    if (!client.told || client.iteration != m_followed) {
        // First the iteration followed; a cursor in another iteration starts over in this one.
        const QJsonObject o{{QStringLiteral("iteration"), RemoteApi::iterationJson(m_followedInfo)}};
        writeEvent(client, "event: iteration\ndata: " + compact(o) + "\n\n");
        if (client.iteration != 0 && client.iteration != m_followed)
            client.lastSeq = -1;
        client.iteration = m_followed;
        client.told = true;
    }
    // m_cells is in seq order: the first one after the cursor, then all that follow.
    auto first = std::upper_bound(m_cells.cbegin(), m_cells.cend(), client.lastSeq,
                                  [](qint64 seq, const std::pair<qint64, QByteArray> &c) { return seq < c.first; });
    for (auto it = first; it != m_cells.cend(); ++it) {
        writeEvent(client, it->second);
        client.lastSeq = it->first;
    }
    sendLive(client);
    // Whether a loop waits for approval: told once at the start, then at each change.
    if (!client.approvalTold || client.approvalKey != m_approvalKey) {
        writeEvent(client, m_approvalEvent);
        client.approvalTold = true;
        client.approvalKey = m_approvalKey;
    }
}

void ProjectServer::sendLive(StreamClient &client)
{
    if (m_liveEvents.isEmpty() || !client.livePending)
        return;
    // At most one attempts or state event per client per minEventGapMs; a
    // later one waits for the next look or housekeeping past the gap.
    if (client.lastLive.isValid() && !client.lastLive.hasExpired(m_options.minEventGapMs))
        return;
    // "state" when the state differs from the one this client was told last, else "attempts".
    const bool state = client.lastState != m_state;
    writeEvent(client, (state ? QByteArrayLiteral("event: state\ndata: ") : QByteArrayLiteral("event: attempts\ndata: ")) + m_liveEvents
                           + "\n\n");
    client.lastState = m_state;
    client.lastLive.start();
    client.livePending = false;
}

void ProjectServer::look()
{
    if (m_looking)
        return;
    m_looking = true;
    const QString path = m_options.projectPath;
    const IterationId followed = m_followed;
    const qint64 lastSeq = m_cells.isEmpty() ? -1 : m_cells.last().first;
    QtConcurrent::run(&m_pool, [path, followed, lastSeq]() {
        auto look = std::make_shared<Look>();
        const Result<ProjectReader *> reader = readerFor(path);
        if (!reader) {
            look->error = reader.error;
            return look;
        }
        // A loop waiting for approval between its rounds says so in its inbox, as
        // RoundFollower reads it (core/loop/round/roundfollower.cpp). The file
        // first: the lock is probed only when it names a wait, so a look probes
        // the writer's lock no more often than before.
        if (std::optional<SteeringLive> live = SteeringInbox::readLive(path);
            live && live->kind == QLatin1String("approval") && ProjectLock::liveWriter(path).has_value()
            && SteeringInbox::whyNotAccepting(path, live->kind).isEmpty())
            look->approval = std::move(live);
        const StoreResult<QList<IterationInfo>> iterations = (*reader.value)->iterations();
        if (!iterations) {
            look->error = iterations.error;
            return look;
        }
        if (iterations.value->isEmpty())
            return look;
        // The newest running iteration, else the newest.
        const IterationInfo *target = nullptr;
        for (const IterationInfo &it : *iterations.value) {
            if (it.status == IterationStatus::Running && (!target || it.id > target->id))
                target = &it;
        }
        if (!target)
            target = &iterations.value->last();
        look->target = target->id;
        look->fresh = target->id != followed;
        const StoreResult<IterationData> data =
            (*reader.value)->iterationDataAfter(target->id, look->fresh ? -1 : lastSeq);
        if (!data) {
            forgetReader();
            look->error = data.error;
            return look;
        }
        look->info = data.value->info;
        look->cells = data.value->cells;
        if (look->info.status == IterationStatus::Running) {
            const RoundLiveness::Observed observed = RoundLiveness::observe(path);
            look->live = observed.recordOf(look->info);
            look->writerAlive = observed.writerAlive;
        }
        return look;
    }).then(this, [this](const std::shared_ptr<Look> &look) {
        m_looking = false;
        took(look);
    });
}

void ProjectServer::took(const std::shared_ptr<Look> &look)
{
    if (!look->error.isEmpty()) {
        emit logLine(QStringLiteral("cannot read the project: %1").arg(look->error));
        return;
    }
    if (look->target == 0)
        return;
    if (look->fresh) {
        m_followed = look->target;
        m_cells.clear();
        m_stored = StoredTimes{};
        m_state.clear();
    }
    m_followedInfo = look->info;
    for (const Cell &cell : std::as_const(look->cells)) {
        if (!m_cells.isEmpty() && cell.seq <= m_cells.last().first)
            continue;
        const QJsonObject data{{QStringLiteral("iteration"), m_followed},
                               {QStringLiteral("seq"), cell.seq},
                               {QStringLiteral("cell"), TreeJson::cellToJson(cell)}};
        m_cells.append({cell.seq, "id: " + QByteArray::number(m_followed) + ':' + QByteArray::number(cell.seq)
                                      + "\nevent: cell\ndata: " + compact(data) + "\n\n"});
        m_stored.add(cell);
    }
    const IterationLiveness liveness =
        RoundLiveness::assess(look->info, m_stored, look->live, look->writerAlive, QDateTime::currentDateTimeUtc());
    QJsonObject liveJson = liveness.toJson();
    liveJson.insert(QStringLiteral("last_seq"), m_cells.isEmpty() ? -1 : m_cells.last().first);
    // Ages change at every look: the event goes when the state or the attempts (their ids, phases, stalls) changed.
    QString key = liveness.state;
    for (const AttemptLiveness &a : liveness.attempts)
        key += QLatin1Char(' ') + a.id + QLatin1Char(':') + a.phase + (a.stalled ? QStringLiteral("!") : QString());
    const bool liveChanged = key != m_liveKey;
    m_state = liveness.state;
    m_liveKey = key;
    if (liveChanged)
        m_liveEvents = compact(liveJson);
    // The loop's wait for approval: one event when it begins, one when it ends.
    const QString approvalKey = look->approval ? QStringLiteral("%1:%2").arg(
                                                     look->approval->proposal.value(QStringLiteral("event")).toVariant().toString(),
                                                     look->approval->proposal.value(QStringLiteral("name")).toString())
                                               : QString();
    if (approvalKey != m_approvalKey) {
        m_approvalKey = approvalKey;
        const QJsonObject approval = look->approval ? QJsonObject{{QStringLiteral("awaiting"), true},
                                                                  {QStringLiteral("pid"), look->approval->pid},
                                                                  {QStringLiteral("proposal"), look->approval->proposal}}
                                                    : QJsonObject{{QStringLiteral("awaiting"), false}};
        m_approvalEvent = "event: approval\ndata: " + compact(approval) + "\n\n";
        emit logLine(look->approval ? QStringLiteral("the loop waits for approval of %1").arg(approval.value(QStringLiteral("proposal")).toObject().value(QStringLiteral("name")).toString())
                                    : QStringLiteral("the loop no longer waits for approval"));
    }
    for (StreamClient &client : m_streams) {
        if (!client.socket)
            continue;
        if (liveChanged)
            client.livePending = true;
        deliver(client);
    }
}

} // namespace dreamrsi
