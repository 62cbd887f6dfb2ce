#pragma once

#include "base/result.h"
#include "import/runimport.h"
#include "store/storetypes.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace dreamrsi {

/// What a comparison's curves are drawn against (docs/compare.md).
enum class CompareAxis {
    Calls,   ///< cumulative agent calls: one per cell
    Usd,     ///< cumulative agent cost in US dollars (the cells' `agent.cost`)
    Seconds  ///< elapsed seconds since the source's first attempt started (the cells' `timing`)
};

/// Where one compared run comes from: a project's iterations, a run of
/// OpenEvolve or ShinkaEvolve, or a tree file.
struct CompareSourceSpec
{
    enum class Kind { Project, Run, Tree };
    Kind kind = Kind::Tree;
    QString path;
    /// A project's iterations by id, both ends included; all when none.
    std::optional<std::pair<IterationId, IterationId>> iterations;
    /// The setting the source is a seed of; empty: its own name.
    QString label;

    friend bool operator==(const CompareSourceSpec &, const CompareSourceSpec &) = default;
};

/// One cell as a comparison sees it, in the source's creation order.
struct CompareStep
{
    std::optional<double> score;  ///< a finite score of a cell that ran without error
    std::optional<double> cost;   ///< its agent's cost (USD), none when not recorded
    std::optional<double> endedS; ///< when it ended, seconds since the epoch; none when not recorded
    double wallS = 0.0;           ///< its wall-clock seconds (to find when the first one started)
    /// The iteration it was found at (OpenEvolve's `iteration_found`, the
    /// cell's `origin.iteration`); none when not recorded.
    std::optional<double> iteration;
};

/// A source read: its cells in creation order.
struct CompareSource
{
    QString label;  ///< the setting (a --label, else the source's name)
    QString name;   ///< the source's own name (project, run or tree file)
    QList<CompareStep> steps;
    bool hasCost = false;  ///< some cell recorded its cost
    bool hasTime = false;  ///< some cell recorded when it ended
    QStringList notes;     ///< what reading chose (an imported run's notes)
    /// An OpenEvolve checkpoint: the programs that survived to it, not every
    /// call of the run (docs/compare.md "Population snapshots").
    std::optional<RunImport::PopulationSnapshot> snapshot;
    /// Every cell recorded the iteration it was found at (and not all at 0).
    bool hasIterations = false;
    /// The tasks its cells are of (a tree's or an iteration's `task`), in
    /// order; empty where none is recorded (an imported run).
    QStringList tasks;
};

/// A source's best-so-far after each cell.
struct ComparePoint
{
    double x = 0.0;               ///< calls, USD or seconds after the cell
    std::optional<double> best;   ///< none until the first scored cell
};

struct CompareCurve
{
    QString label;
    QString name;
    QList<ComparePoint> points; ///< one per cell, x never decreasing
    std::optional<double> best; ///< the source's best score
    /// A population snapshot's curve: its survivors, drawn by calls against
    /// the iteration each was found at, in that order (x is the iteration).
    std::optional<RunImport::PopulationSnapshot> snapshot;
};

/// Why a source has no curve on the axis.
enum class CompareGap {
    Cost,     ///< `usd`: no cell recorded its cost
    Time,     ///< `seconds`: no cell recorded when it ended
    Snapshot  ///< a population snapshot: no history of calls, and not every survivor records its iteration found
};

/// A source the axis leaves out, and why.
struct CompareLeftOut
{
    QString name;
    CompareGap gap = CompareGap::Cost;
    std::optional<RunImport::PopulationSnapshot> snapshot; ///< with CompareGap::Snapshot
};

/// The mean of a label's seeds at one x, with the Student-t 95 % band.
struct CompareBandPoint
{
    double x = 0.0;
    double mean = 0.0;
    std::optional<double> lo; ///< none with one seed
    std::optional<double> hi;
};

