#include "jobtracker.h"

namespace dreamrsi {

JobTracker::JobTracker(QObject *parent)
    : QObject(parent)
{
}

quint64 JobTracker::renew(const QString &scope)
{
    return ++m_epochs[scope];
}

void JobTracker::finishOne()
{
    if (--m_pending == 0)
        emit idle();
}

} // namespace dreamrsi
