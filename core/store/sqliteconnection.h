#pragma once

#include "base/result.h"

#include <QByteArray>
#include <QString>

#include <memory>

struct sqlite3;
struct sqlite3_stmt;

namespace dreamrsi {

/// A thin owner of one sqlite3 connection (internal to the store). Not
/// copyable; use from one thread at a time.
class SqliteConnection
{
public:
    /// Immutable: read-only, without the WAL index, for a file in a place
    /// nobody may write (SQLite then assumes the file cannot change).
    enum class Mode { ReadOnly, ReadWrite, Create, Immutable };

    ~SqliteConnection();
    SqliteConnection(const SqliteConnection &) = delete;
    SqliteConnection &operator=(const SqliteConnection &) = delete;

    /// Opens `path`; a failure gives SQLite's message.
    static Result<std::unique_ptr<SqliteConnection>> open(const QString &path, Mode mode);
    /// A private in-memory copy of the database `source` holds (read in one
    /// snapshot through SQLite's backup, so a WAL's committed pages are in
    /// it), named after `source`'s path. Changes to the copy never reach the
    /// file: how a reader upgrades an older project without writing it.
    static Result<std::unique_ptr<SqliteConnection>> memoryCopyOf(SqliteConnection &source);

    sqlite3 *handle() const { return m_db; }
    const QString &path() const { return m_path; }

    /// Runs one or more statements without results.
    Result<Done> exec(const char *sql);
    /// Runs a query returning one integer (e.g. a pragma).
    Result<qint64> queryInt(const char *sql);
    /// The same for one text value.
    Result<QString> queryText(const char *sql);
    /// sqlite3_errmsg of the connection.
    QString lastError() const;
    int lastErrorCode() const;
    qint64 lastInsertRowId() const;
    int changes() const;

private:
    /// The first column of the first row of `sql`, read by `column`.
    template <typename T, typename Column>
    Result<T> queryOne(const char *sql, Column column);
    SqliteConnection() = default;
    sqlite3 *m_db = nullptr;
    QString m_path;
};

} // namespace dreamrsi
