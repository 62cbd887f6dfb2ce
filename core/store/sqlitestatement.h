#pragma once

#include <QByteArray>
#include <QString>

#include <optional>

struct sqlite3_stmt;

namespace dreamrsi {

class SqliteConnection;

/// One prepared statement (internal to the store). bind*() take 1-based
/// indices like SQLite; step() returns Row, Done or Error.
class SqliteStatement
{
public:
    enum class Step { Row, Done, Error };

    SqliteStatement(SqliteConnection &db, const char *sql);
    ~SqliteStatement();
    SqliteStatement(const SqliteStatement &) = delete;
    SqliteStatement &operator=(const SqliteStatement &) = delete;

    bool isValid() const { return m_stmt != nullptr; }
    /// Error message of preparation or of the last failed step.
    QString error() const;

    void bindNull(int i);
    void bind(int i, qint64 v);
    void bind(int i, double v);
    void bind(int i, const QString &v);
    /// Binds UTF-8 text.
    void bindText(int i, const QByteArray &utf8);
    void bindBlob(int i, const QByteArray &bytes);
    void bind(int i, const std::optional<QString> &v);
    void bind(int i, const std::optional<double> &v);
    void bind(int i, const std::optional<qint64> &v);

    Step step();
    /// Steps until done; false on error.
    bool run();
    /// Resets for the next execution and clears the bindings.
    void reset();

    bool isNull(int col) const;
    qint64 int64(int col) const;
    double real(int col) const;
    QString text(int col) const;
    QByteArray textUtf8(int col) const;
    QByteArray blob(int col) const;
    std::optional<qint64> optInt(int col) const;
    std::optional<double> optReal(int col) const;
    std::optional<QString> optText(int col) const;

private:
    SqliteConnection &m_db;
    sqlite3_stmt *m_stmt = nullptr;
    QString m_error;
};

} // namespace dreamrsi
