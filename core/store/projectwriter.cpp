#include "projectwriter.h"

#include "artifactstore.h"
#include "cellcolumns.h"
#include "projectlock.h"
#include "replaybounds.h"
#include "schema.h"
#include "sqliteconnection.h"
#include "sqlitestatement.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLockFile>
#include <QThread>

#include <sqlite3.h>

#include <algorithm>
#include <cmath>

namespace dreamrsi {

namespace {

/// BEGIN IMMEDIATE … COMMIT; rolls back when destroyed uncommitted.
class WriteTransaction
{
public:
    explicit WriteTransaction(SqliteConnection &db)
        : m_db(db)
    {
    }
    ~WriteTransaction()
    {
        if (m_open)
            m_db.exec("ROLLBACK;"); // whatever went wrong is reported by the caller
    }
    WriteTransaction(const WriteTransaction &) = delete;
    WriteTransaction &operator=(const WriteTransaction &) = delete;

    Result<Done> begin()
    {
        Result<Done> begun = m_db.exec("BEGIN IMMEDIATE;");
        m_open = begun.ok();
        return begun;
    }
    Result<Done> commit()
    {
        Result<Done> committed = m_db.exec("COMMIT;");
        if (committed)
            m_open = false;
        return committed;
    }

private:
    SqliteConnection &m_db;
    bool m_open = false;
};

QString nowText()
{
    return storeTimestamp(QDateTime::currentDateTimeUtc());
}

QString gridText(const std::optional<GridShape> &g)
{
    return g ? QStringLiteral("%1x%2").arg(g->branches).arg(g->refinements) : QString();
}

constexpr const char *InsertCellSql =
    "INSERT INTO cells(iteration_id, cell_id, branch, attempt, seq, score, evaluated, valid, fail_class, error, "
    "n_valid, n_total, tags, proposal, program, stdout, stderr, metrics, agent, agent_name, model, tokens_in, "
    "tokens_out, cost, timing, agent_wall_s, eval_wall_s, wall_s, payload) "
    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22, "
    "?23, ?24, ?25, ?26, ?27, ?28, ?29)";

void bindJson(SqliteStatement &s, int i, const QByteArray &json)
{
    if (json.isEmpty())
        s.bindNull(i);
    else
        s.bindText(i, json);
}

QString checkCell(const Cell &c)
{
    if (c.id.isEmpty())
        return QStringLiteral("the cell id is empty");
    if (c.branch < 0 || c.attempt < 0)
        return QStringLiteral("cell \"%1\": branch and attempt must be >= 0").arg(c.id);
    if (c.score && !std::isfinite(*c.score))
        return QStringLiteral("cell \"%1\": score: is not a finite number").arg(c.id);
    return {};
}

} // namespace

struct ProjectWriter::Private
{
    std::unique_ptr<QLockFile> lock;
    std::unique_ptr<SqliteConnection> db;
    std::unique_ptr<ArtifactStore> artifacts;
    std::unique_ptr<SqliteStatement> insertCell;
    std::unique_ptr<SqliteStatement> countCell;
    std::unique_ptr<SqliteStatement> linkArtifact;

    QString where(const QString &what) const { return QStringLiteral("%1: %2").arg(db->path(), what); }

    /// Inserts one cell row and its artifact links; the caller holds a transaction.
    Result<Done> insertCellRow(IterationId iteration, const Cell &c, const QList<ArtifactRef> &refs)
    {
        if (const QString bad = checkCell(c); !bad.isEmpty())
            return Result<Done>::failure(where(QStringLiteral("iteration %1: %2").arg(iteration).arg(bad)));
        SqliteStatement &s = *insertCell;
        const CellColumns cols = CellColumns::split(c.payload);
        s.bind(1, iteration);
        s.bind(2, c.id);
        s.bind(3, qint64(c.branch));
        s.bind(4, qint64(c.attempt));
        s.bind(5, c.seq);
        s.bind(6, c.score);
        s.bind(7, qint64(c.evaluated ? 1 : 0));
        if (c.valid)
            s.bind(8, qint64(*c.valid ? 1 : 0));
        s.bind(9, c.failClass);
        s.bind(10, c.error);
        s.bind(11, c.nValid);
        s.bind(12, c.nTotal);
        s.bindText(13, c.tags.isEmpty() ? QByteArrayLiteral("[]")
                                        : QJsonDocument(QJsonArray::fromStringList(c.tags)).toJson(QJsonDocument::Compact));
        s.bind(14, cols.proposal);
        s.bind(15, cols.program);
        s.bind(16, cols.stdoutText);
        s.bind(17, cols.stderrText);
        bindJson(s, 18, cols.metrics);
        bindJson(s, 19, cols.agent);
        s.bind(20, cols.agentName);
        s.bind(21, cols.model);
        s.bind(22, cols.tokensIn);
        s.bind(23, cols.tokensOut);
        s.bind(24, cols.cost);
        bindJson(s, 25, cols.timing);
        s.bind(26, cols.agentWall);
        s.bind(27, cols.evalWall);
        s.bind(28, cols.wall);
        s.bindText(29, cols.payload);
        const bool ok = s.run();
        s.reset();
        if (!ok)
            return Result<Done>::failure(
                where(QStringLiteral("iteration %1: cannot store cell \"%2\": %3").arg(iteration).arg(c.id, s.error())));
        const qint64 rowid = db->lastInsertRowId();
        for (const ArtifactRef &ref : refs) {
            SqliteStatement &l = *linkArtifact;
            l.bind(1, rowid);
            l.bind(2, ref.name);
            l.bind(3, ref.hash);
            const bool linked = l.run();
            l.reset();
            if (!linked)
                return Result<Done>::failure(where(QStringLiteral("iteration %1: cell \"%2\": cannot link artifact %3 (%4): %5")
                                                       .arg(iteration)
                                                       .arg(c.id, ref.hash, ref.name, l.error())));
        }
        return Result<Done>::success({});
    }

