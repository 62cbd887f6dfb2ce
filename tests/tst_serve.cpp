// `dreamrsi serve` with real processes on 127.0.0.1 (docs/remote.md): a live
// round of the built-in agent in one process, the server in a second, the
// client here. Every cell the round stores reaches the client's event
// stream in seq order, none twice, and equals what `dreamrsi export` holds
// at the end, as do the tree and cells-after endpoints; a missing or wrong
// token gets 401, the read token on a write endpoint 403; a steering
// request with the steering token is applied by the round and stored with
// "via serve"; malformed, oversized, unknown, traversing and wrong-method
// requests get 4xx JSON errors and the server goes on; a round SIGKILLed
// mid-run and resumed (docs/online.md#resume) is followed across the kill,
// the stream saying `interrupted` and then sending the resumed cells after
// the ones it had sent; 32 followers at once, while 200 malformed requests
// get their 4xx, each receive every cell; with --tls-cert/--tls-key (a
// self-signed certificate made here with openssl) it serves HTTPS on
// 127.0.0.1 and plain HTTP gets no data; a non-loopback address without TLS
// is refused with the ssh -L line; no token appears in any output or file
// after the start.
#include "clirunsupport.h"
#include "servefixture.h"

#include "store/projectreader.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QDirIterator>
#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkProxy>
#include <QNetworkReply>
#include <QProcess>
#include <QRegularExpression>
#include <QSslCertificate>
#include <QSslConfiguration>
#include <QStandardPaths>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QtTest>

using namespace dreamrsi;
using namespace dreamrsi::test;

namespace {

struct Answer
{
    int status = 0;
    QByteArray body;
    QJsonObject json() const { return QJsonDocument::fromJson(body).object(); }
};

/// One request, waited for at most 30 s.
Answer request(QNetworkAccessManager &net, const QUrl &url, const QByteArray &token, const QByteArray &method = "GET",
               const QByteArray &body = {}, const QSslConfiguration *tls = nullptr)
{
    QNetworkRequest req(url);
    if (tls)
        req.setSslConfiguration(*tls);
    if (!token.isNull())
        req.setRawHeader("Authorization", "Bearer " + token);
    if (!body.isEmpty())
        req.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    QNetworkReply *reply = net.sendCustomRequest(req, method, body);
    QEventLoop loop;
    QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    QTimer::singleShot(30000, &loop, &QEventLoop::quit);
    if (!reply->isFinished())
        loop.exec();
    Answer a;
    a.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    a.body = reply->readAll();
    reply->deleteLater();
    return a;
}

/// A raw request on a socket of its own: the answer's status line and body.
QByteArray raw(quint16 port, const QByteArray &bytes)
{
    QTcpSocket socket;
    socket.connectToHost(QHostAddress::LocalHost, port);
    if (!socket.waitForConnected(5000))
        return {};
    socket.write(bytes);
    socket.flush();
    QByteArray answer;
    QDeadlineTimer deadline(10000);
    while (!deadline.hasExpired() && !answer.contains("\r\n\r\n{") && socket.state() == QAbstractSocket::ConnectedState)
        if (socket.waitForReadyRead(200))
            answer += socket.readAll();
    answer += socket.readAll();
    return answer;
}

/// The stream's events as they arrive: (event, id, data).
struct Event
{
    QByteArray name;
    QByteArray id;
    QJsonObject data;
};

/// Moves the complete events at the start of `buffer` into `events`.
void takeEvents(QByteArray &buffer, QList<Event> &events)
{
    for (qsizetype end = buffer.indexOf("\n\n"); end >= 0; end = buffer.indexOf("\n\n")) {
        const QByteArray block = buffer.left(end);
        buffer.remove(0, end + 2);
        Event e;
        for (const QByteArray &line : block.split('\n')) {
            if (line.startsWith("event: "))
                e.name = line.mid(7);
            else if (line.startsWith("id: "))
                e.id = line.mid(4);
            else if (line.startsWith("data: "))
                e.data = QJsonDocument::fromJson(line.mid(6)).object();
        }
        if (!e.name.isEmpty())
            events.append(e);
    }
}

QList<Event> eventsNamed(const QList<Event> &events, const QByteArray &name)
{
    QList<Event> out;
    for (const Event &e : events)
        if (e.name == name)
            out.append(e);
    return out;
}

class Stream : public QObject
{
public:
    Stream(QNetworkAccessManager &net, const QUrl &url, const QByteArray &token, const QSslConfiguration *tls = nullptr)
    {
        QNetworkRequest req(url);
        if (tls)
            req.setSslConfiguration(*tls);
        req.setRawHeader("Authorization", "Bearer " + token);
        req.setRawHeader("Accept", "text/event-stream");
        reply = net.get(req);
        connect(reply, &QNetworkReply::readyRead, this, [this] {
            buffer += reply->readAll();
            takeEvents(buffer, events);
        });
    }
    ~Stream() override
    {
        if (reply) {
            reply->abort();
            reply->deleteLater();
        }
    }
    QList<Event> of(const QByteArray &name) const { return eventsNamed(events, name); }
    QNetworkReply *reply = nullptr;
    QByteArray buffer;
    QList<Event> events;
};

/// A follower on a socket of its own (QNetworkAccessManager runs at most six
/// connections to one host at a time; a crowd needs one each).
class RawStream : public QObject
{
public:
    RawStream(quint16 port, const QByteArray &token)
    {
        connect(&socket, &QTcpSocket::connected, this, [this, token] {
            socket.write("GET /api/v1/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\nAuthorization: Bearer " + token
                         + "\r\n\r\n");
        });
        connect(&socket, &QTcpSocket::readyRead, this, [this] {
            buffer += socket.readAll();
            if (head.isEmpty()) {
                const qsizetype end = buffer.indexOf("\r\n\r\n");
                if (end < 0)
                    return;
                head = buffer.left(end);
                buffer.remove(0, end + 4);
            }
            takeEvents(buffer, events);
        });
        socket.connectToHost(QHostAddress::LocalHost, port);
    }
    QList<Event> of(const QByteArray &name) const { return eventsNamed(events, name); }
    QTcpSocket socket;
    QByteArray head;
    QByteArray buffer;
    QList<Event> events;
};

/// The cells a follower saw are the export's, in seq order, each once.
void sameCellsAsTheExport(const QList<Event> &seen, const QJsonArray &cells, IterationId iteration = 1)
{
    QCOMPARE(seen.size(), cells.size());
    qint64 last = -1;
    for (qsizetype i = 0; i < seen.size(); ++i) {
        const qint64 seq = seen.at(i).data.value(QStringLiteral("seq")).toInteger();
        QVERIFY2(seq > last, qPrintable(QStringLiteral("seq %1 after %2").arg(seq).arg(last)));
        last = seq;
        QCOMPARE(seen.at(i).id, QByteArray::number(iteration) + ':' + QByteArray::number(seq));
        QCOMPARE(seen.at(i).data.value(QStringLiteral("cell")).toObject(), cells.at(i).toObject());
    }
}

/// `dreamrsi export P --iteration N`'s cells.
QJsonArray exportedCells(const QString &project, IterationId iteration = 1)
{
    const CliRun exported = runDreamrsi({QStringLiteral("export"), project, QStringLiteral("--iteration"), QString::number(iteration)});
    if (!exported.finished || exported.exitCode != 0)
        return {};
    return QJsonDocument::fromJson(exported.out).object().value(QStringLiteral("cells")).toArray();
}

} // namespace

