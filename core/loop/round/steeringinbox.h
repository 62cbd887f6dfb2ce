#pragma once

#include "base/result.h"

#include "store/storetypes.h"

#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QMetaType>
#include <QString>

#include <optional>

namespace dreamrsi {

/// One request to steer a live round or answer a waiting loop: what a
/// person asked, before the running process decided.
///
/// Actions: `close`, `refine`, `hint` (with `branch`, or `newBranch` for the
/// next new branch, and `text`), `pause`, `continue`, `kill` (an `attempt`
/// in flight, applied at once, docs/steering.md), and for a loop waiting
/// for approval `approve` (`version`, or `best`) and `decline`.
struct SteeringRequest
{
    QString id;                 ///< unique; sorts in the order the requests were made
    QString action;
    std::optional<int> branch;  ///< close, refine, hint B
    bool newBranch = false;     ///< hint new
    QString text;               ///< a hint's text
    QString why;
    QString by;
    QDateTime time;             ///< UTC, when it was made
    QString version;            ///< approve: a version's name or id
    bool best = false;          ///< approve --best
    QString attempt;            ///< kill: the running attempt's cell id ("b2a3")

    QJsonObject toJson() const;
    /// A failure saying what is wrong for an object that is not a request.
    static Result<SteeringRequest> fromJson(const QJsonObject &o);
    /// "close b3", "hint new: …", "pause": what it asks, for logs and messages.
    QString describe() const;
};

/// The answer of the running process to one request.
struct SteeringAck
{
    QString id;
    bool applied = false;
    QString message;            ///< what was done, or why it was refused
    qint64 eventId = 0;         ///< the stored event, when applied
};

/// Who runs a project and accepts requests: written by that process while
/// it accepts them (`live.json` in the inbox), removed when it stops.
struct SteeringLive
{
    qint64 pid = 0;
    QString kind;               ///< "round" or "approval" (a loop waiting for approval)
    IterationId iteration = 0;  ///< the round's iteration (kind round)
    QJsonObject proposal;       ///< kind approval: {version, name, value, dream}
};

/// The inbox beside a project through which a second process steers the
/// round that another process runs in it (the one-writer rule: only the
/// process holding the project writes it; everybody else drops requests
/// here). A folder `<project>.inbox/` holding
///   - `requests/<id>.json`: a request, written under a temporary name and
///     renamed into place, so the reader never sees half a file;
///   - `acks/<id>.json`: the answer, written the same way once the request
///     was applied (and stored in the project as an event) or refused;
///   - `live.json`: who accepts requests now (SteeringLive).
/// The running process reads the requests between batches, in id order.
namespace SteeringInbox {

QString folderFor(const QString &projectPath);

// ---- the requester ----

/// Gives the request an id and time (when it has none) and drops it in the
/// inbox. A failure when the folder cannot be written.
Result<Done> submit(const QString &projectPath, SteeringRequest *request);
/// The answer to request `id`, removed from the inbox, or nothing yet.
std::optional<SteeringAck> takeAck(const QString &projectPath, const QString &id);
/// Takes back a request nobody answered (its process ended). True when it
/// was still there, i.e. nobody will answer it.
bool withdraw(const QString &projectPath, const QString &id);

// ---- the running process ----

/// The requests waiting, in id order. Files that are not requests come
/// back as acks to send (refused, saying why) in *unreadable.
QList<SteeringRequest> pending(const QString &projectPath, QList<SteeringAck> *unreadable = nullptr);
/// Writes the answer, then removes the request. A failure when the answer
/// cannot be written.
Result<Done> acknowledge(const QString &projectPath, const SteeringAck &ack);

/// Says that this process accepts requests (replaces an earlier live.json).
Result<Done> publish(const QString &projectPath, const SteeringLive &live);
/// Removes live.json (when it is this process's).
void unpublish(const QString &projectPath);
/// live.json as written, or nothing. Whether its process still runs is for
/// the reader to check (ProjectLock::liveWriter).
std::optional<SteeringLive> readLive(const QString &projectPath);

/// "3" or "b3" → 3; nothing for anything else.
std::optional<int> parseBranch(const QString &text);

/// Why nobody answers requests of `kind` ("round" or "approval") in the
/// project now (no process holds it, the one that does accepts no
/// steering, or it waits for the other kind), or empty when somebody does.
QString whyNotAccepting(const QString &projectPath, const QString &kind);

/// The person's name when none was given, from the environment and the
/// system: $USER, else the login name of the account this process runs as
/// (the system's user database), else $LOGNAME or $USERNAME; empty when
/// none of them names anybody (an account without an entry, as in some
/// containers).
QString accountName();

/// accountName(), else "unknown".
QString loginName();

} // namespace SteeringInbox

} // namespace dreamrsi

Q_DECLARE_METATYPE(dreamrsi::SteeringRequest)
Q_DECLARE_METATYPE(dreamrsi::SteeringAck)
