// Opening OpenEvolve and ShinkaEvolve runs as trees (core/import): the
// mapping's rules on fixture runs written here, both OpenEvolve eras, pruned
// checkpoints, copies, Shinka's failures, every bad input, and the tree
// field `approximate` (docs/tree-format.md#imported-runs).
#include "import/runimport.h"
#include "model/compactcache.h"
#include "model/treejson.h"
#include "runfixtures.h"

#include <QCryptographicHash>
#include <QThread>
#include <QTemporaryDir>
#include <QtTest>

#include <sys/stat.h>

using namespace dreamrsi;
using namespace dreamrsi::test;

namespace {

QString s(const char *text)
{
    return QString::fromUtf8(text);
}

const Cell &cellOf(const DiscoveryTree &tree, const QString &programId)
{
    for (const Cell &c : tree.cells()) {
        if (c.payload.value(s("origin")).toObject().value(s("id")).toString() == programId)
            return c;
    }
    static const Cell none;
    qWarning("no cell for program %s", qPrintable(programId));
    return none;
}

QJsonObject importedFrom(const DiscoveryTree &tree)
{
    return tree.meta().payload.value(s("imported_from")).toObject();
}

QByteArray digest(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256);
}

} // namespace

class TestRunImport : public QObject
{
    Q_OBJECT
    QTemporaryDir m_cache;

private slots:
    void initTestCase();
    void openEvolveNewEra();
    void openEvolveOldEra();
    void creationOrder();
    void prunedCheckpoint();
    void outputFolderChoosesDbThenCheckpoint();
    void migrantsWithChildren();
    void scoreMetric();
    void nonFiniteNumbers();
    void shinkaOlderRelease();
    void shinkaNewerRelease();
    void shinkaScoreMetricAndSurvey();
    void shinkaIsReadOnly();
    void badInput_data();
    void badInput();
    void cycleOfParents();
    void duplicatedId();
    void detectTellsRunsFromTreesAndProjects();
    void approximateField();
    void compactFormKeepsApproximate();
    void largeRun();
};

void TestRunImport::initTestCase()
{
    // The compact world cache of this suite, before anything asks where it is.
    qputenv("DREAMRSI_CACHE_DIR", QFile::encodeName(m_cache.path()));
    qputenv("DREAMRSI_WORLD_CACHE", "1");
}

void TestRunImport::openEvolveNewEra()
{
    QTemporaryDir dir;
    const QString db = dir.filePath(s("out/db"));
    QVERIFY(writeOeFolder(db, {
        oeProgram(s("p0"), {}, 1, score(0.5), {{s("island"), 0}}),
        oeProgram(s("p1"), s("p0"), 2, score(0.7), {{s("island"), 1}},
                  {{s("changes_description"), s("hex rows")}, {s("prompts"), QJsonObject{{s("x"), 1}}}}),
        oeProgram(s("p2"), s("p1"), 3, score(0.9), {{s("island"), 1}}),
        oeProgram(s("p3"), s("p1"), 4, score(0.8), {{s("island"), 2}}), // a second child of p1: a fork
        oeProgram(s("p4"), s("p0"), 5, {{s("error"), 0.0}, {s("timeout"), true}}, {{s("island"), 0}}),
        oeProgram(s("p5"), s("p2"), 6, {{s("error"), 0.0}}, {{s("island"), 1}}),
        oeProgram(s("p6"), s("p3"), 7, {{s("a"), 1.0}, {s("b"), 3.0}, {s("flag"), true}, {s("note"), s("x")}},
                  {{s("island"), 2}}),
    }));
    const Result<RunImport::Imported> r = RunImport::read(db);
    QVERIFY2(r.ok(), qPrintable(r.error));
    const DiscoveryTree &t = r.value->tree;
    QCOMPARE(r.value->framework, RunImport::Framework::OpenEvolve);
    // Rule 3: the initial program is no cell.
    QCOMPARE(t.cellCount(), 6);
    QCOMPARE(t.meta().baselineScore, std::optional<double>(0.5));
    QCOMPARE(t.meta().payload.value(s("initial_program")).toString(), s("# program p0\nprint(1)\n"));
    QVERIFY(!t.meta().task && !t.meta().grid && !t.meta().maxParallelism);
    // Rule 4: p1 opens branch 0, p2 continues it, p3 forks off p1, p4 opens a branch off the root.
    QCOMPARE(cellOf(t, s("p1")).id, s("b0a0"));
    QCOMPARE(cellOf(t, s("p2")).id, s("b0a1"));
    QCOMPARE(cellOf(t, s("p3")).id, s("b1a0"));
    QCOMPARE(cellOf(t, s("p3")).payload.value(s("forked_from")).toString(), s("b0a0"));
    QCOMPARE(cellOf(t, s("p4")).id, s("b2a0"));
    QVERIFY(!cellOf(t, s("p4")).payload.contains(s("forked_from")));
    QCOMPARE(cellOf(t, s("p5")).id, s("b0a2"));
    QCOMPARE(cellOf(t, s("p6")).id, s("b1a1"));
    for (int i = 0; i < t.cellCount(); ++i)
        QCOMPARE(t.cells().at(i).seq, qint64(i));
    // Rule 5: scores and fail classes.
    QCOMPARE(cellOf(t, s("p2")).score, std::optional<double>(0.9));
    QCOMPARE(cellOf(t, s("p2")).failClass, s("ok"));
    QCOMPARE(cellOf(t, s("p4")).failClass, s("timeout"));
    QVERIFY(!cellOf(t, s("p4")).score);
    QCOMPARE(cellOf(t, s("p5")).failClass, s("runtime"));
    QVERIFY(cellOf(t, s("p5")).error.has_value());
    QCOMPARE(cellOf(t, s("p6")).score, std::optional<double>(2.0)); // mean of 1 and 3; the flag and the text left out
    // Rule 6: the payload.
    const QJsonObject origin = cellOf(t, s("p1")).payload.value(s("origin")).toObject();
    QCOMPARE(origin.value(s("framework")).toString(), s("openevolve"));
    QCOMPARE(origin.value(s("id")).toString(), s("p1"));
    QCOMPARE(origin.value(s("parent_id")).toString(), s("p0"));
    QCOMPARE(origin.value(s("island")).toInt(), 1);
    QCOMPARE(origin.value(s("iteration")).toInt(), 2);
    QCOMPARE(origin.value(s("generation")).toInt(), 1);
    QCOMPARE(cellOf(t, s("p1")).proposal(), s("hex rows"));
    QCOMPARE(cellOf(t, s("p1")).program(), s("# program p1\nprint(2)\n"));
    QCOMPARE(cellOf(t, s("p1")).payload.value(s("metrics")).toObject(), score(0.7));
    QVERIFY(!cellOf(t, s("p1")).payload.contains(s("prompts"))); // not kept
    // Rule 7: the top level.
    QVERIFY(t.meta().approximate);
    const QJsonObject from = importedFrom(t);
    QCOMPARE(from.value(s("framework")).toString(), s("openevolve"));
    QCOMPARE(from.value(s("source")).toString(), db);
    QCOMPARE(from.value(s("programs")).toInt(), 7);
    QCOMPARE(from.value(s("copies_dropped")).toInt(), 0);
    QCOMPARE(from.value(s("forks")).toInt(), 1);
    QCOMPARE(from.value(s("orphans")).toInt(), 0);
    QCOMPARE(from.value(s("failed_proposals")).toInt(), 0);
    QVERIFY(!from.contains(s("population_snapshot"))); // db/ holds every program
    QVERIFY(r.value->notes.isEmpty());
    QVERIFY(RunImport::importSummary(t).contains(s("1 fork")));

    // The tree survives the file format unchanged.
    const TreeJson::ParseResult again = TreeJson::parse(TreeJson::serialize(t));
    QVERIFY2(again.ok(), qPrintable(again.error.message));
    QCOMPARE(again.tree->meta(), t.meta());
    QCOMPARE(again.tree->cells(), t.cells());
}

