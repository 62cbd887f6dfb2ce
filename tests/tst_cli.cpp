// The headless `dreamrsi` command line: exit codes and messages of validate and export.
#include "clirunsupport.h"
#include "model/treejson.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

using namespace dreamrsi;

namespace {

using Run = dreamrsi::test::TextRun;
using dreamrsi::test::runText;

QString writeFile(const QTemporaryDir &dir, const QString &name, const QByteArray &bytes)
{
    const QString path = dir.filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return {};
    f.write(bytes);
    return path;
}

const QByteArray validTree = R"({"format":"dreamrsi-tree/1","cells":[
  {"id":"b0a1","branch":0,"attempt":1,"seq":2,"score":2.5,"note":"kept"},
  {"id":"b0a0","branch":0,"attempt":0,"seq":0,"score":1.0},
  {"id":"b3a0","branch":3,"attempt":0,"seq":1,"fail_class":"compile","error":"x.cpp:1: error"}]})";

} // namespace

class TestCli : public QObject
{
    Q_OBJECT
private slots:
    void validateSummary();
    void validateReportsEachFile();
    void validateUsage();
    void validateSameInLauncherAndModule();
    void exportCanonical();
    void exportRejectsInvalid();
    void unknownCommand();
    void benchTree();
    void benchLiveTree();
    void benchIslandsKeepsItsRun();
    void drawingCommandsGoToTheRenderer();
    void startsWithoutGuiLibraries();
    void benchCompare();
};

void TestCli::validateSummary()
{
    QTemporaryDir dir;
    const QString path = writeFile(dir, QStringLiteral("ok.json"), validTree);
    const Run r = runText({QStringLiteral("validate"), path});
    QCOMPARE(r.exitCode, 0);
    QVERIFY2(r.out.contains(QStringLiteral("3 cells, 2 branches, max depth 2, best score 2.5")), qPrintable(r.out));
    QVERIFY2(r.out.contains(QStringLiteral("compile=1 ok=2")), qPrintable(r.out));
    QVERIFY(r.err.isEmpty());
}

void TestCli::validateReportsEachFile()
{
    QTemporaryDir dir;
    const QString good = writeFile(dir, QStringLiteral("good.json"), validTree);
    const QString dup = writeFile(dir, QStringLiteral("dup.json"),
                                  R"({"format":"dreamrsi-tree/1","cells":[{"id":"a","branch":0,"attempt":0,"seq":0},
                                     {"id":"a","branch":1,"attempt":0,"seq":1}]})");
    const QString broken = writeFile(dir, QStringLiteral("broken.json"), "{\"format\": \"dreamrsi-tree/1\", \"cells\": [");
    const QString missing = dir.filePath(QStringLiteral("missing.json"));
    const Run r = runText({QStringLiteral("validate"), good, dup, broken, missing});
    QCOMPARE(r.exitCode, 1);
    QVERIFY(r.out.contains(good + QStringLiteral(": ok")));
    QVERIFY2(r.err.contains(dup + QStringLiteral(": cell 1 (id \"a\"): id: repeats the id of cell 0")), qPrintable(r.err));
    QVERIFY2(r.err.contains(broken + QStringLiteral(": not valid JSON")), qPrintable(r.err));
    QVERIFY2(r.err.contains(missing + QStringLiteral(": cannot open")), qPrintable(r.err));
    QCOMPARE(r.err.count(QStringLiteral("error: ")), 3);
}

