// `dreamrsi bench compare`: the speed rows of issues 15 and 25 in one run.
// Whole processes, from start to exit, of this dreamrsi and of the
// independent Python reading of docs/replay.md (tests/replay_reference, which
// rebuilds its state every round) on the same worlds: two scripted policies, the
// built-in portfolio, and reading the files. The worlds come from two
// generators with different habits: `dreamrsi synth` (Qt's writer) and a
// Python one (json.dump), so that the figures hold on files we did not
// write. Each row is printed with its goal and whether it was met.
#include "benchcommands.h"
#include "benches.h"

#include "commandline.h"
#include "optionvalues.h"

#include "model/compactcache.h"
#include "model/treejson.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QHash>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QThread>

#include <algorithm>
#include <limits>
#include <mutex>
#include <optional>

namespace dreamrsi {

namespace {

const char *const compareUsage =
    "usage: dreamrsi bench compare [--worlds 1000] [--runs 3] [--seed 1] [--threads T]\n"
    "                              [--generators synth,python] [--reference DIR]\n"
    "                              [--python python3] [--before OLD_DREAMRSI]\n"
    "Times whole processes of this dreamrsi and of the Python reference of docs/replay.md\n"
    "in DIR, best of N runs each, taken in turn (run 1 of every command, then run 2, ...)\n"
    "so that a machine whose speed drifts slows both sides alike. DIR defaults to\n"
    "tests/replay_reference of the source tree, found from $DREAMRSI_SOURCE_DIR or next to\n"
    "the build. The commands run on the same worlds\n"
    "(5 betas, W = 10): greedy.js, observed_greedy.js (a policy that walks state.observed\n"
    "and calls state.meta() every round), builtin:portfolio, and validate against json.load.\n"
    "builtin:portfolio is timed twice: reading every world (--no-cache), and with the\n"
    "compact world cache filled by one run before (in the bench's own folder).\n"
    "The worlds come from each generator named: synth (`dreamrsi synth`, Qt's indented\n"
    "JSON, cells by seq, keys sorted) and python (json.dump: \", \" and \": \" spacing,\n"
    "other key order, cells shuffled, sparse branches, zeros written 0.0, optional fields\n"
    "left out, error texts, escaped Unicode). Before the rows, how many files the fast\n"
    "reader took and how many fell back to the reference reading. Goals (issue 56): each scripted\n"
    ">= 5x, built-in (--no-cache) >= 40x the Python reference, parse >= 15x json.load.\n"
    "With --before, an older dreamrsi is timed on the same rows too.\n";

// The Python side: one of the reference's policies over every world and β,
// and json.load of every file. Arguments: the reference's folder, the
// policy's name (replay only), the paths.
const char *const pythonReplay = R"PY(
import json, sys
sys.path.insert(0, sys.argv[1])
import reference, policies
fn, plan = policies.POLICIES[sys.argv[2]]
betas = [0, 0.25, 0.5, 0.75, 1]
total = 0.0
for path in sys.argv[3:]:
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

// The second generator: worlds as a Python program writes them (json.dump
// with its default separators), with habits our own writer does not have.
// Arguments: folder, count, seed. Deterministic for a seed (random.Random's
// random() only).
const char *const pythonGenerate = R"PY(
import json, os, random, sys
out, count, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
os.makedirs(out, exist_ok=True)
IDEAS = ["warm start from the previous \u03bb", "coordinate descent with active set",
         "strong screening rule \u2192 fewer features", "step size from the Lipschitz bound",
         "Gap-safe r\u00e8gle d'\u00e9limination", "Nesterov momentum", "\u7a00\u758f\u5206\u89e3 (sparse split)"]
ERRORS = {
    "compile": "solver.cpp:%d:17: error: no matching function for call to 'soft_threshold(Eigen::VectorXd&, double)'",
    "runtime": "Traceback (most recent call last):\n  File \"solver.py\", line %d, in fit\n    beta = np.linalg.solve(A, b)\nnumpy.linalg.LinAlgError: Singular matrix",
    "timeout": "time limit exceeded after %d s",
    "correctness": "tolerance 1e-06 not met: relative duality gap 3.2e-04 after %d iterations",
    "resource": "MemoryError: cannot allocate %d MiB",
    "env": "ModuleNotFoundError: No module named 'sklearn' (worker %d)",
    "agent": "the model returned no program (attempt %d)",
}
def below(rng, n):
    return int(rng.random() * n)
for w in range(count):
    rng = random.Random(seed * 100003 + w)
    zero_world = rng.random() < 0.05  # every score 0.0: S = 0
    quiet_ok = rng.random() < 0.5     # successes leave "error" out instead of null
    cells, branch = [], below(rng, 3)
    for _ in range(6 + below(rng, 4)):
        quality = 0.4 + rng.random()
        for a in range(4 + below(rng, 9)):
            c = {"branch": branch, "attempt": a, "id": "lasso-%d-%d" % (branch, a),
                 "proposal": IDEAS[below(rng, len(IDEAS))] + " (%d)" % below(rng, 1000)}
            r = rng.random()
            if r < 0.3:  # a solver that misses its tolerance scores 0
                c.update(score=0.0, fail_class="correctness", error=ERRORS["correctness"] % below(rng, 5000),
                         evaluated=True, valid=False, n_valid=below(rng, 5), n_total=5)
            elif r < 0.4:
                kind = ["compile", "runtime", "timeout", "resource"][below(rng, 4)]
                c.update(score=None, fail_class=kind, error=ERRORS[kind] % below(rng, 500), evaluated=True, valid=False)
            elif r < 0.45:
                kind = "agent" if rng.random() < 0.7 else "env"
                c.update(fail_class=kind, error=ERRORS[kind] % a, evaluated=False)
            else:
                quality += 0.05 * (rng.random() - 0.3)
                c["score"] = 0.0 if zero_world else quality
                c.update(fail_class="ok", evaluated=True, valid=True, n_valid=5, n_total=5)
                if not quiet_ok:
                    c["error"] = None
            c["metrics"] = {"runtime_ms": round(5 + 200 * rng.random(), 1), "iterations": below(rng, 2000),
                            "objective": round(rng.random(), 8) if r >= 0.3 else 0.0, "tol": 1e-06}
            if rng.random() < 0.6:
                c["tags"] = ["solver:lasso", "direction:%d" % below(rng, 5)]
            cells.append(c)
        branch += 1 + below(rng, 4)
    order = list(range(len(cells)))
    for i in range(len(order) - 1, 0, -1):
        j = below(rng, i + 1)
        order[i], order[j] = order[j], order[i]
    for s, c in zip(order, cells):
        c["seq"] = s
    for i in range(len(cells) - 1, 0, -1):
        j = below(rng, i + 1)
        cells[i], cells[j] = cells[j], cells[i]
    doc = {"format": "dreamrsi-tree/1", "cells": cells, "task": "lasso_path", "baseline_score": 0.0,
           "iteration": w, "generator": {"name": "python-json", "seed": seed}}
    with open(os.path.join(out, "py-%d-%04d.json" % (seed, w)), "w") as f:
        json.dump(doc, f, ensure_ascii=(w % 2 == 0))
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

/// A generator of the worlds the rows run on.
struct Generator
{
    QString name;
    QString habits; ///< what its files look like, for the heading
};

const QList<Generator> &generators()
{
    static const QList<Generator> all{
        {QStringLiteral("synth"), QStringLiteral("dreamrsi synth: Qt's indented JSON, keys sorted, cells by seq")},
        {QStringLiteral("python"), QStringLiteral("Python json.dump: \", \" spacing, own key order, cells shuffled, "
                                                  "zeros as 0.0, error texts, escaped Unicode")}};
    return all;
}

/// How many of `paths` this process reads by the fast path, full and compact
/// (no cache), as "fast path: N files, fallback: M; compact: ...".
QString fastPathLine(const QStringList &paths, int threads)
{
    const TreeJson::ReadCounts before = TreeJson::readCounts();
    TreeJson::readFilesEach(paths, [](qsizetype, TreeJson::ParseResult &&) {}, threads);
    for (const QString &path : paths)
        TreeJson::readCompactFile(path, false); // only the counts are wanted
    const TreeJson::ReadCounts after = TreeJson::readCounts();
    return QStringLiteral("fast path: %1 files, fallback: %2; compact reading: %3 files, fallback: %4")
        .arg(after.fast - before.fast)
        .arg(after.fallback - before.fallback)
        .arg(after.compactFast - before.compactFast)
        .arg(after.compactFallback - before.compactFallback);
}

} // namespace

int runBenchCompareCommand(const QStringList &args, QTextStream &out, QTextStream &err)
{
    const QList<QCommandLineOption> options{
        CommandLine::value("worlds", "N"),      CommandLine::value("runs", "N"),
        CommandLine::value("seed", "N"),        CommandLine::value("threads", "T"),
        CommandLine::value("reference", "DIR"), CommandLine::value("python", "EXE"),
        CommandLine::value("before", "OLD_DREAMRSI"), CommandLine::value("generators", "LIST")};
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
    QList<Generator> chosen = generators();
    for (const CommandLine::Given &g : CommandLine::inOrder(parser, options)) {
        int *number = g.name == QLatin1String("worlds")    ? &worlds
                      : g.name == QLatin1String("runs")    ? &runs
                      : g.name == QLatin1String("seed")    ? &seed
                      : g.name == QLatin1String("threads") ? &threads
                                                           : nullptr;
        if (number) {
            const int min = g.name == QLatin1String("threads") || g.name == QLatin1String("seed") ? 0 : 1;
            const Result<qint64> n =
                OptionValues::integer(QStringLiteral("--") + g.name, g.value, min, std::numeric_limits<int>::max());
            if (!n)
                return usageError(n.error);
            *number = int(*n.value);
        } else if (g.name == QLatin1String("reference")) {
            reference = g.value;
        } else if (g.name == QLatin1String("python")) {
            python = g.value;
        } else if (g.name == QLatin1String("before")) {
            before = g.value;
        } else if (g.name == QLatin1String("generators")) {
            chosen.clear();
            for (const QString &name : g.value.split(QLatin1Char(','))) {
                const auto it = std::find_if(generators().cbegin(), generators().cend(),
                                             [&name](const Generator &x) { return x.name == name.trimmed(); });
                if (it == generators().cend())
                    return usageError(QStringLiteral("unknown generator '%1' in --generators (known: synth, python)").arg(name));
                if (std::none_of(chosen.cbegin(), chosen.cend(), [&it](const Generator &x) { return x.name == it->name; }))
                    chosen.append(*it);
            }
        }
    }
    CompareOptions o;
    o.worlds = worlds;
    o.runs = runs;
    o.seed = seed;
    o.threads = threads;
    o.reference = reference;
    o.python = python;
    o.before = before;
    o.generators.clear();
    for (const Generator &g : std::as_const(chosen))
        o.generators.append(g.name);
    return benchCompare(o, out, err);
}

int benchCompare(const CompareOptions &o, QTextStream &out, QTextStream &err)
{
    const int worlds = o.worlds, runs = o.runs, seed = o.seed, threads = o.threads;
    const QString reference = o.reference.isNull() ? defaultReference() : o.reference;
    const QString &python = o.python;
    const QString &before = o.before;
    QList<Generator> chosen;
    for (const Generator &g : generators()) {
        if (o.generators.contains(g.name))
            chosen.append(g);
    }
    // Without the Python reference (requirePython false): dreamrsi's times only.
    bool withPython = true;
    const bool referenceFound = !reference.isEmpty() && QFileInfo::exists(reference + QStringLiteral("/reference.py"));
    const QString pythonFound = QStandardPaths::findExecutable(python).isEmpty() && !QFileInfo(python).isExecutable()
                                    ? QString()
                                    : python;
    if (!o.requirePython && (!referenceFound || pythonFound.isEmpty())) {
        out << "(no Python reference: " << (referenceFound ? QStringLiteral("no interpreter '%1'").arg(python)
                                                             : QStringLiteral("tests/replay_reference not found"))
            << "; dreamrsi's times only)\n";
        withPython = false;
    } else if (reference.isEmpty() || !QFileInfo::exists(reference + QStringLiteral("/reference.py"))) {
        return CommandLine::runtimeError(
            err, reference.isEmpty() ? QStringLiteral("the Python reference (tests/replay_reference) was not found; "
                                                      "name its folder with --reference DIR")
                                     : QStringLiteral("%1 holds no reference.py (--reference)").arg(reference));
    }
    const QString pythonProgram = withPython ? pythonFound : QStringLiteral("python3");
    if (withPython && pythonProgram.isEmpty())
        return CommandLine::runtimeError(err, QStringLiteral("Python interpreter '%1' not found (--python)").arg(python));
    if (!before.isEmpty() && !QFileInfo(before).isExecutable())
        return CommandLine::runtimeError(err, QStringLiteral("%1 is not an executable (--before)").arg(before));
    // An older dreamrsi may not know --no-cache: it then reads every world anyway.
    bool beforeKnowsNoCache = false;
    if (!before.isEmpty()) {
        const Timed help = timeRuns(before, {QStringLiteral("replay"), QStringLiteral("--help")}, 1, true);
        beforeKnowsNoCache = help.out.contains("--no-cache");
    }

    QTemporaryDir dir(QDir::tempPath() + QStringLiteral("/dreamrsi-compare-XXXXXX"));
    if (!dir.isValid())
        return CommandLine::runtimeError(err, QStringLiteral("cannot create a temporary folder: %1").arg(dir.errorString()));
    const QString self = benchProgram();
    // dreamrsi's compact world cache lives in the bench's folder, never the user's.
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("DREAMRSI_CACHE_DIR"), dir.filePath(QStringLiteral("cache")));
    environment.remove(QStringLiteral("DREAMRSI_WORLD_CACHE"));
    const QStringList extra = threads > 0 ? QStringList{QStringLiteral("--threads"), QString::number(threads)} : QStringList{};

