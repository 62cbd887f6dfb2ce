#pragma once

#include <QList>
#include <QStringList>
#include <QTextStream>

#include <optional>

namespace dreamrsi {

/// One option of a benchmark and where its value goes: a whole number of at
/// least `min`, (with `real`) a positive number, or (with `path`) a path,
/// not empty.
struct Count
{
    const char *name;
    int *target;
    int min;
    double *real = nullptr;
    QString *path = nullptr;
};

/// The `dreamrsi` a benchmark runs as a child process (replays, the timed
/// runs of bench compare): the one beside dreamrsi-bench.
QString benchProgram();

/// User + system CPU seconds so far of this process, all threads (`who`
/// RUSAGE_SELF), or of its waited-for children and their descendants
/// (RUSAGE_CHILDREN): on a busy machine the wall clock says little, the CPU
/// time says what the work costs.
double cpuSeconds(int who);

/// Reads a benchmark's options into their targets; returns the exit status
/// when the benchmark should not run (--help: 0, a bad option or value: 2).
std::optional<int> readBenchCounts(const char *bench, const char *usage, const QStringList &args,
                                   const QList<Count> &counts, QTextStream &out, QTextStream &err);

// The benchmarks of `dreamrsi bench NAME` (arguments read in
// benchcommands.cpp). Each prints its figures on `out` as it goes and
// returns the exit status: 0 done, 1 a failure (said on `err`).

/// Parses, indexes and re-serialises a synthetic tree (width 100).
struct TreeBenchOptions
{
    int cells = 100000;
};
int benchTree(const TreeBenchOptions &options, QTextStream &out, QTextStream &err);

/// Median wall time of /bin/true bare, under bubblewrap and under the
/// fallback sandbox; the throughput of trivial evaluations through a pool.
struct SandboxBenchOptions
{
    int runs = 50;
    int workers = 0; ///< pool size; 0 = the ideal thread count
    int evaluations = 40;
};
int benchSandbox(const SandboxBenchOptions &options, QTextStream &out, QTextStream &err);

/// Importing many worlds; opening a large project and loading one tree.
struct StoreBenchOptions
{
    int worlds = 1000;
    int cells = 110;
    int projectCells = 100000;
    int treeCells = 10000;
};
int benchStore(const StoreBenchOptions &options, QTextStream &out, QTextStream &err);

/// The orchestration overhead of a live round per attempt, with an instant
/// agent and an instant evaluation backend so that nothing else is timed.
struct RoundBenchOptions
{
    int branches = 16;
    int refinements = 15;
    int workers = 8;
};
int benchRound(const RoundBenchOptions &options, QTextStream &out, QTextStream &err);

/// Episodes/s and reveals/s of built-in and scripted replays in synthetic
/// worlds, in process and in child `dreamrsi replay` processes.
struct ReplayBenchOptions
{
    int worlds = 1000;
    int runs = 3; ///< whole-process rows: best of this many runs
};
int benchReplay(const ReplayBenchOptions &options, QTextStream &out, QTextStream &err);

/// Time and peak memory of one dream over synthetic history worlds, valued
/// over the history as revealed and over C imagined completions.
struct DreamBenchOptions
{
    int worlds = 30;
    int versions = 4;
    int completions = 8;
    QString valuation = QStringLiteral("both"); ///< revealed, imagined or both (revealed first)
};
int benchDream(const DreamBenchOptions &options, QTextStream &out, QTextStream &err);

/// Opening runs of other frameworks (core/import): a synthetic OpenEvolve
/// db folder and a synthetic ShinkaEvolve database of N programs each, read
/// and mapped onto a tree.
struct ImportBenchOptions
{
    int programs = 10000;
};
int benchImport(const ImportBenchOptions &options, QTextStream &out, QTextStream &err);

} // namespace dreamrsi
