#pragma once

#include "appsettings.h"
#include "replayjobs.h"

#include <QObject>
#include <QPointer>

#include <memory>

namespace dreamrsi {

class ReplayProcess;
class Workspace;

/// Runs replay sweeps of policy versions over the workspace's worlds, one
/// version after another, each in a child `dreamrsi` process with the
/// settings' memory and time limits (ReplayProcess), so the GUI thread never
/// runs policy code. cancel() kills the running child and drops the queue.
class SweepRunner final : public QObject
{
    Q_OBJECT
public:
    explicit SweepRunner(Workspace *workspace, QObject *parent = nullptr);
    ~SweepRunner() override;

    void setSettings(const AppSettings &settings) { m_settings = settings; }
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

    Workspace *m_workspace;
    AppSettings m_settings;
    QStringList m_queue;
    QString m_current;
    QPointer<ReplayProcess> m_process;
};

} // namespace dreamrsi