void TestRunImport::openEvolveOldEra()
{
    // Mid-2025 releases: no island per program, `changes` in metadata, no changes_description.
    QTemporaryDir dir;
    const QString checkpoint = dir.filePath(s("checkpoints/checkpoint_3"));
    QVERIFY(writeOeFolder(checkpoint, {
        oeProgram(s("a"), {}, 10, score(1.0)),
        oeProgram(s("b"), s("a"), 11, score(1.5), {{s("changes"), s("unrolled the loop")}}),
        oeProgram(s("c"), s("b"), 12, score(2.0), {{s("changes"), s("vectorised")}}),
        oeProgram(s("d"), s("a"), 13, score(1.2)),
    }));
    const Result<RunImport::Imported> r = RunImport::read(checkpoint);
    QVERIFY2(r.ok(), qPrintable(r.error));
    const DiscoveryTree &t = r.value->tree;
    QCOMPARE(t.cellCount(), 3);
    QCOMPARE(t.branches().size(), qsizetype(2));
    QVERIFY(cellOf(t, s("b")).payload.value(s("origin")).toObject().value(s("island")).isNull());
    QCOMPARE(cellOf(t, s("b")).proposal(), s("unrolled the loop"));
    QCOMPARE(cellOf(t, s("c")).id, s("b0a1"));
    // A faithful world: no fork, no orphan.
    QVERIFY(!t.meta().approximate);
    QVERIFY(RunImport::importSummary(t).contains(s("a faithful world")));
    // A checkpoint holds its population only: "N of M iterations", M = 3 + 1.
    QCOMPARE(importedFrom(t).value(s("population_snapshot")).toString(), s("4 of 4 iterations"));
    QVERIFY(!TreeJson::serialize(t).contains("\"approximate\""));
}

void TestRunImport::creationOrder()
{
    QTemporaryDir dir;
    const QString db = dir.filePath(s("db"));
    // c is stamped before its parent b: it is taken right after b. x and y tie: by id bytes ("Y" < "x").
    QVERIFY(writeOeFolder(db, {
        oeProgram(s("root"), {}, 1, score(0.1)),
        oeProgram(s("b"), s("root"), 5, score(0.2)),
        oeProgram(s("c"), s("b"), 3, score(0.3)),
        oeProgram(s("x"), s("root"), 4, score(0.4)),
        oeProgram(s("Y"), s("root"), 4, score(0.5)),
        oeProgram(s("z"), s("root"), 6, score(0.6)),
    }));
    const Result<RunImport::Imported> r = RunImport::read(db);
    QVERIFY2(r.ok(), qPrintable(r.error));
    QStringList order;
    for (const Cell &c : r.value->tree.cells())
        order.append(c.payload.value(s("origin")).toObject().value(s("id")).toString());
    QCOMPARE(order, (QStringList{s("Y"), s("x"), s("b"), s("c"), s("z")}));
    // Branch ids in the order branches open.
    QCOMPARE(cellOf(r.value->tree, s("Y")).id, s("b0a0"));
    QCOMPARE(cellOf(r.value->tree, s("x")).id, s("b1a0"));
    QCOMPARE(cellOf(r.value->tree, s("b")).id, s("b2a0"));
    QCOMPARE(cellOf(r.value->tree, s("c")).id, s("b2a1"));
    QCOMPARE(cellOf(r.value->tree, s("z")).id, s("b3a0"));
}

