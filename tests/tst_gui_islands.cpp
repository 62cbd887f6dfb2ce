// An imported run's structure (issue 45 item 3): its genealogy (every
// program under its real parent, at depth = its generation), its islands
// (counts equal to the run's own, migrations counted) and the behaviour grid
// (each bin holds exactly the cells whose metrics fall in it), on fixture
// OpenEvolve and ShinkaEvolve runs (runfixtures.h), headless and in the
// Discovery tab (docs/tree-format.md#the-genealogy-and-islands-of-an-imported-run),
// with the path to a cell highlighted there as on the branches
// (docs/compare.md#the-path-to-the-best).
#include "import/runimport.h"
#include "model/behaviourgrid.h"
#include "model/cellpath.h"
#include "model/runstructure.h"
#include "tree/behaviourgridview.h"
#include "tree/discoverypage.h"
#include "tree/genealogylayout.h"
#include "tree/runstructureview.h"
#include "tree/treeview.h"
#include "runfixtures.h"
#include "textrecorder.h"

#include <QComboBox>
#include <QPainter>
#include <QFontMetricsF>
#include <QJsonObject>
#include <QPaintEngine>
#include <QHash>
#include <QSignalSpy>
#include <QDir>
#include <QScrollBar>
#include <QSlider>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <map>
#include <set>

using namespace dreamrsi;
using namespace dreamrsi::test;

namespace {

QString s(const char *text)
{
    return QString::fromUtf8(text);
}

/// A program of a fixture run as the test knows it, independently of the import.
struct Known
{
    QString id;
    QString parent;   ///< as stored
    int island = 0;
    int generation = 0;
    bool copy = false;
    QString copyOf;   ///< a copy: the program it copies
    double x = 0, y = 0;
};

/// The real parent of `p`: its stored parent, seen through copies; empty
/// when it has none or the parent is missing.
QString realParent(const QHash<QString, Known> &run, const Known &p)
{
    QString at = p.parent;
    while (!at.isEmpty() && run.contains(at) && run.value(at).copy)
        at = run.value(at).copyOf;
    return run.contains(at) ? at : QString();
}

QString programOf(const Cell &c)
{
    return c.payload.value(s("origin")).toObject().value(s("id")).toString();
}

QString initialId(const DiscoveryTree &tree)
{
    return tree.meta().payload.value(s("initial_origin")).toObject().value(s("id")).toString();
}

/// The OpenEvolve fixture: three islands, a fork, a migrant copy with a
/// child, a migration from the initial program, a generation gap, an orphan.
QList<Known> openEvolveRun()
{
    return {
        {s("p0"), {}, 0, 0, false, {}, 0.10, 5.0},
        {s("a1"), s("p0"), 0, 1, false, {}, 0.20, 4.0},
        {s("a2"), s("a1"), 0, 2, false, {}, 0.35, 3.5},
        {s("a3"), s("a1"), 0, 2, false, {}, 0.50, 1.0},   // a fork of a1
        {s("b1"), s("p0"), 1, 1, false, {}, 0.65, 2.0},   // migration 0 -> 1 from the initial program
        {s("m1"), s("a2"), 1, 2, true, s("a2"), 0.35, 3.5}, // a migrant copy of a2 on island 1
        {s("b2"), s("m1"), 1, 3, false, {}, 0.80, 0.5},   // real parent a2: migration 0 -> 1
        {s("c1"), s("b1"), 2, 2, false, {}, 0.95, 4.5},   // migration 1 -> 2
        {s("c2"), s("c1"), 2, 5, false, {}, 1.00, 2.5},   // generations 3 and 4 not kept
        {s("o1"), s("gone"), 2, 4, false, {}, 0.05, 0.0}, // an orphan
    };
}

/// The ShinkaEvolve fixture: an island copy with a child, migrations to two islands.
QList<Known> shinkaRun()
{
    return {
        {s("g0"), {}, 0, 0, false, {}, 1, 1},
        {s("g1"), s("g0"), 0, 1, false, {}, 2, 2},
        {s("g2"), s("g1"), 1, 2, false, {}, 3, 1},
        {s("k1"), {}, 2, 1, true, s("g1"), 2, 2}, // an island copy of g1 (parent null)
        {s("g3"), s("k1"), 2, 2, false, {}, 4, 4},
        {s("g4"), s("g3"), 2, 3, false, {}, 5, 3},
    };
}

bool writeOpenEvolve(const QString &folder, const QList<Known> &run)
{
    QList<QJsonObject> programs;
    for (int i = 0; i < int(run.size()); ++i) {
        const Known &k = run.at(i);
        QJsonObject metadata{{s("island"), k.island}};
        if (k.copy)
            metadata.insert(s("migrant"), true);
        const QJsonObject metrics{{s("combined_score"), 0.1 * (i + 1)}, {s("x_feature"), k.x}, {s("y_feature"), k.y}};
        programs.append(oeProgram(k.id, k.parent, i + 1, metrics, metadata, {{s("generation"), k.generation}}));
    }
    return writeOeFolder(folder, programs);
}

bool writeShinka(const QString &path, const QList<Known> &run)
{
    QList<ShinkaRow> rows;
    for (int i = 0; i < int(run.size()); ++i) {
        const Known &k = run.at(i);
        ShinkaRow row(k.id, k.parent, i + 1, true, 0.1 * (i + 1));
        row.island = k.island;
        row.generation = k.generation;
        row.publicMetrics = {{s("x_feature"), k.x}, {s("y_feature"), k.y}};
        if (k.copy)
            row.metadata = {{s("_is_island_copy"), true}, {s("_original_program_id"), k.copyOf}};
        rows.append(row);
    }
    return writeShinkaDb(path, rows);
}

/// A run of `n` programs on four islands as an OpenEvolve db folder: each
/// program's parent an earlier one (a random recursive tree, about e·ln n
/// generations deep, half its programs leaves), one in ten moved to the
/// next island (a migration).
bool writeWideRun(const QString &folder, int n)
{
    QList<QJsonObject> programs;
    QList<int> generation(n), island(n);
    for (int i = 0; i < n; ++i) {
        const int parent = i == 0 ? -1 : int((quint64(i) * 2654435761ull) % 4294967291ull % quint64(i));
        generation[i] = parent < 0 ? 0 : generation.at(parent) + 1;
        island[i] = parent < 0 ? 0 : i % 10 == 0 ? (island.at(parent) + 1) % 4 : island.at(parent);
        programs.append(oeProgram(s("q%1").arg(i), parent < 0 ? QString() : s("q%1").arg(parent), i + 1,
                                  {{s("combined_score"), double((i * 37) % 101) / 100.0}}, {{s("island"), island.at(i)}},
                                  {{s("generation"), generation.at(i)}}));
    }
    return writeOeFolder(folder, programs);
}

} // namespace

