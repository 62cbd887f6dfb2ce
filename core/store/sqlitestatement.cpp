#include "sqlitestatement.h"

#include "sqliteconnection.h"

#include <sqlite3.h>

namespace dreamrsi {

SqliteStatement::SqliteStatement(SqliteConnection &db, const char *sql)
    : m_db(db)
{
    if (sqlite3_prepare_v3(db.handle(), sql, -1, SQLITE_PREPARE_PERSISTENT, &m_stmt, nullptr) != SQLITE_OK) {
        m_error = db.lastError();
        sqlite3_finalize(m_stmt);
        m_stmt = nullptr;
    }
}

SqliteStatement::~SqliteStatement()
{
    sqlite3_finalize(m_stmt);
}

QString SqliteStatement::error() const
{
    return m_error;
}

void SqliteStatement::bindNull(int i)
{
    sqlite3_bind_null(m_stmt, i);
}

void SqliteStatement::bind(int i, qint64 v)
{
    sqlite3_bind_int64(m_stmt, i, v);
}

void SqliteStatement::bind(int i, double v)
{
    sqlite3_bind_double(m_stmt, i, v);
}

void SqliteStatement::bind(int i, const QString &v)
{
    bindText(i, v.toUtf8());
}

void SqliteStatement::bindText(int i, const QByteArray &utf8)
{
    sqlite3_bind_text64(m_stmt, i, utf8.constData(), sqlite3_uint64(utf8.size()), SQLITE_TRANSIENT, SQLITE_UTF8);
}

void SqliteStatement::bindBlob(int i, const QByteArray &bytes)
{
    sqlite3_bind_blob64(m_stmt, i, bytes.constData(), sqlite3_uint64(bytes.size()), SQLITE_TRANSIENT);
}

void SqliteStatement::bind(int i, const std::optional<QString> &v)
{
    if (v)
        bind(i, *v);
    else
        bindNull(i);
}

void SqliteStatement::bind(int i, const std::optional<double> &v)
{
    if (v)
        bind(i, *v);
    else
        bindNull(i);
}

void SqliteStatement::bind(int i, const std::optional<qint64> &v)
{
    if (v)
        bind(i, *v);
    else
        bindNull(i);
}

SqliteStatement::Step SqliteStatement::step()
{
    if (!m_stmt)
        return Step::Error;
    const int rc = sqlite3_step(m_stmt);
    if (rc == SQLITE_ROW)
        return Step::Row;
    if (rc == SQLITE_DONE)
        return Step::Done;
    m_error = m_db.lastError();
    return Step::Error;
}

bool SqliteStatement::run()
{
    for (;;) {
        switch (step()) {
        case Step::Row: continue;
        case Step::Done: return true;
        case Step::Error: return false;
        }
    }
}

void SqliteStatement::reset()
{
    sqlite3_reset(m_stmt);
    sqlite3_clear_bindings(m_stmt);
}

bool SqliteStatement::isNull(int col) const
{
    return sqlite3_column_type(m_stmt, col) == SQLITE_NULL;
}

qint64 SqliteStatement::int64(int col) const
{
    return sqlite3_column_int64(m_stmt, col);
}

double SqliteStatement::real(int col) const
{
    return sqlite3_column_double(m_stmt, col);
}

QString SqliteStatement::text(int col) const
{
    const auto *p = reinterpret_cast<const char *>(sqlite3_column_text(m_stmt, col));
    return QString::fromUtf8(p, sqlite3_column_bytes(m_stmt, col));
}

QByteArray SqliteStatement::textUtf8(int col) const
{
    const auto *p = reinterpret_cast<const char *>(sqlite3_column_text(m_stmt, col));
    return QByteArray(p, sqlite3_column_bytes(m_stmt, col));
}

QByteArray SqliteStatement::blob(int col) const
{
    const auto *p = static_cast<const char *>(sqlite3_column_blob(m_stmt, col));
    return QByteArray(p, sqlite3_column_bytes(m_stmt, col));
}

std::optional<qint64> SqliteStatement::optInt(int col) const
{
    if (isNull(col))
        return std::nullopt;
    return int64(col);
}

std::optional<double> SqliteStatement::optReal(int col) const
{
    if (isNull(col))
        return std::nullopt;
    return real(col);
}

std::optional<QString> SqliteStatement::optText(int col) const
{
    if (isNull(col))
        return std::nullopt;
    return text(col);
}

} // namespace dreamrsi