void TestRunImport::prunedCheckpoint()
{
    // The initial program and some parents were pruned: no baseline, orphans.
    QTemporaryDir dir;
    const QString checkpoint = dir.filePath(s("checkpoint_10"));
    QVERIFY(writeOeFolder(checkpoint, {
        oeProgram(s("k1"), s("gone1"), 20, score(3.0)),
        oeProgram(s("k2"), s("k1"), 21, score(3.5)),
        oeProgram(s("k3"), s("gone2"), 22, score(2.0)),
        oeProgram(s("k4"), s("k1"), 23, score(2.5)),
    }));
    const Result<RunImport::Imported> r = RunImport::read(checkpoint);
    QVERIFY2(r.ok(), qPrintable(r.error));
    const DiscoveryTree &t = r.value->tree;
    QCOMPARE(t.cellCount(), 4);
    QVERIFY(!t.meta().baselineScore);
    QVERIFY(!t.meta().payload.contains(s("initial_program")));
    QVERIFY(cellOf(t, s("k1")).payload.value(s("orphan")).toBool());
    QVERIFY(cellOf(t, s("k3")).payload.value(s("orphan")).toBool());
    QVERIFY(!cellOf(t, s("k2")).payload.contains(s("orphan")));
    QCOMPARE(cellOf(t, s("k2")).id, s("b0a1"));
    QCOMPARE(cellOf(t, s("k4")).payload.value(s("forked_from")).toString(), s("b0a0"));
    const QJsonObject from = importedFrom(t);
    QCOMPARE(from.value(s("orphans")).toInt(), 2);
    QCOMPARE(from.value(s("forks")).toInt(), 1);
    QCOMPARE(from.value(s("population_snapshot")).toString(), s("4 of 11 iterations"));
    QVERIFY(t.meta().approximate);
}

void TestRunImport::outputFolderChoosesDbThenCheckpoint()
{
    QTemporaryDir dir;
    const QString out = dir.filePath(s("openevolve_output"));
    QVERIFY(writeOeFolder(out + s("/checkpoints/checkpoint_5"), {oeProgram(s("a"), {}, 1, score(1))}));
    QVERIFY(writeOeFolder(out + s("/checkpoints/checkpoint_20"),
                          {oeProgram(s("a"), {}, 1, score(1)), oeProgram(s("b"), s("a"), 2, score(2))}));
    QVERIFY(writeOeFolder(out + s("/checkpoints/checkpoint_15"), {oeProgram(s("a"), {}, 1, score(1))}));
    Result<RunImport::Imported> r = RunImport::read(out);
    QVERIFY2(r.ok(), qPrintable(r.error));
    QCOMPARE(r.value->tree.cellCount(), 1);
    QCOMPARE(r.value->notes.size(), qsizetype(1));
    QVERIFY2(r.value->notes.first().contains(s("checkpoints/checkpoint_20")), qPrintable(r.value->notes.first()));
    QCOMPARE(importedFrom(r.value->tree).value(s("population_snapshot")).toString(), s("2 of 21 iterations"));

    // An empty db/ is passed over; one with programs is read.
    QVERIFY(QDir().mkpath(out + s("/db/programs")));
    r = RunImport::read(out);
    QVERIFY(r.ok());
    QVERIFY(r.value->notes.first().contains(s("checkpoint_20")));
    QVERIFY(writeOeFolder(out + s("/db"), {oeProgram(s("a"), {}, 1, score(1)), oeProgram(s("b"), s("a"), 2, score(2)),
                                           oeProgram(s("c"), s("b"), 3, score(3))}));
    r = RunImport::read(out);
    QVERIFY2(r.ok(), qPrintable(r.error));
    QCOMPARE(r.value->tree.cellCount(), 2);
    QVERIFY2(r.value->notes.first().contains(s("db/")), qPrintable(r.value->notes.first()));
    QVERIFY(!importedFrom(r.value->tree).contains(s("population_snapshot")));
}

void TestRunImport::migrantsWithChildren()
{
    QTemporaryDir dir;
    const QString db = dir.filePath(s("db"));
    const QJsonObject migrant{{s("migrant"), true}, {s("island"), 1}};
    QVERIFY(writeOeFolder(db, {
        oeProgram(s("p0"), {}, 1, score(0.5)),
        oeProgram(s("p1"), s("p0"), 2, score(0.6)),
        oeProgram(s("m1"), s("p1"), 3, score(0.6), migrant),           // a copy of p1
        oeProgram(s("m2"), s("m1"), 4, score(0.6), migrant),           // a copy of the copy
        oeProgram(s("c1"), s("m2"), 5, score(0.9)),                    // counts as p1's first child
        oeProgram(s("c2"), s("m1"), 6, score(0.8)),                    // p1's second child: a fork
        oeProgram(s("m3"), s("lost"), 7, score(0.1), migrant),         // a copy of a pruned program
        oeProgram(s("c3"), s("m3"), 8, score(0.2)),                    // an orphan
    }));
    const Result<RunImport::Imported> r = RunImport::read(db);
    QVERIFY2(r.ok(), qPrintable(r.error));
    const DiscoveryTree &t = r.value->tree;
    QCOMPARE(t.cellCount(), 4);
    QCOMPARE(cellOf(t, s("c1")).id, s("b0a1"));
    QCOMPARE(cellOf(t, s("c2")).payload.value(s("forked_from")).toString(), s("b0a0"));
    QVERIFY(cellOf(t, s("c3")).payload.value(s("orphan")).toBool());
    // The cell keeps the parent as stored; the tree places it by the original.
    QCOMPARE(cellOf(t, s("c1")).payload.value(s("origin")).toObject().value(s("parent_id")).toString(), s("m2"));
    const QJsonObject from = importedFrom(t);
    QCOMPARE(from.value(s("programs")).toInt(), 8);
    QCOMPARE(from.value(s("copies_dropped")).toInt(), 3);
    QCOMPARE(from.value(s("forks")).toInt(), 1);
    QCOMPARE(from.value(s("orphans")).toInt(), 1);
}