class TestGuiIslands : public QObject
{
    Q_OBJECT

private slots:
    void islandCounts_data();
    void islandCounts();
    void genealogy_data() { islandCounts_data(); }
    void genealogy();
    void migrations_data() { islandCounts_data(); }
    void migrations();
    void ourTreesKeepTheirShape();
    void gridBinsHoldTheirCells();
    void gridFillsBySlider();
    void gridBadInput();
    void gridDefaultsAndLabelsReadApart();
    void discoveryTabLayouts();
    void largeRunLaidOutOnWorker();
    void pathHighlightedInGenealogyAndIslands();
    void importedRunsReadableAtFit_data();
    void importedRunsReadableAtFit();

private:
    /// Reads the fixture run of the current data row.
    std::shared_ptr<const DiscoveryTree> readRun(QTemporaryDir &dir, QList<Known> *known);
};

void TestGuiIslands::islandCounts_data()
{
    QTest::addColumn<bool>("shinka");
    QTest::newRow("openevolve") << false;
    QTest::newRow("shinkaevolve") << true;
}

std::shared_ptr<const DiscoveryTree> TestGuiIslands::readRun(QTemporaryDir &dir, QList<Known> *known)
{
    QFETCH(bool, shinka);
    *known = shinka ? shinkaRun() : openEvolveRun();
    const QString path = shinka ? dir.filePath(s("evolution_db.sqlite")) : dir.filePath(s("db"));
    if (!(shinka ? writeShinka(path, *known) : writeOpenEvolve(path, *known)))
        return nullptr;
    Result<RunImport::Imported> r = RunImport::read(path);
    if (!r) {
        qWarning("%s", qPrintable(r.error));
        return nullptr;
    }
    return std::make_shared<const DiscoveryTree>(std::move(r.value->tree));
}

void TestGuiIslands::islandCounts()
{
    QTemporaryDir dir;
    QList<Known> known;
    const auto tree = readRun(dir, &known);
    QVERIFY(tree);
    // The run's own counts: its programs per island, copies being the programs they copy.
    std::map<int, int> expected;
    for (const Known &k : known) {
        if (!k.copy)
            ++expected[k.island];
    }
    const RunStructure structure = RunStructure::of(*tree);
    QVERIFY(structure.isImported());
    QCOMPARE(int(structure.islands().size()), int(expected.size()));
    int total = 0;
    for (const RunStructure::Island &island : structure.islands()) {
        QVERIFY2(expected.count(island.id), qPrintable(s("island %1").arg(island.id)));
        QCOMPARE(island.count, expected.at(island.id));
        total += island.count;
        // Its best is the best ok score among its programs.
        std::optional<double> best = island.hasInitial ? tree->meta().baselineScore : std::nullopt;
        for (const int c : island.cells) {
            const Cell &cell = tree->cells().at(c);
            if (cell.isSuccess() && cell.score && (!best || *cell.score > *best))
                best = cell.score;
        }
        QCOMPARE(island.bestScore, best);
    }
    QCOMPARE(total, tree->cellCount() + 1); // every cell and the initial program
    QCOMPARE(structure.rootIsland(), known.first().island);

    // The islands layout draws one band per island, its header saying the count.
    const auto shared = std::make_shared<const RunStructure>(structure);
    const GenealogyLayout layout(tree, shared, GenealogyLayout::Mode::Islands);
    QCOMPARE(int(layout.bands().size()), int(expected.size()));
    RunStructureView view;
    view.setMode(GenealogyLayout::Mode::Islands);
    view.setTree(tree);
    for (int b = 0; b < int(structure.islands().size()); ++b) {
        const RunStructure::Island &island = structure.islands().at(b);
        QVERIFY2(view.islandTitle(b).contains(s("Island %1 · %2 program").arg(island.id).arg(island.count)),
                 qPrintable(view.islandTitle(b)));
        // Every cell of the island is drawn inside its band.
        for (const int c : island.cells)
            QVERIFY(layout.bands().at(b).rect.contains(layout.cellRect(c)));
    }
    QVERIFY(view.legendLabels().contains(s("Migration: parent on another island")));
}

