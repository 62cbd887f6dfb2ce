// The discovery-tree view: layout on small hand-made trees, the style of
// each cell (best mark, glyph per fail class, overlay), painted pixels, and
// the 10,000-cell render benchmark.
#include "model/treejson.h"
#include "tree/colormap.h"
#include "tree/failglyph.h"
#include "tree/treecellstyles.h"
#include "tree/treelayout.h"
#include "tree/treerenderer.h"
#include "tree/treeview.h"

#include <QElapsedTimer>
#include <QFontMetricsF>
#include <QGuiApplication>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPainter>
#include <QThread>
#include <QtTest>

using namespace dreamrsi;

namespace {
// A tree from short text: branches separated by ';', a branch is
// "ID: cell, cell, …" and a cell is a score ("1.5") or a fail class ("runtime").
std::shared_ptr<const DiscoveryTree> treeFrom(const QString &text)
{
    QJsonArray cells;
    int seq = 0;
    const QStringList branches = text.split(QLatin1Char(';'), Qt::SkipEmptyParts);
    for (const QString &b : branches) {
        const int branch = b.section(QLatin1Char(':'), 0, 0).trimmed().toInt();
        const QStringList items = b.section(QLatin1Char(':'), 1).split(QLatin1Char(','), Qt::SkipEmptyParts);
        for (int a = 0; a < items.size(); ++a) {
            QString item = items.at(a).trimmed();
            // "i…": an imagined cell (drawn from the world model).
            const bool imagined = item.startsWith(QLatin1Char('i'));
            if (imagined)
                item = item.mid(1);
            QJsonObject c{{QStringLiteral("id"), QStringLiteral("b%1a%2").arg(branch).arg(a)},
                          {QStringLiteral("branch"), branch},
                          {QStringLiteral("attempt"), a},
                          {QStringLiteral("seq"), seq++},
                          {QStringLiteral("tags"), QJsonArray{QStringLiteral("dir:%1").arg(branch)}}};
            bool isNumber = false;
            const double score = item.toDouble(&isNumber);
            if (isNumber) {
                c.insert(QStringLiteral("score"), score);
            } else {
                c.insert(QStringLiteral("evaluated"), item != QLatin1String("agent"));
                c.insert(QStringLiteral("fail_class"), item);
                c.insert(QStringLiteral("error"), QString(QStringLiteral("failed: ") + item));
            }
            if (imagined)
                c.insert(QStringLiteral("imagined"), true);
            cells.append(c);
        }
    }
    const QJsonObject root{{QStringLiteral("format"), QStringLiteral("dreamrsi-tree/1")}, {QStringLiteral("cells"), cells}};
    auto parsed = TreeJson::parse(QJsonDocument(root).toJson());
    if (!parsed.ok())
        qFatal("bad test tree: %s", qPrintable(parsed.error.message));
    return std::make_shared<const DiscoveryTree>(std::move(*parsed.tree));
}

std::shared_ptr<const DiscoveryTree> bigTree(int branches, int depth)
{
    QJsonArray cells;
    int seq = 0;
    const QStringList fails = FailClass::known();
    for (int b = 0; b < branches; ++b) {
        for (int a = 0; a < depth; ++a) {
            QJsonObject c{{QStringLiteral("id"), QStringLiteral("b%1a%2").arg(b).arg(a)},
                          {QStringLiteral("branch"), b},
                          {QStringLiteral("attempt"), a},
                          {QStringLiteral("seq"), seq++}};
            if ((b * 7 + a * 13) % 9 == 0)
                c.insert(QStringLiteral("fail_class"), fails.at((a + b) % fails.size()));
            else
                c.insert(QStringLiteral("score"), 1.0 + std::sin(b * 0.37) + a * 0.01);
            cells.append(c);
        }
    }
    const QJsonObject root{{QStringLiteral("format"), QStringLiteral("dreamrsi-tree/1")}, {QStringLiteral("cells"), cells}};
    auto parsed = TreeJson::parse(QJsonDocument(root).toJson());
    return std::make_shared<const DiscoveryTree>(std::move(*parsed.tree));
}
} // namespace

