// Imagined valuation in the workbench: Show imagined cells on a history world
// of the Discovery view (the completion a dream draws, its imagined cells
// marked in the renderer and painted hatched, not filled; the inspector says
// where a draw came from), the World Model page (the selected world's task's
// model, strata, counts, blind strata, planned probes, export with its data),
// and the valuation with C in Settings' replay configuration.
#include "okcell.h"
#include "figures/figureexport.h"
#include "figures/figuredata.h"
#include "figures/qcp.h"
#include "model/treejson.h"
#include "replay/probes.h"
#include "replay/worldmodel.h"
#include "replayview/imaginedcells.h"
#include "replayview/worldmodelpage.h"
#include "session/imaginedworlds.h"
#include "session/jobtracker.h"
#include "models/workspace.h"
#include "project/valuationworlds.h"
#include "tree/discoverypage.h"
#include "tree/inspectorwidget.h"
#include "tree/treerenderer.h"
#include "tree/treeview.h"
#include "window/mainwindow.h"
#include "window/settingsdialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QJsonArray>
#include <QLabel>
#include <QListWidget>
#include <QPainter>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>

#include <cstring>

using namespace dreamrsi;

namespace {

/// The history worlds of the "directions" test vectors (direction tags, a
/// 10 × 10 grid, unknown task): j = 0, 1, 2.
QList<ReplayWorld> vectorHistory()
{
    const QDir dir(QStringLiteral(DREAMRSI_SOURCE_DIR "/tests/data/imagination/directions/history"));
    QList<ReplayWorld> out;
    for (const QString &name : dir.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name)) {
        TreeJson::ParseResult r = TreeJson::readFile(dir.filePath(name));
        if (!r.ok())
            qFatal("cannot read %s", qPrintable(r.error.message));
        out.append(ReplayWorld{name, std::make_shared<const DiscoveryTree>(std::move(*r.tree))});
    }
    return out;
}

using test::okCell;

/// A world of task `task` (none: no task) on a `grid`: `branches` branches,
/// each `depth` attempts deep (attempts 0 … depth − 1), branch b starting at
/// start + 0.01·b and gaining `gain` per attempt.
std::shared_ptr<const DiscoveryTree> taskWorld(const std::optional<QString> &task, int branches, int depth,
                                               double start, double gain, GridShape grid = GridShape{6, 8},
                                               bool approximate = false)
{
    QList<Cell> cells;
    qint64 seq = 0;
    for (int b = 0; b < branches; ++b) {
        for (int a = 0; a < depth; ++a)
            cells.append(okCell(b, a, start + 0.01 * b + gain * a, seq++));
    }
    TreeMeta meta;
    meta.task = task;
    meta.grid = grid;
    meta.approximate = approximate;
    TreeError error;
    std::optional<DiscoveryTree> t = DiscoveryTree::build(meta, cells, &error);
    if (!t)
        qFatal("test world: %s", qPrintable(error.message));
    return std::make_shared<const DiscoveryTree>(std::move(*t));
}

/// The row of `data` for (quantity, stratum, attempt); empty when none.
QStringList rowOf(const FigureTable &data, const QString &quantity, const QString &stratum, int attempt)
{
    for (const QStringList &row : data.rows) {
        if (row.at(0) == quantity && row.at(1) == stratum && row.at(2) == QString::number(attempt))
            return row;
    }
    return {};
}

bool sameBits(double a, double b)
{
    return std::memcmp(&a, &b, sizeof a) == 0;
}

} // namespace

