#include "agent.h"

namespace dreamrsi {

AgentUsage &AgentUsage::operator+=(const AgentUsage &other)
{
    if (model.isEmpty())
        model = other.model;
    tokensIn += other.tokensIn;
    tokensOut += other.tokensOut;
    usd += other.usd;
    latencyS += other.latencyS;
    retries += other.retries;
    calls += other.calls;
    return *this;
}

AgentOutcome AgentOutcome::failure(QString message, AgentUsage usage, QString log)
{
    AgentOutcome outcome;
    outcome.ok = false;
    outcome.error = std::move(message);
    outcome.usage = std::move(usage);
    outcome.log = std::move(log);
    return outcome;
}

DiscoveryAgent::~DiscoveryAgent() = default;
ChatModel::~ChatModel() = default;

} // namespace dreamrsi
