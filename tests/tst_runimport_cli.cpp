// The commands over OpenEvolve and ShinkaEvolve runs: export, validate and
// import in process (as the CLI drives them), and replay's handling of
// approximate worlds through the `dreamrsi` program (DREAMRSI_PROGRAM).
#include "clirunsupport.h"
#include "commands.h"
#include "model/treejson.h"
#include "runfixtures.h"
#include "store/projectreader.h"

#include <QJsonArray>
#include <QTemporaryDir>
#include <QtTest>

using namespace dreamrsi;
using namespace dreamrsi::test;

namespace {

QString s(const char *text)
{
    return QString::fromUtf8(text);
}

using Run = dreamrsi::test::CommandRun;

Run run(int (*command)(const QStringList &, QTextStream &, QTextStream &), const QStringList &args)
{
    return dreamrsi::test::runCommand(command, args);
}

/// An OpenEvolve output folder with db/: p2 is a second child of p1 (a fork)
/// when `fork`, else a faithful run.
QString writeOutput(const QTemporaryDir &dir, const char *name, bool fork)
{
    const QString out = dir.filePath(QString::fromLatin1(name));
    writeOeFolder(out + s("/db"), {oeProgram(s("p0"), {}, 1, score(0.5)), oeProgram(s("p1"), s("p0"), 2, score(1.0)),
                                   oeProgram(s("p2"), fork ? s("p1") : s("p0"), 3, score(2.0)),
                                   oeProgram(s("p3"), s("p1"), 4, score(1.5))});
    return out;
}

QString writeShinka(const QTemporaryDir &dir)
{
    const QString path = dir.filePath(s("evolution_db.sqlite"));
    ShinkaRow failed{s("f2"), s("a1"), 3.0, false, std::nullopt};
    failed.metadata = {{s("node_kind"), s("failed_proposal")}};
    ShinkaRow wrong{s("w3"), s("a1"), 4.0, false, 0.0};
    wrong.feedback = s("wrong");
    writeShinkaDb(path, {ShinkaRow{s("i0"), {}, 1.0, true, 1.0}, ShinkaRow{s("a1"), s("i0"), 2.0, true, 2.0}, failed, wrong},
                  true, 2);
    return path;
}

qsizetype iterationCount(const QString &project)
{
    StoreResult<std::unique_ptr<ProjectReader>> reader = ProjectReader::open(project);
    if (!reader.ok())
        return -1;
    const StoreResult<QList<IterationInfo>> its = (*reader.value)->iterations();
    return its.ok() ? its.value->size() : -1;
}

} // namespace

class TestRunImportCli : public QObject
{
    Q_OBJECT
private slots:
    void exportRun();
    void validateRun();
    void importRuns();
    void importBadInputStoresNothing();
    void scoreIsForRunsOnly();
    void replaySkipsApproximateWorlds();
    void projectReplayLeavesApproximateWorldsOut();
    void benchImport();
};

void TestRunImportCli::exportRun()
{
    QTemporaryDir dir;
    const QString out = writeOutput(dir, "oe", true);
    // To stdout without -o, saying which folder it read.
    Run r = run(runProjectExportCommand, {out});
    QVERIFY2(r.rc == 0, qPrintable(r.err));
    QVERIFY2(r.err.contains(s("note: ")) && r.err.contains(s("db/")), qPrintable(r.err));
    TreeJson::ParseResult tree = TreeJson::parse(r.out.toUtf8());
    QVERIFY2(tree.ok(), qPrintable(tree.error.message));
    QCOMPARE(tree.tree->cellCount(), 3);
    QVERIFY(tree.tree->meta().approximate);
    QCOMPARE(tree.tree->meta().payload.value(s("imported_from")).toObject().value(s("source")).toString(), out);

    // With -o, and from a checkpoint folder; --score picks the metric.
    const QString file = dir.filePath(s("t.json"));
    r = run(runProjectExportCommand, {out + s("/db"), s("-o"), file, s("--score"), s("combined_score")});
    QVERIFY2(r.rc == 0, qPrintable(r.err));
    tree = TreeJson::readFile(file);
    QVERIFY(tree.ok());
    QCOMPARE(tree.tree->bestScore(), std::optional<double>(2.0));
    // The written file is canonical: exporting it again gives the same bytes.
    Run again = run(runProjectExportCommand, {file});
    QCOMPARE(again.rc, 0);
    QFile f(file);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(again.out.toUtf8(), f.readAll());

    // A Shinka database (an SQLite file, not taken for a project).
    r = run(runProjectExportCommand, {writeShinka(dir)});
    QVERIFY2(r.rc == 0, qPrintable(r.err));
    tree = TreeJson::parse(r.out.toUtf8());
    QVERIFY(tree.ok());
    QCOMPARE(tree.tree->cellCount(), 3);
}

