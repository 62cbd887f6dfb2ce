#include "sweeprunner.h"

#include "workspace.h"

namespace dreamrsi {

SweepRunner::SweepRunner(Workspace *workspace, QObject *parent)
    : QObject(parent)
    , m_workspace(workspace)
{
    m_poll.setInterval(50);
    connect(&m_poll, &QTimer::timeout, this, [this] {
        if (m_control)
            emit progress(m_current, m_control->done.load(), m_control->total.load());
    });
}

void SweepRunner::run(const QStringList &versionNames)
{
    for (const QString &name : versionNames) {
        if (!m_queue.contains(name) && name != m_current)
            m_queue.append(name);
    }
    if (!m_control)
        startNext();
}

void SweepRunner::cancel()
{
    m_queue.clear();
    if (!m_control)
        return;
    m_control->cancel = true;
    // The sweep's result is dropped when it arrives (generation check).
    ++m_generation;
    const QString name = m_current;
    m_control.reset();
    m_current.clear();
    m_poll.stop();
    emit cancelled(name);
    emit idle();
}

void SweepRunner::startNext()
{
    while (!m_queue.isEmpty()) {
        const QString name = m_queue.takeFirst();
        const int row = m_workspace->indexOfVersion(name);
        if (row < 0 || m_workspace->worlds().isEmpty())
            continue;
        m_current = name;
        m_control = std::make_shared<SweepControl>();
        const quint64 generation = ++m_generation;
        emit started(name);
        m_poll.start();
        ReplayJobs::runSweep(ReplayJobs::worldsOf(*m_workspace), m_workspace->versions().at(row), m_settings, m_control)
            .then(this, [this, generation, name](ReplayResultPtr result) {
                if (generation != m_generation)
                    return; // cancelled or superseded
                m_control.reset();
                m_current.clear();
                m_poll.stop();
                m_workspace->setResult(name, result);
                emit finished(name, result);
                startNext();
            });
        return;
    }
    m_poll.stop();
    emit idle();
}

} // namespace dreamrsi
