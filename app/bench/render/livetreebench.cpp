#include "livetreebench.h"

#include "models/livetreemodel.h"
#include "model/attemptpayload.h"
#include "loop/round/roundfollower.h"
#include "loop/round/roundsession.h"
#include "session/roundcontroller.h"
#include "live/roundpanel.h"
#include "tree/treeview.h"

#include "loop/round/roundtree.h"

#include <QApplication>
#include <QDateTime>
#include <QElapsedTimer>
#include <QEvent>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QThread>
#include <QTimer>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>
#include <numeric>
#include <optional>
#include <vector>

namespace dreamrsi {

/// Times the events RenderApplication delivers while it is installed, each
/// for what it took itself (the events it delivered inside are taken off),
/// by phase and by who received it. One frame at a time: take() hands the
/// frame's parts over and starts the next.
class EventClock
{
public:
    enum Phase { Events, Layout, Paint, PhaseCount };
    /// What one receiver took in one phase, in ms.
    struct Part
    {
        Phase phase;
        QString who;
        double ms;  ///< wall
        double cpu; ///< the GUI thread's CPU time
    };
    struct Totals
    {
        double ms[PhaseCount] = {};
        double cpu[PhaseCount] = {};
    };

    EventClock() { s_current = this; }
    ~EventClock() { s_current = nullptr; }
    static EventClock *current() { return s_current; }

    void enter(QObject *receiver, QEvent *event)
    {
        m_stack.push_back(Open{receiver, event->type(), Clock::now(), threadCpuMs(), 0.0, 0.0});
    }
    void leave()
    {
        const Open open = m_stack.back();
        m_stack.pop_back();
        const double ms = std::chrono::duration<double, std::milli>(Clock::now() - open.start).count();
        const double cpu = threadCpuMs() - open.cpuStart;
        if (!m_stack.empty()) {
            m_stack.back().inner += ms;
            m_stack.back().innerCpu += cpu;
        }
        const double own = std::max(0.0, ms - open.inner);
        const double ownCpu = std::max(0.0, cpu - open.innerCpu);
        const Phase phase = phaseOf(open.type);
        m_totals.ms[phase] += own;
        m_totals.cpu[phase] += ownCpu;
        // Only what is worth naming is named (a name costs more than a
        // small event); the rest is summed per phase.
        if (own >= 0.1 || ownCpu >= 0.05) {
            add(phase, nameOf(open.receiver, open.type), own, ownCpu);
        } else {
            m_small[phase].ms += own;
            m_small[phase].cpu += ownCpu;
        }
    }
    /// The parts since the last take(), most CPU first, and the phases' totals.
    QList<Part> take(Totals *totals)
    {
        for (int p = 0; p < PhaseCount; ++p) {
            if (m_small[p].ms > 0.0)
                m_parts.append(Part{Phase(p), QStringLiteral("small events"), m_small[p].ms, m_small[p].cpu});
            m_small[p] = {};
        }
        *totals = std::exchange(m_totals, {});
        std::sort(m_parts.begin(), m_parts.end(), [](const Part &a, const Part &b) { return a.cpu > b.cpu; });
        return std::exchange(m_parts, {});
    }
    /// CPU time of the calling thread, ms: what a frame cost the GUI thread,
    /// whatever else the machine is running.
    static double threadCpuMs()
    {
        timespec t{};
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
        return double(t.tv_sec) * 1e3 + double(t.tv_nsec) / 1e6;
    }

private:
    using Clock = std::chrono::steady_clock;
    struct Open
    {
        QObject *receiver;
        QEvent::Type type;
        Clock::time_point start;
        double cpuStart;
        double inner;    ///< wall ms of the events delivered inside this one
        double innerCpu; ///< their CPU ms
    };
    struct Small
    {
        double ms = 0.0;
        double cpu = 0.0;
    };

