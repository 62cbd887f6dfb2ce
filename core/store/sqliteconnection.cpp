#include "sqliteconnection.h"

#include <QUrl>

#include <sqlite3.h>

namespace dreamrsi {

SqliteConnection::~SqliteConnection()
{
    if (m_db)
        sqlite3_close_v2(m_db);
}

Result<std::unique_ptr<SqliteConnection>> SqliteConnection::open(const QString &path, Mode mode)
{
    using Opened = Result<std::unique_ptr<SqliteConnection>>;
    int flags = SQLITE_OPEN_FULLMUTEX;
    switch (mode) {
    case Mode::ReadOnly: flags |= SQLITE_OPEN_READONLY; break;
    case Mode::ReadWrite: flags |= SQLITE_OPEN_READWRITE; break;
    case Mode::Create: flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE; break;
    case Mode::Immutable: flags |= SQLITE_OPEN_READONLY | SQLITE_OPEN_URI; break;
    }
    std::unique_ptr<SqliteConnection> c(new SqliteConnection);
    c->m_path = path;
    const QByteArray name = mode == Mode::Immutable
                                ? QByteArray("file:") + QUrl::toPercentEncoding(path, "/") + QByteArray("?immutable=1")
                                : path.toUtf8();
    const int rc = sqlite3_open_v2(name.constData(), &c->m_db, flags, nullptr);
    if (rc != SQLITE_OK)
        return Opened::failure(c->m_db ? QString::fromUtf8(sqlite3_errmsg(c->m_db)) : QString::fromUtf8(sqlite3_errstr(rc)));
    sqlite3_extended_result_codes(c->m_db, 1);
    return Opened::success(std::move(c));
}

Result<std::unique_ptr<SqliteConnection>> SqliteConnection::memoryCopyOf(SqliteConnection &source)
{
    using Opened = Result<std::unique_ptr<SqliteConnection>>;
    std::unique_ptr<SqliteConnection> c(new SqliteConnection);
    c->m_path = source.m_path;
    const int rc = sqlite3_open_v2(":memory:", &c->m_db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_FULLMUTEX, nullptr);
    if (rc != SQLITE_OK)
        return Opened::failure(c->m_db ? QString::fromUtf8(sqlite3_errmsg(c->m_db)) : QString::fromUtf8(sqlite3_errstr(rc)));
    sqlite3_extended_result_codes(c->m_db, 1);
    sqlite3_backup *backup = sqlite3_backup_init(c->m_db, "main", source.m_db, "main");
    if (!backup)
        return Opened::failure(QStringLiteral("cannot copy the database into memory: %1").arg(c->lastError()));
    const int stepped = sqlite3_backup_step(backup, -1);
    sqlite3_backup_finish(backup);
    if (stepped != SQLITE_DONE)
        return Opened::failure(QStringLiteral("cannot copy the database into memory: %1")
                                   .arg(QString::fromUtf8(sqlite3_errstr(stepped))));
    return Opened::success(std::move(c));
}

Result<Done> SqliteConnection::exec(const char *sql)
{
    char *msg = nullptr;
    const int rc = sqlite3_exec(m_db, sql, nullptr, nullptr, &msg);
    if (rc != SQLITE_OK) {
        const QString why = msg ? QString::fromUtf8(msg) : QString::fromUtf8(sqlite3_errstr(rc));
        sqlite3_free(msg);
        return Result<Done>::failure(why);
    }
    return Result<Done>::success({});
}

template <typename T, typename Column>
Result<T> SqliteConnection::queryOne(const char *sql, Column column)
{
    sqlite3_stmt *stmt = nullptr;
    int rc = sqlite3_prepare_v2(m_db, sql, -1, &stmt, nullptr);
    if (rc != SQLITE_OK) {
        const QString why = lastError();
        sqlite3_finalize(stmt);
        return Result<T>::failure(why);
    }
    rc = sqlite3_step(stmt);
    Result<T> result = rc == SQLITE_ROW ? Result<T>::success(column(stmt))
                                        : Result<T>::failure(rc == SQLITE_DONE ? QStringLiteral("query returned no row")
                                                                                : lastError());
    sqlite3_finalize(stmt);
    return result;
}

Result<qint64> SqliteConnection::queryInt(const char *sql)
{
    return queryOne<qint64>(sql, [](sqlite3_stmt *stmt) { return sqlite3_column_int64(stmt, 0); });
}

Result<QString> SqliteConnection::queryText(const char *sql)
{
    return queryOne<QString>(sql, [](sqlite3_stmt *stmt) {
        return QString::fromUtf8(reinterpret_cast<const char *>(sqlite3_column_text(stmt, 0)));
    });
}

QString SqliteConnection::lastError() const
{
    return QString::fromUtf8(sqlite3_errmsg(m_db));
}

int SqliteConnection::lastErrorCode() const
{
    return sqlite3_extended_errcode(m_db);
}

qint64 SqliteConnection::lastInsertRowId() const
{
    return sqlite3_last_insert_rowid(m_db);
}

int SqliteConnection::changes() const
{
    return sqlite3_changes(m_db);
}

} // namespace dreamrsi
