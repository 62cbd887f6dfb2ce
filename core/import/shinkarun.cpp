#include "shinkarun.h"

#include "base/sqliteheader.h"
#include "model/attemptpayload.h"

#include <QDateTime>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonParseError>
#include <QSet>
#include <QUrl>

#include <sqlite3.h>

#include <algorithm>
#include <cmath>
#include <memory>

namespace dreamrsi::RunImport::detail {

namespace {

struct CloseDb
{
    void operator()(sqlite3 *db) const { sqlite3_close_v2(db); }
};
struct FinalizeStmt
{
    void operator()(sqlite3_stmt *s) const { sqlite3_finalize(s); }
};
using Db = std::unique_ptr<sqlite3, CloseDb>;
using Stmt = std::unique_ptr<sqlite3_stmt, FinalizeStmt>;

QString errorOf(sqlite3 *db)
{
    return QString::fromUtf8(sqlite3_errmsg(db));
}

/// Opens the file read-only and immutable: SQLite neither writes it nor
/// its journal, nor takes a lock (the run may still be going on).
Result<Db> openImmutable(const QString &path)
{
    using Opened = Result<Db>;
    if (!QFileInfo(path).isFile())
        return Opened::failure(QStringLiteral("%1: no such file").arg(path));
    const QByteArray uri = QByteArray("file:") + QUrl::toPercentEncoding(QFileInfo(path).absoluteFilePath(), "/")
                           + QByteArray("?mode=ro&immutable=1");
    sqlite3 *raw = nullptr;
    const int rc = sqlite3_open_v2(uri.constData(), &raw, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nullptr);
    Db db(raw);
    if (rc != SQLITE_OK)
        return Opened::failure(QStringLiteral("%1: cannot open the database: %2")
                                   .arg(path, raw ? errorOf(raw) : QString::fromUtf8(sqlite3_errstr(rc))));
    return Opened::success(std::move(db));
}

Result<Stmt> prepare(sqlite3 *db, const QString &path, const QByteArray &sql)
{
    sqlite3_stmt *raw = nullptr;
    if (sqlite3_prepare_v2(db, sql.constData(), int(sql.size()), &raw, nullptr) != SQLITE_OK)
        return Result<Stmt>::failure(QStringLiteral("%1: cannot read the database: %2").arg(path, errorOf(db)));
    return Result<Stmt>::success(Stmt(raw));
}

/// The columns of `table`, empty when there is no such table.
Result<QSet<QString>> columnsOf(sqlite3 *db, const QString &path, const char *table)
{
    Result<Stmt> s = prepare(db, path, QByteArray("SELECT name FROM pragma_table_info('") + table + "')");
    if (!s)
        return s.failureAs<QSet<QString>>();
    QSet<QString> columns;
    int rc = SQLITE_ROW;
    while ((rc = sqlite3_step(s.value->get())) == SQLITE_ROW)
        columns.insert(QString::fromUtf8(reinterpret_cast<const char *>(sqlite3_column_text(s.value->get(), 0))));
    if (rc != SQLITE_DONE)
        return Result<QSet<QString>>::failure(QStringLiteral("%1: cannot read the database: %2").arg(path, errorOf(db)));
    return Result<QSet<QString>>::success(std::move(columns));
}

/// The columns read from `programs`, in this order; a release without one
/// reads it as NULL.
constexpr const char *programColumns[] = {"id", "code", "parent_id", "archive_inspiration_ids", "top_k_inspiration_ids",
                                          "generation", "timestamp", "code_diff", "combined_score", "correct",
                                          "public_metrics", "private_metrics", "text_feedback", "metadata", "island_idx"};
enum Column { Id, Code, ParentId, ArchiveIds, TopKIds, Generation, Timestamp, CodeDiff, CombinedScore, Correct,
              PublicMetrics, PrivateMetrics, TextFeedback, Metadata, IslandIdx };

QString text(sqlite3_stmt *s, int column)
{
    const unsigned char *t = sqlite3_column_text(s, column);
    return t ? QString::fromUtf8(reinterpret_cast<const char *>(t), sqlite3_column_bytes(s, column)) : QString();
}

QJsonValue number(sqlite3_stmt *s, int column)
{
    switch (sqlite3_column_type(s, column)) {
    case SQLITE_INTEGER: return QJsonValue(qint64(sqlite3_column_int64(s, column)));
    case SQLITE_FLOAT: {
        const double d = sqlite3_column_double(s, column);
        return std::isfinite(d) ? QJsonValue(d) : QJsonValue();
    }
    default: return QJsonValue();
    }
}

/// A JSON column: its value, null when empty; nothing when it is not JSON.
std::optional<QJsonValue> json(sqlite3_stmt *s, int column)
{
    if (sqlite3_column_type(s, column) == SQLITE_NULL)
        return QJsonValue();
    const QByteArray bytes(reinterpret_cast<const char *>(sqlite3_column_text(s, column)), sqlite3_column_bytes(s, column));
    if (bytes.trimmed().isEmpty())
        return QJsonValue();
    // Python's json writes NaN and Infinity; wrapped so that a bare value parses too.
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson("[" + withoutNonFiniteWords(bytes) + "]", &error);
    if (error.error != QJsonParseError::NoError || !doc.isArray() || doc.array().size() != 1)
        return std::nullopt;
    return doc.array().at(0);
}

QJsonArray idList(const QJsonValue &v)
{
    QJsonArray ids;
    for (const QJsonValue &id : v.toArray()) {
        if (id.isString())
            ids.append(id);
    }
    return ids;
}

bool truthy(const QJsonValue &v)
{
    return v.isBool() ? v.toBool() : (v.isDouble() ? v.toDouble() != 0.0 : false);
}

/// Shinka's usage and timings in the keys a live round writes (core/model/attemptpayload.h).
void usage(RunProgram &p, const QJsonObject &metadata)
{
    const QJsonObject llm = metadata.value(key("llm_result")).toObject();
    if (!llm.isEmpty() || metadata.contains(key("api_costs")) || metadata.contains(key("model_name"))) {
        AttemptPayload::Agent a;
        a.name = QStringLiteral("shinkaevolve");
        a.model = llm.value(key("model_name")).toString();
        if (a.model.isEmpty())
            a.model = metadata.value(key("model_name")).toString();
        if (a.model.isEmpty())
            a.model = metadata.value(key("llm_model")).toString();
        a.tokensIn = llm.value(key("input_tokens")).toInteger();
        a.tokensOut = llm.value(key("output_tokens")).toInteger();
        a.cost = metadata.value(key("api_costs")).toDouble();
        a.latencyS = metadata.value(key("sampling_seconds")).toDouble();
        a.requests = llm.isEmpty() ? 0 : std::max(1, llm.value(key("num_total_queries")).toInt());
        p.payload.insert(key("agent"), a.toJson());
    }
    const bool timed = metadata.contains(key("sampling_seconds")) || metadata.contains(key("evaluation_seconds"))
                       || metadata.contains(key("compute_time")) || metadata.contains(key("pipeline_seconds"));
    if (timed) {
        AttemptPayload::Timing t;
        t.agentS = metadata.value(key("sampling_seconds")).toDouble();
        t.evalS = metadata.contains(key("evaluation_seconds")) ? metadata.value(key("evaluation_seconds")).toDouble()
                                                               : metadata.value(key("compute_time")).toDouble();
        t.wallS = metadata.contains(key("pipeline_seconds")) ? metadata.value(key("pipeline_seconds")).toDouble()
                                                             : t.agentS + t.evalS;
        const QJsonValue ended = metadata.value(key("postprocess_finished_at"));
        if (ended.isDouble())
            t.ended = QDateTime::fromMSecsSinceEpoch(qint64(ended.toDouble() * 1000.0), Qt::UTC)
                          .toString(Qt::ISODateWithMs);
        p.payload.insert(key("timing"), t.toJson());
    }
}

/// Rule 5 for Shinka.
void score(RunProgram &p, sqlite3_stmt *s, const QJsonObject &metadata, const QJsonObject &metrics,
           const Options &options)
{
    if (metadata.value(key("node_kind")).toString() == QLatin1String("failed_proposal")) {
        p.failClass = QLatin1String(FailClass::Agent);
        QString why = metadata.value(key("failure_reason")).toString();
        if (why.isEmpty())
            why = text(s, TextFeedback);
        if (why.isEmpty())
            why = QStringLiteral("failed proposal (%1)").arg(metadata.value(key("failure_class")).toString(QStringLiteral("no program")));
        p.error = why;
        p.evaluated = false;
        return;
    }
    const bool correct = sqlite3_column_type(s, Correct) != SQLITE_NULL && sqlite3_column_int64(s, Correct) != 0;
    p.evaluated = true;
    p.valid = correct;
    if (!correct) {
        p.failClass = QLatin1String(FailClass::Correctness);
        const QString feedback = text(s, TextFeedback);
        p.error = feedback.isEmpty() ? QStringLiteral("incorrect (correct = 0)") : feedback;
        return;
    }
    std::optional<double> value;
    QString missing;
    if (!options.scoreMetric.isEmpty()) {
        value = finiteNumber(metrics.value(options.scoreMetric));
        if (!value)
            missing = QStringLiteral("no numeric public metric \"%1\" to score by").arg(options.scoreMetric);
    } else {
        value = finiteNumber(number(s, CombinedScore));
        if (!value)
            missing = QStringLiteral("correct, but combined_score is null");
    }
    if (value) {
        p.score = value;
        p.failClass = QLatin1String(FailClass::Ok);
    } else {
        p.failClass = QLatin1String(FailClass::Correctness);
        p.error = missing;
    }
}

} // namespace

bool looksLikeShinka(const QString &path)
{
    if (!QFileInfo(path).isFile() || !hasSqliteHeader(path))
        return false;
    Result<Db> db = openImmutable(path);
    if (!db)
        return false;
    const Result<QSet<QString>> columns = columnsOf(db.value->get(), path, "programs");
    return columns && columns.value->contains(QStringLiteral("id")) && columns.value->contains(QStringLiteral("code"));
}

Result<ProgramsRead> readShinka(const QString &path, const Options &options)
{
    using Read = Result<ProgramsRead>;
    Result<Db> opened = openImmutable(path);
    if (!opened)
        return opened.failureAs<ProgramsRead>();
    sqlite3 *db = opened.value->get();
    const Result<QSet<QString>> columns = columnsOf(db, path, "programs");
    if (!columns)
        return columns.failureAs<ProgramsRead>();
    for (const char *required : {"id", "code", "parent_id", "timestamp"}) {
        if (!columns.value->contains(QLatin1String(required)))
            return Read::failure(columns.value->isEmpty()
                                     ? QStringLiteral("%1: not a ShinkaEvolve database: it has no programs table").arg(path)
                                     : QStringLiteral("%1: not a ShinkaEvolve database: programs has no %2 column")
                                           .arg(path, QLatin1String(required)));
    }
    QByteArray sql("SELECT ");
    for (const char *c : programColumns) {
        if (sql.size() > 7)
            sql += ", ";
        sql += columns.value->contains(QLatin1String(c)) ? QByteArray(c) : QByteArray("NULL");
    }
    sql += " FROM programs";
    Result<Stmt> statement = prepare(db, path, sql);
    if (!statement)
        return statement.failureAs<ProgramsRead>();
    sqlite3_stmt *s = statement.value->get();

    ProgramsRead read;
    read.extras.source = path;
    int rc = SQLITE_ROW;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        RunProgram p;
        p.file = path;
        p.id = text(s, Id);
        const auto bad = [&](const QString &what) {
            return Read::failure(QStringLiteral("%1: program \"%2\": %3").arg(path, p.id, what));
        };
        if (p.id.isEmpty())
            return Read::failure(QStringLiteral("%1: a program has no id").arg(path));
        if (const QString parent = text(s, ParentId); !parent.isEmpty())
            p.parentId = parent;
        const QJsonValue timestamp = number(s, Timestamp);
        if (!timestamp.isDouble())
            return bad(QStringLiteral("timestamp is not a number"));
        p.timestamp = timestamp.toDouble();
        p.code = text(s, Code);
        const std::optional<QJsonValue> metadataValue = json(s, Metadata);
        const std::optional<QJsonValue> publicMetrics = json(s, PublicMetrics);
        const std::optional<QJsonValue> privateMetrics = json(s, PrivateMetrics);
        const std::optional<QJsonValue> archiveIds = json(s, ArchiveIds);
        const std::optional<QJsonValue> topKIds = json(s, TopKIds);
        if (!metadataValue)
            return bad(QStringLiteral("metadata is not valid JSON"));
        if (!publicMetrics || !privateMetrics)
            return bad(QStringLiteral("its metrics are not valid JSON"));
        if (!archiveIds || !topKIds)
            return bad(QStringLiteral("its inspiration ids are not valid JSON"));
        const QJsonObject metadata = metadataValue->toObject();
        if (truthy(metadata.value(key("_is_island_copy"))) || truthy(metadata.value(key("_spawned_island")))) {
            p.isCopy = true;
            for (const char *original : {"_original_program_id", "_spawned_from_program_id"}) {
                if (const QString id = metadata.value(key(original)).toString(); !id.isEmpty() && !p.copyOf)
                    p.copyOf = id;
            }
            if (!p.copyOf)
                p.copyOf = p.parentId;
        }
        QJsonObject metrics = publicMetrics->toObject();
        score(p, s, metadata, metrics, options);

        if (const QJsonValue combined = number(s, CombinedScore); !combined.isNull() && !metrics.contains(key("combined_score")))
            metrics.insert(key("combined_score"), combined);
        if (const QJsonObject hidden = privateMetrics->toObject(); !hidden.isEmpty())
            metrics.insert(key("private"), hidden);
        QJsonArray inspirations = idList(*archiveIds);
        for (const QJsonValue &id : idList(*topKIds)) {
            if (!inspirations.contains(id))
                inspirations.append(id);
        }
        const QJsonObject origin{{key("framework"), QStringLiteral("shinkaevolve")},
                                 {key("id"), p.id},
                                 {key("parent_id"), p.parentId ? QJsonValue(*p.parentId) : QJsonValue()},
                                 {key("generation"), number(s, Generation)},
                                 {key("island"), number(s, IslandIdx)},
                                 {key("inspirations"), inspirations}};
        p.payload.insert(key("origin"), origin);
        p.payload.insert(key("program"), p.code);
        if (const QString diff = text(s, CodeDiff); !diff.isEmpty())
            p.payload.insert(key("proposal"), diff);
        p.payload.insert(key("metrics"), metrics);
        usage(p, metadata);
        read.programs.append(std::move(p));
    }
    if (rc != SQLITE_DONE)
        return Read::failure(QStringLiteral("%1: cannot read the database: %2").arg(path, errorOf(db)));

    // Failed proposals that are no program: attempt_log's failed rows (newer releases).
    const Result<QSet<QString>> logColumns = columnsOf(db, path, "attempt_log");
    if (!logColumns)
        return logColumns.failureAs<ProgramsRead>();
    if (logColumns.value->contains(QStringLiteral("status"))) {
        Result<Stmt> count = prepare(db, path, "SELECT COUNT(*) FROM attempt_log WHERE status = 'failed'");
        if (!count)
            return count.failureAs<ProgramsRead>();
        if (sqlite3_step(count.value->get()) != SQLITE_ROW)
            return Read::failure(QStringLiteral("%1: cannot read the database: %2").arg(path, errorOf(db)));
        read.extras.failedProposals = sqlite3_column_int64(count.value->get(), 0);
    }
    return Read::success(std::move(read));
}

} // namespace dreamrsi::RunImport::detail
