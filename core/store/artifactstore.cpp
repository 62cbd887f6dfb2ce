#include "artifactstore.h"

#include "sqlitestatement.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryFile>

namespace dreamrsi {

QString ArtifactStore::folderFor(const QString &databasePath)
{
    return QFileInfo(databasePath).absoluteFilePath() + QStringLiteral("-artifacts");
}

QString ArtifactStore::hashOf(const QByteArray &content)
{
    return QString::fromLatin1(QCryptographicHash::hash(content, QCryptographicHash::Sha256).toHex());
}

ArtifactStore::ArtifactStore(QString folder)
    : m_folder(std::move(folder))
{
}

bool ArtifactStore::folderExists() const
{
    return QFileInfo(m_folder).isDir();
}

Result<Done> ArtifactStore::ensureFolder() const
{
    if (!folderExists() && !QDir().mkpath(m_folder))
        return Result<Done>::failure(QStringLiteral("%1: cannot create the artifact folder").arg(m_folder));
    return Result<Done>::success({});
}

QString ArtifactStore::pathOf(const QString &hash) const
{
    return m_folder + QLatin1Char('/') + hash.left(2) + QLatin1Char('/') + hash;
}

bool ArtifactStore::contains(const QString &hash) const
{
    return QFileInfo::exists(pathOf(hash));
}

Result<QString> ArtifactStore::put(const QByteArray &content) const
{
    using Put = Result<QString>;
    const QString hash = hashOf(content);
    const QString path = pathOf(hash);
    const QFileInfo existing(path);
    if (existing.exists() && existing.size() == content.size())
        return Put::success(hash);
    if (const Result<Done> folder = ensureFolder(); !folder)
        return folder.failureAs<QString>();
    if (!QDir().mkpath(existing.absolutePath()))
        return Put::failure(QStringLiteral("%1: cannot create the folder").arg(existing.absolutePath()));
    // Written under a temporary name in the same folder and renamed into
    // place, so a killed process leaves the whole file or none. There is no
    // fsync per artifact (QSaveFile's was most of a live round's per-attempt
    // overhead, serialised on the writer thread): the database itself runs WAL
    // with synchronous = NORMAL, so a power loss may drop the newest commits
    // as well, and an artifact torn by one is caught by its hash on reading
    // and named as corrupted (read()).
    QTemporaryFile file(existing.absolutePath() + QStringLiteral("/.incoming-XXXXXX"));
    if (!file.open() || file.write(content) != content.size() || !file.flush())
        return Put::failure(QStringLiteral("%1: cannot write the artifact: %2").arg(path, file.errorString()));
    // As any new file (QTemporaryFile starts owner-only): others may read.
    file.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ReadGroup | QFileDevice::ReadOther);
    if (existing.exists())
        QFile::remove(path); // a damaged copy of the same hash
    if (!file.rename(path))
        return Put::failure(QStringLiteral("%1: cannot write the artifact: %2").arg(path, file.errorString()));
    file.setAutoRemove(false);
    return Put::success(hash);
}

Result<QByteArray> ArtifactStore::read(const QString &hash) const
{
    using Read = Result<QByteArray>;
    QFile file(pathOf(hash));
    if (!file.open(QIODevice::ReadOnly))
        return Read::failure(
            folderExists()
                ? QStringLiteral("artifact %1 is missing from %2").arg(hash, m_folder)
                : QStringLiteral("artifact %1 is unavailable: the artifact folder %2 is missing").arg(hash, m_folder));
    QByteArray content = file.readAll();
    if (hashOf(content) != hash)
        return Read::failure(
            QStringLiteral("artifact %1 in %2 is corrupted (its content does not match its hash)").arg(hash, m_folder));
    return Read::success(std::move(content));
}

Result<QByteArray> ArtifactStore::read(SqliteConnection &db, const QString &hash) const
{
    using Read = Result<QByteArray>;
    SqliteStatement s(db, "SELECT content FROM artifacts WHERE hash = ?1");
    s.bind(1, hash);
    if (s.step() == SqliteStatement::Step::Row && !s.isNull(0)) {
        QByteArray content = s.blob(0);
        if (hashOf(content) != hash)
            return Read::failure(
                QStringLiteral("artifact %1 in the project file is corrupted (its content does not match its hash)").arg(hash));
        return Read::success(std::move(content));
    }
    return read(hash);
}

} // namespace dreamrsi
