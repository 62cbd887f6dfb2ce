#pragma once

#include <QApplication>
#include <QStringList>
#include <QTextStream>

namespace dreamrsi {

class EventClock;

/// dreamrsi-bench's application for the benchmarks that draw: a QApplication that, while bench livetree
/// has an EventClock running, times every event it delivers, so that a slow
/// frame can be split into its phases (what timers and queued calls did,
/// layout, paint) and the receivers that took the time.
class RenderApplication final : public QApplication
{
public:
    RenderApplication(int &argc, char **argv);
    bool notify(QObject *receiver, QEvent *event) override;
};

/// `dreamrsi bench livetree` (its arguments read as every benchmark's, app/bench/benches.h):
/// the Live Round panel (its item tree and the list that shows it, the drawn
/// tree, the dashboard) holding N cells (10,000) while R more arrive each
/// second (100), frame by frame at F frames a second (60) for S seconds (5).
/// Prints the milliseconds each frame took, and the phases of the slowest
/// frames: the model update (cells handed over, rows marked running), what
/// timers and queued calls did (tree rebuilds, chart hand-overs), layout and
/// paint, each with the receivers that took the most. The phases need the
/// application to be a RenderApplication; under another one only the model
/// update and the rest are told apart.
struct LiveTreeBenchOptions
{
    int cells = 10000;
    double rate = 100.0;
    double seconds = 5.0;
    double fps = 60.0;
};
int benchLiveTree(const LiveTreeBenchOptions &options, QTextStream &out, QTextStream &err);
/// `dreamrsi bench livetree`: its arguments (benchlivetreecommand.cpp).
int runBenchLiveTreeCommand(const QStringList &args, QTextStream &out, QTextStream &err);

} // namespace dreamrsi
