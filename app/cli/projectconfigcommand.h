#pragma once

#include <QStringList>
#include <QTextStream>

namespace dreamrsi {

/// `dreamrsi project config P.dreamrsi [--workers W] [--lambda L] [--betas B,...]
/// [--rounds K|none] [--replay] [--json]`: prints the project's replay
/// configuration, or changes it; then lists the versions whose stored values
/// are stale under it (computed under another configuration) and, with
/// --replay only, replays them (a command never asks). Exit status: 0 ok,
/// 1 the project cannot be read or written, or a replay failed; 2 usage error.
int runProjectConfigCommand(const QStringList &args, QTextStream &out, QTextStream &err);

} // namespace dreamrsi
