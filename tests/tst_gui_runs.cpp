// Opening OpenEvolve and ShinkaEvolve runs in the workbench: the open path
// (files, folders, drag and drop), the metric question, the inspector's
// origin and real parent, the drawn forks and orphans, approximate worlds in
// replays. With DREAMRSI_SCREENSHOT_DIR set, grabs the window with a run open.
#include "import/runimport.h"
#include "runfixtures.h"
#include "session/preferences.h"
#include "session/replayjobs.h"
#include "session/sweeprunner.h"
#include "models/workspace.h"
#include "tree/inspectorwidget.h"
#include "tree/treerenderer.h"
#include "tree/treeview.h"
#include "live/roundpanel.h"
#include "models/livetreemodel.h"
#include "window/mainwindow.h"
#include "models/projecttreemodel.h"

#include <QDir>
#include <QDropEvent>
#include <QImage>
#include <QMessageBox>
#include <QMimeData>
#include <QPainter>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTreeView>
#include <QtTest>

using namespace dreamrsi;
using namespace dreamrsi::test;

namespace {

QString s(const char *text)
{
    return QString::fromUtf8(text);
}

/// An OpenEvolve db folder: p1 → p2 → p5, p3 a fork off p1 and p9 one off
/// p2, p4 an orphan (its parent was pruned), p6 the orphan's child.
QString writeRun(const QString &dir)
{
    const QString db = dir + s("/run/db");
    writeOeFolder(db, {
        oeProgram(s("p0"), {}, 1, score(0.40), {{s("island"), 0}}),
        oeProgram(s("p1"), s("p0"), 2, score(0.55), {{s("island"), 0}}, {{s("changes_description"), s("Hexagonal rows")}}),
        oeProgram(s("p2"), s("p1"), 3, score(0.70), {{s("island"), 0}}),
        oeProgram(s("p3"), s("p1"), 4, score(0.62), {{s("island"), 1}}, {{s("changes_description"), s("Jitter the rows")}}),
        oeProgram(s("p4"), s("pruned"), 5, score(0.30), {{s("island"), 2}}),
        oeProgram(s("p5"), s("p2"), 6, {{s("error"), 0.0}, {s("timeout"), true}}, {{s("island"), 0}}),
        oeProgram(s("p6"), s("p4"), 7, score(0.81), {{s("island"), 2}}),
        oeProgram(s("p7"), s("p3"), 8, score(0.66), {{s("island"), 1}}),
        oeProgram(s("p8"), s("p0"), 9, score(0.45), {{s("island"), 3}}),
        oeProgram(s("p9"), s("p2"), 10, score(0.74), {{s("island"), 0}}), // a second child of p2: a fork
    });
    return db;
}

int cellOf(const DiscoveryTree &tree, const QString &programId)
{
    for (int i = 0; i < tree.cellCount(); ++i) {
        if (tree.cells().at(i).payload.value(s("origin")).toObject().value(s("id")).toString() == programId)
            return i;
    }
    return -1;
}

} // namespace

class TestGuiRuns : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void opensOpenEvolveFolder();
    void asksWhichMetricWithoutCombinedScore();
    void opensShinkaDatabaseDropped();
    void rejectsBadRun();
    void inspectorShowsOriginAndRealParent();
    void drawsForksAndOrphans();
    void replaysLeaveApproximateWorldsOutUnlessAsked();
    void screenshot();
};

void TestGuiRuns::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(s("DreamRSI-tests"));
    QCoreApplication::setApplicationName(s("tst_gui_runs"));
    QSettings().clear();
}

