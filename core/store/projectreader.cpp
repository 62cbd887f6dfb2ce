#include "projectreader.h"

#include "artifactstore.h"
#include "cellcolumns.h"
#include "schema.h"
#include "sqliteconnection.h"
#include "sqlitestatement.h"

#include <QDateTime>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>

#include <sqlite3.h>

#include <cmath>

namespace dreamrsi {

namespace {

/// BEGIN … COMMIT around the reads of one call: one snapshot.
class ReadTransaction
{
public:
    explicit ReadTransaction(SqliteConnection &db)
        : m_db(db)
    {
        m_open = m_db.exec("BEGIN;").ok();
    }
    ~ReadTransaction()
    {
        if (m_open)
            m_db.exec("COMMIT;"); // a read-only transaction: nothing to lose
    }
    ReadTransaction(const ReadTransaction &) = delete;
    ReadTransaction &operator=(const ReadTransaction &) = delete;

private:
    SqliteConnection &m_db;
    bool m_open = false;
};

std::optional<GridShape> parseGrid(const QString &text)
{
    const QStringList parts = text.split(QLatin1Char('x'));
    if (parts.size() != 2)
        return std::nullopt;
    return GridShape{parts.at(0).toInt(), parts.at(1).toInt()};
}

} // namespace

struct ProjectReader::Private
{
    std::unique_ptr<SqliteConnection> db;
    std::unique_ptr<ArtifactStore> artifacts;
    int version = 0;
    int fileVersion = 0; ///< the file's own; below `version` when read through an in-memory upgrade
    QString fileStamp;   ///< the file's and its log's sizes and times when the in-memory copy was taken

    QString where(const QString &what) const { return QStringLiteral("%1: %2").arg(db->path(), what); }

    template<typename T>
    StoreResult<T> fail(const SqliteStatement &s) const
    {
        return StoreResult<T>::failure(where(s.error()));
    }

    StoreResult<IterationInfo> iteration(IterationId id)
    {
        using R = StoreResult<IterationInfo>;
        const QByteArray sql = QByteArray("SELECT ") + IterationSelectColumns + " FROM iterations WHERE id = ?1";
        SqliteStatement s(*db, sql.constData());
        s.bind(1, id);
        switch (s.step()) {
        case SqliteStatement::Step::Row: return R::success(iterationFromRow(s));
        case SqliteStatement::Step::Done: return R::failure(where(QStringLiteral("iteration %1 does not exist").arg(id)));
        case SqliteStatement::Step::Error: break;
        }
        return fail<IterationInfo>(s);
    }

    StoreResult<QList<Cell>> cells(IterationId id, std::optional<qint64> afterSeq = std::nullopt)
    {
        const QByteArray sql = QByteArray("SELECT ") + CellSelectColumns + " FROM cells WHERE iteration_id = ?1"
                               + (afterSeq ? " AND seq > ?2" : "") + " ORDER BY seq";
        SqliteStatement s(*db, sql.constData());
        s.bind(1, id);
        if (afterSeq)
            s.bind(2, *afterSeq);
        QList<Cell> out;
        SqliteStatement::Step step;
        while ((step = s.step()) == SqliteStatement::Step::Row)
            out.append(cellFromRow(s));
        if (step == SqliteStatement::Step::Error)
            return fail<QList<Cell>>(s);
        return StoreResult<QList<Cell>>::success(std::move(out));
    }

