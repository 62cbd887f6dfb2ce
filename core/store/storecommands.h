#pragma once

#include <QStringList>
#include <QTextStream>

namespace dreamrsi {

// Headless commands over the history store. Each returns the process exit
// status: 0 success, 1 a failure (the message on `err` names the file and
// what is wrong), 2 a usage error. `--help` prints the usage.

/// `dreamrsi project new P.dreamrsi [--name NAME] [--task TASK]`,
/// `dreamrsi project info P.dreamrsi` (opening a project marks rounds left
/// running by a dead process as interrupted and says so), and
/// `dreamrsi project replay P.dreamrsi …`, the same as runProjectReplayCommand
/// with `--project P.dreamrsi`.
int runProjectCommand(const QStringList &args, QTextStream &out, QTextStream &err);

/// `dreamrsi import P.dreamrsi TREE.json…` (all files or none),
/// `dreamrsi import P.dreamrsi --policy FILE.js --name NAME [--origin human|agent|builtin] [--parent NAME]`,
/// `dreamrsi import --bundle B.dreamrsi-bundle NEW.dreamrsi`.
int runImportCommand(const QStringList &args, QTextStream &out, QTextStream &err);

/// `dreamrsi export P.dreamrsi --iteration ID [-o OUT.json]` (tree; stdout by default),
/// `dreamrsi export P.dreamrsi --iteration ID --dir DIR` (tree, round metadata, artifacts),
/// `dreamrsi export P.dreamrsi --all --dir DIR` (every iteration as DIR/iteration-ID.json),
/// `dreamrsi export P.dreamrsi --bundle OUT.dreamrsi-bundle`;
/// any other form is a tree file re-write (runExportTreeCommand).
int runProjectExportCommand(const QStringList &args, QTextStream &out, QTextStream &err);

/// `dreamrsi ls P.dreamrsi [iterations|policies|results|approvals] [--policy NAME]`.
int runLsCommand(const QStringList &args, QTextStream &out, QTextStream &err);

/// `dreamrsi bench store [--worlds 1000] [--cells 110] [--project-cells 100000] [--tree-cells 10000]`:
/// times importing many worlds, and opening a large project and loading one tree.
int runBenchStoreCommand(const QStringList &args, QTextStream &out, QTextStream &err);

} // namespace dreamrsi

namespace dreamrsi {

/// `dreamrsi replay --project P.dreamrsi --policy NAME|FILE.js|builtin:NAME [--name VERSION]`
/// plus the replay options of replay.md §6 (--workers, --lambda, --betas,
/// --rounds, --json, --trace, --time-limit-ms, --seed, --threads, --no-grid-plan):
/// replays the policy in every finished iteration of the project and stores
/// one result per (version, world, β, W, λ, K, grid), replacing earlier ones.
/// `--policy` names a stored policy version, or a .js file / builtin:NAME,
/// which is first added as a version (named by --name, the file's base name,
/// or "builtin:NAME"; an existing version of that name must have the same
/// code). Prints what `dreamrsi replay` prints. Exit status: 0 ok, 1 a policy
/// error or a store failure, 2 usage error.
int runProjectReplayCommand(const QStringList &args, QTextStream &out, QTextStream &err);

} // namespace dreamrsi
