#include "attemptpayload.h"

namespace dreamrsi::AttemptPayload {

namespace {

QLatin1String key(const char *k)
{
    return QLatin1String(k);
}

QJsonObject objectOf(const Cell &cell, const char *k)
{
    return cell.payload.value(key(k)).toObject();
}

} // namespace

QJsonObject Agent::toJson() const
{
    return QJsonObject{{key(nameKey), name},        {key(modelKey), model},         {key(tokensInKey), tokensIn},
                       {key(tokensOutKey), tokensOut}, {key(costKey), cost},          {key(latencyKey), latencyS},
                       {key(retriesKey), retries},   {key(requestsKey), requests}};
}

Agent Agent::fromJson(const QJsonObject &o)
{
    Agent a;
    a.name = o.value(key(nameKey)).toString();
    a.model = o.value(key(modelKey)).toString();
    a.tokensIn = o.value(key(tokensInKey)).toInteger();
    a.tokensOut = o.value(key(tokensOutKey)).toInteger();
    a.cost = o.value(key(costKey)).toDouble();
    a.latencyS = o.value(key(latencyKey)).toDouble();
    a.retries = o.value(key(retriesKey)).toInt();
    a.requests = o.value(key(requestsKey)).toInt();
    return a;
}

QJsonObject Timing::toJson() const
{
    QJsonObject o{{key(agentKey), agentS}, {key(evalKey), evalS}, {key(wallKey), wallS}};
    if (queueWaitS)
        o.insert(key(queueWaitKey), *queueWaitS);
    if (runS)
        o.insert(key(runKey), *runS);
    if (!ended.isEmpty())
        o.insert(key(endedKey), ended);
    return o;
}

Timing Timing::fromJson(const QJsonObject &o)
{
    Timing t;
    t.agentS = o.value(key(agentKey)).toDouble();
    t.evalS = o.value(key(evalKey)).toDouble();
    t.wallS = o.value(key(wallKey)).toDouble();
    if (o.contains(key(queueWaitKey)))
        t.queueWaitS = o.value(key(queueWaitKey)).toDouble();
    if (o.contains(key(runKey)))
        t.runS = o.value(key(runKey)).toDouble();
    t.ended = o.value(key(endedKey)).toString();
    return t;
}

QJsonObject Scheduler::toJson() const
{
    QJsonObject o{{QLatin1String("backend"), backend},
                  {QLatin1String("job_id"), jobId},
                  {QLatin1String("state"), state},
                  {QLatin1String("submits"), submits}};
    if (!reason.isEmpty())
        o.insert(QLatin1String("reason"), reason);
    return o;
}

Scheduler Scheduler::fromJson(const QJsonObject &o)
{
    Scheduler s;
    s.backend = o.value(QLatin1String("backend")).toString();
    s.jobId = o.value(QLatin1String("job_id")).toString();
    s.state = o.value(QLatin1String("state")).toString();
    s.reason = o.value(QLatin1String("reason")).toString();
    s.submits = o.value(QLatin1String("submits")).toInt();
    return s;
}

Agent agentOf(const Cell &cell)
{
    return Agent::fromJson(objectOf(cell, Key::agent));
}

Timing timingOf(const Cell &cell)
{
    return Timing::fromJson(objectOf(cell, Key::timing));
}

std::optional<Scheduler> schedulerOf(const Cell &cell)
{
    const QJsonObject o = objectOf(cell, Key::scheduler);
    return o.isEmpty() ? std::nullopt : std::optional<Scheduler>(Scheduler::fromJson(o));
}

std::optional<int> roundOf(const Cell &cell)
{
    const QJsonValue v = cell.payload.value(key(Key::round));
    return v.isDouble() ? std::optional<int>(v.toInt()) : std::nullopt;
}

} // namespace dreamrsi::AttemptPayload
