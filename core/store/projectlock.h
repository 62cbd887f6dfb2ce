#pragma once

#include "storetypes.h"

#include <QString>

#include <optional>

namespace dreamrsi::ProjectLock {

/// The lock file that ProjectWriter holds while a process writes `projectPath`.
QString lockPathFor(const QString &projectPath);

/// Whether a process holds the flock(2) of `lockPath` (the probe described
/// at liveWriter()); NoFile when there is no such file.
enum class Held
{
    Yes,
    No,
    NoFile
};
Held heldState(const QString &lockPath);

/// The live process holding `projectPath` for writing, or nullopt when no
/// process holds it (no lock file, or one left by a process that died).
///
/// This is the project's liveness signal: the writer keeps an flock(2) on
/// the lock file for as long as it is open, and the kernel drops it when the
/// process ends in any way (SIGKILL included). Only the writer begins and
/// finishes rounds, so an iteration still `running` in a project held by a
/// live process is that process's round, in progress; one still `running`
/// in a project nobody holds was interrupted.
///
/// The probe takes a shared flock for an instant when the file is free. A
/// probe from the holder's own process reports the holder too (a second
/// open file description conflicts with the first).
std::optional<WriterInfo> liveWriter(const QString &projectPath);

} // namespace dreamrsi::ProjectLock
