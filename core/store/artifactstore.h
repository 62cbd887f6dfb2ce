#pragma once

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
    /// Creates the folder when missing; false and *error on failure.
    bool ensureFolder(QString *error) const;
    QString pathOf(const QString &hash) const;
    bool contains(const QString &hash) const;
    /// Stores `content`; returns its hash, or an empty string and *error.
    QString put(const QByteArray &content, QString *error) const;
    /// Reads and verifies; false and *error when missing or corrupted.
    bool read(const QString &hash, QByteArray *content, QString *error) const;

private:
    QString m_folder;
};

} // namespace dreamrsi