void TestRunImportCli::validateRun()
{
    QTemporaryDir dir;
    const QString out = writeOutput(dir, "oe", true);
    const QString shinka = writeShinka(dir);
    Run r = run(runValidateCommand, {out, shinka});
    QVERIFY2(r.rc == 0, qPrintable(r.err));
    QVERIFY2(r.out.contains(out + s(": ok: 3 cells")), qPrintable(r.out));
    QVERIFY(r.out.contains(s("imported from openevolve: 4 programs, 0 copies dropped, 1 fork, 0 orphans")));
    QVERIFY(r.out.contains(s("an approximate world")));
    QVERIFY2(r.out.contains(s("imported from shinkaevolve: 4 programs, 0 copies dropped, 1 fork, 0 orphans, 2 failed proposals")),
             qPrintable(r.out));
    QVERIFY(r.out.contains(s("agent=1")) && r.out.contains(s("correctness=1")));

    // A bad run among good ones: exit 1, its message naming the file.
    const QString bad = dir.filePath(s("broken.db"));
    QVERIFY(writeFile(bad, "garbage"));
    r = run(runValidateCommand, {out, bad});
    QCOMPARE(r.rc, 1);
    QVERIFY2(r.err.contains(bad), qPrintable(r.err));
}

void TestRunImportCli::importRuns()
{
    QTemporaryDir dir;
    const QString p = dir.filePath(s("p.dreamrsi"));
    QCOMPARE(run(runProjectCommand, {s("new"), p}).rc, 0);
    const QString faithful = writeOutput(dir, "faithful", false);
    const QString shinka = writeShinka(dir);
    Run r = run(runImportCommand, {p, faithful, writeOutput(dir, "forked", true), shinka});
    QVERIFY2(r.rc == 0, qPrintable(r.err));
    QVERIFY2(r.out.contains(s("stored as iteration")), qPrintable(r.out));
    QCOMPARE(iterationCount(p), qsizetype(3));
    // Each is named by its run (RunImport::worldName).
    {
        StoreResult<std::unique_ptr<ProjectReader>> reader = ProjectReader::open(p);
        QVERIFY(reader.ok());
        const StoreResult<QList<IterationInfo>> its = (*reader.value)->iterations();
        QVERIFY(its.ok());
        QCOMPARE(its.value->at(0).source, s("faithful")); // the output folder given
        QCOMPARE(its.value->at(2).source, s("evolution_db.sqlite"));
    }
    // The stored tree keeps `approximate` and the payload: export gives them back.
    r = run(runProjectExportCommand, {p, s("--iteration"), s("2")});
    QVERIFY2(r.rc == 0, qPrintable(r.err));
    TreeJson::ParseResult tree = TreeJson::parse(r.out.toUtf8());
    QVERIFY(tree.ok());
    QVERIFY(tree.tree->meta().approximate);
    QCOMPARE(tree.tree->meta().payload.value(s("imported_from")).toObject().value(s("forks")).toInt(), 1);
    QVERIFY(tree.tree->meta().payload.contains(s("initial_program")));
    r = run(runProjectExportCommand, {p, s("--iteration"), s("1")});
    tree = TreeJson::parse(r.out.toUtf8());
    QVERIFY(tree.ok());
    QVERIFY(!tree.tree->meta().approximate);
}