class TestGuiImagination : public QObject
{
    Q_OBJECT

private slots:
    // The toggle draws completion k of world j exactly as a dream draws it
    // (completeAll's j·C + k), the renderer marks the imagined cells, the
    // inspector says "imagined" and where the draw came from.
    void showImaginedCellsDrawsTheDreamsCompletion()
    {
        const QList<ReplayWorld> history = vectorHistory();
        QCOMPARE(history.size(), 3);
        DiscoveryPage page;
        JobTracker jobs;
        ImaginedCells cells(&page, &jobs);
        page.resize(900, 700);
        page.show();
        page.setTree(QStringLiteral("world 1"), history.at(1).tree);
        cells.setHistory(history, 1, 4);
        QCOMPARE(page.imaginationPlace(), 1);
        QVERIFY(page.imaginedToggle()->isEnabled());
        QCOMPARE(page.completionBox()->maximum(), 3); // k = 0 … C − 1
        QCOMPARE(page.seedBox()->value(), 0);
        QVERIFY(!page.showsImagined());

        QSignalSpy drawn(&page, &DiscoveryPage::imaginedDrawn);
        page.completionBox()->setValue(2);
        page.seedBox()->setValue(7);
        page.imaginedToggle()->setChecked(true);
        QTRY_VERIFY_WITH_TIMEOUT(page.showsImagined(), 30000);
        QVERIFY(drawn.size() >= 1);
        QCOMPARE(drawn.last().first().toString(), QString());
        const std::shared_ptr<const DiscoveryTree> shown = page.shownTree();
        QCOMPARE(page.treeView()->tree(), shown);
        QCOMPARE(shown->cellCount(), Imagination::completedCellCount(*history.at(1).tree));

        // The same cells as the dream's completions (seed 7, C 4, one thread).
        Result<ImaginedHistory> dream = ValuationWorlds::imagine(history, 7, 4, 1);
        QVERIFY2(dream.ok(), qPrintable(dream.error));
        const DiscoveryTree &want = *dream.value->completions.at(1 * 4 + 2).tree;
        QCOMPARE(shown->cellCount(), want.cellCount());
        for (int i = 0; i < want.cellCount(); ++i) {
            const Cell &a = want.cells().at(i);
            const Cell &b = shown->cells().at(i);
            QCOMPARE(b.id, a.id);
            QCOMPARE(b.failClass, a.failClass);
            QCOMPARE(b.score.has_value(), a.score.has_value());
            if (a.score)
                QVERIFY2(sameBits(*a.score, *b.score), qPrintable(a.id));
            QCOMPARE(Imagination::isImagined(b), Imagination::isImagined(a));
        }

        // Every imagined cell is marked in the renderer, no revealed one is.
        const TreeRenderer &renderer = page.treeView()->renderer();
        int imagined = 0, firstImagined = -1, firstRevealed = -1;
        for (int i = 0; i < shown->cellCount(); ++i) {
            const bool is = Imagination::isImagined(shown->cells().at(i));
            QCOMPARE(renderer.styleOf(i).imagined, is);
            imagined += is;
            if (is && firstImagined < 0 && shown->cells().at(i).score)
                firstImagined = i;
            if (!is && firstRevealed < 0)
                firstRevealed = i;
        }
        QCOMPARE(renderer.imaginedCount(), imagined);
        QCOMPARE(imagined, shown->cellCount() - history.at(1).tree->cellCount());
        QVERIFY(firstImagined >= 0 && firstRevealed >= 0);

        // Where the draw came from: the model's stratum, seed, j and k.
        const QString origin = page.imaginedOrigin(firstImagined);
        QVERIFY2(origin.contains(QStringLiteral("seed 7")), qPrintable(origin));
        QVERIFY2(origin.contains(QStringLiteral("j = 1")), qPrintable(origin));
        QVERIFY2(origin.contains(QStringLiteral("k = 2")), qPrintable(origin));
        QVERIFY2(origin.contains(QStringLiteral("stratum")), qPrintable(origin));
        QCOMPARE(page.imaginedOrigin(firstRevealed), QString());
        InspectorWidget inspector;
        inspector.showCell(shown, firstImagined, origin);
        QVERIFY2(inspector.fieldsText().contains(QStringLiteral("imagined")), qPrintable(inspector.fieldsText()));
        QVERIFY(inspector.fieldsText().contains(QStringLiteral("k = 2")));
        inspector.showCell(shown, firstRevealed);
        QVERIFY(!inspector.fieldsText().contains(QStringLiteral("imagined")));

        // The figure's data says which cells were imagined.
        const FigureTable data = page.figureData();
        QCOMPARE(data.header.last(), QStringLiteral("imagined"));
        int marked = 0;
        for (const QStringList &row : data.rows)
            marked += row.last() == QLatin1String("1");
        QCOMPARE(marked, imagined);

        // Off again: the recorded tree.
        page.imaginedToggle()->setChecked(false);
        QVERIFY(!page.showsImagined());
        QCOMPARE(page.treeView()->tree(), history.at(1).tree);
        QCOMPARE(page.treeView()->renderer().imaginedCount(), 0);
    }

    // A world that is not one of the project's history worlds has no toggle.
    void onlyHistoryWorldsCanBeImagined()
    {
        const QList<ReplayWorld> history = vectorHistory();
        DiscoveryPage page;
        ImaginedCells cells(&page, nullptr);
        page.setTree(QStringLiteral("loose file"), history.at(0).tree);
        cells.setHistory(history, -1, 8);
        QVERIFY(!page.imaginedToggle()->isEnabled());
        page.imaginedToggle()->setChecked(true);
        QTest::qWait(50);
        QVERIFY(!page.showsImagined());

        // Ticked on a history world, then another tree that is not one: greyed out and unticked.
        page.setTree(QStringLiteral("world 1"), history.at(1).tree);
        cells.setHistory(history, 1, 8);
        QVERIFY(page.imaginedToggle()->isEnabled());
        page.imaginedToggle()->setChecked(true);
        page.setTree(QStringLiteral("loose file"), history.at(0).tree);
        cells.setHistory(history, -1, 8);
        QVERIFY(!page.imaginedToggle()->isEnabled());
        QVERIFY(!page.imaginedToggle()->isChecked());
        QVERIFY(!page.showsImagined());
        // Back on a history world it is ticked again and drawn: what was asked for outlives the loose file.
        page.setTree(QStringLiteral("world 1"), history.at(1).tree);
        cells.setHistory(history, 1, 8);
        QVERIFY(page.imaginedToggle()->isEnabled());
        QVERIFY(page.imaginedToggle()->isChecked());
        QTRY_VERIFY_WITH_TIMEOUT(page.showsImagined(), 10000);
        // Unticked by hand, it stays off on the next world.
        page.imaginedToggle()->setChecked(false);
        page.setTree(QStringLiteral("world 0"), history.at(0).tree);
        cells.setHistory(history, 0, 8);
        QVERIFY(!page.imaginedToggle()->isChecked());

        // A long status (an error) never widens the page: it is cut, whole in its tooltip.
        page.resize(600, 400);
        const int before = page.minimumSizeHint().width();
        const QString longError = QStringLiteral("a reason ").repeated(60);
        page.showImaginedError(longError);
        QCOMPARE(page.minimumSizeHint().width(), before);
        auto *status = page.findChild<QLabel *>(QStringLiteral("imaginedStatus"));
        QVERIFY(status->toolTip().contains(longError));
    }

