#pragma once

// Internal to core/import: one program of a run as both readers hand it to
// the mapping, and the mapping onto a tree (docs/tree-format.md#imported-runs).

#include "runimport.h"

#include <QJsonObject>
#include <QJsonValue>
#include <QList>
#include <QString>

#include <optional>

namespace dreamrsi::RunImport::detail {

/// A key of a run's JSON objects, spelt as the file spells it (ASCII).
inline QLatin1String key(const char *k)
{
    return QLatin1String(k);
}

/// One program as read, already scored (rule 5) and with its payload (rule 6)
/// made; the mapping decides its place.
struct RunProgram
{
    QString id;
    std::optional<QString> parentId; ///< as stored; nothing when it has none
    double timestamp = 0.0;
    QString file;                    ///< where it was read (for messages)

    bool isCopy = false;             ///< a migrant or island copy (rule 1)
    std::optional<QString> copyOf;   ///< the program a copy copies

    /// The cell's fields (rule 5).
    std::optional<double> score;
    bool evaluated = false;
    std::optional<bool> valid;
    QString failClass;
    std::optional<QString> error;
    /// Payload keys (rule 6) but `forked_from` and `orphan`, which the mapping adds.
    QJsonObject payload;
    QString code;                    ///< the program's code (the initial program's becomes `initial_program`)
};

/// What a reader adds to `imported_from` besides what the mapping counts.
struct RunExtras
{
    QString source;                  ///< the path given
    qint64 failedProposals = 0;      ///< failed proposals that are no program (Shinka's attempt_log)
    /// M of `population_snapshot` ("N of M iterations") for a checkpoint
    /// read without its db/: the checkpoint's number + 1; 0 otherwise.
    qint64 snapshotIterations = 0;
};

/// A run's programs as a reader found them, before the mapping.
struct ProgramsRead
{
    QList<RunProgram> programs;
    RunExtras extras;
    QStringList notes; ///< what the reader chose (Imported::notes)
    /// A checkpoint read (Imported::snapshot), `programs` left for the caller to count.
    std::optional<PopulationSnapshot> snapshot;
};

/// Rules 1-4 and 7: drops copies, orders the programs, takes the initial
/// program out and places every other one as a cell; fails on a duplicated
/// id or a cycle of parents, naming the file and the program.
Result<DiscoveryTree> buildTree(QList<RunProgram> programs, Framework framework, const RunExtras &extras);

/// Python's json writes NaN, Infinity and -Infinity as bare words, which JSON
/// has not: each becomes null (outside strings), so the file parses.
QByteArray withoutNonFiniteWords(const QByteArray &json);

/// A JSON number that is finite and not a boolean (booleans are flags, not scores).
std::optional<double> finiteNumber(const QJsonValue &v);

} // namespace dreamrsi::RunImport::detail
