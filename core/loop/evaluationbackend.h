#pragma once

#include "eval/evaluationrequest.h"
#include "eval/evaluationresult.h"

#include <QString>

#include <atomic>

namespace dreamrsi {

/// Where a round's evaluations run (online.md §1 step 3): the local
/// sandboxed evaluator now, a cluster scheduler later. The round runner only
/// sees this interface, so a new backend never touches the runner.
///
/// Contract:
/// - evaluate() is blocking and called on one of the runner's worker
///   threads, concurrently from up to W threads: implementations must be
///   thread-safe. A remote backend submits the job, waits for it (polling
///   its scheduler) and fetches the score JSON.
/// - `cancel` is polled: when it turns true the call gives up within about
///   100 ms, cancels the job (kills the local child, `scancel`s a remote
///   one) and returns a result whose error is "cancelled".
/// - It never throws: every failure (cannot submit, job lost, no score) is
///   an EvaluationResult with a fail class of replay.md §1.
class EvaluationBackend
{
public:
    virtual ~EvaluationBackend();
    /// Short name for logs ("local", "slurm").
    virtual QString name() const = 0;
    /// Checks, before the round spends any attempt, that evaluations can run
    /// at all (a cluster's partition exists, its commands answer). Empty when
    /// ready, else the reason. Called once by the runner from its driver
    /// thread; the default has nothing to check.
    virtual QString prepare();
    /// Runs one evaluation to its end (see the class comment).
    virtual EvaluationResult evaluate(const EvaluationRequest &request, const std::atomic_bool &cancel) = 0;
};

} // namespace dreamrsi