    StoreResult<QList<PolicyVersion>> versions(const char *whereClause, const QString &arg, qint64 id)
    {
        const QByteArray sql =
            QByteArray("SELECT id, name, code, parent_id, origin, prompt, response, created FROM policy_versions ")
            + whereClause + " ORDER BY id";
        SqliteStatement s(*db, sql.constData());
        if (!arg.isNull())
            s.bind(1, arg);
        else if (id > 0)
            s.bind(1, id);
        QList<PolicyVersion> out;
        SqliteStatement::Step step;
        while ((step = s.step()) == SqliteStatement::Step::Row) {
            PolicyVersion v;
            v.id = s.int64(0);
            v.name = s.text(1);
            v.code = s.text(2);
            v.parent = s.optInt(3).value_or(0);
            v.origin = policyOriginFromName(s.text(4)).value_or(PolicyOrigin::Human);
            v.prompt = s.text(5);
            v.response = s.text(6);
            v.created = parseStoreTimestamp(s.text(7));
            out.append(v);
        }
        if (step == SqliteStatement::Step::Error)
            return fail<QList<PolicyVersion>>(s);
        return StoreResult<QList<PolicyVersion>>::success(std::move(out));
    }
};

ProjectReader::ProjectReader()
    : d(std::make_unique<Private>())
{
}

ProjectReader::~ProjectReader() = default;

namespace {

/// Sizes and modification times of a project file and its write-ahead log:
/// what changes when anything writes the file.
QString stampOf(const QString &path)
{
    QString stamp;
    for (const QString &file : QStringList{path, path + QStringLiteral("-wal")}) {
        const QFileInfo fi(file);
        stamp += fi.exists() ? QStringLiteral("%1@%2;").arg(fi.size()).arg(fi.lastModified().toMSecsSinceEpoch()) : QStringLiteral("-;");
    }
    return stamp;
}

} // namespace

StoreResult<std::unique_ptr<ProjectReader>> ProjectReader::open(const QString &rawPath)
{
    using R = StoreResult<std::unique_ptr<ProjectReader>>;
    const QFileInfo fi(rawPath);
    const QString path = fi.absoluteFilePath();
    if (rawPath.isEmpty())
        return R::failure(QStringLiteral("no project path given"));
    if (!fi.exists())
        return R::failure(QStringLiteral("%1: no such project file").arg(path));
    if (fi.isDir())
        return R::failure(QStringLiteral("%1: is a folder, not a project file").arg(path));
    std::unique_ptr<ProjectReader> r(new ProjectReader);
    const auto connect = [&](SqliteConnection::Mode mode) -> Result<Done> {
        Result<std::unique_ptr<SqliteConnection>> opened = SqliteConnection::open(path, mode);
        if (!opened)
            return Result<Done>::failure(QStringLiteral("%1: cannot open: %2").arg(path, opened.error));
        r->d->db = std::move(*opened.value);
        if (const Result<Done> configured = Schema::configure(*r->d->db, false); !configured)
            return Result<Done>::failure(QStringLiteral("%1: %2").arg(path, configured.error));
        // A project of an older build: read an in-memory copy upgraded there,
        // so that reading never writes the file (docs/project-file.md).
        const std::optional<qint64> app = r->d->db->queryInt("PRAGMA application_id;").value;
        const std::optional<qint64> stored = r->d->db->queryInt("PRAGMA user_version;").value;
        if (app && stored && *app == Schema::ApplicationId && *stored >= 1 && *stored < Schema::CurrentVersion) {
            Result<std::unique_ptr<SqliteConnection>> copy = SqliteConnection::memoryCopyOf(*r->d->db);
            if (!copy)
                return Result<Done>::failure(QStringLiteral("%1: schema %2 is older than this build's %3 and %4; "
                                                            "`dreamrsi project upgrade %1` upgrades the file")
                                                 .arg(path)
                                                 .arg(*stored)
                                                 .arg(Schema::CurrentVersion)
                                                 .arg(copy.error));
            const Result<int> upgraded = Schema::prepare(**copy.value, true, false);
            if (!upgraded)
                return upgraded.failureAs<Done>();
            if (const Result<Done> configured = Schema::configure(**copy.value, false); !configured)
                return Result<Done>::failure(QStringLiteral("%1: %2").arg(path, configured.error));
            r->d->db = std::move(*copy.value);
            r->d->version = *upgraded.value;
            r->d->fileVersion = int(*stored);
            r->d->fileStamp = stampOf(path);
            return Result<Done>::success({});
        }
        const Result<int> version = Schema::prepare(*r->d->db, false, false);
        if (!version)
            return version.failureAs<Done>();
        r->d->version = *version.value;
        r->d->fileVersion = *version.value;
        return Result<Done>::success({});
    };
    if (const Result<Done> first = connect(SqliteConnection::Mode::ReadWrite); !first) {
        // A WAL database in a place this user cannot write (no room for the
        // WAL index): read it as an immutable file instead.
        const bool readOnlyPlace = !fi.isWritable() || !QFileInfo(fi.absolutePath()).isWritable();
        if (!readOnlyPlace || !connect(SqliteConnection::Mode::Immutable))
            return first.failureAs<std::unique_ptr<ProjectReader>>();
    }
    r->d->artifacts = std::make_unique<ArtifactStore>(ArtifactStore::folderFor(path));
    return R::success(std::move(r));
}

QString ProjectReader::path() const
{
    return d->db->path();
}

bool ProjectReader::outdatedCopy() const
{
    return d->fileVersion < d->version && stampOf(d->db->path()) != d->fileStamp;
}

int ProjectReader::upgradedInMemoryFrom() const
{
    return d->fileVersion < d->version ? d->fileVersion : 0;
}

StoreResult<ProjectInfo> ProjectReader::projectInfo()
{
    ReadTransaction tx(*d->db);
    SqliteStatement s(*d->db, "SELECT name, task, settings, created FROM project WHERE id = 1");
    ProjectInfo p;
    switch (s.step()) {
    case SqliteStatement::Step::Row:
        p.name = s.text(0);
        p.task = s.text(1);
        p.settings = parseObject(s.textUtf8(2));
        p.created = parseStoreTimestamp(s.text(3));
        break;
    case SqliteStatement::Step::Done:
        p.name = QFileInfo(d->db->path()).completeBaseName();
        break;
    case SqliteStatement::Step::Error: return d->fail<ProjectInfo>(s);
    }
    p.schemaVersion = d->version;
    p.path = d->db->path();
    p.artifactDir = d->artifacts->folder();
    return StoreResult<ProjectInfo>::success(p);
}

StoreResult<QList<IterationInfo>> ProjectReader::iterations()
{
    ReadTransaction tx(*d->db);
    const QByteArray sql = QByteArray("SELECT ") + IterationSelectColumns + " FROM iterations ORDER BY id";
    SqliteStatement s(*d->db, sql.constData());
    QList<IterationInfo> out;
    SqliteStatement::Step step;
    while ((step = s.step()) == SqliteStatement::Step::Row)
        out.append(iterationFromRow(s));
    if (step == SqliteStatement::Step::Error)
        return d->fail<QList<IterationInfo>>(s);
    return StoreResult<QList<IterationInfo>>::success(out);
}

StoreResult<IterationInfo> ProjectReader::iteration(IterationId id)
{
    ReadTransaction tx(*d->db);
    return d->iteration(id);
}

StoreResult<QList<Cell>> ProjectReader::cells(IterationId id)
{
    ReadTransaction tx(*d->db);
    return d->cells(id);
}

StoreResult<IterationData> ProjectReader::readIterationData(IterationId id, std::optional<qint64> afterSeq)
{
    using R = StoreResult<IterationData>;
    ReadTransaction tx(*d->db);
    StoreResult<IterationInfo> it = d->iteration(id);
    if (!it)
        return it.failureAs<IterationData>();
    StoreResult<QList<Cell>> cells = d->cells(id, afterSeq);
    if (!cells)
        return cells.failureAs<IterationData>();
    return R::success(IterationData{std::move(*it.value), std::move(*cells.value)});
}

StoreResult<IterationData> ProjectReader::iterationData(IterationId id)
{
    return readIterationData(id, std::nullopt);
}

StoreResult<IterationData> ProjectReader::iterationDataAfter(IterationId id, qint64 afterSeq)
{
    return readIterationData(id, afterSeq);
}

StoreResult<DiscoveryTree> ProjectReader::loadIteration(IterationId id)
{
    using R = StoreResult<DiscoveryTree>;
    StoreResult<IterationInfo> it;
    StoreResult<QList<Cell>> cells;
    {
        ReadTransaction tx(*d->db);
        it = d->iteration(id);
        if (!it)
            return it.failureAs<DiscoveryTree>();
        cells = d->cells(id);
        if (!cells)
            return cells.failureAs<DiscoveryTree>();
    }
    TreeError treeError;
    std::optional<DiscoveryTree> tree = DiscoveryTree::build(it.value->treeMeta(), std::move(*cells.value), &treeError);
    if (!tree)
        return R::failure(d->where(QStringLiteral("iteration %1 is not a valid tree: %2").arg(id).arg(treeError.message)));
    return R::success(std::move(*tree));
}

StoreResult<QList<PolicyVersion>> ProjectReader::policyVersions()
{
    ReadTransaction tx(*d->db);
    return d->versions("", QString(), 0);
}

StoreResult<PolicyVersion> ProjectReader::policyVersion(PolicyVersionId id)
{
    ReadTransaction tx(*d->db);
    const StoreResult<QList<PolicyVersion>> v = d->versions("WHERE id = ?1", QString(), id);
    if (!v)
        return v.failureAs<PolicyVersion>();
    if (v.value->isEmpty())
        return StoreResult<PolicyVersion>::failure(d->where(QStringLiteral("policy version %1 does not exist").arg(id)));
    return StoreResult<PolicyVersion>::success(v.value->first());
}

StoreResult<PolicyVersion> ProjectReader::policyVersionByName(const QString &name)
{
    ReadTransaction tx(*d->db);
    const StoreResult<QList<PolicyVersion>> v =
        d->versions("WHERE name = ?1", name.isNull() ? QStringLiteral("") : name, 0);
    if (!v)
        return v.failureAs<PolicyVersion>();
    if (v.value->isEmpty())
        return StoreResult<PolicyVersion>::failure(d->where(QStringLiteral("no policy version named \"%1\"").arg(name)));
    return StoreResult<PolicyVersion>::success(v.value->first());
}

StoreResult<QList<ReplayResultRecord>> ProjectReader::replayResults(PolicyVersionId version)
{
    using R = StoreResult<QList<ReplayResultRecord>>;
    ReadTransaction tx(*d->db);
    const QByteArray sql =
        QByteArray("SELECT policy_version_id, world_id, beta, workers, lambda, rounds_limit, grid, calls, rounds, best, "
                   "attainment, revealed, error, created, completions, completion, rule FROM replay_results ")
        + (version > 0 ? "WHERE policy_version_id = ?1 " : "")
        + "ORDER BY policy_version_id, world_id, lambda, workers, rounds_limit, grid, completions, rule, completion, beta";
    SqliteStatement s(*d->db, sql.constData());
    if (version > 0)
        s.bind(1, version);
    QList<ReplayResultRecord> out;
    SqliteStatement::Step step;
    while ((step = s.step()) == SqliteStatement::Step::Row) {
        ReplayResultRecord r;
        r.key.version = s.int64(0);
        r.key.world = s.int64(1);
        r.key.beta = s.real(2);
        r.key.workers = int(s.int64(3));
        r.key.lambda = s.real(4);
        if (s.int64(5) > 0)
            r.key.rounds = int(s.int64(5));
        r.key.grid = parseGrid(s.text(6));
        r.calls = s.int64(7);
        r.rounds = int(s.int64(8));
        r.best = s.real(9);
        r.attainment = s.real(10);
        const QJsonArray revealed = QJsonDocument::fromJson(s.textUtf8(11)).array();
        r.revealed.reserve(revealed.size());
        for (const QJsonValue &v : revealed)
            r.revealed.append(v.toString());
        r.error = s.optText(12);
        r.created = parseStoreTimestamp(s.text(13));
        r.key.completions = int(s.int64(14));
        r.key.completion = int(s.int64(15));
        r.key.rule = imaginationRuleFromName(s.text(16)).value_or(ImaginationRule::Capped); // CHECKed by the schema
        out.append(r);
    }
    if (step == SqliteStatement::Step::Error)
        return d->fail<QList<ReplayResultRecord>>(s);
    return R::success(out);
}

StoreResult<StoredReplayConfig> ProjectReader::replayConfig()
{
    using R = StoreResult<StoredReplayConfig>;
    ReadTransaction tx(*d->db);
    SqliteStatement s(*d->db, "SELECT workers, lambda, betas, rounds_limit, origin, updated, valuation, completions, "
                              "rule FROM replay_config WHERE id = 1");
    StoredReplayConfig out;
    switch (s.step()) {
    case SqliteStatement::Step::Done: return R::success(out); // never written: the defaults
    case SqliteStatement::Step::Error: return d->fail<StoredReplayConfig>(s);
    case SqliteStatement::Step::Row: break;
    }
    const auto damaged = [&](const QString &what) {
        return R::failure(d->where(QStringLiteral("the stored replay configuration is damaged: %1").arg(what)));
    };
    out.config.workers = int(s.int64(0));
    out.config.lambda = s.real(1);
    if (out.config.workers < 1)
        return damaged(QStringLiteral("W is %1").arg(out.config.workers));
    if (!std::isfinite(out.config.lambda) || out.config.lambda < 0)
        return damaged(QStringLiteral("λ is %1").arg(out.config.lambda));
    const QJsonDocument betas = QJsonDocument::fromJson(s.textUtf8(2));
    if (!betas.isArray() || betas.array().isEmpty())
        return damaged(QStringLiteral("the β grid '%1' is not a list of numbers").arg(s.text(2)));
    out.config.betas.clear();
    for (const QJsonValue &b : betas.array()) {
        if (!b.isDouble() || !(b.toDouble() >= 0.0 && b.toDouble() <= 1.0))
            return damaged(QStringLiteral("the β grid '%1' holds a value outside [0, 1]").arg(s.text(2)));
        out.config.betas.append(b.toDouble());
    }
    if (s.int64(3) > 0)
        out.config.rounds = int(s.int64(3));
    const std::optional<ReplayConfigOrigin> origin = replayConfigOriginFromName(s.text(4));
    if (!origin)
        return damaged(QStringLiteral("unknown origin '%1'").arg(s.text(4)));
    out.origin = *origin;
    if (!s.isNull(5))
        out.updated = parseStoreTimestamp(s.text(5));
    const std::optional<Valuation> valuation = valuationFromName(s.text(6));
    if (!valuation)
        return damaged(QStringLiteral("unknown valuation '%1'").arg(s.text(6)));
    out.config.valuation = *valuation;
    out.config.completions = int(s.int64(7));
    if (out.config.completions < 1)
        return damaged(QStringLiteral("C is %1").arg(out.config.completions));
    const std::optional<ImaginationRule> rule = imaginationRuleFromName(s.text(8));
    if (!rule)
        return damaged(QStringLiteral("unknown imagination rule '%1'").arg(s.text(8)));
    out.config.rule = *rule;
    return R::success(out);
}

StoreResult<QList<Approval>> ProjectReader::approvals()
{
    ReadTransaction tx(*d->db);
    SqliteStatement s(*d->db,
                      "SELECT id, policy_version_id, approved_at, approved_by, evidence, note FROM approvals ORDER BY id");
    QList<Approval> out;
    SqliteStatement::Step step;
    while ((step = s.step()) == SqliteStatement::Step::Row) {
        Approval a;
        a.id = s.int64(0);
        a.version = s.int64(1);
        a.when = parseStoreTimestamp(s.text(2));
        a.who = s.text(3);
        a.evidence = parseObject(s.textUtf8(4));
        a.note = s.text(5);
        out.append(a);
    }
    if (step == SqliteStatement::Step::Error)
        return d->fail<QList<Approval>>(s);
    return StoreResult<QList<Approval>>::success(out);
}

StoreResult<QList<SteeringEvent>> ProjectReader::steeringEvents(IterationId iteration)
{
    ReadTransaction tx(*d->db);
    SqliteStatement s(*d->db, iteration != 0
                                  ? "SELECT id, iteration_id, round, time, who, action, branch, target, text, why, request_id, "
                                    "payload FROM steering_events WHERE iteration_id = ?1 ORDER BY id"
                                  : "SELECT id, iteration_id, round, time, who, action, branch, target, text, why, request_id, "
                                    "payload FROM steering_events ORDER BY id");
    if (iteration != 0)
        s.bind(1, iteration);
    QList<SteeringEvent> out;
    SqliteStatement::Step step;
    while ((step = s.step()) == SqliteStatement::Step::Row) {
        SteeringEvent e;
        e.id = s.int64(0);
        e.iteration = s.optInt(1).value_or(0);
        if (const std::optional<qint64> r = s.optInt(2))
            e.round = int(*r);
        e.time = parseStoreTimestamp(s.text(3));
        e.who = s.text(4);
        e.action = s.text(5);
        if (const std::optional<qint64> b = s.optInt(6))
            e.branch = int(*b);
        e.target = s.text(7);
        e.text = s.text(8);
        e.why = s.text(9);
        e.requestId = s.optText(10).value_or(QString());
        e.payload = parseObject(s.textUtf8(11));
        out.append(e);
    }
    if (step == SqliteStatement::Step::Error)
        return d->fail<QList<SteeringEvent>>(s);
    return StoreResult<QList<SteeringEvent>>::success(out);
}

StoreResult<QList<ReevaluationRecord>> ProjectReader::reevaluations(IterationId iteration)
{
    ReadTransaction tx(*d->db);
    SqliteStatement s(*d->db, iteration != 0
                                  ? "SELECT r.id, c.iteration_id, c.cell_id, r.score, r.fail_class, r.error, r.seconds, "
                                    "r.backend, r.host, r.job_id, r.time FROM reevaluations r JOIN cells c ON c.id = r.cell_rowid "
                                    "WHERE c.iteration_id = ?1 ORDER BY r.id"
                                  : "SELECT r.id, c.iteration_id, c.cell_id, r.score, r.fail_class, r.error, r.seconds, "
                                    "r.backend, r.host, r.job_id, r.time FROM reevaluations r JOIN cells c ON c.id = r.cell_rowid "
                                    "ORDER BY r.id");
    if (iteration != 0)
        s.bind(1, iteration);
    QList<ReevaluationRecord> out;
    SqliteStatement::Step step;
    while ((step = s.step()) == SqliteStatement::Step::Row) {
        ReevaluationRecord r;
        r.id = s.int64(0);
        r.iteration = s.int64(1);
        r.cellId = s.text(2);
        r.score = s.optReal(3);
        r.failClass = s.text(4);
        r.error = s.optText(5).value_or(QString());
        r.seconds = s.real(6);
        r.backend = s.text(7);
        r.host = s.text(8);
        r.jobId = s.text(9);
        r.time = parseStoreTimestamp(s.text(10));
        out.append(r);
    }
    if (step == SqliteStatement::Step::Error)
        return d->fail<QList<ReevaluationRecord>>(s);
    return StoreResult<QList<ReevaluationRecord>>::success(out);
}

StoreResult<QList<ArtifactRef>> ProjectReader::cellArtifacts(IterationId iteration, const QString &cellId)
{
    ReadTransaction tx(*d->db);
    SqliteStatement s(*d->db, "SELECT a.hash, a.size, l.name FROM cells c JOIN cell_artifacts l ON l.cell_rowid = c.id "
                              "JOIN artifacts a ON a.hash = l.hash WHERE c.iteration_id = ?1 AND c.cell_id = ?2 "
                              "ORDER BY l.name");
    s.bind(1, iteration);
    s.bind(2, cellId);
    QList<ArtifactRef> out;
    SqliteStatement::Step step;
    while ((step = s.step()) == SqliteStatement::Step::Row)
        out.append(ArtifactRef{s.text(0), s.int64(1), s.text(2)});
    if (step == SqliteStatement::Step::Error)
        return d->fail<QList<ArtifactRef>>(s);
    return StoreResult<QList<ArtifactRef>>::success(out);
}

StoreResult<QByteArray> ProjectReader::readArtifact(const QString &hash)
{
    ReadTransaction tx(*d->db);
    return d->artifacts->read(*d->db, hash);
}

StoreResult<qint64> ProjectReader::cellCount()
{
    ReadTransaction tx(*d->db);
    SqliteStatement s(*d->db, "SELECT count(*) FROM cells");
    if (s.step() != SqliteStatement::Step::Row)
        return d->fail<qint64>(s);
    return StoreResult<qint64>::success(s.int64(0));
}

} // namespace dreamrsi
