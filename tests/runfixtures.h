#pragma once

// Fixture runs of OpenEvolve and ShinkaEvolve written by the tests themselves
// (the layout their writers use: README "Opening OpenEvolve and ShinkaEvolve
// runs"), for tst_runimport and tst_runimport_cli.

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <sqlite3.h>

#include <optional>

namespace dreamrsi::test {

/// One OpenEvolve program file's object. `parent` empty: no parent (null).
inline QJsonObject oeProgram(const QString &id, const QString &parent, double timestamp, const QJsonObject &metrics,
                             const QJsonObject &metadata = {}, const QJsonObject &extra = {})
{
    QJsonObject o{{QStringLiteral("id"), id},
                  {QStringLiteral("code"), QStringLiteral("# program %1\nprint(%2)\n").arg(id).arg(timestamp)},
                  {QStringLiteral("language"), QStringLiteral("python")},
                  {QStringLiteral("parent_id"), parent.isEmpty() ? QJsonValue() : QJsonValue(parent)},
                  {QStringLiteral("generation"), 1},
                  {QStringLiteral("timestamp"), timestamp},
                  {QStringLiteral("iteration_found"), int(timestamp)},
                  {QStringLiteral("metrics"), metrics},
                  {QStringLiteral("complexity"), 0.0},
                  {QStringLiteral("diversity"), 0.0},
                  {QStringLiteral("metadata"), metadata}};
    for (auto it = extra.constBegin(); it != extra.constEnd(); ++it)
        o.insert(it.key(), it.value());
    return o;
}

inline QJsonObject score(double s)
{
    return QJsonObject{{QStringLiteral("combined_score"), s}};
}

/// Writes `programs` as `folder`/programs/<id>.json and a metadata.json.
inline bool writeOeFolder(const QString &folder, const QList<QJsonObject> &programs)
{
    if (!QDir().mkpath(folder + QStringLiteral("/programs")))
        return false;
    for (const QJsonObject &p : programs) {
        QFile f(QStringLiteral("%1/programs/%2.json").arg(folder, p.value(QStringLiteral("id")).toString()));
        if (!f.open(QIODevice::WriteOnly) || f.write(QJsonDocument(p).toJson(QJsonDocument::Compact)) < 0)
            return false;
    }
    QFile meta(folder + QStringLiteral("/metadata.json"));
    return meta.open(QIODevice::WriteOnly) && meta.write("{\"islands\": [], \"last_iteration\": 0}") > 0;
}

inline bool writeFile(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

/// One row of ShinkaEvolve's `programs` table.
struct ShinkaRow
{
    ShinkaRow(QString id_, QString parent_, double timestamp_, bool correct_, std::optional<double> combined_)
        : id(std::move(id_)), parent(std::move(parent_)), timestamp(timestamp_), correct(correct_), combined(combined_)
    {
    }
    QString id;
    QString parent; ///< empty: NULL
    double timestamp = 0.0;
    bool correct = true;
    std::optional<double> combined;
    QJsonObject publicMetrics;
    QJsonObject metadata;
    QString feedback;
    QString diff;
    QStringList archive;
    QStringList topK;
    int island = 0;
    int generation = 0;
};

/// Writes a ShinkaEvolve database with `rows`; `attemptLog`: whether the
/// table exists (newer releases), `failedAttempts` failed rows in it (and
/// one row that did not fail).
inline bool writeShinkaDb(const QString &path, const QList<ShinkaRow> &rows, bool attemptLog = false, int failedAttempts = 0)
{
    sqlite3 *db = nullptr;
    if (sqlite3_open(QFile::encodeName(path).constData(), &db) != SQLITE_OK) {
        sqlite3_close(db);
        return false;
    }
    QByteArray sql =
        "CREATE TABLE programs (id TEXT PRIMARY KEY, code TEXT NOT NULL, language TEXT NOT NULL, parent_id TEXT,"
        " archive_inspiration_ids TEXT, top_k_inspiration_ids TEXT, generation INTEGER NOT NULL,"
        " timestamp REAL NOT NULL, code_diff TEXT, combined_score REAL, public_metrics TEXT, private_metrics TEXT,"
        " text_feedback TEXT, complexity REAL, embedding TEXT, correct BOOLEAN DEFAULT 0,"
        " children_count INTEGER NOT NULL DEFAULT 0, metadata TEXT, migration_history TEXT, island_idx INTEGER);"
        "CREATE TABLE archive (program_id TEXT PRIMARY KEY);"
        "CREATE TABLE metadata_store (key TEXT PRIMARY KEY, value TEXT);";
    if (attemptLog) {
        sql += "CREATE TABLE attempt_log (id INTEGER PRIMARY KEY AUTOINCREMENT, generation INTEGER NOT NULL,"
               " stage TEXT NOT NULL, status TEXT NOT NULL, details TEXT, created_at REAL NOT NULL);";
        for (int i = 0; i < failedAttempts; ++i)
            sql += "INSERT INTO attempt_log (generation, stage, status, details, created_at) VALUES (" + QByteArray::number(i)
                   + ", 'patch', 'failed', '{\"node_kind\": \"failed_proposal\"}', 1.0);";
        sql += "INSERT INTO attempt_log (generation, stage, status, details, created_at) VALUES (0, 'eval', 'ok', NULL, 1.0);";
    }
    bool ok = sqlite3_exec(db, sql.constData(), nullptr, nullptr, nullptr) == SQLITE_OK;
    sqlite3_stmt *s = nullptr;
    ok = ok
         && sqlite3_prepare_v2(db,
                               "INSERT INTO programs (id, code, language, parent_id, archive_inspiration_ids,"
                               " top_k_inspiration_ids, generation, timestamp, code_diff, combined_score, public_metrics,"
                               " private_metrics, text_feedback, correct, metadata, island_idx)"
                               " VALUES (?1, ?2, 'python', ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, '{}', ?11, ?12, ?13, ?14)",
                               -1, &s, nullptr)
                == SQLITE_OK;
    for (const ShinkaRow &r : rows) {
        if (!ok)
            break;
        const auto text = [s](int i, const QString &v) {
            const QByteArray utf8 = v.toUtf8();
            sqlite3_bind_text(s, i, utf8.constData(), int(utf8.size()), SQLITE_TRANSIENT);
        };
        const auto json = [&text](int i, const QJsonValue &v) {
            text(i, QString::fromUtf8(v.isArray() ? QJsonDocument(v.toArray()).toJson(QJsonDocument::Compact)
                                                  : QJsonDocument(v.toObject()).toJson(QJsonDocument::Compact)));
        };
        text(1, r.id);
        text(2, QStringLiteral("def run():\n    return '%1'\n").arg(r.id));
        if (r.parent.isEmpty())
            sqlite3_bind_null(s, 3);
        else
            text(3, r.parent);
        json(4, QJsonArray::fromStringList(r.archive));
        json(5, QJsonArray::fromStringList(r.topK));
        sqlite3_bind_int(s, 6, r.generation);
        sqlite3_bind_double(s, 7, r.timestamp);
        text(8, r.diff);
        if (r.combined)
            sqlite3_bind_double(s, 9, *r.combined);
        else
            sqlite3_bind_null(s, 9);
        json(10, r.publicMetrics);
        text(11, r.feedback);
        sqlite3_bind_int(s, 12, r.correct ? 1 : 0);
        json(13, r.metadata);
        sqlite3_bind_int(s, 14, r.island);
        ok = sqlite3_step(s) == SQLITE_DONE;
        sqlite3_reset(s);
    }
    sqlite3_finalize(s);
    sqlite3_close(db);
    return ok;
}

} // namespace dreamrsi::test