class TestTreeView : public QObject
{
    Q_OBJECT
private slots:
    void viridisControlPoints()
    {
        QCOMPARE(Colormap::viridis(0.0), QColor(0x44, 0x01, 0x54));
        QCOMPARE(Colormap::viridis(0.5), QColor(0x21, 0x91, 0x8c));
        QCOMPARE(Colormap::viridis(1.0), QColor(0xfd, 0xe7, 0x25));
        QCOMPARE(Colormap::viridis(-3.0), Colormap::viridis(0.0));
        QCOMPARE(Colormap::viridis(std::nan("")), Colormap::viridis(0.0));
        // Perceptual ordering: luminance increases monotonically.
        double previous = -1;
        for (const QColor &c : Colormap::viridisTable(64)) {
            const double luma = 0.2126 * c.redF() + 0.7152 * c.greenF() + 0.0722 * c.blueF();
            QVERIFY(luma > previous);
            previous = luma;
        }
    }

    // A live round derives the cells' styles on the worker that builds its
    // tree; the renderer then shows exactly what it derives itself.
    void stylesDerivedOnAWorkerMatch()
    {
        const auto tree = bigTree(40, 12);
        TreeRenderer here;
        here.setTree(tree);
        TreeCellStyles styles;
        QThread *worker = QThread::create([&] { styles = TreeCellStyles::of(*tree); });
        worker->start();
        QVERIFY(worker->wait(60000));
        delete worker;
        QCOMPARE(styles.fills.size(), qsizetype(tree->cellCount()));
        TreeRenderer there;
        there.setTree(tree, std::move(styles));
        QCOMPARE(there.scoreMin(), here.scoreMin());
        QCOMPARE(there.scoreMax(), here.scoreMax());
        int failed = 0;
        for (int i = 0; i < tree->cellCount(); ++i) {
            const CellStyle a = here.styleOf(i);
            const CellStyle b = there.styleOf(i);
            QCOMPARE(b.fill, a.fill);
            QCOMPARE(b.glyph, a.glyph);
            QCOMPARE(b.best, a.best);
            failed += a.glyph != FailGlyph::None ? 1 : 0;
        }
        QVERIFY(failed > 0); // the tree has failures, so glyphs were compared
        // Without a tree, styles handed in are dropped.
        TreeRenderer none;
        none.setTree(nullptr, TreeCellStyles::of(*tree));
        QCOMPARE(none.styleOf(0).glyph, FailGlyph::None);
        QCOMPARE(none.imaginedCount(), 0);
    }

    // The colour scale's ticks read apart however close the scores are:
    // as many decimals as it takes (scores of sums and differences that
    // part in the fourth decimal), and no more than a plain 0–1 scale needs.
    void colourScaleTellsCloseScoresApart()
    {
        auto check = [](const QList<double> &values, const QStringList &labels) {
            QCOMPARE(labels.size(), values.size());
            QCOMPARE(QSet<QString>(labels.cbegin(), labels.cend()).size(), labels.size());
            const double step = std::abs(values.at(1) - values.at(0));
            for (qsizetype i = 0; i < values.size(); ++i)
                QVERIFY2(std::abs(labels.at(i).toDouble() - values.at(i)) <= step / 20, qPrintable(labels.at(i)));
        };
        const auto tree = treeFrom(QStringLiteral("0: 1.03583, 1.03601; 1: 1.03636, 1.0361; 2: 1.03590"));
        TreeRenderer r;
        r.setTree(tree);
        QCOMPARE(r.scoreMin(), 1.03583);
        QCOMPARE(r.scoreMax(), 1.03636);
        const QStringList labels = r.scaleTickLabels(4);
        check(r.scaleTickValues(4), labels);
        QCOMPARE(labels.first(), QStringLiteral("1.03583"));
        QCOMPARE(labels.last(), QStringLiteral("1.03636"));
        check(r.scaleTickValues(2), r.scaleTickLabels(2));
        // The legend is wide enough for its longest tick label.
        const QFontMetricsF fm(QGuiApplication::font());
        double widest = 0;
        for (const QString &label : labels)
            widest = std::max(widest, fm.horizontalAdvance(label));
        QVERIFY(r.legendSize(fm).width() >= widest + 14);

        // A plain scale keeps short labels; far-off magnitudes use significant digits.
        QCOMPARE(Colormap::tickLabels({0.0, 0.25, 0.5, 0.75, 1.0}),
                 (QStringList{QStringLiteral("0.00"), QStringLiteral("0.25"), QStringLiteral("0.50"), QStringLiteral("0.75"), QStringLiteral("1.00")}));
        QCOMPARE(Colormap::tickLabels({10.0, 20.0, 30.0}), (QStringList{QStringLiteral("10"), QStringLiteral("20"), QStringLiteral("30")}));
        const QList<double> tiny{2.0e-7, 2.5e-7, 3.0e-7};
        check(tiny, Colormap::tickLabels(tiny));
        const QList<double> huge{1.23456e9, 1.23457e9, 1.23458e9};
        check(huge, Colormap::tickLabels(huge));
        const QList<double> negative{-1.03636, -1.0361, -1.03583};
        check(negative, Colormap::tickLabels(negative));
        // Every score equal: the value once, at the top, not once per tick (issue 46: "100" five times).
        QCOMPARE(Colormap::tickLabels({2.5, 2.5}), (QStringList{QString(), QStringLiteral("2.5")}));
        {
            TreeRenderer equal;
            equal.setTree(treeFrom(QStringLiteral("0: 100, 100; 1: 100")));
            QCOMPARE(equal.scaleTickLabels(4), (QStringList{QString(), QString(), QString(), QString(), QStringLiteral("100")}));
        }
    }

