#include "reevaluationstats.h"

#include <QHash>
#include <QJsonArray>

#include <cmath>
#include <limits>

namespace dreamrsi {

namespace {

QJsonValue optional(const std::optional<double> &v)
{
    return v && std::isfinite(*v) ? QJsonValue(*v) : QJsonValue();
}

} // namespace

std::optional<double> ReevaluationStats::halfWidth() const
{
    if (!ci95)
        return std::nullopt;
    return 0.5 * (ci95->second - ci95->first);
}

ReevaluationStats ReevaluationStats::of(IterationId iteration, const QString &cellId, std::optional<double> score,
                                        const QList<ReevaluationRecord> &records)
{
    ReevaluationStats s;
    s.iteration = iteration;
    s.cellId = cellId;
    s.score = score;
    QList<double> xs;
    for (const ReevaluationRecord &r : records) {
        if (r.iteration != iteration || r.cellId != cellId)
            continue;
        s.repeats.append(r);
        if (r.isOk() && std::isfinite(*r.score))
            xs.append(*r.score);
        else
            ++s.failed;
    }
    s.okRepeats = int(xs.size());
    if (xs.isEmpty())
        return s;
    double sum = 0.0;
    for (const double x : xs)
        sum += x;
    const double mean = sum / double(xs.size());
    s.mean = mean;
    if (xs.size() < 2)
        return s;
    double ss = 0.0;
    for (const double x : xs)
        ss += (x - mean) * (x - mean);
    const double sd = std::sqrt(ss / double(xs.size() - 1));
    s.sd = sd;
    const double half = studentTQuantile(0.975, int(xs.size()) - 1) * sd / std::sqrt(double(xs.size()));
    s.ci95 = std::make_pair(mean - half, mean + half);
    s.lucky = score && std::isfinite(*score) && *score > mean + half;
    return s;
}

QList<ReevaluationStats> reevaluationStats(IterationId iteration, const QList<Cell> &cells,
                                           const QList<ReevaluationRecord> &records)
{
    QHash<QString, QList<ReevaluationRecord>> byCell;
    for (const ReevaluationRecord &r : records) {
        if (r.iteration == iteration)
            byCell[r.cellId].append(r);
    }
    QList<ReevaluationStats> out;
    for (const Cell &c : cells) {
        const auto it = byCell.constFind(c.id);
        if (it != byCell.constEnd())
            out.append(ReevaluationStats::of(iteration, c.id, c.score, *it));
    }
    return out;
}

ReevaluationBest ReevaluationBest::of(const QList<ReevaluationStats> &stats)
{
    ReevaluationBest best;
    std::optional<double> bestScore;
    std::optional<double> bestMean;
    for (const ReevaluationStats &s : stats) {
        if (s.score && std::isfinite(*s.score) && (!bestScore || *s.score > *bestScore)) {
            bestScore = s.score;
            best.byScore = s.cellId;
        }
        if (s.mean && (!bestMean || *s.mean > *bestMean)) {
            bestMean = s.mean;
            best.byMean = s.cellId;
        }
    }
    return best;
}

namespace ReevaluationJson {

QJsonObject repeat(const ReevaluationRecord &r)
{
    return QJsonObject{
        {QStringLiteral("score"), optional(r.score)},
        {QStringLiteral("fail_class"), r.failClass},
        {QStringLiteral("error"), r.error.isEmpty() ? QJsonValue() : QJsonValue(r.error)},
        {QStringLiteral("seconds"), r.seconds},
        {QStringLiteral("backend"), r.backend},
        {QStringLiteral("host"), r.host},
        {QStringLiteral("job_id"), r.jobId.isEmpty() ? QJsonValue() : QJsonValue(r.jobId)},
        {QStringLiteral("time"), r.time.toUTC().toString(Qt::ISODateWithMs)},
    };
}

QJsonObject cell(const ReevaluationStats &s)
{
    QJsonArray repeats;
    for (const ReevaluationRecord &r : s.repeats)
        repeats.append(repeat(r));
    return QJsonObject{
        {QStringLiteral("iteration"), double(s.iteration)},
        {QStringLiteral("id"), s.cellId},
        {QStringLiteral("score"), optional(s.score)},
        {QStringLiteral("repeats"), repeats},
        {QStringLiteral("failed"), s.failed},
        {QStringLiteral("mean"), optional(s.mean)},
        {QStringLiteral("sd"), optional(s.sd)},
        {QStringLiteral("ci95"), s.ci95 ? QJsonValue(QJsonArray{s.ci95->first, s.ci95->second}) : QJsonValue()},
        {QStringLiteral("lucky"), s.lucky},
    };
}

QJsonObject report(const QList<ReevaluationStats> &stats)
{
    QJsonArray cells;
    for (const ReevaluationStats &s : stats)
        cells.append(cell(s));
    const ReevaluationBest best = ReevaluationBest::of(stats);
    return QJsonObject{
        {QStringLiteral("cells"), cells},
        {QStringLiteral("best_by_score"), best.byScore.isEmpty() ? QJsonValue() : QJsonValue(best.byScore)},
        {QStringLiteral("best_by_mean"), best.byMean.isEmpty() ? QJsonValue() : QJsonValue(best.byMean)},
    };
}

} // namespace ReevaluationJson

} // namespace dreamrsi