void TestGuiIslands::genealogy()
{
    QTemporaryDir dir;
    QList<Known> known;
    const auto tree = readRun(dir, &known);
    QVERIFY(tree);
    QHash<QString, Known> run;
    for (const Known &k : known)
        run.insert(k.id, k);
    const auto structure = std::make_shared<const RunStructure>(RunStructure::of(*tree));
    const GenealogyLayout layout(tree, structure, GenealogyLayout::Mode::Genealogy);
    QCOMPARE(initialId(*tree), known.first().id);
    QCOMPARE(layout.rootRect().top(), layout.rowTop(0));
    int forks = 0;
    for (int c = 0; c < tree->cellCount(); ++c) {
        const Cell &cell = tree->cells().at(c);
        const Known &k = run.value(programOf(cell));
        QVERIFY2(!k.id.isEmpty(), qPrintable(cell.id));
        const QString parent = realParent(run, k);
        const int p = structure->parentOf(c);
        if (parent.isEmpty())
            QCOMPARE(p, RunStructure::NoParent);
        else if (parent == known.first().id)
            QCOMPARE(p, RunStructure::Root);
        else
            QCOMPARE(programOf(tree->cells().at(p)), parent);
        forks += cell.payload.contains(s("forked_from")) ? 1 : 0;
        // Depth is the generation, the row drawn at it; under its parent.
        QCOMPARE(structure->depthOf(c), k.generation);
        QCOMPARE(layout.cellRect(c).top(), layout.rowTop(k.generation));
        const QRectF parentBox = layout.parentRect(c);
        if (!parent.isEmpty()) {
            QVERIFY(parentBox.bottom() < layout.cellRect(c).top());
            QCOMPARE(structure->childrenOf(p).count(c), 1);
        }
        // A stored parent that is a copy: the origin names the real one too.
        if (!k.parent.isEmpty() && run.value(k.parent).copy)
            QCOMPARE(cell.payload.value(s("origin")).toObject().value(s("real_parent_id")).toString(), parent);
        else
            QVERIFY(!cell.payload.value(s("origin")).toObject().contains(s("real_parent_id")));
    }
    QCOMPARE(forks, tree->meta().payload.value(s("imported_from")).toObject().value(s("forks")).toInt());
    // No two cells share a box.
    std::set<std::pair<double, double>> boxes;
    for (int c = 0; c < tree->cellCount(); ++c)
        QVERIFY(boxes.insert({layout.cellRect(c).left(), layout.cellRect(c).top()}).second);
    // Lookups find every cell at its box.
    for (int c = 0; c < tree->cellCount(); ++c)
        QCOMPARE(layout.cellAt(layout.cellRect(c).center()), c);
}

void TestGuiIslands::migrations()
{
    QTemporaryDir dir;
    QList<Known> known;
    const auto tree = readRun(dir, &known);
    QVERIFY(tree);
    QHash<QString, Known> run;
    for (const Known &k : known)
        run.insert(k.id, k);
    std::map<std::pair<int, int>, int> expected;
    int total = 0;
    for (const Known &k : known) {
        const QString parent = realParent(run, k);
        if (k.copy || parent.isEmpty() || run.value(parent).island == k.island)
            continue;
        ++expected[{run.value(parent).island, k.island}];
        ++total;
    }
    QVERIFY(total > 0);
    const auto structure = std::make_shared<const RunStructure>(RunStructure::of(*tree));
    QCOMPARE(int(structure->migrations().size()), total);
    for (const auto &[pair, count] : expected)
        QCOMPARE(structure->migrationCount(pair.first, pair.second), count);
    int in = 0, out = 0;
    for (const RunStructure::Island &island : structure->islands()) {
        in += island.migrantsIn;
        out += island.migrantsOut;
    }
    QCOMPARE(in, total);
    QCOMPARE(out, total);
    // The islands layout draws exactly those links across bands.
    const GenealogyLayout layout(tree, structure, GenealogyLayout::Mode::Islands);
    int drawn = 0;
    for (int c = 0; c < tree->cellCount(); ++c)
        drawn += layout.isMigration(c) ? 1 : 0;
    QCOMPARE(drawn, total);
}

void TestGuiIslands::ourTreesKeepTheirShape()
{
    // Our own trees: parents are the attempt before, depth attempt + 1, no islands.
    QList<Cell> cells;
    const int shape[][2] = {{0, 0}, {0, 1}, {1, 0}, {0, 2}, {1, 1}};
    for (int i = 0; i < 5; ++i) {
        Cell c;
        c.branch = shape[i][0];
        c.attempt = shape[i][1];
        c.id = s("b%1a%2").arg(c.branch).arg(c.attempt);
        c.seq = i;
        c.evaluated = true;
        c.failClass = s("ok");
        c.score = 0.1 * i;
        c.payload = QJsonObject{{s("metrics"), QJsonObject{{s("m1"), double(i)}, {s("m2"), double(i % 2)}}}};
        cells.append(c);
    }
    const auto tree = std::make_shared<const DiscoveryTree>(*DiscoveryTree::build({}, cells));
    const RunStructure structure = RunStructure::of(*tree);
    QVERIFY(!structure.isImported());
    for (int c = 0; c < tree->cellCount(); ++c) {
        const Cell &cell = tree->cells().at(c);
        QCOMPARE(structure.parentOf(c), cell.attempt == 0 ? RunStructure::Root : tree->indexOf(cell.branch, cell.attempt - 1));
        QCOMPARE(structure.depthOf(c), cell.attempt + 1);
        QCOMPARE(structure.islandOf(c), RunStructure::NoIsland);
    }
    QCOMPARE(int(structure.islands().size()), 1);
    QCOMPARE(structure.islands().first().count, 5);
    QVERIFY(structure.migrations().isEmpty());
    QCOMPARE(DiscoveryPage::defaultLayout(*tree), DiscoveryPage::Layout::Branches);
    // Their metrics make a grid too.
    QCOMPARE(BehaviourGrid::numericMetrics(*tree), (QStringList{s("m1"), s("m2")}));
    const Result<BehaviourGrid> grid = BehaviourGrid::build(*tree, s("m1"), s("m2"), 5, 2);
    QVERIFY2(grid.ok(), qPrintable(grid.error));
    QCOMPARE(grid.value->filledCount(), 5);
}