// The executable validates tree files itself (validatetrees.cpp); with a
// folder among them the module does: the same line for every file, the
// fail classes in the same order (by UTF-16, as a QMap of QString sorts).
void TestCli::validateSameInLauncherAndModule()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QStringList files{
        writeFile(dir, QStringLiteral("a.json"), validTree),
        writeFile(dir, QStringLiteral("classes.json"), R"({"format":"dreamrsi-tree/1","cells":[
          {"id":"c0","branch":0,"attempt":0,"seq":0,"score":-2,"fail_class":"Zeta"},
          {"id":"c1","branch":0,"attempt":1,"seq":1,"score":null,"fail_class":"\u00e9t\u00e9"},
          {"id":"c2","branch":1,"attempt":0,"seq":5,"fail_class":"\uff5a"},
          {"id":"c3","branch":1,"attempt":1,"seq":3,"fail_class":"\ud835\udefc","evaluated":true,"score":-0.5},
          {"id":"c4","branch":7,"attempt":0,"seq":4,"error":"boom","score":0.0},
          {"id":"c5","branch":7,"attempt":1,"seq":2,"evaluated":false}]})"),
        writeFile(dir, QStringLiteral("empty.json"), R"({"format":"dreamrsi-tree/1","cells":[]})"),
        writeFile(dir, QStringLiteral("dup.json"), R"({"format":"dreamrsi-tree/1","cells":[{"id":"a","branch":0,"attempt":0,"seq":0},
                                     {"id":"a","branch":1,"attempt":0,"seq":1}]})"),
        writeFile(dir, QStringLiteral("gap.json"), R"({"format":"dreamrsi-tree/1","cells":[{"id":"a","branch":0,"attempt":1,"seq":0}]})"),
        dir.filePath(QStringLiteral("missing.json")),
    };
    QTemporaryDir other;
    QVERIFY(other.isValid());
    const Run launcher = runText(QStringList{QStringLiteral("validate")} + files);
    const Run module = runText(QStringList{QStringLiteral("validate")} + files + QStringList{other.path()});
    QCOMPARE(launcher.exitCode, 1);
    QCOMPARE(module.exitCode, 1);
    QCOMPARE(launcher.out, module.out);
    QVERIFY2(module.err.startsWith(launcher.err), qPrintable(module.err));
    QVERIFY2(module.err.mid(launcher.err.size()).contains(other.path()), qPrintable(module.err));
    QVERIFY2(launcher.out.contains(QStringLiteral("6 cells, 3 branches, max depth 2, best score 0 (not scorable: S = 0), "
                                                  "fail classes: Zeta=1 agent=2 \u00e9t\u00e9=1 \U0001d6fc=1 \uff5a=1")),
             qPrintable(launcher.out));
    QVERIFY2(launcher.out.contains(QStringLiteral("0 cells, 0 branches, max depth 0, best score none (not scorable: S = 0), "
                                                  "fail classes: none")),
             qPrintable(launcher.out));
}

void TestCli::validateUsage()
{
    const Run r = runText({QStringLiteral("validate")});
    QCOMPARE(r.exitCode, 2);
    QVERIFY(r.err.contains(QStringLiteral("usage: dreamrsi validate")));
}

void TestCli::exportCanonical()
{
    QTemporaryDir dir;
    const QString in = writeFile(dir, QStringLiteral("in.json"), validTree);
    const QString out = dir.filePath(QStringLiteral("out.json"));
    const Run r = runText({QStringLiteral("export"), in, QStringLiteral("-o"), out});
    QCOMPARE(r.exitCode, 0);
    const TreeJson::ParseResult written = TreeJson::readFile(out);
    QVERIFY2(written.ok(), qPrintable(written.error.message));
    QCOMPARE(written.tree->cells().at(0).id, QStringLiteral("b0a0"));
    QCOMPARE(written.tree->cells().at(2).payload.value(QLatin1String("note")).toString(), QStringLiteral("kept"));
    // stdout form gives the same bytes as the file form
    const Run toStdout = runText({QStringLiteral("export"), in});
    QCOMPARE(toStdout.exitCode, 0);
    QFile f(out);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(toStdout.out.toUtf8(), f.readAll());
}

void TestCli::exportRejectsInvalid()
{
    QTemporaryDir dir;
    const QString in = writeFile(dir, QStringLiteral("bad.json"), R"({"format":"dreamrsi-tree/1","cells":[{"id":"a","branch":0,"attempt":1,"seq":0}]})");
    const QString out = dir.filePath(QStringLiteral("out.json"));
    const Run r = runText({QStringLiteral("export"), in, QStringLiteral("-o"), out});
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains(QStringLiteral("attempt")), qPrintable(r.err));
    QVERIFY(!QFile::exists(out)); // nothing written for a rejected file
}

void TestCli::unknownCommand()
{
    const Run r = runText({QStringLiteral("frobnicate")});
    QCOMPARE(r.exitCode, 2);
    QVERIFY(r.err.contains(QStringLiteral("unknown command 'frobnicate'")));
    const Run none = runText({});
    QCOMPARE(none.exitCode, 2);
    QVERIFY(none.err.contains(QStringLiteral("usage: dreamrsi")));
}

