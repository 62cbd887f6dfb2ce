#include "evaluationbackend.h"

namespace dreamrsi {

EvaluationBackend::~EvaluationBackend() = default;

bool EvaluationProgress::isQueued() const
{
    return !finished && startedMs == 0
           && (state == QLatin1String("PENDING") || state == QLatin1String("SUBMITTED") || state == QLatin1String("REQUEUED")
               || state == QLatin1String("CONFIGURING") || state.isEmpty());
}

QString EvaluationBackend::prepare()
{
    return {};
}

QString EvaluationBackend::checkJob(const EvaluationRequest &)
{
    return {};
}

} // namespace dreamrsi