void TestRunImport::scoreMetric()
{
    QTemporaryDir dir;
    const QString db = dir.filePath(s("db"));
    QVERIFY(writeOeFolder(db, {
        oeProgram(s("p0"), {}, 1, {{s("accuracy"), 0.5}, {s("combined_score"), 9.0}}),
        oeProgram(s("p1"), s("p0"), 2, {{s("accuracy"), 0.75}, {s("combined_score"), 1.0}}),
        oeProgram(s("p2"), s("p1"), 3, {{s("combined_score"), 2.0}}),
    }));
    Result<RunImport::Imported> r = RunImport::read(db, RunImport::Options{s("accuracy")});
    QVERIFY2(r.ok(), qPrintable(r.error));
    QCOMPARE(r.value->tree.meta().baselineScore, std::optional<double>(0.5));
    QCOMPARE(cellOf(r.value->tree, s("p1")).score, std::optional<double>(0.75));
    // The named metric missing: correctness, saying so.
    const Cell &p2 = cellOf(r.value->tree, s("p2"));
    QCOMPARE(p2.failClass, s("correctness"));
    QVERIFY(!p2.score);
    QVERIFY(p2.error && p2.error->contains(s("accuracy")));
    // Without --score: combined_score.
    r = RunImport::read(db);
    QCOMPARE(cellOf(r.value->tree, s("p1")).score, std::optional<double>(1.0));

    const Result<RunImport::MetricSurvey> survey = RunImport::surveyMetrics(db);
    QVERIFY(survey.ok());
    QVERIFY(survey.value->hasCombinedScore);
    QCOMPARE(survey.value->numericMetrics, (QStringList{s("accuracy"), s("combined_score")}));
}

void TestRunImport::nonFiniteNumbers()
{
    // Python's json writes NaN and Infinity; they read as null, not as a broken file.
    QTemporaryDir dir;
    const QString db = dir.filePath(s("db"));
    QVERIFY(QDir().mkpath(db + s("/programs")));
    QVERIFY(writeFile(db + s("/programs/a.json"),
                      "{\"id\": \"a\", \"code\": \"x = 'NaN'\", \"parent_id\": null, \"timestamp\": 1,"
                      " \"metrics\": {\"combined_score\": 1.5, \"spread\": NaN}, \"metadata\": {}}"));
    QVERIFY(writeFile(db + s("/programs/b.json"),
                      "{\"id\": \"b\", \"code\": \"\", \"parent_id\": \"a\", \"timestamp\": 2,"
                      " \"metrics\": {\"speed\": Infinity, \"size\": -Infinity, \"n\": 4}, \"metadata\": {}}"));
    const Result<RunImport::Imported> r = RunImport::read(db);
    QVERIFY2(r.ok(), qPrintable(r.error));
    QCOMPARE(r.value->tree.meta().payload.value(s("initial_program")).toString(), s("x = 'NaN'"));
    QCOMPARE(cellOf(r.value->tree, s("b")).score, std::optional<double>(4.0));
}

