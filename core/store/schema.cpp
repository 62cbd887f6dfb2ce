#include "schema.h"

#include "sqliteconnection.h"

#include <QHash>
#include <QStringList>

#include <sqlite3.h>

namespace dreamrsi::Schema {

namespace {

// Version 1: the history of online rounds. Frozen: a test keeps a copy and
// checks that a database made by it opens under every later version.
constexpr const char *V1 = R"sql(
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
)sql";

// Version 2: what dreaming and redeploying produce.
constexpr const char *V2 = R"sql(
CREATE TABLE replay_results(
  id INTEGER PRIMARY KEY,
  policy_version_id INTEGER NOT NULL REFERENCES policy_versions(id) ON DELETE CASCADE,
  world_id INTEGER NOT NULL REFERENCES iterations(id) ON DELETE CASCADE,
  beta REAL NOT NULL,
  workers INTEGER NOT NULL,
  lambda REAL NOT NULL,
  rounds_limit INTEGER NOT NULL DEFAULT 0,
  grid TEXT NOT NULL DEFAULT '',
  calls INTEGER NOT NULL,
  rounds INTEGER NOT NULL,
  best REAL NOT NULL,
  attainment REAL NOT NULL,
  revealed TEXT NOT NULL DEFAULT '[]',
  error TEXT,
  created TEXT NOT NULL,
  UNIQUE (policy_version_id, world_id, beta, workers, lambda, rounds_limit, grid)
);
CREATE INDEX replay_results_by_world ON replay_results(world_id);
CREATE TABLE approvals(
  id INTEGER PRIMARY KEY,
  policy_version_id INTEGER NOT NULL REFERENCES policy_versions(id),
  approved_at TEXT NOT NULL,
  approved_by TEXT NOT NULL,
  evidence TEXT NOT NULL DEFAULT '{}',
  note TEXT NOT NULL DEFAULT ''
);
CREATE INDEX approvals_by_version ON approvals(policy_version_id);
)sql";

// Version 3: a round the user stopped is `stopped` (docs/online.md#how-a-round-ends), distinct
// from `interrupted` (the process died). SQLite cannot change a CHECK
// constraint, so the iterations table is rebuilt under the same name; the
// migration runs with foreign keys off (prepare() turns them off around the
// migrations and checks them before each commit), so the cells, replay
// results and approvals that reference iterations keep their rows.
constexpr const char *V3 = R"sql(
CREATE TABLE iterations_v3(
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
  status TEXT NOT NULL CHECK (status IN ('running', 'finished', 'interrupted', 'stopped')),
  started TEXT NOT NULL,
  finished TEXT,
  best_score REAL,
  cell_count INTEGER NOT NULL DEFAULT 0,
  source TEXT NOT NULL DEFAULT '',
  payload TEXT NOT NULL DEFAULT '{}'
);
INSERT INTO iterations_v3 SELECT id, number, task, baseline_score, max_parallelism, grid_branches,
  grid_refinements, grid_reason, beta, policy_version_id, status, started, finished, best_score,
  cell_count, source, payload FROM iterations;
DROP TABLE iterations;
ALTER TABLE iterations_v3 RENAME TO iterations;
CREATE INDEX iterations_by_status ON iterations(status);
)sql";

// Version 4: a live round's limits beside its W (max_parallelism): the round
// limit K1 and the agent-call cap, so that a workbench following the round
// from another process knows how many attempts it will make. Older rows
// have neither (NULL: not recorded).
constexpr const char *V4 = R"sql(
ALTER TABLE iterations ADD COLUMN rounds_limit INTEGER;
ALTER TABLE iterations ADD COLUMN calls_limit INTEGER;
)sql";

