#pragma once

#include <QStringList>
#include <QTextStream>

namespace dreamrsi {

/// `dreamrsi bench round`: the orchestration overhead of a live round per
/// attempt (workspace, artifacts, store, policy, signals), with an instant
/// agent and an instant evaluation backend, so that nothing else is timed.
int runBenchRoundCommand(const QStringList &args, QTextStream &out, QTextStream &err);

} // namespace dreamrsi
