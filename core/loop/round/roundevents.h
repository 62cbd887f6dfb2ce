#pragma once

#include "roundtypes.h"

#include "model/cell.h"
#include "store/storetypes.h"

#include <QJsonObject>
#include <QObject>
#include <QString>

namespace dreamrsi {

/// A loop that waits for approval of its dream's proposal
/// (`dreamrsi loop --await-approval`, docs/steering.md): who waits, and what
/// it proposes, as the loop published it in its inbox (SteeringInbox).
struct ApprovalWait
{
    qint64 pid = 0;       ///< the loop's process
    QJsonObject proposal; ///< {version, name, value, index, versions, event}

    /// The proposed version's name.
    QString name() const { return proposal.value(QStringLiteral("name")).toString(); }
    /// "event:name": one wait of one loop.
    QString key() const
    {
        return QStringLiteral("%1:%2").arg(proposal.value(QStringLiteral("event")).toVariant().toString(), name());
    }
};

/// What a live round tells whoever shows it, the same whether this process
/// runs the round (RoundRunner) or another process does and this one reads
/// what it stores (RoundFollower). A view connects to these signals once and
/// shows either; the runner adds the signals only the process that runs a
/// round can give (attempts in flight, steering, manual batches).
///
/// Order: iterationStarted, then cellFinished for each stored cell in seq
/// order with countersChanged after it (the follower: after each look's
/// cells), then finished once. logLine may come at any time.
///
/// A recursive loop's stream (RecursiveLoop::events()) is its rounds' one
/// after the other, and between two rounds the wait for approval of a
/// dream's proposal (`loop --await-approval`): approvalAwaited, then
/// approvalEnded once it was answered or stopped. A follower of another
/// process gives the same from the project's inbox (live.json) as it looks.
class RoundEvents : public QObject
{
    Q_OBJECT
public:
    using QObject::QObject;

signals:
    /// The iteration runs (new, resumed, or found running in another
    /// process): its grid plan and the limits it runs under.
    void iterationStarted(const dreamrsi::IterationInfo &info, bool resumed);
    /// A cell was stored.
    void cellFinished(qint64 iteration, const dreamrsi::Cell &cell);
    /// The round's counters, counted the same way on both sides (RoundSession::count).
    void countersChanged(const dreamrsi::RoundCounters &counters);
    void logLine(const QString &line);
    /// The iteration is no longer running: how it ended. A round followed
    /// whose process died without closing it ends Interrupted.
    void finished(const dreamrsi::RoundSummary &summary);
    /// A loop waits for a person to approve its dream's proposal or decline it.
    void approvalAwaited(const dreamrsi::ApprovalWait &wait);
    /// The loop no longer waits for approval (answered, stopped or gone).
    void approvalEnded();
};

} // namespace dreamrsi

Q_DECLARE_METATYPE(dreamrsi::ApprovalWait)
