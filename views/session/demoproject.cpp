#include "demoproject.h"

#include "jobtracker.h"
#include "projectsession.h"

#include "store/projectlock.h"
#include "store/projectstore.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSaveFile>
#include <QStandardPaths>

namespace dreamrsi {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("dreamrsi::DemoProject", text);
}

QString copyPathFor(const QByteArray &content)
{
    const QString stamp = QString::fromLatin1(QCryptographicHash::hash(content, QCryptographicHash::Sha256).toHex().left(12));
    return QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation)
           + QStringLiteral("/demo-%1.dreamrsi").arg(stamp);
}

} // namespace

QString DemoProject::copyPath() const
{
    QFile bundled(file);
    if (!bundled.open(QIODevice::ReadOnly))
        return {};
    return copyPathFor(bundled.readAll());
}

Result<QString> DemoProject::install(Mode mode) const
{
    QFile bundled(file);
    const QByteArray content = bundled.open(QIODevice::ReadOnly) ? bundled.readAll() : QByteArray();
    if (content.isEmpty())
        return Result<QString>::failure(tr("Cannot read the bundled demo project %1").arg(file));
    const QString copy = copyPathFor(content);
    if (mode == Mode::KeepExisting && QFileInfo::exists(copy))
        return Result<QString>::success(copy);
    // The file first: a crash half-way leaves a copy without its file, made again next time.
    for (const QString &suffix : {QString(), QStringLiteral("-wal"), QStringLiteral("-shm"), QStringLiteral("-journal")}) {
        const QString path = copy + suffix;
        if (QFileInfo::exists(path) && !QFile::remove(path))
            return Result<QString>::failure(tr("Cannot remove %1").arg(QDir::toNativeSeparators(path)));
    }
    const QString artifactCopy = copy + QStringLiteral("-artifacts");
    if (QFileInfo::exists(artifactCopy) && !QDir(artifactCopy).removeRecursively())
        return Result<QString>::failure(tr("Cannot remove %1").arg(QDir::toNativeSeparators(artifactCopy)));
    if (!QDir().mkpath(QFileInfo(copy).absolutePath()))
        return Result<QString>::failure(tr("Cannot copy the demo project to %1").arg(QDir::toNativeSeparators(copy)));
    // Artifacts first: a project file without its folder would open with missing artifacts.
    QDirIterator it(artifacts, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString source = it.next();
        const QString target = artifactCopy + source.mid(artifacts.size());
        if (!QDir().mkpath(QFileInfo(target).absolutePath()) || !QFile::copy(source, target)
            || !QFile::setPermissions(target, QFileDevice::ReadOwner | QFileDevice::WriteOwner))
            return Result<QString>::failure(tr("Cannot copy the demo project to %1").arg(QDir::toNativeSeparators(target)));
    }
    QSaveFile out(copy);
    if (!out.open(QIODevice::WriteOnly) || out.write(content) != content.size() || !out.commit())
        return Result<QString>::failure(tr("Cannot copy the demo project to %1").arg(QDir::toNativeSeparators(copy)));
    return Result<QString>::success(copy);
}

bool DemoProject::isDemoCopy(const QString &path)
{
    // The bundled demo's private copy (app/workbench/main.cpp): demo-<12 hex
    // of its content>.dreamrsi in the application's data folder.
    static const QRegularExpression copy(QStringLiteral("^demo-[0-9a-f]{12}\\.dreamrsi$"));
    const QFileInfo info(path);
    return copy.match(info.fileName()).hasMatch()
           && QDir(info.absolutePath()) == QDir(QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation));
}

void replaceDemoCopy(const DemoProject &demo, ProjectSession *session, JobTracker *jobs, QObject *context,
                     std::function<void(DemoReplacement)> done)
{
    const QString copy = session->path();
    // The copy's files are replaced only once the store has let go of them;
    // the session's answers still on their way belong to the old copy
    // (ProjectSession's scope, renewed as opening another project does).
    jobs->renew(QStringLiteral("project"));
    jobs->then(QStringLiteral("reset demo"), session->store()->close(), context,
               [demo, copy, done = std::move(done)](StoreResult<Done>) {
                   DemoReplacement replaced{copy, ProjectLock::liveWriter(copy), {}};
                   if (!replaced.writer)
                       replaced.made = demo.install(DemoProject::Mode::Replace);
                   done(std::move(replaced));
               });
}

} // namespace dreamrsi
