#include "circlepackingevaluator.h"

#include "candidateprogram.h"
#include "evaluationcontext.h"

#include "model/cell.h"

#include <QJsonArray>
#include <QJsonObject>

#include <cmath>
#include <limits>

namespace dreamrsi {

QString CirclePackingEvaluator::name() const
{
    return QStringLiteral("circle_packing_26");
}

QString CirclePackingEvaluator::summary() const
{
    return QStringLiteral("pack 26 circles in the unit square, maximise the sum of radii (strict by default)");
}

Result<QList<CirclePackingEvaluator::Circle>> CirclePackingEvaluator::parse(const QJsonValue &output)
{
    auto fail = [](const QString &why) { return Result<QList<Circle>>::failure(why); };
    auto number = [](const QJsonValue &v, double *out) {
        if (!v.isDouble())
            return false;
        *out = v.toDouble();
        return true;
    };
    QList<Circle> circles;
    QJsonArray triples;
    if (output.isArray()) {
        triples = output.toArray();
    } else if (output.isObject() && output.toObject().value(QStringLiteral("circles")).isArray()) {
        triples = output.toObject().value(QStringLiteral("circles")).toArray();
    } else if (output.isObject() && output.toObject().value(QStringLiteral("centers")).isArray()
               && output.toObject().value(QStringLiteral("radii")).isArray()) {
        const QJsonArray centers = output.toObject().value(QStringLiteral("centers")).toArray();
        const QJsonArray radii = output.toObject().value(QStringLiteral("radii")).toArray();
        if (centers.size() != radii.size())
            return fail(QStringLiteral("%1 centers but %2 radii").arg(centers.size()).arg(radii.size()));
        for (qsizetype i = 0; i < centers.size(); ++i) {
            const QJsonArray c = centers.at(i).toArray();
            Circle circle;
            if (c.size() != 2 || !number(c.at(0), &circle.x) || !number(c.at(1), &circle.y)
                || !number(radii.at(i), &circle.r))
                return fail(QStringLiteral("circle %1: center must be [x, y] and radius a number").arg(i));
            circles.append(circle);
        }
        return Result<QList<Circle>>::success(circles);
    } else {
        return fail(QStringLiteral("expected [[x, y, r], …], {\"circles\": …} or {\"centers\": …, \"radii\": …}"));
    }
    for (qsizetype i = 0; i < triples.size(); ++i) {
        const QJsonArray t = triples.at(i).toArray();
        Circle circle;
        if (t.size() != 3 || !number(t.at(0), &circle.x) || !number(t.at(1), &circle.y) || !number(t.at(2), &circle.r))
            return fail(QStringLiteral("circle %1 is not a triple of numbers [x, y, r]").arg(i));
        circles.append(circle);
    }
    return Result<QList<Circle>>::success(circles);
}

EvaluationResult CirclePackingEvaluator::score(const QList<Circle> &circles, int expectedCount, double tolerance)
{
    QJsonObject metrics{{QStringLiteral("n"), double(circles.size())}, {QStringLiteral("tolerance"), tolerance}};
    const qint64 n = circles.size();
    auto reject = [&](const QString &why) {
        EvaluationResult r = EvaluationResult::failure(FailClass::Correctness, why, metrics);
        r.nTotal = 1;
        r.nValid = 0;
        return r;
    };
    if (n != expectedCount)
        return reject(QStringLiteral("expected %1 circles, got %2").arg(expectedCount).arg(n));
    double sum = 0.0;
    double minSlack = std::numeric_limits<double>::infinity();
    for (qint64 i = 0; i < n; ++i) {
        const Circle &c = circles.at(i);
        if (!std::isfinite(c.x) || !std::isfinite(c.y) || !std::isfinite(c.r))
            return reject(QStringLiteral("circle %1 has a value that is not finite").arg(i));
        if (c.r < 0.0)
            return reject(QStringLiteral("circle %1 has negative radius %2").arg(i).arg(c.r, 0, 'g', 17));
        const double slack = std::min({c.x - c.r, 1.0 - c.r - c.x, c.y - c.r, 1.0 - c.r - c.y});
        if (slack < -tolerance)
            return reject(QStringLiteral("circle %1 (x=%2, y=%3, r=%4) leaves the unit square by %5")
                              .arg(i)
                              .arg(c.x, 0, 'g', 17)
                              .arg(c.y, 0, 'g', 17)
                              .arg(c.r, 0, 'g', 17)
                              .arg(-slack, 0, 'g', 6));
        minSlack = std::min(minSlack, slack);
        sum += c.r;
    }
    for (qint64 i = 0; i < n; ++i) {
        for (qint64 j = i + 1; j < n; ++j) {
            const Circle &a = circles.at(i);
            const Circle &b = circles.at(j);
            const double gap = std::hypot(a.x - b.x, a.y - b.y) - (a.r + b.r);
            if (gap < -tolerance)
                return reject(QStringLiteral("circles %1 and %2 overlap by %3 (tolerance %4)")
                                  .arg(i)
                                  .arg(j)
                                  .arg(-gap, 0, 'g', 6)
                                  .arg(tolerance, 0, 'g', 6));
            minSlack = std::min(minSlack, gap);
        }
    }
    metrics.insert(QStringLiteral("sum_radii"), sum);
    metrics.insert(QStringLiteral("min_slack"), minSlack);
    EvaluationResult r = EvaluationResult::success(sum, metrics);
    r.nTotal = 1;
    r.nValid = 1;
    return r;
}

EvaluationResult CirclePackingEvaluator::evaluate(const EvaluationContext &context) const
{
    const CandidateProgram::Output out = CandidateProgram::runForJson(context);
    if (out.failure)
        return *out.failure;
    const Result<QList<Circle>> circles = parse(out.json);
    if (!circles)
        return EvaluationResult::failure(FailClass::Correctness, QStringLiteral("bad packing output: ") + circles.error);
    EvaluationResult r = score(*circles.value, context.optionInt(QStringLiteral("n"), 26),
                               context.optionDouble(QStringLiteral("tolerance"), 0.0));
    r.metrics.insert(QStringLiteral("run_s"), out.runSeconds);
    return r;
}

} // namespace dreamrsi
