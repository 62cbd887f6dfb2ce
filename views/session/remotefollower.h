#pragma once

#include "remoteconnection.h"

#include "loop/round/roundevents.h"
#include "loop/round/roundliveness.h"
#include "loop/round/roundtypes.h"
#include "store/storetypes.h"

#include <QByteArray>
#include <QPointer>
#include <QString>

class QNetworkReply;
class QTimer;

namespace dreamrsi {


/// Follows the rounds of a served project (docs/remote.md, GET
/// /api/v1/events) as the same RoundEvents a round followed in a local
/// project gives (RoundFollower), so RoundController and the live panel show
/// either: iterationStarted when the stream's iteration runs, each stored
/// cell once in seq order (cellFinished, then countersChanged, counted with
/// RoundSession::count), its attempts in flight and stalls as the server
/// assesses them (attemptsSeen), finished when it ends (finished,
/// interrupted, stopped). A loop's next round is the stream's next
/// iteration.
///
/// A lost connection (the server gone, the network down, no byte for 45 s
/// though the server says something every 15 s) is told (connectionChanged)
/// and tried again after 1, 2, 4 … 30 s; the stream resumes after the last
/// cell seen (`?iteration=N&after=SEQ` and `Last-Event-ID: N:SEQ`), so no
/// cell is missed and none shown twice. A refused token (401) is not tried
/// again.
class RemoteFollower final : public RoundEvents
{
    Q_OBJECT
public:
    explicit RemoteFollower(RemoteConnection *connection, QObject *parent = nullptr);
    ~RemoteFollower() override;

    void start();
    void stop();
    bool isActive() const { return m_active; }
    /// The stream is open and has answered.
    bool isConnected() const { return m_connected; }
    RemoteConnection *connection() const { return m_connection; }
    /// "HOST:PORT".
    QString host() const;
    /// The running iteration followed, 0 while none runs.
    IterationId iteration() const { return m_following ? m_current.id : 0; }
    /// The seq of the last cell seen of the stream's iteration (-1: none).
    qint64 lastSeq() const { return m_lastSeq; }
    /// Why the followed round takes no steering from here: connected
    /// without a steering token; empty when the token may steer (whether
    /// the round takes it, it answers itself: 409 with its reason).
    QString whyNoSteering() const;
    /// The first and the longest wait before trying again (ms; tests shorten them).
    void setRetryDelays(int firstMs, int maxMs);
    /// The wait before the next try, while disconnected.
    int retryDelayMs() const { return m_delayMs; }

signals:
    /// After each state or attempts event of the followed iteration: its
    /// attempts in flight, their ages and stalls, and its state.
    void attemptsSeen(const dreamrsi::IterationLiveness &liveness);
    /// The stream was opened (true) or lost (false); `message` says what
    /// happened and, when lost, when it is tried again.
    void connectionChanged(bool connected, const QString &message);

private:
    void connectStream();
    void onData();
    void onEnded();
    void retryLater(const QString &why);
    void handle(const QByteArray &event, const QByteArray &id, const QByteArray &data);
    void onIteration(const QJsonObject &data);
    void onCell(const QJsonObject &data);
    void onLiveness(const QJsonObject &data);
    void onApproval(const QJsonObject &data);

    QPointer<RemoteConnection> m_connection;
    QNetworkReply *m_reply = nullptr;
    QTimer *m_retry = nullptr;
    QTimer *m_silence = nullptr;
    QByteArray m_buffer;
    bool m_active = false;
    bool m_connected = false;
    IterationInfo m_current;       ///< the stream's iteration (id 0 before the first event)
    bool m_following = false;      ///< m_current runs and was told (iterationStarted)
    qint64 m_lastSeq = -1;
    QString m_approvalKey;         ///< the loop's wait for approval told (ApprovalWait::key), "" none
    RoundCounters m_counters;
    int m_firstDelayMs = 1000;
    int m_maxDelayMs = 30000;
    int m_delayMs = 1000;
};

} // namespace dreamrsi
