#pragma once

#include "taskevaluator.h"

#include <QJsonValue>
#include <QList>

namespace dreamrsi {

/// circle_packing_26: n circles (default 26) in the unit square, maximise Σr.
///
/// Candidate output: `[[x, y, r], …]`, `{"circles": [[x, y, r], …]}` or
/// `{"centers": [[x, y], …], "radii": [r, …]}`. Options: `tolerance` (default
/// 0, strict), `n` (default 26).
class CirclePackingEvaluator final : public TaskEvaluator
{
public:
    struct Circle
    {
        double x = 0, y = 0, r = 0;
    };

    QString name() const override;
    QString summary() const override;
    EvaluationResult evaluate(const EvaluationContext &context) const override;

    /// Reads the circles from any accepted output shape; a failure saying what is wrong otherwise.
    static Result<QList<Circle>> parse(const QJsonValue &output);
    /// Valid when every r ≥ 0 and finite, r − tol ≤ x ≤ 1 − r + tol (same
    /// for y) and ‖cᵢ − cⱼ‖ ≥ rᵢ + rⱼ − tol for every pair; score Σr.
    static EvaluationResult score(const QList<Circle> &circles, int expectedCount, double tolerance);
};

} // namespace dreamrsi
