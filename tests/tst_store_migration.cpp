// Schema migrations: a database made by schema version 1 (kept here as it
// was written, with data) opens under this build, keeps its data and gains
// the later tables; every intermediate version opens too.
#include "store/projectreader.h"
#include "store/projectwriter.h"
#include "store/schema.h"
#include "store/sqliteconnection.h"

#include <QTemporaryDir>
#include <QtTest>

#include <sqlite3.h>

using namespace dreamrsi;

namespace {

// Schema version 1 exactly as shipped, plus a small history written by it.
constexpr const char *V1Database = R"sql(
CREATE TABLE project(
  id INTEGER PRIMARY KEY CHECK (id = 1),
  name TEXT NOT NULL,
  task TEXT NOT NULL DEFAULT '',
  settings TEXT NOT NULL DEFAULT '{}',
  created TEXT NOT NULL
);
CREATE TABLE policy_versions(
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  code TEXT NOT NULL,
  parent_id INTEGER REFERENCES policy_versions(id),
  origin TEXT NOT NULL CHECK (origin IN ('builtin', 'human', 'agent')),
  prompt TEXT NOT NULL DEFAULT '',
  response TEXT NOT NULL DEFAULT '',
  created TEXT NOT NULL
);
CREATE TABLE iterations(
  id INTEGER PRIMARY KEY,
  number INTEGER,
  task TEXT,
  baseline_score REAL,
  max_parallelism INTEGER,
  grid_branches INTEGER,
  grid_refinements INTEGER,
  grid_reason TEXT NOT NULL DEFAULT '',
  beta REAL,
  policy_version_id INTEGER REFERENCES policy_versions(id),
  status TEXT NOT NULL CHECK (status IN ('running', 'finished', 'interrupted')),
  started TEXT NOT NULL,
  finished TEXT,
  best_score REAL,
  cell_count INTEGER NOT NULL DEFAULT 0,
  source TEXT NOT NULL DEFAULT '',
  payload TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX iterations_by_status ON iterations(status);
CREATE TABLE cells(
  id INTEGER PRIMARY KEY,
  iteration_id INTEGER NOT NULL REFERENCES iterations(id) ON DELETE CASCADE,
  cell_id TEXT NOT NULL,
  branch INTEGER NOT NULL,
  attempt INTEGER NOT NULL,
  seq INTEGER NOT NULL,
  score REAL,
  evaluated INTEGER NOT NULL,
  valid INTEGER,
  fail_class TEXT NOT NULL,
  error TEXT,
  n_valid INTEGER,
  n_total INTEGER,
  tags TEXT NOT NULL DEFAULT '[]',
  proposal TEXT,
  program TEXT,
  stdout TEXT,
  stderr TEXT,
  metrics TEXT,
  agent TEXT,
  agent_name TEXT,
  model TEXT,
  tokens_in INTEGER,
  tokens_out INTEGER,
  cost REAL,
  timing TEXT,
  agent_wall_s REAL,
  eval_wall_s REAL,
  wall_s REAL,
  payload TEXT NOT NULL DEFAULT '{}',
  UNIQUE (iteration_id, seq),
  UNIQUE (iteration_id, branch, attempt),
  UNIQUE (iteration_id, cell_id)
);
CREATE TABLE artifacts(
  hash TEXT PRIMARY KEY,
  size INTEGER NOT NULL,
  created TEXT NOT NULL
) WITHOUT ROWID;
CREATE TABLE cell_artifacts(
  cell_rowid INTEGER NOT NULL REFERENCES cells(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  hash TEXT NOT NULL REFERENCES artifacts(hash),
  PRIMARY KEY (cell_rowid, name)
) WITHOUT ROWID;
CREATE INDEX cell_artifacts_by_hash ON cell_artifacts(hash);
PRAGMA application_id = 1146245961;
PRAGMA user_version = 1;

INSERT INTO project VALUES (1, 'old project', 'circle_packing_26', '{"workers":4}', '2026-01-02T03:04:05.000Z');
INSERT INTO policy_versions VALUES (1, 'builtin:parallel_refine', 'function selectBatch(s) { return s.legal; }',
  NULL, 'builtin', '', '', '2026-01-02T03:04:05.000Z');
INSERT INTO iterations VALUES (1, 1, 'circle_packing_26', 0.9, 4, 2, 1, 'two by one', 0.5, 1, 'finished',
  '2026-01-02T03:04:05.000Z', '2026-01-02T04:00:00.000Z', 2.5, 3, '', '{"note":"v1"}');
INSERT INTO iterations VALUES (2, 2, 'circle_packing_26', 0.9, 4, 2, 1, '', 0.5, 1, 'running',
  '2026-01-03T03:04:05.000Z', NULL, 1.0, 1, '', '{}');
INSERT INTO cells(iteration_id, cell_id, branch, attempt, seq, score, evaluated, valid, fail_class, error, n_valid,
  n_total, tags, proposal, program, metrics, agent, agent_name, tokens_in, payload) VALUES
  (1, 'b0a0', 0, 0, 0, 1.5, 1, 1, 'ok', NULL, 5, 5, '["t"]', 'try', 'x = 1', '{"sum_radii":1.5}',
   '{"name":"builtin","tokens_in":10}', 'builtin', 10, '{"extra":[1,2]}'),
  (1, 'b1a0', 1, 0, 1, 2.5, 1, 1, 'ok', NULL, 5, 5, '[]', NULL, 'x = 2', NULL, NULL, NULL, NULL, '{}'),
  (1, 'b0a1', 0, 1, 2, NULL, 0, NULL, 'agent', 'no program', NULL, NULL, '[]', NULL, NULL, NULL, NULL, NULL, NULL, '{}'),
  (2, 'b0a0', 0, 0, 0, 1.0, 1, 1, 'ok', NULL, 5, 5, '[]', NULL, 'y', NULL, NULL, NULL, NULL, '{}');
INSERT INTO artifacts VALUES ('2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824', 5, '2026-01-02T03:04:05.000Z');
INSERT INTO cell_artifacts VALUES (1, 'hello.txt', '2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824');
)sql";

void makeV1(const QString &path)
{
    sqlite3 *db = nullptr;
    QCOMPARE(sqlite3_open(path.toUtf8().constData(), &db), SQLITE_OK);
    char *msg = nullptr;
    const int rc = sqlite3_exec(db, V1Database, nullptr, nullptr, &msg);
    QVERIFY2(rc == SQLITE_OK, msg);
    sqlite3_close(db);
    QVERIFY(QDir().mkpath(path + QStringLiteral("-artifacts/2c")));
    QFile f(path + QStringLiteral("-artifacts/2c/2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824"));
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("hello");
}

qint64 userVersion(const QString &path)
{
    const auto db = SqliteConnection::open(path, SqliteConnection::Mode::ReadOnly);
    return db ? (*db.value)->queryInt("PRAGMA user_version;").valueOr(-1) : -1;
}

/// Makes `path` a project of schema `version` as that version wrote it:
/// every migration up to it, then `rows` (SQL statements), the application
/// id and the user version. Empty, or what failed.
QString makeProjectAt(const QString &path, int version, const QByteArray &rows = {})
{
    auto opened = SqliteConnection::open(path, SqliteConnection::Mode::Create);
    if (!opened)
        return opened.error;
    const std::unique_ptr<SqliteConnection> db = std::move(*opened.value);
    for (int v = 1; v <= version; ++v) {
        if (const Result<Done> ran = db->exec(Schema::migrationTo(v)); !ran)
            return QStringLiteral("migration to %1: %2").arg(v).arg(ran.error);
    }
    const QByteArray setup = rows + "PRAGMA application_id = " + QByteArray::number(Schema::ApplicationId)
                             + "; PRAGMA user_version = " + QByteArray::number(version) + ";";
    const Result<Done> ran = db->exec(setup.constData());
    return ran ? QString() : ran.error;
}

} // namespace

class TestStoreMigration : public QObject
{
    Q_OBJECT
private slots:
    void v1OpensUnderCurrent();
    void everyVersionOpens_data();
    void everyVersionOpens();
    void readerUpgradesInMemory();
    void newFileIsMadeInOneCommit();
    void readerOfAnUpgradedFileKnowsItsCopyIsOutdated();
    void olderProjectTakesItsReplayConfiguration_data();
    void olderProjectTakesItsReplayConfiguration();
    void ruleRebuildKeepsEveryRow();
};

void TestStoreMigration::v1OpensUnderCurrent()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("v1.dreamrsi"));
    makeV1(path);
    QCOMPARE(userVersion(path), qint64(1));

    OpenReport report;
    StoreResult<std::unique_ptr<ProjectWriter>> w = ProjectWriter::open(path, &report);
    QVERIFY2(w.ok(), qPrintable(w.error));
    QCOMPARE(userVersion(path), qint64(Schema::CurrentVersion));
    QCOMPARE(report.project.schemaVersion, Schema::CurrentVersion);
    QCOMPARE(report.project.name, QStringLiteral("old project"));
    QCOMPARE(report.interrupted.size(), 1); // the v1 round left running
    QCOMPARE(report.interrupted.first().id, IterationId(2));
    QVERIFY((*w.value)->integrityCheck().ok());

    StoreResult<std::unique_ptr<ProjectReader>> r = ProjectReader::open(path);
    QVERIFY2(r.ok(), qPrintable(r.error));
    const StoreResult<ProjectInfo> info = (*r.value)->projectInfo();
    QCOMPARE(info.value->settings.value(QStringLiteral("workers")).toInt(), 4);
    const StoreResult<DiscoveryTree> tree = (*r.value)->loadIteration(1);
    QVERIFY2(tree.ok(), qPrintable(tree.error));
    QCOMPARE(tree.value->cellCount(), 3);
    const Cell &first = tree.value->cells().first();
    QCOMPARE(first.proposal(), QStringLiteral("try"));
    QCOMPARE(first.payload.value(QStringLiteral("metrics")).toObject().value(QStringLiteral("sum_radii")).toDouble(), 1.5);
    QCOMPARE(first.payload.value(QStringLiteral("extra")).toArray().size(), 2);
    QCOMPARE(tree.value->meta().payload.value(QStringLiteral("note")).toString(), QStringLiteral("v1"));
    QCOMPARE(tree.value->meta().grid, std::optional<GridShape>(GridShape{2, 1}));
    // Version 4's round limits: not recorded for older rounds.
    const StoreResult<IterationInfo> old = (*r.value)->iteration(1);
    QVERIFY2(old.ok(), qPrintable(old.error));
    QVERIFY(!old.value->roundLimit && !old.value->callLimit);
    QCOMPARE(old.value->maxParallelism, std::optional<int>(4));
    QCOMPARE((*r.value)->cellArtifacts(1, QStringLiteral("b0a0")).value->size(), 1);
    QCOMPARE(*(*r.value)->readArtifact(QStringLiteral("2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824")).value,
             QByteArrayLiteral("hello"));
    // Schema 12: the old file stays where it is until the same content is
    // stored again, which moves it into its row.
    QVERIFY((*w.value)->putArtifact(QByteArrayLiteral("hello"), QStringLiteral("again.txt")).ok());
    QVERIFY(QFile::remove(path + QStringLiteral("-artifacts/2c/2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824")));
    QCOMPARE(*(*r.value)->readArtifact(QStringLiteral("2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824")).value,
             QByteArrayLiteral("hello"));

    // The tables of later versions work on the migrated file.
    ReplayResultRecord rec;
    rec.key = ReplayKey{1, 1, 0.5, 4, 0.1, std::nullopt, std::nullopt};
    rec.calls = 2;
    rec.rounds = 1;
    rec.best = 2.5;
    rec.attainment = 1.0;
    QVERIFY((*w.value)->storeReplayResults({rec}).ok());
    Approval a;
    a.version = 1;
    a.who = QStringLiteral("me");
    QVERIFY((*w.value)->addApproval(a).ok());
    QCOMPARE((*r.value)->replayResults(1).value->size(), 1);

    // Opening again is a no-op migration.
    w.value->reset();
    QVERIFY(ProjectWriter::open(path).ok());
    QCOMPARE(userVersion(path), qint64(Schema::CurrentVersion));
}

