#pragma once

#include <QStringList>
#include <QTextStream>

namespace dreamrsi {

/// `dreamrsi path (P.dreamrsi --iteration ID | RUN | T.json) [--cell ID]
/// [--score METRIC] [--format md|json]`: the chain of programs from the
/// initial program to a cell (default the best), each with its score, its
/// gain over its parent, its proposal's first lines and its diff to the
/// parent (docs/compare.md#the-path-to-the-best). 0 written, 1 a source that
/// cannot be read, 2 bad usage.
int runPathCommand(const QStringList &args, QTextStream &out, QTextStream &err);

} // namespace dreamrsi
