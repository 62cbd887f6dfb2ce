// `dreamrsi bench serve`: what a remote follower of `dreamrsi serve` waits
// for a cell, and how many cells-after-seq requests the server answers.
#include "benchserve.h"

#include "benches.h"

#include "projectserver.h"

#include "remote/remoteaccess.h"
#include "remote/remoteclient.h"
#include "store/projectwriter.h"

#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QFutureWatcher>
#include <QNetworkAccessManager>
#include <QNetworkProxy>
#include <QNetworkReply>
#include <QTemporaryDir>
#include <QThread>
#include <QTimer>
#include <QtConcurrent>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

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

} // namespace

int runBenchServeCommand(const QStringList &args, QTextStream &out, QTextStream &err)
{
    int cells = 1000;
    int intervalMs = 5;
    int pollMs = 200;
    int clients = 4;
    int seconds = 3;
    if (const auto rc = readBenchCounts(
            "serve",
            "usage: dreamrsi bench serve [--cells 1000] [--interval-ms 5] [--poll-ms 200] [--clients 4] [--seconds 3]\n"
            "Stores N cells in a running iteration, one every interval, while `dreamrsi serve`'s server\n"
            "(in this process, on 127.0.0.1) streams them to a client: the latency from a cell stored to the\n"
            "client seeing it, median and p95. Then C clients ask /api/v1/iterations/1/cells?after=SEQ for\n"
            "S seconds (the last 10 cells each time): requests per second.\n",
            args,
            {{"cells", &cells, 1}, {"interval-ms", &intervalMs, 0}, {"poll-ms", &pollMs, 20}, {"clients", &clients, 1},
             {"seconds", &seconds, 1}},
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
    return failed == 0 ? 0 : 1;
}

} // namespace dreamrsi
