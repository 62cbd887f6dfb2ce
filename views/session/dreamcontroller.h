#pragma once

#include "loop/dream/dreamer.h"
#include "loop/dream/dreamsession.h"

#include <QObject>

#include <atomic>
#include <memory>

namespace dreamrsi {

class ProjectStore;

/// A dream for the workbench, without widgets (docs/online.md#dreaming):
/// DreamSession::prepare (the history, the developer, the settings — what
/// `dreamrsi dream` prepares) and the Dreamer both run on pool threads; the
/// controller reports each step, each version and the end on the GUI thread,
/// and can be cancelled at any point. One dream at a time.
class DreamController final : public QObject
{
    Q_OBJECT
public:
    explicit DreamController(ProjectStore *store, QObject *parent = nullptr);
    ~DreamController() override;

    bool isRunning() const { return m_running; }
    /// Starts a dream with `options`; false (nothing started) while one
    /// runs. finished() follows whatever happens: a preparation that fails
    /// (no finished iteration, no key for the agent, …) ends in a report
    /// whose error says why.
    bool start(const DreamOptions &options);
    /// Stops the dream: before it started dreaming nothing runs; while it
    /// dreams, the Dreamer stops at its next step and reports what it has.
    void cancel();

signals:
    void runningChanged(bool running);
    /// The history is read: how many worlds, and how many approximate ones were left out.
    void prepared(int worlds, int approximateLeftOut);
    void message(const QString &line);
    void stepStarted(int index, int total);
    void versionReady(const dreamrsi::DreamVersion &version);
    void finished(const dreamrsi::DreamReport &report);

private:
    void dream(const PreparedDream &prepared);
    void finish(const DreamReport &report);

    ProjectStore *m_store;
    bool m_running = false;
    std::shared_ptr<std::atomic_bool> m_cancelled;
    std::shared_ptr<Dreamer> m_dreamer;
};

} // namespace dreamrsi
