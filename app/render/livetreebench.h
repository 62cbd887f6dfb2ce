#pragma once

#include <QTextStream>

namespace dreamrsi {

/// `dreamrsi bench livetree` (arguments read in app/cli/benchcommands.cpp):
/// the Live Round panel (its item tree and the list that shows it, the drawn
/// tree, the dashboard) holding N cells (10,000) while R more arrive each
/// second (100), frame by frame at F frames a second (60) for S seconds (5).
/// Prints the milliseconds each frame took: cells handed over, timers that
/// fell due, layout and paint.
struct LiveTreeBenchOptions
{
    int cells = 10000;
    double rate = 100.0;
    double seconds = 5.0;
    double fps = 60.0;
};
int benchLiveTree(const LiveTreeBenchOptions &options, QTextStream &out, QTextStream &err);

} // namespace dreamrsi