void TestStoreMigration::everyVersionOpens_data()
{
    QTest::addColumn<int>("version");
    for (int v = 1; v <= Schema::CurrentVersion; ++v)
        QTest::addRow("v%d", v) << v;
}

void TestStoreMigration::everyVersionOpens()
{
    QFETCH(int, version);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("p.dreamrsi"));
    const QString made = makeProjectAt(path, version);
    QVERIFY2(made.isEmpty(), qPrintable(made));
    StoreResult<std::unique_ptr<ProjectWriter>> w = ProjectWriter::open(path);
    QVERIFY2(w.ok(), qPrintable(w.error));
    QCOMPARE(userVersion(path), qint64(Schema::CurrentVersion));
    // The missing project row was written on open.
    StoreResult<std::unique_ptr<ProjectReader>> r = ProjectReader::open(path);
    QVERIFY(r.ok());
    QCOMPARE((*r.value)->projectInfo().value->name, QStringLiteral("p"));
}

void TestStoreMigration::readerUpgradesInMemory()
{
    // A reader reads an older project as it is: an in-memory copy upgraded to
    // the current schema, the file left exactly as it was.
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("v1.dreamrsi"));
    makeV1(path);
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray before = f.readAll();
    f.close();
    {
        StoreResult<std::unique_ptr<ProjectReader>> r = ProjectReader::open(path);
        QVERIFY2(r.ok(), qPrintable(r.error));
        QCOMPARE((*r.value)->upgradedInMemoryFrom(), 1);
        const StoreResult<ProjectInfo> info = (*r.value)->projectInfo();
        QCOMPARE(info.value->schemaVersion, Schema::CurrentVersion);
        QCOMPARE(info.value->name, QStringLiteral("old project"));
        QCOMPARE(info.value->path, QFileInfo(path).absoluteFilePath());
        const StoreResult<DiscoveryTree> tree = (*r.value)->loadIteration(1);
        QVERIFY2(tree.ok(), qPrintable(tree.error));
        QCOMPARE(tree.value->cellCount(), 3);
        QVERIFY((*r.value)->replayConfig().ok()); // a table of version 5
        QVERIFY((*r.value)->steeringEvents().ok()); // of version 6
        QVERIFY((*r.value)->reevaluations().ok()); // of version 8
    }
    QCOMPARE(userVersion(path), qint64(1)); // a reader never changes the file
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(f.readAll(), before);
}

