#pragma once

#include <QStringList>
#include <QTextStream>

namespace dreamrsi {

/// `dreamrsi replay --project P.dreamrsi --policy NAME|FILE.js|builtin:NAME [--name VERSION]`
/// with the replay options of docs/replay.md#the-replay-command; the work is ProjectReplay::run
/// (core/project). Also `dreamrsi project replay P …`. Exit status: 0 ok,
/// 1 a policy error or a store failure, 2 usage error.
int runProjectReplayCommand(const QStringList &args, QTextStream &out, QTextStream &err);

/// `dreamrsi approve --project P --version V [--note TEXT] [--by NAME] | --best`:
/// records the approval the workbench's dialog records, with the same
/// evidence (ApprovalRules, core/project). Exit status: 0 approved, 1 the
/// version cannot be approved (the blocker is printed) or a store failure,
/// 2 usage error.
int runApproveCommand(const QStringList &args, QTextStream &out, QTextStream &err);

} // namespace dreamrsi