void TestRunImport::shinkaOlderRelease()
{
    // Failed proposals stored as programs (node_kind failed_proposal); no attempt_log.
    QTemporaryDir dir;
    const QString path = dir.filePath(s("evolution_db.sqlite"));
    ShinkaRow init{s("i0"), {}, 100.0, true, 0.3};
    ShinkaRow good{s("g1"), s("i0"), 101.0, true, 0.6};
    good.diff = s("--- a\n+++ b\n");
    good.archive = {s("i0")};
    good.topK = {s("i0"), s("x9")};
    good.island = 2;
    good.generation = 1;
    good.publicMetrics = {{s("accuracy"), 0.9}};
    good.metadata = {{s("api_costs"), 0.012},
                     {s("sampling_seconds"), 4.0},
                     {s("evaluation_seconds"), 2.0},
                     {s("pipeline_seconds"), 6.5},
                     {s("llm_result"), QJsonObject{{s("model_name"), s("gpt-x")}, {s("input_tokens"), 1000},
                                                   {s("output_tokens"), 200}}}};
    ShinkaRow wrong{s("w2"), s("g1"), 102.0, false, 0.0};
    wrong.feedback = s("assertion failed: overlap");
    ShinkaRow nullScore{s("n3"), s("i0"), 103.0, true, std::nullopt};
    ShinkaRow failed{s("f4"), s("g1"), 104.0, false, std::nullopt};
    failed.metadata = {{s("node_kind"), s("failed_proposal")}, {s("failure_reason"), s("patch did not apply")}};
    // An island copy of g1 (parent null) and a child of the copy.
    ShinkaRow copy{s("g1copy"), {}, 105.0, true, 0.6};
    copy.metadata = {{s("_is_island_copy"), true}, {s("_original_program_id"), s("g1")}};
    copy.island = 1;
    ShinkaRow child{s("c6"), s("g1copy"), 106.0, true, 0.7};
    QVERIFY(writeShinkaDb(path, {init, good, wrong, nullScore, failed, copy, child}));

    const Result<RunImport::Imported> r = RunImport::read(path);
    QVERIFY2(r.ok(), qPrintable(r.error));
    const DiscoveryTree &t = r.value->tree;
    QCOMPARE(r.value->framework, RunImport::Framework::ShinkaEvolve);
    QCOMPARE(t.cellCount(), 5);
    QCOMPARE(t.meta().baselineScore, std::optional<double>(0.3));
    QCOMPARE(cellOf(t, s("g1")).score, std::optional<double>(0.6));
    QCOMPARE(cellOf(t, s("g1")).failClass, s("ok"));
    QCOMPARE(cellOf(t, s("w2")).failClass, s("correctness"));
    QCOMPARE(cellOf(t, s("w2")).error, std::optional<QString>(s("assertion failed: overlap")));
    QCOMPARE(cellOf(t, s("n3")).failClass, s("correctness"));
    QVERIFY(cellOf(t, s("n3")).error->contains(s("combined_score")));
    QCOMPARE(cellOf(t, s("f4")).failClass, s("agent"));
    QCOMPARE(cellOf(t, s("f4")).error, std::optional<QString>(s("patch did not apply")));
    // w2 continues g1's branch; f4 and c6 (through the copy) are later children of g1: forks.
    QCOMPARE(cellOf(t, s("w2")).id, s("b0a1"));
    QCOMPARE(cellOf(t, s("f4")).payload.value(s("forked_from")).toString(), s("b0a0"));
    QCOMPARE(cellOf(t, s("c6")).payload.value(s("forked_from")).toString(), s("b0a0"));
    // Payload: origin with inspirations, proposal, usage and timings as a live round writes them.
    const QJsonObject origin = cellOf(t, s("g1")).payload.value(s("origin")).toObject();
    QCOMPARE(origin.value(s("framework")).toString(), s("shinkaevolve"));
    QCOMPARE(origin.value(s("island")).toInt(), 2);
    QCOMPARE(origin.value(s("generation")).toInt(), 1);
    QCOMPARE(origin.value(s("inspirations")).toArray(), (QJsonArray{s("i0"), s("x9")}));
    QCOMPARE(cellOf(t, s("g1")).proposal(), s("--- a\n+++ b\n"));
    const QJsonObject agent = cellOf(t, s("g1")).payload.value(s("agent")).toObject();
    QCOMPARE(agent.value(s("model")).toString(), s("gpt-x"));
    QCOMPARE(agent.value(s("tokens_in")).toInt(), 1000);
    QCOMPARE(agent.value(s("tokens_out")).toInt(), 200);
    QCOMPARE(agent.value(s("cost")).toDouble(), 0.012);
    const QJsonObject timing = cellOf(t, s("g1")).payload.value(s("timing")).toObject();
    QCOMPARE(timing.value(s("agent_s")).toDouble(), 4.0);
    QCOMPARE(timing.value(s("eval_s")).toDouble(), 2.0);
    QCOMPARE(timing.value(s("wall_s")).toDouble(), 6.5);
    QCOMPARE(cellOf(t, s("g1")).payload.value(s("metrics")).toObject().value(s("accuracy")).toDouble(), 0.9);
    const QJsonObject from = importedFrom(t);
    QCOMPARE(from.value(s("framework")).toString(), s("shinkaevolve"));
    QCOMPARE(from.value(s("programs")).toInt(), 7);
    QCOMPARE(from.value(s("copies_dropped")).toInt(), 1);
    QCOMPARE(from.value(s("forks")).toInt(), 2);
    QCOMPARE(from.value(s("failed_proposals")).toInt(), 0);
    QVERIFY(t.meta().approximate);
}

void TestRunImport::shinkaNewerRelease()
{
    // Failed proposals only in attempt_log: counted, no cells; a spawned-island copy.
    QTemporaryDir dir;
    const QString path = dir.filePath(s("run.db"));
    ShinkaRow init{s("i0"), {}, 1.0, true, 1.0};
    ShinkaRow a{s("a1"), s("i0"), 2.0, true, 2.0};
    ShinkaRow spawned{s("a1s"), {}, 3.0, true, 2.0};
    spawned.metadata = {{s("_spawned_island"), true}, {s("_spawned_from_program_id"), s("a1")}};
    ShinkaRow b{s("b2"), s("a1s"), 4.0, true, 3.0};
    QVERIFY(writeShinkaDb(path, {init, a, spawned, b}, true, 3));
    const Result<RunImport::Imported> r = RunImport::read(path);
    QVERIFY2(r.ok(), qPrintable(r.error));
    QCOMPARE(r.value->tree.cellCount(), 2);
    QCOMPARE(cellOf(r.value->tree, s("b2")).id, s("b0a1"));
    QCOMPARE(importedFrom(r.value->tree).value(s("failed_proposals")).toInt(), 3);
    QCOMPARE(importedFrom(r.value->tree).value(s("copies_dropped")).toInt(), 1);
    QVERIFY(!r.value->tree.meta().approximate);
}

