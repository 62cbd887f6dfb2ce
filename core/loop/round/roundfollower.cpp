#include "roundfollower.h"

#include "roundsession.h"
#include "steeringinbox.h"

#include "model/attemptpayload.h"
#include "store/projectlock.h"
#include "store/projectstore.h"

#include <QDateTime>
#include <QTimer>
#include <QtConcurrent/QtConcurrentRun>

namespace dreamrsi {

RoundFollower::RoundFollower(ProjectStore *store, QObject *parent)
    : RoundEvents(parent)
    , m_store(store)
    , m_timer(new QTimer(this))
{
    m_timer->setInterval(1000);
    m_whyNoSteering = QStringLiteral("not known yet: the round has not been looked at");
    connect(m_timer, &QTimer::timeout, this, &RoundFollower::poll);
}

RoundFollower::~RoundFollower() = default;

void RoundFollower::start(const WriterInfo &writer)
{
    ++m_epoch;
    m_writer = writer;
    m_iteration = 0;
    m_lastSeq = -1;
    m_counters = RoundCounters{};
    m_stored = StoredTimes{};
    m_live.reset();
    m_whyNoSteering = QStringLiteral("not known yet: the round has not been looked at");
    m_approvalKey.clear();
    m_busy = false;
    m_timer->start();
    poll();
}

void RoundFollower::stop()
{
    ++m_epoch;
    m_timer->stop();
    m_busy = false;
}

bool RoundFollower::isActive() const
{
    return m_timer->isActive();
}

void RoundFollower::setInterval(int ms)
{
    m_timer->setInterval(std::max(10, ms));
}

void RoundFollower::poll()
{
    if (!isActive() || m_busy || !m_store)
        return;
    m_busy = true;
    const quint64 epoch = m_epoch;
    const QString path = m_store->path();
    // Liveness first, then the read: what the read shows was committed
    // after the writer was last seen alive. The inbox says whether a loop
    // waits for approval (between its rounds), whether the round takes
    // steering, and which attempts it has in flight; those are read before
    // the cells too, so an attempt stored meanwhile is a stored cell, not
    // a running one.
    struct Seen
    {
        bool alive = false;
        std::optional<ApprovalWait> approval;
        std::optional<LiveRound> attempts;
        QString whyNoSteering;
    };
    QtConcurrent::run([path] {
        Seen seen;
        const RoundLiveness::Observed observed = RoundLiveness::observe(path);
        seen.alive = observed.writerAlive;
        const std::optional<SteeringLive> live = seen.alive ? SteeringInbox::readLive(path) : std::nullopt;
        if (live && live->kind == QLatin1String("approval")
            && SteeringInbox::whyNotAccepting(path, live->kind).isEmpty())
            seen.approval = ApprovalWait{live->pid, live->proposal};
        if (seen.alive) {
            // The writer's own file only, as `dreamrsi status` takes it.
            seen.attempts = observed.live;
            seen.whyNoSteering = SteeringInbox::whyNotAccepting(path, QStringLiteral("round"));
        } else {
            seen.whyNoSteering = QStringLiteral("no process holds the project any more");
        }
        return seen;
    }).then(this, [this, epoch](const Seen &seen) {
        if (epoch != m_epoch)
            return;
        m_live = seen.attempts;
        m_whyNoSteering = seen.whyNoSteering;
        takeApproval(seen.approval);
        if (epoch == m_epoch)
            look(seen.alive);
    });
}

void RoundFollower::takeApproval(const std::optional<ApprovalWait> &approval)
{
    const QString key = approval ? approval->key() : QString();
    if (key == m_approvalKey)
        return;
    const bool was = !m_approvalKey.isEmpty();
    m_approvalKey = key;
    if (was)
        emit approvalEnded();
    if (approval)
        emit approvalAwaited(*approval);
}

void RoundFollower::look(bool writerAlive)
{
    const quint64 epoch = m_epoch;
    if (m_iteration == 0) {
        m_store->iterations().then(this, [this, epoch, writerAlive](StoreResult<QList<IterationInfo>> list) {
            if (epoch != m_epoch)
                return;
            m_busy = false;
            if (!list.ok()) {
                emit logLine(QStringLiteral("error: ") + list.error);
                return;
            }
            std::optional<IterationInfo> running;
            for (const IterationInfo &it : std::as_const(*list.value)) {
                if (it.status == IterationStatus::Running)
                    running = it;
            }
            if (!writerAlive) {
                stop();
                emit writerGone();
                return;
            }
            if (!running)
                return; // the other process holds the project between rounds
            m_iteration = running->id;
            m_lastSeq = -1;
            m_counters = RoundCounters{};
            m_stored = StoredTimes{};
            emit iterationStarted(*running, false);
            emit countersChanged(m_counters);
            // Its cells at once, not a second later.
            if (epoch == m_epoch) {
                m_busy = true;
                look(true);
            }
        });
        return;
    }
    m_store->iterationDataAfter(m_iteration, m_lastSeq).then(this, [this, epoch, writerAlive](StoreResult<IterationData> data) {
        if (epoch != m_epoch)
            return;
        m_busy = false;
        if (!data.ok()) {
            emit logLine(QStringLiteral("error: ") + data.error);
            return;
        }
        take(*data.value);
        if (epoch != m_epoch)
            return;
        const IterationInfo &info = data.value->info;
        if (info.status == IterationStatus::Running && writerAlive) {
            // Its attempts in flight, by the rule `dreamrsi status` applies.
            const RoundLiveness::Observed observed{true, m_live};
            emit attemptsSeen(
                RoundLiveness::assess(info, m_stored, observed.recordOf(info), true, QDateTime::currentDateTimeUtc()));
            return;
        }
        stop();
        RoundSummary summary;
        summary.iteration = info.id;
        summary.status = info.status == IterationStatus::Running ? IterationStatus::Interrupted : info.status;
        summary.counters = m_counters;
        if (info.grid)
            summary.grid = GridPlan{info.grid->branches, info.grid->refinements, info.gridReason};
        summary.stopReason = summary.status == IterationStatus::Interrupted
                                 ? QStringLiteral("its process ended without closing it")
                                 : QStringLiteral("ended in another process");
        emit finished(summary);
    });
}

void RoundFollower::take(const IterationData &data)
{
    if (data.cells.isEmpty())
        return;
    const quint64 epoch = m_epoch;
    m_lastSeq = data.cells.constLast().seq;
    // A round followed midway arrives as one large first look: summed up, not listed.
    const bool listed = data.cells.size() <= 50;
    QStringList lines; // one log line for the look, not one append per cell
    for (const Cell &c : data.cells) {
        RoundSession::count(m_counters, c); // as the runner in the other process counts
        m_stored.add(c);
        m_counters.rounds = std::max(m_counters.rounds, AttemptPayload::roundOf(c).value_or(-1) + 1);
        emit cellFinished(data.info.id, c);
        if (epoch != m_epoch)
            return; // a listener stopped following
        if (listed) {
            lines.append(c.score ? QStringLiteral("%1 stored: score %2 (%3)").arg(c.id, QString::number(*c.score, 'g', 6), c.failClass)
                                 : QStringLiteral("%1 stored: %2").arg(c.id, c.error.value_or(c.failClass)));
        }
    }
    emit logLine(listed ? lines.join(QLatin1Char('\n')) : QStringLiteral("%1 cells stored so far").arg(data.cells.size()));
    emit countersChanged(m_counters);
}

} // namespace dreamrsi
