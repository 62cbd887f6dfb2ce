// `dreamrsi bench compare`: the speed rows of issue 15 in one run. Whole
// processes, from start to exit, of this dreamrsi and of the independent
// Python reading of replay.md (tests/replay_reference, which rebuilds its
// state every round) on the same synthetic worlds: a scripted policy, the
// built-in portfolio, and reading the files. Figures only; nothing is judged.
#include "commands.h"

#include "commandline.h"
#include "optionvalues.h"

#include "model/compactcache.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QThread>

#include <algorithm>
#include <limits>
#include <optional>

namespace dreamrsi {

namespace {

const char *const compareUsage =
    "usage: dreamrsi bench compare [--worlds 1000] [--runs 3] [--seed 1] [--threads T]\n"
    "                              [--reference DIR] [--python python3] [--before OLD_DREAMRSI]\n"
    "Times, best of N runs each, whole processes of this dreamrsi and of the Python\n"
    "reference of replay.md in DIR (default: tests/replay_reference of the source tree,\n"
    "found from $DREAMRSI_SOURCE_DIR or next to the build) on the same synthetic worlds\n"
    "(5 betas, W = 10): greedy.js, builtin:portfolio, and validate against json.load.\n"
    "builtin:portfolio is timed twice: reading every world (--no-cache), and with the\n"
    "compact world cache filled by one run before (in the bench's own folder).\n"
    "With --before, an older dreamrsi is timed on the same rows too (without --no-cache).\n";

// The Python side: the reference's greedy policy over every world and β, and
// json.load of every file. Paths come as arguments.
const char *const pythonReplay = R"PY(
import json, sys
sys.path.insert(0, sys.argv[1])
import reference, policies
fn, plan = policies.POLICIES["greedy"]
betas = [0, 0.25, 0.5, 0.75, 1]
total = 0.0
for path in sys.argv[2:]:
    with open(path) as f:
        world = reference.World(json.load(f))
    sweep = [reference.episode(world, fn, b, 10, None, plan) for b in betas]
    if world.S > 0:
        total += reference.score(world, sweep, 0.1, len(betas))[2]
print(total)
)PY";

const char *const pythonParse = R"PY(
import json, sys
cells = 0
for path in sys.argv[1:]:
    with open(path) as f:
        cells += len(json.load(f)["cells"])
print(cells)
)PY";

struct Timed
{
    std::optional<double> seconds; ///< best wall time; nothing when a run failed
    QString failure;
    QByteArray out; ///< stdout of the last run
};