void TestRunImport::shinkaScoreMetricAndSurvey()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(s("run.sqlite"));
    ShinkaRow init{s("i0"), {}, 1.0, true, 1.0};
    init.publicMetrics = {{s("speed"), 10.0}, {s("label"), s("x")}};
    ShinkaRow a{s("a1"), s("i0"), 2.0, true, 2.0};
    a.publicMetrics = {{s("speed"), 12.5}};
    ShinkaRow b{s("b2"), s("a1"), 3.0, true, 3.0};
    QVERIFY(writeShinkaDb(path, {init, a, b}));
    const Result<RunImport::Imported> r = RunImport::read(path, RunImport::Options{s("speed")});
    QVERIFY2(r.ok(), qPrintable(r.error));
    QCOMPARE(r.value->tree.meta().baselineScore, std::optional<double>(10.0));
    QCOMPARE(cellOf(r.value->tree, s("a1")).score, std::optional<double>(12.5));
    QCOMPARE(cellOf(r.value->tree, s("b2")).failClass, s("correctness"));
    QVERIFY(cellOf(r.value->tree, s("b2")).error->contains(s("speed")));
    const Result<RunImport::MetricSurvey> survey = RunImport::surveyMetrics(path);
    QVERIFY(survey.ok());
    QCOMPARE(survey.value->numericMetrics, (QStringList{s("combined_score"), s("speed")}));
}

void TestRunImport::shinkaIsReadOnly()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(s("run.sqlite"));
    QVERIFY(writeShinkaDb(path, {ShinkaRow{s("i0"), {}, 1.0, true, 1.0}, ShinkaRow{s("a"), s("i0"), 2.0, true, 2.0}}, true, 1));
    const QByteArray before = digest(path);
    const QDateTime modified = QFileInfo(path).lastModified();
    QVERIFY(RunImport::read(path).ok());
    QVERIFY(RunImport::surveyMetrics(path).ok());
    QCOMPARE(digest(path), before);
    QCOMPARE(QFileInfo(path).lastModified(), modified);
    // No journal, WAL or shared-memory file was made beside it.
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList{s("run.sqlite")});
}

void TestRunImport::badInput_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("expectFile");  // the file the message names (relative), or empty for the path
    QTest::addColumn<QString>("expectText");
    QTest::newRow("missing path") << s("missing") << s("nothing") << s("no such file");
    QTest::newRow("text file") << s("text") << s("notes.txt") << s("not a run");
    QTest::newRow("folder of something else") << s("folder") << s("other") << s("not an OpenEvolve run");
    QTest::newRow("damaged database") << s("damaged") << s("broken.sqlite") << s("not an SQLite database");
    QTest::newRow("truncated database") << s("truncated") << s("cut.sqlite") << s("cut.sqlite");
    QTest::newRow("database without programs") << s("noprograms") << s("project.db") << s("no programs table");
    QTest::newRow("program file not JSON") << s("notjson") << s("db/programs/p1.json") << s("not valid JSON");
    QTest::newRow("program file without id") << s("noid") << s("db/programs/p1.json") << s("no \"id\"");
    QTest::newRow("bad metadata JSON in Shinka") << s("badmeta") << s("meta.sqlite") << s("program \"a1\"");
}

void TestRunImport::badInput()
{
    QFETCH(QString, kind);
    QFETCH(QString, expectFile);
    QFETCH(QString, expectText);
    QTemporaryDir dir;
    QString path = dir.filePath(expectFile);
    if (kind == s("text")) {
        QVERIFY(writeFile(path, "hello"));
    } else if (kind == s("folder")) {
        QVERIFY(QDir().mkpath(path + s("/sub")));
    } else if (kind == s("damaged")) {
        QVERIFY(writeFile(path, "this is not a database at all, just text"));
    } else if (kind == s("truncated")) {
        const QString whole = dir.filePath(s("whole.sqlite"));
        QVERIFY(writeShinkaDb(whole, {ShinkaRow{s("i0"), {}, 1.0, true, 1.0}}));
        QFile f(whole);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QByteArray bytes = f.readAll();
        bytes.truncate(100); // the header survives, the pages do not
        QVERIFY(writeFile(path, bytes));
    } else if (kind == s("noprograms")) {
        sqlite3 *db = nullptr;
        QCOMPARE(sqlite3_open(QFile::encodeName(path).constData(), &db), SQLITE_OK);
        QCOMPARE(sqlite3_exec(db, "CREATE TABLE iterations(id INTEGER PRIMARY KEY);", nullptr, nullptr, nullptr), SQLITE_OK);
        sqlite3_close(db);
    } else if (kind == s("notjson") || kind == s("noid")) {
        QVERIFY(writeOeFolder(dir.filePath(s("db")), {oeProgram(s("p0"), {}, 1, score(1))}));
        QVERIFY(writeFile(path, kind == s("notjson") ? QByteArray("{\"id\": \"p1\", ") : QByteArray("{\"code\": \"\"}")));
    } else if (kind == s("badmeta")) {
        QVERIFY(writeShinkaDb(path, {ShinkaRow{s("i0"), {}, 1.0, true, 1.0}, ShinkaRow{s("a1"), s("i0"), 2.0, true, 2.0}}));
        sqlite3 *db = nullptr;
        QCOMPARE(sqlite3_open(QFile::encodeName(path).constData(), &db), SQLITE_OK);
        QCOMPARE(sqlite3_exec(db, "UPDATE programs SET metadata = '{broken' WHERE id = 'a1';", nullptr, nullptr, nullptr), SQLITE_OK);
        sqlite3_close(db);
    }
    const QString given = kind == s("notjson") || kind == s("noid") ? dir.filePath(s("db")) : path;
    const Result<RunImport::Imported> r = RunImport::read(given);
    QVERIFY(!r.ok());
    QVERIFY2(r.error.contains(expectFile), qPrintable(r.error));
    QVERIFY2(r.error.contains(expectText), qPrintable(r.error));
    // The workbench's reading gives the same verdict.
    QVERIFY(!RunImport::readTreeOrRun(given).ok() || kind == s("text"));
}

