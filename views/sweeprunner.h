#pragma once

#include "appsettings.h"
#include "replayjobs.h"

#include <QObject>
#include <QTimer>

#include <memory>

namespace dreamrsi {

class Workspace;

/// Runs replay sweeps of policy versions over the workspace's worlds, one
/// version after another, off the GUI thread. Progress is polled from the
/// workers' counters; cancel() stops the running sweep and drops the queue.
class SweepRunner final : public QObject
{
    Q_OBJECT
public:
    explicit SweepRunner(Workspace *workspace, QObject *parent = nullptr);

    void setSettings(const AppSettings &settings) { m_settings = settings; }
    /// Queues the versions (by name); a version already queued is not added twice.
    void run(const QStringList &versionNames);
    void cancel();
    bool isRunning() const { return m_control != nullptr; }
    QString currentVersion() const { return m_current; }

signals:
    void started(const QString &versionName);
    void progress(const QString &versionName, int done, int total);
    /// A sweep finished (also with policy errors inside); the workspace already holds it.
    void finished(const QString &versionName, dreamrsi::ReplayResultPtr result);
    void cancelled(const QString &versionName);
    void idle();

private:
    void startNext();

    Workspace *m_workspace;
    AppSettings m_settings;
    QStringList m_queue;
    QString m_current;
    std::shared_ptr<SweepControl> m_control;
    QTimer m_poll;
    quint64 m_generation = 0;
};

} // namespace dreamrsi