// Version 5: the project's one replay configuration (W, λ, β grid, K) and
// where it came from. An upgraded project takes the configuration of its
// most recent dream (the newest result of a version an agent or the
// improver wrote: its W, λ and K, and the β its episodes under them used),
// else its first round's W, else the defaults. β are kept as a JSON array;
// rounds_limit 0 means no K, as in replay_results.
constexpr const char *V5 = R"sql(
CREATE TABLE replay_config(
  id INTEGER PRIMARY KEY CHECK (id = 1),
  workers INTEGER NOT NULL DEFAULT 10 CHECK (workers >= 1),
  lambda REAL NOT NULL DEFAULT 0.1,
  betas TEXT NOT NULL DEFAULT '[0,0.25,0.5,0.75,1]',
  rounds_limit INTEGER NOT NULL DEFAULT 0,
  origin TEXT NOT NULL DEFAULT 'default' CHECK (origin IN ('default', 'first_round', 'dream', 'user')),
  updated TEXT
);
INSERT INTO replay_config(id) VALUES (1);
CREATE TEMP TABLE latest_dream AS
  SELECT r.policy_version_id AS version, r.workers AS workers, r.lambda AS lambda, r.rounds_limit AS rounds_limit
  FROM replay_results r JOIN policy_versions p ON p.id = r.policy_version_id
  WHERE p.origin = 'agent' AND r.error IS NULL
  ORDER BY r.created DESC, r.id DESC LIMIT 1;
UPDATE replay_config SET
  workers = (SELECT workers FROM latest_dream),
  lambda = (SELECT lambda FROM latest_dream),
  rounds_limit = (SELECT rounds_limit FROM latest_dream),
  betas = (SELECT '[' || group_concat(beta, ',') || ']' FROM
             (SELECT DISTINCT r.beta AS beta FROM replay_results r, latest_dream l
              WHERE r.policy_version_id = l.version AND r.workers = l.workers AND r.lambda = l.lambda
                AND r.rounds_limit = l.rounds_limit ORDER BY r.beta)),
  origin = 'dream',
  updated = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
WHERE EXISTS (SELECT 1 FROM latest_dream);
UPDATE replay_config SET
  workers = (SELECT max_parallelism FROM iterations WHERE max_parallelism >= 1 ORDER BY id LIMIT 1),
  origin = 'first_round',
  updated = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
WHERE origin = 'default' AND EXISTS (SELECT 1 FROM iterations WHERE max_parallelism >= 1);
DROP TABLE latest_dream;
)sql";

// Version 6: what a person did to a live round while it ran (close a
// branch, refine it next, hint, pause, continue, a manual batch) and the
// loop's approval waits. One row per applied request; `request_id` is the
// inbox request it answers (unique, so a request is never applied twice).
// `iteration_id` is null for events outside a round (approval waits).
constexpr const char *V6 = R"sql(
CREATE TABLE steering_events(
  id INTEGER PRIMARY KEY,
  iteration_id INTEGER REFERENCES iterations(id) ON DELETE CASCADE,
  round INTEGER,
  time TEXT NOT NULL,
  who TEXT NOT NULL DEFAULT '',
  action TEXT NOT NULL,
  branch INTEGER,
  target TEXT NOT NULL DEFAULT '',
  text TEXT NOT NULL DEFAULT '',
  why TEXT NOT NULL DEFAULT '',
  request_id TEXT,
  payload TEXT NOT NULL DEFAULT '{}',
  UNIQUE (request_id)
);
CREATE INDEX steering_events_by_iteration ON steering_events(iteration_id);
)sql";

// Version 7: the valuation of dreams (docs/online.md#valuation). The replay
// configuration names it and its number of completions C; a project upgraded
// with stored results keeps `revealed`, so no stored value changes meaning,
// while one with none (a new project among them) takes `imagined`. A result
// of an imagined valuation is one episode in completion k of C of a world,
// so the results' key gains (completions, completion), 0 and 0 for a world
// as revealed; SQLite cannot change a UNIQUE constraint, so the table is
// rebuilt under the same name (foreign keys are off, as for V3).
constexpr const char *V7 = R"sql(
ALTER TABLE replay_config ADD COLUMN valuation TEXT NOT NULL DEFAULT 'revealed'
  CHECK (valuation IN ('revealed', 'imagined'));