    void layoutPositions()
    {
        // Branch ids need not be contiguous: columns follow ascending id.
        const auto tree = treeFrom(QStringLiteral("0: 1, 2, 3; 5: 0.5; 2: runtime, 4"));
        TreeLayout::Metrics m;
        const TreeLayout layout(tree, m);
        QCOMPARE(layout.columnCount(), 3);
        QCOMPARE(layout.rowCount(), 3);
        const auto rect = [&](const char *id) { return layout.cellRect(tree->indexOfId(QLatin1String(id))); };
        // Same column for a branch, rows by attempt, fixed pitch.
        QCOMPARE(rect("b0a0").x(), rect("b0a2").x());
        QCOMPARE(rect("b0a1").y() - rect("b0a0").y(), m.cellHeight + m.rowGap);
        QCOMPARE(rect("b2a0").x() - rect("b0a0").x(), m.cellWidth + m.columnGap);
        QCOMPARE(rect("b5a0").x() - rect("b2a0").x(), m.cellWidth + m.columnGap);
        QCOMPARE(rect("b5a0").y(), rect("b0a0").y());
        QCOMPARE(rect("b0a0").size(), QSizeF(m.cellWidth, m.cellHeight));
        // The root sits above every cell, centred.
        QVERIFY(layout.rootRect().bottom() < rect("b0a0").top());
        QCOMPARE(layout.rootRect().center().x(), layout.sceneRect().center().x());
        QVERIFY(layout.sceneRect().contains(rect("b0a2")));
        // Hit testing and visible-cell queries.
        QCOMPARE(layout.cellAt(rect("b2a1").center()), tree->indexOfId(QStringLiteral("b2a1")));
        QCOMPARE(layout.cellAt(rect("b2a1").topLeft() - QPointF(1, 1)), -1);
        QCOMPARE(layout.cellsIn(layout.sceneRect()).size(), tree->cellCount());
        const QList<int> firstColumn = layout.cellsIn(QRectF(rect("b0a0").topLeft(), rect("b0a2").bottomRight()));
        QCOMPARE(firstColumn.size(), 3);
        QCOMPARE(layout.cellsIn(QRectF(-100, -100, 10, 10)).size(), 0);
        QCOMPARE(layout.cellRect(99), QRectF());
    }

    void bestCellAndGlyphs()
    {
        const auto tree = treeFrom(QStringLiteral(
            "0: 1, compile, runtime; 1: timeout, correctness, resource; 2: env, agent, 7; 3: weird, 2"));
        TreeRenderer r;
        r.setTree(tree);
        const int best = tree->indexOfId(QStringLiteral("b2a2"));
        QCOMPARE(tree->bestCellIndex(), best);
        for (int i = 0; i < tree->cellCount(); ++i)
            QCOMPARE(r.styleOf(i).best, i == best);
        const auto glyph = [&](const char *id) { return r.styleOf(tree->indexOfId(QLatin1String(id))).glyph; };
        QCOMPARE(glyph("b0a0"), FailGlyph::None);
        QCOMPARE(glyph("b0a1"), FailGlyph::Cross);
        QCOMPARE(glyph("b0a2"), FailGlyph::Bolt);
        QCOMPARE(glyph("b1a0"), FailGlyph::Clock);
        QCOMPARE(glyph("b1a1"), FailGlyph::Slash);
        QCOMPARE(glyph("b1a2"), FailGlyph::Square);
        QCOMPARE(glyph("b2a0"), FailGlyph::Triangle);
        QCOMPARE(glyph("b2a1"), FailGlyph::Ring);
        QCOMPARE(glyph("b3a0"), FailGlyph::Dot);
        // Every known class has its own glyph.
        QSet<int> distinct;
        for (const QString &fc : FailClass::known())
            distinct.insert(int(FailGlyphs::forClass(fc)));
        QCOMPARE(distinct.size(), FailClass::known().size());
        // Colours: the best score is the top of the scale, the worst the bottom, failures grey.
        QCOMPARE(r.styleOf(best).fill, Colormap::viridis(1.0));
        QCOMPARE(r.styleOf(tree->indexOfId(QStringLiteral("b0a0"))).fill, Colormap::viridis(0.0));
        QCOMPARE(r.styleOf(tree->indexOfId(QStringLiteral("b0a1"))).fill, r.palette().noScore);
    }

