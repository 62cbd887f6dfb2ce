#include "roundsession.h"

#include "model/attemptpayload.h"

#include "backend/localevaluationbackend.h"
#include "backend/slurmevaluationbackend.h"

#include "agent/agentfactory.h"
#include "store/projectstore.h"
#include "store/storeawait.h"

#include <QFileInfo>
#include <QJsonObject>

#include <cmath>

namespace dreamrsi {

namespace {

using Prepared = Result<PreparedRound>;

/// The agent (given, or made for the round's task) and the round, ready.
/// The one rule of the agent's seed: it is the round's (`round --seed`,
/// Launch Round's Seed, the loop's S + t − 1). An agent handed in (the loop
/// makes one for all its rounds) keeps the seed it was made with.
Prepared assemble(RoundConfig config, const RoundSession::Parts &parts)
{
    config.agent.seed = config.seed;
    std::shared_ptr<DiscoveryAgent> agent = parts.agent;
    if (!agent) {
        const Result<std::shared_ptr<DiscoveryAgent>> made = RoundSession::makeAgent(config, config.task);
        if (!made.ok())
            return Prepared::failure(QStringLiteral("agent %1: %2").arg(config.agent.kind, made.error));
        agent = *made.value;
    }
    return Prepared::success(PreparedRound{config, std::move(agent), parts.backend});
}

} // namespace

QFuture<Result<PreparedRound>> RoundSession::prepare(ProjectStore *store, const RoundOptions &options, LogSink log,
                                                     Parts given)
{
    if (!store || store->path().isEmpty())
        return QtFuture::makeReadyFuture(Prepared::failure(QStringLiteral("no project is open")));
    if (store->isReadOnly())
        return QtFuture::makeReadyFuture(Prepared::failure(
            QStringLiteral("the project is open read-only while another process writes it; no round can start here")));
    const RoundConfig &config = options.round;
    if (config.task.isEmpty() && config.resume == 0)
        return QtFuture::makeReadyFuture(Prepared::failure(QStringLiteral("a new round needs a task")));
    // Made here, on the caller's thread; the agent needs the task first.
    if (!given.backend)
        given.backend = makeBackend(options.slurm, std::move(log));
    if (config.resume == 0 || !config.task.isEmpty()) {
        // A task given with a resume must be the iteration's own: the runner
        // checks it against the stored one as it starts.
        return QtFuture::makeReadyFuture(assemble(config, given));
    }
    // A resume without a task runs the iteration's own.
    const QString path = store->path();
    return store->iterations().then([config, given, path](StoreResult<QList<IterationInfo>> list) -> Prepared {
        if (!list.ok())
            return list.failureAs<PreparedRound>();
        for (const IterationInfo &it : std::as_const(*list.value)) {
            if (it.id != config.resume)
                continue;
            RoundConfig resumed = config;
            resumed.task = it.task.value_or(QString());
            if (resumed.task.isEmpty())
                return Prepared::failure(QStringLiteral("iteration %1 names no task; give the round one").arg(it.id));
            return assemble(resumed, given);
        }
        return Prepared::failure(QStringLiteral("%1: iteration %2 does not exist").arg(path).arg(config.resume));
    });
}

StoreResult<OpenReport> RoundSession::openOrCreate(ProjectStore &store, const QString &path, const QString &task,
                                                   bool *created)
{
    const bool exists = QFileInfo::exists(path);
    if (created)
        *created = false;
    if (exists)
        return await(store.open(path));
    ProjectInfo info;
    info.name = QFileInfo(path).completeBaseName();
    info.task = task;
    StoreResult<OpenReport> opened = await(store.create(path, info));
    if (created)
        *created = opened.ok();
    return opened;
}

std::shared_ptr<EvaluationBackend> RoundSession::makeBackend(const std::optional<SlurmSettings> &slurm, LogSink log)
{
    if (!slurm)
        return std::make_shared<LocalEvaluationBackend>();
    auto backend = std::make_shared<SlurmEvaluationBackend>(*slurm);
    if (log)
        backend->setLogSink(std::move(log));
    return backend;
}

Result<std::shared_ptr<EvaluationBackend>> RoundSession::checkedBackend(const std::optional<SlurmSettings> &slurm, LogSink log)
{
    std::shared_ptr<EvaluationBackend> backend = makeBackend(slurm, std::move(log));
    if (const QString problem = backend->prepare(); !problem.isEmpty())
        return Result<std::shared_ptr<EvaluationBackend>>::failure(QStringLiteral("%1 backend: %2").arg(backend->name(), problem));
    return Result<std::shared_ptr<EvaluationBackend>>::success(std::move(backend));
}

Result<std::shared_ptr<DiscoveryAgent>> RoundSession::makeAgent(const RoundConfig &round, const QString &task)
{
    Result<std::unique_ptr<DiscoveryAgent>> made = createDiscoveryAgent(round.agent, task.isEmpty() ? round.task : task);
    if (!made)
        return made.failureAs<std::shared_ptr<DiscoveryAgent>>();
    return Result<std::shared_ptr<DiscoveryAgent>>::success(std::move(*made.value));
}

void RoundSession::count(RoundCounters &counters, const Cell &cell)
{
    counters.cells += 1;
    counters.calls += 1;
    const AttemptPayload::Agent agent = AttemptPayload::agentOf(cell);
    counters.tokensIn += agent.tokensIn;
    counters.tokensOut += agent.tokensOut;
    counters.usd += agent.cost;
    if (cell.score && std::isfinite(*cell.score) && (!counters.bestScore || *cell.score > *counters.bestScore))
        counters.bestScore = cell.score;
}

} // namespace dreamrsi