void TestGuiRuns::opensOpenEvolveFolder()
{
    QTemporaryDir dir;
    const QString db = writeRun(dir.path());
    MainWindow w;
    QSignalSpy opened(&w, &MainWindow::treeOpened);
    w.setMetricChooser([](const QString &, const QStringList &) -> std::optional<QString> {
        QTest::qFail("a run with combined_score asks nothing", __FILE__, __LINE__);
        return std::nullopt;
    });
    w.roundPanel()->model()->markRunning(s("b0a0")); // a round shown in the Live Round dock
    // The output folder, as the command line or the folder chooser gives it.
    w.openFiles({dir.filePath(s("run"))});
    QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, 10000);
    QCOMPARE(w.roundPanel()->model()->attemptCount(), 0); // cleared: the round is not the run's
    QCOMPARE(w.workspace()->worlds().size(), qsizetype(1));
    const WorldEntry &world = w.workspace()->worlds().first();
    QCOMPARE(world.name, s("run"));
    QCOMPARE(world.tree->cellCount(), 9);
    QVERIFY(world.tree->meta().approximate);
    QCOMPARE(w.currentTree(), world.tree);
    QVERIFY2(w.statusBar()->currentMessage().contains(s("db/")), qPrintable(w.statusBar()->currentMessage()));
    // The project dock says it is approximate.
    const QModelIndex worlds = w.projectModel()->index(0, 0);
    QVERIFY(w.projectModel()->index(0, 0, worlds).data().toString().contains(s("(approximate)")));
    // The db folder itself opens too, named with its parent.
    w.openRun(db);
    QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 2, 10000);
    QCOMPARE(w.workspace()->worlds().constLast().name, s("run-db"));
}

void TestGuiRuns::asksWhichMetricWithoutCombinedScore()
{
    QTemporaryDir dir;
    const QString db = dir.filePath(s("nocombined/db"));
    QVERIFY(writeOeFolder(db, {oeProgram(s("a"), {}, 1, {{s("accuracy"), 0.5}, {s("speed"), 10.0}}),
                               oeProgram(s("b"), s("a"), 2, {{s("accuracy"), 0.75}, {s("speed"), 4.0}, {s("ok"), true}})}));
    MainWindow w;
    QSignalSpy opened(&w, &MainWindow::treeOpened);
    QSignalSpy failed(&w, &MainWindow::openFailed);
    QStringList offered;
    QString asked;
    std::optional<QString> answer = s("speed");
    w.setMetricChooser([&](const QString &run, const QStringList &metrics) -> std::optional<QString> {
        offered = metrics;
        asked = run;
        return answer;
    });
    w.openFiles({db});
    QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, 10000);
    QCOMPARE(asked, db);
    QCOMPARE(offered, (QStringList{s("accuracy"), s("speed")})); // numeric metrics only, no flag
    const auto &tree = w.workspace()->worlds().first().tree;
    QCOMPARE(tree->meta().baselineScore, std::optional<double>(10.0));
    QCOMPARE(tree->cells().first().score, std::optional<double>(4.0));

    // "" is the framework's own score: the mean of the numbers.
    answer = QString();
    w.openFiles({db});
    QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 2, 10000);
    QCOMPARE(w.workspace()->worlds().first().tree->cells().first().score, std::optional<double>(2.375));

    // Cancelled: nothing opens.
    answer = std::nullopt;
    w.workspace()->clearWorlds();
    w.openFiles({db});
    QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 10000);
    QCOMPARE(w.workspace()->worlds().size(), qsizetype(0));
}

void TestGuiRuns::opensShinkaDatabaseDropped()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(s("evolution_db.sqlite"));
    ShinkaRow init(s("i0"), {}, 1.0, true, 1.0);
    ShinkaRow a(s("a1"), s("i0"), 2.0, true, 2.0);
    a.archive = {s("i0")};
    a.topK = {s("i0")};
    QVERIFY(writeShinkaDb(path, {init, a}, true, 1));
    MainWindow w;
    QSignalSpy opened(&w, &MainWindow::treeOpened);
    QMimeData mime;
    mime.setUrls({QUrl::fromLocalFile(path), QUrl::fromLocalFile(writeRun(dir.path()))});
    w.show();
    QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(&w, &enter);
    QVERIFY(enter.isAccepted());
    QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(&w, &drop);
    QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 2, 10000);
    QStringList names;
    for (const WorldEntry &e : w.workspace()->worlds())
        names.append(e.name);
    names.sort();
    QCOMPARE(names, (QStringList{s("evolution_db.sqlite"), s("run-db")}));
}

