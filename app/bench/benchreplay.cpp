// `dreamrsi bench replay`: replay speed in process and in child processes.
#include "benches.h"

#include "policy/builtinpolicies.h"
#include "policy/policyspec.h"
#include "replay/compactreplay.h"
#include "replay/replayengine.h"
#include "replay/replayprocess.h"
#include "replay/synthworld.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QThread>

#include <algorithm>

#include <sys/resource.h>

namespace dreamrsi {

namespace {

/// Page faults of this process so far: memory handed back to the system
/// and asked for again shows here (and as system CPU time).
qint64 processPageFaults()
{
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return qint64(usage.ru_minflt) + qint64(usage.ru_majflt);
}

} // namespace

int benchReplay(const ReplayBenchOptions &bench, QTextStream &out, QTextStream &)
{
    const int worldCount = bench.worlds;
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
        const double cpu0 = cpuSeconds(RUSAGE_SELF);
        const qint64 faults0 = processPageFaults();
        const ReplayResult r = ReplayEngine::runWorlds(set, spec, options);
        const double seconds = double(timer.nsecsElapsed()) / 1e9;
        const double cpu = cpuSeconds(RUSAGE_SELF) - cpu0;
        const qint64 faults = processPageFaults() - faults0;
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
            << " episodes per cpu-second; " << QString::number(double(faults) / std::max(episodes, 1), 'f', 1)
            << " page faults an episode)"
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
    {
        // The compact engine `dreamrsi replay` uses for built-in policies
        // (CompactReplay), on the same worlds in compact form, one thread.
        std::vector<CompactTree> compact;
        compact.reserve(size_t(worlds.size()));
        for (const ReplayWorld &w : std::as_const(worlds))
            compact.push_back(CompactTree::fromTree(*w.tree));
        QElapsedTimer timer;
        timer.start();
        const double cpu0 = cpuSeconds(RUSAGE_SELF);
        std::vector<std::vector<int>> revealed;
        qint64 reveals = 0;
        int episodes = 0;
        for (const CompactTree &w : compact) {
            const SweepResult s = CompactReplay::runSweep(w, QString(), builtin, ReplayOptions{}, &revealed);
            ok = s.ok() && ok;
            for (const EpisodeResult &e : s.episodes) {
                reveals += e.calls;
                ++episodes;
            }
        }
        const double seconds = double(timer.nsecsElapsed()) / 1e9;
        const double cpu = cpuSeconds(RUSAGE_SELF) - cpu0;
        out << "  " << QStringLiteral("builtin:portfolio (compact engine)").leftJustified(44) << " threads  1: "
            << QString::number(seconds * 1000.0, 'f', 1).rightJustified(8) << " ms  "
            << QString::number(episodes / seconds, 'f', 0).rightJustified(8) << " episodes/s  "
            << QString::number(double(reveals) / seconds, 'f', 0).rightJustified(9) << " reveals/s  (cpu "
            << QString::number(cpu * 1000.0, 'f', 0) << " ms)\n";
        out.flush();
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
        const double cpu0 = cpuSeconds(RUSAGE_SELF);
        for (const PolicySpec &v : versions) {
            ReplayOptions options;
            options.threads = threads;
            ok = ReplayEngine::runWorlds(ten, v, options).ok() && ok;
        }
        out << "  dreaming evaluation (4 versions x " << ten.size() << " worlds x 5 betas, scripted), threads "
            << threads << ": " << QString::number(double(timer.nsecsElapsed()) / 1e6, 'f', 1) << " ms (cpu "
            << QString::number((cpuSeconds(RUSAGE_SELF) - cpu0) * 1000.0, 'f', 0) << " ms)\n";
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
            request.program = benchProgram();
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
            ++pending;
            if (const Result<Done> started = child->start(request); !started) {
                failure = started.error;
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
