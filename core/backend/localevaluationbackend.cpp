#include "localevaluationbackend.h"

#include "eval/evaluator.h"

namespace dreamrsi {

QString LocalEvaluationBackend::name() const
{
    return QStringLiteral("local");
}

EvaluationResult LocalEvaluationBackend::evaluate(const EvaluationRequest &request, const std::atomic_bool &cancel,
                                                  const ProgressSink &)
{
    return Evaluator::evaluate(request, &cancel);
}

} // namespace dreamrsi