    void paintsBestMarkAndColours()
    {
        const auto tree = treeFrom(QStringLiteral("0: 1, compile; 1: 3, 2"));
        TreeRenderer r;
        r.setTree(tree);
        QImage image(600, 400, QImage::Format_ARGB32_Premultiplied);
        image.fill(Qt::white);
        QPainter p(&image);
        const auto [scale, offset] = r.fitTransform(QRectF(0, 0, 600, 400));
        r.paint(p, QRectF(0, 0, 600, 400), scale, offset);
        p.end();
        const auto device = [&](int cell) {
            const QRectF c = r.layout().cellRect(cell);
            return QRectF(c.topLeft() * scale + offset, c.size() * scale);
        };
        const int best = tree->indexOfId(QStringLiteral("b1a0"));
        const QRectF b = device(best);
        QCOMPARE(image.pixelColor(b.center().toPoint() + QPoint(0, int(b.height() / 3))), Colormap::viridis(1.0));
        // The best mark is a red frame just outside the cell.
        const QColor frame = image.pixelColor(QPoint(int(b.center().x()), int(b.top()) - 3));
        QVERIFY2(frame.red() > 180 && frame.green() < 90, qPrintable(frame.name()));
        // Other cells have no such frame.
        const QRectF o = device(tree->indexOfId(QStringLiteral("b1a1")));
        const QColor noFrame = image.pixelColor(QPoint(int(o.center().x()), int(o.top()) - 3));
        QVERIFY(!(noFrame.red() > 180 && noFrame.green() < 90));
        // The compile failure is grey with a dark cross through its centre.
        const QRectF f = device(tree->indexOfId(QStringLiteral("b0a1")));
        QVERIFY(image.pixelColor(f.center().toPoint()).lightness() < 100);
        QCOMPARE(image.pixelColor(QPoint(int(f.left()) + 3, int(f.center().y()))), r.palette().noScore);
    }

    // A live round's steering marks go under the steered branch's leaf, and
    // running attempts are drawn where their cells will be (a new branch in
    // an extra column), their time against the limit inside.
    void steeringMarksAndRunningAttempts()
    {
        const auto tree = treeFrom(QStringLiteral("0: 1, 2; 1: 3"));
        TreeRenderer r;
        r.setTree(tree);
        const QRectF plainScene = r.sceneRect();
        r.setBranchMarks({{1, {QStringLiteral("close")}}});
        r.setRunning({RunningAttempt{0, 2, 30.0, 60.0}, RunningAttempt{4, 0, 5.0, 60.0}});
        const QRectF onB0 = r.runningRect(r.running().at(0));
        QCOMPARE(onB0, r.layout().slotRect(0, 2));
        const QRectF fresh = r.runningRect(r.running().at(1));
        QCOMPARE(fresh, r.layout().slotRect(2, 0)); // b4 has no cell yet: the column after b1
        QVERIFY(r.sceneRect().contains(onB0) && r.sceneRect().contains(fresh));
        QVERIFY(r.sceneRect().width() > plainScene.width());
        // Painted: the mark under b1's leaf, and the running cells' half-used fill.
        QImage image(600, 400, QImage::Format_ARGB32_Premultiplied);
        image.fill(Qt::white);
        QPainter p(&image);
        const auto [scale, offset] = r.fitTransform(QRectF(0, 0, 600, 400));
        r.paint(p, QRectF(0, 0, 600, 400), scale, offset);
        p.end();
        const auto device = [&](const QRectF &c) { return QRectF(c.topLeft() * scale + offset, c.size() * scale); };
        const QRectF leaf = device(r.layout().cellRect(tree->indexOfId(QStringLiteral("b1a0"))));
        const QRect below = QRectF(leaf.left(), leaf.bottom() + 2, leaf.width(), leaf.height() * 0.7).toRect();
        int dark = 0;
        for (int y = below.top(); y <= below.bottom(); ++y) {
            for (int x = below.left(); x <= below.right(); ++x)
                dark += image.pixelColor(x, y).lightness() < 128;
        }
        QVERIFY2(dark > 3, "no mark under b1's leaf");
        const QRectF running = device(onB0);
        // The left half (time used) is tinted, the right half is not.
        const QColor used = image.pixelColor(QPoint(int(running.left() + running.width() * 0.2), int(running.top() + 3)));
        const QColor left = image.pixelColor(QPoint(int(running.right() - running.width() * 0.1), int(running.top() + 3)));
        QVERIFY2(used != left, qPrintable(used.name() + QLatin1Char(' ') + left.name()));
        QCOMPARE(TreeRenderer::runningLabel(r.running().at(0)), QStringLiteral("30/60 s"));

        // A fitted view stays fitted (no overview) as marks and running attempts grow the scene.
        TreeView view;
        view.resize(400, 300);
        view.setTree(tree);
        QVERIFY(view.isFitted());
        view.setBranchMarks({{1, {QStringLiteral("close")}}});
        QVERIFY(view.isFitted());
        view.setRunningAttempts({RunningAttempt{4, 0, 5.0, std::nullopt}, RunningAttempt{0, 2, 1.0, std::nullopt}});
        QVERIFY(view.isFitted());
        view.setRunningAttempts({});
        QVERIFY(view.isFitted());
    }

