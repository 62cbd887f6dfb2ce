#pragma once

#include <QString>
#include <QTextStream>

namespace dreamrsi {

/// `dreamrsi bench islands`: an imported run of N programs (10,000) on I
/// islands (4), written as a synthetic OpenEvolve db folder, read (on a
/// worker in the workbench, timed apart), then on the GUI thread: shown in
/// the Discovery tab (its default genealogy), laid out by island, panned and
/// zoomed, and its behaviour grid filled step by step along the slider. Prints
/// the milliseconds of every step and the slowest frame of each phase, and
/// says which went over a frame's 16 ms.
struct IslandsBenchOptions
{
    int programs = 10000;
    int islands = 4;
    int steps = 60; ///< slider positions the grid is filled at
    /// Where the run is written and kept (`--out RUN`: an OpenEvolve run
    /// folder, RUN/programs/*.json, that File ▸ Open Run…, `dreamrsi export
    /// RUN` and `dreamrsi path RUN` open); empty: a temporary folder, removed.
    /// A folder that exists must be empty.
    QString out;
};
int benchIslands(const IslandsBenchOptions &options, QTextStream &out, QTextStream &err);

/// The bench's run, also the screenshots' (dreamrsi-screenshot --islands): an
/// OpenEvolve db folder of `programs` programs on `islands` islands, each
/// program's parent a random earlier one of its island (recent ones
/// likelier), one in forty from another island through a migrant copy,
/// generation = parent's + 1, metrics `speed` and `size` besides the score.
/// False on a failure, said on `err`.
bool writeSyntheticRun(const QString &folder, int programs, int islands, QTextStream &err);
int runBenchIslandsCommand(const QStringList &args, QTextStream &out, QTextStream &err);

} // namespace dreamrsi
