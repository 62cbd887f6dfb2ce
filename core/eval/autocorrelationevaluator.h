#pragma once

#include "taskevaluator.h"

#include <QJsonValue>

#include <vector>

namespace dreamrsi {

/// c3_autocorrelation: the third autocorrelation inequality (minimise C3).
///
/// Candidate output: `[a1, …, an]` or `{"heights": […]}` (also "values" or
/// "a"): step heights on [−1/4, 1/4]. With b the full self-convolution of a,
/// C3 = 2n·max|b_k| / (Σa)²; score = 1/C3. Rejects non-finite values,
/// |aᵢ| > 1e10, n < 1, n > 50 000 and (Σa·0.5/n)² < 1e-9.
class AutocorrelationEvaluator final : public TaskEvaluator
{
public:
    static constexpr int maxSteps = 50'000;

    QString name() const override;
    QString summary() const override;
    EvaluationResult evaluate(const EvaluationContext &context) const override;

    static Result<std::vector<double>> parse(const QJsonValue &output);
    static EvaluationResult score(const std::vector<double> &heights);
};

} // namespace dreamrsi
