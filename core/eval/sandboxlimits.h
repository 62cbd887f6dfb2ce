#pragma once

#include <QtGlobal>

namespace dreamrsi {

/// Resource limits of one sandboxed child process.
///
/// Every limit is enforced on the child before it executes anything (rlimits
/// set by the process modifier), except `wallMs` and `outputBytes`, which the
/// runner enforces from the parent by killing the child's whole process group.
/// A value of 0 means "no limit" for that resource.
struct SandboxLimits
{
    /// Wall-clock limit. On expiry the process group gets SIGTERM, then
    /// SIGKILL after `termGraceMs`.
    int wallMs = 10'000;
    /// Grace between SIGTERM and SIGKILL when the wall clock expires.
    int termGraceMs = 200;
    /// RLIMIT_CPU in seconds (soft; the hard limit is one second more).
    int cpuSeconds = 10;
    /// RLIMIT_AS in bytes.
    qint64 addressSpaceBytes = qint64(4) << 30;
    /// RLIMIT_FSIZE in bytes: the largest file the child may write.
    qint64 fileSizeBytes = qint64(64) << 20;
    /// RLIMIT_NPROC: processes and threads of the sandbox user. When the
    /// runner runs as root it switches the child to an unprivileged user id of
    /// its own (root ignores RLIMIT_NPROC), so this bounds a fork bomb. For an
    /// ordinary user the limit is this many on top of what the user already
    /// runs (the kernel counts per user, not per process tree).
    int maxProcesses = 128;
    /// Cap on captured stdout and on captured stderr (each). A child that
    /// writes more is killed and the run reports OutputLimit.
    qint64 outputBytes = qint64(8) << 20;
};

} // namespace dreamrsi