void TestGuiRuns::rejectsBadRun()
{
    QTemporaryDir dir;
    const QString bad = dir.filePath(s("broken.sqlite"));
    QVERIFY(writeFile(bad, "not a database"));
    const QString cycle = dir.filePath(s("cycle/db"));
    QVERIFY(writeOeFolder(cycle, {oeProgram(s("p0"), {}, 1, score(1)), oeProgram(s("a"), s("b"), 2, score(1)),
                                  oeProgram(s("b"), s("a"), 3, score(1))}));
    MainWindow w;
    QSignalSpy failed(&w, &MainWindow::openFailed);
    w.openFiles({bad, cycle});
    QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 2, 10000);
    QStringList messages{failed.at(0).at(1).toString(), failed.at(1).at(1).toString()};
    messages.sort();
    QVERIFY2(messages.join(s("\n")).contains(bad), qPrintable(messages.join(s("\n"))));
    QVERIFY2(messages.join(s("\n")).contains(s("cycle of parents")), qPrintable(messages.join(s("\n"))));
    QCOMPARE(w.workspace()->worlds().size(), qsizetype(0));
    // Each said in a box with a short title (the window manager cut "Cannot
    // open run — Dream-RSI Workbench"), the run named in its text.
    const QList<QMessageBox *> boxes = w.findChildren<QMessageBox *>();
    QCOMPARE(boxes.size(), 2);
    QStringList texts;
    for (const QMessageBox *box : boxes) {
        QCOMPARE(box->windowTitle(), s("Open Run"));
        texts << box->text();
    }
    texts.sort();
    QVERIFY2(texts.join(s("\n")).contains(QDir::toNativeSeparators(bad)), qPrintable(texts.join(s("\n"))));
    QVERIFY2(texts.join(s("\n")).contains(QDir::toNativeSeparators(cycle)), qPrintable(texts.join(s("\n"))));
}

void TestGuiRuns::inspectorShowsOriginAndRealParent()
{
    QTemporaryDir dir;
    const Result<RunImport::Imported> r = RunImport::read(writeRun(dir.path()));
    QVERIFY(r.ok());
    auto tree = std::make_shared<const DiscoveryTree>(r.value->tree);
    InspectorWidget inspector;
    // A fork: the real parent is p1's cell, and the diff is against its program.
    const int fork = cellOf(*tree, s("p3"));
    inspector.showCell(tree, fork);
    QString fields = inspector.fieldsText();
    QVERIFY2(fields.contains(s("b0a0 (a fork")), qPrintable(fields));
    QVERIFY(fields.contains(s("openevolve program p3")));
    QVERIFY(fields.contains(s("Island")));
    QVERIFY(fields.contains(s("Iteration found")));
    QVERIFY(!fields.contains(s("forked_from")));
    QVERIFY(inspector.diffText().contains(s("--- b0a0")));
    // An orphan: its parent is missing, named by its program id.
    inspector.showCell(tree, cellOf(*tree, s("p4")));
    fields = inspector.fieldsText();
    QVERIFY2(fields.contains(s("missing from the run")) && fields.contains(s("pruned")), qPrintable(fields));
    // Attempt 0 off the root: diffed against the initial program.
    inspector.showCell(tree, cellOf(*tree, s("p1")));
    QVERIFY(inspector.fieldsText().contains(s("root (the initial program)")));
    QVERIFY(inspector.diffText().contains(s("--- initial program")));

    // A Shinka cell: its inspirations.
    const QString path = dir.filePath(s("s.sqlite"));
    ShinkaRow a(s("a1"), s("i0"), 2.0, true, 2.0);
    a.archive = {s("i0")};
    a.topK = {s("zz")};
    QVERIFY(writeShinkaDb(path, {ShinkaRow(s("i0"), {}, 1.0, true, 1.0), a}));
    const Result<RunImport::Imported> shinka = RunImport::read(path);
    QVERIFY(shinka.ok());
    inspector.showCell(std::make_shared<const DiscoveryTree>(shinka.value->tree), 0);
    QVERIFY2(inspector.fieldsText().contains(s("i0, zz")), qPrintable(inspector.fieldsText()));
}