ALTER TABLE replay_config ADD COLUMN completions INTEGER NOT NULL DEFAULT 8 CHECK (completions >= 1);
UPDATE replay_config SET valuation = 'imagined' WHERE NOT EXISTS (SELECT 1 FROM replay_results);
CREATE TABLE replay_results_v7(
  id INTEGER PRIMARY KEY,
  policy_version_id INTEGER NOT NULL REFERENCES policy_versions(id) ON DELETE CASCADE,
  world_id INTEGER NOT NULL REFERENCES iterations(id) ON DELETE CASCADE,
  beta REAL NOT NULL,
  workers INTEGER NOT NULL,
  lambda REAL NOT NULL,
  rounds_limit INTEGER NOT NULL DEFAULT 0,
  grid TEXT NOT NULL DEFAULT '',
  completions INTEGER NOT NULL DEFAULT 0,
  completion INTEGER NOT NULL DEFAULT 0,
  calls INTEGER NOT NULL,
  rounds INTEGER NOT NULL,
  best REAL NOT NULL,
  attainment REAL NOT NULL,
  revealed TEXT NOT NULL DEFAULT '[]',
  error TEXT,
  created TEXT NOT NULL,
  UNIQUE (policy_version_id, world_id, beta, workers, lambda, rounds_limit, grid, completions, completion)
);
INSERT INTO replay_results_v7(id, policy_version_id, world_id, beta, workers, lambda, rounds_limit, grid, calls,
  rounds, best, attainment, revealed, error, created)
  SELECT id, policy_version_id, world_id, beta, workers, lambda, rounds_limit, grid, calls, rounds, best,
  attainment, revealed, error, created FROM replay_results;
DROP TABLE replay_results;
ALTER TABLE replay_results_v7 RENAME TO replay_results;
CREATE INDEX replay_results_by_world ON replay_results(world_id);
)sql";

// Version 8: re-evaluations of stored cells (docs/online.md#re-evaluating-the-best).
// Each row is one more full evaluation of a cell's stored program: its score
// or fail class, how long it took and where it ran. The cell's own score is
// never changed by them; replay keeps using it.
constexpr const char *V8 = R"sql(
CREATE TABLE reevaluations(
  id INTEGER PRIMARY KEY,
  cell_rowid INTEGER NOT NULL REFERENCES cells(id) ON DELETE CASCADE,
  score REAL,
  fail_class TEXT NOT NULL,
  error TEXT,
  seconds REAL NOT NULL,
  backend TEXT NOT NULL,
  host TEXT NOT NULL DEFAULT '',
  job_id TEXT NOT NULL DEFAULT '',
  time TEXT NOT NULL
);
CREATE INDEX reevaluations_by_cell ON reevaluations(cell_rowid);
)sql";

// Version 9: the imagination rule (docs/online.md#imagination-rules) in the
// replay configuration and in the key of every stored result: completions
// drawn under another rule are other worlds, so their results are kept apart.
// Everything stored before was drawn under `capped`; the results' UNIQUE
// constraint gains the rule, so the table is rebuilt as for V7.
constexpr const char *V9 = R"sql(
ALTER TABLE replay_config ADD COLUMN rule TEXT NOT NULL DEFAULT 'capped' CHECK (rule IN ('capped', 'widened'));
CREATE TABLE replay_results_v9(
  id INTEGER PRIMARY KEY,
  policy_version_id INTEGER NOT NULL REFERENCES policy_versions(id) ON DELETE CASCADE,
  world_id INTEGER NOT NULL REFERENCES iterations(id) ON DELETE CASCADE,
  beta REAL NOT NULL,
  workers INTEGER NOT NULL,
  lambda REAL NOT NULL,
  rounds_limit INTEGER NOT NULL DEFAULT 0,
  grid TEXT NOT NULL DEFAULT '',
  completions INTEGER NOT NULL DEFAULT 0,
  completion INTEGER NOT NULL DEFAULT 0,
  rule TEXT NOT NULL DEFAULT 'capped' CHECK (rule IN ('capped', 'widened')),
  calls INTEGER NOT NULL,
  rounds INTEGER NOT NULL,
  best REAL NOT NULL,
  attainment REAL NOT NULL,
  revealed TEXT NOT NULL DEFAULT '[]',
  error TEXT,
  created TEXT NOT NULL,
  UNIQUE (policy_version_id, world_id, beta, workers, lambda, rounds_limit, grid, completions, completion, rule)
);
INSERT INTO replay_results_v9(id, policy_version_id, world_id, beta, workers, lambda, rounds_limit, grid, completions,
  completion, calls, rounds, best, attainment, revealed, error, created)
  SELECT id, policy_version_id, world_id, beta, workers, lambda, rounds_limit, grid, completions, completion, calls,
  rounds, best, attainment, revealed, error, created FROM replay_results;
