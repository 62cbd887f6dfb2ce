#pragma once

#include "evaluationbackend.h"

namespace dreamrsi {

/// Evaluates on this machine with the sandboxed evaluator (core/eval
/// Evaluator): one child process per call, killed on cancel. Stateless, so
/// any number of worker threads may share one object; concurrency is the
/// runner's W.
class LocalEvaluationBackend final : public EvaluationBackend
{
public:
    QString name() const override;
    EvaluationResult evaluate(const EvaluationRequest &request, const std::atomic_bool &cancel,
                              const ProgressSink &progress = {}) override;
};

} // namespace dreamrsi
