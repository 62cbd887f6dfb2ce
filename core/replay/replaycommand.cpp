#include "replaycommand.h"

#include "replayprocess.h"

#include "replayengine.h"
#include "replayjson.h"
#include "synthworld.h"

#include "model/treejson.h"
#include "policy/builtinpolicies.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QJsonDocument>
#include <QSaveFile>
#include <QThread>

#include <cmath>
#include <cstdio>
#include <sys/resource.h>
#include <mutex>

namespace dreamrsi {

namespace {

const char *const replayUsage =
    "usage: dreamrsi replay --world A.json [--world B.json ...] --policy P.js|builtin:NAME\n"
    "                       [--workers 10] [--lambda 0.1] [--betas 0,0.25,0.5,0.75,1] [--rounds K]\n"
    "                       [--json] [--trace FILE] [--time-limit-ms 2000] [--seed N] [--threads T]\n"
    "                       [--no-grid-plan] [--progress]\n"
    "Replays a policy in frozen worlds over a budget sweep and prints the scores\n"
    "(replay.md). Built-in policies: parallel_refine, portfolio.\n"
    "Exit status: 0 ok, 1 a policy error or an unreadable world or policy, 2 usage error.\n";

/// CPU seconds used by this process so far (all threads): on a busy machine
/// the wall clock says little, the CPU time says what the work costs.
double processCpuSeconds()
{
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
        + double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

bool parseInt(const QString &text, int min, int *value)
{
    bool ok = false;
    const int v = text.toInt(&ok);
    if (!ok || v < min)
        return false;
    *value = v;
    return true;
}

QString number(double x)
{
    return QString::number(x, 'g', 6);
}

} // namespace

std::optional<ReplayCommandOptions> parseReplayOptions(const QStringList &args, QString *error, bool allowUnknown)
{
    ReplayCommandOptions o;
    auto fail = [error](const QString &message) -> std::optional<ReplayCommandOptions> {
        if (error)
            *error = message;
        return std::nullopt;
    };
    for (int i = 0; i < args.size(); ++i) {
        const QString &a = args.at(i);
        auto value = [&](QString *out) {
            if (i + 1 >= args.size())
                return false;
            *out = args.at(++i);
            return true;
        };
        QString v;
        if (a == QLatin1String("--json")) {
            o.json = true;
        } else if (a == QLatin1String("--progress")) {
            o.progress = true;
        } else if (a == QLatin1String("--no-grid-plan")) {
            o.replay.useGridPlan = false;
        } else if (a == QLatin1String("--world")) {
            if (!value(&v))
                return fail(QStringLiteral("--world needs a file"));
            o.worldPaths.append(v);
        } else if (a == QLatin1String("--policy")) {
            if (!value(&v))
                return fail(QStringLiteral("--policy needs a .js file or builtin:NAME"));
            o.policyArgument = v;
        } else if (a == QLatin1String("--workers")) {
            if (!value(&v) || !parseInt(v, 1, &o.replay.workers))
                return fail(QStringLiteral("--workers needs an integer ≥ 1 (got '%1')").arg(v));
        } else if (a == QLatin1String("--rounds")) {
            int k = 0;
            if (!value(&v) || !parseInt(v, 0, &k))
                return fail(QStringLiteral("--rounds needs an integer ≥ 0 (got '%1')").arg(v));
            o.replay.maxRounds = k;
        } else if (a == QLatin1String("--threads")) {
            if (!value(&v) || !parseInt(v, 0, &o.replay.threads))
                return fail(QStringLiteral("--threads needs an integer ≥ 0 (got '%1'; 0 = all cores)").arg(v));
        } else if (a == QLatin1String("--time-limit-ms")) {
            if (!value(&v) || !parseInt(v, 1, &o.timeLimitMs))
                return fail(QStringLiteral("--time-limit-ms needs an integer ≥ 1 (got '%1')").arg(v));
        } else if (a == QLatin1String("--seed")) {
            bool ok = false;
            if (value(&v))
                o.seed = v.toUInt(&ok);
            if (!ok)
                return fail(QStringLiteral("--seed needs an unsigned 32-bit integer (got '%1')").arg(v));
        } else if (a == QLatin1String("--lambda")) {
            bool ok = false;
            if (value(&v))
                o.replay.lambda = v.toDouble(&ok);
            if (!ok || !std::isfinite(o.replay.lambda) || o.replay.lambda < 0.0)
                return fail(QStringLiteral("--lambda needs a finite number ≥ 0 (got '%1')").arg(v));
        } else if (a == QLatin1String("--betas")) {
            if (!value(&v))
                return fail(QStringLiteral("--betas needs a comma-separated list, e.g. 0,0.5,1"));
            o.replay.betas.clear();
            for (const QString &part : v.split(QLatin1Char(','))) {
                bool ok = false;
                const double b = part.trimmed().toDouble(&ok);
                if (!ok || !(b >= 0.0 && b <= 1.0))
                    return fail(QStringLiteral("--betas: '%1' is not a number in [0, 1]").arg(part));
                o.replay.betas.append(b);
            }
        } else if (a == QLatin1String("--trace")) {
            if (!value(&v))
                return fail(QStringLiteral("--trace needs a file"));
            o.tracePath = v;
        } else if (allowUnknown) {
            o.unhandled.append(a);
        } else {
            return fail(QStringLiteral("unknown argument '%1'").arg(a));
        }
    }
    return o;
}

int printReplayResult(const ReplayResult &result, const ReplayCommandOptions &options, QTextStream &out,
                      QTextStream &err)
{
    int rc = result.ok() ? 0 : 1;
    if (!options.tracePath.isEmpty()) {
        QSaveFile file(options.tracePath);
        if (!file.open(QIODevice::WriteOnly) || file.write(ReplayJson::traceLines(result)) < 0 || !file.commit()) {
            err << "error: cannot write trace file '" << options.tracePath << "': " << file.errorString() << '\n';
            rc = 1;
        }
    }
    if (options.json) {
        const QByteArray json = ReplayJson::resultToIndentedJson(result);
        // Straight to the file when the stream has one (stdout): tens of MB
        // need not go through a QString and back.
        if (QIODevice *device = out.device()) {
            out.flush();
            device->write(json);
        } else {
            out << QString::fromUtf8(json);
        }
    } else {
        out << "policy " << result.policy << "   lambda " << number(result.lambda) << "   workers " << result.workers
            << "   betas";
        for (const double b : result.betas)
            out << ' ' << number(b);
        if (result.maxRounds)
            out << "   rounds ≤ " << *result.maxRounds;
        out << "\n\n";
        out << QStringLiteral("world").leftJustified(32) << QStringLiteral("cells").rightJustified(7)
            << QStringLiteral("S").rightJustified(11) << QStringLiteral("hypervol").rightJustified(11)
            << QStringLiteral("penalty").rightJustified(11) << QStringLiteral("value").rightJustified(11) << '\n';
        auto opt = [](const std::optional<double> &v) { return v ? number(*v) : QStringLiteral("-"); };
        for (const SweepResult &s : result.worlds) {
            out << s.world.leftJustified(32) << QString::number(s.cells).rightJustified(7)
                << number(s.best).rightJustified(11) << opt(s.hypervolume).rightJustified(11)
                << opt(s.penalty).rightJustified(11) << opt(s.value).rightJustified(11)
                << (s.scorable ? QString() : QStringLiteral("  (not scorable: S = 0)")) << '\n';
            for (const EpisodeResult &e : s.episodes) {
                out << "    beta " << number(e.beta).leftJustified(6) << " calls " << QString::number(e.calls).rightJustified(5)
                    << "  rounds " << QString::number(e.rounds).rightJustified(4) << "  best "
                    << number(e.best).rightJustified(10) << "  attainment "
                    << (s.scorable ? number(e.attainment) : QStringLiteral("-"));
                if (!e.ok())
                    out << "  ERROR " << e.error;
                out << '\n';
            }
        }
        out << "\nvalue (mean over " << result.scorableWorlds << " scorable world"
            << (result.scorableWorlds == 1 ? "" : "s") << "): " << opt(result.value) << '\n';
    }
    if (!result.ok())
        err << "error: " << result.firstError() << '\n';
    out.flush();
    err.flush();
    return rc;
}

std::optional<PolicySpec> policySpecFor(const ReplayCommandOptions &options, QString *error)
{
    std::optional<PolicySpec> spec = PolicySpec::fromArgument(options.policyArgument, error);
    if (!spec)
        return std::nullopt;
    spec->setTimeLimitMs(options.timeLimitMs);
    spec->setRandomSeed(options.seed);
    // Fail early and clearly on a script that does not compile.
    if (!spec->create(error))
        return std::nullopt;
    return spec;
}

ReplayResult runReplay(const QList<ReplayWorld> &worlds, const PolicySpec &spec, const ReplayCommandOptions &options)
{
    ReplayOptions replay = options.replay;
    replay.trace = !options.tracePath.isEmpty();
    ReplayEngine::Progress progress;
    std::mutex progressMutex;
    if (options.progress) {
        progress = [&progressMutex](int done, int total) {
            std::lock_guard lock(progressMutex);
            std::fprintf(stderr, "progress %d/%d\n", done, total);
            std::fflush(stderr);
        };
    }
    return ReplayEngine::runWorlds(worlds, spec, replay, progress);
}

int runReplayCommand(const QStringList &args, QTextStream &out, QTextStream &err)
{
    if (args.contains(QLatin1String("--help")) || args.contains(QLatin1String("-h"))) {
        out << replayUsage;
        return 0;
    }
    if (args.contains(QLatin1String("--project"))) {
        err << "dreamrsi replay: worlds of a project are replayed by `dreamrsi project replay P.dreamrsi ...`\n";
        return 2;
    }
    QString error;
    const std::optional<ReplayCommandOptions> options = parseReplayOptions(args, &error);
    if (!options) {
        err << "dreamrsi replay: " << error << '\n' << replayUsage;
        return 2;
    }
    if (options->worldPaths.isEmpty() || options->policyArgument.isEmpty()) {
        err << "dreamrsi replay: at least one --world and a --policy are required\n" << replayUsage;
        return 2;
    }
    const std::optional<PolicySpec> spec = policySpecFor(*options, &error);
    if (!spec) {
        err << "error: " << error << '\n';
        return 1;
    }
    QList<ReplayWorld> worlds;
    QList<TreeJson::ParseResult> parsedWorlds = TreeJson::readFiles(options->worldPaths);
    for (qsizetype i = 0; i < parsedWorlds.size(); ++i) {
        const QString &path = options->worldPaths.at(i);
        TreeJson::ParseResult &parsed = parsedWorlds[i];
        if (!parsed.ok()) {
            err << "error: " << parsed.error.message << '\n';
            return 1;
        }
        worlds.append(ReplayWorld{path, std::make_shared<const DiscoveryTree>(std::move(*parsed.tree))});
    }
    const ReplayResult result = runReplay(worlds, *spec, *options);
    return printReplayResult(result, *options, out, err);
}

int runSynthCommand(const QStringList &args, QTextStream &out, QTextStream &err)
{
    const auto usage = [&err] {
        err << "usage: dreamrsi synth --out DIR --worlds N --seed S [--width 10] [--depth 11]\n"
               "                      [--fail-rate 0.2] [--regime steady|plateau|needle|noisy] [--workers 10]\n"
               "Writes N synthetic worlds DIR/synth-REGIME-SEED-I.json (seeds S, S+1, ...).\n";
    };
    if (args.contains(QLatin1String("--help"))) {
        usage();
        return 0;
    }
    SynthParams params;
    QString outDir;
    int count = 0;
    bool haveSeed = false;
    for (int i = 0; i < args.size(); ++i) {
        const QString &a = args.at(i);
        const QString v = args.value(i + 1);
        bool ok = i + 1 < args.size();
        if (a == QLatin1String("--out")) {
            outDir = v;
        } else if (a == QLatin1String("--worlds")) {
            count = v.toInt(&ok);
            ok = ok && count >= 1;
        } else if (a == QLatin1String("--seed")) {
            params.seed = v.toULongLong(&ok);
            haveSeed = ok;
        } else if (a == QLatin1String("--width")) {
            params.width = v.toInt(&ok);
        } else if (a == QLatin1String("--depth")) {
            params.depth = v.toInt(&ok);
        } else if (a == QLatin1String("--fail-rate")) {
            params.failRate = v.toDouble(&ok);
        } else if (a == QLatin1String("--regime")) {
            params.regime = v;
        } else if (a == QLatin1String("--workers")) {
            params.maxParallelism = v.toInt(&ok);
        } else {
            err << "dreamrsi synth: unknown argument '" << a << "'\n";
            usage();
            return 2;
        }
        if (!ok || v.isEmpty()) {
            err << "dreamrsi synth: bad value for " << a << ": '" << v << "'\n";
            usage();
            return 2;
        }
        ++i;
    }
    if (outDir.isEmpty() || count < 1 || !haveSeed) {
        err << "dreamrsi synth: --out, --worlds and --seed are required\n";
        usage();
        return 2;
    }
    if (const QString problem = SynthWorld::validate(params); !problem.isEmpty()) {
        err << "dreamrsi synth: " << problem << '\n';
        return 2;
    }
    if (!QDir().mkpath(outDir)) {
        err << "error: cannot create folder '" << outDir << "'\n";
        return 1;
    }
    const quint64 firstSeed = params.seed;
    for (int i = 0; i < count; ++i) {
        params.seed = firstSeed + quint64(i);
        const DiscoveryTree tree = SynthWorld::generate(params);
        const QString path = QDir(outDir).filePath(
            QStringLiteral("synth-%1-%2-%3.json").arg(params.regime).arg(firstSeed).arg(i, 4, 10, QLatin1Char('0')));
        QString error;
        if (!TreeJson::writeFile(tree, path, &error)) {
            err << "error: " << error << '\n';
            return 1;
        }
        out << path << ": " << tree.cellCount() << " cells, S = " << number(tree.bestEffectiveScore()) << '\n';
    }
    out.flush();
    return 0;
}

int runBenchReplayCommand(const QStringList &args, QTextStream &out, QTextStream &err)
{
    int worldCount = 1000;
    const int at = int(args.indexOf(QLatin1String("--worlds")));
    if (at >= 0 && !parseInt(args.value(at + 1), 1, &worldCount)) {
        err << "usage: dreamrsi bench replay [--worlds N]  (N a positive integer)\n";
        return 2;
    }
    // About 110 cells a world: 10 branches of 8..15 attempts.
    QList<ReplayWorld> worlds;
    qint64 cells = 0;
    const QStringList regimes = SynthWorld::regimes();
    for (int i = 0; i < worldCount; ++i) {
        SynthParams p;
        p.width = 10;
        p.depth = 15;
        p.seed = quint64(1000 + i);
        p.regime = regimes.at(i % regimes.size());
        auto tree = std::make_shared<const DiscoveryTree>(SynthWorld::generate(p));
        cells += tree->cellCount();
        worlds.append(ReplayWorld{QStringLiteral("synth-%1").arg(i), tree});
    }
    const int cores = QThread::idealThreadCount();
    out << "replay bench (wall-clock figures depend on what else the machine runs; cpu = this process's CPU time)\n"
        << "replay bench: " << worldCount << " synthetic worlds, " << QString::number(double(cells) / worldCount, 'f', 1)
        << " cells on average, 5 betas, W = 10, " << cores << " cores\n";

    auto measure = [&](const QString &title, const PolicySpec &spec, int threads, const QList<ReplayWorld> &set) {
        ReplayOptions options;
        options.threads = threads;
        QElapsedTimer timer;
        timer.start();
        const double cpu0 = processCpuSeconds();
        const ReplayResult r = ReplayEngine::runWorlds(set, spec, options);
        const double seconds = double(timer.nsecsElapsed()) / 1e9;
        const double cpu = processCpuSeconds() - cpu0;
        qint64 reveals = 0;
        int episodes = 0;
        for (const SweepResult &s : r.worlds) {
            for (const EpisodeResult &e : s.episodes) {
                reveals += e.calls;
                ++episodes;
            }
        }
        out << "  " << title.leftJustified(44) << " threads " << QString::number(threads).rightJustified(2) << ": "
            << QString::number(seconds * 1000.0, 'f', 1).rightJustified(8) << " ms  "
            << QString::number(episodes / seconds, 'f', 0).rightJustified(8) << " episodes/s  "
            << QString::number(double(reveals) / seconds, 'f', 0).rightJustified(9) << " reveals/s  (cpu "
            << QString::number(cpu * 1000.0, 'f', 0) << " ms: " << QString::number(episodes / cpu, 'f', 0)
            << " episodes per cpu-second)"
            << (r.ok() ? QString() : QStringLiteral("  ERROR ") + r.firstError()) << '\n';
        out.flush();
        return r.ok();
    };

    bool ok = true;
    const PolicySpec builtin = PolicySpec::builtin(QStringLiteral("portfolio"));
    const PolicySpec scripted =
        PolicySpec::script(BuiltinPolicies::javaScriptSource(QStringLiteral("portfolio")), QStringLiteral("portfolio.js"));
    for (const int threads : {1, cores}) {
        ok = measure(QStringLiteral("builtin:portfolio (C++)"), builtin, threads, worlds) && ok;
        ok = measure(QStringLiteral("portfolio.js (scripted)"), scripted, threads, worlds) && ok;
    }

    // A dreaming evaluation: 4 policy versions x 10 worlds x 5 betas, scripted,
    // engines created from scratch as the dreaming loop would.
    const QList<ReplayWorld> ten = worlds.mid(0, std::min<qsizetype>(10, worlds.size()));
    const QString portfolio = BuiltinPolicies::javaScriptSource(QStringLiteral("portfolio"));
    QString patient = portfolio;
    patient.replace(QStringLiteral("var P = 1 + Math.floor(3 * beta);"), QStringLiteral("var P = 2 + Math.floor(3 * beta);"));
    QString eager = portfolio;
    eager.replace(QStringLiteral("var G = W * (1 + Math.floor(2 * beta));"), QStringLiteral("var G = W * (2 + Math.floor(4 * beta));"));
    const QList<PolicySpec> versions{
        PolicySpec::script(BuiltinPolicies::javaScriptSource(QStringLiteral("parallel_refine")), QStringLiteral("v1")),
        PolicySpec::script(portfolio, QStringLiteral("v2")), PolicySpec::script(patient, QStringLiteral("v3")),
        PolicySpec::script(eager, QStringLiteral("v4"))};
    for (const int threads : {1, cores}) {
        QElapsedTimer timer;
        timer.start();
        const double cpu0 = processCpuSeconds();
        for (const PolicySpec &v : versions) {
            ReplayOptions options;
            options.threads = threads;
            ok = ReplayEngine::runWorlds(ten, v, options).ok() && ok;
        }
        out << "  dreaming evaluation (4 versions x " << ten.size() << " worlds x 5 betas, scripted), threads "
            << threads << ": " << QString::number(double(timer.nsecsElapsed()) / 1e6, 'f', 1) << " ms (cpu "
            << QString::number((processCpuSeconds() - cpu0) * 1000.0, 'f', 0) << " ms)\n";
    }

    // The same evaluation as the GUI and the dreaming loop run it: each version
    // in a child `dreamrsi replay` process (memory and wall-clock limits),
    // one after another and all at once. The difference to the in-process
    // figure is the price of isolation: process start, world files, JSON.
    const QList<QString> sources{BuiltinPolicies::javaScriptSource(QStringLiteral("parallel_refine")), portfolio, patient,
                                 eager};
    for (const bool concurrent : {false, true}) {
        QElapsedTimer timer;
        timer.start();
        QList<std::shared_ptr<ReplayProcess>> children;
        int pending = 0;
        QEventLoop loop;
        QString failure;
        auto launch = [&](const QString &source) {
            auto child = std::make_shared<ReplayProcess>();
            ReplayProcessRequest request;
            request.worlds = ten;
            request.policySource = source;
            request.trace = false;
            request.program = QCoreApplication::applicationFilePath();
            QObject::connect(child.get(), &ReplayProcess::finished, &loop,
                             [&](std::shared_ptr<const ReplayProcessOutput> output) {
                                 if (!output->result.ok())
                                     failure = output->result.firstError();
                                 if (--pending == 0)
                                     loop.quit();
                             });
            QObject::connect(child.get(), &ReplayProcess::failed, &loop, [&](const QString &message) {
                failure = message;
                if (--pending == 0)
                    loop.quit();
            });
            QString error;
            ++pending;
            if (!child->start(request, &error)) {
                failure = error;
                --pending;
            }
            children.append(child);
        };
        if (concurrent) {
            for (const QString &source : sources)
                launch(source);
            if (pending > 0)
                loop.exec();
        } else {
            for (const QString &source : sources) {
                launch(source);
                if (pending > 0)
                    loop.exec();
            }
        }
        ok = ok && failure.isEmpty();
        out << "  dreaming evaluation in child processes, " << (concurrent ? "4 at once" : "one after another")
            << ": " << QString::number(double(timer.nsecsElapsed()) / 1e6, 'f', 1) << " ms"
            << (failure.isEmpty() ? QString() : QStringLiteral("  ERROR ") + failure) << '\n';
        out.flush();
    }
    out.flush();
    return ok ? 0 : 1;
}

} // namespace dreamrsi
