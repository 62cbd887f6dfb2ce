#pragma once

#include "evaluationbackend.h"
#include "slurmsettings.h"

#include <functional>
#include <memory>
#include <optional>

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
///   while nothing changes. A controller that does not answer (squeue or
///   sbatch failing to reach it) is waited for, up to controllerPatienceS:
///   polling goes on with backoff, no job is taken for lost while it is
///   down, and a submission is tried again (adopting the job when the
///   failed-looking sbatch did reach the controller), so a daemon restart
///   loses nothing. A job the controller no longer knows once it answers
///   again is lost.
/// - Fail classes (verdict()): Slurm's TIMEOUT/DEADLINE → `timeout`;
///   OUT_OF_MEMORY, or a job slurmstepd killed for exceeding its memory
///   request (memory enforced without cgroups) → `resource`; NODE_FAIL,
///   BOOT_FAIL, PREEMPTED, a job cancelled by someone else or a job that
///   vanished without a result → `env`, and such a job is submitted once
///   more before the failure is returned. A finished job's verdict is the
///   evaluator's own score JSON (so a candidate stopped by the sandbox's own
///   memory limit inside the job is `resource` too).
/// - cancel → `scancel`, result "cancelled" (env) within about 100 ms.
/// - The result's metrics carry `slurm`: {job_id, state, reason, memory,
///   queue_wait_s, run_s, result_lag_s, submits}; state changes and Slurm's
///   reasons go to the log sink (naming the attempt) and, per evaluation, to
///   the progress sink of evaluate().
/// - prepare() checks the Slurm commands, the partition, the shared
///   directory and the program before any job is submitted; checkJob()
///   asks `sbatch --test-only` whether the job of a request, exactly as it
///   would be submitted, could run (its memory, time, CPUs, GPUs,
///   partition, account and QOS), and names Slurm's objection.
/// - sbatch refusing a job for any reason but an unreachable controller
///   (a request no node satisfies, an account or QOS denied, a bad
///   partition) is final: every job of the round asks the same, so the
///   failure is `env` with metrics.refused = true, and the runner stops.
class SlurmEvaluationBackend final : public EvaluationBackend
{
public:
    using LogSink = std::function<void(const QString &)>;

    explicit SlurmEvaluationBackend(SlurmSettings settings);
    ~SlurmEvaluationBackend() override;

    QString name() const override;
    QString prepare() override;
    QString checkJob(const EvaluationRequest &request) override;
    EvaluationResult evaluate(const EvaluationRequest &request, const std::atomic_bool &cancel,
                              const ProgressSink &progress = {}) override;

    /// Where state changes and reasons are reported (any thread). Set before use.
    void setLogSink(LogSink sink);
    const SlurmSettings &settings() const;

    /// How a job ended, as the backend saw it.
    struct JobEnd
    {
        QString jobId;
        QString state;          ///< Slurm's last state; empty when it was never seen
        QString reason;         ///< Slurm's last reason
        QString memory;         ///< the job's memory request as squeue shows it ("1280M")
        QString output;         ///< the tail of the job's own output (slurmstepd writes there)
        int minutes = 0;        ///< the job's time limit
        bool gone = false;      ///< the controller no longer knows it
        bool haveResult = false; ///< the job script got to its end and left the evaluator's JSON
    };
    /// One evaluation's batch job: its script and sbatch arguments.
    struct JobSpec
    {
        QString script;          ///< job.sh: runs `dreamrsi evaluate … --json` in the job folder
        QStringList sbatchArgs;  ///< everything after `sbatch [--parsable|--test-only]`, job.sh last
        int minutes = 0;         ///< --time
        qint64 memoryMb = 0;     ///< --mem (the task's memory_mb + 256 MB for the evaluator itself)
        int cpus = 1;            ///< --cpus-per-task
        int gpus = 0;            ///< --gres=gpu:N (0 = none asked)
        /// "8448 MB of memory, 17 min, 1 CPU, partition debug": what the job asks, for messages.
        QString requestText() const;
    };
    /// The job for `request` in folder `dir` running `program`, from the
    /// request's options over `taskDefaults` (a task folder's task.json
    /// options) and the settings. Pure: touches no file and no cluster.
    static JobSpec jobSpec(const EvaluationRequest &request, const SlurmSettings &settings, const QString &dir,
                           const QString &program, const QJsonObject &taskDefaults = {});
    /// The `options` of `task`/task.json when `task` is a folder; empty otherwise.
    static QJsonObject taskOptionDefaults(const QString &task);

    /// The failure a job's end stands for, or nullopt when the evaluator's
    /// own result decides. A failure worth one more submission (the job was
    /// lost, not judged) carries metrics.retry = true.
    static std::optional<EvaluationResult> verdict(const JobEnd &end);

private:
    class Private;
    std::unique_ptr<Private> d;
};

} // namespace dreamrsi