    /// Inserts an iteration row; the caller holds a transaction.
    Result<IterationId> insertIteration(const IterationInfo &info)
    {
        SqliteStatement s(*db,
                          "INSERT INTO iterations(number, task, baseline_score, max_parallelism, grid_branches, "
                          "grid_refinements, grid_reason, beta, policy_version_id, status, started, finished, "
                          "best_score, cell_count, source, payload, rounds_limit, calls_limit) "
                          "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18)");
        s.bind(1, info.number);
        s.bind(2, info.task);
        s.bind(3, info.baselineScore);
        if (info.maxParallelism)
            s.bind(4, qint64(*info.maxParallelism));
        if (info.grid) {
            s.bind(5, qint64(info.grid->branches));
            s.bind(6, qint64(info.grid->refinements));
        }
        s.bind(7, info.gridReason);
        s.bind(8, info.beta);
        if (info.policyVersion > 0)
            s.bind(9, info.policyVersion);
        s.bind(10, iterationStatusName(info.status));
        s.bind(11, storeTimestamp(info.started.isValid() ? info.started : QDateTime::currentDateTimeUtc()));
        if (info.status != IterationStatus::Running)
            s.bind(12, storeTimestamp(info.finished.isValid() ? info.finished : QDateTime::currentDateTimeUtc()));
        s.bind(13, info.bestScore);
        s.bind(14, info.cellCount);
        s.bind(15, info.source);
        s.bindText(16, compactJson(info.payload));
        if (info.roundLimit)
            s.bind(17, qint64(*info.roundLimit));
        s.bind(18, info.callLimit);
        if (!s.run())
            return Result<IterationId>::failure(where(QStringLiteral("cannot store the iteration: %1").arg(s.error())));
        return Result<IterationId>::success(db->lastInsertRowId());
    }

