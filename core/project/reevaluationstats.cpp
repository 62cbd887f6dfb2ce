#include "reevaluationstats.h"

#include <QHash>
#include <QJsonArray>

#include <cmath>
#include <limits>

namespace dreamrsi {

namespace {

/// The continued fraction of I_x(a, b) (modified Lentz), valid for x < (a + 1) / (a + b + 2).
double betaContinuedFraction(double a, double b, double x)
{
    constexpr double tiny = 1e-300;
    constexpr double eps = 1e-15;
    const double qab = a + b;
    const double qap = a + 1.0;
    const double qam = a - 1.0;
    double c = 1.0;
    double d = 1.0 - qab * x / qap;
    if (std::fabs(d) < tiny)
        d = tiny;
    d = 1.0 / d;
    double h = d;
    for (int m = 1; m <= 1000; ++m) {
        const int m2 = 2 * m;
        double aa = m * (b - m) * x / ((qam + m2) * (a + m2));
        d = 1.0 + aa * d;
        if (std::fabs(d) < tiny)
            d = tiny;
        c = 1.0 + aa / c;
        if (std::fabs(c) < tiny)
            c = tiny;
        d = 1.0 / d;
        h *= d * c;
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
        d = 1.0 + aa * d;
        if (std::fabs(d) < tiny)
            d = tiny;
        c = 1.0 + aa / c;
        if (std::fabs(c) < tiny)
            c = tiny;
        d = 1.0 / d;
        const double del = d * c;
        h *= del;
        if (std::fabs(del - 1.0) < eps)
            break;
    }
    return h;
}

/// P(T ≤ t) for Student's t with `dof` degrees of freedom.
double studentTCdf(double t, double dof)
{
    const double tail = 0.5 * regularizedIncompleteBeta(dof / 2.0, 0.5, dof / (dof + t * t));
    return t >= 0.0 ? 1.0 - tail : tail;
}

QJsonValue optional(const std::optional<double> &v)
{
    return v && std::isfinite(*v) ? QJsonValue(*v) : QJsonValue();
}

} // namespace

double regularizedIncompleteBeta(double a, double b, double x)
{
    if (!(a > 0.0) || !(b > 0.0) || !(x >= 0.0) || !(x <= 1.0))
        return std::numeric_limits<double>::quiet_NaN();
    if (x == 0.0 || x == 1.0)
        return x;
    const double front =
        std::exp(std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) + a * std::log(x) + b * std::log1p(-x));
    // The fraction converges fast on the side of the mode; the symmetry
    // I_x(a, b) = 1 − I_{1−x}(b, a) covers the other.
    if (x < (a + 1.0) / (a + b + 2.0))
        return front * betaContinuedFraction(a, b, x) / a;
    return 1.0 - front * betaContinuedFraction(b, a, 1.0 - x) / b;
}

double studentTQuantile(double p, int dof)
{
    if (dof < 1 || !(p > 0.0) || !(p < 1.0))
        return std::numeric_limits<double>::quiet_NaN();
    if (p == 0.5)
        return 0.0;
    if (p < 0.5)
        return -studentTQuantile(1.0 - p, dof);
    // Bisection on the distribution function: monotone, and the bracket
    // doubles until it holds the quantile (t(1 − 1e-12, 1) is about 3e11).
    double lo = 0.0;
    double hi = 2.0;
    while (studentTCdf(hi, dof) < p && hi < 1e300)
        hi *= 2.0;
    for (int i = 0; i < 200 && hi - lo > 1e-12 * std::max(1.0, hi); ++i) {
        const double mid = 0.5 * (lo + hi);
        (studentTCdf(mid, dof) < p ? lo : hi) = mid;
    }
    return 0.5 * (lo + hi);
}

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
