#include "reevaluationsummary.h"

#include <cmath>

namespace dreamrsi {

namespace {

QString shortNumber(double x)
{
    return QString::number(x, 'g', 4);
}

const ReevaluationStats *find(const QList<ReevaluationStats> &stats, const QString &cellId)
{
    for (const ReevaluationStats &s : stats) {
        if (s.cellId == cellId)
            return &s;
    }
    return nullptr;
}

} // namespace

QString ReevaluationSummary::meanText(const ReevaluationStats &stats)
{
    if (!stats.mean)
        return QStringLiteral("—");
    if (const auto half = stats.halfWidth())
        return QStringLiteral("%1 ± %2").arg(shortNumber(*stats.mean), spreadText(*stats.mean, *half, 2));
    return shortNumber(*stats.mean);
}

bool ReevaluationSummary::negligibleSpread(double mean, double spread)
{
    // Repeats that agree to the last bits still give a spread of rounding
    // errors (0.1 three times: a mean one ulp off, an interval of 1e-16).
    constexpr double relativePrecision = 1e-12;
    return spread == 0.0 || std::abs(spread) < relativePrecision * std::abs(mean);
}

QString ReevaluationSummary::spreadText(double mean, double spread, int precision)
{
    return negligibleSpread(mean, spread) ? QStringLiteral("0") : QString::number(spread, 'g', precision);
}

QString ReevaluationSummary::best(const QList<ReevaluationStats> &stats)
{
    const ReevaluationBest best = ReevaluationBest::of(stats);
    // "b2a1 (recorded 0.93, mean 0.81 ± 0.04, lucky)"
    const auto describe = [&stats](const QString &id) {
        const ReevaluationStats *s = find(stats, id);
        if (!s)
            return id;
        const QString recorded = s->score ? shortNumber(*s->score) : QStringLiteral("—");
        return s->lucky ? tr("%1 (recorded %2, mean %3, lucky)").arg(id, recorded, meanText(*s))
                        : tr("%1 (recorded %2, mean %3)").arg(id, recorded, meanText(*s));
    };
    if (best.byScore.isEmpty() && best.byMean.isEmpty())
        return {};
    if (best.byScore == best.byMean)
        return tr("Re-evaluated: best by recorded score and by mean %1").arg(describe(best.byScore));
    QStringList parts;
    if (!best.byScore.isEmpty())
        parts << tr("Re-evaluated: best by recorded score %1").arg(describe(best.byScore));
    if (!best.byMean.isEmpty())
        parts << tr("best by mean %1").arg(describe(best.byMean));
    return parts.join(QStringLiteral(" · "));
}

QString ReevaluationSummary::frontierNote(const QString &world, const DiscoveryTree &tree,
                                          const QList<ReevaluationStats> &stats)
{
    if (stats.isEmpty())
        return {};
    const int bestIndex = tree.bestCellIndex();
    const QString bestId = bestIndex >= 0 ? tree.cells().at(bestIndex).id : QString();
    const ReevaluationStats *best = bestId.isEmpty() ? nullptr : find(stats, bestId);
    const QString byMean = ReevaluationBest::of(stats).byMean;
    QString note;
    if (best && best->mean && best->score) {
        const QString repeats = tr("%n repeat(s)", nullptr, int(best->repeats.size()));
        note = best->lucky ? tr("%1: best cell %2 lucky: recorded %3, mean %4 (%5)")
                                 .arg(world, bestId, shortNumber(*best->score), meanText(*best), repeats)
                           : tr("%1: best cell %2 holds up: recorded %3, mean %4 (%5)")
                                 .arg(world, bestId, shortNumber(*best->score), meanText(*best), repeats);
    }
    if (!byMean.isEmpty() && byMean != bestId) {
        const ReevaluationStats *m = find(stats, byMean);
        const QString other = tr("best by mean %1: %2").arg(byMean, meanText(*m));
        note = note.isEmpty() ? tr("%1: %2").arg(world, other) : note + QStringLiteral("; ") + other;
    }
    return note;
}

} // namespace dreamrsi
