#include "projectlock.h"

#include <QFile>
#include <QFileInfo>
#include <QLockFile>

#include <cerrno>
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

namespace dreamrsi::ProjectLock {

QString lockPathFor(const QString &projectPath)
{
    return QFileInfo(projectPath).absoluteFilePath() + QStringLiteral(".lock");
}

Held heldState(const QString &lockPath)
{
    const int fd = ::open(QFile::encodeName(lockPath).constData(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return Held::NoFile;
    bool held = false;
    if (::flock(fd, LOCK_SH | LOCK_NB) == 0)
        ::flock(fd, LOCK_UN);
    else
        held = errno == EWOULDBLOCK;
    ::close(fd);
    return held ? Held::Yes : Held::No;
}

std::optional<WriterInfo> liveWriter(const QString &projectPath)
{
    const QString lockPath = lockPathFor(projectPath);
    if (heldState(lockPath) != Held::Yes)
        return std::nullopt; // no lock file, or one nobody holds: nobody writes the project
    WriterInfo info;
    QLockFile lock(lockPath);
    if (!lock.getLockInfo(&info.pid, &info.host, &info.application)) {
        // Held, but the owner line is not written yet (the writer takes the
        // flock first): a live writer all the same, its pid unknown.
        info.pid = 0;
    }
    return info;
}

} // namespace dreamrsi::ProjectLock