void TestCli::benchTree()
{
    const Run r = runText({QStringLiteral("bench"), QStringLiteral("tree"), QStringLiteral("--cells"), QStringLiteral("500")});
    QCOMPARE(r.exitCode, 0);
    QVERIFY2(r.out.contains(QStringLiteral("500 cells")), qPrintable(r.out));
    QVERIFY(r.out.contains(QStringLiteral("cells/s")));
    QVERIFY2(r.out.contains(QStringLiteral("fast path: 1 files, fallback: 0")), qPrintable(r.out));
    QCOMPARE(runText({QStringLiteral("bench"), QStringLiteral("tree"), QStringLiteral("--cells"), QStringLiteral("x")}).exitCode, 2);
}

// The figures themselves are not judged here (benchmarks print, tests do not time).
void TestCli::benchLiveTree()
{
    const Run r = runText({QStringLiteral("bench"), QStringLiteral("livetree"), QStringLiteral("--cells"), QStringLiteral("300"),
                          QStringLiteral("--seconds"), QStringLiteral("0.5")});
    QCOMPARE(r.exitCode, 0);
    QVERIFY2(r.out.contains(QStringLiteral("livetree: 300 cells, then 50 more")), qPrintable(r.out));
    QVERIFY(r.out.contains(QStringLiteral("350 cells shown")));
    QVERIFY(r.out.contains(QStringLiteral("ms per frame (GUI thread CPU)")));
    // The slowest frames name their phases, so that a regression names itself.
    QVERIFY2(r.out.contains(QStringLiteral("phases, mean ms per frame (wall/CPU): model update")), qPrintable(r.out));
    QVERIFY(r.out.contains(QStringLiteral("slowest frames")));
    QVERIFY(r.out.contains(QStringLiteral("paint")));
    QVERIFY(!r.out.contains(QStringLiteral("events not timed"))); // dreamrsi-render times them
    const Run bad = runText({QStringLiteral("bench"), QStringLiteral("livetree"), QStringLiteral("--rate"), QStringLiteral("fast")});
    QCOMPARE(bad.exitCode, 2);
    QVERIFY(bad.err.contains(QStringLiteral("--rate needs a positive number")));
}

// Issue 53: `bench islands --out RUN` keeps the synthetic run as an
// OpenEvolve run folder that opens (here with `dreamrsi export`, which reads
// it as the workbench does) as the bench's own tree.
void TestCli::benchIslandsKeepsItsRun()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString run = dir.filePath(QStringLiteral("islands-run"));
    const Run r = runText({QStringLiteral("bench"), QStringLiteral("islands"), QStringLiteral("--programs"), QStringLiteral("60"),
                           QStringLiteral("--islands"), QStringLiteral("3"), QStringLiteral("--steps"), QStringLiteral("2"),
                           QStringLiteral("--out"), run});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err + r.out));
    QVERIFY2(r.out.contains(QStringLiteral("islands bench: 60 programs on 3 islands")), qPrintable(r.out));
    QVERIFY2(r.out.contains(QStringLiteral("run written to ") + QDir::toNativeSeparators(QFileInfo(run).absoluteFilePath())),
             qPrintable(r.out));
    // The bench's own reading of the run: "…, N cells".
    const QRegularExpressionMatch mapped = QRegularExpression(QStringLiteral(" ms, (\\d+) cells")).match(r.out);
    QVERIFY2(mapped.hasMatch(), qPrintable(r.out));
    const int cells = mapped.captured(1).toInt();
    QCOMPARE(QDir(run + QStringLiteral("/programs")).entryList({QStringLiteral("p*.json")}, QDir::Files).size(), 60);

    const QString tree = dir.filePath(QStringLiteral("islands.json"));
    const Run exported = runText({QStringLiteral("export"), run, QStringLiteral("-o"), tree});
    QVERIFY2(exported.exitCode == 0, qPrintable(exported.err));
    const TreeJson::ParseResult written = TreeJson::readFile(tree);
    QVERIFY2(written.ok(), qPrintable(written.error.message));
    QCOMPARE(written.tree->cellCount(), cells);
    QVERIFY(cells >= 60 - 1); // every program but the initial one is a cell
    QVERIFY(written.tree->bestCellIndex() >= 0);
    QCOMPARE(written.tree->meta().payload.value(QStringLiteral("imported_from")).toObject().value(QStringLiteral("framework")).toString(),
             QStringLiteral("openevolve"));

    // Never written into another run: the folder now holds one.
    const Run again = runText({QStringLiteral("bench"), QStringLiteral("islands"), QStringLiteral("--programs"), QStringLiteral("10"),
                               QStringLiteral("--out"), run});
    QCOMPARE(again.exitCode, 1);
    QVERIFY2(again.err.contains(QStringLiteral("exists and is not an empty folder")), qPrintable(again.err));
    QCOMPARE(QDir(run + QStringLiteral("/programs")).entryList({QStringLiteral("p*.json")}, QDir::Files).size(), 60);
    QCOMPARE(runText({QStringLiteral("bench"), QStringLiteral("islands"), QStringLiteral("--out"), QString()}).exitCode, 2);
}