DROP TABLE replay_results;
ALTER TABLE replay_results_v9 RENAME TO replay_results;
CREATE INDEX replay_results_by_world ON replay_results(world_id);
)sql";

// Version 10: a third imagination rule, `uncertain`
// (docs/online.md#imagination-rules). The CHECK constraints on the rule name
// every rule, and SQLite changes a constraint only by rebuilding the table,
// so replay_config (its one row) and replay_results are rebuilt under the
// same names with every row copied as it is (foreign keys are off, as for V3).
constexpr const char *V10 = R"sql(
CREATE TABLE replay_config_v10(
  id INTEGER PRIMARY KEY CHECK (id = 1),
  workers INTEGER NOT NULL DEFAULT 10 CHECK (workers >= 1),
  lambda REAL NOT NULL DEFAULT 0.1,
  betas TEXT NOT NULL DEFAULT '[0,0.25,0.5,0.75,1]',
  rounds_limit INTEGER NOT NULL DEFAULT 0,
  origin TEXT NOT NULL DEFAULT 'default' CHECK (origin IN ('default', 'first_round', 'dream', 'user')),
  updated TEXT,
  valuation TEXT NOT NULL DEFAULT 'revealed' CHECK (valuation IN ('revealed', 'imagined')),
  completions INTEGER NOT NULL DEFAULT 8 CHECK (completions >= 1),
  rule TEXT NOT NULL DEFAULT 'capped' CHECK (rule IN ('capped', 'widened', 'uncertain'))
);
INSERT INTO replay_config_v10(id, workers, lambda, betas, rounds_limit, origin, updated, valuation, completions, rule)
  SELECT id, workers, lambda, betas, rounds_limit, origin, updated, valuation, completions, rule FROM replay_config;
DROP TABLE replay_config;
ALTER TABLE replay_config_v10 RENAME TO replay_config;
CREATE TABLE replay_results_v10(
  id INTEGER PRIMARY KEY,
  policy_version_id INTEGER NOT NULL REFERENCES policy_versions(id) ON DELETE CASCADE,
  world_id INTEGER NOT NULL REFERENCES iterations(id) ON DELETE CASCADE,
  beta REAL NOT NULL,
  workers INTEGER NOT NULL,
  lambda REAL NOT NULL,
  rounds_limit INTEGER NOT NULL DEFAULT 0,
  grid TEXT NOT NULL DEFAULT '',
  completions INTEGER NOT NULL DEFAULT 0,
  completion INTEGER NOT NULL DEFAULT 0,
  rule TEXT NOT NULL DEFAULT 'capped' CHECK (rule IN ('capped', 'widened', 'uncertain')),
  calls INTEGER NOT NULL,
  rounds INTEGER NOT NULL,
  best REAL NOT NULL,
  attainment REAL NOT NULL,
  revealed TEXT NOT NULL DEFAULT '[]',
  error TEXT,
  created TEXT NOT NULL,
  UNIQUE (policy_version_id, world_id, beta, workers, lambda, rounds_limit, grid, completions, completion, rule)
);
INSERT INTO replay_results_v10(id, policy_version_id, world_id, beta, workers, lambda, rounds_limit, grid, completions, completion, rule, calls,
  rounds, best, attainment, revealed, error, created)
  SELECT id, policy_version_id, world_id, beta, workers, lambda, rounds_limit, grid, completions, completion, rule, calls,
  rounds, best, attainment, revealed, error, created FROM replay_results;
DROP TABLE replay_results;
ALTER TABLE replay_results_v10 RENAME TO replay_results;
CREATE INDEX replay_results_by_world ON replay_results(world_id);
)sql";

