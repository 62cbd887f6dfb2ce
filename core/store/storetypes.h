#pragma once

#include "model/cell.h"
#include "model/discoverytree.h"
#include "model/imaginationrule.h"
#include "base/result.h"

#include <QByteArray>
#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <algorithm>
#include <optional>

namespace dreamrsi {

// Value types exchanged with the history store (store/projectstore.h). They
// are plain data, copied between threads; none of them touches SQLite. They
// share one header because they are the vocabulary of one API.

/// Row ids of the project database. 0 never names a row.
using IterationId = qint64;
using PolicyVersionId = qint64;

/// Project-wide settings, one row per project.
struct ProjectInfo
{
    QString name;          ///< display name (defaults to the file's base name)
    QString task;          ///< task id, e.g. "circle_packing_26"; may be empty
    QJsonObject settings;  ///< free-form settings (grid caps, workers, agent choice, …)
    QDateTime created;     ///< UTC
    int schemaVersion = 0; ///< PRAGMA user_version of the open database
    QString path;          ///< absolute path of the database file
    QString artifactDir;   ///< absolute path of the artifact folder beside it
};

/// Lifecycle of an online round. `Interrupted` is set by the store itself when
/// a project is opened whose round was still `Running` (the process died);
/// `Stopped` when the user (or a signal) stopped the round cleanly. Both can
/// be resumed.
enum class IterationStatus { Running, Finished, Interrupted, Stopped };
QString iterationStatusName(IterationStatus s);
std::optional<IterationStatus> iterationStatusFromName(const QString &name);

/// One iteration (online round, or an imported tree). The tree's top-level
/// fields (docs/tree-format.md) are kept exactly so that export reproduces the file.
struct IterationInfo
{
    IterationId id = 0;                 ///< project-internal id (assigned by the store)
    std::optional<qint64> number;       ///< the tree's `iteration` field
    std::optional<QString> task;        ///< the tree's `task`
    std::optional<double> baselineScore;
    std::optional<int> maxParallelism;  ///< W of the round (`max_parallelism`)
    std::optional<int> roundLimit;      ///< K1 of a live round (its round limit); nullopt = none or unknown
    std::optional<qint64> callLimit;    ///< a live round's agent-call cap; nullopt = none or unknown
    std::optional<GridShape> grid;      ///< the grid plan (`grid`)
    QString gridReason;                 ///< why the policy chose that grid
    std::optional<double> beta;         ///< budget preference of the live round
    PolicyVersionId policyVersion = 0;  ///< policy that drove the round; 0 = unknown / imported
    IterationStatus status = IterationStatus::Finished;
    QDateTime started;                  ///< UTC
    QDateTime finished;                 ///< UTC, invalid while running
    std::optional<double> bestScore;    ///< largest finite score among its cells
    qint64 cellCount = 0;               ///< cells stored so far
    QString source;                     ///< file it was imported from, empty for live rounds
    QJsonObject payload;                ///< unknown top-level keys of the tree file, verbatim