    static Phase phaseOf(QEvent::Type type)
    {
        switch (type) {
        case QEvent::UpdateRequest:
        case QEvent::UpdateLater:
        case QEvent::Paint:
            return Paint;
        case QEvent::LayoutRequest:
        case QEvent::Polish:
        case QEvent::PolishRequest:
        case QEvent::Resize:
        case QEvent::Move:
        case QEvent::GraphicsSceneResize:
        case QEvent::GraphicsSceneMove:
            return Layout;
        default:
            return Events;
        }
    }
    /// A widget by its class and object name; a scroll area's viewport by its area.
    static QString widgetName(const QObject *o)
    {
        if (o->objectName() == QLatin1String("qt_scrollarea_viewport") && o->parent())
            o = o->parent();
        QString type = QString::fromLatin1(o->metaObject()->className());
        type.remove(QLatin1String("dreamrsi::"));
        const QString name = o->objectName();
        if (name.isEmpty() || name.startsWith(QLatin1String("qt_"))) {
            // An unnamed part by the nearest named widget it belongs to.
            for (const QObject *up = o->parent(); up; up = up->parent()) {
                if (!up->objectName().isEmpty() && !up->objectName().startsWith(QLatin1String("qt_")))
                    return QStringLiteral("%1 in %2").arg(type, up->objectName());
            }
            return type;
        }
        return QStringLiteral("%1 %2").arg(type, name);
    }
    static QString nameOf(const QObject *receiver, QEvent::Type type)
    {
        if (type == QEvent::Timer) {
            // A QTimer by its name, else by its owner: whose slot ran.
            const QObject *owner = qobject_cast<const QTimer *>(receiver) && receiver->objectName().isEmpty()
                                           && receiver->parent()
                                       ? receiver->parent()
                                       : receiver;
            return QStringLiteral("timer of %1").arg(widgetName(owner));
        }
        if (type == QEvent::MetaCall)
            return QStringLiteral("queued call to %1").arg(widgetName(receiver));
        if (type == QEvent::UpdateRequest)
            return QStringLiteral("repaint of %1").arg(widgetName(receiver));
        if (type == QEvent::Paint)
            return widgetName(receiver);
        if (type == QEvent::LayoutRequest)
            return QStringLiteral("layout of %1").arg(widgetName(receiver));
        return QStringLiteral("event %1 to %2").arg(int(type)).arg(widgetName(receiver));
    }
    void add(Phase phase, const QString &who, double ms, double cpu)
    {
        for (Part &p : m_parts) {
            if (p.phase == phase && p.who == who) {
                p.ms += ms;
                p.cpu += cpu;
                return;
            }
        }
        m_parts.append(Part{phase, who, ms, cpu});
    }