// `plot` runs in dreamrsi-render, which dreamrsi becomes: same arguments, same
// output; without the renderer beside it, dreamrsi says which file is missing.
void TestCli::drawingCommandsGoToTheRenderer()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString tree = writeFile(dir, QStringLiteral("t.json"), validTree);
    const QString figure = dir.filePath(QStringLiteral("tree.svg"));
    const Run r = runText({QStringLiteral("plot"), QStringLiteral("tree"), QStringLiteral("--world"), tree,
                          QStringLiteral("--out"), figure});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QFile svg(figure);
    QVERIFY(svg.open(QIODevice::ReadOnly));
    QVERIFY(svg.readAll().contains("<svg"));

    // dreamrsi copied alone: its commands' module (../lib/dreamrsi) is
    // missing, and it says where it looked; a built-in replay, which the
    // executable runs itself, still works.
    QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("bin")) && QDir(dir.path()).mkpath(QStringLiteral("lib/dreamrsi")));
    const QString alone = dir.filePath(QStringLiteral("bin/dreamrsi"));
    QVERIFY(QFile::copy(QStringLiteral(DREAMRSI_BIN_DIR "/dreamrsi"), alone));
    const QStringList plot{QStringLiteral("plot"), QStringLiteral("tree"), QStringLiteral("--world"), tree,
                           QStringLiteral("--out"), dir.filePath(QStringLiteral("no.svg"))};
    QProcess p;
    p.start(alone, plot);
    QVERIFY(p.waitForFinished(60000));
    QCOMPARE(p.exitCode(), 1);
    QString err = QString::fromUtf8(p.readAllStandardError());
    QVERIFY2(err.contains(dir.filePath(QStringLiteral("bin/../lib/dreamrsi/dreamrsi-commands.so"))), qPrintable(err));
    p.start(alone, {QStringLiteral("replay"), QStringLiteral("--policy"), QStringLiteral("builtin:portfolio"),
                    QStringLiteral("--world"), tree, QStringLiteral("--json"), QStringLiteral("--no-cache")});
    QVERIFY(p.waitForFinished(60000));
    QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
    QVERIFY(p.readAllStandardOutput().contains("\"policy\": \"builtin:portfolio\""));

    // With the module beside it, the drawing command goes on to
    // dreamrsi-render, which is missing: named too.
    QVERIFY(QFile::copy(QStringLiteral(DREAMRSI_BIN_DIR "/../lib/dreamrsi/dreamrsi-commands.so"),
                        dir.filePath(QStringLiteral("lib/dreamrsi/dreamrsi-commands.so"))));
    p.start(alone, plot);
    QVERIFY(p.waitForFinished(60000));
    QCOMPARE(p.exitCode(), 1);
    err = QString::fromUtf8(p.readAllStandardError());
    QVERIFY2(err.contains(dir.filePath(QStringLiteral("bin/dreamrsi-render"))) && err.contains(QStringLiteral("'plot'")),
             qPrintable(err));
    QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("no.svg"))));

    // The benchmarks are dreamrsi-bench's, beside dreamrsi in a build tree
    // and never installed: without it `bench` says so, and neither the
    // module nor the renderer holds a benchmark.
    p.start(alone, {QStringLiteral("bench"), QStringLiteral("tree"), QStringLiteral("--cells"), QStringLiteral("10")});
    QVERIFY(p.waitForFinished(60000));
    QCOMPARE(p.exitCode(), 1);
    err = QString::fromUtf8(p.readAllStandardError());
    QVERIFY2(err.contains(dir.filePath(QStringLiteral("bin/dreamrsi-bench"))) && err.contains(QStringLiteral("not installed")),
             qPrintable(err));
    for (const char *built : {"/../lib/dreamrsi/dreamrsi-commands.so", "/dreamrsi-render", "/dreamrsi"}) {
        QFile file(QStringLiteral(DREAMRSI_BIN_DIR) + QLatin1String(built));
        QVERIFY2(file.open(QIODevice::ReadOnly), built);
        QVERIFY2(!file.readAll().contains("usage: dreamrsi bench "), built);
    }
}

