// How an evaluation is kept apart from the machine (docs/evaluators.md#the-sandbox):
// who it runs as, its resource limits, its namespaces and what bubblewrap
// shows it. SandboxRunner runs the process; this file decides its cell.
#include "sandboxisolation.h"

#include "sandboxrequest.h"

#include <QDir>
#include <QDirIterator>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>

#include <cerrno>
#include <csignal>
#include <cstring>

#include <grp.h>
#include <pwd.h>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace dreamrsi::SandboxIsolation {

namespace {

constexpr uid_t fallbackNobodyId = 65534;

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

} // namespace

/// As root the child runs unprivileged: root ignores RLIMIT_NPROC and may
/// write anywhere. The group is `nogroup`; the user id is fresh for every run
/// (see allocateRunUid()).
User user()
{
    static const User user = [] {
        User u;
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
    const gid_t gid = user().gid;
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
        if (!user().dropRoot)
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

/// Everything the child does between fork and exec. Only async-signal-safe
/// calls; all values are captured by copy.
std::function<void()> childSetup(const SandboxLimits &limits, bool isolateNetwork, uid_t runUid)
{
    User user = SandboxIsolation::user();
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


const Bubblewrap &bubblewrap()
{
    static const Bubblewrap probe = [] {
        Bubblewrap p;
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
        process.setChildProcessModifier(childSetup(SandboxLimits{}, false, user().uid));
        process.setProgram(p.executable);
        process.setArguments(baseArguments() << QStringLiteral("true"));
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

Result<Done> chownTree(const QString &dir, uid_t uid)
{
    const User runAs = user();
    auto own = [&](const QString &path) {
        if (::lchown(QFile::encodeName(path).constData(), uid, runAs.gid) != 0)
            return Result<Done>::failure(QStringLiteral("cannot hand %1 to the sandbox user: %2")
                                             .arg(path, QString::fromLocal8Bit(std::strerror(errno))));
        return Result<Done>::success({});
    };
    if (Result<Done> owned = own(dir); !owned)
        return owned;
    QDirIterator it(dir, QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot,
                    QDirIterator::Subdirectories);
    while (it.hasNext()) {
        if (Result<Done> owned = own(it.next()); !owned)
            return owned;
    }
    return Result<Done>::success({});
}

QStringList baseArguments()
{
    return {QStringLiteral("--unshare-all"), QStringLiteral("--die-with-parent"),
            QStringLiteral("--ro-bind"),     QStringLiteral("/"),
            QStringLiteral("/"),             QStringLiteral("--dev"),
            QStringLiteral("/dev"),          QStringLiteral("--proc"),
            QStringLiteral("/proc"),         QStringLiteral("--tmpfs"),
            QStringLiteral("/tmp")};
}

QStringList bubblewrapArguments(const SandboxRequest &request, const QString &workDir)
{
    QStringList args = baseArguments();
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
    return args;
}

} // namespace dreamrsi::SandboxIsolation
