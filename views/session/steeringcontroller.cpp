#include "steeringcontroller.h"

#include <QTimer>

namespace dreamrsi {

namespace {
/// Every this many polls, check that somebody still answers.
constexpr int LivenessEvery = 8;
} // namespace

SteeringController::SteeringController(QObject *parent)
    : QObject(parent)
    , m_timer(new QTimer(this))
{
    m_timer->setInterval(150);
    connect(m_timer, &QTimer::timeout, this, &SteeringController::poll);
}

SteeringController::~SteeringController()
{
    // Requests nobody will read the answer of are taken back when possible.
    for (auto it = m_waiting.cbegin(); it != m_waiting.cend(); ++it)
        SteeringInbox::withdraw(m_path, it.key());
}

void SteeringController::setProjectPath(const QString &path)
{
    if (path == m_path)
        return;
    withdrawAll(tr("the workbench left the project before the answer came"));
    m_path = path;
}

void SteeringController::setInterval(int ms)
{
    m_timer->setInterval(ms);
}

Result<QString> SteeringController::send(SteeringRequest request, const QString &kind)
{
    if (m_path.isEmpty())
        return Result<QString>::failure(tr("no project is open"));
    if (const QString why = SteeringInbox::whyNotAccepting(m_path, kind); !why.isEmpty())
        return Result<QString>::failure(why);
    if (const Result<Done> submitted = SteeringInbox::submit(m_path, &request); !submitted.ok())
        return Result<QString>::failure(submitted.error);
    m_waiting.insert(request.id, Waiting{request, kind, 0});
    if (!m_timer->isActive())
        m_timer->start();
    return Result<QString>::success(request.id);
}

void SteeringController::poll()
{
    const QStringList ids = m_waiting.keys();
    for (const QString &id : ids) {
        auto it = m_waiting.find(id);
        if (it == m_waiting.end())
            continue;
        if (std::optional<SteeringAck> ack = SteeringInbox::takeAck(m_path, id)) {
            const SteeringRequest request = it->request;
            m_waiting.erase(it);
            emit answered(request, *ack);
            continue;
        }
        if (++it->polls % LivenessEvery != 0)
            continue;
        const QString gone = SteeringInbox::whyNotAccepting(m_path, it->kind);
        // Taken back only while still in the inbox: once the process has
        // read it, its answer is on the way.
        if (!gone.isEmpty() && SteeringInbox::withdraw(m_path, id)) {
            SteeringAck ack;
            ack.id = id;
            ack.message = tr("not answered: %1; the request was taken back").arg(gone);
            const SteeringRequest request = it->request;
            m_waiting.erase(it);
            emit answered(request, ack);
        }
    }
    if (m_waiting.isEmpty())
        m_timer->stop();
}

void SteeringController::withdrawAll(const QString &why)
{
    const auto waiting = std::exchange(m_waiting, {});
    for (auto it = waiting.cbegin(); it != waiting.cend(); ++it) {
        SteeringInbox::withdraw(m_path, it.key());
        SteeringAck ack;
        ack.id = it.key();
        ack.message = why;
        emit answered(it->request, ack);
    }
    m_timer->stop();
}

} // namespace dreamrsi
