#include "evaluationbackend.h"

namespace dreamrsi {

EvaluationBackend::~EvaluationBackend() = default;

QString EvaluationBackend::prepare()
{
    return {};
}

} // namespace dreamrsi
