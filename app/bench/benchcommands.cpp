// `dreamrsi bench NAME`: the arguments of every benchmark but those that
// draw (app/bench/render); the benchmarks themselves are in bench*.cpp,
// dispatched by dreamrsi-bench (main.cpp).
#include "benchcommands.h"

#include "benches.h"
#include "commandline.h"
#include "optionvalues.h"

#include <QCoreApplication>

#include <limits>

#include <sys/resource.h>

namespace dreamrsi {

QString benchProgram()
{
    return QCoreApplication::applicationDirPath() + QStringLiteral("/dreamrsi");
}

double cpuSeconds(int who)
{
    rusage usage{};
    if (::getrusage(who, &usage) != 0)
        return 0.0;
    return double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
        + double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

std::optional<int> readBenchCounts(const char *bench, const char *usage, const QStringList &args,
                                   const QList<Count> &counts, QTextStream &out, QTextStream &err)
{
    QList<QCommandLineOption> options;
    for (const Count &c : counts)
        options.append(CommandLine::value(c.name, c.path ? "PATH" : "N"));
    auto usageError = [&](const QString &message) {
        err << "dreamrsi bench " << bench << ": " << message << '\n' << usage;
        return 2;
    };
    QCommandLineParser parser;
    if (const auto rc = CommandLine::parseOrAnswer(parser, options, args, usage, out, usageError))
        return rc;
    if (!parser.positionalArguments().isEmpty())
        return usageError(QStringLiteral("unexpected argument '%1'").arg(parser.positionalArguments().constFirst()));
    for (const CommandLine::Given &g : CommandLine::inOrder(parser, options)) {
        for (const Count &c : counts) {
            if (g.name != QLatin1String(c.name))
                continue;
            if (c.path) {
                if (g.value.trimmed().isEmpty())
                    return usageError(QStringLiteral("--%1 needs a path").arg(g.name));
                *c.path = g.value;
                continue;
            }
            if (c.real) {
                const Result<double> x = OptionValues::number(QStringLiteral("--") + g.name, g.value, 0.0,
                                                              std::numeric_limits<double>::infinity());
                if (!x || *x.value <= 0.0)
                    return usageError(QStringLiteral("--%1 needs a positive number (got '%2')").arg(g.name, g.value));
                *c.real = *x.value;
                continue;
            }
            const Result<qint64> n =
                OptionValues::integer(QStringLiteral("--") + g.name, g.value, c.min, std::numeric_limits<int>::max());
            if (!n)
                return usageError(n.error);
            *c.target = int(*n.value);
        }
    }
    return std::nullopt;
}

int runBenchTreeCommand(const QStringList &args, QTextStream &out, QTextStream &err)
{
    TreeBenchOptions o;
    if (const auto rc = readBenchCounts("tree", "usage: dreamrsi bench tree [--cells 100000]\n"
                                           "Parses, indexes and re-serialises a synthetic tree of N cells.\n",
                                   args, {{"cells", &o.cells, 1}}, out, err))
        return *rc;
    return benchTree(o, out, err);
}

int runBenchImportCommand(const QStringList &args, QTextStream &out, QTextStream &err)
{
    ImportBenchOptions o;
    if (const auto rc = readBenchCounts("import", "usage: dreamrsi bench import [--programs 10000]\n"
                                             "Opens a synthetic OpenEvolve db folder and a synthetic ShinkaEvolve\n"
                                             "database of N programs each as trees.\n",
                                   args, {{"programs", &o.programs, 1}}, out, err))
        return *rc;
    return benchImport(o, out, err);
}

int runBenchSandboxCommand(const QStringList &args, QTextStream &out, QTextStream &err)
{
    SandboxBenchOptions o;
    if (const auto rc = readBenchCounts("sandbox", "usage: dreamrsi bench sandbox [--runs 50] [--workers W] [--evaluations 40]\n"
                                              "Times /bin/true bare and sandboxed (median of N runs), and M trivial\n"
                                              "evaluations through a pool of W workers (default: one per core).\n",
                                   args, {{"runs", &o.runs, 1}, {"workers", &o.workers, 1}, {"evaluations", &o.evaluations, 1}},
                                   out, err))
        return *rc;
    return benchSandbox(o, out, err);
}

int runBenchStoreCommand(const QStringList &args, QTextStream &out, QTextStream &err)
{
    StoreBenchOptions o;
    if (const auto rc = readBenchCounts("store", "usage: dreamrsi bench store [--worlds 1000] [--cells 110] [--project-cells 100000] "
                                            "[--tree-cells 10000]\n"
                                            "Times importing many worlds, and opening a large project and loading one tree.\n",
                                   args,
                                   {{"worlds", &o.worlds, 1}, {"cells", &o.cells, 1}, {"project-cells", &o.projectCells, 1},
                                    {"tree-cells", &o.treeCells, 1}},
                                   out, err))
        return *rc;
    return benchStore(o, out, err);
}

int runBenchRoundCommand(const QStringList &args, QTextStream &out, QTextStream &err)
{
    RoundBenchOptions o;
    if (const auto rc = readBenchCounts("round", "usage: dreamrsi bench round [--branches 16] [--refinements 15] [--workers 8]\n"
                                            "Times a live round's orchestration per attempt (instant agent and evaluator).\n",
                                   args,
                                   {{"branches", &o.branches, 1}, {"refinements", &o.refinements, 0}, {"workers", &o.workers, 1}},
                                   out, err))
        return *rc;
    return benchRound(o, out, err);
}

int runBenchReplayCommand(const QStringList &args, QTextStream &out, QTextStream &err)
{
    ReplayBenchOptions o;
    if (const auto rc = readBenchCounts("replay", "usage: dreamrsi bench replay [--worlds 1000] [--runs 3]\n"
                                             "Episodes/s and reveals/s of built-in and scripted replays in N synthetic worlds,\n"
                                             "in this process; then whole `dreamrsi replay` and `validate` processes over N\n"
                                             "`dreamrsi synth` worlds beside the Python reference of docs/replay.md and json.load,\n"
                                             "best of R runs each, with their ratios and issue 56's goals (the rows of\n"
                                             "`bench compare --generators synth`; without Python, dreamrsi's times alone).\n",
                                   args, {{"worlds", &o.worlds, 1}, {"runs", &o.runs, 1}}, out, err))
        return *rc;
    const int rc = benchReplay(o, out, err);
    CompareOptions compare;
    compare.worlds = o.worlds;
    compare.runs = o.runs;
    compare.generators = {QStringLiteral("synth")};
    compare.requirePython = false;
    out << "whole processes against the Python reference and json.load (as bench compare --generators synth):\n";
    out.flush();
    const int compared = benchCompare(compare, out, err);
    return rc != 0 ? rc : compared;
}

int runBenchDreamCommand(const QStringList &args, QTextStream &out, QTextStream &err)
{
    DreamBenchOptions o;
    QStringList rest = args;
    // --valuation takes a word; the counts go through readBenchCounts.
    if (const qsizetype i = rest.indexOf(QStringLiteral("--valuation")); i >= 0) {
        if (i + 1 >= rest.size() || !QStringList{QStringLiteral("revealed"), QStringLiteral("imagined"), QStringLiteral("both")}.contains(rest.at(i + 1))) {
            err << "error: --valuation must be revealed, imagined or both\n";
            return 2;
        }
        o.valuation = rest.at(i + 1);
        rest.remove(i, 2);
    }
    if (const auto rc = readBenchCounts("dream",
                                        "usage: dreamrsi bench dream [--worlds 30] [--versions 4] [--completions 8] "
                                        "[--valuation revealed|imagined|both]\n"
                                        "Time and peak memory of one dream (built-in improver, in process) over N synthetic\n"
                                        "history worlds, valued over the history as revealed and over C imagined completions.\n",
                                        rest, {{"worlds", &o.worlds, 1}, {"versions", &o.versions, 1}, {"completions", &o.completions, 1}},
                                        out, err))
        return *rc;
    return benchDream(o, out, err);
}

} // namespace dreamrsi
