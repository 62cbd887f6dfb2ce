#pragma once

#include "sandboxlimits.h"

#include <QHash>
#include <QString>
#include <QStringList>

namespace dreamrsi {

/// How a child is isolated.
enum class SandboxMode {
    /// Bubblewrap when it works on this machine, else Fallback (said once on stderr).
    Auto,
    /// Bubblewrap only; a machine without it fails the run to start (`env`).
    Bubblewrap,
    /// rlimits + own process group + scrubbed environment; when started as
    /// root also an unprivileged user id of its own and, where the kernel
    /// allows it, an empty network namespace (SandboxRunner::fallbackIsolatesNetwork()).
    /// No filesystem or PID isolation; an unprivileged fallback keeps the network.
    Fallback,
};

/// One program to run in the sandbox.
struct SandboxRequest
{
    /// Executable (absolute path, or a name looked up in PATH).
    QString program;
    QStringList arguments;
    /// Existing directory: the child's working directory and the only place
    /// (besides a private /tmp) it may write. When the runner runs as root the
    /// directory is handed to the sandbox user before the start.
    QString workDir;
    /// File connected to the child's stdin; empty = no input (closed).
    QString stdinFile;
    /// Variables added after scrubbing (see SandboxRunner::scrubbedEnvironment).
    QHash<QString, QString> extraEnvironment;
    SandboxLimits limits;
    SandboxMode mode = SandboxMode::Auto;
    /// Host paths the child must be able to read even where the sandbox hides
    /// them (a task folder under /tmp, which the private /tmp covers).
    QStringList readablePaths;
    /// Bind the NVIDIA device nodes (/dev/nvidia*) into the sandbox.
    bool gpuAccess = false;
    /// Also time the program itself (SandboxResult::programSeconds): from the
    /// moment it is started inside the sandbox, after bubblewrap has set the
    /// sandbox up, to its end. A task that scores time (Lasso) takes that, so
    /// the sandbox's own start (10-20 ms a run) is not counted as the
    /// candidate's.
    bool timeProgram = false;
};

} // namespace dreamrsi
