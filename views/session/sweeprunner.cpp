#include "sweeprunner.h"

#include "project/valuationworlds.h"
#include "project/versionreplay.h"
#include "models/workspace.h"

#include <QPointer>
#include <QtConcurrent/QtConcurrentRun>

namespace dreamrsi {

SweepRunner::SweepRunner(Workspace *workspace, QObject *parent)
    : QObject(parent)
    , m_workspace(workspace)
{
    m_config.valuation = Valuation::Revealed; // the loose files' defaults until told
}

SweepRunner::~SweepRunner()
{
    // The worker's child is killed; its answer has no receiver and is dropped.
    if (m_cancel)
        m_cancel->store(true);
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
    finishCurrent(); // the child is killed; the worker's late answer is dropped
    emit cancelled(name);
    emit idle();
}

void SweepRunner::finishCurrent()
{
    if (m_cancel)
        m_cancel->store(true);
    m_cancel.reset();
    ++m_sweep;
    m_current.clear();
}

void SweepRunner::deliver(quint64 sweep, const QString &name, const SandboxedReplayOutcome &outcome)
{
    if (sweep != m_sweep)
        return; // cancelled meanwhile
    finishCurrent();
    if (!outcome.output) {
        emit failed(name, outcome.error);
    } else {
        auto result = std::make_shared<ReplayResult>(outcome.output->result);
        result->policy = name;
        m_workspace->setResult(name, result);
        emit finished(name, result);
    }
    startNext();
}

void SweepRunner::startNext()
{
    while (!m_queue.isEmpty()) {
        const QString name = m_queue.takeFirst();
        const int row = m_workspace->indexOfVersion(name);
        // Approximate worlds only when the settings include them.
        QList<ProjectWorld> history = ReplayJobs::historyOf(*m_workspace, Preferences::of(m_preferences).includeApproximate);
        if (row < 0 || m_workspace->worlds().isEmpty())
            continue;
        if (history.isEmpty()) {
            emit failed(name, tr("Every open world is approximate (an imported run with forks or orphans); "
                                 "Settings ▸ Include approximate worlds replays them."));
            continue;
        }
        m_current = name;
        m_cancel = std::make_shared<std::atomic_bool>(false);
        const quint64 sweep = ++m_sweep;
        VersionReplayJob job = ReplayJobs::sweepJob(m_workspace->versions().at(row), m_config, Preferences::of(m_preferences));
        emit started(name);
        emit progress(name, 0, int(history.size() * std::max(1, job.completions) * m_config.betas.size()));
        QPointer<SweepRunner> self(this);
        auto reportProgress = [self, sweep, name](int done, int total) {
            QMetaObject::invokeMethod(self.data(), [self, sweep, name, done, total] {
                if (self && self->m_sweep == sweep)
                    emit self->progress(name, done, total);
            }, Qt::QueuedConnection);
        };
        // The worlds of the sweep's valuation (ValuationWorlds): under the
        // imagined one, C completions of every world, drawn once per sweep
        // with seed 0 (as `replay --project`), on the worker like the replay itself.
        QFuture<SandboxedReplayOutcome> future =
            QtConcurrent::run(ReplayJobs::pool(), [job = std::move(job), history = std::move(history), config = m_config,
                               cancel = m_cancel, reportProgress]() mutable {
                Result<ValuationWorlds> valued = ValuationWorlds::of(config, history, 0);
                if (!valued) {
                    SandboxedReplayOutcome failed;
                    failed.error = valued.error;
                    return failed;
                }
                job.worlds = std::move(valued.value->worlds);
                job.completions = valued.value->completions;
                return VersionReplay::run(job, reportProgress, cancel.get());
            });
        future.then(this, [this, sweep, name](const SandboxedReplayOutcome &outcome) { deliver(sweep, name, outcome); });
        return;
    }
    emit idle();
}

} // namespace dreamrsi