    // The overview (shown when the tree does not fit) goes to the lower left
    // when the legend reaches down to the lower right, as in the short Live
    // Round dock; in a view tall enough it stays in the lower right. A press
    // on the overview jumps there; elsewhere it only starts a drag.
    void overviewLeavesTheLegendVisible()
    {
        const auto tree = bigTree(40, 5);
        for (const int height : {260, 900}) {
            TreeView view;
            view.resize(700, height);
            view.setTree(tree);
            view.show();
            QVERIFY(QTest::qWaitForWindowExposed(&view));
            for (int i = 0; i < 4; ++i)
                view.zoomIn();
            QVERIFY(!view.isFitted());
            const QSizeF legend = view.renderer().legendSize(QFontMetricsF(view.font()));
            const bool legendReachesDown = legend.height() + 10 > height / 2;
            QCOMPARE(legendReachesDown, height == 260);
            const QPoint corner = legendReachesDown ? QPoint(15, height - 15) : QPoint(700 - 15, height - 15);
            const QPointF before = view.offset();
            QTest::mousePress(&view, Qt::LeftButton, {}, corner);
            QVERIFY2(view.offset() != before, qPrintable(QStringLiteral("no overview at %1,%2").arg(corner.x()).arg(corner.y())));
            QTest::mouseRelease(&view, Qt::LeftButton, {}, corner);
            if (legendReachesDown) { // the lower right is the legend's: a press there does not jump
                const QPointF at = view.offset();
                QTest::mousePress(&view, Qt::LeftButton, {}, QPoint(700 - 15, height - 15));
                QCOMPARE(view.offset(), at);
                QTest::mouseRelease(&view, Qt::LeftButton, {}, QPoint(700 - 15, height - 15));
            }
        }
    }

    // The ✎ mark under a leaf that is also the best (and selected) cell sits
    // below the frames drawn around it, at any scale, and is painted there.
    void steeringMarkClearsTheBestFrame()
    {
        const auto tree = treeFrom(QStringLiteral("0: 1, 2; 1: 3"));
        const int best = tree->indexOfId(QStringLiteral("b1a0"));
        QCOMPARE(tree->bestCellIndex(), best);
        TreeRenderer r;
        r.setTree(tree);
        r.setSelected(best);
        r.setBranchMarks({{1, {QStringLiteral("hint")}}});
        QVERIFY(r.steeringMarkRect(7, 1.0, {}).isEmpty()); // no such branch
        for (const QSize size : {QSize(600, 400), QSize(160, 110), QSize(1600, 1200)}) {
            const auto [scale, offset] = r.fitTransform(QRectF(QPointF(0, 0), size));
            const QRectF c = r.layout().cellRect(best);
            const QRectF cell(c.topLeft() * scale + offset, c.size() * scale);
            // The best frame reaches 2.25 widths out, the selection's 3.
            const double w = std::clamp(std::min(cell.width(), cell.height()) / 7.0, 1.5, 3.0);
            QCOMPARE(r.frameReach(scale), 3.0 * w);
            const QRectF mark = r.steeringMarkRect(1, scale, offset);
            QVERIFY2(mark.top() > cell.bottom() + 3.0 * w, qPrintable(QStringLiteral("%1 vs %2").arg(mark.top()).arg(cell.bottom())));
            QVERIFY(r.sceneRect().bottom() * scale + offset.y() >= mark.top());
        }
        // Painted at 600 x 400: the red best frame, then below it dark pixels of the mark.
        QImage image(600, 400, QImage::Format_ARGB32_Premultiplied);
        image.fill(Qt::white);
        QPainter p(&image);
        const auto [scale, offset] = r.fitTransform(QRectF(0, 0, 600, 400));
        r.paint(p, QRectF(0, 0, 600, 400), scale, offset);
        p.end();
        const QRect mark = r.steeringMarkRect(1, scale, offset).toAlignedRect();
        int dark = 0, red = 0;
        for (int y = mark.top(); y <= mark.bottom(); ++y) {
            for (int x = mark.left(); x <= mark.right(); ++x) {
                const QColor px = image.pixelColor(x, y);
                dark += px.lightness() < 128 && px.red() < 150;
                red += px.red() > 180 && px.green() < 90;
            }
        }
        QVERIFY2(dark > 3, "no mark painted under the best leaf");
        QCOMPARE(red, 0); // no frame over the mark
    }