/// One setting: its seeds (the curves of sources with its label that
/// recorded the axis) and their mean, at each x where every seed has data.
struct CompareGroup
{
    QString label;
    QList<int> curves;             ///< indices into CompareResult::curves
    QList<CompareBandPoint> band;  ///< at every x of a seed's curve where all seeds have a best
    QList<CompareLeftOut> unrecorded; ///< its sources without the axis (not drawn)
    int snapshots = 0;             ///< how many of its drawn seeds are population snapshots
};

struct CompareResult
{
    CompareAxis axis = CompareAxis::Calls;
    QList<CompareCurve> curves;  ///< the sources that recorded the axis, in the order given
    QList<CompareGroup> groups;  ///< one per label, in order of first appearance
    /// One line per source the axis leaves out ("run-b: no cost recorded, no USD curve")
    /// and per population snapshot (drawn by its iteration found, or why not).
    QStringList notes;
    /// Every task the sources name, in order of first appearance: more
    /// than one means scores on different scales (a note says so first).
    QStringList tasks;
    /// The population snapshots that cannot be drawn on the axis (CompareGap::Snapshot):
    /// `dreamrsi plot compare` refuses them, the Compare tab leaves them out.
    QList<CompareLeftOut> refusedSnapshots() const;
    /// Some drawn curve is a snapshot's, its x the iteration found.
    bool hasIterationCurves() const;
    /// Every drawn curve is a snapshot's.
    bool onlyIterationCurves() const;
};

/// Best-so-far score against calls, cost or time for runs of any origin,
/// seeds of one setting aggregated (docs/compare.md). `dreamrsi plot
/// compare` and the Compare tab both call it: what is exported is what is seen.
namespace CompareCurves {

QString axisName(CompareAxis axis);              ///< "calls" | "usd" | "seconds"
std::optional<CompareAxis> axisFromName(const QString &name);

/// Reads a source: a project's iterations (cells in seq order, iterations
/// by id), a run as File ▸ Open maps it (the import's creation order), or a
/// tree file (seq order). `scoreMetric`, when not empty, scores cells by
/// that metric instead of their score: a run reads it as `--score`, trees
/// and projects take it from each ok cell's `metrics`; a source where no
/// cell has it is an error. A failure names the source.
Result<CompareSource> read(const CompareSourceSpec &spec, const QString &scoreMetric = {});
/// What `path` is: a run (RunImport::looksLikeRunPath), a project (an
/// SQLite file without `programs`), else a tree file.
CompareSourceSpec::Kind kindOf(const QString &path);
/// The source's name: the project's or tree file's base name, a run's world name.
QString nameOf(const CompareSourceSpec &spec);

/// A source's curve against `axis`; none when it did not record the axis. A
/// population snapshot has a curve only by calls, and only when every
/// survivor records its iteration found: then x is that iteration, the
/// cells in its order.
std::optional<CompareCurve> curveOf(const CompareSource &source, CompareAxis axis);
/// Why `source` has no curve on `axis` (curveOf() gave none).
CompareGap gapOf(const CompareSource &source, CompareAxis axis);

/// "21 survivors of iterations 0-200": what a snapshot holds, for the CSV and the notes.
QString snapshotText(const RunImport::PopulationSnapshot &snapshot);
/// The line that says a source is a population snapshot: drawn by iteration
/// found, or (`refused`) why it is not drawn and the folder with the run's full history.
QString snapshotNote(const QString &name, const RunImport::PopulationSnapshot &snapshot, bool refused);
/// The curves, the groups by label with their bands, and the notes.
CompareResult compare(const QList<CompareSource> &sources, CompareAxis axis);

/// The numbers behind the figure: header
/// `label,source,x,best,lo,hi,population_snapshot`; one row per cell of every
/// curve (best empty until its first score), then each label's mean rows
/// (source `mean`, `best` the mean, `lo`/`hi` the band, empty with one seed).
/// `population_snapshot` is empty for a history; for a snapshot's rows it
/// is snapshotText() (x the iteration found), for a mean's "k of n seeds".
QList<QStringList> csvRows(const CompareResult &result);
QStringList csvHeader();

} // namespace CompareCurves
} // namespace dreamrsi