// Version 11: a fourth imagination rule, `anchored`
// (docs/online.md#imagination-rules): the tables rebuilt as for V10, their
// CHECK constraints naming it too.
constexpr const char *V11 = R"sql(
CREATE TABLE replay_config_v11(
  id INTEGER PRIMARY KEY CHECK (id = 1),
  workers INTEGER NOT NULL DEFAULT 10 CHECK (workers >= 1),
  lambda REAL NOT NULL DEFAULT 0.1,
  betas TEXT NOT NULL DEFAULT '[0,0.25,0.5,0.75,1]',
  rounds_limit INTEGER NOT NULL DEFAULT 0,
  origin TEXT NOT NULL DEFAULT 'default' CHECK (origin IN ('default', 'first_round', 'dream', 'user')),
  updated TEXT,
  valuation TEXT NOT NULL DEFAULT 'revealed' CHECK (valuation IN ('revealed', 'imagined')),
  completions INTEGER NOT NULL DEFAULT 8 CHECK (completions >= 1),
  rule TEXT NOT NULL DEFAULT 'capped' CHECK (rule IN ('capped', 'widened', 'uncertain', 'anchored'))
);
INSERT INTO replay_config_v11(id, workers, lambda, betas, rounds_limit, origin, updated, valuation, completions, rule)
  SELECT id, workers, lambda, betas, rounds_limit, origin, updated, valuation, completions, rule FROM replay_config;
DROP TABLE replay_config;
ALTER TABLE replay_config_v11 RENAME TO replay_config;
CREATE TABLE replay_results_v11(
  id INTEGER PRIMARY KEY,
  policy_version_id INTEGER NOT NULL REFERENCES policy_versions(id) ON DELETE CASCADE,
  world_id INTEGER NOT NULL REFERENCES iterations(id) ON DELETE CASCADE,
  beta REAL NOT NULL,
  workers INTEGER NOT NULL,
  lambda REAL NOT NULL,
  rounds_limit INTEGER NOT NULL DEFAULT 0,
  grid TEXT NOT NULL DEFAULT '',
  completions INTEGER NOT NULL DEFAULT 0,
  completion INTEGER NOT NULL DEFAULT 0,
  rule TEXT NOT NULL DEFAULT 'capped' CHECK (rule IN ('capped', 'widened', 'uncertain', 'anchored')),
  calls INTEGER NOT NULL,
  rounds INTEGER NOT NULL,
  best REAL NOT NULL,
  attainment REAL NOT NULL,
  revealed TEXT NOT NULL DEFAULT '[]',
  error TEXT,
  created TEXT NOT NULL,
  UNIQUE (policy_version_id, world_id, beta, workers, lambda, rounds_limit, grid, completions, completion, rule)
);
INSERT INTO replay_results_v11(id, policy_version_id, world_id, beta, workers, lambda, rounds_limit, grid, completions, completion, rule, calls,
  rounds, best, attainment, revealed, error, created)
  SELECT id, policy_version_id, world_id, beta, workers, lambda, rounds_limit, grid, completions, completion, rule, calls,
  rounds, best, attainment, revealed, error, created FROM replay_results;
DROP TABLE replay_results;
ALTER TABLE replay_results_v11 RENAME TO replay_results;
CREATE INDEX replay_results_by_world ON replay_results(world_id);
)sql";

// Small artifacts (proposals, programs, logs, evaluator output) live in the
// database itself, so the project file alone shows them; only larger ones
// go to the content-addressed folder (docs/project-file.md).
constexpr const char *V12 = R"sql(
ALTER TABLE artifacts ADD COLUMN content BLOB;
)sql";

QString describe(const SqliteConnection &db, const QString &what)
{
    return QStringLiteral("%1: %2").arg(db.path(), what);
}

} // namespace

const char *migrationTo(int v)
{
    switch (v) {
    case 1: return V1;
    case 2: return V2;
    case 3: return V3;
    case 4: return V4;
    case 5: return V5;
    case 6: return V6;
    case 7: return V7;
    case 8: return V8;
    case 9: return V9;
    case 10: return V10;
    case 11: return V11;
    case 12: return V12;
    default: return nullptr;
    }
}

