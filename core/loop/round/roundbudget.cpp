#include "roundbudget.h"

namespace dreamrsi::RoundBudget {

QString reached(const RoundConfig &c, const RoundCounters &counters)
{
    if (c.maxCalls && counters.calls >= *c.maxCalls)
        return QStringLiteral("budget: %1 agent calls reached").arg(*c.maxCalls);
    if (c.maxTokens && counters.tokensIn + counters.tokensOut >= *c.maxTokens)
        return QStringLiteral("budget: %1 tokens reached").arg(*c.maxTokens);
    if (c.maxUsd && counters.usd >= *c.maxUsd)
        return QStringLiteral("budget: %1 USD reached").arg(*c.maxUsd);
    return {};
}

QString environmentFailure(const QList<Cell> &cells)
{
    QStringList causes;
    for (const Cell &c : cells) {
        if (c.failClass != QLatin1String(FailClass::Env))
            return {};
        const QString cause = c.error.value_or(QStringLiteral("no reason given")).left(300);
        if (!causes.contains(cause))
            causes.append(cause);
    }
    if (causes.isEmpty())
        return {};
    return QStringLiteral("every attempt of the first round failed for an environment reason (env), so the round "
                          "stops before calling the agent again: %1")
        .arg(causes.mid(0, 3).join(QStringLiteral("; ")));
}

} // namespace dreamrsi::RoundBudget