    // Imagined cells are painted outlined and hatched over the background,
    // never filled like a revealed cell: a good share of an imagined cell's
    // inside is background, while a revealed cell's inside has none.
    void imaginedCellsAreHatchedNotFilled()
    {
        const QList<ReplayWorld> history = vectorHistory();
        const ImaginedWorlds::Completion c = ImaginedWorlds::draw(history, 0, 0, 0);
        QVERIFY2(c.tree, qPrintable(c.error));
        QVERIFY(c.imagined > 0);
        TreeRenderer renderer;
        renderer.setTree(c.tree);
        renderer.setPalette(TreePalette::light());
        QImage image(2400, 2400, QImage::Format_ARGB32_Premultiplied);
        image.fill(TreePalette::light().background);
        const auto [scale, offset] = renderer.fitTransform(QRectF(0, 0, image.width(), image.height()));
        {
            QPainter p(&image);
            renderer.paint(p, QRectF(0, 0, image.width(), image.height()), scale, offset);
        }
        const QRgb background = TreePalette::light().background.rgb();
        auto backgroundShare = [&](int cell) {
            const QRectF s = renderer.layout().cellRect(cell);
            const QRect r(int(s.left() * scale + offset.x()) + 4, int(s.top() * scale + offset.y()) + 4,
                          int(s.width() * scale) - 8, int(s.height() * scale) - 8);
            int bg = 0, all = 0;
            for (int y = r.top(); y <= r.bottom(); ++y) {
                for (int x = r.left(); x <= r.right(); ++x) {
                    bg += image.pixel(x, y) == background;
                    ++all;
                }
            }
            return all > 0 ? double(bg) / all : 0.0;
        };
        int imaginedChecked = 0, revealedChecked = 0;
        for (int i = 0; i < c.tree->cellCount(); ++i) {
            const Cell &cell = c.tree->cells().at(i);
            if (!cell.score)
                continue;
            if (Imagination::isImagined(cell)) {
                QVERIFY2(backgroundShare(i) > 0.3, qPrintable(cell.id));
                ++imaginedChecked;
            } else {
                QCOMPARE(backgroundShare(i), 0.0);
                ++revealedChecked;
            }
        }
        QVERIFY(imaginedChecked > 0 && revealedChecked > 0);
    }

