#pragma once

#include <QStringList>
#include <QTextStream>

namespace dreamrsi {

/// `dreamrsi evaluate (--task NAME PATH | --command CMD [PATH]) [--option K=V]…
/// [--sandbox auto|bwrap|fallback] [--keep] [--json]`: evaluates one
/// candidate, prints the score JSON (replay.md §1) and a readable summary.
/// Returns 0 when the candidate is ok, 1 when it failed, 2 on a usage error.
int runEvaluateCommand(const QStringList &args, QTextStream &out, QTextStream &err);

/// `dreamrsi tasks`: the built-in tasks with their folders and initial programs.
int runTasksCommand(const QStringList &args, QTextStream &out, QTextStream &err);

/// `dreamrsi bench sandbox [--runs N] [--workers W] [--evaluations M]`: median
/// wall time of /bin/true bare, under bubblewrap and under the fallback; and
/// the throughput of M trivial evaluations through a pool of W workers.
int runBenchSandboxCommand(const QStringList &args, QTextStream &out, QTextStream &err);

} // namespace dreamrsi
