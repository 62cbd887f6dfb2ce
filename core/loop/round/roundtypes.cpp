#include "roundtypes.h"

#include <QJsonValue>

namespace dreamrsi {

QJsonObject RoundSummary::toJson() const
{
    QJsonObject grid;
    grid.insert(QStringLiteral("branches"), this->grid.branches);
    grid.insert(QStringLiteral("refinements"), this->grid.refinements);
    grid.insert(QStringLiteral("reason"), this->grid.reason);
    QJsonObject o;
    o.insert(QStringLiteral("iteration"), iteration);
    o.insert(QStringLiteral("status"), iterationStatusName(status));
    o.insert(QStringLiteral("cells"), counters.cells);
    o.insert(QStringLiteral("rounds"), counters.rounds);
    o.insert(QStringLiteral("best_score"), counters.bestScore ? QJsonValue(*counters.bestScore) : QJsonValue());
    o.insert(QStringLiteral("calls"), counters.calls);
    o.insert(QStringLiteral("tokens_in"), counters.tokensIn);
    o.insert(QStringLiteral("tokens_out"), counters.tokensOut);
    o.insert(QStringLiteral("usd"), counters.usd);
    o.insert(QStringLiteral("grid"), grid);
    return o;
}

} // namespace dreamrsi