    // The World Model page: the model a dream fits over the history, per
    // stratum with its counts, the failure rates and the cap; each panel
    // plots, and the figure exports with its data.
    void worldModelPageShowsStrataAndCountsAndExports()
    {
        const QList<ReplayWorld> history = vectorHistory();
        Workspace workspace;
        for (int i = 0; i < history.size(); ++i)
            workspace.addWorld({history.at(i).name, QString(), IterationId(i + 1), history.at(i).tree});
        // A loose tree file is no history world.
        workspace.addWorld({QStringLiteral("loose.json"), QStringLiteral("/tmp/loose.json"), 0, history.at(0).tree});
        WorldModelPage page(&workspace, nullptr);
        page.resize(900, 700);
        page.show();
        QSignalSpy fitted(&page, &WorldModelPage::modelFitted);
        page.refresh();
        QTRY_VERIFY_WITH_TIMEOUT(!fitted.isEmpty() && fitted.last().first().toInt() == 3, 30000);

        const QJsonObject want = WorldModel::fit({history.at(0).tree.get(), history.at(1).tree.get(), history.at(2).tree.get()},
                                                 ImaginationOptions())
                                     .toJson();
        QCOMPARE(page.model(), want);
        const QStringList strata = WorldModelPlot::strata(page.model());
        QVERIFY2(strata.size() > 2, qPrintable(strata.join(QLatin1Char(','))));
        QCOMPARE(strata.first(), QStringLiteral("*"));
        QVERIFY(strata.contains(QStringLiteral("direction:d3")));

        // The table: a first-score row per stratum with its count, gains with
        // theirs, failure rates with trials, the cap.
        const FigureTable data = page.figureData();
        QCOMPARE(page.table()->rowCount(), int(data.rows.size()));
        int firstRows = 0, gainRows = 0, failureRows = 0, capRows = 0;
        for (const QJsonValue &sv : want.value(QStringLiteral("strata")).toArray()) {
            const QJsonObject s = sv.toObject();
            bool found = false;
            for (const QStringList &row : data.rows) {
                if (row.at(0) == QLatin1String("first_score") && row.at(1) == s.value(QStringLiteral("stratum")).toString()) {
                    QCOMPARE(row.at(3).toInt(), s.value(QStringLiteral("first_count")).toInt());
                    found = true;
                }
            }
            QVERIFY(found);
        }
        for (const QStringList &row : data.rows) {
            firstRows += row.at(0) == QLatin1String("first_score");
            gainRows += row.at(0) == QLatin1String("gain");
            failureRows += row.at(0) == QLatin1String("failure_rate");
            capRows += row.at(0) == QLatin1String("cap");
        }
        QCOMPARE(firstRows, int(strata.size()));
        QVERIFY(gainRows > 0);
        QCOMPARE(failureRows, int(want.value(QStringLiteral("failures")).toArray().size()));
        QCOMPARE(capRows, 1);
        // The table shows the counts as the data has them.
        bool sawCount = false;
        for (int r = 0; r < page.table()->rowCount(); ++r)
            sawCount = sawCount || page.table()->item(r, 3)->text() == data.rows.at(r).at(3);
        QVERIFY(sawCount);

        // Each panel draws something.
        for (const WorldModelPlot::Panel p :
             {WorldModelPlot::Panel::FirstScores, WorldModelPlot::Panel::Gains, WorldModelPlot::Panel::Failures}) {
            page.showPanel(p);
            QVERIFY(page.plot()->plottableCount() > 0);
            QVERIFY(page.figureName().contains(WorldModelPlot::title(p)));
        }

        // Exported at a journal size, with its data beside it.
        QTemporaryDir dir;
        FigureExport::Options options;
        options.sizeMm = QSizeF(89, 60);
        options.dpi = 300;
        const QString png = dir.filePath(QStringLiteral("world-model.png"));
        const FigureExport::Painter painter = page.figurePainter();
        QVERIFY(painter);
        const Result<Done> written = FigureExport::write(png, options, painter);
        QVERIFY2(written.ok(), qPrintable(written.error));
        const QImage image(png);
        QCOMPARE(image.size(), FigureExport::pixelSize(options.sizeMm, options.dpi));
        const QString pdf = dir.filePath(QStringLiteral("world-model.pdf"));
        QVERIFY(FigureExport::write(pdf, options, page.figurePainter()).ok());
        QVERIFY(QFileInfo(pdf).size() > 0);
        const QString csv = data.toCsv();
        for (const char *key : {"first_score", "gain", "failure_rate", "cap", "direction:d3"})
            QVERIFY2(csv.contains(QLatin1String(key)), key);

        // No history world: nothing to fit, nothing to export.
        workspace.clearWorlds();
        page.refresh();
        QVERIFY(page.model().isEmpty());
        QVERIFY(!page.figurePainter());
        QVERIFY(page.figureData().isEmpty());
    }