Result<Done> configure(SqliteConnection &db, bool writer)
{
    sqlite3_busy_timeout(db.handle(), 5000);
    if (Result<Done> on = db.exec("PRAGMA foreign_keys = ON;"); !on)
        return on;
    if (!writer)
        return db.exec("PRAGMA query_only = ON;");
    return Result<Done>::success({});
}

Result<int> prepare(SqliteConnection &db, bool migrate, bool initialise)
{
    auto fail = [&db](const QString &what) { return Result<int>::failure(describe(db, what)); };
    auto checked = [&db](int version) {
        const Result<Done> intact = checkIntegrity(db);
        return intact ? Result<int>::success(version) : intact.failureAs<int>();
    };
    // The first read of the header is where a file that is not SQLite shows.
    const Result<qint64> appId = db.queryInt("PRAGMA application_id;");
    if (!appId) {
        const int code = db.lastErrorCode() & 0xff;
        if (code == SQLITE_NOTADB)
            return fail(QStringLiteral("not a Dream-RSI project: the file is not an SQLite database"));
        if (code == SQLITE_CORRUPT)
            return fail(QStringLiteral("the project file is damaged and was not opened (%1)").arg(appId.error));
        return fail(QStringLiteral("cannot read the project: %1").arg(appId.error));
    }
    const Result<qint64> version = db.queryInt("PRAGMA user_version;");
    if (!version)
        return fail(QStringLiteral("cannot read the schema version: %1").arg(version.error));
    if (*appId.value != ApplicationId) {
        const std::optional<qint64> tables = db.queryInt("SELECT count(*) FROM sqlite_schema;").value;
        const bool empty = tables && *tables == 0 && *appId.value == 0 && *version.value == 0;
        if (!(empty && initialise))
            return fail(*appId.value == 0 && tables && *tables > 0
                            ? QStringLiteral("not a Dream-RSI project: an SQLite database of another application")
                        : empty ? QStringLiteral("not a Dream-RSI project: the database is empty")
                                : QStringLiteral("not a Dream-RSI project (application id %1)").arg(*appId.value));
    }
    if (*version.value > CurrentVersion)
        return fail(QStringLiteral("the project has schema version %1, written by a newer Dream-RSI; "
                                   "this build reads versions up to %2")
                        .arg(*version.value)
                        .arg(CurrentVersion));
    if (*version.value == CurrentVersion)
        return checked(int(*version.value));
    if (!migrate)
        return fail(QStringLiteral("the project has schema version %1, older than this build's %2; "
                                   "`dreamrsi project upgrade %3` upgrades it")
                        .arg(*version.value)
                        .arg(CurrentVersion)
                        .arg(db.path()));
    // Table rebuilds (V3) must not cascade: foreign keys are off while the
    // migrations run (the pragma is a no-op inside a transaction, hence
    // here) and every step checks them before it commits.
    if (const Result<Done> off = db.exec("PRAGMA foreign_keys = OFF;"); !off)
        return fail(QStringLiteral("cannot prepare the schema migration: %1").arg(off.error));
    // A new file is made in one transaction, all steps at once: a reader that
    // opens it meanwhile sees either no schema or this build's, never a
    // version between (it would read an in-memory upgraded copy of that, a
    // snapshot that never shows what the writer stores later). An older
    // project goes one committed step at a time.
    const int from = int(*version.value) + 1;
    const bool fresh = *version.value == 0;
    for (int v = from; v <= CurrentVersion; ++v) {
        const int last = fresh ? CurrentVersion : v;
        QByteArray sql = QByteArray("BEGIN IMMEDIATE;\n");
        for (int step = v; step <= last; ++step)
            sql += migrationTo(step) + QByteArray("\n");
        sql += QByteArray("PRAGMA application_id = ") + QByteArray::number(ApplicationId)
               + QByteArray(";\nPRAGMA user_version = ") + QByteArray::number(last) + QByteArray(";\n");
        Result<Done> step = db.exec(sql.constData());
        if (step) {
            const Result<qint64> broken = db.queryInt("SELECT count(*) FROM pragma_foreign_key_check;");
            if (!broken)
                step = broken.failureAs<Done>();
            else if (*broken.value > 0)
                step = Result<Done>::failure(QStringLiteral("%1 rows would break a foreign key").arg(*broken.value));
        }
        if (step)
            step = db.exec("COMMIT;");
        if (!step) {
            // Best effort: the migration's failure is what is reported.
            db.exec("ROLLBACK;");
            db.exec("PRAGMA foreign_keys = ON;");
            return fail(QStringLiteral("migration of the schema to version %1 failed: %2").arg(last).arg(step.error));
        }
        v = last;
    }
    if (const Result<Done> on = db.exec("PRAGMA foreign_keys = ON;"); !on)
        return fail(QStringLiteral("cannot re-enable foreign keys after the migration: %1").arg(on.error));
    return checked(CurrentVersion);
}