void TestGuiRuns::drawsForksAndOrphans()
{
    QTemporaryDir dir;
    const Result<RunImport::Imported> r = RunImport::read(writeRun(dir.path()));
    QVERIFY(r.ok());
    auto tree = std::make_shared<const DiscoveryTree>(r.value->tree);
    TreeRenderer renderer;
    renderer.setTree(tree);
    QCOMPARE(renderer.forkLinks().size(), qsizetype(2));
    QVERIFY(renderer.forkLinks().contains(std::make_pair(cellOf(*tree, s("p3")), cellOf(*tree, s("p1")))));
    QVERIFY(renderer.forkLinks().contains(std::make_pair(cellOf(*tree, s("p9")), cellOf(*tree, s("p2")))));
    QCOMPARE(renderer.orphans(), QList<int>{cellOf(*tree, s("p4"))});

    // The same cells without the fork and orphan marks: what the marks add shows in the pixels.
    QList<Cell> plain = tree->cells();
    for (Cell &c : plain) {
        c.payload.remove(s("forked_from"));
        c.payload.remove(s("orphan"));
    }
    auto unmarked = std::make_shared<const DiscoveryTree>(*DiscoveryTree::build(tree->meta(), plain));
    TreeRenderer bare;
    bare.setTree(unmarked);
    QVERIFY(bare.forkLinks().isEmpty() && bare.orphans().isEmpty());
    // The legend names both marks with their counts; a faithful tree has neither row.
    const QStringList legend = renderer.legendLabels();
    QVERIFY2(legend.contains(s("Fork, linked to its real parent (2)")), qPrintable(legend.join(s(" | "))));
    QVERIFY2(legend.contains(s("Orphan, parent missing (1)")), qPrintable(legend.join(s(" | "))));
    QCOMPARE(bare.legendLabels().size(), legend.size() - 2);
    const auto draw = [](const TreeRenderer &t) {
        QImage image(QSize(800, 600), QImage::Format_ARGB32_Premultiplied);
        image.fill(Qt::white);
        QPainter p(&image);
        t.paint(p, QRectF(0, 0, 800, 600), 2.0, QPointF(0, 0));
        return image;
    };
    const QImage marked = draw(renderer), without = draw(bare);
    // The fork link runs right of its real parent's cell, at that cell's height.
    const QRectF parent = renderer.layout().cellRect(cellOf(*tree, s("p1")));
    const QRectF child = renderer.layout().cellRect(cellOf(*tree, s("p3")));
    int differing = 0;
    for (int x = int(parent.right() * 2) + 2; x < int(child.center().x() * 2); ++x) {
        for (int y = int(parent.top() * 2); y <= int(parent.bottom() * 2); ++y)
            differing += marked.pixel(x, y) != without.pixel(x, y) ? 1 : 0;
    }
    QVERIFY2(differing > 0, "no fork link drawn");
    // The orphan's mark sits above its cell.
    const QRectF orphan = renderer.layout().cellRect(cellOf(*tree, s("p4")));
    int ring = 0;
    for (int y = int(renderer.layout().busY() * 2); y < int(orphan.top() * 2); ++y) {
        for (int x = int(orphan.left() * 2); x <= int(orphan.right() * 2); ++x)
            ring += marked.pixel(x, y) != without.pixel(x, y) ? 1 : 0;
    }
    QVERIFY2(ring > 0, "no orphan mark drawn");
}