void TestStoreMigration::newFileIsMadeInOneCommit()
{
    // A reader that opens a project while its writer makes it must see no
    // schema or the current one, never a version between: it would read an
    // in-memory upgraded copy of it and never see the round's iterations
    // (`dreamrsi serve` started beside a new round showed nothing).
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("new.dreamrsi"));
    Result<std::unique_ptr<SqliteConnection>> db = SqliteConnection::open(path, SqliteConnection::Mode::Create);
    QVERIFY2(db.ok(), qPrintable(db.error));
    QVERIFY(Schema::configure(**db.value, true).ok());
    struct Seen
    {
        int commits = 0;
        sqlite3 *db = nullptr;
    } seen;
    seen.db = (*db.value)->handle();
    sqlite3_commit_hook(
        seen.db,
        [](void *p) {
            auto *s = static_cast<Seen *>(p);
            ++s->commits;
            return 0;
        },
        &seen);
    const Result<int> prepared = Schema::prepare(**db.value, true, true);
    QVERIFY2(prepared.ok(), qPrintable(prepared.error));
    QCOMPARE(*prepared.value, Schema::CurrentVersion);
    QCOMPARE(seen.commits, 1);
    sqlite3_commit_hook(seen.db, nullptr, nullptr);
    QCOMPARE(userVersion(path), qint64(Schema::CurrentVersion));
    // A reader beside the writer reads the file itself, not a copy.
    StoreResult<std::unique_ptr<ProjectReader>> r = ProjectReader::open(path);
    QVERIFY2(r.ok(), qPrintable(r.error));
    QCOMPARE((*r.value)->upgradedInMemoryFrom(), 0);
    QVERIFY(!(*r.value)->outdatedCopy());
}

