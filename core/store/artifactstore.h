#pragma once

#include "base/result.h"

#include <QByteArray>
#include <QString>

namespace dreamrsi {

/// The content-addressed artifact folder beside a project database
/// (internal). A file's name is the lowercase hex SHA-256 of its content,
/// under a two-character fan-out folder: `<dir>/ab/abcdef…`. Files are
/// written atomically (temporary file, fsync, rename) before the database
/// row that refers to them, so a crash leaves at most an unreferenced file.
class ArtifactStore
{
public:
    /// `<database path>-artifacts`.
    static QString folderFor(const QString &databasePath);
    static QString hashOf(const QByteArray &content);

    explicit ArtifactStore(QString folder);

    const QString &folder() const { return m_folder; }
    bool folderExists() const;
    /// Creates the folder when missing.
    Result<Done> ensureFolder() const;
    QString pathOf(const QString &hash) const;
    bool contains(const QString &hash) const;
    /// Stores `content`; its hash.
    Result<QString> put(const QByteArray &content) const;
    /// Reads and verifies; a failure when missing or corrupted.
    Result<QByteArray> read(const QString &hash) const;

private:
    QString m_folder;
};

} // namespace dreamrsi
