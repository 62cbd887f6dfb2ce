#pragma once

#include "eval/evaluationrequest.h"
#include "eval/evaluationresult.h"

#include <QMetaType>
#include <QString>

#include <atomic>
#include <functional>
#include <optional>

namespace dreamrsi {

/// Where one evaluation stands while a backend runs it on a scheduler: its
/// job, the scheduler's state and reason, and when it was queued and started.
/// A local run reports nothing.
struct EvaluationProgress
{
    QString backend;          ///< "slurm"
    QString jobId;            ///< the scheduler's job id
    /// The scheduler's state as it names it (PENDING, RUNNING, COMPLETING,
    /// COMPLETED, FAILED, TIMEOUT, …); SUBMITTED before it answered once.
    QString state;
    QString reason;           ///< why it waits or ended (Slurm's reason); empty when it gives none
    qint64 submittedMs = 0;   ///< epoch ms when the job was submitted
    qint64 startedMs = 0;     ///< epoch ms when it was first seen running (0 = not yet)
    int submits = 1;          ///< 2 when a lost job was submitted once more
    /// Set in the last report, once the job ended: submit → start and start
    /// → end as the job itself measured them.
    std::optional<double> queueWaitS;
    std::optional<double> runS;
    bool finished = false;

    /// True while the job waits for the scheduler to start it.
    bool isQueued() const;
};

/// Where a round's evaluations run (docs/online.md#a-live-round): the local
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
/// - `progress`, when set, is called on the calling thread each time the
///   job's state or reason changes and once more when it ended (with the
///   measured queue wait and run time); a backend without a scheduler never
///   calls it.
/// - It never throws: every failure (cannot submit, job lost, no score) is
///   an EvaluationResult with a fail class of docs/tree-format.md#fail-classes.
/// - A job the scheduler refuses in a way no later job of the round can
///   escape (the same requests go with every one) is an `env` failure with
///   metrics.refused = true: the runner stops the round on it.
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
    /// Checks, before the round's first agent call, that the job of
    /// `request` (the round's first evaluation) would be accepted as it
    /// stands, without running it: a cluster asked to reserve more memory
    /// or time than any node has refuses every attempt's job alike. Empty
    /// when it would, else the reason. The default has nothing to check.
    virtual QString checkJob(const EvaluationRequest &request);
    using ProgressSink = std::function<void(const EvaluationProgress &)>;
    /// Runs one evaluation to its end (see the class comment).
    virtual EvaluationResult evaluate(const EvaluationRequest &request, const std::atomic_bool &cancel,
                                      const ProgressSink &progress = {}) = 0;
};

} // namespace dreamrsi

Q_DECLARE_METATYPE(dreamrsi::EvaluationProgress)
