#pragma once

#include <QByteArray>
#include <QMetaType>
#include <QString>

#include <optional>

namespace dreamrsi {

/// What happened to one sandboxed child. A value type, safe to copy between threads.
struct SandboxResult
{
    enum class Outcome {
        Exited,      ///< ran to its end; see exitCode
        Signaled,    ///< died of a signal it did not get from the runner; see signal
        TimedOut,    ///< wall-clock limit reached; the process group was killed
        OutputLimit, ///< wrote more than SandboxLimits::outputBytes; killed
        Cancelled,   ///< SandboxRunner::cancel(); killed
        StartFailed, ///< never ran (missing program, sandbox unusable); see startError
    };

    Outcome outcome = Outcome::StartFailed;
    int exitCode = -1; ///< valid for Exited
    int signal = 0;    ///< valid for Signaled (SIGSEGV, SIGXCPU, SIGXFSZ, …)
    QByteArray standardOutput; ///< at most SandboxLimits::outputBytes
    QByteArray standardError;  ///< at most SandboxLimits::outputBytes
    qint64 wallMs = 0;         ///< from start to the child's end
    double wallSeconds = 0.0;  ///< same, with sub-millisecond resolution
    /// With SandboxRequest::timeProgram: from the program's start inside the
    /// sandbox to the child's end; none when it could not be measured.
    std::optional<double> programSeconds;
    qint64 processGroup = 0;   ///< the child's process group id (0 when it never started)
    qint64 userId = -1;        ///< the user id the child ran as
    bool bubblewrap = false;   ///< isolated by bubblewrap (false: fallback)
    QString startError;        ///< for StartFailed: what went wrong

    bool succeeded() const { return outcome == Outcome::Exited && exitCode == 0; }
    /// One line for humans: "exit 0 after 12 ms", "killed by SIGSEGV", …
    QString describe() const;
    /// The last `maxChars` characters of stderr, lossily decoded; for messages.
    QString stderrTail(int maxChars = 800) const;
};

} // namespace dreamrsi

Q_DECLARE_METATYPE(dreamrsi::SandboxResult)
