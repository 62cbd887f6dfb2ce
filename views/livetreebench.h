#pragma once

#include <QStringList>
#include <QTextStream>

namespace dreamrsi {

/// `dreamrsi bench livetree [--cells N] [--rate R] [--seconds S] [--fps F]`:
/// the Live Round panel (its item tree and the list that shows it, the drawn
/// tree, the dashboard) holding N cells (10,000) while R more arrive each
/// second (100), frame by frame at F frames a second (60) for S seconds (5).
/// Prints the milliseconds each frame took: cells handed over, timers that
/// fell due, layout and paint.
int runBenchLiveTreeCommand(const QStringList &args, QTextStream &out, QTextStream &err);

} // namespace dreamrsi
