#include "sandboxrunner.h"

#include "sandboxisolation.h"

#include <QDir>
#include <QEventLoop>
#include <QFileInfo>
#include <QProcess>
#include <QStandardPaths>
#include <QTimer>

#include <cerrno>
#include <csignal>
#include <atomic>
#include <mutex>

#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

namespace dreamrsi {

SandboxRunner::SandboxRunner(QObject *parent)
    : QObject(parent)
    , m_wallTimer(new QTimer(this))
    , m_graceTimer(new QTimer(this))
{
    qRegisterMetaType<dreamrsi::SandboxResult>();
    m_wallTimer->setSingleShot(true);
    m_wallTimer->setTimerType(Qt::PreciseTimer);
    m_graceTimer->setTimerType(Qt::PreciseTimer);
    m_graceTimer->setSingleShot(true);
    connect(m_wallTimer, &QTimer::timeout, this, [this] { stopWith(SandboxResult::Outcome::TimedOut); });
    connect(m_graceTimer, &QTimer::timeout, this, [this] { killGroup(SIGKILL); });
}

SandboxRunner::~SandboxRunner()
{
    if (m_process && m_process->state() != QProcess::NotRunning) {
        m_process->disconnect(this);
        killGroup(SIGKILL);
        m_process->waitForFinished(2000);
    }
    if (m_pgid > 0)
        ::kill(pid_t(-m_pgid), SIGKILL);
    if (m_pgid > 0 && SandboxIsolation::user().dropRoot)
        SandboxIsolation::killAllOf(m_uid);
}

bool SandboxRunner::isScrubbedName(const QString &name)
{
    const QString upper = name.toUpper();
    static const char *const secrets[] = {"KEY", "TOKEN", "SECRET", "PASSWORD", "PASSWD", "CREDENTIAL"};
    for (const char *word : secrets) {
        if (upper.contains(QLatin1String(word)))
            return true;
    }
    return upper.endsWith(QLatin1String("_PROXY")) || upper == QLatin1String("PROXY")
           || upper == QLatin1String("SSH_AUTH_SOCK");
}

QProcessEnvironment SandboxRunner::scrubbedEnvironment()
{
    const QProcessEnvironment system = QProcessEnvironment::systemEnvironment();
    QProcessEnvironment env;
    const QStringList keys = system.keys();
    for (const QString &name : keys) {
        if (!isScrubbedName(name))
            env.insert(name, system.value(name));
    }
    return env;
}

bool SandboxRunner::bubblewrapAvailable()
{
    return !SandboxIsolation::bubblewrap().executable.isEmpty();
}

QString SandboxRunner::bubblewrapProblem()
{
    return SandboxIsolation::bubblewrap().problem;
}

bool SandboxRunner::fallbackIsolatesNetwork()
{
    return SandboxIsolation::networkNamespaceWorks();
}

SandboxMode SandboxRunner::effectiveMode(SandboxMode requested)
{
    if (requested != SandboxMode::Auto)
        return requested;
    if (bubblewrapAvailable())
        return SandboxMode::Bubblewrap;
    static std::once_flag said;
    std::call_once(said, [] {
        qWarning("dreamrsi: sandbox fallback (rlimits + process group + scrubbed environment%s; "
                 "no filesystem or PID isolation): %s",
                 !SandboxIsolation::user().dropRoot ? ", network reachable"
                 : SandboxIsolation::networkNamespaceWorks()
                     ? ", own unprivileged user, no network"
                     : ", own unprivileged user, network reachable (no network namespace)",
                 qPrintable(bubblewrapProblem()));
    });
    return SandboxMode::Fallback;
}

bool SandboxRunner::isRunning() const
{
    return m_running;
}

qint64 SandboxRunner::processGroup() const
{
    return m_pgid;
}

void SandboxRunner::start(const SandboxRequest &request)
{
    Q_ASSERT(!m_running);
    m_request = request;
    m_result = SandboxResult{};
    m_pgid = 0;
    m_stopping = false;
    m_running = true;
    m_clock.start();

    auto failToStart = [this](const QString &why) {
        m_result.outcome = SandboxResult::Outcome::StartFailed;
        m_result.startError = why;
        QTimer::singleShot(0, this, [this] { complete(); });
    };

    const SandboxMode mode = effectiveMode(request.mode);
    if (mode == SandboxMode::Bubblewrap && !bubblewrapAvailable())
        return failToStart(QStringLiteral("bubblewrap sandbox requested but unusable: ") + bubblewrapProblem());
    const QFileInfo work(request.workDir);
    if (request.workDir.isEmpty() || !work.isDir())
        return failToStart(QStringLiteral("work directory '%1' does not exist").arg(request.workDir));
    const QString workDir = work.absoluteFilePath();
    m_uid = SandboxIsolation::user().dropRoot ? SandboxIsolation::allocateRunUid() : ::getuid();
    m_result.userId = qint64(m_uid);
    if (SandboxIsolation::user().dropRoot) {
        QString problem = SandboxIsolation::checkReachable(workDir, m_uid);
        if (problem.isEmpty())
            problem = SandboxIsolation::chownTree(workDir, m_uid).error;
        if (!problem.isEmpty())
            return failToStart(problem);
    }

    QProcessEnvironment env = scrubbedEnvironment();
    env.insert(QStringLiteral("HOME"), workDir);
    env.insert(QStringLiteral("TMPDIR"), mode == SandboxMode::Bubblewrap ? QStringLiteral("/tmp") : workDir);
    env.insert(QStringLiteral("PYTHONDONTWRITEBYTECODE"), QStringLiteral("1"));
    for (auto it = request.extraEnvironment.cbegin(); it != request.extraEnvironment.cend(); ++it)
        env.insert(it.key(), it.value());

    delete m_process;
    m_process = new QProcess(this);
    m_process->setProcessEnvironment(env);
    m_process->setWorkingDirectory(workDir);
    if (request.stdinFile.isEmpty())
        m_process->setStandardInputFile(QProcess::nullDevice());
    else
        m_process->setStandardInputFile(request.stdinFile);
    m_process->setChildProcessModifier(SandboxIsolation::childSetup(
        request.limits, mode == SandboxMode::Fallback && SandboxIsolation::networkNamespaceWorks(), m_uid));

    // Timing the program itself: bash writes the clock to stderr and
    // replaces itself with the program (same process, same limits); the
    // line is taken off stderr when the run ends (takeProgramStart()).
    SandboxRequest run = request;
    m_timeProgram = false;
    if (request.timeProgram) {
        static const QString bash = QStandardPaths::findExecutable(QStringLiteral("bash"));
        if (!bash.isEmpty()) {
            m_timeProgram = true;
            run.program = bash;
            run.arguments = QStringList{QStringLiteral("-c"),
                                        QStringLiteral("printf '%1 %s\\n' \"$EPOCHREALTIME\" >&2; exec \"$0\" \"$@\"")
                                            .arg(QLatin1String(ProgramStartMarker)),
                                        request.program}
                            + request.arguments;
        }
    }
    if (mode == SandboxMode::Bubblewrap) {
        m_result.bubblewrap = true;
        m_process->setProgram(SandboxIsolation::bubblewrap().executable);
        m_process->setArguments(SandboxIsolation::bubblewrapArguments(run, workDir));
    } else {
        m_process->setProgram(run.program);
        m_process->setArguments(run.arguments);
    }

    connect(m_process, &QProcess::readyReadStandardOutput, this, &SandboxRunner::onStdout);
    connect(m_process, &QProcess::readyReadStandardError, this, &SandboxRunner::onStderr);
    connect(m_process, &QProcess::finished, this,
            [this](int code, QProcess::ExitStatus status) { onFinished(code, int(status)); });
    connect(m_process, &QProcess::errorOccurred, this,
            [this](QProcess::ProcessError error) { onErrorOccurred(int(error)); });
    connect(m_process, &QProcess::started, this, [this] { m_pgid = m_process->processId(); });

    if (request.limits.wallMs > 0)
        m_wallTimer->start(request.limits.wallMs);
    m_process->start();
    if (m_pgid == 0 && m_process->processId() > 0)
        m_pgid = m_process->processId();
}

void SandboxRunner::cancel()
{
    if (m_running)
        stopWith(SandboxResult::Outcome::Cancelled);
}

bool SandboxRunner::append(QByteArray &buffer, const QByteArray &chunk)
{
    const qint64 cap = m_request.limits.outputBytes;
    if (cap > 0 && buffer.size() + chunk.size() > cap) {
        buffer.append(chunk.left(cap - buffer.size()));
        return false;
    }
    buffer.append(chunk);
    return true;
}

void SandboxRunner::onStdout()
{
    const QByteArray chunk = m_process->readAllStandardOutput();
    if (!m_stopping && !append(m_result.standardOutput, chunk))
        stopWith(SandboxResult::Outcome::OutputLimit);
}

void SandboxRunner::onStderr()
{
    const QByteArray chunk = m_process->readAllStandardError();
    if (!m_stopping && !append(m_result.standardError, chunk))
        stopWith(SandboxResult::Outcome::OutputLimit);
}

void SandboxRunner::killGroup(int signal)
{
    if (m_pgid > 0)
        ::kill(pid_t(-m_pgid), signal);
}

void SandboxRunner::stopWith(SandboxResult::Outcome outcome)
{
    if (m_stopping || !m_running)
        return;
    m_stopping = true;
    m_result.outcome = outcome;
    m_wallTimer->stop();
    if (outcome == SandboxResult::Outcome::TimedOut) {
        killGroup(SIGTERM);
        m_graceTimer->start(qMax(1, m_request.limits.termGraceMs));
    } else {
        killGroup(SIGKILL);
    }
}

void SandboxRunner::onFinished(int exitCode, int exitStatus)
{
    m_result.wallSeconds = double(m_clock.nsecsElapsed()) / 1e9;
    m_result.wallMs = m_clock.elapsed();
    const double endedAt = realtimeSeconds();
    // Whatever is left in the group (a daemonised grandchild) goes with the
    // child; as root, so does anything else running as this run's user.
    killGroup(SIGKILL);
    if (SandboxIsolation::user().dropRoot)
        SandboxIsolation::killAllOf(m_uid);
    if (m_stopping) {
        if (m_result.outcome == SandboxResult::Outcome::OutputLimit
            || m_result.outcome == SandboxResult::Outcome::Cancelled) {
            m_result.exitCode = -1;
        }
    } else {
        // Drain what is still buffered.
        onStdout();
        onStderr();
    }
    if (m_timeProgram)
        takeProgramStart(endedAt);
    if (!m_stopping) {
        if (exitStatus == QProcess::CrashExit) {
            m_result.outcome = SandboxResult::Outcome::Signaled;
            m_result.signal = exitCode; // QProcess reports the signal number for a crash
        } else if (m_result.bubblewrap && exitCode > 128 && exitCode < 128 + 65) {
            // bubblewrap exits with 128 + n when its child died of signal n.
            m_result.outcome = SandboxResult::Outcome::Signaled;
            m_result.signal = exitCode - 128;
        } else {
            m_result.outcome = SandboxResult::Outcome::Exited;
            m_result.exitCode = exitCode;
        }
    }
    complete();
}

double SandboxRunner::realtimeSeconds()
{
    timespec now{};
    clock_gettime(CLOCK_REALTIME, &now);
    return double(now.tv_sec) + double(now.tv_nsec) / 1e9;
}

void SandboxRunner::takeProgramStart(double endedAt)
{
    // "<marker> <seconds>.<microseconds>\n", the first bytes of stderr.
    QByteArray &err = m_result.standardError;
    const QByteArray marker = QByteArray(ProgramStartMarker) + ' ';
    if (!err.startsWith(marker))
        return;
    const qsizetype end = err.indexOf('\n');
    if (end < 0)
        return;
    QByteArray stamp = err.mid(marker.size(), end - marker.size()).trimmed();
    stamp.replace(',', '.'); // bash writes the locale's decimal point
    err.remove(0, end + 1);
    bool ok = false;
    const double startedAt = stamp.toDouble(&ok);
    const double seconds = endedAt - startedAt;
    // The clock read inside the sandbox must fall within this run.
    if (ok && seconds >= 0.0 && seconds <= m_result.wallSeconds + 0.01)
        m_result.programSeconds = seconds;
}

void SandboxRunner::onErrorOccurred(int error)
{
    if (error != QProcess::FailedToStart || !m_running)
        return;
    m_result.outcome = SandboxResult::Outcome::StartFailed;
    m_result.startError = QStringLiteral("cannot run '%1': %2").arg(m_request.program, m_process->errorString());
    QTimer::singleShot(0, this, [this] { complete(); });
}

void SandboxRunner::complete()
{
    if (!m_running)
        return;
    m_running = false;
    m_wallTimer->stop();
    m_graceTimer->stop();
    if (m_result.wallMs == 0) {
        m_result.wallSeconds = double(m_clock.nsecsElapsed()) / 1e9;
        m_result.wallMs = m_clock.elapsed();
    }
    m_result.processGroup = m_pgid;
    emit finished(m_result);
}

SandboxResult SandboxRunner::run(const SandboxRequest &request, const std::atomic_bool *cancelFlag)
{
    SandboxRunner runner;
    QEventLoop loop;
    SandboxResult result;
    bool done = false;
    connect(&runner, &SandboxRunner::finished, &loop, [&](const SandboxResult &r) {
        result = r;
        done = true;
        loop.quit();
    });
    QTimer poll;
    if (cancelFlag) {
        connect(&poll, &QTimer::timeout, &runner, [&] {
            if (cancelFlag->load())
                runner.cancel();
        });
        poll.start(20);
    }
    runner.start(request);
    if (!done)
        loop.exec();
    return result;
}

} // namespace dreamrsi
