#include "sumsdifferencesevaluator.h"

#include "candidateprogram.h"
#include "evaluationcontext.h"

#include "model/cell.h"

#include <QJsonArray>
#include <QJsonObject>

#include <algorithm>
#include <cmath>

namespace dreamrsi {

QString SumsDifferencesEvaluator::name() const
{
    return QStringLiteral("sums_differences");
}

QString SumsDifferencesEvaluator::summary() const
{
    return QStringLiteral("sums and differences: maximise log(|A+A|/|A|)/log(|A−A|/|A|), |A| ≤ 512");
}

Result<std::vector<double>> SumsDifferencesEvaluator::parse(const QJsonValue &output)
{
    using Parsed = Result<std::vector<double>>;
    QJsonArray values;
    if (output.isArray())
        values = output.toArray();
    else if (output.isObject() && output.toObject().value(QStringLiteral("set")).isArray())
        values = output.toObject().value(QStringLiteral("set")).toArray();
    else if (output.isObject() && output.toObject().value(QStringLiteral("A")).isArray())
        values = output.toObject().value(QStringLiteral("A")).toArray();
    else
        return Parsed::failure(QStringLiteral("expected [a1, …] or {\"set\": […]}"));
    std::vector<double> out;
    for (qsizetype i = 0; i < values.size(); ++i) {
        if (!values.at(i).isDouble())
            return Parsed::failure(QStringLiteral("element %1 is not a number").arg(i));
        out.push_back(values.at(i).toDouble());
    }
    return Parsed::success(std::move(out));
}

EvaluationResult SumsDifferencesEvaluator::score(const std::vector<double> &elements, int maxSize)
{
    QJsonObject metrics;
    auto reject = [&](const QString &why) { return EvaluationResult::failure(FailClass::Correctness, why, metrics); };
    std::vector<qint64> set;
    set.reserve(elements.size());
    for (size_t i = 0; i < elements.size(); ++i) {
        const double v = elements[i];
        if (!std::isfinite(v))
            return reject(QStringLiteral("element %1 is not finite").arg(i));
        const double rounded = std::round(v);
        if (std::abs(v - rounded) > 1e-9)
            return reject(QStringLiteral("element %1 = %2 is not an integer").arg(i).arg(v, 0, 'g', 17));
        if (std::abs(v) > 1e6) // the element itself: 1e6 + 1e-10 is within 1e-9 of 1e6 but outside
            return reject(QStringLiteral("element %1 = %2 is outside [-1e6, 1e6]").arg(i).arg(v, 0, 'g', 17));
        set.push_back(qint64(rounded));
    }
    std::sort(set.begin(), set.end());
    set.erase(std::unique(set.begin(), set.end()), set.end());
    const qint64 size = qint64(set.size());
    metrics.insert(QStringLiteral("size"), double(size));
    if (size < 2)
        return reject(QStringLiteral("the set has %1 distinct element(s); at least 2 are needed").arg(size));
    if (size > maxSize)
        return reject(QStringLiteral("the set has %1 distinct elements; at most %2 are allowed").arg(size).arg(maxSize));
    std::vector<qint64> sums;
    std::vector<qint64> differences;
    sums.reserve(size_t(size * size));
    differences.reserve(size_t(size * size));
    for (qint64 a : set) {
        for (qint64 b : set) {
            sums.push_back(a + b);
            differences.push_back(a - b);
        }
    }
    auto distinct = [](std::vector<qint64> &v) {
        std::sort(v.begin(), v.end());
        return qint64(std::unique(v.begin(), v.end()) - v.begin());
    };
    const qint64 nSums = distinct(sums);
    const qint64 nDifferences = distinct(differences);
    metrics.insert(QStringLiteral("sums"), double(nSums));
    metrics.insert(QStringLiteral("differences"), double(nDifferences));
    if (nSums <= size || nDifferences <= size)
        return reject(QStringLiteral("|A+A|/|A| and |A−A|/|A| must both exceed 1 (|A|=%1, |A+A|=%2, |A−A|=%3)")
                          .arg(size)
                          .arg(nSums)
                          .arg(nDifferences));
    const double c = std::log(double(nSums) / double(size)) / std::log(double(nDifferences) / double(size));
    metrics.insert(QStringLiteral("C"), c);
    return EvaluationResult::success(c, metrics);
}

EvaluationResult SumsDifferencesEvaluator::evaluate(const EvaluationContext &context) const
{
    const CandidateProgram::Output out = CandidateProgram::runForJson(context);
    if (out.failure)
        return *out.failure;
    const Result<std::vector<double>> elements = parse(out.json);
    if (!elements)
        return EvaluationResult::failure(FailClass::Correctness, QStringLiteral("bad set output: ") + elements.error);
    EvaluationResult r = score(*elements.value, context.optionInt(QStringLiteral("max_size"), 512));
    r.metrics.insert(QStringLiteral("run_s"), out.runSeconds);
    return r;
}

} // namespace dreamrsi