// The loader's own account of what it opened (glibc's LD_DEBUG): no QtGui,
// Widgets or chart library for a command that draws nothing.
void TestCli::startsWithoutGuiLibraries()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString tree = writeFile(dir, QStringLiteral("t.json"), validTree);
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("LD_DEBUG"), QStringLiteral("files"));
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(DREAMRSI_BIN_DIR "/dreamrsi"), {QStringLiteral("validate"), tree});
    QVERIFY(p.waitForFinished(60000));
    QCOMPARE(p.exitCode(), 0);
    const QString loaded = QString::fromUtf8(p.readAllStandardError());
    QVERIFY2(loaded.contains(QStringLiteral("libQt6Core.so")), "LD_DEBUG=files printed nothing usable");
    for (const char *library : {"libQt6Gui.so", "libQt6Widgets.so", "libQt6Charts.so", "libQCustomPlotQt6.so"})
        QVERIFY2(!loaded.contains(QLatin1String(library)), library);
    // Tree files are validated by the executable itself, without the module;
    // a folder (a run, or not) goes to the module's validate.
    for (const char *library : {"dreamrsi-commands.so", "libQt6Qml.so", "libQt6Network.so", "libsqlite3.so"})
        QVERIFY2(!loaded.contains(QLatin1String(library)), library);
    p.start(QStringLiteral(DREAMRSI_BIN_DIR "/dreamrsi"), {QStringLiteral("validate"), tree, dir.path()});
    QVERIFY(p.waitForFinished(60000));
    QCOMPARE(p.exitCode(), 1);
    const QString folder = QString::fromUtf8(p.readAllStandardError());
    QVERIFY2(folder.contains(QStringLiteral("dreamrsi-commands.so")), "validate of a folder runs in the commands' module");
    // So does a file named as a database (even one that holds a tree) and a
    // file whose bytes begin as SQLite's, whatever its name.
    const QString named = writeFile(dir, QStringLiteral("run.DB"), validTree);
    const QString headed = writeFile(dir, QStringLiteral("run-without-suffix"), QByteArray("SQLite format 3\0junk", 20));
    for (const QString &database : {named, headed}) {
        p.start(QStringLiteral(DREAMRSI_BIN_DIR "/dreamrsi"), {QStringLiteral("validate"), tree, database});
        QVERIFY(p.waitForFinished(60000));
        const QString loadedFor = QString::fromUtf8(p.readAllStandardError());
        QVERIFY2(loadedFor.contains(QStringLiteral("dreamrsi-commands.so")), qPrintable(database));
    }

    // A built-in replay over tree files runs in the executable itself,
    // without the module and the libraries only other commands use; a
    // scripted one loads the module and the script engine.
    const auto librariesOf = [&](const QString &policy) {
        p.start(QStringLiteral(DREAMRSI_BIN_DIR "/dreamrsi"),
                {QStringLiteral("replay"), QStringLiteral("--policy"), policy, QStringLiteral("--world"), tree,
                 QStringLiteral("--no-cache")});
        return p.waitForFinished(60000) && p.exitCode() == 0 ? QString::fromUtf8(p.readAllStandardError()) : QString();
    };
    const QString builtin = librariesOf(QStringLiteral("builtin:portfolio"));
    QVERIFY2(builtin.contains(QStringLiteral("libQt6Core.so")), qPrintable(builtin.right(2000)));
    for (const char *library : {"dreamrsi-commands.so", "libQt6Qml.so", "libQt6Network.so", "libsqlite3.so"})
        QVERIFY2(!builtin.contains(QLatin1String(library)), library);
    const QString script = writeFile(dir, QStringLiteral("first.js"),
                                     "function selectBatch(state) { return [state.legal[0]]; }\n");
    const QString scripted = librariesOf(script);
    QVERIFY2(scripted.contains(QStringLiteral("dreamrsi-commands.so")) && scripted.contains(QStringLiteral("libQt6Qml.so")),
             qPrintable(scripted.right(2000)));
}

