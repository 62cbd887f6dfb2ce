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