class TestServe : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    QNetworkAccessManager m_net;
    ServeTokens m_tokens;

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_net.setProxy(QNetworkProxy::NoProxy);
        QVERIFY(m_tokens.writeInto(m_dir.path()));
    }

    void liveRoundStreamsEveryCellOnceInOrder()
    {
        const QString project = m_dir.filePath(QStringLiteral("live.dreamrsi"));
        ProjectMaker round;
        // The round makes the project; the server opens it once it is there.
        const QString made = round.startRound(project, 5, {QStringLiteral("--accept-steering")});
        QVERIFY2(made.isEmpty(), qPrintable(made));
        Served served = serve(project, m_tokens.steeringArgs());
        QVERIFY2(served.port != 0, served.banner.constData());

        Stream stream(m_net, served.base.resolved(QUrl(QStringLiteral("api/v1/events"))), m_tokens.read);
        // The first cell arrives while the round runs; then a steering request goes in.
        QTRY_VERIFY_WITH_TIMEOUT(!stream.of("cell").isEmpty(), 30000);
        const QUrl steerUrl = served.base.resolved(QUrl(QStringLiteral("api/v1/steer")));
        const QByteArray hint = R"({"request": "hint new try a hexagonal start", "who": "tester", "why": "from the test"})";
        QCOMPARE(request(m_net, steerUrl, m_tokens.read, "POST", hint).status, 403);
        const Answer applied = request(m_net, steerUrl, m_tokens.steer, "POST", hint);
        QVERIFY2(applied.status == 200 && applied.json().value(QStringLiteral("applied")).toBool(), applied.body.constData());
        // A bad request is refused with the words `dreamrsi steer` uses.
        const Answer bad = request(m_net, steerUrl, m_tokens.steer, "POST", R"({"request": "close x", "who": "tester"})");
        QCOMPARE(bad.status, 400);
        QVERIFY2(bad.json().value(QStringLiteral("error")).toString().contains(QStringLiteral("is not a branch")), bad.body.constData());

        QVERIFY(waitForExit(round, 120000));
        QCOMPARE(round.exitCode(), 0);
        const CliRun exported = runDreamrsi({QStringLiteral("export"), project, QStringLiteral("--iteration"), QStringLiteral("1")});
        QVERIFY2(exported.finished && exported.exitCode == 0, exported.err.constData());
        const QJsonArray cells = QJsonDocument::fromJson(exported.out).object().value(QStringLiteral("cells")).toArray();
        QVERIFY(cells.size() >= 10);
        QTRY_COMPARE_WITH_TIMEOUT(stream.of("cell").size(), cells.size(), 10000);
        const QList<Event> seen = stream.of("cell");
        qint64 last = -1;
        for (qsizetype i = 0; i < seen.size(); ++i) {
            const qint64 seq = seen.at(i).data.value(QStringLiteral("seq")).toInteger();
            QVERIFY2(seq > last, qPrintable(QStringLiteral("seq %1 after %2").arg(seq).arg(last)));
            last = seq;
            QCOMPARE(seen.at(i).id, QByteArray("1:") + QByteArray::number(seq));
            QCOMPARE(seen.at(i).data.value(QStringLiteral("cell")).toObject(), cells.at(i).toObject());
        }
        // The stream said the state changes: live first, finished last.
        QVERIFY(!stream.of("state").isEmpty());
        QCOMPARE(stream.of("state").first().data.value(QStringLiteral("state")).toString(), QStringLiteral("live"));
        QTRY_COMPARE_WITH_TIMEOUT(stream.of("state").last().data.value(QStringLiteral("state")).toString(), QStringLiteral("finished"), 5000);

        // The tree is exactly the export; cells after a seq are the export's after it.
        const Answer tree = request(m_net, served.base.resolved(QUrl(QStringLiteral("api/v1/iterations/1/tree"))), m_tokens.read);
        QCOMPARE(tree.status, 200);
        QCOMPARE(tree.body, exported.out);
        const Answer after = request(m_net, served.base.resolved(QUrl(QStringLiteral("api/v1/iterations/1/cells?after=4"))), m_tokens.read);
        QCOMPARE(after.status, 200);
        const QJsonArray tail = after.json().value(QStringLiteral("cells")).toArray();
        QCOMPARE(after.json().value(QStringLiteral("state")).toString(), QStringLiteral("finished"));
        QCOMPARE(tail.size(), cells.size() - 5);
        QCOMPARE(tail.first().toObject(), cells.at(5).toObject());
        QCOMPARE(after.json().value(QStringLiteral("last_seq")).toInteger(), cells.last().toObject().value(QStringLiteral("seq")).toInteger());
        // The status is `dreamrsi status --json`'s.
        const Answer status = request(m_net, served.base.resolved(QUrl(QStringLiteral("api/v1/status"))), m_tokens.read);
        const CliRun statusCli = runDreamrsi({QStringLiteral("status"), project, QStringLiteral("--json")});
        QCOMPARE(status.status, 200);
        QCOMPARE(status.json().value(QStringLiteral("iterations")).toArray().first().toObject().value(QStringLiteral("state")),
                 QJsonDocument::fromJson(statusCli.out).object().value(QStringLiteral("iterations")).toArray().first().toObject().value(
                     QStringLiteral("state")));

        // `dreamrsi export` and `status` of the URL print what they print of the file.
        const QString url = served.base.toString();
        const CliRun remoteExport = runDreamrsi({QStringLiteral("export"), url, QStringLiteral("--token-file"), m_tokens.readFile,
                                                 QStringLiteral("--iteration"), QStringLiteral("1")});
        QVERIFY2(remoteExport.finished && remoteExport.exitCode == 0, remoteExport.err.constData());
        QCOMPARE(remoteExport.out, exported.out);
        const CliRun remoteStatus = runDreamrsi({QStringLiteral("status"), url, QStringLiteral("--token-file"), m_tokens.readFile});
        const CliRun localStatus = runDreamrsi({QStringLiteral("status"), project});
        QVERIFY2(remoteStatus.finished && remoteStatus.exitCode == 0, remoteStatus.err.constData());
        QCOMPARE(remoteStatus.out, localStatus.out);
        QVERIFY(writeFile(m_dir.filePath(QStringLiteral("wrong.token")), "wrong-token-0123456789abcdef\n"));
        const CliRun refused = runDreamrsi({QStringLiteral("status"), url, QStringLiteral("--token-file"), m_dir.filePath(QStringLiteral("wrong.token"))});
        QCOMPARE(refused.exitCode, 1);
        QVERIFY2(refused.err.contains("answered 401: the token is wrong"), refused.err.constData());
        const CliRun noToken = runDreamrsi({QStringLiteral("export"), url, QStringLiteral("--iteration"), QStringLiteral("1")});
        QCOMPARE(noToken.exitCode, 2);
        QVERIFY2(noToken.err.contains("--token-file"), noToken.err.constData());
        // So does `dreamrsi path` (the best cell's path, and a given cell's, in both formats).
        for (const QStringList &how : {QStringList{}, QStringList{QStringLiteral("--format"), QStringLiteral("json")},
                                       QStringList{QStringLiteral("--cell"), cells.at(cells.size() - 1).toObject().value(QStringLiteral("id")).toString()}}) {
            const CliRun remotePath = runDreamrsi(QStringList{QStringLiteral("path"), url, QStringLiteral("--token-file"), m_tokens.readFile,
                                                              QStringLiteral("--iteration"), QStringLiteral("1")}
                                                  + how);
            const CliRun localPath = runDreamrsi(QStringList{QStringLiteral("path"), project, QStringLiteral("--iteration"), QStringLiteral("1")} + how);
            QVERIFY2(remotePath.finished && remotePath.exitCode == 0, remotePath.err.constData());
            QVERIFY2(localPath.exitCode == 0, localPath.err.constData());
            QVERIFY(!remotePath.out.isEmpty());
            QCOMPARE(remotePath.out, localPath.out);
        }
        const CliRun pathNoToken = runDreamrsi({QStringLiteral("path"), url, QStringLiteral("--iteration"), QStringLiteral("1")});
        QCOMPARE(pathNoToken.exitCode, 2);
        QVERIFY2(pathNoToken.err.contains("--token-file"), pathNoToken.err.constData());
        const CliRun pathMissing = runDreamrsi({QStringLiteral("path"), url, QStringLiteral("--token-file"), m_tokens.readFile, QStringLiteral("--iteration"), QStringLiteral("9")});
        QCOMPARE(pathMissing.exitCode, 1);
        QVERIFY2(pathMissing.err.contains("answered 404"), pathMissing.err.constData());
        // And `plot compare` draws the served project as it draws the file: the same numbers behind the figure.
        for (const QStringList &range : {QStringList{}, QStringList{QStringLiteral("--iterations"), QStringLiteral("1-1")}}) {
            QByteArray csv[2];
            for (int served = 0; served < 2; ++served) {
                const QString data = m_dir.filePath(QStringLiteral("compare-%1-%2.csv").arg(served).arg(range.size()));
                const QString figure = m_dir.filePath(QStringLiteral("compare-%1-%2.svg").arg(served).arg(range.size()));
                QStringList args{QStringLiteral("plot"), QStringLiteral("compare"), QStringLiteral("--project"), served ? url : project};
                args += range;
                if (served)
                    args += QStringList{QStringLiteral("--token-file"), m_tokens.readFile};
                args += QStringList{QStringLiteral("--x"), QStringLiteral("calls"), QStringLiteral("--data"), data, QStringLiteral("--out"), figure};
                const CliRun plot = runDreamrsi(args);
                QVERIFY2(plot.finished && plot.exitCode == 0, plot.err.constData());
                QVERIFY(QFileInfo(figure).size() > 0);
                QFile f(data);
                QVERIFY(f.open(QIODevice::ReadOnly));
                csv[served] = f.readAll();
            }
            QVERIFY(csv[0].count('\n') > cells.size());
            QCOMPARE(csv[1], csv[0]);
        }
        const CliRun plotNoToken = runDreamrsi({QStringLiteral("plot"), QStringLiteral("compare"), QStringLiteral("--project"), url, QStringLiteral("--x"),
                                                QStringLiteral("calls"), QStringLiteral("--out"), m_dir.filePath(QStringLiteral("x.svg"))});
        QCOMPARE(plotNoToken.exitCode, 2);
        QVERIFY2(plotNoToken.err.contains("--token-file"), plotNoToken.err.constData());

        // The hint was applied by the round and stored with who it came from, via serve.
        const auto reader = ProjectReader::open(project);
        QVERIFY(reader.ok());
        const StoreResult<QList<SteeringEvent>> events = (*reader.value)->steeringEvents(1);
        QVERIFY(events.ok());
        const auto hinted = std::find_if(events.value->cbegin(), events.value->cend(),
                                         [](const SteeringEvent &e) { return e.action == QLatin1String("hint"); });
        QVERIFY(hinted != events.value->cend());
        QCOMPARE(hinted->who, QStringLiteral("tester via serve"));
        QCOMPARE(hinted->why, QStringLiteral("from the test"));

        // An artifact by its hash: the program of the first cell.
        const StoreResult<QList<ArtifactRef>> artifacts = (*reader.value)->cellArtifacts(1, QStringLiteral("b0a0"));
        QVERIFY(artifacts.ok() && !artifacts.value->isEmpty());
        const Answer artifact = request(m_net, served.base.resolved(QUrl(QStringLiteral("api/v1/artifacts/") + artifacts.value->first().hash)), m_tokens.read);
        QCOMPARE(artifact.status, 200);
        QCOMPARE(artifact.body, *(*reader.value)->readArtifact(artifacts.value->first().hash).value);
        // The files a cell refers to: names, hashes and sizes as the project holds them.
        const Answer files = request(m_net, served.base.resolved(QUrl(QStringLiteral("api/v1/iterations/1/cells/b0a0/artifacts"))), m_tokens.read);
        QVERIFY2(files.status == 200, files.body.constData());
        QCOMPARE(files.json().value(QStringLiteral("cell")).toString(), QStringLiteral("b0a0"));
        const QJsonArray listed = files.json().value(QStringLiteral("artifacts")).toArray();
        QCOMPARE(listed.size(), artifacts.value->size());
        for (qsizetype i = 0; i < listed.size(); ++i) {
            const QJsonObject a = listed.at(i).toObject();
            QCOMPARE(a.value(QStringLiteral("name")).toString(), artifacts.value->at(i).name);
            QCOMPARE(a.value(QStringLiteral("hash")).toString(), artifacts.value->at(i).hash);
            QCOMPARE(a.value(QStringLiteral("size")).toInteger(), artifacts.value->at(i).size);
        }
        QVERIFY(std::any_of(listed.cbegin(), listed.cend(), [](const QJsonValue &v) {
            return v.toObject().value(QStringLiteral("name")).toString() == QLatin1String("main.py");
        }));
        QCOMPARE(request(m_net, served.base.resolved(QUrl(QStringLiteral("api/v1/iterations/1/cells/b99a99/artifacts"))), m_tokens.read).status, 404);
        QCOMPARE(request(m_net, served.base.resolved(QUrl(QStringLiteral("api/v1/iterations/1/cells/b0a0!/artifacts"))), m_tokens.read).status, 400);
        QCOMPARE(request(m_net, served.base.resolved(QUrl(QStringLiteral("api/v1/iterations/1/cells/b0a0/artifacts"))), m_tokens.read, "POST", "{}").status,
                 405);
        QCOMPARE(request(m_net, served.base.resolved(QUrl(QStringLiteral("api/v1/iterations/1/cells/b0a0/artifacts"))), QByteArray()).status, 401);

        // A stream opened after the round resumes from its Last-Event-ID without repeating.
        Stream resumed(m_net, served.base.resolved(QUrl(QStringLiteral("api/v1/events?iteration=1&after=%1")
                                                             .arg(seen.at(seen.size() - 3).data.value(QStringLiteral("seq")).toInteger()))),
                       m_tokens.read);
        QTRY_COMPARE_WITH_TIMEOUT(resumed.of("cell").size(), 2, 10000);
        QCOMPARE(resumed.of("cell").first().id, seen.at(seen.size() - 2).id);
    }

    void refusalsAndTheServerGoesOn()
    {
        const QString project = m_dir.filePath(QStringLiteral("live.dreamrsi"));
        QVERIFY(QFile::exists(project));
        Served served = serve(project, m_tokens.readArgs());
        QVERIFY2(served.port != 0, served.banner.constData());
        auto url = [&](const char *path) { return served.base.resolved(QUrl(QString::fromLatin1(path))); };

        Answer a = request(m_net, url("api/v1/project"), QByteArray());
        QCOMPARE(a.status, 401);
        QVERIFY(!a.body.contains("iterations"));
        a = request(m_net, url("api/v1/project"), "wrong-token-0123456789");
        QCOMPARE(a.status, 401);
        QVERIFY(!a.body.contains("iterations"));
        a = request(m_net, url("api/v1/iterations/1/tree"), m_tokens.read.left(m_tokens.read.size() - 1));
        QCOMPARE(a.status, 401);
        // Without a steering token the write endpoints answer 403 to everybody.
        a = request(m_net, url("api/v1/approve"), m_tokens.read, "POST", R"({"version": "v1", "who": "x"})");
        QCOMPARE(a.status, 403);
        a = request(m_net, url("api/v1/steer"), m_tokens.read, "POST", R"({"request": "pause", "who": "x"})");
        QCOMPARE(a.status, 403);
        // Unknown paths, wrong methods, traversal, bad numbers: 4xx with a JSON error.
        a = request(m_net, url("api/v1/nothing"), m_tokens.read);
        QCOMPARE(a.status, 404);
        QVERIFY(a.json().contains(QStringLiteral("error")));
        a = request(m_net, url("api/v1/project"), m_tokens.read, "DELETE");
        QCOMPARE(a.status, 405);
        a = request(m_net, url("api/v1/steer"), m_tokens.read);
        QCOMPARE(a.status, 405);
        a = request(m_net, url("api/v1/artifacts/..%2F..%2Fetc%2Fpasswd"), m_tokens.read);
        QCOMPARE(a.status, 400);
        a = request(m_net, url("api/v1/artifacts/0123"), m_tokens.read);
        QCOMPARE(a.status, 400);
        a = request(m_net, served.base.resolved(QUrl(QStringLiteral("api/v1/artifacts/") + QString(64, QLatin1Char('0')))), m_tokens.read);
        QCOMPARE(a.status, 404);
        a = request(m_net, url("api/v1/iterations/abc/tree"), m_tokens.read);
        QCOMPARE(a.status, 400);
        a = request(m_net, url("api/v1/iterations/99/tree"), m_tokens.read);
        QCOMPARE(a.status, 404);
        a = request(m_net, url("api/v1/iterations/1/cells?after=x"), m_tokens.read);
        QCOMPARE(a.status, 400);

        // Raw malformed requests: a bad request line, an oversized header, a too large body, chunked.
        const QByteArray auth = "Authorization: Bearer " + m_tokens.read + "\r\n";
        QByteArray answer = raw(served.port, "GARBAGE\r\n\r\n");
        QVERIFY2(answer.startsWith("HTTP/1.1 400"), answer.constData());
        answer = raw(served.port, "GET /api/v1/project HTTP/1.1\r\nX-Big: " + QByteArray(20000, 'a') + "\r\n\r\n");
        QVERIFY2(answer.startsWith("HTTP/1.1 431"), answer.left(200).constData());
        answer = raw(served.port, "POST /api/v1/steer HTTP/1.1\r\n" + auth + "Content-Length: 1000000\r\n\r\n");
        QVERIFY2(answer.startsWith("HTTP/1.1 413"), answer.constData());
        answer = raw(served.port, "POST /api/v1/steer HTTP/1.1\r\n" + auth + "Transfer-Encoding: chunked\r\n\r\n");
        QVERIFY2(answer.startsWith("HTTP/1.1 411"), answer.constData());
        answer = raw(served.port, "GET /api/v1/project HTTP/1.1\r\nbroken header\r\n\r\n");
        QVERIFY2(answer.startsWith("HTTP/1.1 400"), answer.constData());
        for (int i = 0; i < 50; ++i)
            raw(served.port, "GET /%%%% HTTP/9\r\n\r\n");

        // The server goes on.
        a = request(m_net, url("api/v1/project"), m_tokens.read);
        QCOMPARE(a.status, 200);
        QCOMPARE(a.json().value(QStringLiteral("iterations")).toArray().size(), 1);
        QCOMPARE(served.process->state(), QProcess::Running);
    }

    void connectionsBeyondTheLimitAreRefused()
    {
        const QString project = m_dir.filePath(QStringLiteral("live.dreamrsi"));
        Served served = serve(project, m_tokens.readArgs() + QStringList{QStringLiteral("--max-clients"), QStringLiteral("2")});
        QVERIFY2(served.port != 0, served.banner.constData());
        QTcpSocket one, two;
        one.connectToHost(QHostAddress::LocalHost, served.port);
        two.connectToHost(QHostAddress::LocalHost, served.port);
        QVERIFY(one.waitForConnected(5000) && two.waitForConnected(5000));
        QTest::qWait(300);
        const QByteArray third = raw(served.port, "GET /api/v1/project HTTP/1.1\r\n\r\n");
        QVERIFY2(third.startsWith("HTTP/1.1 503"), third.constData());
        one.abort();
        two.abort();
        QTRY_COMPARE_WITH_TIMEOUT(request(m_net, served.base.resolved(QUrl(QStringLiteral("api/v1/status"))), m_tokens.read).status, 200, 5000);
    }

    void theServerOutlivesAKilledRoundAndFollowsItsResume()
    {
        // The round's process is SIGKILLed mid-run; the server goes on, says the
        // iteration is interrupted, and streams the resumed round's cells after
        // the ones it had sent: in order, none twice, ending equal to the export.
        const QString project = m_dir.filePath(QStringLiteral("killed.dreamrsi"));
        ProjectMaker round;
        const QString made = round.startRound(project, 8);
        QVERIFY2(made.isEmpty(), qPrintable(made));
        Served served = serve(project, m_tokens.readArgs());
        QVERIFY2(served.port != 0, served.banner.constData());
        Stream stream(m_net, served.base.resolved(QUrl(QStringLiteral("api/v1/events"))), m_tokens.read);
        QTRY_VERIFY_WITH_TIMEOUT(stream.of("cell").size() >= 3, 60000);
        QVERIFY2(round.state() == QProcess::Running, "the round ended before it could be killed");
        round.kill(); // SIGKILL: no Stop, nothing cleaned up
        QVERIFY(round.waitForFinished(10000));
        QCOMPARE(round.exitStatus(), QProcess::CrashExit);
        const qsizetype before = stream.of("cell").size();

        // The server lives on and says what happened (docs/online.md#is-it-alive).
        QTRY_VERIFY_WITH_TIMEOUT(!stream.of("state").isEmpty()
                                     && stream.of("state").last().data.value(QStringLiteral("state")).toString() == QLatin1String("interrupted"),
                                 20000);
        QCOMPARE(served.process->state(), QProcess::Running);
        const Answer status = request(m_net, served.base.resolved(QUrl(QStringLiteral("api/v1/status"))), m_tokens.read);
        QCOMPARE(status.status, 200);
        QCOMPARE(status.json().value(QStringLiteral("iterations")).toArray().first().toObject().value(QStringLiteral("state")).toString(),
                 QStringLiteral("interrupted"));

        // `round --resume` (docs/online.md#resume) finishes it while the stream stays open.
        const CliRun resumed = runDreamrsi({QStringLiteral("round"), QStringLiteral("--project"), project, QStringLiteral("--agent"),
                                            QStringLiteral("builtin"), QStringLiteral("--resume"), QStringLiteral("1")});
        QVERIFY2(resumed.finished && resumed.exitCode == 0, resumed.err.constData());
        const QJsonArray cells = exportedCells(project);
        QVERIFY2(cells.size() > before, qPrintable(QStringLiteral("%1 cells, %2 before the kill").arg(cells.size()).arg(before)));
        QTRY_COMPARE_WITH_TIMEOUT(stream.of("cell").size(), cells.size(), 10000);
        sameCellsAsTheExport(stream.of("cell"), cells);
        if (QTest::currentTestFailed())
            return;
        QTRY_COMPARE_WITH_TIMEOUT(stream.of("state").last().data.value(QStringLiteral("state")).toString(), QStringLiteral("finished"), 10000);
        QCOMPARE(served.process->state(), QProcess::Running);
        // The tree it serves is the export's, byte for byte.
        const Answer tree = request(m_net, served.base.resolved(QUrl(QStringLiteral("api/v1/iterations/1/tree"))), m_tokens.read);
        QCOMPARE(tree.status, 200);
        QCOMPARE(QJsonDocument::fromJson(tree.body).object().value(QStringLiteral("cells")).toArray(), cells);
    }

    void thirtyTwoFollowersAndMalformedRequests()
    {
        // 32 followers at once on sockets of their own while 200 malformed
        // requests arrive: each malformed one gets its 4xx, and every follower
        // gets every cell of the round, in order, none twice. (What watching
        // costs the round in time is measured by `dreamrsi bench serve`, not
        // asserted here.) --max-clients leaves room beside the 32 followers for
        // the malformed requests' connections, one at a time.
        const QString project = m_dir.filePath(QStringLiteral("crowd.dreamrsi"));
        ProjectMaker round;
        const QString made = round.startRound(project, 5);
        QVERIFY2(made.isEmpty(), qPrintable(made));
        Served served = serve(project, m_tokens.readArgs() + QStringList{QStringLiteral("--max-clients"), QStringLiteral("40")});
        QVERIFY2(served.port != 0, served.banner.constData());
        std::vector<std::unique_ptr<RawStream>> followers;
        for (int i = 0; i < 32; ++i)
            followers.push_back(std::make_unique<RawStream>(served.port, m_tokens.read));
        QTRY_VERIFY_WITH_TIMEOUT(std::all_of(followers.cbegin(), followers.cend(), [](const auto &f) { return !f->head.isEmpty(); }), 20000);
        for (const auto &f : followers)
            QVERIFY2(f->head.startsWith("HTTP/1.1 200"), f->head.constData());

        const QByteArray auth = "Authorization: Bearer " + m_tokens.read + "\r\n";
        const QList<QByteArray> malformed = {
            "GARBAGE\r\n\r\n",
            "GET /api/v1/project HTTP/1.1\r\nbroken header\r\n\r\n",
            "GET /api/v1/../../etc/passwd HTTP/1.1\r\n" + auth + "\r\n",
            "GET /api/v1/artifacts/..%2F..%2Fetc%2Fpasswd HTTP/1.1\r\n" + auth + "\r\n",
            "DELETE /api/v1/project HTTP/1.1\r\n" + auth + "\r\n",
            "GET /api/v1/iterations/x/cells HTTP/1.1\r\n" + auth + "\r\n",
            "GET /api/v1/project HTTP/1.1\r\nAuthorization: Bearer not-the-token-at-all\r\n\r\n",
            "POST /api/v1/steer HTTP/1.1\r\n" + auth + "Content-Length: 1000000\r\n\r\n",
        };
        int refused = 0;
        QByteArrayList unexpected;
        for (int i = 0; i < 200; ++i) {
            const QByteArray answer = raw(served.port, malformed.at(i % malformed.size()));
            if (answer.startsWith("HTTP/1.1 4") && !answer.contains("\"iterations\""))
                ++refused;
            else
                unexpected.append(answer.left(80));
            QCoreApplication::processEvents(); // the followers read on
        }
        QVERIFY2(refused == 200, unexpected.join('|').constData());
        QCOMPARE(served.process->state(), QProcess::Running);

        QTRY_VERIFY_WITH_TIMEOUT(round.state() == QProcess::NotRunning, 180000);
        QCOMPARE(round.exitCode(), 0);
        const QJsonArray cells = exportedCells(project);
        QVERIFY(cells.size() >= 10);
        QTRY_VERIFY_WITH_TIMEOUT(std::all_of(followers.cbegin(), followers.cend(),
                                             [&](const auto &f) { return f->of("cell").size() >= cells.size(); }),
                                 20000);
        for (const auto &f : followers) {
            sameCellsAsTheExport(f->of("cell"), cells);
            if (QTest::currentTestFailed())
                return;
        }
        // And it still answers.
        QCOMPARE(request(m_net, served.base.resolved(QUrl(QStringLiteral("api/v1/project"))), m_tokens.read).status, 200);
    }

    void tlsServesHttpsAndRefusesPlainHttp()
    {
        // A self-signed certificate for 127.0.0.1, made here with openssl.
        const QString openssl = QStandardPaths::findExecutable(QStringLiteral("openssl"));
        if (openssl.isEmpty())
            QSKIP("openssl is not installed: no certificate to serve with");
        const QString cert = m_dir.filePath(QStringLiteral("cert.pem"));
        const QString key = m_dir.filePath(QStringLiteral("key.pem"));
        QProcess make;
        make.start(openssl, {QStringLiteral("req"), QStringLiteral("-x509"), QStringLiteral("-newkey"), QStringLiteral("ec"),
                             QStringLiteral("-pkeyopt"), QStringLiteral("ec_paramgen_curve:prime256v1"), QStringLiteral("-nodes"),
                             QStringLiteral("-keyout"), key, QStringLiteral("-out"), cert, QStringLiteral("-days"), QStringLiteral("2"),
                             QStringLiteral("-subj"), QStringLiteral("/CN=127.0.0.1"), QStringLiteral("-addext"),
                             QStringLiteral("subjectAltName=IP:127.0.0.1")});
        QVERIFY(make.waitForFinished(30000));
        QVERIFY2(make.exitCode() == 0, make.readAllStandardError().constData());

        const QString project = m_dir.filePath(QStringLiteral("live.dreamrsi"));
        Served served = serve(project, m_tokens.readArgs() + QStringList{QStringLiteral("--tls-cert"), cert, QStringLiteral("--tls-key"), key});
        QVERIFY2(served.port != 0, served.banner.constData());
        QCOMPARE(served.base.scheme(), QStringLiteral("https"));
        QVERIFY2(!served.banner.contains("ssh -N -L"), served.banner.constData()); // no forwarding needed

        // The client trusts this certificate alone, and checks it against 127.0.0.1.
        QSslConfiguration trusting = QSslConfiguration::defaultConfiguration();
        trusting.setCaCertificates(QSslCertificate::fromPath(cert));
        const QUrl projectUrl = served.base.resolved(QUrl(QStringLiteral("api/v1/project")));
        const Answer a = request(m_net, projectUrl, m_tokens.read, "GET", {}, &trusting);
        QVERIFY2(a.status == 200, a.body.constData());
        QCOMPARE(a.json().value(QStringLiteral("iterations")).toArray().size(), 1);
        QCOMPARE(request(m_net, projectUrl, "wrong-token-0123456789", "GET", {}, &trusting).status, 401);
        {
            Stream stream(m_net, served.base.resolved(QUrl(QStringLiteral("api/v1/events"))), m_tokens.read, &trusting);
            QTRY_COMPARE_WITH_TIMEOUT(stream.of("cell").size(), exportedCells(project).size(), 10000);
        }

        // Plain HTTP on the same port gets no answer and no data.
        QUrl plain = projectUrl;
        plain.setScheme(QStringLiteral("http"));
        const Answer clear = request(m_net, plain, m_tokens.read);
        QVERIFY2(clear.status != 200 && !clear.body.contains("iterations"), clear.body.constData());
        const QByteArray rawAnswer = raw(served.port, "GET /api/v1/project HTTP/1.1\r\nAuthorization: Bearer " + m_tokens.read + "\r\n\r\n");
        QVERIFY2(!rawAnswer.startsWith("HTTP/1.1 2") && !rawAnswer.contains("iterations"), rawAnswer.left(200).constData());

        // And it goes on serving HTTPS.
        QCOMPARE(request(m_net, projectUrl, m_tokens.read, "GET", {}, &trusting).status, 200);
        QCOMPARE(served.process->state(), QProcess::Running);
    }

    void aLoopWaitingForApprovalIsInTheStream()
    {
        // `dreamrsi loop --await-approval` waits after its dream (docs/steering.md):
        // the stream says so with the proposal, a stream opened during the wait
        // is told at once, the approval goes in through POST /api/v1/approve,
        // and the stream says the wait ended and follows the next round.
        const QString project = m_dir.filePath(QStringLiteral("gate.dreamrsi"));
        ProjectMaker loop;
        const QString made = loop.startApprovalLoop(project);
        QVERIFY2(made.isEmpty(), qPrintable(made));
        Served served = serve(project, m_tokens.steeringArgs());
        QVERIFY2(served.port != 0, served.banner.constData());
        Stream stream(m_net, served.base.resolved(QUrl(QStringLiteral("api/v1/events"))), m_tokens.read);
        // Every stream is told first whether a loop waits.
        QTRY_VERIFY_WITH_TIMEOUT(!stream.of("approval").isEmpty(), 20000);
        auto awaiting = [](const Stream &s) {
            return !s.of("approval").isEmpty() && s.of("approval").last().data.value(QStringLiteral("awaiting")).toBool();
        };
        QTRY_VERIFY_WITH_TIMEOUT(awaiting(stream) || loop.state() == QProcess::NotRunning, 240000);
        QVERIFY2(awaiting(stream), loop.readAllStandardError().constData());
        const QJsonObject proposal = stream.of("approval").last().data.value(QStringLiteral("proposal")).toObject();
        const QString name = proposal.value(QStringLiteral("name")).toString();
        QVERIFY2(!name.isEmpty(), QJsonDocument(proposal).toJson().constData());
        QVERIFY(stream.of("approval").last().data.value(QStringLiteral("pid")).toInteger() == loop.processId());
        // The first round's cells came before; the loop waits between its rounds.
        QVERIFY(!stream.of("cell").isEmpty());
        {
            Stream late(m_net, served.base.resolved(QUrl(QStringLiteral("api/v1/events"))), m_tokens.read);
            QTRY_VERIFY_WITH_TIMEOUT(awaiting(late), 10000);
            QCOMPARE(late.of("approval").last().data.value(QStringLiteral("proposal")).toObject(), proposal);
        }

        // Approved through the server: the stream says the wait ended, and follows iteration 2.
        const Answer approved = request(m_net, served.base.resolved(QUrl(QStringLiteral("api/v1/approve"))), m_tokens.steer, "POST",
                                        R"({"best": true, "who": "tester", "note": "from the stream"})");
        QVERIFY2(approved.status == 200, approved.body.constData());
        QTRY_VERIFY_WITH_TIMEOUT(!awaiting(stream), 20000);
        QTRY_VERIFY_WITH_TIMEOUT(loop.state() == QProcess::NotRunning, 240000);
        QCOMPARE(loop.exitCode(), 0);
        QTRY_VERIFY_WITH_TIMEOUT(stream.of("iteration").size() >= 2, 10000);
        QCOMPARE(stream.of("iteration").last().data.value(QStringLiteral("iteration")).toObject().value(QStringLiteral("id")).toInteger(), 2);
        // One wait, begun and ended: (not waiting,) waiting, not waiting.
        QStringList told;
        for (const Event &e : stream.of("approval"))
            told.append(e.data.value(QStringLiteral("awaiting")).toBool() ? QStringLiteral("waits") : QStringLiteral("not"));
        QVERIFY2(told == (QStringList{QStringLiteral("not"), QStringLiteral("waits"), QStringLiteral("not")})
                     || told == (QStringList{QStringLiteral("waits"), QStringLiteral("not")}),
                 qPrintable(told.join(QLatin1Char(' '))));
        const auto reader = ProjectReader::open(project);
        QVERIFY(reader.ok());
        const StoreResult<QList<Approval>> approvals = (*reader.value)->approvals();
        QVERIFY(approvals.ok() && !approvals.value->isEmpty());
        QCOMPARE(approvals.value->last().who, QStringLiteral("tester via serve"));
    }

    void nonLoopbackWithoutTlsIsRefused()
    {
        const CliRun r = runDreamrsi({QStringLiteral("serve"), m_dir.filePath(QStringLiteral("live.dreamrsi")), QStringLiteral("--listen"),
                                      QStringLiteral("0.0.0.0:0")},
                                     QProcessEnvironment::systemEnvironment(), 30000);
        QVERIFY(r.finished);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("not a loopback address") && r.err.contains("ssh -N -L "), r.err.constData());
        QVERIFY(r.out.isEmpty());
        // Bad tokens and addresses are named.
        QVERIFY(writeFile(m_dir.filePath(QStringLiteral("short.token")), "abc\n"));
        const CliRun shortToken = runDreamrsi({QStringLiteral("serve"), m_dir.filePath(QStringLiteral("live.dreamrsi")),
                                               QStringLiteral("--token-file"), m_dir.filePath(QStringLiteral("short.token"))},
                                              QProcessEnvironment::systemEnvironment(), 30000);
        QCOMPARE(shortToken.exitCode, 2);
        QVERIFY2(shortToken.err.contains("at least 16"), shortToken.err.constData());
        const CliRun same = runDreamrsi({QStringLiteral("serve"), m_dir.filePath(QStringLiteral("live.dreamrsi")), QStringLiteral("--token-file"),
                                         m_tokens.readFile, QStringLiteral("--steering-token-file"), m_tokens.readFile},
                                        QProcessEnvironment::systemEnvironment(), 30000);
        QCOMPARE(same.exitCode, 2);
        QVERIFY2(same.err.contains("the steering token is the read token"), same.err.constData());
        const CliRun notProject = runDreamrsi({QStringLiteral("serve"), m_tokens.readFile}, QProcessEnvironment::systemEnvironment(), 30000);
        QCOMPARE(notProject.exitCode, 1);
    }

    void aMadeTokenIsPrintedOnceAndNowhereElse()
    {
        const QString project = m_dir.filePath(QStringLiteral("live.dreamrsi"));
        Served served = serve(project, {});
        QVERIFY2(served.port != 0, served.banner.constData());
        static const QRegularExpression tokenLine(QStringLiteral("token: ([A-Za-z0-9_-]{43})\\n"));
        const QRegularExpressionMatch m = tokenLine.match(QString::fromUtf8(served.banner));
        QVERIFY2(m.hasMatch(), served.banner.constData());
        const QByteArray token = m.captured(1).toLatin1();
        // Used, refused, streamed: nothing the server says afterwards holds it.
        QCOMPARE(request(m_net, served.base.resolved(QUrl(QStringLiteral("api/v1/project"))), token).status, 200);
        QCOMPARE(request(m_net, served.base.resolved(QUrl(QStringLiteral("api/v1/project"))), token + "x").status, 401);
        QCOMPARE(request(m_net, served.base.resolved(QUrl(QStringLiteral("api/v1/steer"))), token, "POST", "{}").status, 403);
        {
            Stream stream(m_net, served.base.resolved(QUrl(QStringLiteral("api/v1/events"))), token);
            QTRY_VERIFY_WITH_TIMEOUT(!stream.of("cell").isEmpty(), 10000);
            QVERIFY(!stream.buffer.contains(token));
        }
        served.process->terminate();
        QVERIFY(served.process->waitForFinished(10000));
        const QByteArray out = served.banner + served.process->readAllStandardOutput();
        const QByteArray err = served.process->readAllStandardError();
        QCOMPARE(out.count(token), 1);
        QVERIFY(!err.contains(token));
        QVERIFY(!err.isEmpty()); // it did log the refusals
        QDirIterator files(m_dir.path(), QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
        while (files.hasNext()) {
            QFile f(files.next());
            QVERIFY(f.open(QIODevice::ReadOnly));
            QVERIFY2(!f.readAll().contains(token), qPrintable(f.fileName()));
        }
    }
};

QTEST_GUILESS_MAIN(TestServe)
#include "tst_serve.moc"