void TestGuiRuns::replaysLeaveApproximateWorldsOutUnlessAsked()
{
    QTemporaryDir dir;
    const Result<RunImport::Imported> approximate = RunImport::read(writeRun(dir.path()));
    const QString faithfulDb = dir.filePath(s("faithful/db"));
    QVERIFY(writeOeFolder(faithfulDb, {oeProgram(s("a"), {}, 1, score(1)), oeProgram(s("b"), s("a"), 2, score(2))}));
    const Result<RunImport::Imported> faithful = RunImport::read(faithfulDb);
    QVERIFY(approximate.ok() && faithful.ok());
    Workspace workspace;
    workspace.addWorld({s("approximate"), s("/a"), 0, std::make_shared<const DiscoveryTree>(approximate.value->tree)});
    workspace.addWorld({s("faithful"), s("/f"), 0, std::make_shared<const DiscoveryTree>(faithful.value->tree)});
    QCOMPARE(AppSettings::load().includeApproximate, false); // the default (settings cleared at the start)
    QList<ReplayWorld> worlds = ReplayJobs::worldsOf(workspace, false);
    QCOMPARE(worlds.size(), qsizetype(1));
    QCOMPARE(worlds.first().name, s("faithful"));
    QCOMPARE(ReplayJobs::worldsOf(workspace, true).size(), qsizetype(2));

    // A sweep from the window: nothing but approximate worlds says why it cannot run...
    Workspace only;
    only.addWorld({s("approximate"), s("/a"), 0, std::make_shared<const DiscoveryTree>(approximate.value->tree)});
    const PolicyVersion builtin = ReplayJobs::builtinVersions().first();
    only.addVersion(builtin);
    SweepRunner runner(&only);
    QSignalSpy failed(&runner, &SweepRunner::failed);
    QSignalSpy finished(&runner, &SweepRunner::finished);
    runner.run({builtin.name});
    QCOMPARE(failed.count(), 1);
    QVERIFY(failed.first().at(1).toString().contains(s("Include approximate worlds")));
    // ... and, asked to include them, replays them with the result labelled.
    AppSettings include = AppSettings::load();
    include.includeApproximate = true;
    include.betas = {0.0, 1.0};
    Preferences preferences(include); // in memory: the stored setting stays as it is
    runner.setPreferences(&preferences);
    runner.setReplayConfig(include.looseReplayConfig());
    runner.run({builtin.name});
    QTRY_COMPARE_WITH_TIMEOUT(finished.count() + failed.count(), 2, 60000);
    QCOMPARE(finished.count(), 1);
    const ReplayResultPtr result = only.result(builtin.name);
    QVERIFY(result);
    QCOMPARE(result->worlds.size(), qsizetype(1));
    QVERIFY(result->worlds.first().approximate);
    QCOMPARE(result->worlds.first().world, s("approximate"));

    // The setting is kept.
    AppSettings settings = AppSettings::load();
    settings.includeApproximate = true;
    settings.save();
    QVERIFY(AppSettings::load().includeApproximate);
    settings.includeApproximate = false;
    settings.save();
}

void TestGuiRuns::screenshot()
{
    const QString out = qEnvironmentVariable("DREAMRSI_SCREENSHOT_DIR");
    if (out.isEmpty())
        QSKIP("set DREAMRSI_SCREENSHOT_DIR to grab the window with a run open");
    QTemporaryDir dir;
    const QString db = writeRun(dir.path());
    MainWindow w;
    w.resize(1600, 1000);
    w.show();
    QSignalSpy opened(&w, &MainWindow::treeOpened);
    w.openFiles({dir.filePath(s("run"))});
    QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, 10000);
    const auto tree = w.currentTree();
    emit w.treeView()->cellActivated(cellOf(*tree, s("p3")));
    w.treeView()->fitToView();
    QTest::qWait(200); // let layout and paint settle before the grab
    QVERIFY(w.grab().save(QDir(out).filePath(s("17-imported-run.png"))));
}

QTEST_MAIN(TestGuiRuns)
#include "tst_gui_runs.moc"
