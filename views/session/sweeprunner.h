#pragma once

#include "preferences.h"
#include "replayjobs.h"

#include <QObject>
#include <QPointer>

#include <atomic>
#include <memory>

namespace dreamrsi {

class Workspace;

/// Runs replay sweeps of policy versions over the workspace's worlds, one
/// version after another. Each sweep is a VersionReplay job in a child
/// `dreamrsi` process (the preferences' memory, wall-clock and call limits),
/// run on a worker thread together with the imagined completions it needs,
/// so the GUI thread neither runs policy code nor draws completions.
/// cancel() kills the running child and drops the queue.
class SweepRunner final : public QObject
{
    Q_OBJECT
public:
    explicit SweepRunner(Workspace *workspace, QObject *parent = nullptr);
    ~SweepRunner() override;

    /// The person's preferences: limits, whether approximate worlds are
    /// replayed, read when a sweep starts (so a change holds from the next
    /// one); the defaults without any.
    void setPreferences(const Preferences *preferences) { m_preferences = preferences; }
    /// The replay configuration sweeps run under: the open project's, else
    /// the preferences' one for tree files (AppSettings::looseReplayConfig).
    void setReplayConfig(const ReplayConfig &config) { m_config = config; }
    const ReplayConfig &replayConfig() const { return m_config; }
    /// Queues the versions (by name); a version already queued is not added twice.
    void run(const QStringList &versionNames);
    void cancel();
    bool isRunning() const { return !m_current.isEmpty(); }
    QString currentVersion() const { return m_current; }

signals:
    void started(const QString &versionName);
    void progress(const QString &versionName, int done, int total);
    /// A sweep finished (also with policy errors inside); the workspace already holds it.
    void finished(const QString &versionName, dreamrsi::ReplayResultPtr result);
    /// The replay process itself failed: it could not start, ran past its
    /// memory or wall-clock limit, or crashed. No result is stored.
    void failed(const QString &versionName, const QString &message);
    void cancelled(const QString &versionName);
    void idle();

private:
    void startNext();
    void finishCurrent();
    void deliver(quint64 sweep, const QString &name, const SandboxedReplayOutcome &outcome);

    Workspace *m_workspace;
    QPointer<const Preferences> m_preferences;
    ReplayConfig m_config;
    QStringList m_queue;
    QString m_current;
    /// The running sweep's cancel flag, shared with its worker.
    std::shared_ptr<std::atomic_bool> m_cancel;
    /// Counts sweeps; a worker's late answer for an earlier one is dropped.
    quint64 m_sweep = 0;
};

} // namespace dreamrsi