void TestRunImportCli::importBadInputStoresNothing()
{
    QTemporaryDir dir;
    const QString p = dir.filePath(s("p.dreamrsi"));
    QCOMPARE(run(runProjectCommand, {s("new"), p}).rc, 0);
    const QString good = writeOutput(dir, "good", false);
    // A cycle of parents in the second run.
    const QString cycle = dir.filePath(s("cycle/db"));
    QVERIFY(writeOeFolder(cycle, {oeProgram(s("p0"), {}, 1, score(1)), oeProgram(s("a"), s("b"), 2, score(1)),
                                  oeProgram(s("b"), s("a"), 3, score(1))}));
    Run r = run(runImportCommand, {p, good, cycle});
    QCOMPARE(r.rc, 1);
    QVERIFY2(r.err.contains(s("cycle of parents")) && r.err.contains(s("nothing was imported")), qPrintable(r.err));
    QVERIFY2(r.err.contains(cycle), qPrintable(r.err));
    QCOMPARE(iterationCount(p), qsizetype(0));
    // A program file that is not JSON.
    const QString notJson = dir.filePath(s("nj/db"));
    QVERIFY(writeOeFolder(notJson, {oeProgram(s("p0"), {}, 1, score(1))}));
    QVERIFY(writeFile(notJson + s("/programs/p9.json"), "{oops"));
    r = run(runImportCommand, {p, good, notJson});
    QCOMPARE(r.rc, 1);
    QVERIFY2(r.err.contains(s("p9.json")), qPrintable(r.err));
    QCOMPARE(iterationCount(p), qsizetype(0));
}

void TestRunImportCli::scoreIsForRunsOnly()
{
    QTemporaryDir dir;
    const QString tree = dir.filePath(s("t.json"));
    QVERIFY(writeFile(tree, "{\"format\": \"dreamrsi-tree/1\", \"cells\": []}"));
    QCOMPARE(run(runProjectExportCommand, {tree, s("--score"), s("x")}).rc, 2);
    QCOMPARE(run(runValidateCommand, {tree, s("--score"), s("x")}).rc, 2);
    const QString p = dir.filePath(s("p.dreamrsi"));
    QCOMPARE(run(runProjectCommand, {s("new"), p}).rc, 0);
    QCOMPARE(run(runImportCommand, {p, tree, s("--score"), s("x")}).rc, 2);
    // Tree files keep their behaviour.
    QCOMPARE(run(runValidateCommand, {tree}).rc, 0);
    QCOMPARE(run(runImportCommand, {p, tree}).rc, 0);
}

