#include "sweeprunner.h"

#include "loop/dream/imaginedhistory.h"

#include "replay/replayprocess.h"
#include "models/workspace.h"

namespace dreamrsi {

SweepRunner::SweepRunner(Workspace *workspace, QObject *parent)
    : QObject(parent)
    , m_workspace(workspace)
{
}

SweepRunner::~SweepRunner()
{
    // The child is killed by ReplayProcess's destructor; nothing is reported.
    if (m_process)
        m_process->disconnect(this);
}

void SweepRunner::run(const QStringList &versionNames)
{
    for (const QString &name : versionNames) {
        if (!m_queue.contains(name) && name != m_current)
            m_queue.append(name);
    }
    if (!isRunning())
        startNext();
}

void SweepRunner::cancel()
{
    m_queue.clear();
    if (!isRunning())
        return;
    const QString name = m_current;
    finishCurrent(); // the child is killed; its late signals are disconnected
    emit cancelled(name);
    emit idle();
}

void SweepRunner::finishCurrent()
{
    if (m_process) {
        m_process->disconnect(this);
        m_process->cancel();
        m_process->deleteLater();
    }
    m_process = nullptr;
    m_current.clear();
}

void SweepRunner::startNext()
{
    while (!m_queue.isEmpty()) {
        const QString name = m_queue.takeFirst();
        const int row = m_workspace->indexOfVersion(name);
        // Approximate worlds only when the settings include them.
        QList<ReplayWorld> worlds = ReplayJobs::worldsOf(*m_workspace, m_settings.includeApproximate);
        if (row < 0 || m_workspace->worlds().isEmpty())
            continue;
        if (worlds.isEmpty()) {
            emit failed(name, tr("Every open world is approximate (an imported run with forks or orphans); "
                                 "Settings ▸ Include approximate worlds replays them."));
            continue;
        }
        m_current = name;
        m_process = new ReplayProcess(this);
        connect(m_process, &ReplayProcess::progress, this,
                [this, name](int done, int total) { emit progress(name, done, total); });
        connect(m_process, &ReplayProcess::finished, this,
                [this, name](std::shared_ptr<const ReplayProcessOutput> output) {
                    auto result = std::make_shared<ReplayResult>(output->result);
                    result->policy = name;
                    result->completions = m_settings.valuation == Valuation::Imagined ? m_settings.completions : 0;
                    finishCurrent();
                    m_workspace->setResult(name, result);
                    emit finished(name, result);
                    startNext();
                });
        connect(m_process, &ReplayProcess::failed, this, [this, name](const QString &message) {
            finishCurrent();
            emit failed(name, message);
            startNext();
        });
        const PolicyVersion version = m_workspace->versions().at(row);
        emit started(name);
        // Under the imagined valuation the sweep runs over C completions of
        // every world, drawn once per sweep with seed 0 (as `replay --project`).
        if (m_settings.valuation == Valuation::Imagined) {
            Result<ImaginedHistory> imagined =
                ImaginedHistories::imagine(worlds, 0, std::max(1, m_settings.completions), ImaginationOptions());
            if (!imagined) {
                finishCurrent();
                emit failed(name, imagined.error);
                continue;
            }
            worlds = std::move(imagined.value->completions);
        }
        const qsizetype worldCount = worlds.size();
        const Result<Done> launched = m_process->start(ReplayJobs::sweepRequest(std::move(worlds), version, m_settings));
        if (!launched) {
            finishCurrent();
            emit failed(name, launched.error);
            continue;
        }
        emit progress(name, 0, int(worldCount * m_settings.betas.size()));
        return;
    }
    emit idle();
}

} // namespace dreamrsi
