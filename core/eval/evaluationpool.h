#pragma once

#include "evaluationrequest.h"
#include "evaluationresult.h"

#include <QHash>
#include <QObject>

#include <atomic>
#include <memory>

class QThreadPool;

namespace dreamrsi {

/// Runs evaluations with at most W at a time, off the calling thread.
///
/// submit() returns at once with a job id; finished(id, result) is emitted on
/// the pool's thread when the job ends (including cancelled jobs, which end
/// with fail class "env" and error "cancelled"). Jobs start in submission
/// order. Destroying the pool cancels what is left and waits for running jobs
/// to stop (their children are killed).
class EvaluationPool final : public QObject
{
    Q_OBJECT
public:
    explicit EvaluationPool(int maxConcurrency, QObject *parent = nullptr);
    ~EvaluationPool() override;

    int maxConcurrency() const;
    /// Takes effect for jobs that have not started yet.
    void setMaxConcurrency(int workers);

    quint64 submit(const EvaluationRequest &request);
    /// Cancels a queued or running job. Returns false for an unknown or finished id.
    bool cancel(quint64 id);
    void cancelAll();
    /// Jobs submitted and not finished yet (queued and running).
    int pending() const;
    /// Blocks (processing events) until no job is pending or `timeoutMs`
    /// passed; returns true when none is pending.
    bool waitForIdle(int timeoutMs);

signals:
    void started(quint64 id);
    void finished(quint64 id, const dreamrsi::EvaluationResult &result);
    /// Emitted after the last pending job finished.
    void idle();

private:
    void onJobStarted(quint64 id);
    void onJobFinished(quint64 id, const dreamrsi::EvaluationResult &result);

    QThreadPool *m_threads;
    QHash<quint64, std::shared_ptr<std::atomic_bool>> m_cancelFlags;
    quint64 m_nextId = 1;
};

} // namespace dreamrsi