// Three worlds, one run: the table's five rows (two scripted policies, the
// built-in policy reading every world and with the world cache filled, the
// parse), each with two times and a ratio (the figures themselves are not
// judged); a missing reference is named.
void TestCli::benchCompare()
{
    const QString reference = QStringLiteral(DREAMRSI_SOURCE_DIR "/tests/replay_reference");
    const Run r = runText({QStringLiteral("bench"), QStringLiteral("compare"), QStringLiteral("--worlds"), QStringLiteral("3"),
                          QStringLiteral("--runs"), QStringLiteral("1"), QStringLiteral("--reference"), reference});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    // Both generators, each with its heading, its fast-path count and four rows.
    QVERIFY2(r.out.startsWith(QStringLiteral("generator synth (")), qPrintable(r.out));
    QVERIFY2(r.out.contains(QStringLiteral("\ngenerator python (")), qPrintable(r.out));
    QVERIFY2(r.out.contains(QStringLiteral("): 3 worlds, ")), qPrintable(r.out));
    // Every file of either generator is read by the fast path, full and compact.
    QCOMPARE(r.out.count(QStringLiteral("fast path: 3 files, fallback: 0; compact reading: 3 files, fallback: 0\n")), 2);
    const QRegularExpression row(
        QStringLiteral(R"(^(scripted \(greedy\.js\)|scripted \(observed_greedy\.js\)|built-in portfolio|)"
                       R"(built-in portfolio, cached|)"
                       R"(parse \(validate vs json\.load\))\s+\d+\.\d{3}s\s+\d+\.\d{3}s\s+\d+\.\dx)"
                       R"((  goal >= (5|40|15)x: (met|MISSED))?$)"),
        QRegularExpression::MultilineOption);
    int rows = 0, goals = 0;
    for (QRegularExpressionMatchIterator it = row.globalMatch(r.out); it.hasNext();) {
        const QRegularExpressionMatch m = it.next();
        ++rows;
        goals += m.captured(2).isEmpty() ? 0 : 1;
    }
    QVERIFY2(rows == 10, qPrintable(r.out));
    QVERIFY2(goals == 8, qPrintable(r.out)); // the cached row has no goal
    QVERIFY2(r.out.endsWith(QStringLiteral("every goal met\n")) || r.out.contains(QStringLiteral(" goal(s) missed\n")),
             qPrintable(r.out));
    const Run one = runText({QStringLiteral("bench"), QStringLiteral("compare"), QStringLiteral("--worlds"), QStringLiteral("2"),
                            QStringLiteral("--runs"), QStringLiteral("1"), QStringLiteral("--reference"), reference,
                            QStringLiteral("--generators"), QStringLiteral("python")});
    QVERIFY2(one.exitCode == 0, qPrintable(one.err));
    QVERIFY2(one.out.startsWith(QStringLiteral("generator python (")) && !one.out.contains(QStringLiteral("generator synth")),
             qPrintable(one.out));
    const Run unknown = runText({QStringLiteral("bench"), QStringLiteral("compare"), QStringLiteral("--generators"),
                                QStringLiteral("synth,perl")});
    QCOMPARE(unknown.exitCode, 2);
    QVERIFY2(unknown.err.contains(QStringLiteral("unknown generator 'perl'")), qPrintable(unknown.err));

    const Run missing = runText({QStringLiteral("bench"), QStringLiteral("compare"), QStringLiteral("--reference"),
                                QStringLiteral("/nonexistent/reference")});
    QCOMPARE(missing.exitCode, 1);
    QVERIFY2(missing.err.contains(QStringLiteral("/nonexistent/reference holds no reference.py")), qPrintable(missing.err));
    QCOMPARE(runText({QStringLiteral("bench"), QStringLiteral("compare"), QStringLiteral("--runs"), QStringLiteral("0")}).exitCode, 2);
}

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
