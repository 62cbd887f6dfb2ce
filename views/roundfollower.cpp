#include "roundfollower.h"

#include "store/projectlock.h"
#include "store/projectstore.h"

#include <QTimer>
#include <QtConcurrent/QtConcurrentRun>

namespace dreamrsi {

RoundFollower::RoundFollower(ProjectStore *store, QObject *parent)
    : QObject(parent)
    , m_store(store)
    , m_timer(new QTimer(this))
{
    m_timer->setInterval(1000);
    connect(m_timer, &QTimer::timeout, this, &RoundFollower::poll);
}

RoundFollower::~RoundFollower() = default;

void RoundFollower::start(const WriterInfo &writer)
{
    ++m_epoch;
    m_writer = writer;
    m_iteration = 0;
    m_lastSeq = -1;
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
    // after the writer was last seen alive.
    QtConcurrent::run([path] { return ProjectLock::liveWriter(path).has_value(); }).then(this, [this, epoch](bool alive) {
        if (epoch == m_epoch)
            look(alive);
    });
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
                emit failed(list.error);
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
            emit following(*running);
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
            emit failed(data.error);
            return;
        }
        const IterationInfo &info = data.value->info;
        if (!data.value->cells.isEmpty()) {
            m_lastSeq = data.value->cells.last().seq;
            emit cellsArrived(info, data.value->cells);
        }
        if (epoch != m_epoch)
            return;
        if (info.status != IterationStatus::Running || !writerAlive) {
            const IterationStatus status = info.status == IterationStatus::Running ? IterationStatus::Interrupted : info.status;
            stop();
            emit iterationEnded(info, status);
        }
    });
}

} // namespace dreamrsi
