#pragma once

#include <QStringList>
#include <QTextStream>

namespace dreamrsi {

// The commands of `dreamrsi` that have no header of their own, one source
// file each under app/cli. Every one reads its arguments with
// QCommandLineParser (commandline.h), answers --help with its usage on
// stdout, and returns the exit status: 0 success, 1 a failure (the message
// on `err` names the file and what is wrong), 2 a usage error (unknown
// option, missing or bad value; the message names it).

/// `dreamrsi validate FILE…`: each file's summary, or its error. 1 when one is invalid.
int runValidateCommand(const QStringList &args, QTextStream &out, QTextStream &err);

/// `dreamrsi export P.dreamrsi --iteration ID [-o OUT.json | --dir DIR]`,
/// `export P.dreamrsi --all --dir DIR`, `export P.dreamrsi --bundle OUT`,
/// and `export IN.json [-o OUT.json]` (a tree file re-written canonically).
int runProjectExportCommand(const QStringList &args, QTextStream &out, QTextStream &err);

/// `dreamrsi import P.dreamrsi TREE.json…` (all files or none),
/// `import P.dreamrsi --policy FILE.js [--name NAME] [--origin human|agent|builtin] [--parent NAME]`,
/// `import --bundle B.dreamrsi-bundle NEW.dreamrsi`.
int runImportCommand(const QStringList &args, QTextStream &out, QTextStream &err);

/// `dreamrsi status P.dreamrsi [--json]`: whether the project's rounds are
/// alive (docs/online.md#is-it-alive). 1 when the project cannot be read.
int runStatusCommand(const QStringList &args, QTextStream &out, QTextStream &err);

/// `dreamrsi serve P.dreamrsi [--listen ADDR:PORT] [--token-file F]
/// [--steering-token-file F2] [--tls-cert C --tls-key K]`: the project
/// served over HTTP until SIGINT or SIGTERM (docs/remote.md).
int runServeCommand(const QStringList &args, QTextStream &out, QTextStream &err);

/// `dreamrsi ls P.dreamrsi [iterations|policies|results|approvals] [--policy NAME]`.
int runLsCommand(const QStringList &args, QTextStream &out, QTextStream &err);

/// `dreamrsi project new P [--name NAME] [--task TASK]`, `project info P`
/// (opening marks rounds left running by a dead process as interrupted and
/// says so), `project replay P …` (= `replay --project P …`).
int runProjectCommand(const QStringList &args, QTextStream &out, QTextStream &err);

/// `dreamrsi evaluate (--task NAME PATH | --command CMD [PATH]) [--option K=V]…
/// [--sandbox auto|bwrap|fallback] [--keep] [--json]`: the score JSON
/// (docs/evaluators.md#the-score-json) and a summary. 1 when the candidate failed.
int runEvaluateCommand(const QStringList &args, QTextStream &out, QTextStream &err);

/// `dreamrsi reevaluate --project P [--iteration ID] (--top K | --cell ID…) --repeats R [--json]`:
/// stored cells evaluated again and their statistics (core/loop/reevaluation).
int runReevaluateCommand(const QStringList &args, QTextStream &out, QTextStream &err);

/// `dreamrsi tasks`: the built-in tasks with their folders and initial programs.
int runTasksCommand(const QStringList &args, QTextStream &out, QTextStream &err);

/// `dreamrsi replay --world A.json … --policy P.js|builtin:NAME [--workers W]
/// [--lambda L] [--betas …] [--rounds K] [--json] [--trace FILE]
/// [--time-limit-ms MS] [--seed S] [--threads T] [--no-grid-plan] [--progress]`
/// (docs/replay.md#the-replay-command). 1 on a policy error or an unreadable world.
int runReplayCommand(const QStringList &args, QTextStream &out, QTextStream &err);

/// `dreamrsi synth --out DIR --worlds N --seed S [--width W] [--depth D]
/// [--fail-rate F] [--regime NAME] [--workers W]`: synthetic worlds (SynthWorld).
int runSynthCommand(const QStringList &args, QTextStream &out, QTextStream &err);

/// `dreamrsi imagine (--world T.json … | --project P) --out DIR [--seed S] [--completions C]
/// [--directions LIST] [--no-cap] [--threads N] [--json]`: imagined completions of history
/// worlds as tree files, and the fitted world model (core/replay/worldmodel.h).
int runImagineCommand(const QStringList &args, QTextStream &out, QTextStream &err);

/// `dreamrsi plot frontier|anytime|tree|progress …`: figures (writePlot, views).
int runPlotCommand(const QStringList &args, QTextStream &out, QTextStream &err);

// `dreamrsi bench NAME`: the benchmarks are dreamrsi-bench's (app/bench),
// an executable beside dreamrsi that is not installed.

} // namespace dreamrsi
