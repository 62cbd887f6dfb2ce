#include "reevaluationcontroller.h"

#include "jobtracker.h"

#include "models/workspace.h"

#include "backend/evaluationbackend.h"
#include "loop/round/roundsession.h"
#include "store/projectstore.h"

#include <QPointer>
#include <QtConcurrent/QtConcurrentRun>

namespace dreamrsi {

namespace {
const QString ReevaluationScope = QStringLiteral("reevaluation");
}

ReevaluationController::ReevaluationController(JobTracker *jobs, QObject *parent)
    : QObject(parent)
    , m_jobs(jobs)
{
}

ReevaluationController::~ReevaluationController()
{
    cancel(); // the pool thread stops at its next evaluation; its answer is dropped
}

void ReevaluationController::setRunning(bool running)
{
    if (m_running == running)
        return;
    m_running = running;
    emit runningChanged(running);
}

bool ReevaluationController::start(ProjectStore *store, const ReevaluationSelection &selection, int repeats,
                                   const std::optional<SlurmSettings> &slurm)
{
    if (m_running || !store || selection.iteration == 0)
        return false;
    m_cancel = std::make_shared<std::atomic_bool>(false);
    setRunning(true);
    QPointer<ReevaluationController> self(this);
    auto progress = [self](int done, int total, const QString &cell) {
        QMetaObject::invokeMethod(self, [self, done, total, cell] {
            if (self)
                emit self->progressed(done, total, cell);
        });
    };
    // Planning reads the store, the backend's checks may call Slurm, and
    // running blocks on evaluations: a pool thread does all three.
    m_jobs->then(ReevaluationScope, QtConcurrent::run([store, selection, repeats, slurm, cancel = m_cancel, progress] {
        const Result<ReevaluationPlan> plan = Reevaluation::plan(store, selection, !slurm.has_value());
        if (!plan)
            return plan.failureAs<ReevaluationReport>();
        const Result<std::shared_ptr<EvaluationBackend>> backend = RoundSession::checkedBackend(slurm);
        if (!backend)
            return backend.failureAs<ReevaluationReport>();
        return Reevaluation::run(store, *plan.value, repeats, **backend.value, *cancel, progress);
    }), this, [this, iteration = selection.iteration](const Result<ReevaluationReport> &report) {
        setRunning(false);
        load(iteration);
        emit finished(report);
    });
    return true;
}

void ReevaluationController::cancel()
{
    if (m_cancel)
        m_cancel->store(true);
}

void ReevaluationController::follow(ProjectStore *store, Workspace *workspace)
{
    m_store = store;
    m_workspace = workspace;
    connect(store, &ProjectStore::reevaluationsChanged, this, &ReevaluationController::load);
    // Every project iteration shown anywhere has its repeats read: Frontiers
    // and the anytime curves show those of worlds other than the current one.
    auto loadRow = [this](int row) {
        if (row >= 0 && row < m_workspace->worlds().size())
            load(m_workspace->worlds().at(row).iteration);
    };
    connect(workspace, &Workspace::worldAdded, this, loadRow);
    connect(workspace, &Workspace::worldChanged, this, loadRow);
}

void ReevaluationController::load(IterationId iteration)
{
    if (iteration == 0 || !m_store || !m_workspace || m_store->path().isEmpty())
        return;
    m_store->reevaluations(iteration).then(this, [this, iteration](const StoreResult<QList<ReevaluationRecord>> &records) {
        if (!records)
            return;
        for (const WorldEntry &world : m_workspace->worlds()) {
            if (world.iteration == iteration && world.tree) {
                m_workspace->setReevaluations(iteration, reevaluationStats(iteration, world.tree->cells(), *records.value));
                return;
            }
        }
    });
}

} // namespace dreamrsi