void TestGuiIslands::gridBinsHoldTheirCells()
{
    // Cells with metrics spread at random (a fixed seed), some without one.
    QRandomGenerator random(45);
    QList<Cell> cells;
    for (int i = 0; i < 300; ++i) {
        Cell c;
        c.branch = i;
        c.attempt = 0;
        c.id = s("b%1a0").arg(i);
        c.seq = i;
        c.evaluated = true;
        c.failClass = i % 9 == 4 ? s("runtime") : s("ok");
        if (c.failClass == s("ok"))
            c.score = random.generateDouble();
        QJsonObject metrics{{s("speed"), -3.0 + 8.0 * random.generateDouble()}};
        if (i % 17 != 3)
            metrics.insert(s("size"), std::round(random.generateDouble() * 50.0)); // ties at the bins' edges
        if (i == 7)
            metrics.insert(s("speed"), true); // a flag, not a number
        c.payload = QJsonObject{{s("metrics"), metrics}};
        cells.append(c);
    }
    const DiscoveryTree tree = *DiscoveryTree::build({}, cells);
    for (const auto &[xBins, yBins] : {std::pair{10, 10}, std::pair{7, 3}, std::pair{1, 25}}) {
        Result<BehaviourGrid> built = BehaviourGrid::build(tree, s("speed"), s("size"), xBins, yBins);
        QVERIFY2(built.ok(), qPrintable(built.error));
        const BehaviourGrid &grid = *built.value;
        // Recomputed here: the range over cells with both, equal bins, the top edge in the last bin.
        double xLo = INFINITY, xHi = -INFINITY, yLo = INFINITY, yHi = -INFINITY;
        QList<int> placed;
        for (int c = 0; c < tree.cellCount(); ++c) {
            const QJsonObject m = tree.cells().at(c).payload.value(s("metrics")).toObject();
            if (!m.value(s("speed")).isDouble() || !m.value(s("size")).isDouble())
                continue;
            placed.append(c);
            xLo = std::min(xLo, m.value(s("speed")).toDouble());
            xHi = std::max(xHi, m.value(s("speed")).toDouble());
            yLo = std::min(yLo, m.value(s("size")).toDouble());
            yHi = std::max(yHi, m.value(s("size")).toDouble());
        }
        QCOMPARE(grid.placedCount(), int(placed.size()));
        QCOMPARE(grid.missingCount(), tree.cellCount() - int(placed.size()));
        const auto inBin = [](double v, double lo, double hi, int bins, int k) {
            const double a = lo + (hi - lo) * k / bins, b = k + 1 == bins ? hi : lo + (hi - lo) * (k + 1) / bins;
            return v >= a && (v < b || (k + 1 == bins && v <= hi));
        };
        int total = 0;
        for (int i = 0; i < xBins; ++i) {
            for (int j = 0; j < yBins; ++j) {
                QList<int> expected;
                std::optional<double> best;
                for (const int c : std::as_const(placed)) {
                    const QJsonObject m = tree.cells().at(c).payload.value(s("metrics")).toObject();
                    if (inBin(m.value(s("speed")).toDouble(), xLo, xHi, xBins, i)
                        && inBin(m.value(s("size")).toDouble(), yLo, yHi, yBins, j)) {
                        expected.append(c);
                        if (const auto sc = tree.cells().at(c).score; sc && (!best || *sc > *best))
                            best = sc;
                    }
                }
                QCOMPARE(grid.bin(i, j).cells, expected);
                QCOMPARE(grid.bin(i, j).bestScore, best);
                total += int(expected.size());
            }
        }
        QCOMPARE(total, int(placed.size())); // every placed cell in exactly one bin
        // The CSV: one row per bin, its counts and ids.
        const QStringList lines = grid.toCsv(tree).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 1 + xBins * yBins);
        QCOMPARE(lines.first(), s("x_bin,y_bin,x_lo,x_hi,y_lo,y_hi,count,best_score,best_cell,cells"));
        for (int r = 1; r < lines.size(); ++r) {
            const QStringList f = lines.at(r).split(QLatin1Char(','));
            const BehaviourGrid::Bin &b = grid.bin(f.at(0).toInt(), f.at(1).toInt());
            QCOMPARE(f.at(6).toInt(), int(b.cells.size()));
            QCOMPARE(f.at(9).split(QLatin1Char(' '), Qt::SkipEmptyParts).size(), b.cells.size());
        }
    }
}

