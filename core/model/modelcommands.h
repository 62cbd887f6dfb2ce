#pragma once

#include <QStringList>
#include <QTextStream>

namespace dreamrsi {

/// `dreamrsi validate FILE…`: prints a summary or the error for each file.
/// Returns 0 only when every file is valid, 1 when one is not, 2 on a usage error.
int runValidateCommand(const QStringList &args, QTextStream &out, QTextStream &err);

/// `dreamrsi export IN.json [-o OUT.json]`: re-writes a tree canonically
/// (sorted by seq, defaults resolved, payload kept) to OUT or stdout.
int runExportTreeCommand(const QStringList &args, QTextStream &out, QTextStream &err);

} // namespace dreamrsi

namespace dreamrsi {
/// `dreamrsi bench tree [--cells N]`: parses, indexes and re-serialises a
/// synthetic tree of N cells (default 100,000) and prints the timings.
int runBenchTreeCommand(const QStringList &args, QTextStream &out, QTextStream &err);
} // namespace dreamrsi