    /// The tree-file view of the top-level fields.
    TreeMeta treeMeta() const;
};

/// The limits a resumed round runs under; its iteration's row takes them
/// (W, round limit, call cap), so that whoever follows it knows them.
struct IterationLimits
{
    int maxParallelism = 1;
    std::optional<int> roundLimit;
    std::optional<qint64> callLimit;
};

/// An iteration's row and its cells, read from one snapshot: the cell
/// count and best score of `info` agree with `cells`.
struct IterationData
{
    IterationInfo info;
    QList<Cell> cells; ///< in seq order, payload rebuilt
};

/// Where a policy version came from.
enum class PolicyOrigin { Builtin, Human, Agent };
QString policyOriginName(PolicyOrigin o);
std::optional<PolicyOrigin> policyOriginFromName(const QString &name);

/// One version of an exploration policy (a JavaScript file, docs/policy-api.md).
struct PolicyVersion
{
    PolicyVersionId id = 0;       ///< assigned by the store
    QString name;                 ///< unique within the project, e.g. "builtin:greedy" or "v7"
    QString code;                 ///< the script source
    PolicyVersionId parent = 0;   ///< version it was derived from; 0 = none
    PolicyOrigin origin = PolicyOrigin::Human;
    QString prompt;               ///< prompt given to the policy-development agent (origin Agent)
    QString response;             ///< the agent's raw response
    QDateTime created;            ///< UTC
};

/// The parameters that identify one replay episode of a version in a world
/// (docs/replay.md#an-episode): β, W, λ, round limit K and an optional grid restriction.
struct ReplayKey
{
    PolicyVersionId version = 0;
    IterationId world = 0;             ///< the iteration replayed as a frozen world
    double beta = 0.0;
    int workers = 10;                  ///< W
    double lambda = 0.1;               ///< λ of the sweep the episode belongs to
    std::optional<int> rounds;         ///< K; nullopt = no limit
    std::optional<GridShape> grid;     ///< grid restriction; nullopt = none
    /// Imagined valuation (docs/online.md#valuation): the number C of
    /// completions of each world the episode's value belongs to, and which
    /// completion k (0 … C−1) of `world` was replayed. 0 and 0: the world as
    /// revealed.
    int completions = 0;
    int completion = 0;
    /// The imagination rule the completions were drawn under; capped for a
    /// world as revealed (docs/online.md#imagination-rules).
    ImaginationRule rule = ImaginationRule::Capped;
    bool isImagined() const { return completions > 0; }
    friend bool operator==(const ReplayKey &, const ReplayKey &) = default;
};

/// The replay configuration of a project (one per project): W, λ, the β
/// grid and K. Dreams, project replays, values, approval and plots all use
/// it; results computed under another configuration are kept and shown with
/// theirs, never averaged or compared with the project's.
/// What a dream values a version over (docs/online.md#valuation): the
/// history worlds as the deployed policies revealed them, or C imagined
/// completions of each (core/replay/worldmodel.h).
enum class Valuation {
    Revealed,
    Imagined,
};
QString valuationName(Valuation v);
std::optional<Valuation> valuationFromName(const QString &name);

struct ReplayConfig
{
    ReplayConfig(); // out of line: keeps GCC's inlined QList copy of the default β grid out of callers
    int workers = 10;                               ///< W
    double lambda = 0.1;                            ///< λ of the value
    QList<double> betas{0.0, 0.25, 0.5, 0.75, 1.0}; ///< the β grid, ascending
    std::optional<int> rounds;                      ///< K; nullopt = no limit
    /// The valuation and its number of completions C. The defaults are a new
    /// project's (and a loop's without a project); an upgraded project keeps
    /// `revealed` until the user changes it.
    Valuation valuation = Valuation::Imagined;
    int completions = 8;
    /// How imagined completions are drawn (docs/online.md#imagination-rules);
    /// meaningful only under the imagined valuation.
    ImaginationRule rule = ImaginationRule::Capped;
    friend bool operator==(const ReplayConfig &, const ReplayConfig &) = default;

    /// Completions per world under valuation `v` with this configuration's
    /// C: C (at least 1) when imagined, 0 when revealed. The one rule for C
    /// (docs/online.md#valuation); stored C is at least 1 already (ReplayBounds).
    int completionsUnder(Valuation v) const { return v == Valuation::Imagined ? std::max(1, completions) : 0; }
    /// Completions per world under this configuration's own valuation.
    int imaginedCompletions() const { return completionsUnder(valuation); }
    /// "W 10, λ 0.1, β {0, 0.25, 0.5, 0.75, 1}, no K" (revealed) or "…, no K,
    /// imagined C 8" ("…, imagined C 8, widened" under the widened rule): how
    /// results are labelled.
    QString label() const;
    /// {workers, lambda, betas, rounds, valuation, completions, rule} (rounds null when there is no K).
    QJsonObject toJson() const;
    /// The configuration of a stored episode's key, with β set `betas`.
    static ReplayConfig ofKey(const ReplayKey &key, const QList<double> &betas);
    /// True when an episode stored under `key` belongs to this configuration:
    /// same W, λ, K and valuation (C and, when imagined, the rule), and its β is in the grid.
    bool covers(const ReplayKey &key) const;
};

/// Who set a project's replay configuration last.
enum class ReplayConfigOrigin {
    Default,   ///< never set: the defaults; the first round sets W to its own
    FirstRound,///< W taken from the project's first round
    Dream,     ///< taken from the project's most recent dream when the schema was upgraded
    User,      ///< set by the user (Settings, `dreamrsi project config`)
};
QString replayConfigOriginName(ReplayConfigOrigin o);
std::optional<ReplayConfigOrigin> replayConfigOriginFromName(const QString &name);

/// The stored replay configuration and where it came from.
struct StoredReplayConfig
{
    ReplayConfig config;
    ReplayConfigOrigin origin = ReplayConfigOrigin::Default;
    QDateTime updated; ///< UTC; invalid when never set
};

/// Explicit flags that replace parts of the project's configuration for one
/// run only (`replay --project`, `dream`, `loop`); results are labelled with
/// the configuration they were computed under.
struct ReplayConfigOverrides
{
    std::optional<int> workers;
    std::optional<double> lambda;
    std::optional<QList<double>> betas;
    std::optional<int> rounds;
    std::optional<Valuation> valuation;
    std::optional<int> completions;
    std::optional<ImaginationRule> rule;

