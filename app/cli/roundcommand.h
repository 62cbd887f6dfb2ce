#pragma once

#include <QStringList>
#include <QTextStream>

namespace dreamrsi {

/// `dreamrsi round` (docs/online.md#commands): runs or resumes one live round in a
/// project, progress on stderr, `--json` summary on stdout. Exit 0 when the
/// round finished or was stopped cleanly (SIGINT/SIGTERM = Stop, twice =
/// kill the running attempts), 1 on an error that stopped it, 2 on bad usage.
int runRoundCommand(const QStringList &args, QTextStream &out, QTextStream &err);

} // namespace dreamrsi
