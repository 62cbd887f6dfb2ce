#pragma once

#include "loop/round/roundoptions.h"

#include "base/result.h"

#include <QCommandLineParser>
#include <QString>

namespace dreamrsi::RoundCommandLine {

// The options a live round is started from (RoundOptions), read one way by
// `dreamrsi round` and `dreamrsi loop` (docs/online.md#commands): the agent,
// the task, W, K1, β, the seed, the caps, steering and where evaluations run
// (local, or Slurm with its partition, account, QOS, sbatch arguments and
// shared directory). `round` adds --policy and --resume; `loop` runs every
// iteration's round with them.

/// The command that reads them: their help says "the round" or "each round".
enum class Command {
    Round, ///< `dreamrsi round`: also --policy and --resume; --task may be left out with --resume
    Loop,  ///< `dreamrsi loop`: --task required
};

/// Registers the options, with their help texts. `--seed` defaults to 0.
void add(QCommandLineParser &parser, Command command);

/// The options and their help in the two columns of a usage text, for a
/// command that prints its own usage (`round`).
QString help(Command command);

/// Reads and checks them. On bad input a failure naming the option
/// ("--project is required", "unknown agent 'gpt' (known: …)", "--workers
/// must be an integer in [1, 1024] (got '0')", "--partition needs --backend
/// slurm"): a usage error, exit 2. A task folder comes back as an absolute
/// path; on a resume without --workers, W is 0 (the iteration's own).
Result<RoundOptions> read(const QCommandLineParser &parser, Command command);

} // namespace dreamrsi::RoundCommandLine