void TestRunImport::cycleOfParents()
{
    QTemporaryDir dir;
    const QString db = dir.filePath(s("db"));
    QVERIFY(writeOeFolder(db, {
        oeProgram(s("p0"), {}, 1, score(1)),
        oeProgram(s("a"), s("c"), 2, score(1)),
        oeProgram(s("b"), s("a"), 3, score(1)),
        oeProgram(s("c"), s("b"), 4, score(1)),
        oeProgram(s("d"), s("c"), 5, score(1)),
    }));
    const Result<RunImport::Imported> r = RunImport::read(db);
    QVERIFY(!r.ok());
    QVERIFY2(r.error.contains(s("cycle of parents")), qPrintable(r.error));
    QVERIFY2(r.error.contains(s("programs/")) && r.error.contains(s(".json")), qPrintable(r.error));
    QVERIFY2(r.error.contains(s("\"a\"")) || r.error.contains(s("\"b\"")) || r.error.contains(s("\"c\"")), qPrintable(r.error));

    // A program that is its own parent, in a Shinka database.
    const QString path = dir.filePath(s("self.sqlite"));
    QVERIFY(writeShinkaDb(path, {ShinkaRow{s("i0"), {}, 1.0, true, 1.0}, ShinkaRow{s("s1"), s("s1"), 2.0, true, 2.0}}));
    const Result<RunImport::Imported> self = RunImport::read(path);
    QVERIFY(!self.ok());
    QVERIFY2(self.error.contains(path) && self.error.contains(s("\"s1\"")), qPrintable(self.error));
}

void TestRunImport::duplicatedId()
{
    QTemporaryDir dir;
    const QString db = dir.filePath(s("db"));
    QVERIFY(writeOeFolder(db, {oeProgram(s("p0"), {}, 1, score(1)), oeProgram(s("p1"), s("p0"), 2, score(1))}));
    // A second file holding the id of the first.
    QVERIFY(writeFile(db + s("/programs/zz-copy.json"),
                      QJsonDocument(oeProgram(s("p1"), s("p0"), 3, score(2))).toJson()));
    const Result<RunImport::Imported> r = RunImport::read(db);
    QVERIFY(!r.ok());
    QVERIFY2(r.error.contains(s("zz-copy.json")) && r.error.contains(s("\"p1\"")) && r.error.contains(s("twice")),
             qPrintable(r.error));
}

void TestRunImport::detectTellsRunsFromTreesAndProjects()
{
    QTemporaryDir dir;
    const QString tree = dir.filePath(s("t.json"));
    QVERIFY(writeFile(tree, "{\"format\": \"dreamrsi-tree/1\", \"cells\": []}"));
    QVERIFY(!RunImport::isRun(tree));
    QVERIFY(!RunImport::looksLikeRunPath(tree));
    QVERIFY(RunImport::readTreeOrRun(tree).ok());
    QVERIFY(!RunImport::readTreeOrRun(tree).value->framework.has_value());

    const QString project = dir.filePath(s("p.dreamrsi"));
    sqlite3 *db = nullptr;
    QCOMPARE(sqlite3_open(QFile::encodeName(project).constData(), &db), SQLITE_OK);
    QCOMPARE(sqlite3_exec(db, "CREATE TABLE project(id INTEGER); CREATE TABLE iterations(id INTEGER);", nullptr, nullptr, nullptr),
             SQLITE_OK);
    sqlite3_close(db);
    QVERIFY(!RunImport::isRun(project));
    QVERIFY(!RunImport::looksLikeRunPath(project));

    const QString shinka = dir.filePath(s("evolution_db.sqlite"));
    QVERIFY(writeShinkaDb(shinka, {ShinkaRow{s("i0"), {}, 1.0, true, 1.0}}));
    QCOMPARE(RunImport::detect(shinka), std::optional(RunImport::Framework::ShinkaEvolve));
    const QString oe = dir.filePath(s("checkpoint_1"));
    QVERIFY(writeOeFolder(oe, {oeProgram(s("p0"), {}, 1, score(1))}));
    QCOMPARE(RunImport::detect(oe), std::optional(RunImport::Framework::OpenEvolve));
    QCOMPARE(RunImport::detect(dir.path()), std::optional(RunImport::Framework::OpenEvolve)); // holds checkpoint_1
    QVERIFY(!RunImport::detect(dir.filePath(s("nothing"))));

    // Names: a db or checkpoint folder goes with its parent's name.
    QVERIFY(writeOeFolder(dir.filePath(s("out/db")), {oeProgram(s("p0"), {}, 1, score(1))}));
    QCOMPARE(RunImport::worldName(dir.filePath(s("out/db"))), s("out-db"));
    QCOMPARE(RunImport::worldName(oe), QFileInfo(dir.path()).fileName() + s("-checkpoint_1"));
    QCOMPARE(RunImport::worldName(dir.filePath(s("out"))), s("out"));
    QCOMPARE(RunImport::worldName(shinka), s("evolution_db.sqlite"));
}

