#pragma once

#include "evaluationbackend.h"
#include "slurmsettings.h"

#include <functional>
#include <memory>

namespace dreamrsi {

/// Evaluates on a Slurm cluster: every evaluate() call is one batch job
/// (`sbatch --parsable`) that runs the same sandboxed `dreamrsi evaluate
/// --task … --json PATH` as the local backend, in a folder of its own under
/// the shared directory (the candidate is copied there), so a score does not
/// depend on where it ran.
///
/// Promises:
/// - Requests come from the task: `--time` from `time_limit_s` (or the
///   settings' override), `--mem` from `memory_mb`, `--cpus-per-task` from
///   `cpus` (default 1), `--gres=gpu:1` for the CUDA task; the environment
///   is not exported to the job (`--export=NONE`), so API keys stay home.
/// - One poller thread follows every job of the backend with a single
///   `squeue` call per poll, backing off from pollInitialMs to pollMaxMs
///   while nothing changes; a controller that does not answer is waited for
///   (a daemon restart loses nothing).
/// - Fail classes: Slurm's TIMEOUT/DEADLINE → `timeout`, OUT_OF_MEMORY →
///   `resource`; NODE_FAIL, BOOT_FAIL, PREEMPTED, a job cancelled by someone
///   else or a job that vanished without a result → `env`, and such a job is
///   submitted once more before the failure is returned. A finished job's
///   verdict is the evaluator's own score JSON.
/// - cancel → `scancel`, result "cancelled" (env) within about 100 ms.
/// - The result's metrics carry `slurm`: {job_id, state, reason, queue_wait_s,
///   run_s, result_lag_s, submits}; state changes and Slurm's reasons go to
///   the log sink.
/// - prepare() checks the Slurm commands, the partition, the shared
///   directory and the program before any job is submitted.
class SlurmEvaluationBackend final : public EvaluationBackend
{
public:
    using LogSink = std::function<void(const QString &)>;

    explicit SlurmEvaluationBackend(SlurmSettings settings);
    ~SlurmEvaluationBackend() override;

    QString name() const override;
    QString prepare() override;
    EvaluationResult evaluate(const EvaluationRequest &request, const std::atomic_bool &cancel) override;

    /// Where state changes and reasons are reported (any thread). Set before use.
    void setLogSink(LogSink sink);
    const SlurmSettings &settings() const;

private:
    class Private;
    std::unique_ptr<Private> d;
};

} // namespace dreamrsi
