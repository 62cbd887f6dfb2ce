// `dreamrsi bench sandbox`: what the sandbox costs a run, and the pool's throughput.
#include "benches.h"

#include "eval/evaluationpool.h"
#include "eval/sandboxrunner.h"

#include <QDir>
#include <QElapsedTimer>
#include <QProcess>
#include <QTemporaryDir>
#include <QThread>

#include <algorithm>
#include <vector>

namespace dreamrsi {

namespace {

double median(std::vector<double> values)
{
    if (values.empty())
        return 0.0;
    std::sort(values.begin(), values.end());
    const size_t mid = values.size() / 2;
    return values.size() % 2 ? values[mid] : (values[mid - 1] + values[mid]) / 2.0;
}

} // namespace

int benchSandbox(const SandboxBenchOptions &options, QTextStream &out, QTextStream &err)
{
    const int runs = options.runs;
    const int workers = options.workers > 0 ? options.workers : std::max(1, QThread::idealThreadCount());
    const int evaluations = options.evaluations;
    QTemporaryDir work(QDir::tempPath() + QStringLiteral("/dreamrsi-bench-XXXXXX"));
    if (!work.isValid()) {
        err << "dreamrsi bench sandbox: cannot create a work directory: " << work.errorString() << '\n';
        return 1;
    }

    auto timeBare = [&] {
        std::vector<double> ms;
        for (int i = 0; i < runs; ++i) {
            QElapsedTimer clock;
            clock.start();
            QProcess p;
            p.setWorkingDirectory(work.path());
            p.start(QStringLiteral("/bin/true"), {});
            p.waitForFinished(10'000);
            ms.push_back(double(clock.nsecsElapsed()) / 1e6);
        }
        return median(ms);
    };
    auto timeSandboxed = [&](SandboxMode mode, bool *ok) {
        std::vector<double> ms;
        for (int i = 0; i < runs; ++i) {
            SandboxRequest request;
            request.program = QStringLiteral("/bin/true");
            request.workDir = work.path();
            request.mode = mode;
            QElapsedTimer clock;
            clock.start();
            const SandboxResult r = SandboxRunner::run(request);
            ms.push_back(double(clock.nsecsElapsed()) / 1e6);
            if (!r.succeeded()) {
                err << "sandboxed /bin/true failed: " << r.describe() << '\n';
                *ok = false;
                return 0.0;
            }
        }
        *ok = true;
        return median(ms);
    };

    out << "sandbox benchmark: " << runs << " runs of /bin/true each (median wall time, ms)\n";
    const double bare = timeBare();
    out << "  bare QProcess        " << QString::number(bare, 'f', 2) << '\n';
    bool ok = false;
    if (SandboxRunner::bubblewrapAvailable()) {
        const double bwrap = timeSandboxed(SandboxMode::Bubblewrap, &ok);
        if (!ok)
            return 1;
        out << "  bubblewrap sandbox   " << QString::number(bwrap, 'f', 2) << "   overhead "
            << QString::number(bwrap - bare, 'f', 2) << " ms\n";
    } else {
        out << "  bubblewrap sandbox   unavailable: " << SandboxRunner::bubblewrapProblem() << '\n';
    }
    const double fallback = timeSandboxed(SandboxMode::Fallback, &ok);
    if (!ok)
        return 1;
    out << "  fallback sandbox     " << QString::number(fallback, 'f', 2) << "   overhead "
        << QString::number(fallback - bare, 'f', 2) << " ms\n";

    // Throughput: M trivial evaluations (a custom command printing a score) through W workers.
    EvaluationPool pool(workers);
    int failures = 0;
    QObject::connect(&pool, &EvaluationPool::finished, &pool,
                     [&](quint64, const EvaluationResult &r) { failures += r.isSuccess() ? 0 : 1; });
    EvaluationRequest request;
    request.task = QStringLiteral("custom");
    request.command = QStringLiteral("echo '{\"score\": 1}'");
    QElapsedTimer clock;
    clock.start();
    for (int i = 0; i < evaluations; ++i)
        pool.submit(request);
    if (!pool.waitForIdle(600'000)) {
        err << "dreamrsi bench sandbox: the pool did not finish within 10 minutes\n";
        return 1;
    }
    const double seconds = double(clock.nsecsElapsed()) / 1e9;
    out << "pool throughput: " << evaluations << " trivial evaluations, W = " << workers << ": "
        << QString::number(seconds, 'f', 2) << " s, " << QString::number(evaluations / seconds, 'f', 1)
        << " evaluations/s (" << failures << " failed; sandbox "
        << (SandboxRunner::effectiveMode(SandboxMode::Auto) == SandboxMode::Bubblewrap ? "bubblewrap" : "fallback") << ")\n";
    return failures == 0 ? 0 : 1;
}

} // namespace dreamrsi