    // Imagined cells around revealed ones: the colour scale and the best-cell
    // mark come from the revealed cells only, the legend counts the revealed
    // per class and the imagined apart, and imagined failures (the model
    // draws no class) are not counted or marked as runtime errors.
    void imaginedCellsApartFromRevealed()
    {
        const auto tree = treeFrom(QStringLiteral("0: 1, 2, i9, iruntime; 1: 3, runtime, i7; 2: iruntime, i0.5"));
        const int revealedBest = tree->indexOfId(QStringLiteral("b1a0"));
        const int imaginedBest = tree->indexOfId(QStringLiteral("b0a2"));
        QCOMPARE(tree->bestCellIndex(), imaginedBest); // the tree's own rule sees every cell
        QCOMPARE(TreeCellStyles::bestRevealedCell(*tree), revealedBest);
        TreeRenderer r;
        r.setTree(tree);
        QCOMPARE(r.imaginedCount(), 5);
        QCOMPARE(r.bestCell(), revealedBest);
        for (int i = 0; i < tree->cellCount(); ++i)
            QCOMPARE(r.styleOf(i).best, i == revealedBest);
        QCOMPARE(r.scoreMin(), 1.0);
        QCOMPARE(r.scoreMax(), 3.0);
        QCOMPARE(r.styleOf(revealedBest).fill, Colormap::viridis(1.0));
        QCOMPARE(r.styleOf(tree->indexOfId(QStringLiteral("b0a1"))).fill, Colormap::viridis(0.5));
        QCOMPARE(r.styleOf(imaginedBest).fill, Colormap::viridis(1.0)); // beyond the scale: its top
        // The revealed runtime error keeps its bolt; imagined failures carry the classless dot.
        QCOMPARE(r.styleOf(tree->indexOfId(QStringLiteral("b1a1"))).glyph, FailGlyph::Bolt);
        QCOMPARE(r.styleOf(tree->indexOfId(QStringLiteral("b0a3"))).glyph, FailGlyph::Dot);
        QCOMPARE(r.styleOf(tree->indexOfId(QStringLiteral("b2a0"))).glyph, FailGlyph::Dot);
        const QStringList legend = r.legendLabels();
        const QString all = legend.join(QStringLiteral(" | "));
        QVERIFY2(legend.contains(QStringLiteral("Imagined (5)")), qPrintable(all));
        QVERIFY2(legend.contains(FailGlyphs::label(QStringLiteral("ok")) + QStringLiteral(" (3)")), qPrintable(all));
        QVERIFY2(legend.contains(FailGlyphs::label(QStringLiteral("runtime")) + QStringLiteral(" (1)")), qPrintable(all));
        QVERIFY2(legend.contains(QStringLiteral("Imagined failure, class not drawn (2)")), qPrintable(all));
        // Without imagined cells nothing changes: the tree's own best, every cell counted.
        const auto plain = treeFrom(QStringLiteral("0: 1, 2; 1: 3, runtime"));
        r.setTree(plain);
        QCOMPARE(r.bestCell(), plain->bestCellIndex());
        QCOMPARE(TreeCellStyles::bestRevealedCell(*plain), plain->bestCellIndex());
        QVERIFY(r.legendLabels().contains(FailGlyphs::label(QStringLiteral("runtime")) + QStringLiteral(" (1)")));
        // A tree of failures only has no best cell.
        r.setTree(treeFrom(QStringLiteral("0: compile, runtime")));
        QCOMPARE(r.bestCell(), -1);
    }

