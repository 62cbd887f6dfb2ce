// `dreamrsi replay --world A.json … --policy P` (docs/replay.md#the-replay-command): argument
// reading and printing; the replay itself is ReplayEngine::runWorlds.
#include "commands.h"

#include "commandline.h"
#include "hugepageheap.h"
#include "optionvalues.h"
#include "replayoutput.h"

#include "policy/policyspec.h"
#include "replay/compactreplay.h"
#include "replay/replayengine.h"
#include "replay/replayjson.h"
#include "model/treejson.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <mutex>
#include <optional>

namespace dreamrsi {

namespace {

const char *const replayUsage =
    "usage: dreamrsi replay --world A.json [--world B.json ...] --policy P.js|builtin:NAME\n"
    "                       [--workers 10] [--lambda 0.1] [--betas 0,0.25,0.5,0.75,1] [--rounds K]\n"
    "                       [--json] [--trace FILE] [--time-limit-ms 2000] [--seed N] [--threads T]\n"
    "                       [--no-grid-plan] [--progress] [--no-cache] [--include-approximate]\n"
    "Replays a policy in frozen worlds over a budget sweep and prints the scores\n"
    "(docs/replay.md). Built-in policies: parallel_refine, portfolio.\n"
    "Built-in policies keep a compact form of each world read in a cache (DREAMRSI_CACHE_DIR/worlds,\n"
    "else the user's cache folder), keyed by the file's identity and change time, so replaying the same\n"
    "worlds again skips reading and parsing them; --no-cache (or DREAMRSI_WORLD_CACHE=0) neither reads\n"
    "nor fills it.\n"
    "Approximate worlds (imported runs with forks or orphans, docs/tree-format.md#imported-runs) are\n"
    "skipped, with a note on stderr, unless --include-approximate; results over them are labelled.\n"
    "Exit status: 0 ok, 1 a policy error, an unreadable world or policy, or output that cannot be written,\n"
    "2 usage error.\n";

/// What `replay --world` was asked to do.
struct WorldReplay
{
    QStringList worldPaths; ///< in the order given
    QString policyArgument; ///< a .js path or builtin:NAME
    ReplayOptions replay;
    int timeLimitMs = 2000;     ///< per script call
    quint32 seed = 0x5EED1234u; ///< Math.random seed
    bool progress = false;      ///< "progress D/T" lines on stderr
    bool includeApproximate = false; ///< --include-approximate
    ReplayPrinting printing;
};

bool readInt(const QString &text, int min, int *value)
{
    bool ok = false;
    const int v = text.toInt(&ok);
    if (!ok || v < min)
        return false;
    *value = v;
    return true;
}

/// W, λ, the β grid and K: read by the one reader of the replay flags, under
/// the bounds of store/replaybounds.h (docs/architecture.md, "decided once");
/// `--rounds none` removes the limit; `--rounds 0` is K = 0, an episode
/// that stops before its first round (docs/replay.md, "An episode").
OptionValues::ReplayConfigFlags configFlags()
{
    OptionValues::ReplayConfigFlags flags;
    flags.valuation.clear(); // a replay of tree files is revealed: nothing to value
    flags.completions.clear();
    flags.roundsNone = true;
    flags.zeroRounds = true;
    return flags;
}

/// Puts what the replay-configuration flags read into `r`; the complaint about a value, or nothing.
QString applyConfigFlags(const QCommandLineParser &parser, WorldReplay *r)
{
    const Result<OptionValues::ReplayConfigFlags::Read> read = configFlags().read(parser);
    if (!read)
        return read.error;
    const ReplayConfigOverrides &o = read.value->overrides;
    if (o.workers)
        r->replay.workers = *o.workers;
    if (o.lambda)
        r->replay.lambda = *o.lambda;
    if (o.betas)
        r->replay.betas = *o.betas;
    if (o.rounds)
        r->replay.maxRounds = *o.rounds;
    if (read.value->clearRounds)
        r->replay.maxRounds.reset();
    return {};
}

/// Applies one option to `r`; returns the complaint about its value, or nothing.
QString apply(const CommandLine::Given &o, WorldReplay *r)
{
    const QString &v = o.value;
    if (o.name == QLatin1String("json")) {
        r->printing.json = true;
    } else if (o.name == QLatin1String("progress")) {
        r->progress = true;
    } else if (o.name == QLatin1String("no-grid-plan")) {
        r->replay.useGridPlan = false;
    } else if (o.name == QLatin1String("include-approximate")) {
        r->includeApproximate = true;
    } else if (o.name == QLatin1String("no-cache")) {
        r->replay.worldCache = false;
    } else if (o.name == QLatin1String("world")) {
        r->worldPaths.append(v);
    } else if (o.name == QLatin1String("policy")) {
        r->policyArgument = v;
    } else if (o.name == QLatin1String("trace")) {
        r->printing.tracePath = v;
    } else if (o.name == QLatin1String("threads")) {
        if (!readInt(v, 0, &r->replay.threads))
            return QStringLiteral("--threads needs an integer ≥ 0 (got '%1'; 0 = all cores)").arg(v);
    } else if (o.name == QLatin1String("time-limit-ms")) {
        if (!readInt(v, 1, &r->timeLimitMs))
            return QStringLiteral("--time-limit-ms needs an integer ≥ 1 (got '%1')").arg(v);
    } else if (o.name == QLatin1String("seed")) {
        bool ok = false;
        r->seed = v.toUInt(&ok);
        if (!ok)
            return QStringLiteral("--seed needs an unsigned 32-bit integer (got '%1')").arg(v);
    }
    return {};
}

/// The message of a value option given last, without its value.
QString missingValue(const QString &argument)
{
    const QString name = argument.mid(argument.startsWith(QLatin1String("--")) ? 2 : 1);
    if (name == QLatin1String("world"))
        return QStringLiteral("--world needs a file");
    if (name == QLatin1String("policy"))
        return QStringLiteral("--policy needs a .js file or builtin:NAME");
    if (name == QLatin1String("betas"))
        return QStringLiteral("--betas needs a comma-separated list, e.g. 0,0.5,1");
    if (name == QLatin1String("trace"))
        return QStringLiteral("--trace needs a file");
    // The numbers say what they need, with what was given: nothing.
    WorldReplay ignored;
    const OptionValues::ReplayConfigFlags flags = configFlags();
    if (name == flags.workers || name == flags.lambda || name == flags.rounds) {
        QCommandLineParser alone;
        alone.addOption(QCommandLineOption(name, QString(), QStringLiteral("V")));
        alone.parse({QStringLiteral("dreamrsi"), QStringLiteral("--") + name, QString()});
        return applyConfigFlags(alone, &ignored);
    }
    return apply({name, name, QString()}, &ignored);
}

int replayUsageError(QTextStream &err, const QString &message)
{
    err << "dreamrsi replay: " << message << '\n' << replayUsage;
    return 2;
}

} // namespace

int runReplayCommand(const QStringList &args, QTextStream &out, QTextStream &err)
{
    using CommandLine::value;
    const QList<QCommandLineOption> options{
        value("world", "FILE"), value("policy", "P"), value("workers", "W"), value("lambda", "L"),
        value("betas", "LIST"), value("rounds", "K"), value("trace", "FILE"), value("time-limit-ms", "MS"),
        value("seed", "N"), value("threads", "T"), CommandLine::flag("json"), CommandLine::flag("no-grid-plan"),
        CommandLine::flag("no-cache"), CommandLine::flag("progress"), CommandLine::flag("include-approximate")};
    QCommandLineParser parser;
    if (const std::optional<int> answered = CommandLine::parseOrAnswer(
            parser, options, args, replayUsage, out, [&err](const CommandLine::Problem &problem) {
                if (problem.kind == CommandLine::Problem::Kind::MissingValue)
                    return replayUsageError(err, missingValue(problem.argument));
                return replayUsageError(err, QStringLiteral("unknown argument '%1'").arg(problem.argument));
            }))
        return *answered;
    WorldReplay request;
    request.replay.worldCache = true;
    for (const CommandLine::Given &o : CommandLine::inOrder(parser, options)) {
        if (const QString complaint = apply(o, &request); !complaint.isEmpty())
            return replayUsageError(err, complaint);
    }
    if (const QString complaint = applyConfigFlags(parser, &request); !complaint.isEmpty())
        return replayUsageError(err, complaint);
    if (!parser.positionalArguments().isEmpty())
        return replayUsageError(err, QStringLiteral("unknown argument '%1'").arg(parser.positionalArguments().constFirst()));
    if (request.worldPaths.isEmpty() || request.policyArgument.isEmpty())
        return replayUsageError(err, QStringLiteral("at least one --world and a --policy are required"));

    Result<PolicySpec> parsed = PolicySpec::fromArgument(request.policyArgument);
    // A built-in policy, no trace: the compact path (same results, a fraction
    // of the work), which reads every world once, before anything else: the
    // world read tells whether it is approximate and is then replayed.
    const bool compactPath = parsed && request.printing.tracePath.isEmpty() && CompactReplay::handles(*parsed.value);
    // Many worlds: much of what a replay allocates is new memory, touched
    // once (hugepageheap.h says what a page fault costs here).
    const bool manyWorlds = request.worldPaths.size() > 16;
    if (manyWorlds) {
        preferHugePageHeap();
        request.replay.threadStart = preferHugePagesOnThisThread;
    }
    // Kept until the exit, as the result is (commandline.h).
    auto prereadWorlds = std::make_shared<std::vector<Result<CompactTree>>>();
    if (compactPath)
        *prereadWorlds = CompactReplay::readFiles(request.worldPaths, request.replay);
    const std::vector<Result<CompactTree>> &preread = *prereadWorlds;
    CommandLine::keepUntilExit(prereadWorlds);
    std::vector<const CompactTree *> compactWorlds; // the kept worlds, read (null: unreadable)
    QList<qsizetype> keptIndex;                    // their places in `preread`

    // Approximate worlds: skipped unless asked for, labelled when replayed.
    // On the compact path the reading above tells which they are; off it the
    // replay's own reading does (ReplayEngine::runFiles labels their sweeps)
    // and the ones not asked for are left out of the result afterwards.
    const auto skipNote = [&err](const QString &path) {
        err << "note: skipping " << path
            << ": an approximate world (an imported run with forks or orphans); "
               "--include-approximate replays it\n";
    };
    const auto nothingLeft = [&err] {
        err << "error: every world given is approximate; nothing to replay (--include-approximate replays them)\n";
        return 1;
    };
    QList<bool> approximate;
    if (compactPath) {
        QStringList kept;
        for (qsizetype i = 0; i < request.worldPaths.size(); ++i) {
            // A file that cannot be read is no approximate world: its replay says why.
            const bool isApproximate = preread[size_t(i)] && preread[size_t(i)].value->approximate;
            if (isApproximate && !request.includeApproximate) {
                skipNote(request.worldPaths.at(i));
                continue;
            }
            kept.append(request.worldPaths.at(i));
            approximate.append(isApproximate);
            compactWorlds.push_back(preread[size_t(i)] ? &*preread[size_t(i)].value : nullptr);
            keptIndex.append(i);
        }
        err.flush();
        if (kept.isEmpty())
            return nothingLeft();
        request.worldPaths = kept;
    }
    const bool *approximateAt = approximate.constData();

    std::unique_ptr<Policy> checked;
    if (parsed) {
        parsed.value->setTimeLimitMs(request.timeLimitMs);
        parsed.value->setRandomSeed(request.seed);
        // Fail early and clearly on a script that does not compile; the
        // policy made to find out replays on this thread.
        Result<std::unique_ptr<Policy>> compiled = parsed.value->create();
        if (!compiled) {
            err << "error: " << compiled.error << '\n';
            return 1;
        }
        checked = std::move(*compiled.value);
    } else {
        err << "error: " << parsed.error << '\n';
        return 1;
    }
    const std::optional<PolicySpec> &spec = parsed.value;
    ReplayOptions replay = request.replay;
    replay.trace = !request.printing.tracePath.isEmpty();
    ReplayEngine::Progress progress;
    std::mutex progressMutex;
    if (request.progress) {
        // Straight to stderr, unbuffered: a parent (ReplayProcess) reads the lines as they come.
        progress = [&progressMutex](int done, int total) {
            std::lock_guard lock(progressMutex);
            std::fprintf(stderr, "progress %d/%d\n", done, total);
            std::fflush(stderr);
        };
    }
    // Each world's JSON is written on the thread that replayed it.
    auto worldEntries = std::make_shared<QList<QByteArray>>();
    if (request.printing.json)
        worldEntries->resize(request.worldPaths.size());
    QByteArray *entries = request.printing.json ? worldEntries->data() : nullptr;
    Result<ReplayResult> replayed;
    if (compactPath) {
        CompactReplay::SweepDone written;
        if (entries) {
            written = [entries, approximateAt](qsizetype index, const SweepResult &sweep, const CompactTree &world,
                                               const std::vector<std::vector<int>> &revealed) {
                if (approximateAt[index]) {
                    SweepResult labelled = sweep;
                    labelled.approximate = true;
                    entries[index] = ReplayJson::sweepToIndentedJson(labelled, world, revealed);
                } else {
                    entries[index] = ReplayJson::sweepToIndentedJson(sweep, world, revealed);
                }
            };
        }
        // The first unreadable world, in the order given, fails the replay.
        const auto unreadable = std::find(compactWorlds.cbegin(), compactWorlds.cend(), nullptr);
        if (unreadable != compactWorlds.cend())
            replayed = preread[size_t(keptIndex.at(unreadable - compactWorlds.cbegin()))].failureAs<ReplayResult>();
        else
            replayed = Result<ReplayResult>::success(
                CompactReplay::runTrees(compactWorlds, request.worldPaths, *spec, replay, written, progress));
    } else {
        ReplayEngine::SweepDone written;
        if (entries) {
            // runFiles() has labelled the sweep of an approximate world.
            written = [entries](qsizetype world, const SweepResult &sweep) {
                entries[world] = ReplayJson::sweepToIndentedJson(sweep);
            };
        }
        replayed = ReplayEngine::runFiles(request.worldPaths, *spec, replay, written, progress, std::move(checked));
    }
    if (!replayed) {
        err << "error: " << replayed.error << '\n';
        return 1;
    }
    auto result = std::make_shared<ReplayResult>(std::move(*replayed.value));
    if (compactPath) {
        for (qsizetype i = 0; i < result->worlds.size() && i < approximate.size(); ++i)
            result->worlds[i].approximate = approximate.at(i);
    } else if (!request.includeApproximate) {
        // The approximate worlds were replayed with the others; they leave
        // the result (and the value is that of the worlds kept), with a note
        // each, in the order given.
        const auto isApproximate = [](const SweepResult &sweep) { return sweep.approximate; };
        if (std::any_of(result->worlds.cbegin(), result->worlds.cend(), isApproximate)) {
            QList<SweepResult> kept;
            QList<QByteArray> keptEntries;
            for (qsizetype i = 0; i < result->worlds.size(); ++i) {
                if (result->worlds.at(i).approximate) {
                    skipNote(request.worldPaths.at(i));
                    continue;
                }
                kept.append(std::move(result->worlds[i]));
                if (entries)
                    keptEntries.append(std::move(entries[i]));
            }
            err.flush();
            if (kept.isEmpty())
                return nothingLeft();
            result->worlds = std::move(kept);
            result->computeValue();
            if (entries)
                *worldEntries = std::move(keptEntries);
        }
    }
    const int rc = printReplayResult(*result, request.printing, out, err, request.printing.json ? worldEntries.get() : nullptr);
    CommandLine::keepUntilExit(std::move(result));
    CommandLine::keepUntilExit(std::move(worldEntries));
    return rc;
}

} // namespace dreamrsi
