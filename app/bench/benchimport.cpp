// `dreamrsi bench import`: opening an OpenEvolve db folder and a ShinkaEvolve
// database of many programs (core/import), written here synthetically.
#include "benches.h"

#include "import/runimport.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include <sqlite3.h>

namespace dreamrsi {

namespace {

/// The parent of program i > 0: mostly the one before it (long chains),
/// every seventh an earlier one (forks).
int parentOf(int i)
{
    return i % 7 == 0 ? (i * 5) / 7 : i - 1;
}

QString programId(int i)
{
    return QStringLiteral("p%1").arg(i, 6, 10, QLatin1Char('0'));
}

bool writeOpenEvolve(const QString &folder, int programs, QTextStream &err)
{
    if (!QDir().mkpath(folder + QStringLiteral("/programs"))) {
        err << "error: " << folder << ": cannot create the folder\n";
        return false;
    }
    const QString code = QStringLiteral("def solve():\n    return 42\n").repeated(20);
    for (int i = 0; i < programs; ++i) {
        QJsonObject metrics{{QLatin1String("combined_score"), 0.001 * (i % 997)}, {QLatin1String("runtime_s"), 1.5}};
        if (i % 11 == 5)
            metrics = QJsonObject{{QLatin1String("error"), 0.0}};
        const QJsonObject program{
            {QLatin1String("id"), programId(i)},
            {QLatin1String("code"), code},
            {QLatin1String("parent_id"), i == 0 ? QJsonValue() : QJsonValue(programId(parentOf(i)))},
            {QLatin1String("generation"), i},
            {QLatin1String("timestamp"), 1.7e9 + i},
            {QLatin1String("iteration_found"), i},
            {QLatin1String("metrics"), metrics},
            {QLatin1String("changes_description"), QStringLiteral("change %1").arg(i)},
            {QLatin1String("metadata"), QJsonObject{{QLatin1String("island"), i % 4}}}};
        QFile f(QStringLiteral("%1/programs/%2.json").arg(folder, programId(i)));
        if (!f.open(QIODevice::WriteOnly) || f.write(QJsonDocument(program).toJson(QJsonDocument::Compact)) < 0) {
            err << "error: " << f.fileName() << ": cannot write: " << f.errorString() << '\n';
            return false;
        }
    }
    return true;
}

bool writeShinka(const QString &path, int programs, QTextStream &err)
{
    sqlite3 *db = nullptr;
    if (sqlite3_open(QFile::encodeName(path).constData(), &db) != SQLITE_OK) {
        err << "error: " << path << ": cannot create the database\n";
        sqlite3_close(db);
        return false;
    }
    const char *schema =
        "CREATE TABLE programs (id TEXT PRIMARY KEY, code TEXT NOT NULL, language TEXT NOT NULL, parent_id TEXT,"
        " archive_inspiration_ids TEXT, top_k_inspiration_ids TEXT, generation INTEGER NOT NULL,"
        " timestamp REAL NOT NULL, code_diff TEXT, combined_score REAL, public_metrics TEXT, private_metrics TEXT,"
        " text_feedback TEXT, correct BOOLEAN DEFAULT 0, metadata TEXT, island_idx INTEGER);"
        "CREATE TABLE attempt_log (id INTEGER PRIMARY KEY AUTOINCREMENT, generation INTEGER NOT NULL,"
        " stage TEXT NOT NULL, status TEXT NOT NULL, details TEXT, created_at REAL NOT NULL);"
        "BEGIN;";
    bool ok = sqlite3_exec(db, schema, nullptr, nullptr, nullptr) == SQLITE_OK;
    sqlite3_stmt *insert = nullptr;
    ok = ok
         && sqlite3_prepare_v2(db,
                               "INSERT INTO programs VALUES (?1, ?2, 'python', ?3, '[]', ?4, ?5, ?6, ?7, ?8, ?9, '{}', ?10,"
                               " ?11, ?12, ?13)",
                               -1, &insert, nullptr)
                == SQLITE_OK;
    const QByteArray code = QByteArray("def solve():\n    return 42\n").repeated(20);
    const QByteArray metadata = QJsonDocument(QJsonObject{
        {QLatin1String("api_costs"), 0.002},
        {QLatin1String("sampling_seconds"), 3.5},
        {QLatin1String("evaluation_seconds"), 1.25},
        {QLatin1String("llm_result"), QJsonObject{{QLatin1String("model_name"), QStringLiteral("bench-model")},
                                                  {QLatin1String("input_tokens"), 1200},
                                                  {QLatin1String("output_tokens"), 300}}}}).toJson(QJsonDocument::Compact);
    for (int i = 0; ok && i < programs; ++i) {
        const QByteArray id = programId(i).toUtf8();
        const QByteArray parent = programId(parentOf(i)).toUtf8();
        const QByteArray topK = "[\"" + programId(i / 2).toUtf8() + "\"]";
        const bool correct = i % 13 != 6;
        const double score = 0.001 * (i % 997);
        const QByteArray metrics = "{\"combined_score\": " + QByteArray::number(score) + "}";
        sqlite3_bind_text(insert, 1, id.constData(), int(id.size()), SQLITE_TRANSIENT);
        sqlite3_bind_text(insert, 2, code.constData(), int(code.size()), SQLITE_TRANSIENT);
        if (i == 0)
            sqlite3_bind_null(insert, 3);
        else
            sqlite3_bind_text(insert, 3, parent.constData(), int(parent.size()), SQLITE_TRANSIENT);
        sqlite3_bind_text(insert, 4, topK.constData(), int(topK.size()), SQLITE_TRANSIENT);
        sqlite3_bind_int(insert, 5, i);
        sqlite3_bind_double(insert, 6, 1.7e9 + i);
        sqlite3_bind_text(insert, 7, "--- a\n+++ b\n", -1, SQLITE_STATIC);
        sqlite3_bind_double(insert, 8, score);
        sqlite3_bind_text(insert, 9, metrics.constData(), int(metrics.size()), SQLITE_TRANSIENT);
        sqlite3_bind_text(insert, 10, correct ? "" : "wrong answer", -1, SQLITE_STATIC);
        sqlite3_bind_int(insert, 11, correct ? 1 : 0);
        sqlite3_bind_text(insert, 12, metadata.constData(), int(metadata.size()), SQLITE_TRANSIENT);
        sqlite3_bind_int(insert, 13, i % 4);
        ok = sqlite3_step(insert) == SQLITE_DONE;
        sqlite3_reset(insert);
    }
    sqlite3_finalize(insert);
    ok = ok && sqlite3_exec(db, "COMMIT;", nullptr, nullptr, nullptr) == SQLITE_OK;
    if (!ok)
        err << "error: " << path << ": cannot write the database: " << QString::fromUtf8(sqlite3_errmsg(db)) << '\n';
    sqlite3_close(db);
    return ok;
}

/// Opens `run` and prints one row; false on a failure (said on `err`).
bool timeOne(const char *label, const QString &run, int programs, QTextStream &out, QTextStream &err)
{
    QElapsedTimer timer;
    timer.start();
    const Result<RunImport::Imported> imported = RunImport::read(run);
    const double ms = double(timer.nsecsElapsed()) / 1e6;
    if (!imported) {
        err << "error: " << imported.error << '\n';
        return false;
    }
    out << "  " << QString::fromLatin1(label).leftJustified(13) << QString::number(ms, 'f', 1).rightJustified(9)
        << " ms  (" << QString::number(ms / (programs / 1000.0), 'f', 1) << " ms per 1000 programs; "
        << imported.value->tree.cellCount() << " cells, " << imported.value->tree.branches().size() << " branches)\n";
    out.flush();
    return true;
}

} // namespace

int benchImport(const ImportBenchOptions &options, QTextStream &out, QTextStream &err)
{
    QTemporaryDir dir;
    if (!dir.isValid()) {
        err << "error: cannot create a temporary folder: " << dir.errorString() << '\n';
        return 1;
    }
    const QString openEvolve = dir.filePath(QStringLiteral("openevolve/db"));
    const QString shinka = dir.filePath(QStringLiteral("evolution_db.sqlite"));
    if (!writeOpenEvolve(openEvolve, options.programs, err) || !writeShinka(shinka, options.programs, err))
        return 1;
    out << "import bench: " << options.programs << " programs per run\n";
    if (!timeOne("openevolve", openEvolve, options.programs, out, err)
        || !timeOne("shinkaevolve", shinka, options.programs, out, err))
        return 1;
    return 0;
}

} // namespace dreamrsi
