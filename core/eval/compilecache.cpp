#include "compilecache.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QStandardPaths>

namespace dreamrsi {

QString CompileCache::directory()
{
    QString base = qEnvironmentVariable("DREAMRSI_CACHE_DIR");
    if (base.isEmpty())
        base = QStandardPaths::writableLocation(QStandardPaths::CacheLocation);
    if (base.isEmpty())
        base = QDir::tempPath() + QStringLiteral("/dreamrsi-cache");
    return base + QStringLiteral("/compile");
}

QString CompileCache::key(const QByteArrayList &parts)
{
    QCryptographicHash hash(QCryptographicHash::Sha256);
    for (const QByteArray &part : parts) {
        hash.addData(QByteArray(QByteArray::number(part.size()) + QByteArrayLiteral(":")));
        hash.addData(part);
    }
    return QString::fromLatin1(hash.result().toHex());
}

bool CompileCache::fetch(const QString &key, const QString &destination)
{
    const QString cached = directory() + QLatin1Char('/') + key;
    if (!QFile::exists(cached))
        return false;
    QFile::remove(destination);
    if (!QFile::copy(cached, destination))
        return false;
    return QFile::setPermissions(destination, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner | QFile::ReadGroup
                                                  | QFile::ExeGroup | QFile::ReadOther | QFile::ExeOther);
}

bool CompileCache::store(const QString &key, const QString &builtFile)
{
    const QString dir = directory();
    if (!QDir().mkpath(dir))
        return false;
    const QString target = dir + QLatin1Char('/') + key;
    const QString partial = target + QStringLiteral(".part-%1").arg(quintptr(&target), 0, 16);
    QFile::remove(partial);
    if (!QFile::copy(builtFile, partial))
        return false;
    QFile::remove(target);
    return QFile::rename(partial, target);
}

} // namespace dreamrsi