void TestGuiIslands::gridFillsBySlider()
{
    QTemporaryDir dir;
    const QString db = dir.filePath(s("db"));
    QVERIFY(writeOpenEvolve(db, openEvolveRun()));
    Result<RunImport::Imported> r = RunImport::read(db);
    QVERIFY2(r.ok(), qPrintable(r.error));
    const auto tree = std::make_shared<const DiscoveryTree>(std::move(r.value->tree));
    const RunStructure structure = RunStructure::of(*tree);
    QList<int> generations;
    for (int c = 0; c < tree->cellCount(); ++c)
        generations.append(structure.depthOf(c));
    Result<BehaviourGrid> built = BehaviourGrid::build(*tree, s("x_feature"), s("y_feature"), 4, 4, generations);
    QVERIFY2(built.ok(), qPrintable(built.error));
    BehaviourGrid grid = *built.value;
    QCOMPARE(grid.firstKey(), 1);
    QCOMPARE(grid.lastKey(), 5);
    for (int g = 1; g <= 5; ++g) {
        grid.fill(g);
        const int expected = int(std::count_if(generations.cbegin(), generations.cend(), [g](int d) { return d <= g; }));
        QCOMPARE(grid.filledCount(), expected);
    }

    // In the view: 10 × 10 by default, the slider fills, the table has every bin.
    BehaviourGridView view;
    view.setTree(tree);
    QVERIFY2(view.grid().has_value(), qPrintable(view.problem()));
    QCOMPARE(view.xBinsBox()->value(), 10);
    QCOMPARE(view.yBinsBox()->value(), 10);
    QCOMPARE(view.grid()->filledCount(), tree->cellCount());
    view.orderBox()->setCurrentIndex(view.orderBox()->findData(int(BehaviourGrid::Order::Generation)));
    view.slider()->setValue(2);
    QCOMPARE(view.grid()->filledCount(),
             int(std::count_if(generations.cbegin(), generations.cend(), [](int d) { return d <= 2; })));
    QCOMPARE(view.figureData().rows.size(), 100);
    view.xBinsBox()->setValue(3);
    QCOMPARE(view.figureData().rows.size(), 30);
    QVERIFY(view.binText(0, 0).contains(s("x_feature")));
}

void TestGuiIslands::gridBadInput()
{
    QList<Cell> cells;
    Cell c;
    c.id = s("b0a0");
    c.evaluated = true;
    c.failClass = s("ok");
    c.score = 1;
    c.payload = QJsonObject{{s("metrics"), QJsonObject{{s("only"), 1.0}}}};
    cells.append(c);
    const auto tree = std::make_shared<const DiscoveryTree>(*DiscoveryTree::build({}, cells));
    const Result<BehaviourGrid> missing = BehaviourGrid::build(*tree, s("only"), s("absent"));
    QVERIFY(!missing.ok());
    QVERIFY2(missing.error.contains(s("\"absent\"")), qPrintable(missing.error));
    QVERIFY(!BehaviourGrid::build(*tree, s("only"), s("only"), 0, 10).ok());
    // One value only: every cell in the first bin.
    const Result<BehaviourGrid> one = BehaviourGrid::build(*tree, s("only"), s("only"), 3, 3);
    QVERIFY(one.ok());
    QCOMPARE(one.value->bin(0, 0).cells, QList<int>{0});
    BehaviourGridView view;
    view.setTree(tree);
    QVERIFY(!view.grid());
    QVERIFY2(view.problem().contains(s("one numeric metric (only)")), qPrintable(view.problem()));
}

// The behaviour grid (issue 53): its axes default to metrics that tell
// cells apart (not the score itself, which the colour shows, nor a metric
// every cell shares); a constant metric's axis is labelled once, said so
// (not "100" eleven times); no two labels collide, the colour bar's top
// value and its title included.
void TestGuiIslands::gridDefaultsAndLabelsReadApart()
{
    QList<Cell> cells;
    for (int i = 0; i < 30; ++i) {
        Cell c;
        c.id = QStringLiteral("b%1a0").arg(i);
        c.branch = i;
        c.seq = i;
        c.evaluated = true;
        c.failClass = s("ok");
        c.score = 0.2 + 0.01 * i;
        // Sorted names: combined_score (the score again) and budget (constant) come first.
        c.payload = QJsonObject{{s("metrics"), QJsonObject{{s("budget"), 100.0}, {s("combined_score"), *c.score},
                                                            {s("size"), double(100 + 17 * ((i * 7) % 30))},
                                                            {s("speed"), 0.2 * ((i * 11) % 30)}}}};
        cells.append(c);
    }
    const auto tree = std::make_shared<const DiscoveryTree>(*DiscoveryTree::build({}, cells));
    BehaviourGridView view;
    view.setTree(tree);
    QVERIFY2(view.grid().has_value(), qPrintable(view.problem()));
    QCOMPARE(view.xMetricBox()->currentText(), s("size"));
    QCOMPARE(view.yMetricBox()->currentText(), s("speed"));

    auto labelsOf = [&view] {
        TextRecorder page(QSize(640, 480));
        QPainter painter(&page);
        view.paintFigure(painter, QRectF(0, 0, 640, 480));
        painter.end();
        return page.texts();
    };
    const auto noneCollide = &TextRecorder::firstCollision;
    QList<TextRecorder::Text> texts = labelsOf();
    QVERIFY(std::any_of(texts.cbegin(), texts.cend(), [](const TextRecorder::Text &t) { return t.text == s("best score"); }));
    QString collision = noneCollide(texts);
    QVERIFY2(collision.isEmpty(), qPrintable(collision));

    // A constant metric chosen by hand: one label that says so.
    view.xMetricBox()->setCurrentText(s("budget"));
    QVERIFY(view.grid().has_value());
    texts = labelsOf();
    const auto hundreds = std::count_if(texts.cbegin(), texts.cend(), [](const TextRecorder::Text &t) { return t.text == s("100"); });
    QCOMPARE(hundreds, 0);
    QVERIFY(std::any_of(texts.cbegin(), texts.cend(),
                        [](const TextRecorder::Text &t) { return t.text == s("100 (the same for every cell)"); }));
    collision = noneCollide(texts);
    QVERIFY2(collision.isEmpty(), qPrintable(collision));
}