    void overlayDimsAndNumbers()
    {
        const auto tree = treeFrom(QStringLiteral("0: 1, 2, 3; 1: 4, 5"));
        TreeRenderer r;
        r.setTree(tree);
        RevealOverlay o;
        o.revealRound = QList<int>(tree->cellCount(), -1);
        o.revealRound[tree->indexOfId(QStringLiteral("b0a0"))] = 0;
        o.revealRound[tree->indexOfId(QStringLiteral("b1a0"))] = 0;
        o.revealRound[tree->indexOfId(QStringLiteral("b0a1"))] = 1;
        o.roundsShown = 1;
        r.setOverlay(o);
        const auto style = [&](const char *id) { return r.styleOf(tree->indexOfId(QLatin1String(id))); };
        QVERIFY(!style("b0a0").dimmed);
        QCOMPARE(style("b0a0").round, 1);
        QVERIFY(style("b0a0").inLatestBatch);
        QVERIFY(style("b0a1").dimmed); // revealed in round 2, not shown yet
        QVERIFY(style("b0a2").dimmed);
        o.roundsShown = 2;
        r.setOverlay(o);
        QVERIFY(!style("b0a1").dimmed);
        QCOMPARE(style("b0a1").round, 2);
        QVERIFY(style("b0a1").inLatestBatch);
        QVERIFY(!style("b0a0").inLatestBatch);
    }

    // Steering from the drawn live tree asks the view which branch is under
    // the pointer: a cell's, its column's (label included), none elsewhere.
    void branchUnderThePointer()
    {
        const auto tree = treeFrom(QStringLiteral("0: 1, 2, 3; 1: 4, 5; 2: runtime"));
        TreeView view;
        view.resize(800, 600);
        view.setTree(tree);
        const TreeLayout &layout = view.renderer().layout();
        auto device = [&](const QPointF &scene) { return scene * view.scale() + view.offset(); };
        const int cell = tree->indexOfId(QStringLiteral("b1a1"));
        QCOMPARE(view.branchAt(device(layout.cellRect(cell).center())), std::optional<int>(1));
        // The branch label above the bus of column 2 names branch 2.
        const QRectF column = layout.columnRect(2);
        QCOMPARE(view.branchAt(device(QPointF(column.center().x(), column.top() - layout.metrics().headerHeight / 2))),
                 std::optional<int>(2));
        // Between columns and far below the tree: no branch.
        const QRectF first = layout.columnRect(0);
        QCOMPARE(view.branchAt(device(QPointF(first.right() + layout.metrics().columnGap / 2, first.center().y()))), std::nullopt);
        QCOMPARE(view.branchAt(device(QPointF(first.center().x(), layout.sceneRect().bottom() + 50))), std::nullopt);
        TreeView empty;
        QCOMPARE(empty.branchAt(QPointF(10, 10)), std::nullopt);
    }

    // A stalled running attempt (docs/online.md#is-it-alive) is drawn inside
    // a red ring with ⚠ before its time, and the view finds it under the
    // pointer (its branch too, a branch with no cell yet included), so the
    // live panel's menu there offers Kill.
    void stalledAttemptRinged()
    {
        const auto tree = treeFrom(QStringLiteral("0: 1, 2; 1: 3"));
        const RunningAttempt plain{0, 2, 30.0, 60.0};
        const RunningAttempt stalled{4, 0, 75.0, 60.0, true};
        QCOMPARE(TreeRenderer::runningLabel(plain), QStringLiteral("30/60 s"));
        QCOMPARE(TreeRenderer::runningLabel(stalled), QStringLiteral("\u26A0 75/60 s"));

        TreeRenderer r;
        r.setTree(tree);
        r.setRunning({plain, stalled});
        QImage image(600, 400, QImage::Format_ARGB32_Premultiplied);
        image.fill(Qt::white);
        QPainter p(&image);
        const auto [scale, offset] = r.fitTransform(QRectF(0, 0, 600, 400));
        r.paint(p, QRectF(0, 0, 600, 400), scale, offset);
        p.end();
        const auto device = [&](const QRectF &c) { return QRectF(c.topLeft() * scale + offset, c.size() * scale); };
        // Red pixels in a band just outside the slot: around the stalled attempt, not the other.
        const auto redAround = [&](const RunningAttempt &a) {
            const QRectF slot = device(r.runningRect(a));
            const QRect band = slot.adjusted(-8, -8, 8, 8).toRect();
            int red = 0;
            for (int y = band.top(); y <= band.bottom(); ++y) {
                for (int x = band.left(); x <= band.right(); ++x) {
                    if (slot.adjusted(-1, -1, 1, 1).contains(QPointF(x, y)) || !image.rect().contains(x, y))
                        continue;
                    const QColor c = image.pixelColor(x, y);
                    red += c.red() > 180 && c.green() < 100 && c.blue() < 100;
                }
            }
            return red;
        };
        QVERIFY2(redAround(stalled) > 20, qPrintable(QString::number(redAround(stalled))));
        QCOMPARE(redAround(plain), 0);

        TreeView view;
        view.resize(600, 400);
        view.setTree(tree);
        view.setRunningAttempts({plain, stalled});
        const auto at = [&](const RunningAttempt &a) {
            return r.runningRect(a).center() * view.scale() + view.offset();
        };
        const std::optional<RunningAttempt> found = view.runningAttemptAt(at(stalled));
        QVERIFY(found);
        QCOMPARE(found->branch, 4);
        QVERIFY(found->stalled);
        QCOMPARE(view.branchAt(at(stalled)), std::optional<int>(4)); // b4 has no cell yet
        QVERIFY(!view.runningAttemptAt(at(plain))->stalled);
        const int cell = tree->indexOfId(QStringLiteral("b1a0"));
        QVERIFY(!view.runningAttemptAt(view.renderer().layout().cellRect(cell).center() * view.scale() + view.offset()));
    }