    Result<IterationId> insertTree(const DiscoveryTree &tree, const QString &source)
    {
        IterationInfo info;
        const TreeMeta &m = tree.meta();
        info.number = m.iteration;
        info.task = m.task;
        info.baselineScore = m.baselineScore;
        info.maxParallelism = m.maxParallelism;
        info.grid = m.grid;
        info.payload = m.payload;
        // The row has no column of its own for it: kept with the payload, taken out again by treeMeta().
        if (m.approximate)
            info.payload.insert(QLatin1String("approximate"), true);
        info.status = IterationStatus::Finished;
        info.bestScore = tree.bestScore();
        info.cellCount = tree.cellCount();
        info.source = source;
        const Result<IterationId> id = insertIteration(info);
        if (!id)
            return id;
        for (const Cell &c : tree.cells()) {
            if (const Result<Done> stored = insertCellRow(*id.value, c, {}); !stored)
                return Result<IterationId>::failure(source.isEmpty() ? stored.error
                                                                     : source + QStringLiteral(": ") + stored.error);
        }
        return id;
    }
};

ProjectWriter::ProjectWriter()
    : d(std::make_unique<Private>())
{
}

ProjectWriter::~ProjectWriter()
{
    d->insertCell.reset();
    d->countCell.reset();
    d->linkArtifact.reset();
    if (d->db) {
        // Fold the WAL back into the database so the file is self-contained when closed.
        d->db->exec("PRAGMA wal_checkpoint(TRUNCATE);"); // only keeps the WAL small
    }
    d->db.reset();
    if (d->lock)
        d->lock->unlock();
}

namespace {

QString lockError(const QString &path, QLockFile &lock)
{
    switch (lock.error()) {
    case QLockFile::LockFailedError: {
        qint64 pid = 0;
        QString host, app;
        if (lock.getLockInfo(&pid, &host, &app))
            return QStringLiteral("%1: the project is already open for writing by %2 (process %3 on %4); "
                                  "close it there first")
                .arg(path, app.isEmpty() ? QStringLiteral("another program") : app)
                .arg(pid)
                .arg(host);
        return QStringLiteral("%1: the project is already open for writing by another program").arg(path);
    }
    case QLockFile::PermissionError:
        return QStringLiteral("%1: cannot create the lock file %1.lock: permission denied (is the location read-only?)")
            .arg(path);
    case QLockFile::UnknownError:
    case QLockFile::NoError: break;
    }
    return QStringLiteral("%1: cannot create the lock file %1.lock (is the location writable?)").arg(path);
}

/// A lock file whose owner cannot be read (a process killed while it was
/// writing the file) and that no live process holds: QLockFile keeps its
/// flock(2) on the file for as long as the lock is held and writes the owner
/// right after taking it, so an unreadable file nobody holds, twice in a row,
/// is left over from a dead process. QLockFile itself never calls such a file
/// stale (we set no stale age), which would keep the project locked for good.
bool unreadableAndUnheld(const QString &lockPath, QLockFile &lock)
{
    auto check = [&] {
        qint64 pid = 0;
        QString host, app;
        if (lock.getLockInfo(&pid, &host, &app))
            return false;
        return ProjectLock::heldState(lockPath) == ProjectLock::Held::No;
    };
    if (!check())
        return false;
    QThread::msleep(50); // a live owner takes its flock at once and writes within microseconds
    return check();
}

/// Why the project at `path` cannot be created (it exists, or its folder does
/// not) or opened (no such file, or a folder); nothing when it can.
std::optional<QString> pathProblem(const QFileInfo &fi, const QString &path, bool create)
{
    if (create) {
        if (fi.exists())
            return QStringLiteral("%1: already exists; choose a new file name").arg(path);
        const QFileInfo dir(fi.absolutePath());
        if (!dir.isDir())
            return QStringLiteral("%1: the folder %2 does not exist").arg(path, dir.absoluteFilePath());
    } else {
        if (!fi.exists())
            return QStringLiteral("%1: no such project file").arg(path);
        if (fi.isDir())
            return QStringLiteral("%1: is a folder, not a project file").arg(path);
    }
    return std::nullopt;
}

/// The project row: written at creation; re-made when a crash came between
/// the schema and the row. Inside the opening's transaction.
StoreResult<Done> ensureProjectRow(SqliteConnection &db, const ProjectInfo &info, const QFileInfo &fi,
                                   const QString &path)
{
    SqliteStatement has(db, "SELECT count(*) FROM project");
    if (has.step() != SqliteStatement::Step::Row)
        return StoreResult<Done>::failure(QStringLiteral("%1: %2").arg(path, has.error()));
    if (has.int64(0) == 0) {
        SqliteStatement ins(db, "INSERT INTO project(id, name, task, settings, created) VALUES (1, ?1, ?2, ?3, ?4)");
        ins.bind(1, info.name.isEmpty() ? fi.completeBaseName() : info.name);
        ins.bind(2, info.task);
        ins.bindText(3, compactJson(info.settings));
        ins.bind(4, storeTimestamp(info.created.isValid() ? info.created : QDateTime::currentDateTimeUtc()));
        if (!ins.run())
            return StoreResult<Done>::failure(QStringLiteral("%1: %2").arg(path, ins.error()));
    }
    return StoreResult<Done>::success(Done());
}

/// Recovery: a round still `running` belonged to a process that died; marks
/// such rounds interrupted and returns them. Inside the opening's transaction.
StoreResult<QList<IterationInfo>> markInterrupted(SqliteConnection &db, const QString &path)
{
    QList<IterationInfo> interrupted;
    const QByteArray sql =
        QByteArray("SELECT ") + IterationSelectColumns + " FROM iterations WHERE status = 'running' ORDER BY id";
    SqliteStatement running(db, sql.constData());
    while (running.step() == SqliteStatement::Step::Row) {
        IterationInfo it = iterationFromRow(running);
        it.status = IterationStatus::Interrupted;
        interrupted.append(it);
    }
    SqliteStatement mark(db, "UPDATE iterations SET status = 'interrupted' WHERE status = 'running'");
    if (!mark.run())
        return StoreResult<QList<IterationInfo>>::failure(QStringLiteral("%1: %2").arg(path, mark.error()));
    return StoreResult<QList<IterationInfo>>::success(interrupted);
}

/// What opening found: the project row, the rounds it marked interrupted and,
/// when the artifact folder was missing, every artifact the database refers
/// to that the re-made folder lacks.
OpenReport openReport(SqliteConnection &db, const ArtifactStore &artifacts, const QList<IterationInfo> &interrupted,
                      int version, const QString &path, bool folderMissing, bool create)
{
    OpenReport report;
    report.interrupted = interrupted;
    SqliteStatement proj(db, "SELECT name, task, settings, created FROM project WHERE id = 1");
    if (proj.step() == SqliteStatement::Step::Row) {
        report.project.name = proj.text(0);
        report.project.task = proj.text(1);
        report.project.settings = parseObject(proj.textUtf8(2));
        report.project.created = parseStoreTimestamp(proj.text(3));
    }
    report.project.schemaVersion = version;
    report.project.path = path;
    report.project.artifactDir = artifacts.folder();
    report.artifactFolderRecreated = folderMissing && !create;
    if (folderMissing) {
        SqliteStatement all(db, "SELECT hash FROM artifacts WHERE content IS NULL ORDER BY hash");
        while (all.step() == SqliteStatement::Step::Row) {
            const QString hash = all.text(0);
            if (!artifacts.contains(hash))
                report.missingArtifacts.append(hash);
        }
    }
    return report;
}

} // namespace

StoreResult<std::unique_ptr<ProjectWriter>> ProjectWriter::create(const QString &path, const ProjectInfo &info,
                                                                  OpenReport *report)
{
    return openImpl(path, true, info, report);
}

StoreResult<std::unique_ptr<ProjectWriter>> ProjectWriter::open(const QString &path, OpenReport *report)
{
    return openImpl(path, false, ProjectInfo(), report);
}

StoreResult<std::unique_ptr<ProjectWriter>> ProjectWriter::openImpl(const QString &rawPath, bool create,
                                                                    const ProjectInfo &info, OpenReport *report)
{
    using R = StoreResult<std::unique_ptr<ProjectWriter>>;
    std::unique_ptr<ProjectWriter> w(new ProjectWriter);
    Private &d = *w->d;
    const QFileInfo fi(rawPath);
    const QString path = fi.absoluteFilePath();
    if (rawPath.isEmpty())
        return R::failure(QStringLiteral("no project path given"));
    if (const std::optional<QString> problem = pathProblem(fi, path, create))
        return R::failure(*problem);

    d.lock = std::make_unique<QLockFile>(path + QStringLiteral(".lock"));
    d.lock->setStaleLockTime(0);
    if (!d.lock->tryLock(0)) {
        const bool leftOver = d.lock->error() == QLockFile::LockFailedError
                              && unreadableAndUnheld(path + QStringLiteral(".lock"), *d.lock)
                              && d.lock->removeStaleLockFile() && d.lock->tryLock(0);
        if (!leftOver)
            return R::failure(lockError(path, *d.lock));
    }

    Result<std::unique_ptr<SqliteConnection>> opened =
        SqliteConnection::open(path, create ? SqliteConnection::Mode::Create : SqliteConnection::Mode::ReadWrite);
    if (!opened) {
        return R::failure(QStringLiteral("%1: cannot open for writing: %2%3")
                              .arg(path, opened.error,
                                   fi.exists() && !fi.isWritable() ? QStringLiteral(" (the file is read-only)") : QString()));
    }
    d.db = std::move(*opened.value);
    if (const Result<Done> configured = Schema::configure(*d.db, true); !configured)
        return R::failure(QStringLiteral("%1: %2").arg(path, configured.error));
    const Result<int> prepared = Schema::prepare(*d.db, true, create);
    if (!prepared) {
        if (create) {
            d.db.reset();
            QFile::remove(path);
        }
        return prepared.failureAs<std::unique_ptr<ProjectWriter>>();
    }
    const int version = *prepared.value;
    // WAL: readers keep reading while the writer commits; NORMAL is durable
    // against a crash of the process (not of the machine) and never corrupts.
    if (d.db->queryText("PRAGMA journal_mode = WAL;").valueOr(QString()) != QLatin1String("wal"))
        return R::failure(QStringLiteral("%1: cannot switch the database to WAL mode: %2 (is the location read-only?)")
                              .arg(path, d.db->lastError()));
    if (const Result<Done> tuned = d.db->exec("PRAGMA synchronous = NORMAL; PRAGMA journal_size_limit = 67108864;"); !tuned)
        return R::failure(QStringLiteral("%1: %2").arg(path, tuned.error));

    d.artifacts = std::make_unique<ArtifactStore>(ArtifactStore::folderFor(path));
    d.insertCell = std::make_unique<SqliteStatement>(*d.db, InsertCellSql);
    d.countCell = std::make_unique<SqliteStatement>(
        *d.db, "UPDATE iterations SET cell_count = cell_count + 1, best_score = CASE WHEN ?2 IS NULL THEN best_score "
               "WHEN best_score IS NULL OR ?2 > best_score THEN ?2 ELSE best_score END WHERE id = ?1");
    d.linkArtifact =
        std::make_unique<SqliteStatement>(*d.db, "INSERT INTO cell_artifacts(cell_rowid, name, hash) VALUES (?1, ?2, ?3)");
    for (const SqliteStatement *s : {d.insertCell.get(), d.countCell.get(), d.linkArtifact.get()}) {
        if (!s->isValid())
            return R::failure(QStringLiteral("%1: %2").arg(path, s->error()));
    }

    WriteTransaction tx(*d.db);
    if (const Result<Done> begun = tx.begin(); !begun)
        return R::failure(QStringLiteral("%1: %2").arg(path, begun.error));
    if (const StoreResult<Done> row = ensureProjectRow(*d.db, info, fi, path); !row)
        return row.failureAs<std::unique_ptr<ProjectWriter>>();
    const StoreResult<QList<IterationInfo>> interrupted = markInterrupted(*d.db, path);
    if (!interrupted)
        return interrupted.failureAs<std::unique_ptr<ProjectWriter>>();
    if (const Result<Done> committed = tx.commit(); !committed)
        return R::failure(QStringLiteral("%1: %2").arg(path, committed.error));

    // The artifact folder: made with the project; when it went missing, it is
    // re-made and every artifact the database refers to is reported.
    const bool folderMissing = !d.artifacts->folderExists();
    if (const Result<Done> folder = d.artifacts->ensureFolder(); !folder)
        return folder.failureAs<std::unique_ptr<ProjectWriter>>();
    if (report)
        *report = openReport(*d.db, *d.artifacts, *interrupted.value, version, path, folderMissing, create);
    return R::success(std::move(w));
}

QString ProjectWriter::path() const
{
    return d->db->path();
}

QString ProjectWriter::artifactDir() const
{
    return d->artifacts->folder();
}

StoreResult<Done> ProjectWriter::updateProject(const ProjectInfo &info)
{
    SqliteStatement s(*d->db, "UPDATE project SET name = ?1, task = ?2, settings = ?3 WHERE id = 1");
    s.bind(1, info.name);
    s.bind(2, info.task);
    s.bindText(3, compactJson(info.settings));
    if (!s.run())
        return StoreResult<Done>::failure(d->where(s.error()));
    return StoreResult<Done>::success({});
}

StoreResult<IterationId> ProjectWriter::beginIteration(const IterationInfo &info)
{
    using R = StoreResult<IterationId>;
    WriteTransaction tx(*d->db);
    if (const Result<Done> begun = tx.begin(); !begun)
        return R::failure(d->where(begun.error));
    IterationInfo running = info;
    running.status = IterationStatus::Running;
    running.cellCount = 0;
    running.bestScore.reset();
    const Result<IterationId> id = d->insertIteration(running);
    if (!id)
        return id;
    if (info.maxParallelism && *info.maxParallelism >= 1) {
        // The first round sets W unless someone set the configuration before.
        SqliteStatement w(*d->db, "INSERT INTO replay_config(id, workers, origin, updated) VALUES (1, ?1, 'first_round', ?2) "
                                  "ON CONFLICT(id) DO UPDATE SET workers = excluded.workers, origin = excluded.origin, "
                                  "updated = excluded.updated WHERE origin = 'default'");
        w.bind(1, qint64(*info.maxParallelism));
        w.bind(2, nowText());
        if (!w.run())
            return R::failure(d->where(w.error()));
    }
    if (const Result<Done> committed = tx.commit(); !committed)
        return R::failure(d->where(committed.error));
    return id;
}

StoreResult<Done> ProjectWriter::appendCell(IterationId iteration, const Cell &cell, const QList<ArtifactRef> &artifacts)
{
    using R = StoreResult<Done>;
    WriteTransaction tx(*d->db);
    if (const Result<Done> begun = tx.begin(); !begun)
        return R::failure(d->where(begun.error));
    {
        SqliteStatement st(*d->db, "SELECT status FROM iterations WHERE id = ?1");
        st.bind(1, iteration);
        if (st.step() != SqliteStatement::Step::Row)
            return R::failure(d->where(QStringLiteral("iteration %1 does not exist").arg(iteration)));
        if (st.text(0) != QLatin1String("running"))
            return R::failure(d->where(QStringLiteral("iteration %1 is %2; cells can only be added to a running round")
                                           .arg(iteration)
                                           .arg(st.text(0))));
    }
    if (const Result<Done> stored = d->insertCellRow(iteration, cell, artifacts); !stored)
        return stored;
    SqliteStatement &count = *d->countCell;
    count.bind(1, iteration);
    count.bind(2, cell.score);
    const bool counted = count.run();
    count.reset();
    if (!counted)
        return R::failure(d->where(count.error()));
    if (const Result<Done> committed = tx.commit(); !committed)
        return R::failure(d->where(committed.error));
    return R::success({});
}

StoreResult<Done> ProjectWriter::finishIteration(IterationId iteration, IterationStatus status)
{
    using R = StoreResult<Done>;
    if (status == IterationStatus::Running)
        return R::failure(d->where(QStringLiteral("finishIteration: the new status must be finished, interrupted or stopped")));
    SqliteStatement s(*d->db, "UPDATE iterations SET status = ?2, finished = ?3 WHERE id = ?1 AND status = 'running'");
    s.bind(1, iteration);
    s.bind(2, iterationStatusName(status));
    s.bind(3, nowText());
    if (!s.run())
        return R::failure(d->where(s.error()));
    if (d->db->changes() == 0)
        return R::failure(d->where(QStringLiteral("iteration %1 is not a running round").arg(iteration)));
    return R::success({});
}

StoreResult<QList<Cell>> ProjectWriter::resumeIteration(IterationId iteration, const std::optional<IterationLimits> &limits)
{
    using R = StoreResult<QList<Cell>>;
    WriteTransaction tx(*d->db);
    if (const Result<Done> begun = tx.begin(); !begun)
        return R::failure(d->where(begun.error));
    SqliteStatement s(*d->db,
                      "UPDATE iterations SET status = 'running', finished = NULL WHERE id = ?1 "
                      "AND status IN ('interrupted', 'stopped')");
    s.bind(1, iteration);
    if (!s.run())
        return R::failure(d->where(s.error()));
    if (d->db->changes() == 0)
        return R::failure(d->where(QStringLiteral("iteration %1 is not an interrupted or stopped round").arg(iteration)));
    if (limits) {
        SqliteStatement l(*d->db, "UPDATE iterations SET max_parallelism = ?2, rounds_limit = ?3, calls_limit = ?4 WHERE id = ?1");
        l.bind(1, iteration);
        l.bind(2, qint64(limits->maxParallelism));
        if (limits->roundLimit)
            l.bind(3, qint64(*limits->roundLimit));
        l.bind(4, limits->callLimit);
        if (!l.run())
            return R::failure(d->where(l.error()));
    }
    QList<Cell> cells;
    const QByteArray sql = QByteArray("SELECT ") + CellSelectColumns + " FROM cells WHERE iteration_id = ?1 ORDER BY seq";
    SqliteStatement q(*d->db, sql.constData());
    q.bind(1, iteration);
    SqliteStatement::Step step;
    while ((step = q.step()) == SqliteStatement::Step::Row)
        cells.append(cellFromRow(q));
    if (step == SqliteStatement::Step::Error)
        return R::failure(d->where(q.error()));
    if (const Result<Done> committed = tx.commit(); !committed)
        return R::failure(d->where(committed.error));
    return R::success(std::move(cells));
}

StoreResult<IterationId> ProjectWriter::importTree(const DiscoveryTree &tree, const QString &source)
{
    const StoreResult<QList<IterationId>> r = importTrees({tree}, source.isEmpty() ? QStringList() : QStringList{source});
    if (!r.ok())
        return StoreResult<IterationId>::failure(r.error);
    return StoreResult<IterationId>::success(r.value->first());
}

StoreResult<QList<IterationId>> ProjectWriter::importTrees(const QList<DiscoveryTree> &trees, const QStringList &sources)
{
    using R = StoreResult<QList<IterationId>>;
    WriteTransaction tx(*d->db);
    if (const Result<Done> begun = tx.begin(); !begun)
        return R::failure(d->where(begun.error));
    QList<IterationId> ids;
    ids.reserve(trees.size());
    for (qsizetype i = 0; i < trees.size(); ++i) {
        const Result<IterationId> id = d->insertTree(trees.at(i), sources.value(i));
        if (!id)
            return id.failureAs<QList<IterationId>>();
        ids.append(*id.value);
    }
    if (const Result<Done> committed = tx.commit(); !committed)
        return R::failure(d->where(committed.error));
    return R::success(std::move(ids));
}

StoreResult<ArtifactRef> ProjectWriter::putArtifact(const QByteArray &content, const QString &name)
{
    using R = StoreResult<ArtifactRef>;
    // A small artifact goes into its row (one statement: atomic); a larger
    // one into the folder first, so that a row never lacks its file.
    const bool inRow = content.size() <= ArtifactStore::InlineLimit;
    QString hash;
    if (inRow) {
        hash = ArtifactStore::hashOf(content);
    } else {
        const Result<QString> put = d->artifacts->put(content);
        if (!put)
            return put.failureAs<ArtifactRef>();
        hash = *put.value;
    }
    // An artifact first stored as a file (an older project, a lost folder)
    // moves into its row when it comes again.
    SqliteStatement s(*d->db, inRow ? "INSERT INTO artifacts(hash, size, created, content) VALUES (?1, ?2, ?3, ?4) "
                                        "ON CONFLICT(hash) DO UPDATE SET content = excluded.content WHERE content IS NULL"
                                      : "INSERT OR IGNORE INTO artifacts(hash, size, created) VALUES (?1, ?2, ?3)");
    s.bind(1, hash);
    s.bind(2, qint64(content.size()));
    s.bind(3, nowText());
    if (inRow)
        s.bindBlob(4, content);
    if (!s.run())
        return R::failure(d->where(s.error()));
    return R::success(ArtifactRef{hash, qint64(content.size()), name});
}

StoreResult<PolicyVersionId> ProjectWriter::addPolicyVersion(const PolicyVersion &v)
{
    using R = StoreResult<PolicyVersionId>;
    if (v.name.trimmed().isEmpty())
        return R::failure(d->where(QStringLiteral("a policy version needs a name")));
    {
        SqliteStatement dup(*d->db, "SELECT id FROM policy_versions WHERE name = ?1");
        dup.bind(1, v.name);
        if (dup.step() == SqliteStatement::Step::Row)
            return R::failure(d->where(QStringLiteral("policy version name \"%1\" is already used (version %2)")
                                           .arg(v.name)
                                           .arg(dup.int64(0))));
    }
    SqliteStatement s(*d->db, "INSERT INTO policy_versions(name, code, parent_id, origin, prompt, response, created) "
                              "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)");
    s.bind(1, v.name);
    s.bind(2, v.code);
    if (v.parent > 0)
        s.bind(3, v.parent);
    s.bind(4, policyOriginName(v.origin));
    s.bind(5, v.prompt);
    s.bind(6, v.response);
    s.bind(7, storeTimestamp(v.created.isValid() ? v.created : QDateTime::currentDateTimeUtc()));
    if (!s.run()) {
        return R::failure(d->where(v.parent > 0 && (d->db->lastErrorCode() & 0xff) == SQLITE_CONSTRAINT
                                       ? QStringLiteral("policy version \"%1\": parent version %2 does not exist")
                                             .arg(v.name)
                                             .arg(v.parent)
                                       : s.error()));
    }
    return R::success(d->db->lastInsertRowId());
}

StoreResult<Done> ProjectWriter::storeReplayResults(const QList<ReplayResultRecord> &results)
{
    using R = StoreResult<Done>;
    WriteTransaction tx(*d->db);
    if (const Result<Done> begun = tx.begin(); !begun)
        return R::failure(d->where(begun.error));
    SqliteStatement s(*d->db,
                      "INSERT OR REPLACE INTO replay_results(policy_version_id, world_id, beta, workers, lambda, "
                      "rounds_limit, grid, calls, rounds, best, attainment, revealed, error, created, completions, completion, "
                      "rule) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17)");
    const QString now = nowText();
    for (const ReplayResultRecord &r : results) {
        const ReplayKey &k = r.key;
        if (!std::isfinite(k.beta) || !std::isfinite(k.lambda) || !std::isfinite(r.best) || !std::isfinite(r.attainment))
            return R::failure(d->where(QStringLiteral("replay result of version %1 in world %2: a number is not finite")
                                           .arg(k.version)
                                           .arg(k.world)));
        s.bind(1, k.version);
        s.bind(2, k.world);
        s.bind(3, k.beta);
        s.bind(4, qint64(k.workers));
        s.bind(5, k.lambda);
        s.bind(6, qint64(k.rounds.value_or(0)));
        s.bind(7, gridText(k.grid));
        s.bind(8, r.calls);
        s.bind(9, qint64(r.rounds));
        s.bind(10, r.best);
        s.bind(11, r.attainment);
        s.bindText(12, QJsonDocument(QJsonArray::fromStringList(r.revealed)).toJson(QJsonDocument::Compact));
        s.bind(13, r.error);
        s.bind(14, now);
        s.bind(15, qint64(k.completions));
        s.bind(16, qint64(k.completion));
        // A world as revealed was drawn under no rule: stored as capped, so one key names it.
        s.bind(17, imaginationRuleName(k.isImagined() ? k.rule : ImaginationRule::Capped));
        const bool ok = s.run();
        s.reset();
        if (!ok) {
            return R::failure(d->where(QStringLiteral("replay result of version %1 in world %2 (beta %3): %4")
                                           .arg(k.version)
                                           .arg(k.world)
                                           .arg(k.beta)
                                           .arg(s.error())));
        }
    }
    if (const Result<Done> committed = tx.commit(); !committed)
        return R::failure(d->where(committed.error));
    return R::success({});
}

StoreResult<qint64> ProjectWriter::addApproval(const Approval &a)
{
    using R = StoreResult<qint64>;
    SqliteStatement s(*d->db, "INSERT INTO approvals(policy_version_id, approved_at, approved_by, evidence, note) "
                              "VALUES (?1, ?2, ?3, ?4, ?5)");
    s.bind(1, a.version);
    s.bind(2, storeTimestamp(a.when.isValid() ? a.when : QDateTime::currentDateTimeUtc()));
    s.bind(3, a.who);
    s.bindText(4, compactJson(a.evidence));
    s.bind(5, a.note);
    if (!s.run()) {
        return R::failure(d->where((d->db->lastErrorCode() & 0xff) == SQLITE_CONSTRAINT
                                       ? QStringLiteral("approval: policy version %1 does not exist").arg(a.version)
                                       : s.error()));
    }
    return R::success(d->db->lastInsertRowId());
}

StoreResult<Done> ProjectWriter::setReplayConfig(const ReplayConfig &c)
{
    using R = StoreResult<Done>;
    if (c.workers < ReplayBounds::MinWorkers || c.workers > ReplayBounds::MaxWorkers)
        return R::failure(d->where(QStringLiteral("replay configuration: W must be in [%1, %2] (got %3)")
                                       .arg(ReplayBounds::MinWorkers).arg(ReplayBounds::MaxWorkers).arg(c.workers)));
    if (!std::isfinite(c.lambda) || c.lambda < 0 || c.lambda > ReplayBounds::MaxLambda)
        return R::failure(d->where(QStringLiteral("replay configuration: λ must be a number in [0, %1] (got %2)")
                                       .arg(ReplayBounds::MaxLambda).arg(c.lambda)));
    if (c.betas.isEmpty())
        return R::failure(d->where(QStringLiteral("replay configuration: the β grid is empty")));
    QList<double> sorted = c.betas;
    std::sort(sorted.begin(), sorted.end());
    sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
    QJsonArray betas;
    for (const double b : std::as_const(sorted)) {
        if (!(b >= 0.0 && b <= 1.0))
            return R::failure(d->where(QStringLiteral("replay configuration: β %1 is outside [0, 1]").arg(b)));
        betas.append(b);
    }
    if (c.rounds && (*c.rounds < ReplayBounds::MinRounds || *c.rounds > ReplayBounds::MaxRounds))
        return R::failure(d->where(QStringLiteral("replay configuration: K must be in [%1, %2] (got %3)")
                                       .arg(ReplayBounds::MinRounds).arg(ReplayBounds::MaxRounds).arg(*c.rounds)));
    if (c.completions < ReplayBounds::MinCompletions || c.completions > ReplayBounds::MaxCompletions)
        return R::failure(d->where(QStringLiteral("replay configuration: C must be in [%1, %2] (got %3)")
                                       .arg(ReplayBounds::MinCompletions).arg(ReplayBounds::MaxCompletions).arg(c.completions)));
    SqliteStatement s(*d->db, "INSERT OR REPLACE INTO replay_config(id, workers, lambda, betas, rounds_limit, origin, updated, "
                              "valuation, completions, rule) VALUES (1, ?1, ?2, ?3, ?4, 'user', ?5, ?6, ?7, ?8)");
    s.bind(1, qint64(c.workers));
    s.bind(2, c.lambda);
    s.bindText(3, QJsonDocument(betas).toJson(QJsonDocument::Compact));
    s.bind(4, qint64(c.rounds.value_or(0)));
    s.bind(5, nowText());
    s.bind(6, valuationName(c.valuation));
    s.bind(7, qint64(c.completions));
    s.bind(8, imaginationRuleName(c.rule));
    if (!s.run())
        return R::failure(d->where(s.error()));
    return R::success({});
}

StoreResult<qint64> ProjectWriter::addSteeringEvent(const SteeringEvent &e)
{
    using R = StoreResult<qint64>;
    if (!e.requestId.isEmpty()) {
        SqliteStatement known(*d->db, "SELECT id FROM steering_events WHERE request_id = ?1");
        known.bind(1, e.requestId);
        switch (known.step()) {
        case SqliteStatement::Step::Row: return R::success(known.int64(0));
        case SqliteStatement::Step::Error: return R::failure(d->where(known.error()));
        case SqliteStatement::Step::Done: break;
        }
    }
    SqliteStatement s(*d->db, "INSERT INTO steering_events(iteration_id, round, time, who, action, branch, target, text, "
                              "why, request_id, payload) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)");
    if (e.iteration != 0)
        s.bind(1, e.iteration);
    else
        s.bindNull(1);
    s.bind(2, e.round ? std::optional<qint64>(*e.round) : std::nullopt);
    s.bind(3, storeTimestamp(e.time.isValid() ? e.time : QDateTime::currentDateTimeUtc()));
    s.bind(4, e.who);
    s.bind(5, e.action);
    s.bind(6, e.branch ? std::optional<qint64>(*e.branch) : std::nullopt);
    s.bind(7, e.target);
    s.bind(8, e.text);
    s.bind(9, e.why);
    s.bind(10, e.requestId.isEmpty() ? std::nullopt : std::optional<QString>(e.requestId));
    s.bindText(11, compactJson(e.payload));
    if (!s.run()) {
        return R::failure(d->where((d->db->lastErrorCode() & 0xff) == SQLITE_CONSTRAINT
                                       ? QStringLiteral("steering event: iteration %1 does not exist").arg(e.iteration)
                                       : s.error()));
    }
    return R::success(d->db->lastInsertRowId());
}

StoreResult<qint64> ProjectWriter::addReevaluation(const ReevaluationRecord &r)
{
    using R = StoreResult<qint64>;
    SqliteStatement cell(*d->db, "SELECT id FROM cells WHERE iteration_id = ?1 AND cell_id = ?2");
    cell.bind(1, r.iteration);
    cell.bind(2, r.cellId);
    qint64 rowid = 0;
    switch (cell.step()) {
    case SqliteStatement::Step::Row: rowid = cell.int64(0); break;
    case SqliteStatement::Step::Error: return R::failure(d->where(cell.error()));
    case SqliteStatement::Step::Done:
        return R::failure(d->where(QStringLiteral("re-evaluation: iteration %1 has no cell '%2'").arg(r.iteration).arg(r.cellId)));
    }
    if (r.failClass.isEmpty())
        return R::failure(d->where(QStringLiteral("re-evaluation of %1: no fail class").arg(r.cellId)));
    SqliteStatement s(*d->db, "INSERT INTO reevaluations(cell_rowid, score, fail_class, error, seconds, backend, host, "
                              "job_id, time) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)");
    s.bind(1, rowid);
    s.bind(2, r.score);
    s.bind(3, r.failClass);
    s.bind(4, r.error.isEmpty() ? std::nullopt : std::optional<QString>(r.error));
    s.bind(5, r.seconds);
    s.bind(6, r.backend);
    s.bind(7, r.host);
    s.bind(8, r.jobId);
    s.bind(9, storeTimestamp(r.time.isValid() ? r.time : QDateTime::currentDateTimeUtc()));
    if (!s.run())
        return R::failure(d->where(s.error()));
    return R::success(d->db->lastInsertRowId());
}

StoreResult<Done> ProjectWriter::integrityCheck()
{
    SqliteStatement s(*d->db, "PRAGMA integrity_check");
    QStringList lines;
    while (s.step() == SqliteStatement::Step::Row)
        lines.append(s.text(0));
    if (lines != QStringList{QStringLiteral("ok")})
        return StoreResult<Done>::failure(d->where(QStringLiteral("integrity check failed: %1").arg(lines.join(QStringLiteral("; ")))));
    return StoreResult<Done>::success({});
}

} // namespace dreamrsi
