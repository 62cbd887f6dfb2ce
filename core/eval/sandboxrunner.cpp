#include "sandboxrunner.h"

#include <QDir>
#include <QDirIterator>
#include <QEventLoop>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTimer>

#include <cerrno>
#include <csignal>
#include <atomic>
#include <mutex>

#include <grp.h>
#include <sched.h>
#include <pwd.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace dreamrsi {

namespace {

constexpr uid_t fallbackNobodyId = 65534;

struct SandboxUser
{
    bool dropRoot = false;
    uid_t uid = 0;
    gid_t gid = 0;
};

/// As root the child runs unprivileged: root ignores RLIMIT_NPROC and may
/// write anywhere. The group is `nogroup`; the user id is fresh for every run
/// (see allocateRunUid()).
SandboxUser sandboxUser()
{
    static const SandboxUser user = [] {
        SandboxUser u;
        if (::geteuid() != 0)
            return u;
        u.dropRoot = true;
        u.uid = fallbackNobodyId;
        u.gid = fallbackNobodyId;
        if (const passwd *pw = ::getpwnam("nobody")) {
            u.uid = pw->pw_uid;
            u.gid = pw->pw_gid;
        }
        return u;
    }();
    return user;
}

/// A user id of its own for each run started as root, outside the range of
/// real accounts: RLIMIT_NPROC then counts this run alone, and when the run
/// ends every process of that user can be killed, including one that left
/// the process group (setsid) in the fallback mode.
uid_t allocateRunUid()
{
    static std::atomic<quint32> counter{0};
    constexpr quint32 base = 1'500'000'000;
    return uid_t(base + (quint32(::getpid()) % 100'000) * 1000 + counter.fetch_add(1) % 1000);
}

/// Kills every process of `uid` (never 0): a helper process takes that user id
/// and signals everything it may signal, which is exactly that user's processes.
void killAllOf(uid_t uid)
{
    if (uid == 0)
        return;
    const gid_t gid = sandboxUser().gid;
    const pid_t helper = ::fork();
    if (helper == 0) {
        if (::setgroups(0, nullptr) == 0 && ::setgid(gid) == 0 && ::setuid(uid) == 0)
            ::kill(-1, SIGKILL);
        ::_exit(0);
    }
    if (helper > 0) {
        int status = 0;
        while (::waitpid(helper, &status, 0) < 0 && errno == EINTR) {
        }
    }
}

/// Whether this process may give a child an empty network namespace (root
/// with CAP_SYS_ADMIN; a container may deny it). Probed once, in a child.
bool networkNamespaceWorks()
{
    static const bool works = [] {
        if (!sandboxUser().dropRoot)
            return false;
        const pid_t child = ::fork();
        if (child == 0)
            ::_exit(::unshare(CLONE_NEWNET) == 0 ? 0 : 1);
        if (child < 0)
            return false;
        int status = 0;
        while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
        }
        return WIFEXITED(status) && WEXITSTATUS(status) == 0;
    }();
    return works;
}

rlim_t asLimit(qint64 value)
{
    return value > 0 ? rlim_t(value) : RLIM_INFINITY;
}

/// Processes and threads the current (unprivileged) user runs now: an
/// RLIMIT_NPROC below it would stop the sandbox from starting at all.
rlim_t processesOfCurrentUser()
{
    const uid_t uid = ::getuid();
    rlim_t count = 0;
    const QStringList entries = QDir(QStringLiteral("/proc")).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    for (const QString &entry : entries) {
        bool numeric = false;
        entry.toInt(&numeric);
        if (!numeric)
            continue;
        struct stat st {};
        if (::stat(QFile::encodeName(QStringLiteral("/proc/") + entry).constData(), &st) != 0 || st.st_uid != uid)
            continue;
        const QDir tasks(QStringLiteral("/proc/%1/task").arg(entry));
        count += rlim_t(qMax<qsizetype>(1, tasks.entryList(QDir::Dirs | QDir::NoDotAndDotDot).size()));
    }
    return count;
}

/// Everything the child does between fork and exec. Only async-signal-safe
/// calls; all values are captured by copy.
std::function<void()> childSetup(const SandboxLimits &limits, bool isolateNetwork, uid_t runUid)
{
    SandboxUser user = sandboxUser();
    if (user.dropRoot)
        user.uid = runUid;
    const rlim_t as = asLimit(limits.addressSpaceBytes);
    const rlim_t fsize = asLimit(limits.fileSizeBytes);
    const rlim_t cpuSoft = limits.cpuSeconds > 0 ? rlim_t(limits.cpuSeconds) : RLIM_INFINITY;
    const rlim_t cpuHard = limits.cpuSeconds > 0 ? rlim_t(limits.cpuSeconds + 1) : RLIM_INFINITY;
    // RLIMIT_NPROC counts every process of the user: a run's own user runs nothing
    // else, an ordinary user does, so the budget comes on top of those.
    const rlim_t nproc = limits.maxProcesses <= 0 ? RLIM_INFINITY
                         : user.dropRoot      ? rlim_t(limits.maxProcesses)
                                              : processesOfCurrentUser() + rlim_t(limits.maxProcesses);
    return [=] {
        ::setsid();
        ::prctl(PR_SET_PDEATHSIG, SIGKILL);
        ::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
        const rlimit core{0, 0};
        const rlimit asl{as, as};
        const rlimit fsl{fsize, fsize};
        const rlimit cpul{cpuSoft, cpuHard};
        const rlimit npl{nproc, nproc};
        if (::setrlimit(RLIMIT_CORE, &core) != 0 || ::setrlimit(RLIMIT_AS, &asl) != 0
            || ::setrlimit(RLIMIT_FSIZE, &fsl) != 0 || ::setrlimit(RLIMIT_CPU, &cpul) != 0
            || ::setrlimit(RLIMIT_NPROC, &npl) != 0)
            ::_exit(126);
        // Without bubblewrap, root can still give the child an empty network
        // namespace (loopback down, no interfaces) before dropping privileges.
        if (isolateNetwork && user.dropRoot && ::unshare(CLONE_NEWNET) != 0)
            ::_exit(126);
        if (user.dropRoot) {
            if (::setgroups(0, nullptr) != 0 || ::setgid(user.gid) != 0 || ::setuid(user.uid) != 0)
                ::_exit(126);
        }
    };
}

struct BubblewrapProbe
{
    QString executable;
    QString problem;
};

const BubblewrapProbe &bubblewrapProbe()
{
    static const BubblewrapProbe probe = [] {
        BubblewrapProbe p;
        const QByteArray forced = qgetenv("DREAMRSI_SANDBOX");
        if (forced == "fallback") {
            p.problem = QStringLiteral("bubblewrap disabled by DREAMRSI_SANDBOX=fallback");
            return p;
        }
        p.executable = QStandardPaths::findExecutable(QStringLiteral("bwrap"));
        if (p.executable.isEmpty()) {
            p.problem = QStringLiteral("bubblewrap (bwrap) is not installed or not in PATH");
            return p;
        }
        QProcess process;
        process.setChildProcessModifier(childSetup(SandboxLimits{}, false, sandboxUser().uid));
        process.setProgram(p.executable);
        process.setArguments({QStringLiteral("--unshare-all"), QStringLiteral("--die-with-parent"),
                              QStringLiteral("--ro-bind"), QStringLiteral("/"), QStringLiteral("/"),
                              QStringLiteral("--dev"), QStringLiteral("/dev"), QStringLiteral("--proc"),
                              QStringLiteral("/proc"), QStringLiteral("--tmpfs"), QStringLiteral("/tmp"),
                              QStringLiteral("true")});
        process.start();
        if (!process.waitForFinished(10'000)) {
            process.kill();
            process.waitForFinished(1000);
            p.problem = QStringLiteral("bubblewrap did not start a trivial sandbox: ") + process.errorString();
        } else if (process.exitStatus() != QProcess::NormalExit || process.exitCode() != 0) {
            p.problem = QStringLiteral("bubblewrap cannot create a sandbox here (user namespaces unavailable?): ")
                        + QString::fromUtf8(process.readAllStandardError()).trimmed();
        }
        if (!p.problem.isEmpty())
            p.executable.clear();
        return p;
    }();
    return probe;
}

/// Checks that the sandbox user can reach `dir` (every ancestor searchable by others).
QString checkReachable(const QString &dir, uid_t uid)
{
    QString path = QFileInfo(dir).absolutePath();
    while (!path.isEmpty() && path != QLatin1String("/")) {
        struct stat st {};
        if (::stat(QFile::encodeName(path).constData(), &st) == 0 && !(st.st_mode & S_IXOTH)
            && st.st_uid != uid)
            return QStringLiteral("the sandbox user cannot enter %1 (mode %2); place work directories "
                                  "under a world-searchable directory such as /tmp")
                .arg(path, QString::number(st.st_mode & 07777, 8));
        path = QFileInfo(path).absolutePath();
        if (path == QFileInfo(path).absolutePath() && path == QLatin1String("/"))
            break;
    }
    return {};
}

bool chownTree(const QString &dir, uid_t uid, QString *error)
{
    const SandboxUser user = sandboxUser();
    auto own = [&](const QString &path) {
        if (::lchown(QFile::encodeName(path).constData(), uid, user.gid) != 0) {
            *error = QStringLiteral("cannot hand %1 to the sandbox user: %2")
                         .arg(path, QString::fromLocal8Bit(std::strerror(errno)));
            return false;
        }
        return true;
    };
    if (!own(dir))
        return false;
    QDirIterator it(dir, QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot,
                    QDirIterator::Subdirectories);
    while (it.hasNext()) {
        if (!own(it.next()))
            return false;
    }
    return true;
}

} // namespace

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
    if (m_pgid > 0 && sandboxUser().dropRoot)
        killAllOf(m_uid);
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
    return !bubblewrapProbe().executable.isEmpty();
}

QString SandboxRunner::bubblewrapProblem()
{
    return bubblewrapProbe().problem;
}

bool SandboxRunner::fallbackIsolatesNetwork()
{
    return networkNamespaceWorks();
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
                 !sandboxUser().dropRoot      ? ", network reachable"
                 : networkNamespaceWorks()     ? ", own unprivileged user, no network"
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
    m_uid = sandboxUser().dropRoot ? allocateRunUid() : ::getuid();
    m_result.userId = qint64(m_uid);
    if (sandboxUser().dropRoot) {
        QString problem = checkReachable(workDir, m_uid);
        if (problem.isEmpty())
            chownTree(workDir, m_uid, &problem);
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
    m_process->setChildProcessModifier(
        childSetup(request.limits, mode == SandboxMode::Fallback && networkNamespaceWorks(), m_uid));

    if (mode == SandboxMode::Bubblewrap) {
        m_result.bubblewrap = true;
        QStringList args{QStringLiteral("--unshare-all"), QStringLiteral("--die-with-parent"),
                         QStringLiteral("--ro-bind"),     QStringLiteral("/"),
                         QStringLiteral("/"),             QStringLiteral("--dev"),
                         QStringLiteral("/dev"),          QStringLiteral("--proc"),
                         QStringLiteral("/proc"),         QStringLiteral("--tmpfs"),
                         QStringLiteral("/tmp")};
        if (request.gpuAccess) {
            const QStringList nodes = QDir(QStringLiteral("/dev"))
                                          .entryList({QStringLiteral("nvidia*")}, QDir::System | QDir::Files);
            for (const QString &node : nodes)
                args << QStringLiteral("--dev-bind") << QStringLiteral("/dev/") + node << QStringLiteral("/dev/") + node;
        }
        // The private /tmp hides the host's /tmp: files the command names there
        // (a candidate or evaluator script in a checkout under /tmp) are bound
        // back read-only, each on its own.
        // Paths are found inside arguments too, as in `sh -c "python3 /tmp/x/eval.py"`.
        static const QRegularExpression tmpPath(QStringLiteral("(/tmp/[^\\s'\"]+)"));
        QStringList named{request.program};
        named += request.arguments;
        named += request.readablePaths;
        QStringList bound;
        for (const QString &argument : std::as_const(named)) {
            for (const QRegularExpressionMatch &m : tmpPath.globalMatch(argument)) {
                const QString clean = QDir::cleanPath(m.captured(1));
                if (!clean.startsWith(workDir + QLatin1Char('/')) && clean != workDir && !bound.contains(clean)
                    && QFileInfo::exists(clean)) {
                    args << QStringLiteral("--ro-bind") << clean << clean;
                    bound.append(clean);
                }
            }
        }
        args << QStringLiteral("--bind") << workDir << workDir << QStringLiteral("--chdir") << workDir
             << QStringLiteral("--") << request.program;
        args += request.arguments;
        m_process->setProgram(bubblewrapProbe().executable);
        m_process->setArguments(args);
    } else {
        m_process->setProgram(request.program);
        m_process->setArguments(request.arguments);
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
    // Whatever is left in the group (a daemonised grandchild) goes with the
    // child; as root, so does anything else running as this run's user.
    killGroup(SIGKILL);
    if (sandboxUser().dropRoot)
        killAllOf(m_uid);
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
