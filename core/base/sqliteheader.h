#pragma once

#include <QByteArray>
#include <QFile>
#include <QString>

namespace dreamrsi {

/// Whether the file at `path` begins as an SQLite 3 database does (its first
/// 16 bytes are "SQLite format 3\0"): a project, a bundle or a ShinkaEvolve
/// run, where a tree file is JSON. Reads those 16 bytes and nothing else,
/// and links no SQLite.
inline bool hasSqliteHeader(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) && f.read(16) == QByteArray("SQLite format 3\0", 16);
}

} // namespace dreamrsi
