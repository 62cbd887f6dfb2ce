#pragma once

#include "sandboxrequest.h"
#include "sandboxresult.h"

#include <QElapsedTimer>
#include <QObject>
#include <QProcessEnvironment>

#include <atomic>

class QProcess;
class QTimer;

namespace dreamrsi {

/// Runs one untrusted program in a sandbox, asynchronously.
///
/// Promises, for every run that started:
/// - the child runs in its own session and process group, in
///   `SandboxRequest::workDir`, with the rlimits of SandboxLimits applied
///   before exec, and (as root) as an unprivileged user id of its own, outside
///   the range of real accounts (SandboxResult::userId);
/// - with bubblewrap: no network (own, empty network namespace), read-only
///   view of the system, writable work directory, private /tmp, own PID
///   namespace (everything it started dies with it), dies with its parent;
/// - the environment is scrubbed (scrubbedEnvironment());
/// - on the wall-clock limit, output cap or cancel(), the whole process group
///   is killed (SIGTERM, then SIGKILL after the grace), and when the child
///   ends any process left in its group is killed too (as root: every process
///   of the run's user, even one that left the group);
/// - finished() is emitted exactly once per start(), on the runner's thread.
///
/// A runner runs one child at a time; use several runners (or EvaluationPool)
/// for parallel runs.
class SandboxRunner final : public QObject
{
    Q_OBJECT
public:
    explicit SandboxRunner(QObject *parent = nullptr);
    ~SandboxRunner() override; ///< kills a child still running

    /// Starts the run. Must not be called while isRunning().
    void start(const SandboxRequest &request);
    /// Kills the process group now; finished() follows with Outcome::Cancelled.
    void cancel();
    bool isRunning() const;
    /// The process group of the running (or last) child; 0 before a start.
    qint64 processGroup() const;

    /// Runs `request` to completion on the calling thread (which gets a local
    /// event loop meanwhile). When `cancelFlag` becomes true the child is killed
    /// and the result is Cancelled. Safe to call from any thread.
    static SandboxResult run(const SandboxRequest &request, const std::atomic_bool *cancelFlag = nullptr);

    /// The inherited environment without variables whose name contains KEY,
    /// TOKEN, SECRET, PASSWORD, PASSWD or CREDENTIAL (any case) and without
    /// proxy settings (*_proxy, *_PROXY).
    static QProcessEnvironment scrubbedEnvironment();
    /// True when a variable of this name is dropped by scrubbedEnvironment().
    static bool isScrubbedName(const QString &name);

    /// Whether bubblewrap works here (checked once, by running it).
    static bool bubblewrapAvailable();
    /// Why bubblewrap is not used (empty when it is available).
    static QString bubblewrapProblem();
    /// Whether the fallback cuts the network (started as root, and allowed to
    /// create a network namespace).
    static bool fallbackIsolatesNetwork();
    /// The mode `Auto` resolves to on this machine.
    static SandboxMode effectiveMode(SandboxMode requested);

signals:
    void finished(const dreamrsi::SandboxResult &result);

private:
    void onStdout();
    void onStderr();
    void onFinished(int exitCode, int exitStatus);
    void onErrorOccurred(int error);
    void killGroup(int signal);
    void stopWith(SandboxResult::Outcome outcome);
    void complete();
    bool append(QByteArray &buffer, const QByteArray &chunk);
    /// With SandboxRequest::timeProgram: takes the start line off stderr and
    /// sets programSeconds from it and `endedAt` (realtimeSeconds()).
    void takeProgramStart(double endedAt);
    static double realtimeSeconds();

    /// The first line a timed program's stderr starts with.
    static constexpr char ProgramStartMarker[] = "DREAMRSI_PROGRAM_START";

    QProcess *m_process = nullptr;
    QTimer *m_wallTimer = nullptr;
    QTimer *m_graceTimer = nullptr;
    SandboxRequest m_request;
    SandboxResult m_result;
    QElapsedTimer m_clock;
    qint64 m_pgid = 0;
    uint m_uid = 0; ///< the user the child runs as
    bool m_running = false;
    bool m_stopping = false; ///< the runner decided the outcome (timeout, cap, cancel)
    bool m_timeProgram = false; ///< this run's stderr starts with the program's start (timeProgram)
};

} // namespace dreamrsi