    static inline EventClock *s_current = nullptr;
    std::vector<Open> m_stack;
    QList<Part> m_parts;
    Totals m_totals;
    Small m_small[PhaseCount];
};

RenderApplication::RenderApplication(int &argc, char **argv)
    : QApplication(argc, argv)
{
}

bool RenderApplication::notify(QObject *receiver, QEvent *event)
{
    EventClock *clock = EventClock::current();
    if (!clock)
        return QApplication::notify(receiver, event);
    clock->enter(receiver, event);
    const bool done = QApplication::notify(receiver, event);
    clock->leave();
    return done;
}

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
    RoundFollower *follower = panel.controller()->follower();
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
    /// One frame's phases: the model update timed here, the rest by the clock.
    struct FramePhases
    {
        double model = 0.0;
        double modelCpu = 0.0;
        EventClock::Totals events;
        QList<EventClock::Part> parts;
    };
    QList<FramePhases> phases;
    phases.reserve(frames);
    // Events are timed only under dreamrsi-render's application.
    std::optional<EventClock> eventClock;
    if (dynamic_cast<RenderApplication *>(QCoreApplication::instance()))
        eventClock.emplace();
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
        FramePhases ph;
        if (eventClock) // what arrived between frames (a late worker's answer) is no frame's
            eventClock->take(&ph.events);
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
        ph.model = double(frame.nsecsElapsed()) / 1e6;
        ph.modelCpu = threadCpuMs() - cpuStart;
        QApplication::sendPostedEvents();
        QApplication::processEvents();
        times.append(double(frame.nsecsElapsed()) / 1e6);
        cpu.append(threadCpuMs() - cpuStart);
        if (eventClock)
            ph.parts = eventClock->take(&ph.events);
        phases.append(std::move(ph));
        const double left = frameMs * double(f + 1) - double(clock.nsecsElapsed()) / 1e6;
        if (left > 0.5)
            QThread::usleep(qulonglong(left * 1000.0));
    }
    const bool timed = eventClock.has_value();
    eventClock.reset();
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
        << " cells (" << (panel.treeView()->isFitted() ? "zoomed to fit" : "not fitted") << ", scale "
        << QString::number(panel.treeView()->scale(), 'g', 3) << ")\n";
    out << "  preload " << QString::number(preloadMs, 'f', 1) << " ms\n";
    out << "  ms per frame (wall):           " << line(times) << '\n';
    out << "  ms per frame (GUI thread CPU): " << line(cpu) << '\n';
    // Where the time of the slowest frames went, so that a regression names
    // itself: wall and GUI-thread CPU ms of each phase, and the receivers
    // that took the most CPU (on a busy machine the wall time also holds
    // the waits for a core).
    static const char *const phaseNames[EventClock::PhaseCount] = {"timers and queued calls", "layout", "paint"};
    auto ms = [](double v) { return QString::number(v, 'f', 2); };
    {
        double model = 0.0, modelCpu = 0.0;
        EventClock::Totals sum;
        for (const FramePhases &p : std::as_const(phases)) {
            model += p.model;
            modelCpu += p.modelCpu;
            for (int k = 0; k < EventClock::PhaseCount; ++k) {
                sum.ms[k] += p.events.ms[k];
                sum.cpu[k] += p.events.cpu[k];
            }
        }
        const double n = double(std::max<qsizetype>(1, phases.size()));
        out << "  phases, mean ms per frame (wall/CPU): model update " << ms(model / n) << '/' << ms(modelCpu / n);
        for (int k = 0; k < EventClock::PhaseCount; ++k)
            out << ", " << phaseNames[k] << ' ' << ms(sum.ms[k] / n) << '/' << ms(sum.cpu[k] / n);
        out << (timed ? "" : " (events not timed: not under dreamrsi-render)") << '\n';
    }
    QList<int> order(times.size());
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&times](int a, int b) { return times.at(a) > times.at(b); });
    const int slowest = int(std::min<qsizetype>(5, order.size()));
    out << "  the " << slowest << " slowest frames, ms wall/CPU; in brackets, CPU ms of what took the most:\n";
    for (int i = 0; i < slowest; ++i) {
        const int f = order.at(i);
        const FramePhases &p = phases.at(f);
        QString text = QStringLiteral("    frame %1: %2/%3 = model update %4/%5")
                           .arg(f)
                           .arg(ms(times.at(f)), ms(cpu.at(f)), ms(p.model), ms(p.modelCpu));
        for (int k = 0; k < EventClock::PhaseCount; ++k) {
            text += QStringLiteral(" + %1 %2/%3").arg(QLatin1String(phaseNames[k]), ms(p.events.ms[k]), ms(p.events.cpu[k]));
            QStringList top;
            for (const EventClock::Part &part : p.parts) {
                if (part.phase == k && top.size() < 3 && part.cpu >= 0.05)
                    top.append(QStringLiteral("%1 %2").arg(part.who, ms(part.cpu)));
            }
            if (!top.isEmpty())
                text += QStringLiteral(" (%1)").arg(top.join(QStringLiteral(", ")));
        }
        out << text << '\n';
    }
    return 0;
}

} // namespace dreamrsi
