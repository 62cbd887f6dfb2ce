// `dreamrsi bench serve`: what a remote follower of `dreamrsi serve` waits
// for a cell, and how many cells-after-seq requests the server answers.
#include "benchserve.h"

#include "benches.h"

#include "projectserver.h"

#include "remote/remoteaccess.h"
#include "remote/remoteclient.h"
#include "store/projectreader.h"
#include "store/projectwriter.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QFutureWatcher>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkProxy>
#include <QNetworkReply>
#include <QProcess>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QThread>
#include <QTimer>
#include <QtConcurrent>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <limits>
#include <memory>
#include <thread>
#include <vector>

#include <sys/resource.h>

namespace dreamrsi {

namespace {

qint64 nowNs()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

double quantile(std::vector<double> values, double q)
{
    if (values.empty())
        return 0.0;
    std::sort(values.begin(), values.end());
    const size_t i = std::min(values.size() - 1, size_t(q * double(values.size() - 1) + 0.5));
    return values[i];
}

/// One built-in round in a child `dreamrsi round`, timed from its start to
/// its end; with `followers` > 0 a server in this process streams it to that
/// many followers on sockets of their own while `malformed` bad requests
/// arrive, one every 20 ms (issue 55: watching must not slow the round).
struct RoundTiming
{
    double seconds = 0.0;
    double roundCpu = 0.0;  ///< user + system CPU seconds of the round's process and the children it waited for
    double watchCpu = 0.0;  ///< of this process meanwhile: the server and its followers
    int cells = 0;        ///< cells the round stored
    int leastSeen = 0;    ///< the fewest cells a follower saw
    int refused = 0;      ///< malformed requests answered 4xx
    QString error;
};

RoundTiming timeRound(const QString &projectPath, int rounds, int followers, int malformed, int pollMs)
{
    RoundTiming timing;
    // `dreamrsi` beside this benchmark (dreamrsi-bench, or dreamrsi itself), unless named.
    QString program = qEnvironmentVariable("DREAMRSI_PROGRAM");
    if (program.isEmpty())
        program = QCoreApplication::applicationDirPath() + QStringLiteral("/dreamrsi");
    QProcess round;
    round.setProgram(program);
    round.setArguments({QStringLiteral("round"), QStringLiteral("--project"), projectPath, QStringLiteral("--task"),
                        QStringLiteral("circle_packing_26"), QStringLiteral("--agent"), QStringLiteral("builtin"),
                        QStringLiteral("--workers"), QStringLiteral("4"), QStringLiteral("--rounds"), QString::number(rounds),
                        QStringLiteral("--json")});
    round.setProcessChannelMode(QProcess::SeparateChannels);

    std::unique_ptr<ProjectServer> server;
    QByteArray token;
    std::vector<std::unique_ptr<QTcpSocket>> streams;
    std::vector<QByteArray> received(size_t(std::max(0, followers)));
    int sent = 0;
    QEventLoop loop;
    QTimer watch; // starts the server once the round has made the project
    QTimer bad;   // the malformed requests
    QObject::connect(&round, &QProcess::finished, &loop, &QEventLoop::quit);
    QObject::connect(&round, &QProcess::errorOccurred, &loop, [&](QProcess::ProcessError e) {
        if (e == QProcess::FailedToStart) {
            timing.error = QStringLiteral("cannot start %1").arg(program);
            loop.quit();
        }
    });
    QObject::connect(&watch, &QTimer::timeout, &loop, [&] {
        if (server || !QFile::exists(projectPath) || !ProjectReader::open(projectPath).ok())
            return;
        watch.stop();
        ServeOptions options;
        options.projectPath = projectPath;
        options.listen = *RemoteAccess::parseListen(QStringLiteral("127.0.0.1:0")).value;
        options.readToken = token = RemoteAccess::generateToken();
        options.pollMs = pollMs;
        options.maxClients = followers + 8;
        server = std::make_unique<ProjectServer>(options);
        const Result<quint16> port = server->start();
        if (!port) {
            timing.error = port.error;
            return;
        }
        for (int i = 0; i < followers; ++i) {
            auto socket = std::make_unique<QTcpSocket>();
            QTcpSocket *s = socket.get();
            QObject::connect(s, &QTcpSocket::connected, s, [s, &token] {
                s->write("GET /api/v1/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + token + "\r\n\r\n");
            });
            QObject::connect(s, &QTcpSocket::readyRead, s, [s, &received, i] { received[size_t(i)] += s->readAll(); });
            s->connectToHost(QHostAddress::LocalHost, *port.value);
            streams.push_back(std::move(socket));
        }
        QObject::connect(&bad, &QTimer::timeout, &loop, [&, serverPort = *port.value] {
            if (sent >= malformed) {
                bad.stop();
                return;
            }
            // The followers first: each has its stream's header before the bad
            // requests take connections (they would be refused 503 past --max-clients).
            if (std::any_of(received.cbegin(), received.cend(), [](const QByteArray &r) { return !r.startsWith("HTTP/1.1 200"); }))
                return;
            static const QList<QByteArray> requests = {"GARBAGE\r\n\r\n", "GET /api/v1/project HTTP/1.1\r\nbroken header\r\n\r\n",
                                                       "GET /api/v1/../../etc/passwd HTTP/1.1\r\n\r\n",
                                                       "DELETE /api/v1/project HTTP/1.1\r\n\r\n"};
            auto *s = new QTcpSocket(&loop);
            const QByteArray bytes = requests.at(sent % requests.size());
            ++sent;
            QObject::connect(s, &QTcpSocket::connected, s, [s, bytes] { s->write(bytes); });
            QObject::connect(s, &QTcpSocket::readyRead, s, [s, &timing] {
                if (s->peek(10).startsWith("HTTP/1.1 4"))
                    ++timing.refused;
                s->abort();
                s->deleteLater();
            });
            QObject::connect(s, &QTcpSocket::disconnected, s, &QObject::deleteLater);
            s->connectToHost(QHostAddress::LocalHost, serverPort);
        });
        bad.start(20);
    });
    const double selfBefore = cpuSeconds(RUSAGE_SELF);
    const double childrenBefore = cpuSeconds(RUSAGE_CHILDREN);
    QElapsedTimer clock;
    clock.start();
    round.start();
    if (followers > 0)
        watch.start(20);
    QTimer limit;
    limit.setSingleShot(true);
    QObject::connect(&limit, &QTimer::timeout, &loop, &QEventLoop::quit);
    limit.start(600000);
    loop.exec();
    timing.seconds = double(clock.elapsed()) / 1000.0;
    timing.watchCpu = cpuSeconds(RUSAGE_SELF) - selfBefore;
    if (round.state() != QProcess::NotRunning) {
        round.kill();
        round.waitForFinished(10000);
        timing.error = QStringLiteral("the round did not end within 600 s");
        return timing;
    }
    if (round.exitStatus() != QProcess::NormalExit || round.exitCode() != 0) {
        if (timing.error.isEmpty())
            timing.error = QStringLiteral("the round failed: %1").arg(QString::fromUtf8(round.readAllStandardError().right(400)));
        return timing;
    }
    timing.roundCpu = cpuSeconds(RUSAGE_CHILDREN) - childrenBefore;
    timing.cells = int(QJsonDocument::fromJson(round.readAllStandardOutput()).object().value(QStringLiteral("cells")).toInt());
    if (followers > 0) {
        // What the followers have not seen yet comes within a few polls.
        QElapsedTimer settle;
        settle.start();
        auto least = [&] {
            int n = std::numeric_limits<int>::max();
            for (const QByteArray &r : received)
                n = std::min(n, int(r.count("\nevent: cell\n")));
            return n;
        };
        while (least() < timing.cells && !settle.hasExpired(10000))
            QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
        timing.leastSeen = least();
        if (timing.leastSeen < timing.cells) {
            // What the follower that saw least was sent: the first bytes say why.
            for (size_t i = 0; i < received.size(); ++i) {
                const QByteArray &r = received[i];
                if (int(r.count("\nevent: cell\n")) == timing.leastSeen) {
                    timing.error = QStringLiteral("a follower (local port %4) saw %1 of %2 cells; it was sent: %3")
                                       .arg(timing.leastSeen)
                                       .arg(timing.cells)
                                       .arg(QString::fromUtf8(r.left(400)))
                                       .arg(streams[i]->localPort());
                    break;
                }
            }
        }
    }
    return timing;
}

} // namespace

int runBenchServeCommand(const QStringList &args, QTextStream &out, QTextStream &err)
{
    int cells = 1000;
    int intervalMs = 5;
    int pollMs = 200;
    int clients = 4;
    int seconds = 3;
    int roundRounds = 4;
    int followers = 32;
    int malformed = 200;
    int repeats = 2;
    if (const auto rc = readBenchCounts(
            "serve",
            "usage: dreamrsi bench serve [--cells 1000] [--interval-ms 5] [--poll-ms 200] [--clients 4] [--seconds 3]\n"
            "                            [--round-rounds 4] [--followers 32] [--malformed 200] [--repeats 2]\n"
            "Stores N cells in a running iteration, one every interval, while `dreamrsi serve`'s server\n"
            "(in this process, on 127.0.0.1) streams them to a client: the latency from a cell stored to the\n"
            "client seeing it, median and p95. Then C clients ask /api/v1/iterations/1/cells?after=SEQ for\n"
            "S seconds (the last 10 cells each time): requests per second. Then a built-in round (circle\n"
            "packing, W 4, --round-rounds K; 0 leaves it out) in a child `dreamrsi round`, timed unwatched\n"
            "and watched (the server here, --followers F streams, --malformed M bad requests one every\n"
            "20 ms), alternately --repeats R times each: the medians and their ratio (goal: within 10 %).\n",
            args,
            {{"cells", &cells, 1}, {"interval-ms", &intervalMs, 0}, {"poll-ms", &pollMs, 20}, {"clients", &clients, 1},
             {"seconds", &seconds, 1}, {"round-rounds", &roundRounds, 0}, {"followers", &followers, 1},
             {"malformed", &malformed, 0}, {"repeats", &repeats, 1}},
            out, err))
        return *rc;
    auto fail = [&err](const QString &why) {
        err << "error: " << why << '\n';
        return 1;
    };
    QTemporaryDir dir;
    if (!dir.isValid())
        return fail(QStringLiteral("cannot make a temporary folder"));
    const QString path = dir.filePath(QStringLiteral("serve.dreamrsi"));
    StoreResult<std::unique_ptr<ProjectWriter>> writer = ProjectWriter::create(path, ProjectInfo());
    if (!writer)
        return fail(writer.error);
    IterationInfo info;
    info.status = IterationStatus::Running;
    info.started = QDateTime::currentDateTimeUtc();
    info.maxParallelism = 4;
    info.task = QStringLiteral("bench");
    const StoreResult<IterationId> iteration = (*writer.value)->beginIteration(info);
    if (!iteration)
        return fail(iteration.error);

    ServeOptions options;
    options.projectPath = path;
    options.listen = *RemoteAccess::parseListen(QStringLiteral("127.0.0.1:0")).value;
    options.readToken = RemoteAccess::generateToken();
    options.pollMs = pollMs;
    options.maxClients = clients + 8;
    ProjectServer server(options);
    const Result<quint16> port = server.start();
    if (!port)
        return fail(port.error);
    RemoteProject remote;
    remote.base = server.url().adjusted(QUrl::RemovePath);
    remote.token = options.readToken;

    // The stream client, here on the server's thread: what it sees and when.
    std::vector<qint64> stored(size_t(cells), 0);
    std::vector<qint64> seen(size_t(cells), 0);
    int seenCount = 0;
    QNetworkAccessManager net;
    net.setProxy(QNetworkProxy::NoProxy);
    QNetworkRequest request(remote.base.resolved(QUrl(QStringLiteral("/api/v1/events"))));
    request.setRawHeader("Authorization", "Bearer " + remote.token);
    QNetworkReply *stream = net.get(request);
    QByteArray buffer;
    QEventLoop loop;
    QObject::connect(stream, &QNetworkReply::readyRead, &loop, [&] {
        const qint64 t = nowNs();
        buffer += stream->readAll();
        for (qsizetype at = buffer.indexOf("id: "); at >= 0; at = buffer.indexOf("id: ")) {
            const qsizetype end = buffer.indexOf('\n', at);
            if (end < 0)
                break;
            const QByteArray id = buffer.mid(at + 4, end - at - 4);
            buffer.remove(0, end + 1);
            const qint64 seq = id.mid(id.indexOf(':') + 1).toLongLong();
            if (seq >= 0 && seq < cells && seen[size_t(seq)] == 0) {
                seen[size_t(seq)] = t;
                if (++seenCount == cells)
                    loop.quit();
            }
        }
    });

    // The writer, on its own thread, as a round stores its cells.
    std::atomic<bool> writeFailed{false};
    QString writeError;
    std::thread storing([&] {
        QThread::msleep(500); // the stream is open
        for (int i = 0; i < cells; ++i) {
            Cell c;
            c.id = QStringLiteral("b%1a0").arg(i);
            c.branch = i;
            c.attempt = 0;
            c.seq = i;
            c.score = 1.0 + i * 1e-4;
            c.evaluated = true;
            c.valid = true;
            c.failClass = QStringLiteral("ok");
            c.nValid = 1;
            c.nTotal = 1;
            const StoreResult<Done> done = (*writer.value)->appendCell(*iteration.value, c);
            stored[size_t(i)] = nowNs();
            if (!done) {
                writeError = done.error;
                writeFailed = true;
                return;
            }
            if (intervalMs > 0)
                QThread::msleep(ulong(intervalMs));
        }
    });
    QTimer limit;
    limit.setSingleShot(true);
    QObject::connect(&limit, &QTimer::timeout, &loop, &QEventLoop::quit);
    limit.start(int(std::min<qint64>(qint64(cells) * (intervalMs + 20) + 60000, 600000)));
    loop.exec();
    storing.join();
    stream->abort();
    stream->deleteLater();
    if (writeFailed)
        return fail(writeError);
    if (seenCount < cells)
        return fail(QStringLiteral("the client saw %1 of %2 cells before the time limit").arg(seenCount).arg(cells));
    std::vector<double> latencies;
    latencies.reserve(size_t(cells));
    for (int i = 0; i < cells; ++i)
        latencies.push_back(double(seen[size_t(i)] - stored[size_t(i)]) / 1e6);
    out << "stream      " << cells << " cells stored one every " << intervalMs << " ms, poll every " << pollMs
        << " ms: stored -> seen by the client median " << QString::number(quantile(latencies, 0.5), 'f', 1) << " ms, p95 "
        << QString::number(quantile(latencies, 0.95), 'f', 1) << " ms, max "
        << QString::number(*std::max_element(latencies.begin(), latencies.end()), 'f', 1) << " ms (goal: within 2000 ms)\n";
    out.flush();

    // cells-after-seq, as followers ask it: C clients, each in its own thread, for S seconds.
    const QString ask = QStringLiteral("/api/v1/iterations/%1/cells?after=%2").arg(*iteration.value).arg(cells - 11);
    std::atomic<qint64> answered{0};
    std::atomic<qint64> failed{0};
    QList<QFuture<void>> askers;
    QThreadPool pool;
    pool.setMaxThreadCount(clients);
    QElapsedTimer clock;
    clock.start();
    for (int c = 0; c < clients; ++c) {
        askers.append(QtConcurrent::run(&pool, [&] {
            while (!clock.hasExpired(qint64(seconds) * 1000)) {
                const Result<QByteArray> body = RemoteClient::get(remote, ask, 10000);
                (body && body.value->contains("\"last_seq\"") ? answered : failed)++;
            }
        }));
    }
    QEventLoop waiting;
    QTimer check;
    QObject::connect(&check, &QTimer::timeout, &waiting, [&] {
        if (std::all_of(askers.cbegin(), askers.cend(), [](const QFuture<void> &f) { return f.isFinished(); }))
            waiting.quit();
    });
    check.start(20);
    waiting.exec();
    const double elapsed = double(clock.elapsed()) / 1000.0;
    out << "cells-after " << clients << " clients for " << seconds << " s asking for the last 10 cells: "
        << qint64(double(answered) / elapsed) << " requests/s (" << answered << " answered, " << failed << " failed)\n";
    out.flush();
    if (failed != 0)
        return 1;
    if (roundRounds == 0)
        return 0;

    // A round nobody watches against the same round watched, alternately (the
    // built-in agent is seeded: both do the same work).
    std::vector<double> unwatched;
    std::vector<double> watched;
    std::vector<double> unwatchedCpu;
    std::vector<double> watchedCpu;
    std::vector<double> watchShare; ///< the server and followers' CPU per second of a watched round
    for (int r = 0; r < repeats; ++r) {
        for (const bool watching : {r % 2 == 1, r % 2 == 0}) {
            const QString projectPath = dir.filePath(QStringLiteral("round-%1-%2.dreamrsi").arg(r).arg(watching ? QStringLiteral("watched") : QStringLiteral("alone")));
            const RoundTiming t = timeRound(projectPath, roundRounds, watching ? followers : 0, malformed, pollMs);
            if (!t.error.isEmpty())
                return fail(t.error);
            out << "round       " << (watching ? "watched  " : "unwatched") << ' ' << t.cells << " cells in "
                << QString::number(t.seconds, 'f', 2) << " s, its CPU " << QString::number(t.roundCpu, 'f', 2) << " s";
            if (watching)
                out << " (" << followers << " followers, the fewest saw " << t.leastSeen << " cells; " << t.refused << " of "
                    << malformed << " malformed requests answered 4xx; server and followers' CPU "
                    << QString::number(t.watchCpu, 'f', 2) << " s)";
            out << '\n';
            out.flush();
            (watching ? watched : unwatched).push_back(t.seconds);
            (watching ? watchedCpu : unwatchedCpu).push_back(t.roundCpu);
            if (watching)
                watchShare.push_back(t.watchCpu / t.seconds);
            if (watching && t.leastSeen < t.cells)
                return fail(QStringLiteral("a follower saw %1 of %2 cells").arg(t.leastSeen).arg(t.cells));
        }
    }
    const double alone = quantile(unwatched, 0.5);
    const double followed = quantile(watched, 0.5);
    out << "round       median unwatched " << QString::number(alone, 'f', 2) << " s, watched " << QString::number(followed, 'f', 2)
        << " s: watched / unwatched " << QString::number(followed / alone, 'f', 3) << " (goal: at most 1.10)\n";
    // Wall times move with whatever else the machine runs; CPU seconds say
    // what watching costs: the round's own work, and the cores the server
    // and its followers took from it (a share of one core).
    const double cpuAlone = quantile(unwatchedCpu, 0.5);
    const double cpuFollowed = quantile(watchedCpu, 0.5);
    out << "round       median CPU of the round unwatched " << QString::number(cpuAlone, 'f', 2) << " s, watched "
        << QString::number(cpuFollowed, 'f', 2) << " s: " << QString::number(cpuFollowed / cpuAlone, 'f', 3)
        << "; the server and followers used " << QString::number(100.0 * quantile(watchShare, 0.5), 'f', 1)
        << " % of one core while watching\n";
    return 0;
}

} // namespace dreamrsi
