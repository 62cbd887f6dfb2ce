// `dreamrsi bench dream`: what a dream costs under each valuation — the same
// dream (built-in improver, in process) over the history as revealed and over
// C imagined completions of it.
#include "benches.h"

#include "loop/dream/dreamer.h"
#include "loop/dream/policyimprover.h"
#include "project/projectpolicies.h"
#include "replay/synthworld.h"

#include <QElapsedTimer>

#include <sys/resource.h>

namespace dreamrsi {

int benchDream(const DreamBenchOptions &bench, QTextStream &out, QTextStream &err)
{
    // History worlds as a deployed portfolio reveals them would be smaller;
    // whole synthetic worlds are the expensive end (every cell revealed).
    QList<DreamWorld> history;
    qint64 cells = 0;
    for (int i = 0; i < bench.worlds; ++i) {
        SynthParams p;
        p.width = 10;
        p.depth = 11;
        p.seed = quint64(500 + i);
        // The first three study regimes, as the bench's figures were first taken.
        static const QStringList regimes{QStringLiteral("directions"), QStringLiteral("late"), QStringLiteral("flat")};
        p.regime = regimes.at(i % regimes.size());
        p.maxParallelism = 4;
        auto tree = std::make_shared<const DiscoveryTree>(SynthWorld::generate(p));
        cells += tree->cellCount();
        history.append(DreamWorld{IterationId(i + 1), ReplayWorld{QStringLiteral("iteration %1").arg(i + 1), tree}});
    }
    const PolicyVersion deployed = ProjectPolicies::builtinVersion(QStringLiteral("portfolio"));

    out << "dream bench: " << bench.worlds << " history worlds (" << cells << " cells), M " << bench.versions
        << ", W 4, built-in improver, in process; peak memory is the process's maximum resident set so far\n";
    auto run = [&](Valuation valuation) {
        DreamSettings settings;
        settings.versions = bench.versions;
        settings.inProcess = true;
        settings.bothValuations = false;
        settings.replay.workers = 4;
        settings.replay.valuation = valuation;
        settings.replay.completions = bench.completions;
        Dreamer dreamer(nullptr, std::make_shared<PolicyImprover>());
        QElapsedTimer timer;
        timer.start();
        const DreamReport report = dreamer.runInMemory(history, settings, deployed, 1);
        const double seconds = double(timer.nsecsElapsed()) / 1e9;
        rusage usage{};
        getrusage(RUSAGE_SELF, &usage);
        if (!report.error.isEmpty()) {
            err << "error: " << report.error << '\n';
            return false;
        }
        const DreamVersion *p = report.proposal();
        int duplicates = 0, inert = 0;
        for (const CandidateRecord &c : report.candidates) {
            duplicates += c.duplicate ? 1 : 0;
            inert += c.inertAtDeployedBeta ? 1 : 0;
        }
        out << "  " << report.config.label() << ": " << QString::number(seconds, 'f', 2) << " s, peak "
            << QString::number(double(usage.ru_maxrss) / 1024.0, 'f', 1) << " MiB, proposed "
            << (p ? p->developed.version.name : QStringLiteral("nothing")) << "; " << report.candidates.size()
            << " candidates, " << (report.candidates.size() - duplicates) << " distinct behaviours, " << inert
            << " changing nothing at the deployed β\n"
            << Qt::flush;
        return true;
    };
    if (bench.valuation != QLatin1String("imagined") && !run(Valuation::Revealed))
        return 1;
    if (bench.valuation != QLatin1String("revealed") && !run(Valuation::Imagined))
        return 1;
    return 0;
}

} // namespace dreamrsi
