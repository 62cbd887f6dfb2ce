#include "jobtracker.h"

namespace dreamrsi {

JobTracker::JobTracker(QObject *parent)
    : QObject(parent)
{
}

std::shared_ptr<std::atomic<quint64>> JobTracker::counter(const QString &scope)
{
    std::shared_ptr<std::atomic<quint64>> &c = m_epochs[scope];
    if (!c)
        c = std::make_shared<std::atomic<quint64>>(0);
    return c;
}

quint64 JobTracker::renew(const QString &scope)
{
    return ++*counter(scope);
}

quint64 JobTracker::epoch(const QString &scope) const
{
    const auto c = m_epochs.value(scope);
    return c ? c->load() : 0;
}

JobTracker::CancelCheck JobTracker::cancelCheck(const QString &scope)
{
    return [c = counter(scope), started = epoch(scope)] { return c->load() != started; };
}

void JobTracker::finishOne()
{
    if (--m_pending == 0)
        emit idle();
}

} // namespace dreamrsi
