// dreamrsi-bench: the benchmarks (`dreamrsi bench NAME`), an executable of
// their own that a build tree has beside `dreamrsi` and an installation
// never has (docs/architecture.md): `dreamrsi bench NAME …` becomes this
// process (execv, the same arguments), and `dreamrsi-bench NAME …` runs one
// directly. The benchmarks that print figures are app/bench, those that draw
// (livetree, islands) app/bench/render, with the views library, offscreen
// when there is no display.
#include "benchcommands.h"
#include "benches.h"
#include "benchserve.h"
#include "commandline.h"
#include "islandsbench.h"
#include "livetreebench.h"

#include <QCoreApplication>
#include <QFile>
#include <QTextStream>

#include <memory>

namespace {

using BenchFn = int (*)(const QStringList &args, QTextStream &out, QTextStream &err);

struct Bench
{
    const char *name;
    const char *summary;
    BenchFn run;
    bool draws = false; ///< needs a QApplication (the views): livetree, islands
};

// One line per benchmark; keep sorted by name.
const Bench benches[] = {
    {"compare", "whole-process times against the Python reference of docs/replay.md (tests/replay_reference)", dreamrsi::runBenchCompareCommand},
    {"dream", "time and peak memory of a dream valued over the revealed history and over imagined completions", dreamrsi::runBenchDreamCommand},
    {"import", "open a 10,000-program OpenEvolve folder and ShinkaEvolve database as trees", dreamrsi::runBenchImportCommand},
    {"islands", "ms per GUI frame of a 10,000-program imported run: genealogy, islands, behaviour grid (--out RUN keeps the run)",
     dreamrsi::runBenchIslandsCommand, true},
    {"livetree", "ms per frame of the Live Round panel: 10,000 cells, 100 more a second", dreamrsi::runBenchLiveTreeCommand, true},
    {"replay", "episodes/s and reveals/s of built-in and scripted replays", dreamrsi::runBenchReplayCommand},
    {"round", "orchestration overhead per attempt of a live round (instant agent and evaluator)", dreamrsi::runBenchRoundCommand},
    {"serve", "dreamrsi serve: stored -> seen latency of the event stream (median, p95), cells-after-seq requests/s",
     dreamrsi::runBenchServeCommand},
    {"sandbox", "sandbox overhead of /bin/true vs a bare run; pool throughput", dreamrsi::runBenchSandboxCommand},
    {"store", "import many worlds; open a large project and load one tree", dreamrsi::runBenchStoreCommand},
    {"tree", "parse and index a large synthetic tree", dreamrsi::runBenchTreeCommand},
};

void printUsage(QTextStream &s)
{
    s << "usage: dreamrsi bench NAME [ARGS...]   (or dreamrsi-bench NAME [ARGS...])\n\nbenchmarks:\n";
    for (const Bench &b : benches)
        s << "  " << QString::fromLatin1(b.name).leftJustified(10) << ' ' << b.summary << '\n';
    s << "\n`dreamrsi bench NAME --help` describes one. The benchmarks print figures; they are built\n"
         "beside dreamrsi in a build tree and are not installed.\n";
}

const Bench *find(const QString &name)
{
    for (const Bench &b : benches) {
        if (name == QLatin1String(b.name))
            return &b;
    }
    return nullptr;
}

} // namespace

int main(int argc, char *argv[])
{
    QStringList args;
    for (int i = 1; i < argc; ++i)
        args.append(QString::fromLocal8Bit(argv[i]));
    if (args.value(0) == QLatin1String("bench")) // as `dreamrsi bench …` hands it over
        args.removeFirst();
    const QString name = args.isEmpty() ? QString() : args.takeFirst();
    const Bench *bench = find(name);

    std::unique_ptr<QCoreApplication> app;
    if (bench && bench->draws) {
        // The panel and the views render offscreen when there is no display.
        if (qEnvironmentVariableIsEmpty("DISPLAY") && qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY")
            && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
            qputenv("QT_QPA_PLATFORM", "offscreen");
        // Its events can be timed (the phases of bench livetree's slowest frames).
        app = std::make_unique<dreamrsi::RenderApplication>(argc, argv);
    } else {
        app = std::make_unique<QCoreApplication>(argc, argv);
    }
    // The processes a benchmark starts (replays, `serve`, the timed runs of
    // bench compare) are the dreamrsi beside this one.
    if (qEnvironmentVariableIsEmpty("DREAMRSI_PROGRAM"))
        qputenv("DREAMRSI_PROGRAM", QFile::encodeName(dreamrsi::benchProgram()));
    return dreamrsi::CommandLine::dispatch(name, QStringLiteral("bench ") + name, bench ? bench->run : nullptr, args,
                                           printUsage);
}