    int missed = 0;
    for (const Generator &generator : std::as_const(chosen)) {
        if (!withPython && generator.name != QLatin1String("synth"))
            continue; // the other generator is a Python program
        const QString folder = dir.filePath(generator.name);
        const Timed made = generator.name == QLatin1String("synth")
                               ? timeRuns(self,
                                          {QStringLiteral("synth"), QStringLiteral("--out"), folder, QStringLiteral("--worlds"),
                                           QString::number(worlds), QStringLiteral("--seed"), QString::number(seed)},
                                          1)
                               : timeRuns(pythonProgram,
                                          {QStringLiteral("-c"), QString::fromUtf8(pythonGenerate), folder,
                                           QString::number(worlds), QString::number(seed)},
                                          1);
        if (!made.seconds)
            return CommandLine::runtimeError(err, made.failure);
        QElapsedTimer sinceMade;
        sinceMade.start();
        QStringList paths;
        qint64 bytes = 0;
        for (const QFileInfo &f : QDir(folder).entryInfoList({QStringLiteral("*.json")}, QDir::Files, QDir::Name)) {
            paths << f.filePath();
            bytes += f.size();
        }
        qint64 cellCount = 0;
        if (withPython) {
            const Timed cells =
                timeRuns(pythonProgram, QStringList{QStringLiteral("-c"), QString::fromUtf8(pythonParse)} + paths, 1, true);
            if (!cells.seconds)
                return CommandLine::runtimeError(err, cells.failure);
            cellCount = cells.out.trimmed().toLongLong();
        } else {
            TreeJson::readFactsFilesEach(paths, [&cellCount](qsizetype, Result<TreeFacts> &&r) {
                static std::mutex lock;
                std::lock_guard hold(lock);
                cellCount += r ? r.value->cells : 0;
            });
        }
        out << "generator " << generator.name << " (" << generator.habits << "): " << paths.size() << " worlds, "
            << cellCount << " cells (" << (paths.isEmpty() ? 0 : cellCount / paths.size()) << " per world), "
            << QString::number(double(bytes) / 1e6, 'f', 1) << " MB of tree JSON; 5 betas, W = 10; best of " << runs
            << " runs\n";
        out << fastPathLine(paths, threads) << '\n';
        out.flush();

        // The scripted rows' policies are the reference's own (tests/replay_reference).
        const QString scriptDir = referenceFound ? reference : QString();
        QStringList worldArgs;
        for (const QString &p : std::as_const(paths))
            worldArgs << QStringLiteral("--world") << p;
        auto replay = [&](const QString &policy) {
            return QStringList{QStringLiteral("replay"), QStringLiteral("--policy"), policy, QStringLiteral("--json")}
                + worldArgs + extra;
        };
        struct Row
        {
            const char *name;
            const char *pythonPolicy; ///< compared with the Python replay of this policy; null: with the Python parse
            QStringList arguments;
            int goal = 0;           ///< the ratio to reach; 0 for none
            bool warmCache = false; ///< one untimed run first, to fill the compact world cache
        };
        QList<Row> rows{
            {"scripted (greedy.js)", "greedy", replay(scriptDir + QStringLiteral("/greedy.js")), 5},
            {"scripted (observed_greedy.js)", "observed_greedy", replay(scriptDir + QStringLiteral("/observed_greedy.js")), 5},
            {"built-in portfolio", "greedy", replay(QStringLiteral("builtin:portfolio")) << QStringLiteral("--no-cache"), 40},
            {"built-in portfolio, cached", "greedy", replay(QStringLiteral("builtin:portfolio")), 0, true},
            {"parse (validate vs json.load)", nullptr, QStringList{QStringLiteral("validate")} + paths, 15},
        };
        if (scriptDir.isEmpty())
            rows.erase(std::remove_if(rows.begin(), rows.end(), [](const Row &r) { return QByteArray(r.name).startsWith("scripted"); }),
                       rows.end());
        // Every command to time: the Python parse, the Python replay of each
        // policy the rows name, each row's, and each row's with --before (by
        // place: pythonJob, rowJob and beforeJob).
        struct Job
        {
            QString program;
            QStringList arguments;
            QProcessEnvironment environment;
            std::optional<double> best;
        };
        constexpr qsizetype pythonParseJob = 0;
        QList<Job> jobs{
            {pythonProgram, QStringList{QStringLiteral("-c"), QString::fromUtf8(pythonParse)} + paths,
             QProcessEnvironment::systemEnvironment(), {}},
        };
        QList<qsizetype> pythonJob, rowJob, beforeJob; // by row
        QHash<QByteArray, qsizetype> pythonReplayJob;  // by policy name
        for (const Row &row : rows) {
            if (!withPython) {
                pythonJob.append(-1);
            } else if (!row.pythonPolicy) {
                pythonJob.append(pythonParseJob);
            } else {
                const QByteArray policy(row.pythonPolicy);
                if (!pythonReplayJob.contains(policy)) {
                    pythonReplayJob.insert(policy, jobs.size());
                    jobs.append({pythonProgram,
                                 QStringList{QStringLiteral("-c"), QString::fromUtf8(pythonReplay), reference,
                                             QString::fromLatin1(policy)}
                                     + paths,
                                 QProcessEnvironment::systemEnvironment(),
                                 {}});
                }
                pythonJob.append(pythonReplayJob.value(policy));
            }
            rowJob.append(jobs.size());
            jobs.append({self, row.arguments, environment, {}});
            if (!before.isEmpty()) {
                QStringList arguments = row.arguments;
                if (!beforeKnowsNoCache)
                    arguments.removeAll(QStringLiteral("--no-cache"));
                beforeJob.append(jobs.size());
                jobs.append({before, arguments, environment, {}});
            }
        }
        // The cache takes files whose change time has settled (CompactCache::SettleSeconds).
        const qint64 settle = (CompactCache::SettleSeconds + 1) * 1000 - sinceMade.elapsed();
        if (settle > 0)
            QThread::msleep(static_cast<unsigned long>(settle));
        for (qsizetype r = 0; r < rows.size(); ++r) {
            if (!rows.at(r).warmCache)
                continue;
            for (const qsizetype j : {rowJob.at(r), beforeJob.value(r, -1)}) {
                if (j < 0)
                    continue;
                const Job &job = jobs.at(j);
                if (const Timed fill = timeRuns(job.program, job.arguments, 1, false, job.environment); !fill.seconds)
                    return CommandLine::runtimeError(err, fill.failure);
            }
        }
        // Run by run, every command once in turn: on a machine whose speed
        // drifts (a shared virtual machine), each side's best run then comes
        // from the same stretches of time, not Python's from one and ours
        // from another.
        if (!withPython)
            jobs.first().program.clear(); // the Python parse: not run
        for (int run = 0; run < runs; ++run) {
            for (Job &job : jobs) {
                if (job.program.isEmpty())
                    continue;
                const Timed once = timeRuns(job.program, job.arguments, 1, false, job.environment);
                if (!once.seconds)
                    return CommandLine::runtimeError(err, once.failure);
                job.best = job.best ? std::min(*job.best, *once.seconds) : *once.seconds;
            }
        }
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
        for (qsizetype r = 0; r < rows.size(); ++r) {
            const Row &row = rows.at(r);
            const double now = *jobs.at(rowJob.at(r)).best;
            if (!withPython) {
                QString line = QStringLiteral("%1 %2 %3 %4")
                                   .arg(QString::fromLatin1(row.name).leftJustified(32), QStringLiteral("-").rightJustified(10),
                                        cell(now, 10), QStringLiteral("-").rightJustified(8));
                if (!before.isEmpty())
                    line += QStringLiteral(" %1 %2").arg(cell(*jobs.at(beforeJob.at(r)).best, 10),
                                                         QStringLiteral("-").rightJustified(8));
                out << line << '\n';
                out.flush();
                continue;
            }
            const double python = *jobs.at(pythonJob.at(r)).best;
            QString line = QStringLiteral("%1 %2 %3 %4")
                               .arg(QString::fromLatin1(row.name).leftJustified(32), cell(python, 10), cell(now, 10),
                                    ratio(python, now));
            if (!before.isEmpty()) {
                const double old = *jobs.at(beforeJob.at(r)).best;
                line += QStringLiteral(" %1 %2").arg(cell(old, 10), ratio(python, old));
            }
            if (row.goal > 0) {
                const bool met = python / now >= row.goal;
                missed += met ? 0 : 1;
                line += QStringLiteral("  goal >= %1x: %2").arg(row.goal).arg(met ? QStringLiteral("met") : QStringLiteral("MISSED"));
            }
            out << line << '\n';
            out.flush();
        }
    }
    if (withPython)
        out << (missed == 0 ? QStringLiteral("every goal met") : QStringLiteral("%1 goal(s) missed").arg(missed)) << '\n';
    return 0;
}

} // namespace dreamrsi