    void viewSearchZoomAndClick()
    {
        const auto tree = treeFrom(QStringLiteral("0: 1, 2, 3; 1: 4, 5; 2: runtime"));
        TreeView view;
        view.resize(800, 600);
        view.setTree(tree);
        QVERIFY(view.isFitted());
        QCOMPARE(view.search(QStringLiteral("b1a")), 2);
        QCOMPARE(view.search(QStringLiteral("DIR:2")), 1); // tags, case-insensitive
        QCOMPARE(view.search(QString()), 0);
        const double fitted = view.scale();
        view.zoomIn();
        QVERIFY(view.scale() > fitted);
        view.fitToView();
        QCOMPARE(view.scale(), fitted);
        QSignalSpy activated(&view, &TreeView::cellActivated);
        const int cell = tree->indexOfId(QStringLiteral("b1a1"));
        const QRectF c = view.renderer().layout().cellRect(cell);
        QTest::mouseClick(&view, Qt::LeftButton, {}, (c.center() * view.scale() + view.offset()).toPoint());
        QCOMPARE(activated.count(), 1);
        QCOMPARE(activated.first().first().toInt(), cell);
        QCOMPARE(view.selectedCell(), cell);
        // Clicking empty space inspects nothing.
        QTest::mouseClick(&view, Qt::LeftButton, {}, QPoint(2, 2));
        QCOMPARE(activated.count(), 1);
    }

    void render10000Cells()
    {
        const auto tree = bigTree(100, 100);
        QCOMPARE(tree->cellCount(), 10000);
        TreeRenderer r;
        r.setTree(tree);
        QImage image(1920, 1080, QImage::Format_ARGB32_Premultiplied);
        const auto [scale, offset] = r.fitTransform(QRectF(0, 0, 1920, 1080));
        { // warm-up: font and glyph caches
            QPainter p(&image);
            r.paint(p, QRectF(0, 0, 1920, 1080), scale, offset);
        }
        QElapsedTimer timer;
        int frames = 0;
        timer.start();
        QBENCHMARK {
            image.fill(Qt::white);
            QPainter p(&image);
            r.paint(p, QRectF(0, 0, 1920, 1080), scale, offset);
            ++frames;
        }
        const double ms = double(timer.nsecsElapsed()) / 1e6 / std::max(frames, 1);
        qInfo("render: 10000 cells, 1920x1080, whole tree visible: %.2f ms/frame (%d frames)", ms, frames);
        // Zoomed in (cells 2.5x larger, all detail drawn), the viewport shows part of the tree.
        QElapsedTimer zoomed;
        zoomed.start();
        const int reps = 20;
        for (int i = 0; i < reps; ++i) {
            image.fill(Qt::white);
            QPainter p(&image);
            r.paint(p, QRectF(0, 0, 1920, 1080), 1.0, QPointF(-200, -100));
        }
        qInfo("render: 10000 cells, 1920x1080, zoom 1 (full detail): %.2f ms/frame", double(zoomed.nsecsElapsed()) / 1e6 / reps);
        int painted = 0;
        for (int y = 0; y < image.height(); y += 7) {
            for (int x = 0; x < image.width(); x += 7)
                painted += image.pixelColor(x, y) != QColor(Qt::white);
        }
        QVERIFY(painted > (image.width() / 7) * (image.height() / 7) / 3);
    }
};

QTEST_MAIN(TestTreeView)
#include "tst_gui_treeview.moc"
