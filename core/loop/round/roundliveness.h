#pragma once

#include "roundattempt.h"

#include "base/result.h"

#include "model/cell.h"
#include "store/storetypes.h"

#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>
#include <vector>

namespace dreamrsi {

/// One attempt a running round has in flight, as it publishes it.
struct LiveAttempt
{
    QString id;                ///< the attempt's cell id ("b2a3")
    QString phase;             ///< "agent", "evaluation" or "queued" (on Slurm)
    QDateTime started;         ///< UTC, when the attempt began
    QDateTime phaseStarted;    ///< UTC, when it entered its phase
    /// How long its phase may take (the agent's wall-clock limit, the task's
    /// evaluation limit with a grace); 0 = no limit known.
    double limitS = 0.0;
};

/// What a running round publishes about itself for other processes
/// (`<project>.inbox/attempts.json`, beside the steering inbox's live.json):
/// its process, its iteration and its attempts in flight, rewritten when an
/// attempt starts, changes phase or ends and at least every second while the
/// round runs (a heartbeat). Removed when the round ends.
struct LiveRound
{
    qint64 pid = 0;
    IterationId iteration = 0;
    QDateTime written;         ///< UTC, the heartbeat
    QList<LiveAttempt> attempts;
};

/// What the stall rule needs of an iteration's stored cells: their wall
/// times (for the median) and when the last one ended. Kept cell by cell by
/// whoever watches a round (a follower, the window's own round), so that the
/// rule does not need every cell at every look.
struct StoredTimes
{
    std::vector<double> walls; ///< the cells' wall times > 0, in stored order
    QDateTime lastCellAt;      ///< UTC; invalid when no cell is stored

    /// Takes one stored cell's timing (AttemptPayload::timingOf).
    void add(const Cell &cell);
    static StoredTimes of(const QList<Cell> &cells);
    /// The median of walls, 0 when there is none.
    double medianWallS() const;
};

/// How one attempt stands (docs/online.md#is-it-alive).
struct AttemptLiveness
{
    QString id;
    QString phase;
    double ageS = 0.0;         ///< since the attempt began
    bool stalled = false;
    QString why;               ///< why it is stalled, empty when it is not
};

/// How one iteration stands: `live`, `stalled`, `interrupted` or `finished`
/// (docs/online.md#is-it-alive).
struct IterationLiveness
{
    IterationId iteration = 0;
    qint64 number = 0;
    QString state;
    QString stopped;           ///< a finished iteration's stored status when not "finished" ("stopped")
    QDateTime lastCellAt;      ///< UTC; invalid when no cell is stored
    double medianAttemptS = 0.0;
    double thresholdS = 0.0;   ///< max(5 × median, floor): no cell for longer while attempts run = stalled
    QString why;               ///< why it is stalled, empty otherwise
    QList<AttemptLiveness> attempts;

    /// {iteration, state, last_cell_at, attempts: [{id, phase, age_s, stalled}]} (and why, threshold_s).
    QJsonObject toJson() const;
};

/// Whether a round is alive, from another process (docs/online.md#is-it-alive):
/// the running round publishes its attempts (LiveRound); `dreamrsi status`
/// and the window read them with the stored cells and the project's lock.
namespace RoundLiveness {

/// "agent", "evaluation", "queued": a phase as the file and `status` name it.
QString phaseName(RoundAttempt::Control::Phase phase);
/// What an evaluation may run past the task's time limit before its attempt
/// counts as stalled (the sandbox's own teardown).
inline constexpr double evaluationGraceS = 10.0;

QString filePath(const QString &projectPath);
/// Writes the file atomically (the pid is this process's when 0).
Result<Done> publish(const QString &projectPath, const LiveRound &live);
/// Removes the file when it is this process's.
void unpublish(const QString &projectPath);
/// The file as written, or nothing.
std::optional<LiveRound> read(const QString &projectPath);

/// The floor of the no-cell rule: 60 s, or $DREAMRSI_STALL_FLOOR_S (a
/// number of seconds > 0) when set, which only tests use to shorten it.
double stallFloorS();

/// Assesses one iteration at `now`: finished (or stopped) when its stored
/// status says so; running with its process gone (`live` absent, of another
/// iteration, or `writerAlive` false) = interrupted; else live, or stalled
/// when an attempt runs past its phase's limit or when attempts run and no
/// cell was stored for longer than max(5 × the median wall time of its
/// cells, the floor) — since the last cell, or since the iteration started
/// when none is stored (median 0).
IterationLiveness assess(const IterationInfo &info, const QList<Cell> &cells, const std::optional<LiveRound> &live,
                         bool writerAlive, const QDateTime &now, double floorS = stallFloorS());
/// The same rule with the cells' times kept as they were stored (StoredTimes).
IterationLiveness assess(const IterationInfo &info, const StoredTimes &stored, const std::optional<LiveRound> &live,
                         bool writerAlive, const QDateTime &now, double floorS = stallFloorS());

/// What a process other than the writer sees of the project's round: whether
/// a writer holds the project (its lock) and the live record it published,
/// a record of another process than the lock's holder dropped (a dead
/// round's leftover). One rule for `dreamrsi status`, the window's follower
/// and `dreamrsi serve`.
struct Observed
{
    bool writerAlive = false;
    std::optional<LiveRound> live;

    /// The record `assess` takes for `info`: the published one; or, when
    /// `info` is running, the writer lives and its record is not (yet) of
    /// `info`, an empty record of `info` — the round has just begun (it
    /// stores its iteration's row, then its first record, RoundRunner). A
    /// killed writer holds no lock, and a writer that opens the project marks
    /// a dead round's iteration interrupted, so this never hides a dead round.
    std::optional<LiveRound> recordOf(const IterationInfo &info) const;
};
/// Reads the lock and the live record now. Blocking (two small files).
Observed observe(const QString &projectPath);

/// The project's iterations worth a look: every running or interrupted one
/// and the newest, each assessed now; the project is opened read-only (a
/// round may run in it). Blocking. A failure when it cannot be read.
Result<QList<IterationLiveness>> status(const QString &projectPath);

} // namespace RoundLiveness

} // namespace dreamrsi
