#include "sandboxresult.h"

#include <csignal>
#include <cstring>

namespace dreamrsi {

namespace {

QString signalName(int sig)
{
    switch (sig) {
    case SIGSEGV: return QStringLiteral("SIGSEGV");
    case SIGABRT: return QStringLiteral("SIGABRT");
    case SIGBUS: return QStringLiteral("SIGBUS");
    case SIGFPE: return QStringLiteral("SIGFPE");
    case SIGILL: return QStringLiteral("SIGILL");
    case SIGKILL: return QStringLiteral("SIGKILL");
    case SIGTERM: return QStringLiteral("SIGTERM");
    case SIGXCPU: return QStringLiteral("SIGXCPU");
    case SIGXFSZ: return QStringLiteral("SIGXFSZ");
    case SIGPIPE: return QStringLiteral("SIGPIPE");
    case SIGTRAP: return QStringLiteral("SIGTRAP");
    default: return QStringLiteral("signal %1").arg(sig);
    }
}

} // namespace

QString SandboxResult::describe() const
{
    const QString after = QStringLiteral(" after %1 ms").arg(wallMs);
    switch (outcome) {
    case Outcome::Exited: return QStringLiteral("exit code %1").arg(exitCode) + after;
    case Outcome::Signaled: return QStringLiteral("killed by %1").arg(signalName(signal)) + after;
    case Outcome::TimedOut: return QStringLiteral("wall-clock limit reached; process group killed") + after;
    case Outcome::OutputLimit: return QStringLiteral("output limit exceeded; process group killed") + after;
    case Outcome::Cancelled: return QStringLiteral("cancelled; process group killed") + after;
    case Outcome::StartFailed: return QStringLiteral("could not start: ") + startError;
    }
    return {};
}

QString SandboxResult::stderrTail(int maxChars) const
{
    QString text = QString::fromUtf8(standardError).trimmed();
    if (text.size() > maxChars)
        text = QStringLiteral("…") + text.right(maxChars);
    return text;
}

} // namespace dreamrsi
