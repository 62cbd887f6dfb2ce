#include "livetreebench.h"

#include "live/livetreemodel.h"
#include "model/attemptpayload.h"
#include "loop/roundfollower.h"
#include "loop/roundsession.h"
#include "live/roundpanel.h"
#include "tree/treeview.h"

#include "loop/roundtree.h"

#include <QApplication>
#include <QDateTime>
#include <QElapsedTimer>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QThread>

#include <algorithm>
#include <cmath>
#include <ctime>

namespace dreamrsi {

namespace {

/// Branch `b`'s attempt `a`, as a round stores it.
Cell benchCell(int branch, int attempt, qint64 seq, const QDateTime &ended, QRandomGenerator &random)
{
    Cell c;
    c.id = RoundTree::idOf(branch, attempt);
    c.branch = branch;
    c.attempt = attempt;
    c.seq = seq;
    c.evaluated = true;
    c.valid = true;
    c.failClass = QStringLiteral("ok");
    c.score = 2.0 + 0.5 * std::sin(branch * 0.37) + attempt * 0.001 + random.generateDouble() * 0.01;
    AttemptPayload::Agent agent;
    agent.cost = 0.002;
    agent.tokensIn = 1200;
    agent.tokensOut = 400;
    AttemptPayload::Timing timing;
    timing.wallS = 3.5;
    timing.ended = ended.toString(Qt::ISODateWithMs);
    c.payload.insert(QLatin1String(AttemptPayload::Key::agent), agent.toJson());
    c.payload.insert(QLatin1String(AttemptPayload::Key::timing), timing.toJson());
    c.payload.insert(QLatin1String(AttemptPayload::Key::round), attempt);
    return c;
}

/// CPU time of the calling thread, ms: what a frame cost the GUI thread,
/// whatever else the machine is running.
double threadCpuMs()
{
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return double(t.tv_sec) * 1e3 + double(t.tv_nsec) / 1e6;
}

double percentile(QList<double> values, double p)
{
    if (values.isEmpty())
        return 0.0;
    std::sort(values.begin(), values.end());
    const qsizetype at = std::min(values.size() - 1, qsizetype(std::ceil(p * double(values.size())) - 1));
    return values.at(std::max<qsizetype>(0, at));
}

} // namespace

int benchLiveTree(const LiveTreeBenchOptions &options, QTextStream &out, QTextStream & /*err: nothing fails*/)
{
    const int cells = options.cells;
    const double rate = options.rate;
    const double seconds = options.seconds;
    const double fps = options.fps;

    // A grid wide enough for every cell: 100 attempts per branch at most.
    const int depth = 100;
    const int arriving = int(std::ceil(rate * seconds));
    const int total = cells + arriving;
    const int branches = std::max(1, (total + depth - 1) / depth);
    QRandomGenerator random(7);
    const QDateTime started = QDateTime::currentDateTimeUtc();
    // Cells in storing order: attempt after attempt, across the branches.
    QList<Cell> all;
    all.reserve(total);
    for (int k = 0; k < total; ++k)
        all.append(benchCell(k % branches, k / branches, k, started.addMSecs(k * 10), random));

    // The panel as it shows a followed round; the bench stands in for the
    // follower that would read the cells from the store.
    RoundPanel panel(nullptr);
    panel.resize(1500, 520);
    panel.show();
    IterationInfo info;
    info.id = 1;
    info.status = IterationStatus::Running;
    info.started = started;
    info.grid = GridShape{branches, depth - 1};
    RoundFollower *follower = panel.follower();
    // What the follower gives for cells it read: each cell, then the counters.
    RoundCounters counters;
    const auto arrive = [follower, &counters](const QList<Cell> &batch) {
        for (const Cell &c : batch) {
            RoundSession::count(counters, c);
            emit follower->cellFinished(1, c);
        }
        emit follower->countersChanged(counters);
    };
    emit follower->iterationStarted(info, false);
    QElapsedTimer preload;
    preload.start();
    arrive(all.mid(0, cells));
    QApplication::processEvents();
    const double preloadMs = double(preload.nsecsElapsed()) / 1e6;
    // Let the first full redraw of the drawn tree and the charts land.
    QElapsedTimer settle;
    settle.start();
    while (settle.elapsed() < 400)
        QApplication::processEvents(QEventLoop::AllEvents, 50);

    const int frames = int(std::ceil(seconds * fps));
    const double frameMs = 1000.0 / fps;
    const int workers = 8;
    for (int k = cells; k < std::min(total, cells + workers); ++k)
        panel.model()->markRunning(all.at(k).id);
    QList<double> times;
    QList<double> cpu;
    times.reserve(frames);
    cpu.reserve(frames);
    int next = cells;
    QElapsedTimer clock;
    clock.start();
    qint64 lastTick = 0;
    for (int f = 0; f < frames; ++f) {
        // Cells due by the end of this frame, at `rate` per second.
        const int due = std::min(total, cells + int(std::floor(rate * double(f + 1) / fps)));
        QElapsedTimer frame;
        frame.start();
        const double cpuStart = threadCpuMs();
        if (due > next) {
            // The stored cells turn their running rows finished; as many new
            // attempts start, so `workers` rows are always running.
            arrive(all.mid(next, due - next));
            for (int k = std::max(next + workers, due); k < std::min(total, due + workers); ++k)
                panel.model()->markRunning(all.at(k).id);
            next = due;
        }
        if (clock.elapsed() - lastTick >= 250) { // the panel's 250 ms ticker
            panel.model()->tick();
            lastTick = clock.elapsed();
        }
        QApplication::sendPostedEvents();
        QApplication::processEvents();
        times.append(double(frame.nsecsElapsed()) / 1e6);
        cpu.append(threadCpuMs() - cpuStart);
        const double left = frameMs * double(f + 1) - double(clock.nsecsElapsed()) / 1e6;
        if (left > 0.5)
            QThread::usleep(qulonglong(left * 1000.0));
    }
    auto mean = [](const QList<double> &values) {
        double sum = 0.0;
        for (double v : values)
            sum += v;
        return sum / double(std::max<qsizetype>(1, values.size()));
    };
    auto line = [&](const QList<double> &values) {
        const qsizetype over = std::count_if(values.begin(), values.end(), [](double t) { return t > 16.0; });
        return QStringLiteral("mean %1, median %2, p95 %3, max %4; %5 of %6 frames over 16 ms")
            .arg(mean(values), 0, 'f', 2)
            .arg(percentile(values, 0.5), 0, 'f', 2)
            .arg(percentile(values, 0.95), 0, 'f', 2)
            .arg(percentile(values, 1.0), 0, 'f', 2)
            .arg(over)
            .arg(values.size());
    };
    out << "livetree: " << cells << " cells, then " << (next - cells) << " more at " << rate << "/s over " << frames
        << " frames (" << fps << " fps); panel " << panel.width() << "x" << panel.height() << ", "
        << panel.model()->cellCount() << " cells shown, drawn tree " << (panel.treeView()->tree() ? panel.treeView()->tree()->cellCount() : 0)
        << " cells\n";
    out << "  preload " << QString::number(preloadMs, 'f', 1) << " ms\n";
    out << "  ms per frame (wall):           " << line(times) << '\n';
    out << "  ms per frame (GUI thread CPU): " << line(cpu) << '\n';
    return 0;
}

} // namespace dreamrsi
