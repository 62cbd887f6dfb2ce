#pragma once

#include "storetypes.h"

#include "model/cell.h"

#include <QByteArray>
#include <QDateTime>
#include <QJsonObject>

#include <optional>

namespace dreamrsi {

class SqliteStatement;

/// How a cell's payload maps onto the columns of `cells` (internal). The
/// conventional keys move to their own columns when they have the expected
/// type; anything else stays in `payload`. join() inverts split() exactly.
struct CellColumns
{
    std::optional<QString> proposal;
    std::optional<QString> program;
    std::optional<QString> stdoutText;
    std::optional<QString> stderrText;
    QByteArray metrics; ///< compact JSON object, empty = absent
    QByteArray agent;   ///< compact JSON object, empty = absent
    QByteArray timing;  ///< compact JSON object, empty = absent
    // Derived from `agent` and `timing`, for queries only.
    std::optional<QString> agentName;
    std::optional<QString> model;
    std::optional<qint64> tokensIn;
    std::optional<qint64> tokensOut;
    std::optional<double> cost;
    std::optional<double> agentWall;
    std::optional<double> evalWall;
    std::optional<double> wall;
    QByteArray payload; ///< compact JSON object of the remaining keys

    static CellColumns split(const QJsonObject &payload);
    /// Rebuilds the payload from the stored columns.
    static QJsonObject join(const std::optional<QString> &proposal, const std::optional<QString> &program,
                            const std::optional<QString> &stdoutText, const std::optional<QString> &stderrText,
                            const QByteArray &metrics, const QByteArray &agent, const QByteArray &timing,
                            const QByteArray &payload);
};

/// Column list selected by readers, in the order cellFromRow() expects.
inline constexpr const char *CellSelectColumns =
    "cell_id, branch, attempt, seq, score, evaluated, valid, fail_class, error, n_valid, n_total, tags, "
    "proposal, program, stdout, stderr, metrics, agent, timing, payload";
/// Builds a Cell from a row selected with CellSelectColumns starting at column `first`.
Cell cellFromRow(const SqliteStatement &row, int first = 0);

/// Column list of `iterations` selected by readers, in the order iterationFromRow() expects.
inline constexpr const char *IterationSelectColumns =
    "id, number, task, baseline_score, max_parallelism, grid_branches, grid_refinements, grid_reason, beta, "
    "policy_version_id, status, started, finished, best_score, cell_count, source, payload, rounds_limit, calls_limit";
IterationInfo iterationFromRow(const SqliteStatement &row);

/// Compact JSON helpers and the UTC timestamp format of the database.
QByteArray compactJson(const QJsonObject &o);
QJsonObject parseObject(const QByteArray &json);
QString storeTimestamp(const QDateTime &t);
QDateTime parseStoreTimestamp(const QString &text);

} // namespace dreamrsi