    // A history of two tasks (issue 53): the page shows the model of the
    // selected world's task, fitted over that task's worlds only, lists every
    // task with its world count, and fits over the dreams' history (approximate
    // worlds left out unless Settings include them).
    void worldModelPageShowsTheSelectedWorldsTask()
    {
        const QString alpha = QStringLiteral("alpha"), beta = QStringLiteral("beta");
        const auto a1 = taskWorld(alpha, 4, 3, 2.5, 0.02);
        const auto a2 = taskWorld(alpha, 5, 2, 2.55, 0.01);
        const auto b1 = taskWorld(beta, 3, 3, 0.6, 0.01);
        const auto a3 = taskWorld(alpha, 2, 2, 2.7, 0.01, GridShape{6, 8}, /*approximate=*/true);
        Workspace workspace;
        workspace.addWorld({QStringLiteral("a1"), QString(), 1, a1});
        workspace.addWorld({QStringLiteral("a2"), QString(), 2, a2});
        workspace.addWorld({QStringLiteral("b1"), QString(), 3, b1});
        workspace.addWorld({QStringLiteral("a3 (approximate)"), QString(), 4, a3});
        WorldModelPage page(&workspace, nullptr);
        page.resize(900, 800);
        page.show();
        QSignalSpy fitted(&page, &WorldModelPage::modelFitted);
        page.refresh();
        QTRY_VERIFY_WITH_TIMEOUT(!fitted.isEmpty(), 30000);
        QCOMPARE(page.historyWorlds(), 3); // the approximate world is left out, as the dreams leave it out

        // The task selector lists both tasks with their world counts.
        QComboBox *tasks = page.taskBox();
        QCOMPARE(tasks->count(), 2);
        QVERIFY2(tasks->itemText(0).contains(alpha) && tasks->itemText(0).contains(QLatin1String("2 world")),
                 qPrintable(tasks->itemText(0)));
        QVERIFY2(tasks->itemText(1).contains(beta) && tasks->itemText(1).contains(QLatin1String("1 world")),
                 qPrintable(tasks->itemText(1)));
        // Nothing selected yet: the newest world's task.
        QCOMPARE(page.shownTask()->task, std::optional<QString>(beta));

        const QJsonObject alphaModel = WorldModel::fit({a1.get(), a2.get()}, ImaginationOptions()).toJson();
        const QJsonObject betaModel = WorldModel::fit({b1.get()}, ImaginationOptions()).toJson();
        QVERIFY(alphaModel != betaModel);

        // A world of task alpha selected: alpha's model over its two worlds.
        page.setCurrentWorld(0);
        QCOMPARE(page.shownTask()->task, std::optional<QString>(alpha));
        QCOMPARE(page.shownTask()->worlds, 2);
        QCOMPARE(page.model(), alphaModel);
        QCOMPARE(tasks->currentIndex(), 0);
        QCOMPARE(fitted.last().first().toInt(), 2);
        QVERIFY(page.model().value(QStringLiteral("cap")).toDouble() > 2.5); // alpha's scale, not beta's
        QCOMPARE(rowOf(page.figureData(), QStringLiteral("first_score"), QStringLiteral("*"), 0).at(3), QStringLiteral("9"));
        QVERIFY2(page.findChild<QLabel *>(QStringLiteral("worldModelSummary"))->text().contains(QLatin1String("<b>2</b>")),
                 qPrintable(page.findChild<QLabel *>(QStringLiteral("worldModelSummary"))->text()));
        QVERIFY(page.figureName().contains(alpha));
        // Where the anchored rule's window ends: past the deepest gain alpha's history shows.
        const int deepest = alphaModel.value(QStringLiteral("deepest_gain")).toInt(-1);
        QVERIFY(deepest >= 1);
        QVERIFY2(page.findChild<QLabel *>(QStringLiteral("worldModelSummary"))
                     ->text()
                     .contains(QStringLiteral("deepest gain at depth %1 (the anchored rule keeps blind depths up to %2 uncertain)")
                                   .arg(deepest)
                                   .arg(deepest + 4)),
                 qPrintable(page.findChild<QLabel *>(QStringLiteral("worldModelSummary"))->text()));

        // One of task beta: beta's model over its one world.
        page.setCurrentWorld(2);
        QCOMPARE(page.shownTask()->task, std::optional<QString>(beta));
        QCOMPARE(page.shownTask()->worlds, 1);
        QCOMPARE(page.model(), betaModel);
        QCOMPARE(tasks->currentIndex(), 1);
        QCOMPARE(fitted.last().first().toInt(), 1);
        QVERIFY(page.model().value(QStringLiteral("cap")).toDouble() < 1.0);
        QCOMPARE(rowOf(page.figureData(), QStringLiteral("first_score"), QStringLiteral("*"), 0).at(3), QStringLiteral("3"));

        // The selector itself switches too; the approximate world, though left out, is of task alpha.
        tasks->setCurrentIndex(0);
        QCOMPARE(page.model(), alphaModel);
        page.setCurrentWorld(2);
        page.setCurrentWorld(3);
        QCOMPARE(page.model(), alphaModel);

        // Settings include approximate worlds: alpha is fitted over three, and stays shown.
        fitted.clear();
        page.setIncludeApproximate(true);
        QTRY_VERIFY_WITH_TIMEOUT(!fitted.isEmpty(), 30000);
        QCOMPARE(page.historyWorlds(), 4);
        QCOMPARE(page.shownTask()->task, std::optional<QString>(alpha));
        QCOMPARE(page.shownTask()->worlds, 3);
        QCOMPARE(page.model(), WorldModel::fit({a1.get(), a2.get(), a3.get()}, ImaginationOptions()).toJson());
        QVERIFY(tasks->itemText(0).contains(QLatin1String("3 world")));

        // In the window, the page follows the world selected.
        MainWindow w;
        w.workspace()->addWorld({QStringLiteral("a1"), QString(), 1, a1});
        w.workspace()->addWorld({QStringLiteral("b1"), QString(), 2, b1});
        w.setCurrentWorld(0);
        WorldModelPage *inWindow = w.worldModelPage();
        QTRY_VERIFY_WITH_TIMEOUT(inWindow->shownTask() && inWindow->taskBox()->count() == 2, 30000);
        QCOMPARE(inWindow->shownTask()->task, std::optional<QString>(alpha));
        w.setCurrentWorld(1);
        QCOMPARE(inWindow->shownTask()->task, std::optional<QString>(beta));
        QCOMPARE(inWindow->model(), betaModel);
    }