void TestStoreMigration::readerOfAnUpgradedFileKnowsItsCopyIsOutdated()
{
    // A reader of an older project reads a copy; once a writer upgrades the
    // file, the copy is outdated and a follower opens the file again.
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("v1.dreamrsi"));
    makeV1(path);
    StoreResult<std::unique_ptr<ProjectReader>> old = ProjectReader::open(path);
    QVERIFY2(old.ok(), qPrintable(old.error));
    QCOMPARE((*old.value)->upgradedInMemoryFrom(), 1);
    QVERIFY(!(*old.value)->outdatedCopy());
    QVERIFY(!(*old.value)->outdatedCopy()); // reading the stamp changes nothing
    {
        StoreResult<std::unique_ptr<ProjectWriter>> w = ProjectWriter::open(path);
        QVERIFY2(w.ok(), qPrintable(w.error));
    }
    QVERIFY((*old.value)->outdatedCopy());
    StoreResult<std::unique_ptr<ProjectReader>> fresh = ProjectReader::open(path);
    QVERIFY2(fresh.ok(), qPrintable(fresh.error));
    QCOMPARE((*fresh.value)->upgradedInMemoryFrom(), 0);
    QVERIFY(!(*fresh.value)->outdatedCopy());
}

void TestStoreMigration::olderProjectTakesItsReplayConfiguration_data()
{
    // History written under schema 3; the upgrade to 5 derives the configuration from it.
    QTest::addColumn<QByteArray>("history");
    QTest::addColumn<QString>("origin");
    QTest::addColumn<int>("workers");
    QTest::addColumn<double>("lambda");
    QTest::addColumn<QList<double>>("betas");
    QTest::addColumn<int>("rounds");
    // Schema 7: a project with stored results keeps the revealed valuation
    // (no stored value changes meaning); one without takes imagined.
    QTest::addColumn<QString>("valuation");
    const QByteArray rounds = "INSERT INTO iterations(id, number, max_parallelism, status, started) VALUES "
                              "(1, 1, 4, 'finished', '2026-01-01T00:00:00.000Z'), (2, 2, 8, 'finished', '2026-01-02T00:00:00.000Z');\n";
    const QByteArray versions = "INSERT INTO policy_versions(id, name, code, origin, created) VALUES "
                                "(1, 'builtin:portfolio', 'x', 'builtin', '2026-01-01T00:00:00.000Z'), "
                                "(2, 'v1', 'y', 'agent', '2026-01-01T00:00:00.000Z'), "
                                "(3, 'v2', 'z', 'agent', '2026-01-01T00:00:00.000Z');\n";
    // An older dream (v1: W 4) and the most recent one (v2: W 6, λ 0.2, β {0, 1}, K 3);
    // a later replay of a built-in with W 10 is not a dream.
    const QByteArray results =
        "INSERT INTO replay_results(policy_version_id, world_id, beta, workers, lambda, rounds_limit, calls, rounds, best, "
        "attainment, created) VALUES "
        "(2, 1, 0.5, 4, 0.1, 0, 1, 1, 1, 1, '2026-01-03T00:00:00.000Z'), "
        "(3, 1, 0.0, 6, 0.2, 3, 1, 1, 1, 1, '2026-01-04T00:00:00.000Z'), "
        "(3, 1, 1.0, 6, 0.2, 3, 1, 1, 1, 1, '2026-01-04T00:00:00.000Z'), "
        "(3, 2, 1.0, 6, 0.2, 3, 1, 1, 1, 1, '2026-01-04T00:00:00.000Z'), "
        "(1, 1, 0.5, 10, 0.1, 0, 1, 1, 1, 1, '2026-01-05T00:00:00.000Z');\n";
    QTest::addRow("latest dream") << rounds + versions + results << QStringLiteral("dream") << 6 << 0.2
                                  << QList<double>{0.0, 1.0} << 3 << QStringLiteral("revealed");
    QTest::addRow("first round") << rounds + versions << QStringLiteral("first_round") << 4 << 0.1
                                 << QList<double>{0.0, 0.25, 0.5, 0.75, 1.0} << 0 << QStringLiteral("imagined");
    QTest::addRow("defaults") << QByteArray() << QStringLiteral("default") << 10 << 0.1
                              << QList<double>{0.0, 0.25, 0.5, 0.75, 1.0} << 0 << QStringLiteral("imagined");
}

