#include "imaginedorigin.h"

#include "replay/worldmodel.h"

#include <QJsonArray>

#include <cmath>

namespace dreamrsi {

QString ImaginedOrigin::stratumOf(const QJsonObject &model, const QString &branchTag, int attempt, bool gain)
{
    const int minimum = model.value(QLatin1String("min_samples")).toInt(3);
    if (branchTag.isEmpty())
        return WorldModel::pooled();
    for (const QJsonValue &v : model.value(QLatin1String("strata")).toArray()) {
        const QJsonObject s = v.toObject();
        if (s.value(QLatin1String("stratum")).toString() != branchTag)
            continue;
        if (!gain)
            return s.value(QLatin1String("first_count")).toInt() >= minimum ? branchTag : WorldModel::pooled();
        for (const QJsonValue &g : s.value(QLatin1String("gains")).toArray()) {
            const QJsonObject o = g.toObject();
            if (o.value(QLatin1String("attempt")).toInt() == attempt)
                return o.value(QLatin1String("count")).toInt() >= minimum ? branchTag : WorldModel::pooled();
        }
    }
    return WorldModel::pooled();
}

bool ImaginedOrigin::drawsGain(const DiscoveryTree &completion, int cellIndex)
{
    if (cellIndex < 0 || cellIndex >= completion.cellCount())
        return false;
    const Cell &cell = completion.cells().at(cellIndex);
    for (const Cell &c : completion.cells()) {
        if (c.branch == cell.branch && c.attempt < cell.attempt && c.failClass == QLatin1String("ok") && c.score
            && std::isfinite(*c.score))
            return true;
    }
    return false;
}

QString ImaginedOrigin::describe(const DiscoveryTree &completion, int cellIndex, const ImaginedDraw &draw)
{
    if (cellIndex < 0 || cellIndex >= completion.cellCount())
        return {};
    const Cell &c = completion.cells().at(cellIndex);
    if (!Imagination::isImagined(c))
        return {};
    QString tag;
    for (const QString &t : c.tags) {
        if (t.startsWith(QLatin1String("direction:")))
            tag = t;
    }
    const bool gain = drawsGain(completion, cellIndex);
    const QString stratum = stratumOf(draw.model, tag, c.attempt, gain);
    const QString what = c.failClass != QLatin1String("ok") ? tr("a failure (the failure rate at depth %1)").arg(c.attempt)
                         : gain ? tr("a gain over the branch's best at depth %1").arg(c.attempt)
                                : tr("a first-attempt score");
    return tr("drawn from the world model: %1, stratum %2; seed %3, world j = %4, completion k = %5")
        .arg(what, stratum == WorldModel::pooled() ? tr("* (pooled)") : stratum)
        .arg(draw.seed)
        .arg(draw.world)
        .arg(draw.completion);
}

} // namespace dreamrsi
