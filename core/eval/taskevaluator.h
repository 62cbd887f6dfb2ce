#pragma once

#include "evaluationresult.h"

#include <QString>

namespace dreamrsi {

class EvaluationContext;

/// A built-in task's evaluator. Implementations recompute the task's
/// objective from what the candidate prints (a claimed value is never
/// trusted) and run the candidate only through EvaluationContext::run().
/// evaluate() is blocking and is called on a worker thread; it must return
/// a result for every input (failures are results, never exceptions).
class TaskEvaluator
{
public:
    virtual ~TaskEvaluator() = default;
    /// Task name, as in `dreamrsi evaluate --task NAME`.
    virtual QString name() const = 0;
    /// One line for `dreamrsi tasks`.
    virtual QString summary() const = 0;
    virtual EvaluationResult evaluate(const EvaluationContext &context) const = 0;
};

} // namespace dreamrsi
