#pragma once

#include <QByteArray>
#include <QString>

#include <memory>
#include <optional>

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

    /// Opens `path`; on failure returns null and sets *error.
    static std::unique_ptr<SqliteConnection> open(const QString &path, Mode mode, QString *error);

    sqlite3 *handle() const { return m_db; }
    const QString &path() const { return m_path; }

    /// Runs one or more statements without results; false and *error on failure.
    bool exec(const char *sql, QString *error);
    /// Runs a query returning one integer (e.g. a pragma); nullopt and *error on failure.
    std::optional<qint64> queryInt(const char *sql, QString *error);
    /// The same for one text value.
    std::optional<QString> queryText(const char *sql, QString *error);
    /// sqlite3_errmsg of the connection.
    QString lastError() const;
    int lastErrorCode() const;
    qint64 lastInsertRowId() const;
    int changes() const;

private:
    /// The first column of the first row of `sql`, read by `column`.
    template <typename T, typename Column>
    std::optional<T> queryOne(const char *sql, QString *error, Column column);
    SqliteConnection() = default;
    sqlite3 *m_db = nullptr;
    QString m_path;
};

} // namespace dreamrsi