namespace {

/// Rows of a one-column text query (PRAGMA quick_check, table names, …).
Result<QStringList> queryTexts(sqlite3 *db, const QByteArray &sql)
{
    sqlite3_stmt *stmt = nullptr;
    if (sqlite3_prepare_v2(db, sql.constData(), -1, &stmt, nullptr) != SQLITE_OK) {
        const QString why = QString::fromUtf8(sqlite3_errmsg(db));
        sqlite3_finalize(stmt);
        return Result<QStringList>::failure(why);
    }
    QStringList rows;
    int rc;
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW)
        rows.append(QString::fromUtf8(reinterpret_cast<const char *>(sqlite3_column_text(stmt, 0))));
    const QString why = rc == SQLITE_DONE ? QString() : QString::fromUtf8(sqlite3_errmsg(db));
    sqlite3_finalize(stmt);
    if (rc != SQLITE_DONE)
        return Result<QStringList>::failure(why);
    return Result<QStringList>::success(rows);
}

/// Table → column names of the schema this build writes, from a scratch
/// in-memory database built by the migrations themselves.
QHash<QString, QStringList> expectedColumns()
{
    QHash<QString, QStringList> out;
    sqlite3 *mem = nullptr;
    if (sqlite3_open(":memory:", &mem) != SQLITE_OK) {
        sqlite3_close(mem);
        return out;
    }
    bool ok = true;
    for (int v = 1; v <= CurrentVersion && ok; ++v)
        ok = sqlite3_exec(mem, migrationTo(v), nullptr, nullptr, nullptr) == SQLITE_OK;
    const QStringList tables =
        ok ? queryTexts(mem, "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%';").valueOr({})
           : QStringList();
    for (const QString &t : tables)
        out.insert(t, queryTexts(mem, "SELECT name FROM pragma_table_info('" + t.toUtf8() + "');").valueOr({}));
    sqlite3_close(mem);
    return out;
}

} // namespace

Result<Done> checkIntegrity(SqliteConnection &db)
{
    auto damaged = [&db](const QString &what) {
        return Result<Done>::failure(describe(db, QStringLiteral("the project file is damaged and was not opened") + what));
    };
    const Result<QStringList> check = queryTexts(db.handle(), "PRAGMA quick_check(5);");
    if (!check)
        return damaged(QStringLiteral(" (%1)").arg(check.error));
    if (check.value->size() != 1 || check.value->first() != QLatin1String("ok"))
        return damaged(QStringLiteral(": %1").arg(check.value->join(QStringLiteral("; "))));
    static const QHash<QString, QStringList> expected = expectedColumns();
    for (auto it = expected.cbegin(); it != expected.cend(); ++it) {
        const Result<QStringList> columns =
            queryTexts(db.handle(), "SELECT name FROM pragma_table_info('" + it.key().toUtf8() + "');");
        if (!columns)
            return damaged(QStringLiteral(": cannot read the columns of table %1 (%2)").arg(it.key(), columns.error));
        if (columns.value->isEmpty())
            return damaged(QStringLiteral(": table %1 is missing from its schema (version %2)").arg(it.key()).arg(CurrentVersion));
        for (const QString &c : it.value()) {
            if (!columns.value->contains(c))
                return damaged(QStringLiteral(": table %1 has no column %2 (schema version %3 has it)")
                                   .arg(it.key(), c)
                                   .arg(CurrentVersion));
        }
    }
    return Result<Done>::success({});
}

} // namespace dreamrsi::Schema
