#pragma once

#include <QStringList>
#include <QTextStream>

namespace dreamrsi {

/// `dreamrsi plot frontier|anytime|tree (--project P | --world W.json …)
/// [--versions a,b] [--select WORLD] [--beta B] [--width-mm W] [--height-mm H]
/// [--dpi D] --out fig.pdf|svg|png`: the workbench's figures, headless.
/// Versions are project version names, or builtin:NAME / a .js file with
/// --world. Frontiers use stored results when the project has them and
/// replay otherwise. Exit status: 0 written, 1 failure, 2 usage error.
int runPlotCommand(const QStringList &args, QTextStream &out, QTextStream &err);

} // namespace dreamrsi
