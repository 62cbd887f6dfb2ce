#include "scriptwatchdog.h"

#include <QJSEngine>

namespace dreamrsi {

ScriptWatchdog::ScriptWatchdog(QJSEngine *engine)
    : m_engine(engine)
    , m_thread([this] { run(); })
{
}

ScriptWatchdog::~ScriptWatchdog()
{
    {
        std::lock_guard lock(m_mutex);
        m_quit = true;
    }
    m_wake.notify_one();
    m_thread.join();
}

void ScriptWatchdog::arm(int ms)
{
    {
        std::lock_guard lock(m_mutex);
        m_deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
        m_armed = true;
        m_fired = false;
    }
    m_wake.notify_one();
}

bool ScriptWatchdog::disarm()
{
    std::lock_guard lock(m_mutex);
    m_armed = false;
    const bool fired = m_fired;
    m_fired = false;
    if (fired)
        m_engine->setInterrupted(false);
    return fired;
}

void ScriptWatchdog::run()
{
    std::unique_lock lock(m_mutex);
    while (!m_quit) {
        if (!m_armed) {
            m_wake.wait(lock);
            continue;
        }
        if (m_wake.wait_until(lock, m_deadline) == std::cv_status::timeout && m_armed && !m_fired
            && std::chrono::steady_clock::now() >= m_deadline) {
            m_fired = true;
            m_engine->setInterrupted(true);
        }
        if (m_fired) {
            // Sleep until disarmed or re-armed.
            m_wake.wait(lock, [this] { return m_quit || !m_armed || !m_fired; });
        }
    }
}

} // namespace dreamrsi