void TestRunImportCli::replaySkipsApproximateWorlds()
{
    QTemporaryDir dir;
    const QString approximate = dir.filePath(s("approximate.json")), faithful = dir.filePath(s("faithful.json"));
    QCOMPARE(run(runProjectExportCommand, {writeOutput(dir, "a", true), s("-o"), approximate}).rc, 0);
    QCOMPARE(run(runProjectExportCommand, {writeOutput(dir, "f", false), s("-o"), faithful}).rc, 0);
    const QStringList worlds{s("replay"), s("--world"), approximate, s("--world"), faithful, s("--policy"), s("builtin:parallel_refine"),
                             s("--betas"), s("0,1"), s("--no-cache")};

    // Skipped, with a note; only the faithful world is replayed.
    TextRun r = runText(worlds);
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY2(r.err.contains(s("note: skipping ") + approximate), qPrintable(r.err));
    QVERIFY(r.out.contains(faithful));
    QVERIFY(!r.out.contains(approximate));
    QVERIFY(!r.out.contains(s("approximate world")));

    // Asked for: replayed and labelled, in the table and in the JSON, on both engines.
    r = runText(worlds + QStringList{s("--include-approximate")});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY(r.out.contains(approximate));
    QVERIFY2(r.out.contains(s("(approximate world)")), qPrintable(r.out));
    QVERIFY(r.out.contains(s("(over 1 approximate world)")));
    for (const QString &engine : {s("builtin:parallel_refine"), s("--trace")}) {
        QStringList args = worlds + QStringList{s("--include-approximate"), s("--json")};
        if (engine == s("--trace"))
            args << s("--trace") << dir.filePath(s("trace.jsonl"));
        r = runText(args);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonArray results = QJsonDocument::fromJson(r.out.toUtf8()).object().value(s("worlds")).toArray();
        QCOMPARE(results.size(), qsizetype(2));
        for (const QJsonValue &w : results) {
            const bool isApproximate = w.toObject().value(s("world")).toString() == approximate;
            QCOMPARE(w.toObject().value(s("approximate")).toBool(), isApproximate);
            QCOMPARE(w.toObject().contains(s("approximate")), isApproximate);
        }
    }

    // A scripted policy (the replay that reads each world as it replays it):
    // the same note, and the result, its value included, is that of the
    // faithful world alone.
    const QString script = dir.filePath(s("first.js"));
    QVERIFY(writeFile(script, "function selectBatch(state) { return state.round < 2 ? state.legal.slice(0, 1) : []; }"));
    const QStringList scripted{s("replay"), s("--policy"), script, s("--betas"), s("0,1"), s("--json"), s("--no-cache")};
    r = runText(scripted + QStringList{s("--world"), approximate, s("--world"), faithful});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY2(r.err.contains(s("note: skipping ") + approximate), qPrintable(r.err));
    const QJsonObject skipped = QJsonDocument::fromJson(r.out.toUtf8()).object();
    const TextRun alone = runText(scripted + QStringList{s("--world"), faithful});
    QVERIFY2(alone.exitCode == 0, qPrintable(alone.err));
    QVERIFY(!alone.err.contains(s("note: skipping")));
    QCOMPARE(skipped, QJsonDocument::fromJson(alone.out.toUtf8()).object());
    QCOMPARE(skipped.value(s("worlds")).toArray().size(), qsizetype(1));
    QVERIFY(skipped.value(s("value")).isDouble());
    r = runText(scripted + QStringList{s("--world"), approximate, s("--world"), faithful, s("--include-approximate")});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    const QJsonArray both = QJsonDocument::fromJson(r.out.toUtf8()).object().value(s("worlds")).toArray();
    QCOMPARE(both.size(), qsizetype(2));
    QVERIFY(both.at(0).toObject().value(s("approximate")).toBool());
    QVERIFY(!both.at(1).toObject().contains(s("approximate")));

    // Only approximate worlds and no --include-approximate: nothing to replay,
    // on both engines.
    r = runText({s("replay"), s("--world"), approximate, s("--policy"), s("builtin:parallel_refine")});
    QCOMPARE(r.exitCode, 1);
    QVERIFY(r.err.contains(s("--include-approximate")));
    r = runText(scripted + QStringList{s("--world"), approximate});
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains(s("every world given is approximate")), qPrintable(r.err));
}

void TestRunImportCli::projectReplayLeavesApproximateWorldsOut()
{
    QTemporaryDir dir;
    const QString p = dir.filePath(s("p.dreamrsi"));
    QCOMPARE(run(runProjectCommand, {s("new"), p}).rc, 0);
    QCOMPARE(run(runImportCommand, {p, writeOutput(dir, "faithful", false), writeOutput(dir, "forked", true)}).rc, 0);
    const QStringList replay{s("replay"), s("--project"), p, s("--policy"), s("builtin:parallel_refine"), s("--betas"), s("0,1")};
    TextRun r = runText(replay + QStringList{s("--json")});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY2(r.err.contains(s("note: 1 approximate world left out")), qPrintable(r.err));
    // A new project values under imagined completions, 8 of each world (world-major).
    QJsonArray worlds = QJsonDocument::fromJson(r.out.toUtf8()).object().value(s("worlds")).toArray();
    QCOMPARE(worlds.size(), qsizetype(8));
    for (const QJsonValue &w : worlds)
        QVERIFY(!w.toObject().contains(s("approximate")));
    r = runText(replay + QStringList{s("--json"), s("--include-approximate")});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    worlds = QJsonDocument::fromJson(r.out.toUtf8()).object().value(s("worlds")).toArray();
    QCOMPARE(worlds.size(), qsizetype(16));
    int labelled = 0;
    for (const QJsonValue &w : worlds)
        labelled += w.toObject().value(s("approximate")).toBool() ? 1 : 0;
    QCOMPARE(labelled, 8);
}

void TestRunImportCli::benchImport()
{
    const TextRun r = runText({s("bench"), s("import"), s("--programs"), s("300")});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY2(r.out.contains(s("openevolve")) && r.out.contains(s("shinkaevolve")), qPrintable(r.out));
    QVERIFY(r.out.contains(s("299 cells")));
    QCOMPARE(runText({s("bench"), s("import"), s("--programs"), s("0")}).exitCode, 2);
}

QTEST_GUILESS_MAIN(TestRunImportCli)
#include "tst_runimport_cli.moc"
