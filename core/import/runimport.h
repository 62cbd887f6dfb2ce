#pragma once

#include "base/result.h"
#include "model/discoverytree.h"

#include <QString>
#include <QStringList>

#include <optional>

namespace dreamrsi::RunImport {

/// The frameworks whose runs open as trees (README "Opening OpenEvolve and
/// ShinkaEvolve runs", docs/tree-format.md#imported-runs).
enum class Framework { OpenEvolve, ShinkaEvolve };
QString frameworkName(Framework f); ///< "openevolve" | "shinkaevolve"

/// How a run is read.
struct Options
{
    /// `--score METRIC`: the metric that scores a program; empty for the
    /// framework's own score (combined_score, else OpenEvolve's mean).
    QString scoreMetric;
};

/// What `path` is, judged without reading it whole: an OpenEvolve
/// checkpoint, output or db folder, or a ShinkaEvolve SQLite database
/// (told from a project file by its `programs` table). Nothing for anything
/// else (a tree file, a project, a folder of something else).
std::optional<Framework> detect(const QString &path);
inline bool isRun(const QString &path) { return detect(path).has_value(); }

/// An OpenEvolve checkpoint read without its db/: a population snapshot, the
/// programs that survived to the checkpoint, not every program the run made
/// (docs/compare.md "Population snapshots").
struct PopulationSnapshot
{
    QString checkpoint;   ///< the checkpoint folder read: the path given, or the one chosen under it
    qint64 programs = 0;  ///< its programs, copies aside (the initial program among them when it survived)
    qint64 lastIteration = 0; ///< the checkpoint's number N: the survivors are of iterations 0 … N
    /// The run's db/ next to the checkpoint (the output folder's db/) when it
    /// holds programs: every program of the run. Empty when there is none.
    QString history;
    /// Where that db/ would be (the output folder's db/), said when there is none.
    QString historyPlace;
};

/// A run read and mapped onto a tree.
struct Imported
{
    DiscoveryTree tree;
    /// The run's framework; nothing for a tree file read by readTreeOrRun().
    std::optional<Framework> framework;
    /// What the reading chose that the user should know (which folder of an
    /// output folder was read): one line each, for stderr or a status bar.
    QStringList notes;
    /// Set when what was read is a population snapshot (an OpenEvolve
    /// checkpoint); nothing for a full history (db/, a ShinkaEvolve database).
    std::optional<PopulationSnapshot> snapshot;
};

/// Reads the run at `path` read-only and maps it onto a tree (the mapping of
/// docs/tree-format.md#imported-runs). A failure names the file and, where
/// it is about one, the program id; nothing is written anywhere.
Result<Imported> read(const QString &path, const Options &options = {});

/// Whether `path` is to be read as a run rather than as a tree file: a
/// folder, an SQLite file with a `programs` table, or a file named
/// `.sqlite`, `.sqlite3` or `.db` (which, unreadable, gets the database's
/// message). A project file is an SQLite file without `programs`: no run.
bool looksLikeRunPath(const QString &path);

/// A tree file or a run, whichever looksLikeRunPath() says `path` is: what
/// every place that opens "a tree" calls (the commands, the workbench).
/// `options` apply to runs only.
Result<Imported> readTreeOrRun(const QString &path, const Options &options = {});

/// A run's name as a world (and as the source an iteration is named by): a
/// folder called db or checkpoint_N says little alone, so it goes with its
/// parent's name ("openevolve_output-db"); anything else is its file name.
QString worldName(const QString &path);

/// What the mapping of a run did, from the tree's `imported_from` payload:
/// "imported from openevolve: 12 programs, 2 copies dropped, 1 fork, 0
/// orphans, 0 failed proposals; an approximate world". Empty for a tree that
/// was not imported.
QString importSummary(const DiscoveryTree &tree);

/// What a run offers to score by: whether any program has a
/// `combined_score`, and the names of its numeric metrics (sorted), for the
/// workbench's question when it has none.
struct MetricSurvey
{
    bool hasCombinedScore = false;
    QStringList numericMetrics;
};
Result<MetricSurvey> surveyMetrics(const QString &path);
/// The same over a tree a run was read into (its cells' `metrics`): what
/// the workbench asks after one reading, before it reads again by the chosen metric.
MetricSurvey surveyMetrics(const DiscoveryTree &imported);

} // namespace dreamrsi::RunImport
