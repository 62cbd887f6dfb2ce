#pragma once

#include "loop/reevaluation/reevaluation.h"
#include "backend/slurmsettings.h"

#include <QObject>

#include <atomic>
#include <memory>
#include <optional>

namespace dreamrsi {

class JobTracker;
class ProjectStore;
class Workspace;

/// Re-evaluation for the workbench (docs/online.md#re-evaluating-the-best),
/// without widgets: plans and runs the repeats on a pool thread on the
/// backend `dreamrsi reevaluate` would use (this machine, or Slurm with the
/// checks of RoundSession::checkedBackend), reports progress, can be
/// cancelled, and keeps the workspace's repeats read from the project (what
/// the Cells tab, the inspector, Frontiers and the anytime curves show).
/// One re-evaluation at a time.
class ReevaluationController final : public QObject
{
    Q_OBJECT
public:
    /// Answers go through `jobs` under the scope "reevaluation".
    explicit ReevaluationController(JobTracker *jobs, QObject *parent = nullptr);
    ~ReevaluationController() override;

    bool isRunning() const { return m_running; }
    /// Starts re-evaluating `selection` of the project in `store`, `repeats`
    /// times each, on Slurm when `slurm` is given, else on this machine.
    /// False (and nothing started) while one runs or for iteration 0;
    /// finished() follows otherwise, whatever happens.
    bool start(ProjectStore *store, const ReevaluationSelection &selection, int repeats,
               const std::optional<SlurmSettings> &slurm = std::nullopt);
    /// Asks the running re-evaluation to stop: the evaluation under way is
    /// abandoned, what was stored stays; finished() reports it cancelled.
    void cancel();

    /// Keeps `workspace`'s repeats as `store` holds them: for every world
    /// added or changed and every change the store announces.
    void follow(ProjectStore *store, Workspace *workspace);
    /// Reads one iteration's repeats into the followed workspace (off the GUI thread).
    void load(IterationId iteration);

signals:
    void runningChanged(bool running);
    /// After each repeat: repeats done, repeats planned, the cell just evaluated.
    void progressed(int done, int total, const QString &cellId);
    void finished(const dreamrsi::Result<dreamrsi::ReevaluationReport> &report);

private:
    void setRunning(bool running);

    JobTracker *m_jobs = nullptr;
    ProjectStore *m_store = nullptr;
    Workspace *m_workspace = nullptr;
    bool m_running = false;
    std::shared_ptr<std::atomic_bool> m_cancel;
};

} // namespace dreamrsi
