#include "scriptwatchdog.h"

#include <QJSEngine>

#include <algorithm>

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
    // No wake-up here: arming is a few uncontended instructions, because it
    // happens around every policy call. The watchdog thread polls instead.
    std::lock_guard lock(m_mutex);
    m_deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
    m_period = std::chrono::milliseconds(std::clamp(ms / 10, 5, 100));
    m_armed = true;
    m_fired = false;
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
        // Poll: a call is interrupted at most one period after its deadline.
        m_wake.wait_for(lock, m_period);
        if (m_armed && !m_fired && std::chrono::steady_clock::now() >= m_deadline) {
            m_fired = true;
            m_engine->setInterrupted(true);
        }
    }
}

} // namespace dreamrsi
