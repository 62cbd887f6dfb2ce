#pragma once

#include <QStringList>
#include <QTextStream>

namespace dreamrsi {

/// `dreamrsi bench serve [--cells 1000] [--interval-ms 5] [--poll-ms 200]
/// [--clients 4] [--seconds 3]`: the latency from a cell stored to a
/// stream client of `dreamrsi serve` seeing it (median and p95), and the
/// requests per second the cells-after-seq endpoint answers (docs/remote.md).
int runBenchServeCommand(const QStringList &args, QTextStream &out, QTextStream &err);

} // namespace dreamrsi
