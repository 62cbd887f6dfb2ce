#include "remotefollower.h"

#include "remoteconnection.h"

#include "loop/round/roundsession.h"
#include "model/treejson.h"
#include "remote/remotejson.h"

#include <QJsonDocument>
#include <QNetworkReply>
#include <QTimer>

namespace dreamrsi {

namespace {
/// The server says something at least every 15 s; this long without a byte is a dead connection.
constexpr int SilenceMs = 45000;
} // namespace

RemoteFollower::RemoteFollower(RemoteConnection *connection, QObject *parent)
    : RoundEvents(parent)
    , m_connection(connection)
    , m_retry(new QTimer(this))
    , m_silence(new QTimer(this))
{
    m_retry->setSingleShot(true);
    connect(m_retry, &QTimer::timeout, this, &RemoteFollower::connectStream);
    m_silence->setSingleShot(true);
    m_silence->setInterval(SilenceMs);
    connect(m_silence, &QTimer::timeout, this, [this] {
        if (m_reply)
            m_reply->abort(); // onEnded() tries again
    });
}

RemoteFollower::~RemoteFollower()
{
    stop();
}

QString RemoteFollower::host() const
{
    return m_connection ? m_connection->host() : QString();
}

QString RemoteFollower::whyNoSteering() const
{
    if (!m_connection || m_connection->canSteer())
        return {};
    return tr("connected to %1 without a steering token").arg(host());
}

void RemoteFollower::setRetryDelays(int firstMs, int maxMs)
{
    m_firstDelayMs = std::max(1, firstMs);
    m_maxDelayMs = std::max(m_firstDelayMs, maxMs);
    m_delayMs = m_firstDelayMs;
}

void RemoteFollower::start()
{
    if (m_active || !m_connection)
        return;
    m_active = true;
    m_delayMs = m_firstDelayMs;
    connectStream();
}

void RemoteFollower::stop()
{
    m_active = false;
    m_retry->stop();
    m_silence->stop();
    if (m_reply) {
        m_reply->disconnect(this);
        m_reply->abort();
        m_reply->deleteLater();
        m_reply = nullptr;
    }
    m_connected = false;
    m_buffer.clear();
}

void RemoteFollower::connectStream()
{
    if (!m_active || !m_connection)
        return;
    // From the last cell seen of the stream's iteration: none missed, none twice.
    QString path = QStringLiteral("/api/v1/events");
    QByteArray lastId;
    if (m_current.id != 0) {
        path += QStringLiteral("?iteration=%1&after=%2").arg(m_current.id).arg(m_lastSeq);
        lastId = QByteArray::number(m_current.id) + ':' + QByteArray::number(m_lastSeq);
    }
    m_buffer.clear();
    m_reply = m_connection->openStream(path, lastId);
    connect(m_reply, &QNetworkReply::readyRead, this, &RemoteFollower::onData);
    connect(m_reply, &QNetworkReply::finished, this, &RemoteFollower::onEnded);
    m_silence->start();
}

void RemoteFollower::onData()
{
    if (!m_reply)
        return;
    m_silence->start();
    const int status = m_reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    if (status != 200)
        return; // the refusal's body is read when it ends
    if (!m_connected) {
        m_connected = true;
        m_delayMs = m_firstDelayMs;
        const QString line = tr("Connected to %1: following its rounds").arg(host());
        emit logLine(line);
        emit connectionChanged(true, line);
    }
    m_buffer += m_reply->readAll();
    m_buffer.replace("\r\n", "\n");
    for (qsizetype end = m_buffer.indexOf("\n\n"); end >= 0; end = m_buffer.indexOf("\n\n")) {
        const QByteArray block = m_buffer.left(end);
        m_buffer.remove(0, end + 2);
        QByteArray event = "message", id, data;
        for (const QByteArray &line : block.split('\n')) {
            if (line.startsWith(':'))
                continue; // a keep-alive
            const qsizetype colon = line.indexOf(':');
            const QByteArray field = colon < 0 ? line : line.left(colon);
            QByteArray value = colon < 0 ? QByteArray() : line.mid(colon + 1);
            if (value.startsWith(' '))
                value.remove(0, 1);
            if (field == "event")
                event = value;
            else if (field == "id")
                id = value;
            else if (field == "data")
                data += (data.isEmpty() ? QByteArray() : QByteArray("\n")) + value;
        }
        if (!data.isEmpty())
            handle(event, id, data);
        if (!m_active || !m_reply)
            return; // stopped, or the stream was started again
    }
}

void RemoteFollower::onEnded()
{
    QNetworkReply *reply = m_reply;
    if (!reply)
        return;
    m_reply = nullptr;
    reply->deleteLater();
    m_silence->stop();
    const bool wasConnected = m_connected;
    m_connected = false;
    if (!m_active)
        return;
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    const QString why = status == 200 ? tr("%1 ended the stream").arg(host())
                                      : RemoteConnection::describeFailure(host(), status, reply->readAll(), int(reply->error()),
                                                                          reply->errorString());
    if (status == 401 || status == 403) {
        // The token will not do better next time.
        m_active = false;
        emit logLine(why);
        emit connectionChanged(false, why);
        return;
    }
    Q_UNUSED(wasConnected);
    retryLater(why);
}

void RemoteFollower::retryLater(const QString &why)
{
    const int delay = m_delayMs;
    m_delayMs = std::min(m_maxDelayMs, m_delayMs * 2);
    const QString line = tr("Connection to %1 lost: %2; trying again in %n s", nullptr, std::max(1, (delay + 999) / 1000))
                             .arg(host(), why);
    emit logLine(line);
    emit connectionChanged(false, line);
    m_retry->start(delay);
}

void RemoteFollower::handle(const QByteArray &event, const QByteArray &id, const QByteArray &data)
{
    Q_UNUSED(id);
    const QJsonObject o = QJsonDocument::fromJson(data).object();
    if (event == "iteration")
        onIteration(o.value(QStringLiteral("iteration")).toObject());
    else if (event == "cell")
        onCell(o);
    else if (event == "state" || event == "attempts")
        onLiveness(o);
    else if (event == "approval")
        onApproval(o);
}

void RemoteFollower::onApproval(const QJsonObject &data)
{
    // As RoundFollower::takeApproval: a wait ends before another begins.
    std::optional<ApprovalWait> wait;
    if (data.value(QStringLiteral("awaiting")).toBool())
        wait = ApprovalWait{data.value(QStringLiteral("pid")).toInteger(), data.value(QStringLiteral("proposal")).toObject()};
    const QString key = wait ? wait->key() : QString();
    if (key == m_approvalKey)
        return;
    const bool was = !m_approvalKey.isEmpty();
    m_approvalKey = key;
    if (was)
        emit approvalEnded();
    if (wait)
        emit approvalAwaited(*wait);
}

void RemoteFollower::onIteration(const QJsonObject &data)
{
    const IterationInfo info = RemoteJson::iterationFrom(data);
    if (info.id == 0 || info.id == m_current.id)
        return; // the same iteration again (a reconnection): its cells go on after the last seen
    if (m_following) {
        // The stream moved on before telling how the one followed ended: it is no longer running.
        RoundSummary summary;
        summary.iteration = m_current.id;
        summary.status = IterationStatus::Interrupted;
        summary.counters = m_counters;
        m_following = false;
        emit finished(summary);
    }
    m_current = info;
    m_lastSeq = -1;
    m_counters = RoundCounters{};
    if (info.status == IterationStatus::Running) {
        m_following = true;
        emit iterationStarted(info, false);
    }
}

void RemoteFollower::onCell(const QJsonObject &data)
{
    const qint64 iteration = data.value(QStringLiteral("iteration")).toInteger();
    const qint64 seq = data.value(QStringLiteral("seq")).toInteger(-1);
    if (iteration != m_current.id || seq <= m_lastSeq)
        return; // of another iteration, or seen already
    const Result<Cell> cell = TreeJson::cellFromJson(data.value(QStringLiteral("cell")).toObject());
    if (!cell) {
        emit logLine(tr("%1 sent a cell that cannot be read (seq %2): %3").arg(host()).arg(seq).arg(cell.error));
        return;
    }
    m_lastSeq = seq;
    if (!m_following)
        return;
    emit cellFinished(iteration, *cell.value);
    RoundSession::count(m_counters, *cell.value);
    emit countersChanged(m_counters);
}

void RemoteFollower::onLiveness(const QJsonObject &data)
{
    IterationLiveness liveness = RemoteJson::livenessFrom(data);
    if (liveness.iteration != m_current.id || m_current.id == 0)
        return;
    liveness.number = m_current.number.value_or(m_current.id);
    const bool running = liveness.state == QLatin1String("live") || liveness.state == QLatin1String("stalled");
    if (running && !m_following) {
        // Running again (resumed after an interruption): follow it from its first cell.
        m_current.status = IterationStatus::Running;
        m_following = true;
        m_lastSeq = -1;
        m_counters = RoundCounters{};
        emit iterationStarted(m_current, false);
        if (m_reply) {
            m_reply->disconnect(this);
            m_reply->abort();
            m_reply->deleteLater();
            m_reply = nullptr;
        }
        connectStream();
        return;
    }
    if (!m_following)
        return;
    if (running) {
        emit attemptsSeen(liveness);
        return;
    }
    // Ended: finished, interrupted, or finished with its stored status (stopped).
    RoundSummary summary;
    summary.iteration = m_current.id;
    summary.status = iterationStatusFromName(liveness.stopped.isEmpty() ? liveness.state : liveness.stopped)
                         .value_or(IterationStatus::Finished);
    summary.counters = m_counters;
    m_current.status = summary.status;
    m_following = false;
    emit finished(summary);
}

} // namespace dreamrsi
