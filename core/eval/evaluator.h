#pragma once

#include "evaluationrequest.h"
#include "evaluationresult.h"

#include <atomic>

namespace dreamrsi {

/// Runs one evaluation request to completion on the calling thread: makes the
/// work directory, dispatches to the task's evaluator (or the custom command),
/// cleans up. Never throws; every failure is an EvaluationResult.
class Evaluator
{
public:
    static EvaluationResult evaluate(const EvaluationRequest &request, const std::atomic_bool *cancelFlag = nullptr);
};

} // namespace dreamrsi
