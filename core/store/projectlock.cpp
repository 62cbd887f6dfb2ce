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

std::optional<WriterInfo> liveWriter(const QString &projectPath)
{
    const QString lockPath = lockPathFor(projectPath);
    const int fd = ::open(QFile::encodeName(lockPath).constData(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return std::nullopt; // no lock file: nobody writes the project
    bool held = false;
    if (::flock(fd, LOCK_SH | LOCK_NB) == 0)
        ::flock(fd, LOCK_UN);
    else
        held = errno == EWOULDBLOCK;
    ::close(fd);
    if (!held)
        return std::nullopt;
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
