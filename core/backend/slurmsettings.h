#pragma once

#include "base/result.h"

#include <QString>
#include <QStringList>

namespace dreamrsi {

/// Where and how SlurmEvaluationBackend submits its batch jobs.
struct SlurmSettings
{
    /// Partition (`--partition`); empty = the cluster's default partition.
    QString partition;
    /// Account (`--account`) and quality of service (`--qos`); empty = none given.
    QString account;
    QString qos;
    /// Extra sbatch arguments, passed before the script (e.g. `--constraint=avx2`).
    QStringList extraArgs;
    /// A directory every compute node sees at the same path; each evaluation
    /// gets a folder of its own under it. Empty = ~/.cache/dreamrsi/slurm.
    QString sharedDir;
    /// The `dreamrsi` executable the job runs (seen by the nodes at this
    /// path); empty = the `dreamrsi` next to the running program.
    QString program;
    /// Job time limit in minutes; 0 = from the task's `time_limit_s` option
    /// (default 600 s) with margin for compiling and starting.
    int timeLimitMinutes = 0;
    /// Folder of sbatch/squeue/scontrol/scancel/sinfo; empty = PATH.
    QString binDir;
    /// Poll interval of the one state poller: starts at the first value
    /// after a change, doubles while nothing changes, up to the second.
    int pollInitialMs = 250;
    int pollMaxMs = 5000;
    /// How long a controller that does not answer (a daemon restart, a
    /// failover) is waited for, at submission and while following a job,
    /// before the evaluation fails as `env`.
    int controllerPatienceS = 900;

    /// Splits a user's "extra sbatch arguments" text like a shell would for
    /// plain words and quotes ('…', "…"). A failure on an open quote.
    static Result<QStringList> splitArguments(const QString &text);
};

} // namespace dreamrsi