void TestRunImport::approximateField()
{
    const QByteArray base = "{\"format\": \"dreamrsi-tree/1\", \"cells\": [{\"id\": \"b0a0\", \"branch\": 0, \"attempt\": 0, "
                            "\"seq\": 0, \"score\": 1}]";
    for (const auto &[text, expected] : {std::pair{QByteArray(""), false}, std::pair{QByteArray(", \"approximate\": true"), true},
                                         std::pair{QByteArray(", \"approximate\": false"), false},
                                         std::pair{QByteArray(", \"approximate\": null"), false}}) {
        const QByteArray json = base + text + "}";
        const TreeJson::ParseResult fast = TreeJson::parse(json);
        const TreeJson::ParseResult reference = TreeJson::parseReference(json);
        QVERIFY2(fast.ok() && reference.ok(), json.constData());
        QCOMPARE(fast.tree->meta().approximate, expected);
        QCOMPARE(reference.tree->meta().approximate, expected);
        QVERIFY(!fast.tree->meta().payload.contains(s("approximate")));
        // Written only when true, so faithful trees keep their bytes.
        QCOMPARE(TreeJson::serialize(*fast.tree).contains("\"approximate\": true"), expected);
        QVERIFY(!TreeJson::serialize(*fast.tree).contains("\"approximate\": false"));
    }
    const QByteArray bad = base + ", \"approximate\": \"yes\"}";
    QVERIFY(!TreeJson::parse(bad).ok());
    QVERIFY2(TreeJson::parse(bad).error.message.contains(s("approximate: expected a boolean or null")),
             qPrintable(TreeJson::parse(bad).error.message));

    QTemporaryDir dir;
    const QString approximate = dir.filePath(s("a.json")), faithful = dir.filePath(s("f.json")),
                  mentions = dir.filePath(s("m.json"));
    QVERIFY(writeFile(approximate, base + ", \"approximate\": true}"));
    QVERIFY(writeFile(faithful, base + "}"));
    QVERIFY(writeFile(mentions, base + ", \"note\": {\"approximate\": true}}")); // a payload key of that name
    QVERIFY(TreeJson::isApproximateFile(approximate));
    QVERIFY(!TreeJson::isApproximateFile(faithful));
    QVERIFY(!TreeJson::isApproximateFile(mentions));
    QVERIFY(!TreeJson::isApproximateFile(dir.filePath(s("none.json"))));
}

void TestRunImport::compactFormKeepsApproximate()
{
    QTemporaryDir dir;
    const QString approximate = dir.filePath(s("a.json")), faithful = dir.filePath(s("f.json"));
    const QByteArray base = "{\"format\": \"dreamrsi-tree/1\", \"cells\": [{\"id\": \"b0a0\", \"branch\": 0, "
                            "\"attempt\": 0, \"seq\": 0, \"score\": 1}]";
    QVERIFY(writeFile(approximate, base + ", \"approximate\": true}"));
    QVERIFY(writeFile(faithful, base + "}"));
    // The compact reading and the compact form of a read tree agree.
    QVERIFY(TreeJson::readCompactFile(approximate).value->approximate);
    QVERIFY(!TreeJson::readCompactFile(faithful).value->approximate);
    QVERIFY(CompactTree::fromTree(*TreeJson::readFile(approximate).tree).approximate);
    // The cache keeps it: files settle for two seconds before they are cached.
    QVERIFY(CompactCache::directory().startsWith(m_cache.path()));
    QThread::sleep(3);
    QVERIFY(TreeJson::readCompactFile(approximate, true).ok());
    QVERIFY(TreeJson::readCompactFile(faithful, true).ok());
    struct stat a, f;
    QCOMPARE(::stat(QFile::encodeName(approximate).constData(), &a), 0);
    QCOMPARE(::stat(QFile::encodeName(faithful).constData(), &f), 0);
    const std::optional<CompactTree> cachedA = CompactCache::load(a), cachedF = CompactCache::load(f);
    QVERIFY(cachedA && cachedF);
    QVERIFY(cachedA->approximate);
    QVERIFY(!cachedF->approximate);
    QVERIFY(TreeJson::isApproximateFile(approximate, true));
    QVERIFY(!TreeJson::isApproximateFile(faithful, true));
}

void TestRunImport::largeRun()
{
    // 2,000 programs in long chains with forks: every rule holds at size, and
    // the tree is valid (no timing is asserted; `dreamrsi bench import` times it).
    QTemporaryDir dir;
    const QString db = dir.filePath(s("db"));
    QList<QJsonObject> programs{oeProgram(s("p0000"), {}, 0, score(0.0))};
    for (int i = 1; i < 2000; ++i) {
        const int parent = i % 5 == 0 ? i / 2 : i - 1;
        programs.append(oeProgram(QStringLiteral("p%1").arg(i, 4, 10, QLatin1Char('0')),
                                  QStringLiteral("p%1").arg(parent, 4, 10, QLatin1Char('0')), i, score(i % 17)));
    }
    QVERIFY(writeOeFolder(db, programs));
    const Result<RunImport::Imported> r = RunImport::read(db);
    QVERIFY2(r.ok(), qPrintable(r.error));
    QCOMPARE(r.value->tree.cellCount(), 1999);
    const QJsonObject from = importedFrom(r.value->tree);
    // Program i (i % 5 == 0, i > 0) is a second child of i / 2, unless i / 2 + 1 is itself such a program.
    QVERIFY(from.value(s("forks")).toInt() > 250);
    QCOMPARE(from.value(s("orphans")).toInt(), 0);
    QCOMPARE(r.value->tree.branches().size(), qsizetype(1 + from.value(s("forks")).toInt()));
}

QTEST_GUILESS_MAIN(TestRunImport)
#include "tst_runimport.moc"
