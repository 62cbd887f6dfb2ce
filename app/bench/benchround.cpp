// `dreamrsi bench round`: a live round's orchestration overhead per attempt.
#include "benches.h"

#include "agent/agent.h"
#include "backend/evaluationbackend.h"
#include "loop/round/roundrunner.h"
#include "store/projectstore.h"
#include "store/storeawait.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QTemporaryDir>

namespace dreamrsi {

namespace {

/// Answers at once: the parent's value plus one.
class InstantAgent final : public DiscoveryAgent
{
public:
    QString kind() const override { return QStringLiteral("bench"); }
    QString model() const override { return QStringLiteral("instant"); }
    AgentOutcome propose(const AttemptContext &context, const std::atomic_bool &) override
    {
        AgentOutcome o;
        o.ok = true;
        o.proposal = QStringLiteral("Increase the value of %1.\n").arg(context.cellId);
        o.program = QStringLiteral("VALUE = %1\n").arg(context.branch * 1000 + context.attempt);
        o.usage.model = model();
        return o;
    }
};

/// Scores without running anything.
class InstantBackend final : public EvaluationBackend
{
public:
    QString name() const override { return QStringLiteral("instant"); }
    EvaluationResult evaluate(const EvaluationRequest &request, const std::atomic_bool &, const ProgressSink &) override
    {
        return EvaluationResult::success(double(request.candidatePath.size() % 97 + 1));
    }
};

} // namespace

int benchRound(const RoundBenchOptions &options, QTextStream &out, QTextStream &err)
{
    const int branches = options.branches, refinements = options.refinements, workers = options.workers;
    QTemporaryDir dir;
    const QString task = dir.filePath(QStringLiteral("task"));
    QDir().mkpath(task);
    for (const auto &[name, text] : {std::pair{"task.json", "{\"evaluator\": {\"command\": \"true\"}}\n"},
                                     std::pair{"initial.py", "VALUE = 0\n"}, std::pair{"problem.md", "Bench task.\n"}}) {
        QFile f(task + QLatin1Char('/') + QLatin1String(name));
        if (!f.open(QIODevice::WriteOnly) || f.write(text) < 0) {
            err << "bench round: cannot write " << f.fileName() << '\n';
            return 1;
        }
    }
    ProjectStore store;
    if (const StoreResult<OpenReport> r = await(store.create(dir.filePath(QStringLiteral("bench.dreamrsi")), ProjectInfo()));
        !r.ok()) {
        err << "bench round: " << r.error << '\n';
        return 1;
    }
    RoundConfig config;
    config.task = task;
    config.policy = PolicyChoice::builtin(QStringLiteral("parallel_refine"));
    config.beta = 1.0;
    config.workers = workers;
    config.evaluateBaseline = false;
    config.fallbackGrid = GridPlan{branches, refinements, QStringLiteral("bench")};
    RoundRunner runner(&store, config, std::make_shared<InstantAgent>(), std::make_shared<InstantBackend>());
    QEventLoop loop;
    QObject::connect(&runner, &RoundRunner::finished, &loop, &QEventLoop::quit, Qt::QueuedConnection);
    QElapsedTimer timer;
    timer.start();
    runner.start();
    loop.exec();
    runner.wait();
    const double ms = double(timer.nsecsElapsed()) / 1e6;
    const RoundSummary s = runner.summary();
    await(store.close());
    if (!s.ok()) {
        err << "bench round: " << s.error << '\n';
        return 1;
    }
    out << "round: " << s.counters.cells << " attempts in " << s.counters.rounds << " rounds, W " << workers
        << ", instant agent and evaluator\n";
    out << "  total " << QString::number(ms, 'f', 1) << " ms, orchestration per attempt "
        << QString::number(ms / double(std::max<qint64>(1, s.counters.cells)), 'f', 3)
        << " ms (workspace, artifacts, store commit, policy, signals; target < 5 ms)\n";
    return 0;
}

} // namespace dreamrsi