void TestGuiIslands::discoveryTabLayouts()
{
    QTemporaryDir dir;
    const QString db = dir.filePath(s("db"));
    QVERIFY(writeOpenEvolve(db, openEvolveRun()));
    Result<RunImport::Imported> r = RunImport::read(db);
    QVERIFY2(r.ok(), qPrintable(r.error));
    const auto tree = std::make_shared<const DiscoveryTree>(std::move(r.value->tree));
    DiscoveryPage page;
    page.resize(900, 600);
    page.show();
    page.setTree(s("run"), tree);
    // An imported run opens as its genealogy.
    QCOMPARE(page.layoutShown(), DiscoveryPage::Layout::Genealogy);
    QCOMPARE(page.structureView()->tree(), tree);
    QVERIFY(page.structureView()->isVisible());
    page.structureView()->zoomIn();
    QVERIFY(!page.structureView()->isFitted());
    page.fitToView(); // Fit Tree
    QVERIFY(page.structureView()->isFitted());
    // A click on a cell inspects it as one in the tree view.
    QSignalSpy activated(page.treeView(), &TreeView::cellActivated);
    const int cell = tree->cellCount() - 1;
    const RunStructureView *view = page.structureView();
    const QPointF at = view->toView(view->layout().cellRect(cell).center());
    QTest::mouseClick(page.structureView(), Qt::LeftButton, {}, at.toPoint());
    QCOMPARE(activated.size(), 1);
    QCOMPARE(activated.first().first().toInt(), cell);
    page.selectCell(2);
    QCOMPARE(page.structureView()->selectedCell(), 2);
    // Islands, the grid, and back to the branches.
    page.layoutBox()->setCurrentIndex(page.layoutBox()->findData(int(DiscoveryPage::Layout::Islands)));
    QCOMPARE(page.structureView()->mode(), GenealogyLayout::Mode::Islands);
    QVERIFY(page.figurePainter());
    QVERIFY(page.figureName().contains(s("islands")));
    page.setLayoutShown(DiscoveryPage::Layout::BehaviourGrid);
    QVERIFY(page.gridView()->isVisible());
    QCOMPARE(page.figureData().header.first(), s("x_bin"));
    QCOMPARE(page.figureData().rows.size(), 100);
    page.setLayoutShown(DiscoveryPage::Layout::Branches);
    QVERIFY(page.treeView()->isVisible());
    // Our own tree opens in branches.
    QList<Cell> cells;
    Cell c;
    c.id = s("b0a0");
    c.evaluated = true;
    c.failClass = s("ok");
    c.score = 1;
    cells.append(c);
    page.setLayoutShown(DiscoveryPage::Layout::Genealogy);
    page.setTree(s("ours"), std::make_shared<const DiscoveryTree>(*DiscoveryTree::build({}, cells)));
    QCOMPARE(page.layoutShown(), DiscoveryPage::Layout::Branches);
    QVERIFY(page.treeView()->isVisible());
    // Painting the figures draws something.
    page.setLayoutShown(DiscoveryPage::Layout::Genealogy);
    QImage image(400, 300, QImage::Format_ARGB32);
    image.fill(Qt::white);
    {
        QPainter p(&image);
        page.figurePainter()(p, QRectF(0, 0, 400, 300));
    }
    int inked = 0;
    for (int y = 0; y < image.height(); ++y) {
        for (int x = 0; x < image.width(); ++x)
            inked += image.pixel(x, y) != qRgb(255, 255, 255) ? 1 : 0;
    }
    QVERIFY(inked > 500);
}

void TestGuiIslands::largeRunLaidOutOnWorker()
{
    // A run of DiscoveryPage::PrepareOnWorkerFrom programs or more: its layouts are
    // made on a worker, the views say so meanwhile, then show it whole.
    QTemporaryDir dir;
    const QString db = dir.filePath(s("db"));
    QList<QJsonObject> programs;
    const int n = DiscoveryPage::PrepareOnWorkerFrom + 50;
    for (int i = 0; i < n; ++i) {
        const QString parent = i == 0 ? QString() : s("q%1").arg((i - 1) / 2); // a binary genealogy
        programs.append(oeProgram(s("q%1").arg(i), parent, i + 1,
                                  {{s("combined_score"), (i % 100) / 100.0}, {s("u"), i % 7}, {s("v"), i % 5}},
                                  {{s("island"), i % 3}}, {{s("generation"), int(std::log2(i + 1))}}));
    }
    QVERIFY(writeOeFolder(db, programs));
    Result<RunImport::Imported> r = RunImport::read(db);
    QVERIFY2(r.ok(), qPrintable(r.error));
    const auto tree = std::make_shared<const DiscoveryTree>(std::move(r.value->tree));
    DiscoveryPage page;
    page.resize(900, 600);
    page.show();
    QSignalSpy prepared(&page, &DiscoveryPage::layoutsPrepared);
    page.setTree(s("large"), tree);
    QCOMPARE(page.layoutShown(), DiscoveryPage::Layout::Genealogy);
    QVERIFY(page.preparingOnWorker());
    QVERIFY(prepared.wait(20000));
    QVERIFY(!page.preparingOnWorker());
    QCOMPARE(page.structureView()->tree(), tree);
    QCOMPARE(page.treeView()->tree(), tree);
    QCOMPARE(page.gridView()->tree(), tree);
    // Every program under its real parent, a row per generation.
    const RunStructure &structure = *page.structureView()->structure();
    for (int c = 0; c < tree->cellCount(); ++c) {
        const int i = programOf(tree->cells().at(c)).mid(1).toInt();
        const int p = structure.parentOf(c);
        QCOMPARE(p == RunStructure::Root ? 0 : programOf(tree->cells().at(p)).mid(1).toInt(), (i - 1) / 2);
        QCOMPARE(structure.depthOf(c), int(std::log2(i + 1)));
    }
    page.setLayoutShown(DiscoveryPage::Layout::Islands);
    QCOMPARE(int(page.structureView()->layout().bands().size()), 3);
    page.setLayoutShown(DiscoveryPage::Layout::BehaviourGrid);
    QVERIFY2(page.gridView()->grid().has_value(), qPrintable(page.gridView()->problem()));
    QCOMPARE(page.gridView()->grid()->filledCount(), tree->cellCount());
}