void TestStoreMigration::olderProjectTakesItsReplayConfiguration()
{
    QFETCH(QByteArray, history);
    QFETCH(QString, origin);
    QFETCH(int, workers);
    QFETCH(double, lambda);
    QFETCH(QList<double>, betas);
    QFETCH(int, rounds);
    QFETCH(QString, valuation);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("v3.dreamrsi"));
    const QString made =
        makeProjectAt(path, 3, "INSERT INTO project(id, name, created) VALUES (1, 'old', '2026-01-01T00:00:00.000Z');\n" + history);
    QVERIFY2(made.isEmpty(), qPrintable(made));
    StoreResult<std::unique_ptr<ProjectWriter>> w = ProjectWriter::open(path);
    QVERIFY2(w.ok(), qPrintable(w.error));
    QCOMPARE(userVersion(path), qint64(Schema::CurrentVersion));
    StoreResult<std::unique_ptr<ProjectReader>> r = ProjectReader::open(path);
    QVERIFY(r.ok());
    const StoreResult<StoredReplayConfig> config = (*r.value)->replayConfig();
    QVERIFY2(config.ok(), qPrintable(config.error));
    QCOMPARE(replayConfigOriginName(config.value->origin), origin);
    QCOMPARE(config.value->config.workers, workers);
    QCOMPARE(config.value->config.lambda, lambda);
    QCOMPARE(config.value->config.betas, betas);
    QCOMPARE(config.value->config.rounds.value_or(0), rounds);
    QCOMPARE(valuationName(config.value->config.valuation), valuation);
    QCOMPARE(config.value->config.completions, 8);
    // The stored results survive the rebuilt table, as results of the worlds as revealed.
    const StoreResult<QList<ReplayResultRecord>> records = (*r.value)->replayResults();
    QVERIFY(records.ok());
    QCOMPARE(records.value->size(), history.contains("replay_results") ? 5 : 0);
    for (const ReplayResultRecord &rec : *records.value)
        QVERIFY(!rec.key.isImagined());
    // A project upgraded from its history is not at the defaults: a new round leaves it alone.
    IterationInfo round;
    round.maxParallelism = 2;
    QVERIFY((*w.value)->beginIteration(round).ok());
    QCOMPARE((*r.value)->replayConfig().value->config.workers, origin == QLatin1String("default") ? 2 : workers);
}

