#pragma once

#include "taskevaluator.h"

#include <QJsonValue>

#include <vector>

namespace dreamrsi {

/// sums_differences: maximise C(A) = log(|A+A|/|A|) / log(|A−A|/|A|).
///
/// Candidate output: `[a1, …]` or `{"set": […]}` (also "A"). Each element
/// within 1e-9 of an integer in [−10⁶, 10⁶]; duplicates dropped; then
/// 2 ≤ |A| ≤ max_size (option, default 512); both ratios must exceed 1.
class SumsDifferencesEvaluator final : public TaskEvaluator
{
public:
    QString name() const override;
    QString summary() const override;
    EvaluationResult evaluate(const EvaluationContext &context) const override;

    static Result<std::vector<double>> parse(const QJsonValue &output);
    static EvaluationResult score(const std::vector<double> &elements, int maxSize = 512);
};

} // namespace dreamrsi