void TestGuiIslands::pathHighlightedInGenealogyAndIslands()
{
    // The inspector's path, given to the Discovery tab, is drawn in the
    // genealogy and the islands: the pixels at its cells' centres change,
    // every other cell away from its line stays as it was.
    QTemporaryDir dir;
    const QString db = dir.filePath(s("db"));
    QVERIFY(writeOpenEvolve(db, openEvolveRun()));
    Result<RunImport::Imported> r = RunImport::read(db);
    QVERIFY2(r.ok(), qPrintable(r.error));
    const auto tree = std::make_shared<const DiscoveryTree>(std::move(r.value->tree));
    int target = -1;
    for (int c = 0; c < tree->cellCount(); ++c)
        target = programOf(tree->cells().at(c)) == s("b2") ? c : target;
    QVERIFY(target >= 0);
    // b2 came from a2 through a migrant copy, a2 from a1, a1 from the initial program.
    QList<int> cells;
    for (const CellPath::Step &step : CellPath::to(*tree, target).steps)
        cells.append(step.cell);
    QStringList programs;
    for (const int c : cells)
        programs.append(programOf(tree->cells().at(c)));
    QCOMPARE(programs, (QStringList{s("a1"), s("a2"), s("b2")}));

    DiscoveryPage page;
    page.resize(900, 600);
    page.show();
    page.setTree(s("run"), tree);
    QCOMPARE(page.layoutShown(), DiscoveryPage::Layout::Genealogy);
    RunStructureView *view = page.structureView();
    view->setLegendVisible(false); // nothing over the cells
    QVERIFY(QTest::qWaitForWindowExposed(&page));

    const auto check = [&](const char *mode) {
        QVERIFY2(view->isFitted(), mode);
        const GenealogyLayout &layout = view->layout();
        const auto centre = [&](const QRectF &r) { return view->toView(r.center()); };
        page.setPath(nullptr, {});
        QVERIFY(view->path().isEmpty());
        const QImage before = view->grab().toImage();
        page.setPath(tree, cells);
        QCOMPARE(view->path(), cells);
        QCOMPARE(page.treeView()->renderer().path(), cells); // the branches keep it too
        const QImage after = view->grab().toImage();
        QCOMPARE(after.size(), before.size());
        // The line as drawn: from the initial program where it is drawn.
        QPolygonF line;
        if (!layout.rootRect().isEmpty())
            line.append(centre(layout.rootRect()));
        for (const int c : cells)
            line.append(centre(layout.cellRect(c)));
        const auto distanceToLine = [&](const QPointF &p) {
            double best = 1e9;
            for (int i = 0; i + 1 < line.size(); ++i) {
                const QPointF a = line.at(i), b = line.at(i + 1), ab = b - a;
                const double len2 = QPointF::dotProduct(ab, ab);
                const double t = len2 > 0 ? std::clamp(QPointF::dotProduct(p - a, ab) / len2, 0.0, 1.0) : 0.0;
                const QPointF d = p - (a + ab * t);
                best = std::min(best, std::hypot(d.x(), d.y()));
            }
            return best;
        };
        int unchanged = 0;
        for (int c = 0; c < tree->cellCount(); ++c) {
            const QPoint at = centre(layout.cellRect(c)).toPoint();
            const bool changed = before.pixel(at) != after.pixel(at);
            if (cells.contains(c)) {
                QVERIFY2(changed, qPrintable(s("%1: path cell %2 not highlighted").arg(s(mode), tree->cells().at(c).id)));
            } else if (distanceToLine(centre(layout.cellRect(c))) > 10) {
                QVERIFY2(!changed, qPrintable(s("%1: cell %2 off the path drawn").arg(s(mode), tree->cells().at(c).id)));
                ++unchanged;
            }
        }
        QVERIFY2(unchanged >= 3, mode);
        // A path of another tree is not drawn.
        const auto other = std::make_shared<const DiscoveryTree>(*tree);
        page.setPath(other, cells);
        QVERIFY(view->path().isEmpty());
        QCOMPARE(view->grab().toImage(), before);
    };
    check("genealogy");
    page.setLayoutShown(DiscoveryPage::Layout::Islands);
    QCOMPARE(view->mode(), GenealogyLayout::Mode::Islands);
    view->fitToView();
    check("islands");
    // A step clicked in the inspector centres its cell in the layout shown,
    // not in the hidden branches.
    QVERIFY(page.treeView()->isFitted());
    page.centerOn(cells.last());
    QVERIFY(!view->isFitted());
    QVERIFY(page.treeView()->isFitted());
}

QTEST_MAIN(TestGuiIslands)
#include "tst_gui_islands.moc"

void TestGuiIslands::importedRunsReadableAtFit_data()
{
    QTest::addColumn<QString>("run");
    QTest::addColumn<int>("mode");
    for (const char *run : {"openevolve", "shinkaevolve", "200", "10000"}) {
        QTest::addRow("%s-genealogy", run) << s(run) << int(GenealogyLayout::Mode::Genealogy);
        QTest::addRow("%s-islands", run) << s(run) << int(GenealogyLayout::Mode::Islands);
    }
}