void TestStoreMigration::ruleRebuildKeepsEveryRow()
{
    // A schema 10 project whose configuration and one stored result name the
    // rule `uncertain`: version 11 rebuilds both tables to allow `anchored`
    // and keeps every row as it was.
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("v10.dreamrsi"));
    {
        const QByteArray rows =
            "INSERT INTO project(id, name, created) VALUES (1, 'ten', '2026-01-01T00:00:00.000Z');\n"
            "INSERT INTO iterations(id, number, max_parallelism, status, started) VALUES "
            "(1, 1, 4, 'finished', '2026-01-01T00:00:00.000Z');\n"
            "INSERT INTO policy_versions(id, name, code, origin, created) VALUES "
            "(1, 'builtin:portfolio', 'x', 'builtin', '2026-01-01T00:00:00.000Z');\n"
            "INSERT OR REPLACE INTO replay_config(id, workers, lambda, betas, rounds_limit, origin, valuation, completions, rule) "
            "VALUES (1, 6, 0.2, '[0,1]', 0, 'user', 'imagined', 3, 'uncertain');\n"
            "INSERT INTO replay_results(policy_version_id, world_id, beta, workers, lambda, rounds_limit, completions, "
            "completion, rule, calls, rounds, best, attainment, created) VALUES "
            "(1, 1, 0.5, 6, 0.2, 0, 3, 1, 'uncertain', 7, 2, 0.9, 0.75, '2026-01-02T00:00:00.000Z'), "
            "(1, 1, 0.5, 6, 0.2, 0, 0, 0, 'capped', 5, 2, 0.8, 0.5, '2026-01-02T00:00:00.000Z');\n";
        const QString made = makeProjectAt(path, 10, rows);
        QVERIFY2(made.isEmpty(), qPrintable(made));
        auto opened = SqliteConnection::open(path, SqliteConnection::Mode::ReadWrite);
        QVERIFY2(opened, qPrintable(opened.error));
        const std::unique_ptr<SqliteConnection> db = std::move(*opened.value);
        // Schema 10 itself refuses the fourth rule.
        QVERIFY(!db->exec("UPDATE replay_config SET rule = 'anchored' WHERE id = 1;"));
    }
    StoreResult<std::unique_ptr<ProjectWriter>> w = ProjectWriter::open(path);
    QVERIFY2(w.ok(), qPrintable(w.error));
    QCOMPARE(userVersion(path), qint64(Schema::CurrentVersion));
    StoreResult<std::unique_ptr<ProjectReader>> r = ProjectReader::open(path);
    QVERIFY(r.ok());
    const StoreResult<StoredReplayConfig> config = (*r.value)->replayConfig();
    QVERIFY2(config.ok(), qPrintable(config.error));
    QCOMPARE(config.value->config.rule, ImaginationRule::Uncertain);
    QCOMPARE(config.value->config.workers, 6);
    QCOMPARE(config.value->config.completions, 3);
    const StoreResult<QList<ReplayResultRecord>> records = (*r.value)->replayResults();
    QVERIFY(records.ok());
    QCOMPARE(records.value->size(), 2);
    int uncertain = 0;
    for (const ReplayResultRecord &rec : *records.value) {
        if (rec.key.rule == ImaginationRule::Uncertain) {
            ++uncertain;
            QCOMPARE(rec.calls, qint64(7));
            QCOMPARE(rec.attainment, 0.75);
            QCOMPARE(rec.key.completion, 1);
        }
    }
    QCOMPARE(uncertain, 1);
    // Now the fourth rule is allowed, and a name of no rule still is not.
    (*r.value).reset();
    (*w.value).reset();
    {
        auto opened = SqliteConnection::open(path, SqliteConnection::Mode::ReadWrite);
        QVERIFY2(opened, qPrintable(opened.error));
        const std::unique_ptr<SqliteConnection> db = std::move(*opened.value);
        const Result<Done> anchored = db->exec("UPDATE replay_config SET rule = 'anchored' WHERE id = 1;");
        QVERIFY2(anchored, qPrintable(anchored.error));
        QVERIFY(!db->exec("UPDATE replay_config SET rule = 'bogus' WHERE id = 1;"));
    }
}

QTEST_GUILESS_MAIN(TestStoreMigration)
#include "tst_store_migration.moc"