/// Runs `program` `runs` times; its output is dropped unless `keepOutput`
/// (as a shell's > /dev/null would, so that reading it costs nothing).
Timed timeRuns(const QString &program, const QStringList &arguments, int runs, bool keepOutput = false,
               const QProcessEnvironment &environment = QProcessEnvironment::systemEnvironment())
{
    Timed t;
    for (int i = 0; i < runs; ++i) {
        QProcess p;
        p.setProcessEnvironment(environment);
        if (!keepOutput)
            p.setStandardOutputFile(QProcess::nullDevice());
        QElapsedTimer clock;
        clock.start();
        p.start(program, arguments);
        if (!p.waitForStarted(30'000)) {
            t.failure = QStringLiteral("%1 did not start: %2").arg(program, p.errorString());
            return t;
        }
        p.closeWriteChannel();
        if (!p.waitForFinished(600'000)) {
            p.kill();
            p.waitForFinished(5000);
            t.failure = QStringLiteral("%1 ran past 10 minutes").arg(program);
            return t;
        }
        const double seconds = double(clock.nsecsElapsed()) / 1e9;
        t.out = p.readAllStandardOutput();
        if (p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) {
            t.failure = QStringLiteral("%1 %2 failed (exit %3): %4")
                            .arg(program, arguments.value(0), QString::number(p.exitCode()),
                                 QString::fromUtf8(p.readAllStandardError().right(2000)).trimmed());
            return t;
        }
        t.seconds = t.seconds ? std::min(*t.seconds, seconds) : seconds;
    }
    return t;
}

/// tests/replay_reference of the source tree, when it can be found.
QString defaultReference()
{
    QStringList roots;
    if (const QString source = qEnvironmentVariable("DREAMRSI_SOURCE_DIR"); !source.isEmpty())
        roots << source;
    // build/bin/dreamrsi of a checkout: the source is two levels up.
    roots << QCoreApplication::applicationDirPath() + QStringLiteral("/../..");
    for (const QString &root : std::as_const(roots)) {
        const QString dir = QDir::cleanPath(root + QStringLiteral("/tests/replay_reference"));
        if (QFileInfo::exists(dir + QStringLiteral("/reference.py")))
            return dir;
    }
    return {};
}

} // namespace

int runBenchCompareCommand(const QStringList &args, QTextStream &out, QTextStream &err)
{
    const QList<QCommandLineOption> options{
        CommandLine::value("worlds", "N"),      CommandLine::value("runs", "N"),
        CommandLine::value("seed", "N"),        CommandLine::value("threads", "T"),
        CommandLine::value("reference", "DIR"), CommandLine::value("python", "EXE"),
        CommandLine::value("before", "OLD_DREAMRSI")};
    auto usageError = [&](const QString &message) {
        err << "dreamrsi bench compare: " << message << '\n' << compareUsage;
        return 2;
    };
    QCommandLineParser parser;
    if (const auto rc = CommandLine::parseOrAnswer(parser, options, args, compareUsage, out, usageError))
        return *rc;
    if (!parser.positionalArguments().isEmpty())
        return usageError(QStringLiteral("unexpected argument '%1'").arg(parser.positionalArguments().constFirst()));
    int worlds = 1000, runs = 3, seed = 1, threads = 0;
    QString reference = defaultReference();
    QString python = QStringLiteral("python3");
    QString before;
    for (const CommandLine::Given &g : CommandLine::inOrder(parser, options)) {
        int *number = g.name == QLatin1String("worlds")    ? &worlds
                      : g.name == QLatin1String("runs")    ? &runs
                      : g.name == QLatin1String("seed")    ? &seed
                      : g.name == QLatin1String("threads") ? &threads
                                                           : nullptr;
        if (number) {
            QString why;
            const int min = g.name == QLatin1String("threads") || g.name == QLatin1String("seed") ? 0 : 1;
            const std::optional<qint64> n = OptionValues::integer(QStringLiteral("--") + g.name, g.value, min,
                                                                  std::numeric_limits<int>::max(), &why);
            if (!n)
                return usageError(why);
            *number = int(*n);
        } else if (g.name == QLatin1String("reference")) {
            reference = g.value;
        } else if (g.name == QLatin1String("python")) {
            python = g.value;
        } else if (g.name == QLatin1String("before")) {
            before = g.value;
        }
    }
    if (reference.isEmpty() || !QFileInfo::exists(reference + QStringLiteral("/reference.py"))) {
        return CommandLine::runtimeError(
            err, reference.isEmpty() ? QStringLiteral("the Python reference (tests/replay_reference) was not found; "
                                                      "name its folder with --reference DIR")
                                     : QStringLiteral("%1 holds no reference.py (--reference)").arg(reference));
    }
    const QString pythonProgram = QStandardPaths::findExecutable(python).isEmpty() && !QFileInfo(python).isExecutable()
                                      ? QString()
                                      : python;
    if (pythonProgram.isEmpty())
        return CommandLine::runtimeError(err, QStringLiteral("Python interpreter '%1' not found (--python)").arg(python));
    if (!before.isEmpty() && !QFileInfo(before).isExecutable())
        return CommandLine::runtimeError(err, QStringLiteral("%1 is not an executable (--before)").arg(before));

    QTemporaryDir dir(QDir::tempPath() + QStringLiteral("/dreamrsi-compare-XXXXXX"));
    if (!dir.isValid())
        return CommandLine::runtimeError(err, QStringLiteral("cannot create a temporary folder: %1").arg(dir.errorString()));
    const QString self = QCoreApplication::applicationFilePath();
    // dreamrsi's compact world cache lives in the bench's folder, never the user's.
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("DREAMRSI_CACHE_DIR"), dir.filePath(QStringLiteral("cache")));
    environment.remove(QStringLiteral("DREAMRSI_WORLD_CACHE"));
    QElapsedTimer sinceSynth;
    const Timed synth = timeRuns(self, {QStringLiteral("synth"), QStringLiteral("--out"), dir.path(), QStringLiteral("--worlds"),
                                        QString::number(worlds), QStringLiteral("--seed"), QString::number(seed)},
                                 1);
    if (!synth.seconds)
        return CommandLine::runtimeError(err, synth.failure);
    sinceSynth.start();
    QStringList paths;
    qint64 bytes = 0;
    for (const QFileInfo &f : QDir(dir.path()).entryInfoList({QStringLiteral("*.json")}, QDir::Files, QDir::Name)) {
        paths << f.filePath();
        bytes += f.size();
    }
    const Timed cells = timeRuns(pythonProgram, QStringList{QStringLiteral("-c"), QString::fromUtf8(pythonParse)} + paths, 1, true);
    if (!cells.seconds)
        return CommandLine::runtimeError(err, cells.failure);
    const qint64 cellCount = cells.out.trimmed().toLongLong();
    out << paths.size() << " worlds, " << cellCount << " cells (" << (paths.isEmpty() ? 0 : cellCount / paths.size())
        << " per world), " << QString::number(double(bytes) / 1e6, 'f', 1)
        << " MB of tree JSON; 5 betas, W = 10; best of " << runs << " runs\n";
    out.flush();

    QStringList worldArgs;
    for (const QString &p : std::as_const(paths))
        worldArgs << QStringLiteral("--world") << p;
    const QStringList extra = threads > 0 ? QStringList{QStringLiteral("--threads"), QString::number(threads)} : QStringList{};
    auto replay = [&](const QString &policy) {
        return QStringList{QStringLiteral("replay"), QStringLiteral("--policy"), policy, QStringLiteral("--json")} + worldArgs
            + extra;
    };
    const Timed pyReplay = timeRuns(pythonProgram, QStringList{QStringLiteral("-c"), QString::fromUtf8(pythonReplay), reference} + paths, runs);
    const Timed pyParse = timeRuns(pythonProgram, QStringList{QStringLiteral("-c"), QString::fromUtf8(pythonParse)} + paths, runs);
    for (const Timed *t : {&pyReplay, &pyParse}) {
        if (!t->seconds)
            return CommandLine::runtimeError(err, t->failure);
    }
    struct Row
    {
        const char *name;
        double python;
        QStringList arguments;
        bool warmCache = false; ///< one untimed run first, to fill the compact world cache
    };
    const QList<Row> rows{
        {"scripted (greedy.js)", *pyReplay.seconds, replay(reference + QStringLiteral("/greedy.js"))},
        {"built-in portfolio", *pyReplay.seconds, replay(QStringLiteral("builtin:portfolio")) << QStringLiteral("--no-cache")},
        {"built-in portfolio, cached", *pyReplay.seconds, replay(QStringLiteral("builtin:portfolio")), true},
        {"parse (validate vs json.load)", *pyParse.seconds, QStringList{QStringLiteral("validate")} + paths},
    };
    // Three decimals: the built-in rows take tens of milliseconds.
    auto cell = [](double seconds, int width) {
        return QString(QString::number(seconds, 'f', 3) + QLatin1Char('s')).rightJustified(width);
    };
    auto ratio = [](double python, double ours) {
        return QString(QString::number(python / ours, 'f', 1) + QLatin1Char('x')).rightJustified(8);
    };
    QString head = QStringLiteral("%1 %2 %3 %4")
                       .arg(QStringLiteral("path").leftJustified(32), QStringLiteral("Python").rightJustified(10),
                            QStringLiteral("dreamrsi").rightJustified(10), QStringLiteral("ratio").rightJustified(8));
    if (!before.isEmpty())
        head += QStringLiteral(" %1 %2").arg(QStringLiteral("before").rightJustified(10), QStringLiteral("ratio").rightJustified(8));
    out << head << '\n';
    for (const Row &row : rows) {
        if (row.warmCache) {
            // The cache takes files whose change time has settled (CompactCache::SettleSeconds).
            const qint64 settle = (CompactCache::SettleSeconds + 1) * 1000 - sinceSynth.elapsed();
            if (settle > 0)
                QThread::msleep(static_cast<unsigned long>(settle));
            if (const Timed fill = timeRuns(self, row.arguments, 1, false, environment); !fill.seconds)
                return CommandLine::runtimeError(err, fill.failure);
        }
        const Timed now = timeRuns(self, row.arguments, runs, false, environment);
        if (!now.seconds)
            return CommandLine::runtimeError(err, now.failure);
        QString line = QStringLiteral("%1 %2 %3 %4")
                           .arg(QString::fromLatin1(row.name).leftJustified(32), cell(row.python, 10), cell(*now.seconds, 10),
                                ratio(row.python, *now.seconds));
        if (!before.isEmpty()) {
            QStringList arguments = row.arguments;
            arguments.removeAll(QStringLiteral("--no-cache")); // an older dreamrsi may not know it
            const Timed old = timeRuns(before, arguments, runs, false, environment);
            if (!old.seconds)
                return CommandLine::runtimeError(err, old.failure);
            line += QStringLiteral(" %1 %2").arg(cell(*old.seconds, 10), ratio(row.python, *old.seconds));
        }
        out << line << '\n';
        out.flush();
    }
    return 0;
}

} // namespace dreamrsi
