#include "autocorrelationevaluator.h"

#include "candidateprogram.h"
#include "evaluationcontext.h"

#include "model/cell.h"

#include <QJsonArray>
#include <QJsonObject>

#include <cmath>

namespace dreamrsi {

QString AutocorrelationEvaluator::name() const
{
    return QStringLiteral("c3_autocorrelation");
}

QString AutocorrelationEvaluator::summary() const
{
    return QStringLiteral("third autocorrelation inequality: minimise C3 = 2n·max|a*a|/(Σa)² (score 1/C3)");
}

Result<std::vector<double>> AutocorrelationEvaluator::parse(const QJsonValue &output)
{
    using Parsed = Result<std::vector<double>>;
    QJsonArray values;
    if (output.isArray()) {
        values = output.toArray();
    } else if (output.isObject()) {
        const QJsonObject o = output.toObject();
        for (const char *key : {"heights", "values", "a"}) {
            if (o.value(QLatin1String(key)).isArray()) {
                values = o.value(QLatin1String(key)).toArray();
                break;
            }
        }
        if (values.isEmpty() && !o.value(QStringLiteral("heights")).isArray())
            return Parsed::failure(QStringLiteral("expected [a1, …, an] or {\"heights\": […]}"));
    } else {
        return Parsed::failure(QStringLiteral("expected [a1, …, an] or {\"heights\": […]}"));
    }
    std::vector<double> heights;
    heights.reserve(size_t(values.size()));
    for (qsizetype i = 0; i < values.size(); ++i) {
        if (!values.at(i).isDouble())
            return Parsed::failure(QStringLiteral("height %1 is not a number").arg(i));
        heights.push_back(values.at(i).toDouble());
    }
    return Parsed::success(std::move(heights));
}

EvaluationResult AutocorrelationEvaluator::score(const std::vector<double> &a)
{
    const size_t n = a.size();
    QJsonObject metrics{{QStringLiteral("n"), double(n)}};
    auto reject = [&](const QString &why) { return EvaluationResult::failure(FailClass::Correctness, why, metrics); };
    if (n < 1)
        return reject(QStringLiteral("no heights"));
    if (n > size_t(maxSteps))
        return reject(QStringLiteral("%1 heights; at most %2 are evaluated").arg(n).arg(maxSteps));
    double sum = 0.0;
    for (size_t i = 0; i < n; ++i) {
        if (!std::isfinite(a[i]))
            return reject(QStringLiteral("height %1 is not finite").arg(i));
        if (std::abs(a[i]) > 1e10)
            return reject(QStringLiteral("height %1 = %2 exceeds 1e10 in magnitude").arg(i).arg(a[i], 0, 'g', 6));
        sum += a[i];
    }
    const double integral = sum * 0.5 / double(n);
    if (integral * integral < 1e-9)
        return reject(QStringLiteral("the integral of the function is too close to 0 ((Σa·0.5/n)² = %1 < 1e-9)")
                          .arg(integral * integral, 0, 'g', 6));
    double maxAbs = 0.0;
    for (size_t k = 0; k < 2 * n - 1; ++k) {
        const size_t lo = k < n ? 0 : k - n + 1;
        const size_t hi = k < n ? k : n - 1;
        double b = 0.0;
        for (size_t i = lo; i <= hi; ++i)
            b += a[i] * a[k - i];
        maxAbs = std::max(maxAbs, std::abs(b));
    }
    const double c3 = 2.0 * double(n) * maxAbs / (sum * sum);
    if (!(c3 > 0.0) || !std::isfinite(c3))
        return reject(QStringLiteral("C3 is %1; the convolution vanishes").arg(c3));
    metrics.insert(QStringLiteral("C3"), c3);
    metrics.insert(QStringLiteral("max_abs_conv"), maxAbs);
    metrics.insert(QStringLiteral("sum"), sum);
    return EvaluationResult::success(1.0 / c3, metrics);
}

EvaluationResult AutocorrelationEvaluator::evaluate(const EvaluationContext &context) const
{
    const CandidateProgram::Output out = CandidateProgram::runForJson(context);
    if (out.failure)
        return *out.failure;
    const Result<std::vector<double>> heights = parse(out.json);
    if (!heights)
        return EvaluationResult::failure(FailClass::Correctness, QStringLiteral("bad C3 output: ") + heights.error);
    EvaluationResult r = score(*heights.value);
    r.metrics.insert(QStringLiteral("run_s"), out.runSeconds);
    return r;
}

} // namespace dreamrsi