    // What is blind (docs/online.md#blind-strata): a history whose deepest
    // cell is attempt 2 knows nothing of depth 3; the table marks that row
    // blind, the export says so, and the next deployment would probe depth 3
    // of the best branch. Once NMIN gains are known at depth 3 it is not blind.
    void worldModelPageMarksBlindDepthsAndPlansProbes()
    {
        Workspace workspace;
        for (int i = 0; i < 3; ++i)
            workspace.addWorld(
                {QStringLiteral("w%1").arg(i), QString(), IterationId(i + 1), taskWorld(std::nullopt, 6, 3, 1.0, 0.05)});
        WorldModelPage page(&workspace, nullptr);
        page.resize(900, 800);
        page.show();
        QSignalSpy fitted(&page, &WorldModelPage::modelFitted);
        page.refresh();
        QTRY_VERIFY_WITH_TIMEOUT(!fitted.isEmpty() && fitted.last().first().toInt() == 3, 30000);
        const int nmin = ImaginationOptions().minSamples;

        // The evidence covers every depth of the 6 × 8 grid; depth 2 holds 18 gains, depth 3 none.
        FigureTable data = page.figureData();
        QCOMPARE(data.header.last(), QStringLiteral("blind"));
        QCOMPARE(rowOf(data, QStringLiteral("gain"), QStringLiteral("*"), 2).at(3), QStringLiteral("18"));
        QCOMPARE(rowOf(data, QStringLiteral("gain"), QStringLiteral("*"), 2).last(), QStringLiteral("false"));
        const QStringList depth3 = rowOf(data, QStringLiteral("gain"), QStringLiteral("*"), 3);
        QCOMPARE(depth3.at(3), QStringLiteral("0"));
        QCOMPARE(depth3.last(), QStringLiteral("true"));
        QCOMPARE(rowOf(data, QStringLiteral("gain"), QStringLiteral("*"), 8).last(), QStringLiteral("true"));
        QVERIFY(rowOf(data, QStringLiteral("gain"), QStringLiteral("*"), 9).isEmpty()); // beyond the grid
        QCOMPARE(rowOf(data, QStringLiteral("first_score"), QStringLiteral("*"), 0).last(), QStringLiteral("false"));
        QVERIFY(data.toCsv().section(QLatin1Char('\n'), 0, 0).endsWith(QLatin1String(",blind")));

        // The table marks the blind row: the word, a tint, a tooltip on the fallback.
        QTableWidget *table = page.table();
        QCOMPARE(table->rowCount(), int(data.rows.size()));
        int blindRow = -1, seenRow = -1;
        for (int r = 0; r < table->rowCount(); ++r) {
            if (data.rows.at(r) == depth3)
                blindRow = r;
            if (data.rows.at(r) == rowOf(data, QStringLiteral("gain"), QStringLiteral("*"), 2))
                seenRow = r;
        }
        QVERIFY(blindRow >= 0 && seenRow >= 0);
        QCOMPARE(table->horizontalHeaderItem(4)->text(), QStringLiteral("Evidence"));
        QCOMPARE(table->item(blindRow, 4)->text(), QStringLiteral("blind"));
        QCOMPARE(table->item(blindRow, 2)->text(), QStringLiteral("3"));
        QCOMPARE(table->item(blindRow, 3)->text(), QStringLiteral("0"));
        QVERIFY(table->item(blindRow, 0)->background().style() != Qt::NoBrush);
        QVERIFY(table->item(blindRow, 0)->toolTip().contains(QLatin1String("another depth")));
        QVERIFY(table->item(seenRow, 4)->text().isEmpty());
        QCOMPARE(table->item(seenRow, 0)->background().style(), Qt::NoBrush);

        // The probes: one attempt deeper on the best branch (5), at depth 3 and on while blind.
        const QList<WorldModelPage::PlannedProbe> &probes = page.shownTask()->probes;
        QCOMPARE(probes.size(), int(ProbeSetting::AutoCalls));
        QCOMPARE(probes.first().call.kind, ProbeCall::Kind::Depth);
        QCOMPARE(probes.first().call.branch, 5);
        QCOMPARE(probes.first().call.attempt, 3);
        QCOMPARE(probes.first().count, 0);
        QCOMPARE(probes.at(1).call.attempt, 4);
        QCOMPARE(page.probeList()->count(), int(probes.size()));
        const QString firstProbe = page.probeList()->item(0)->text();
        QVERIFY2(firstProbe.startsWith(QLatin1String("b5a3")) && firstProbe.contains(QLatin1String("depth 3")),
                 qPrintable(firstProbe));

        // NMIN gains at depth 3 (a world of three branches four attempts deep): that row is not blind, depth 4 is.
        workspace.addWorld({QStringLiteral("deeper"), QString(), 4, taskWorld(std::nullopt, nmin, 4, 1.0, 0.05)});
        fitted.clear();
        QTRY_VERIFY_WITH_TIMEOUT(!fitted.isEmpty() && fitted.last().first().toInt() == 4, 30000);
        data = page.figureData();
        QCOMPARE(rowOf(data, QStringLiteral("gain"), QStringLiteral("*"), 3).at(3), QString::number(nmin));
        QCOMPARE(rowOf(data, QStringLiteral("gain"), QStringLiteral("*"), 3).last(), QStringLiteral("false"));
        QCOMPARE(rowOf(data, QStringLiteral("gain"), QStringLiteral("*"), 4).last(), QStringLiteral("true"));
        for (int r = 0; r < page.table()->rowCount(); ++r) {
            if (data.rows.at(r) == rowOf(data, QStringLiteral("gain"), QStringLiteral("*"), 3))
                QVERIFY(page.table()->item(r, 4)->text().isEmpty());
        }
        // The newest world's best branch (2) ends at attempt 3: the next probe goes to depth 4.
        QCOMPARE(page.shownTask()->newestWorld, QStringLiteral("deeper"));
        QCOMPARE(page.shownTask()->probes.first().call.cellId(), QStringLiteral("b2a4"));
        for (const WorldModelPage::PlannedProbe &p : page.shownTask()->probes)
            QVERIFY(p.call.attempt != 3);

        // A grid that allows nothing blind (every root open, the deepest attempt R = 2 revealed): no probe.
        workspace.clearWorlds();
        for (int i = 0; i < 3; ++i)
            workspace.addWorld({QStringLiteral("full%1").arg(i), QString(), IterationId(i + 1),
                                taskWorld(std::nullopt, 6, 3, 1.0, 0.05, GridShape{6, 2})});
        fitted.clear();
        QTRY_VERIFY_WITH_TIMEOUT(!fitted.isEmpty() && fitted.last().first().toInt() == 3, 30000);
        QVERIFY(page.shownTask()->probes.isEmpty());
        QCOMPARE(page.probeList()->count(), 1);
        QCOMPARE(page.probeList()->item(0)->text(), QStringLiteral("none: nothing the grid allows is blind"));
        for (const QStringList &row : page.figureData().rows)
            QVERIFY2(row.last() != QLatin1String("true"), qPrintable(row.join(QLatin1Char(','))));
    }

