#pragma once

#include "base/result.h"

#include <QByteArray>
#include <QString>

namespace dreamrsi {

class SqliteConnection;

/// The content-addressed artifact folder beside a project database
/// (internal). A file's name is the lowercase hex SHA-256 of its content,
/// under a two-character fan-out folder: `<dir>/ab/abcdef…`. Files are
/// written atomically (temporary file, rename) before the database row that
/// refers to them, so a crash leaves at most an unreferenced file.
///
/// Since schema 12 an artifact of at most InlineLimit bytes is kept in its
/// `artifacts` row instead (the `content` column), so that a project file
/// copied alone still shows every proposal, program and log; only larger
/// ones, and those of older projects, are files here.
class ArtifactStore
{
public:
    static constexpr qint64 InlineLimit = qint64(1) << 20;

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
    /// The artifact from its row in `db` when it is kept there, else from
    /// the folder; verified either way.
    Result<QByteArray> read(SqliteConnection &db, const QString &hash) const;

private:
    QString m_folder;
};

} // namespace dreamrsi
