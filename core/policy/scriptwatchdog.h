#pragma once

#include <condition_variable>
#include <mutex>
#include <thread>

class QJSEngine;

namespace dreamrsi {

/// Interrupts one QJSEngine when a call runs past its limit. Owns a thread
/// that polls the armed deadline (every limit/10, between 5 and 100 ms), so
/// a call is interrupted at most one period late and arming costs no
/// wake-up; arm() before a call, disarm() after it. Only the owning thread
/// calls arm/disarm.
class ScriptWatchdog
{
public:
    explicit ScriptWatchdog(QJSEngine *engine);
    ~ScriptWatchdog();

    ScriptWatchdog(const ScriptWatchdog &) = delete;
    ScriptWatchdog &operator=(const ScriptWatchdog &) = delete;

    /// Starts the clock: after `ms` milliseconds the engine is interrupted.
    void arm(int ms);
    /// Stops the clock and clears any interruption. Returns true when the
    /// deadline passed (the engine was interrupted) since arm().
    bool disarm();

private:
    void run();

    QJSEngine *m_engine;
    std::mutex m_mutex;
    std::condition_variable m_wake;
    std::chrono::steady_clock::time_point m_deadline;
    std::chrono::milliseconds m_period{100};
    bool m_armed = false;
    bool m_fired = false;
    bool m_quit = false;
    std::thread m_thread;
};

} // namespace dreamrsi
