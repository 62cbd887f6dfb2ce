#include "evaluationpool.h"

#include "evaluator.h"

#include "model/cell.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QEventLoop>
#include <QPointer>
#include <QRunnable>
#include <QThread>
#include <QThreadPool>
#include <QTimer>

namespace dreamrsi {

EvaluationPool::EvaluationPool(int maxConcurrency, QObject *parent)
    : QObject(parent)
    , m_threads(new QThreadPool(this))
{
    qRegisterMetaType<dreamrsi::EvaluationResult>();
    m_threads->setMaxThreadCount(qMax(1, maxConcurrency));
    m_threads->setExpiryTimeout(-1);
}

EvaluationPool::~EvaluationPool()
{
    cancelAll();
    m_threads->clear();
    m_threads->waitForDone();
}

int EvaluationPool::maxConcurrency() const
{
    return m_threads->maxThreadCount();
}

void EvaluationPool::setMaxConcurrency(int workers)
{
    m_threads->setMaxThreadCount(qMax(1, workers));
}

quint64 EvaluationPool::submit(const EvaluationRequest &request)
{
    const quint64 id = m_nextId++;
    auto flag = std::make_shared<std::atomic_bool>(false);
    m_cancelFlags.insert(id, flag);
    QPointer<EvaluationPool> self(this);
    m_threads->start(QRunnable::create([self, id, flag, request] {
        if (self)
            QMetaObject::invokeMethod(self, [self, id] { if (self) self->onJobStarted(id); }, Qt::QueuedConnection);
        EvaluationResult result = flag->load() ? EvaluationResult::failure(FailClass::Env, QStringLiteral("cancelled"))
                                               : Evaluator::evaluate(request, flag.get());
        if (self)
            QMetaObject::invokeMethod(self, [self, id, result] { if (self) self->onJobFinished(id, result); },
                                      Qt::QueuedConnection);
    }));
    return id;
}

bool EvaluationPool::cancel(quint64 id)
{
    const auto it = m_cancelFlags.constFind(id);
    if (it == m_cancelFlags.cend())
        return false;
    it.value()->store(true);
    return true;
}

void EvaluationPool::cancelAll()
{
    for (const auto &flag : std::as_const(m_cancelFlags))
        flag->store(true);
}

int EvaluationPool::pending() const
{
    return int(m_cancelFlags.size());
}

bool EvaluationPool::waitForIdle(int timeoutMs)
{
    QDeadlineTimer deadline(timeoutMs);
    while (pending() > 0 && !deadline.hasExpired()) {
        QEventLoop loop;
        QTimer::singleShot(10, &loop, &QEventLoop::quit);
        connect(this, &EvaluationPool::idle, &loop, &QEventLoop::quit);
        loop.exec();
    }
    return pending() == 0;
}

void EvaluationPool::onJobStarted(quint64 id)
{
    if (m_cancelFlags.contains(id))
        emit started(id);
}

void EvaluationPool::onJobFinished(quint64 id, const EvaluationResult &result)
{
    if (!m_cancelFlags.remove(id))
        return;
    emit finished(id, result);
    if (m_cancelFlags.isEmpty())
        emit idle();
}

} // namespace dreamrsi