void TestGuiIslands::importedRunsReadableAtFit()
{
    // At Fit an imported run is drawn at a readable scale (a 200-program run
    // was a thin strip, 10,000 programs a line) and scrolls; its rows say
    // their generation at the left edge, the islands' headers stay at the
    // top at the font's size (they scaled with the zoom), and the legend
    // has its own place beside the tree (Shinka's covered it).
    // docs/tree-format.md#the-genealogy-and-islands-of-an-imported-run
    QFETCH(QString, run);
    QFETCH(int, mode);
    QTemporaryDir dir;
    QString path;
    if (run == s("openevolve")) {
        path = dir.filePath(s("db"));
        QVERIFY(writeOpenEvolve(path, openEvolveRun()));
    } else if (run == s("shinkaevolve")) {
        path = dir.filePath(s("evolution_db.sqlite"));
        QVERIFY(writeShinka(path, shinkaRun()));
    } else {
        path = dir.filePath(s("db"));
        QVERIFY(writeWideRun(path, run.toInt()));
    }
    Result<RunImport::Imported> r = RunImport::read(path);
    QVERIFY2(r.ok(), qPrintable(r.error));
    const auto tree = std::make_shared<const DiscoveryTree>(std::move(r.value->tree));

    RunStructureView view;
    view.resize(900, 600);
    view.setMode(GenealogyLayout::Mode(mode));
    view.setTree(tree);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.fitToView();
    QVERIFY(view.isFitted());
    const GenealogyLayout &layout = view.layout();
    const QRectF viewport = view.sceneViewport();
    const QRectF scene = layout.sceneRect();
    const double cellPx = layout.metrics().cellHeight * view.scale();
    QVERIFY2(cellPx >= RunStructureView::MinFitCellPx - 1e-9, qPrintable(QString::number(cellPx)));
    // The legend beside the tree, never over it: the scene is drawn (and
    // clipped) in the viewport, which the legend stays out of.
    QVERIFY(!view.legendRect().isEmpty());
    QVERIFY2(!view.legendRect().intersects(viewport), qPrintable(s("legend %1, viewport %2").arg(view.legendRect().left()).arg(viewport.right())));
    const QRectF drawn(view.toView(scene.topLeft()), view.toView(scene.bottomRight()));
    QVERIFY(std::abs(drawn.top() - viewport.top()) <= 4); // from the top, under the headers
    const bool small = run == s("openevolve") || run == s("shinkaevolve");
    if (small) {
        // A run that fits whole at a readable scale is shown whole, no scroll bars.
        QVERIFY2(viewport.adjusted(-1, -1, 1, 1).contains(drawn), qPrintable(run));
        QVERIFY(view.horizontalScrollBar()->isHidden() && view.verticalScrollBar()->isHidden());
    } else {
        // Wider than the view at the readable scale: the scroll bar reaches the far end.
        QScrollBar *bar = view.horizontalScrollBar();
        QVERIFY(!bar->isHidden());
        QVERIFY2(bar->maximum() + bar->pageStep() >= drawn.width() - 2, qPrintable(s("%1 + %2 < %3").arg(bar->maximum()).arg(bar->pageStep()).arg(drawn.width())));
        QVERIFY(drawn.left() <= viewport.left() + 4); // from the left edge (Islands) or the initial program (Genealogy)
        bar->setValue(bar->maximum());
        QVERIFY(!view.isFitted());
        QVERIFY2(std::abs(view.toView(scene.bottomRight()).x() - view.sceneViewport().right()) <= 2,
                 qPrintable(QString::number(view.toView(scene.bottomRight()).x())));
        view.fitToView();
    }
    if (!qEnvironmentVariableIsEmpty("DREAMRSI_SCREENSHOT_DIR"))
    {
        const QDir out(qEnvironmentVariable("DREAMRSI_SCREENSHOT_DIR"));
        view.grab().save(out.filePath(s("fit-%1.png").arg(s(QTest::currentDataTag()))));
        QImage figure(640, 380, QImage::Format_ARGB32);
        figure.fill(Qt::white);
        QPainter painter(&figure);
        view.paintFigure(painter, QRectF(0, 0, 640, 380));
        painter.end();
        figure.save(out.filePath(s("figure-%1.png").arg(s(QTest::currentDataTag()))));
    }

    // What the view paints: generation labels beside their rows, island
    // headers above their bands, at the font's size, none over another.
    TextRecorder page(view.size());
    view.render(&page);
    const QList<TextRecorder::Text> texts = page.texts();
    const QFontMetricsF fm(view.font());
    const GenealogyLayout::Metrics &m = layout.metrics();
    QSet<int> labelled;
    for (const TextRecorder::Text &t : texts) {
        if (!t.text.startsWith(s("gen ")))
            continue;
        const int generation = t.text.mid(4).toInt();
        const double rowMiddle = view.toView(QPointF(0, layout.rowTop(generation) + m.cellHeight / 2)).y();
        QVERIFY2(t.rect.top() <= rowMiddle && rowMiddle <= t.rect.bottom(), qPrintable(t.text));
        QVERIFY2(t.rect.right() <= viewport.left() + 1, qPrintable(t.text)); // left of the cells
        labelled.insert(generation);
    }
    QVERIFY2(labelled.contains(0) && labelled.size() >= 2, qPrintable(QString::number(labelled.size())));
    if (GenealogyLayout::Mode(mode) == GenealogyLayout::Mode::Islands) {
        int headers = 0;
        for (const TextRecorder::Text &t : texts) {
            if (!t.text.startsWith(s("Island ")) && !t.text.startsWith(s("migrations:")))
                continue;
            ++headers;
            QVERIFY2(t.rect.height() >= fm.height() - 1, qPrintable(t.text)); // the font's size, not the zoom's
            QVERIFY2(t.rect.bottom() <= viewport.top() + 1, qPrintable(t.text)); // above the cells
        }
        QVERIFY2(headers >= 2, qPrintable(QString::number(headers)));
    }
    const QString collision = TextRecorder::firstCollision(texts);
    QVERIFY2(collision.isEmpty(), qPrintable(collision));
}