    bool any() const { return workers || lambda || betas || rounds || valuation || completions || rule; }
    ReplayConfig applyTo(ReplayConfig config) const;
};

/// One stored replay episode result. Storing a result with the same key
/// replaces the earlier one.
struct ReplayResultRecord
{
    ReplayKey key;
    qint64 calls = 0;                  ///< n = |R|
    int rounds = 0;                    ///< k*
    double best = 0.0;                 ///< s = best effective score revealed
    double attainment = 0.0;           ///< a = s / S, in [0, 1]
    QStringList revealed;              ///< reveal order (cell ids)
    std::optional<QString> error;      ///< policy error ("round 3: …"), nullopt when none
    QDateTime created;                 ///< UTC, set by the store
};

/// A researcher's approval of a policy version for the next online round.
struct Approval
{
    qint64 id = 0;
    PolicyVersionId version = 0;
    QDateTime when;                    ///< UTC; set by the store when invalid
    QString who;
    QJsonObject evidence;              ///< the comparison table that was shown, verbatim
    QString note;
};

/// Something a person did to a live round or a loop while it ran, recorded
/// the moment it was applied: an intervention (`close`, `refine`, `hint`,
/// `pause`, `continue`), a batch picked by hand (`batch`, manual
/// exploration), or the loop's approval gate (`awaiting_approval`,
/// `approved`, `declined`).
struct SteeringEvent
{
    qint64 id = 0;                     ///< assigned by the store
    IterationId iteration = 0;         ///< 0 = outside a round (approval waits)
    std::optional<int> round;          ///< 0-based round the event applies to (the next batch)
    QDateTime time;                    ///< UTC; set by the store when invalid
    QString who;
    QString action;
    std::optional<int> branch;         ///< the branch named, if any
    QString target;                    ///< the cell it aims at ("b2a3"), or "new" for the next new branch
    QString text;                      ///< a hint's text; a batch's ids separated by spaces
    QString why;
    QString requestId;                 ///< the inbox request it answers; empty when none
    QJsonObject payload;               ///< anything else (an approval wait's proposal)
};

/// One more full evaluation of a stored cell's program
/// (docs/online.md#re-evaluating-the-best): the cell's recorded score stays
/// as it was; these records sit beside it.
struct ReevaluationRecord
{
    qint64 id = 0;                     ///< assigned by the store
    IterationId iteration = 0;
    QString cellId;                    ///< "b2a3"
    std::optional<double> score;       ///< set when the evaluation succeeded
    QString failClass;                 ///< "ok" or a fail class (docs/tree-format.md#fail-classes)
    QString error;                     ///< the evaluator's message when it failed
    double seconds = 0.0;              ///< wall-clock seconds of the evaluation
    QString backend;                   ///< "local" or "slurm"
    QString host;                      ///< the machine that ran it, when known
    QString jobId;                     ///< the scheduler's job id (Slurm); empty for local runs
    QDateTime time;                    ///< UTC, when it ended; set by the store when invalid

    bool isOk() const { return score.has_value() && failClass == QLatin1String("ok"); }
};

/// A file kept in the project's content-addressed artifact folder.
struct ArtifactRef
{
    QString hash;                      ///< lowercase hex SHA-256 of the content
    qint64 size = 0;
    QString name;                      ///< name under which a cell refers to it (e.g. "main.cpp")
};

/// Result of a store operation: core's one result type (model/result.h),
/// a value or a message saying what went wrong and where.
template<typename T>
using StoreResult = Result<T>;

/// The process that holds a project's write lock (`<db>.lock`), as the lock
/// file names it.
struct WriterInfo
{
    qint64 pid = 0;
    QString host;
    QString application;
};

/// What opening a project found: its settings and the rounds that were
/// running when the process that owned them died. Those are now marked
/// `Interrupted`; their finished cells are kept and resumeIteration() can
/// reopen them.
struct OpenReport
{
    ProjectInfo project;
    QList<IterationInfo> interrupted;
    /// Artifact hashes referenced by the database but missing on disk (an
    /// artifact folder that was deleted or copied incompletely).
    QStringList missingArtifacts;
    bool artifactFolderRecreated = false;
    /// Opened for reading only (ProjectStore::openReadOnly): another live
    /// process, `writer`, holds the project for writing; rounds `Running` in
    /// it are that process's and still running.
    bool readOnly = false;
    std::optional<WriterInfo> writer;
};

} // namespace dreamrsi
