#include "roundsession.h"

#include "model/attemptpayload.h"

#include "backend/localevaluationbackend.h"
#include "backend/slurmevaluationbackend.h"

#include "agent/agentfactory.h"

#include <QJsonObject>

#include <cmath>

namespace dreamrsi {

std::shared_ptr<EvaluationBackend> RoundSession::makeBackend(const std::optional<SlurmSettings> &slurm, LogSink log)
{
    if (!slurm)
        return std::make_shared<LocalEvaluationBackend>();
    auto backend = std::make_shared<SlurmEvaluationBackend>(*slurm);
    if (log)
        backend->setLogSink(std::move(log));
    return backend;
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
