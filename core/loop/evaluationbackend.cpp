#include "evaluationbackend.h"

namespace dreamrsi {

EvaluationBackend::~EvaluationBackend() = default;

} // namespace dreamrsi