    // The bundled demo (circle packing and an autocorrelation inequality):
    // each task has its own model, and the page shows the selected world's.
    void worldModelPageOnTheDemo()
    {
        QTemporaryDir dir;
        const QString copy = dir.filePath(QStringLiteral("demo.dreamrsi"));
        QVERIFY(QFile::copy(QStringLiteral(DREAMRSI_SOURCE_DIR "/resources/demo/demo.dreamrsi"), copy));
        MainWindow w;
        w.resize(1280, 900);
        QSignalSpy loaded(&w, &MainWindow::projectLoaded);
        w.openProject(copy);
        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, 60000);
        QCOMPARE(w.workspace()->worlds().size(), 3);
        WorldModelPage *page = w.worldModelPage();
        QTRY_VERIFY_WITH_TIMEOUT(page->taskBox()->count() == 2, 30000);
        int circles = -1, c3 = -1;
        for (int row = 0; row < 3; ++row) {
            if (w.workspace()->worlds().at(row).tree->meta().task == QStringLiteral("c3_autocorrelation"))
                c3 = row;
            else
                circles = row;
        }
        QVERIFY(circles >= 0 && c3 >= 0);
        w.setCurrentWorld(circles);
        QCOMPARE(page->shownTask()->task, std::optional<QString>(QStringLiteral("circle_packing_26")));
        QCOMPARE(page->shownTask()->worlds, 2);
        QVERIFY(page->model().value(QStringLiteral("cap")).toDouble() > 2.0); // a sum of radii
        w.setCurrentWorld(c3);
        QCOMPARE(page->shownTask()->task, std::optional<QString>(QStringLiteral("c3_autocorrelation")));
        QCOMPARE(page->shownTask()->worlds, 1);
        QVERIFY(page->model().value(QStringLiteral("cap")).toDouble() < 1.0); // an autocorrelation bound
    }

    // In the window: the Discovery page knows the shown world's place in the
    // history, an imagined cell clicked says "imagined" in the inspector, and
    // the World Model tab is there.
    void theWindowShowsImaginedCellsAndTheWorldModel()
    {
        const QList<ReplayWorld> history = vectorHistory();
        MainWindow w;
        w.resize(1200, 800);
        for (int i = 0; i < history.size(); ++i)
            w.workspace()->addWorld({history.at(i).name, QString(), IterationId(i + 1), history.at(i).tree});
        QCOMPARE(w.tabs()->widget(MainWindow::WorldModelTab), w.worldModelPage());
        w.setCurrentWorld(2);
        DiscoveryPage *page = w.discoveryPage();
        QCOMPARE(page->imaginationPlace(), 2);
        QVERIFY(page->imaginedToggle()->isEnabled());
        QCOMPARE(page->completionBox()->maximum(), ReplayConfig().completions - 1); // no project: the default C
        page->imaginedToggle()->setChecked(true);
        QTRY_VERIFY_WITH_TIMEOUT(page->showsImagined(), 30000);
        const auto shown = page->shownTree();
        int imagined = -1;
        for (int i = 0; i < shown->cellCount() && imagined < 0; ++i) {
            if (Imagination::isImagined(shown->cells().at(i)))
                imagined = i;
        }
        QVERIFY(imagined >= 0);
        emit page->treeView()->cellActivated(imagined);
        QCOMPARE(w.inspector()->cellIndex(), imagined);
        QVERIFY2(w.inspector()->fieldsText().contains(QStringLiteral("world j = 2")), qPrintable(w.inspector()->fieldsText()));
        // Back to the recorded tree: the inspector let go of the completion's cell.
        page->imaginedToggle()->setChecked(false);
        QCOMPARE(w.inspector()->cellIndex(), -1);
        QCOMPARE(page->treeView()->tree(), history.at(2).tree);
        QTRY_VERIFY_WITH_TIMEOUT(!w.worldModelPage()->model().isEmpty(), 30000);
    }

    // Settings' replay section edits the project's valuation, C and imagination rule.
    void settingsEditTheValuationAndCompletions()
    {
        AppSettings settings;
        settings.workers = 4;
        SettingsDialog plain(settings);
        auto *valuation = plain.findChild<QComboBox *>(QStringLiteral("replayValuation"));
        auto *completions = plain.findChild<QSpinBox *>(QStringLiteral("replayCompletions"));
        QVERIFY(valuation && completions);
        plain.show();
        QVERIFY(!valuation->isVisible()); // tree files have no valuation: only a project's configuration
        QVERIFY(!plain.projectReplayConfig());

        SettingsDialog dialog(settings);
        ReplayConfig config;
        config.valuation = Valuation::Revealed;
        config.completions = 5;
        dialog.setProjectReplayConfig(config, QStringLiteral("p"));
        dialog.show();
        valuation = dialog.findChild<QComboBox *>(QStringLiteral("replayValuation"));
        completions = dialog.findChild<QSpinBox *>(QStringLiteral("replayCompletions"));
        QVERIFY(valuation->isVisible() && completions->isVisible());
        QCOMPARE(Valuation(valuation->currentData().toInt()), Valuation::Revealed);
        QCOMPARE(completions->value(), 5);
        QVERIFY(!completions->isEnabled()); // C means nothing under the revealed valuation
        QCOMPARE(dialog.projectReplayConfig()->valuation, Valuation::Revealed);
        valuation->setCurrentIndex(valuation->findData(int(Valuation::Imagined)));
        QVERIFY(completions->isEnabled());
        completions->setValue(12);
        const std::optional<ReplayConfig> edited = dialog.projectReplayConfig();
        QVERIFY(edited);
        QCOMPARE(edited->valuation, Valuation::Imagined);
        QCOMPARE(edited->completions, 12);
        QVERIFY(edited->label().contains(QStringLiteral("imagined C 12")));
        QCOMPARE(edited->rule, ImaginationRule::Capped);
        // The imagination rule: shown with the valuation, off under revealed, kept in the configuration.
        auto *rule = dialog.findChild<QComboBox *>(QStringLiteral("replayRule"));
        QVERIFY(rule && rule->isVisible() && rule->isEnabled());
        rule->setCurrentIndex(rule->findData(int(ImaginationRule::Widened)));
        QCOMPARE(dialog.projectReplayConfig()->rule, ImaginationRule::Widened);
        QVERIFY(dialog.projectReplayConfig()->label().endsWith(QStringLiteral("imagined C 12, widened")));
        // Every rule is offered, in the order of the enum.
        QCOMPARE(rule->count(), imaginationRuleNames().size());
        rule->setCurrentIndex(rule->findData(int(ImaginationRule::Uncertain)));
        QCOMPARE(dialog.projectReplayConfig()->rule, ImaginationRule::Uncertain);
        QVERIFY(dialog.projectReplayConfig()->label().endsWith(QStringLiteral("imagined C 12, uncertain")));
        rule->setCurrentIndex(rule->findData(int(ImaginationRule::Anchored)));
        QCOMPARE(dialog.projectReplayConfig()->rule, ImaginationRule::Anchored);
        QVERIFY(dialog.projectReplayConfig()->label().endsWith(QStringLiteral("imagined C 12, anchored")));
        QVERIFY(rule->toolTip().contains(QStringLiteral("within 4 attempts")));
        rule->setCurrentIndex(rule->findData(int(ImaginationRule::Widened)));
        valuation->setCurrentIndex(valuation->findData(int(Valuation::Revealed)));
        QVERIFY(!rule->isEnabled());
        SettingsDialog again(settings);
        config.valuation = Valuation::Imagined;
        config.rule = ImaginationRule::Widened;
        again.setProjectReplayConfig(config, QStringLiteral("p"));
        QCOMPARE(ImaginationRule(again.findChild<QComboBox *>(QStringLiteral("replayRule"))->currentData().toInt()),
                 ImaginationRule::Widened);
        QVERIFY(!plain.findChild<QComboBox *>(QStringLiteral("replayRule"))->isVisible());
    }
};

QTEST_MAIN(TestGuiImagination)
#include "tst_gui_imagination.moc"
