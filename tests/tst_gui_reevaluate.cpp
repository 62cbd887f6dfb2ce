// Re-evaluation from the window (docs/online.md#re-evaluating-the-best): the
// Cells table's "Mean ± 95 %" column and the inspector show stored repeats,
// a lucky cell marked; Round ▸ Re-evaluate the Best… asks K and R, runs off
// the GUI thread and the new repeats appear in the table. The iteration's
// best by recorded score and best by mean are both named (the Cells tab's
// summary, the inspector), Frontiers says the best cell is lucky, and the
// anytime curves draw the re-evaluated cells' intervals as error bars.
#include "storetestsupport.h"
#include "roundtestsupport.h"

#include "backend/localevaluationbackend.h"
#include "loop/round/roundrunner.h"
#include "figures/figuredata.h"
#include "figures/plotstyle.h"
#include "figures/qcp.h"
#include "models/celltablemodel.h"
#include "models/reevaluationsummary.h"
#include "model/treejson.h"
#include "replayview/frontierpage.h"
#include "tree/cellspage.h"
#include "store/projectreader.h"
#include "store/projectstore.h"
#include "store/projectwriter.h"
#include "tree/inspectorwidget.h"
#include "window/mainwindow.h"

#include <QAction>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QHeaderView>
#include <QLabel>
#include <QApplication>
#include <QDialog>
#include <QPushButton>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>

using namespace dreamrsi;
using dreamrsi::test::FakeAgent;
using dreamrsi::test::take;

class TestGuiReevaluate : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void reevaluateFromTheWindow();
    void anytimeErrorBarsAtReevaluatedCells();
    void deterministicRepeatsShowNoSpread();
};

namespace {

ReevaluationRecord repeat(IterationId iteration, const QString &cell, double score)
{
    ReevaluationRecord r;
    r.iteration = iteration;
    r.cellId = cell;
    r.score = score;
    r.failClass = QStringLiteral("ok");
    r.seconds = 0.1;
    r.backend = QStringLiteral("local");
    return r;
}

} // namespace

void TestGuiReevaluate::reevaluateFromTheWindow()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString project = dir.filePath(QStringLiteral("p.dreamrsi"));
    qint64 iteration = 0;
    {
        ProjectStore store;
        take(store.create(project, ProjectInfo()));
        RoundConfig c;
        c.task = test::toyTaskDir();
        c.agent.kind = QStringLiteral("fake");
        c.policy = PolicyChoice::fromArgument(QStringLiteral("builtin:portfolio"));
        c.workers = 2;
        c.evaluateBaseline = false;
        c.maxRounds = 2;
        RoundRunner runner(&store, c, std::make_shared<FakeAgent>(), std::make_shared<LocalEvaluationBackend>());
        bool done = false;
        connect(&runner, &RoundRunner::finished, this, [&done] { done = true; });
        runner.start();
        QTRY_VERIFY_WITH_TIMEOUT(done, 120000);
        runner.wait();
        QVERIFY2(runner.summary().ok(), qPrintable(runner.summary().error));
        iteration = runner.summary().iteration;
        take(store.close());
    }
    // b0a0 (recorded 2, the lowest score) re-evaluated three times far
    // lower: lucky. Another cell (not the best) lower still: the best
    // re-evaluated cell by recorded score is not the best by mean.
    QString bestId, otherId;
    double bestScore = 0, otherScore = 0;
    {
        StoreResult<std::unique_ptr<ProjectReader>> reader = ProjectReader::open(project);
        QVERIFY(reader.ok());
        const auto data = (*reader.value)->iterationData(iteration);
        QVERIFY(data.ok());
        for (const Cell &c : data.value->cells) {
            if (c.score && (bestId.isEmpty() || *c.score > bestScore)) {
                bestId = c.id;
                bestScore = *c.score;
            }
        }
        for (const Cell &c : data.value->cells) {
            if (c.score && c.id != bestId && c.id != QLatin1String("b0a0") && (otherId.isEmpty() || *c.score < otherScore)) {
                otherId = c.id;
                otherScore = *c.score;
            }
        }
        QVERIFY(!bestId.isEmpty() && !otherId.isEmpty() && bestId != QLatin1String("b0a0"));
        QVERIFY(otherScore > 2);
    }
    {
        StoreResult<std::unique_ptr<ProjectWriter>> writer = ProjectWriter::open(project);
        QVERIFY2(writer.ok(), qPrintable(writer.error));
        for (const double x : {0.1, 0.2, 0.3})
            QVERIFY((*writer.value)->addReevaluation(repeat(iteration, QStringLiteral("b0a0"), x)).ok());
        for (const double x : {0.01, 0.02, 0.03})
            QVERIFY((*writer.value)->addReevaluation(repeat(iteration, otherId, x)).ok());
    }

    MainWindow w;
    QSignalSpy loaded(&w, &MainWindow::projectLoaded);
    w.openProject(project);
    QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, 60000);
    w.setCurrentWorld(0);
    QVERIFY(w.currentTree());
    const auto tree = w.currentTree();
    const int lucky = tree->indexOfId(QStringLiteral("b0a0"));
    QVERIFY(lucky >= 0);
    CellTableModel *model = w.cellModel();
    QTRY_VERIFY(model->index(lucky, CellTableModel::Reevaluated).data().toString().contains(QStringLiteral("⚠")));
    QVERIFY(model->index(lucky, CellTableModel::Reevaluated).data().toString().startsWith(QStringLiteral("0.2 ± ")));
    QVERIFY(model->index(lucky, CellTableModel::Score).data(Qt::BackgroundRole).isValid());
    QCOMPARE(model->headerData(CellTableModel::Reevaluated, Qt::Horizontal).toString(), QStringLiteral("Mean ± 95 %"));
    w.cellView()->setCurrentIndex(w.cellProxyModel()->mapFromSource(model->index(lucky, 0)));
    QTRY_VERIFY(w.inspector()->reevaluationText().contains(QStringLiteral("lucky")));
    QVERIFY(w.inspector()->reevaluationText().contains(QStringLiteral("Re-evaluated 3 time")));
    QVERIFY(w.inspector()->reevaluateButton()->isEnabled());

    // The Cells tab names the re-evaluated cells' best by recorded score (the other cell) and best by mean (b0a0).
    auto *cells = w.findChild<CellsPage *>();
    QVERIFY(cells);
    QTRY_VERIFY2(cells->summaryText().contains(QStringLiteral("best by mean b0a0 (recorded 2, mean 0.2 ± ")),
                 qPrintable(cells->summaryText()));
    QVERIFY2(cells->summaryText().contains(QStringLiteral("Re-evaluated: best by recorded score %1 (recorded %2, mean 0.02 ± ")
                                               .arg(otherId, QString::number(otherScore, 'g', 4))),
             qPrintable(cells->summaryText()));
    QVERIFY(cells->summaryText().contains(QStringLiteral(", lucky)")));
    // The inspector of the other cell says it is the best by recorded score, and which is best by mean.
    w.cellView()->setCurrentIndex(w.cellProxyModel()->mapFromSource(model->index(tree->indexOfId(otherId), 0)));
    QTRY_VERIFY2(w.inspector()->reevaluationText().contains(QStringLiteral("best by recorded score; best by mean: b0a0")),
                 qPrintable(w.inspector()->reevaluationText()));
    // Frontiers: the best cell was not re-evaluated yet, the best by mean is named.
    FrontierPage *frontiers = w.frontierPage();
    QTRY_VERIFY2(frontiers->reevaluationNote().contains(QStringLiteral("best by mean b0a0: 0.2 ± ")),
                 qPrintable(frontiers->reevaluationNote()));
    QVERIFY(!frontiers->reevaluationNote().contains(QStringLiteral("lucky")));

    // Round ▸ Re-evaluate the Best…: K 2, R 2.
    auto *best = w.findChild<QAction *>(QStringLiteral("reevaluateBestAction"));
    QVERIFY(best && best->isEnabled());
    bool asked = false;
    QString title, question;
    QTimer::singleShot(0, this, [&asked, &title, &question] {
        auto *dialog = qobject_cast<QDialog *>(QApplication::activeModalWidget());
        if (!dialog)
            return;
        asked = true;
        title = dialog->windowTitle();
        for (const QLabel *label : dialog->findChildren<QLabel *>())
            question += label->text();
        dialog->findChild<QSpinBox *>(QStringLiteral("reevaluateTop"))->setValue(2);
        dialog->findChild<QSpinBox *>(QStringLiteral("reevaluateRepeats"))->setValue(2);
        dialog->accept();
    });
    best->trigger();
    QVERIFY(asked);
    // A short title (the window manager cut "Re-evaluate the Best — Dream-RSI
    // Workbench"); what is re-evaluated is said in the dialog.
    QCOMPARE(title, QStringLiteral("Re-evaluate"));
    QVERIFY2(question.contains(QStringLiteral("best K cells of iteration %1").arg(iteration)), qPrintable(question));
    QTRY_VERIFY_WITH_TIMEOUT(best->isEnabled(), 120000); // enabled again once the job ended
    int bestIndex = tree->bestCellIndex();
    QVERIFY(bestIndex >= 0);
    // The best cell re-evaluated twice, with the same score (the toy evaluator has no noise).
    QTRY_VERIFY(!model->index(bestIndex, CellTableModel::Reevaluated).data().toString().isEmpty());
    const QString shown = model->index(bestIndex, CellTableModel::Reevaluated).data().toString();
    QVERIFY2(shown.startsWith(QString::number(*tree->cells().at(bestIndex).score, 'g', 6)), qPrintable(shown));
    QVERIFY2(shown.endsWith(QStringLiteral(" ± 0")), qPrintable(shown));
    QVERIFY(!shown.contains(QStringLiteral("⚠")));
    StoreResult<std::unique_ptr<ProjectReader>> reader = ProjectReader::open(project);
    QVERIFY(reader.ok());
    QCOMPARE((*reader.value)->reevaluations(iteration).value->size(), 3 + 3 + 2 * 2);
    // Frontiers now says the best cell holds up (the toy evaluator has no noise: sd 0, no spread).
    QTRY_VERIFY2(frontiers->reevaluationNote().contains(QStringLiteral("best cell %1 holds up").arg(bestId)),
                 qPrintable(frontiers->reevaluationNote()));

    // With DREAMRSI_SCREENSHOT_DIR set: the Cells tab sorted by score, the lucky cell inspected.
    const QString out = qEnvironmentVariable("DREAMRSI_SCREENSHOT_DIR");
    if (!out.isEmpty()) {
        w.show();
        w.setFixedSize(1500, 820);
        for (int i = 0; i < w.tabs()->count(); ++i) {
            if (w.tabs()->tabText(i).remove(QLatin1Char('&')) == QLatin1String("Cells"))
                w.tabs()->setCurrentIndex(i);
        }
        w.cellView()->sortByColumn(CellTableModel::Score, Qt::DescendingOrder);
        w.cellView()->setCurrentIndex(w.cellProxyModel()->mapFromSource(model->index(lucky, 0)));
        w.cellView()->clearSelection(); // the inspector keeps the cell; the row shows its tint
        w.cellView()->resizeColumnsToContents();
        QTest::qWait(300);
        QVERIFY(w.grab().save(out + QStringLiteral("/19-reevaluate.png")));
    }
}

// The anytime curves (the Replay tab, `dreamrsi plot anytime`, figures): at
// each re-evaluated cell whose reveal made the best so far, the mean of its
// repeats with the 95 % interval, over S like the curve; a cell that did not
// raise the best has none. Frontiers' note on a lucky best cell.
void TestGuiReevaluate::anytimeErrorBarsAtReevaluatedCells()
{
    // b0a0 = 2, b1a0 = 4 (the best, S = 4), b0a1 = 3.
    QJsonArray cellArray;
    const QList<std::tuple<QString, int, int, double>> cellList{
        {QStringLiteral("b0a0"), 0, 0, 2.0}, {QStringLiteral("b1a0"), 1, 0, 4.0}, {QStringLiteral("b0a1"), 0, 1, 3.0}};
    int seq = 0;
    for (const auto &[id, branch, attempt, score] : cellList) {
        cellArray.append(QJsonObject{{QStringLiteral("id"), id}, {QStringLiteral("branch"), branch},
                                     {QStringLiteral("attempt"), attempt}, {QStringLiteral("seq"), seq++},
                                     {QStringLiteral("score"), score}});
    }
    auto parsed = TreeJson::parse(
        QJsonDocument(QJsonObject{{QStringLiteral("format"), QStringLiteral("dreamrsi-tree/1")}, {QStringLiteral("cells"), cellArray}})
            .toJson());
    QVERIFY2(parsed.ok(), qPrintable(parsed.error.message));
    const DiscoveryTree tree = std::move(*parsed.tree);
    QCOMPARE(tree.bestEffectiveScore(), 4.0);

    // Revealed b0a0, b1a0, b0a1: the best so far steps at calls 1 and 2.
    EpisodeResult episode;
    episode.revealed = {QStringLiteral("b0a0"), QStringLiteral("b1a0"), QStringLiteral("b0a1")};
    episode.curve = {CurvePoint{1, 0.5}, CurvePoint{2, 1.0}, CurvePoint{3, 1.0}};
    QList<ReevaluationRecord> records;
    for (const double x : {1.9, 2.0, 2.1})
        records.append(repeat(7, QStringLiteral("b0a0"), x));
    for (const double x : {3.0, 3.2, 3.1}) // b1a0 is lucky: 4 lies above its interval
        records.append(repeat(7, QStringLiteral("b1a0"), x));
    for (const double x : {2.0, 2.5})      // b0a1 never held the best: no bar
        records.append(repeat(7, QStringLiteral("b0a1"), x));
    const QList<ReevaluationStats> stats = reevaluationStats(7, tree.cells(), records);
    QCOMPARE(stats.size(), 3);

    const QList<AnytimeInterval> intervals = PlotStyle::anytimeIntervals(episode, tree, stats);
    QCOMPARE(intervals.size(), 2);
    QCOMPARE(intervals.at(0).cellId, QStringLiteral("b0a0"));
    QCOMPARE(intervals.at(0).calls, 1);
    QCOMPARE(intervals.at(0).mean, 2.0 / 4.0);
    QVERIFY(!intervals.at(0).lucky);
    const ReevaluationStats &lucky = stats.at(1);
    QCOMPARE(lucky.cellId, QStringLiteral("b1a0"));
    QVERIFY(lucky.lucky);
    QCOMPARE(intervals.at(1).calls, 2);
    QVERIFY(qFuzzyCompare(intervals.at(1).mean, 3.1 / 4.0));
    QVERIFY(qFuzzyCompare(intervals.at(1).low, lucky.ci95->first / 4.0));
    QVERIFY(qFuzzyCompare(intervals.at(1).high, lucky.ci95->second / 4.0));
    QVERIFY(intervals.at(1).lucky && intervals.at(1).high < 1.0); // the step at 1.0 stands above its bar
    QVERIFY(PlotStyle::anytimeIntervals(episode, tree, {}).isEmpty());

    // Drawn: one error-bar plottable per series with its points, named once in the legend.
    QCustomPlot plot;
    const QList<AnytimeSeries> series{{QStringLiteral("A"), episode.curve, -1, intervals},
                                      {QStringLiteral("B"), episode.curve, 1, intervals}};
    PlotStyle::populateAnytime(&plot, series, tree.cellCount(), false, PlotStyle::AttainmentAxis::Fitted);
    QList<QCPErrorBars *> bars;
    for (int i = 0; i < plot.plottableCount(); ++i) {
        if (auto *b = qobject_cast<QCPErrorBars *>(plot.plottable(i)))
            bars.append(b);
    }
    QCOMPARE(bars.size(), 2);
    QCOMPARE(bars.at(0)->dataCount(), 2);
    QCOMPARE(bars.at(1)->dataCount(), 1); // B's stepper shows the first call only
    QVERIFY(qFuzzyCompare(bars.at(0)->data()->at(1).errorMinus, intervals.at(1).mean - intervals.at(1).low));
    QVERIFY(qFuzzyCompare(bars.at(0)->data()->at(1).errorPlus, intervals.at(1).high - intervals.at(1).mean));
    QVERIFY(plot.yAxis->range().lower <= intervals.at(1).low);
    int named = 0;
    for (int i = 0; i < plot.legend->itemCount(); ++i) {
        if (auto *item = qobject_cast<QCPPlottableLegendItem *>(plot.legend->item(i)))
            named += item->plottable()->name() == QLatin1String("Re-evaluated: mean, 95 % interval");
    }
    QCOMPARE(named, 1);

    // The figure's data (`plot anytime --data`, Export Data…): the bars in
    // their own columns on the row of the call that revealed the cell.
    const FigureTable data = FigureData::anytime(series);
    QCOMPARE(data.header, (QStringList{QStringLiteral("series"), QStringLiteral("calls"), QStringLiteral("best_so_far_attainment"),
                                       QStringLiteral("reevaluated_cell"), QStringLiteral("mean_attainment"),
                                       QStringLiteral("ci95_lo"), QStringLiteral("ci95_hi"), QStringLiteral("lucky")}));
    QCOMPARE(data.rows.size(), 6);
    QCOMPARE(data.rows.at(0).at(3), QStringLiteral("b0a0"));
    QCOMPARE(data.rows.at(0).at(4).toDouble(), 0.5);
    QCOMPARE(data.rows.at(0).at(7), QStringLiteral("false"));
    QCOMPARE(data.rows.at(1).at(3), QStringLiteral("b1a0"));
    QVERIFY(qFuzzyCompare(data.rows.at(1).at(5).toDouble(), intervals.at(1).low));
    QVERIFY(qFuzzyCompare(data.rows.at(1).at(6).toDouble(), intervals.at(1).high));
    QCOMPARE(data.rows.at(1).at(7), QStringLiteral("true"));
    QVERIFY(data.rows.at(2).at(3).isEmpty()); // call 3 revealed no new best
    QCOMPARE(FigureData::anytime({{QStringLiteral("A"), episode.curve}}).header.size(), 3); // no re-evaluations: no columns

    // Frontiers' note: the best cell lucky, with its recorded score and mean.
    const QString note = ReevaluationSummary::frontierNote(QStringLiteral("iteration 7"), tree, stats);
    QVERIFY2(note.startsWith(QStringLiteral("iteration 7: best cell b1a0 lucky: recorded 4, mean 3.1 ± ")), qPrintable(note));
    QVERIFY2(note.contains(QStringLiteral("(3 repeat")), qPrintable(note));
    QVERIFY(!note.contains(QStringLiteral("best by mean"))); // b1a0 is the best by mean too
    QVERIFY2(ReevaluationSummary::best(stats).startsWith(QStringLiteral("Re-evaluated: best by recorded score and by mean b1a0 (recorded 4, mean 3.1 ± 0.25, lucky)")),
             qPrintable(ReevaluationSummary::best(stats)));
}

// Issue 53: a deterministic evaluator's repeats agree to the last bits, and
// their interval is rounding only ("± 4.44e-16"): shown as 0, in the Cells
// table, the inspector and the summaries. The Mean column is one line wide
// enough for its text.
void TestGuiReevaluate::deterministicRepeatsShowNoSpread()
{
    QJsonArray cellArray;
    const QList<std::tuple<QString, int, int, double>> cellList{{QStringLiteral("b0a0"), 0, 0, 0.1},
                                                                {QStringLiteral("b1a0"), 1, 0, 0.6}};
    int seq = 0;
    for (const auto &[id, branch, attempt, score] : cellList) {
        cellArray.append(QJsonObject{{QStringLiteral("id"), id}, {QStringLiteral("branch"), branch},
                                     {QStringLiteral("attempt"), attempt}, {QStringLiteral("seq"), seq++},
                                     {QStringLiteral("score"), score}});
    }
    auto parsed = TreeJson::parse(
        QJsonDocument(QJsonObject{{QStringLiteral("format"), QStringLiteral("dreamrsi-tree/1")}, {QStringLiteral("cells"), cellArray}})
            .toJson());
    QVERIFY2(parsed.ok(), qPrintable(parsed.error.message));
    const auto tree = std::make_shared<const DiscoveryTree>(std::move(*parsed.tree));
    QList<ReevaluationRecord> records;
    for (int i = 0; i < 3; ++i) // 0.1 three times: the mean is 0.1 + 2.8e-17, the interval rounding
        records.append(repeat(7, QStringLiteral("b0a0"), 0.1));
    for (const double x : {0.5, 0.7})
        records.append(repeat(7, QStringLiteral("b1a0"), x));
    const QList<ReevaluationStats> stats = reevaluationStats(7, tree->cells(), records);
    QCOMPARE(stats.size(), 2);
    QVERIFY(stats.at(0).halfWidth());
    QVERIFY(*stats.at(0).halfWidth() < 1e-12);
    QCOMPARE(ReevaluationSummary::meanText(stats.at(0)), QStringLiteral("0.1 ± 0"));
    // A real spread keeps its number.
    QCOMPARE(ReevaluationSummary::meanText(stats.at(1)), QStringLiteral("0.6 ± 1.3"));
    // The rule itself: below 1e-12 of the mean's magnitude.
    ReevaluationStats made;
    made.mean = 0.7;
    made.ci95 = std::make_pair(0.7 - 4.44e-16, 0.7 + 4.44e-16);
    QCOMPARE(ReevaluationSummary::meanText(made), QStringLiteral("0.7 ± 0"));
    QCOMPARE(ReevaluationSummary::spreadText(1000.0, 1e-8, 3), QStringLiteral("1e-08"));
    QCOMPARE(ReevaluationSummary::spreadText(1e12, 0.5, 3), QStringLiteral("0"));
    QCOMPARE(ReevaluationSummary::spreadText(0.0, 0.0, 3), QStringLiteral("0"));

    CellsPage page;
    page.resize(900, 300);
    page.setTree(QStringLiteral("iteration 7"), tree);
    page.setReevaluations(stats);
    page.show();
    QVERIFY(QTest::qWaitForWindowExposed(&page));
    const QModelIndex same = page.model()->index(0, CellTableModel::Reevaluated);
    QCOMPARE(same.data().toString(), QStringLiteral("0.1 ± 0"));
    QCOMPARE(page.model()->index(1, CellTableModel::Reevaluated).data().toString(), QStringLiteral("0.6 ± 1.27"));
    // One line: no wrapping, and the column as wide as its widest text (and its header).
    QVERIFY(!page.view()->wordWrap());
    const int width = page.view()->columnWidth(CellTableModel::Reevaluated);
    const QAbstractItemView *view = page.view();
    QVERIFY2(width >= view->sizeHintForColumn(CellTableModel::Reevaluated), qPrintable(QString::number(width)));
    QVERIFY(width >= page.view()->horizontalHeader()->sectionSizeHint(CellTableModel::Reevaluated));
    QVERIFY(width >= page.view()->fontMetrics().horizontalAdvance(QStringLiteral("0.6 ± 1.27")));

    InspectorWidget inspector;
    inspector.showCell(tree, 0);
    inspector.setReevaluation(stats.at(0), ReevaluationBest::of(stats));
    QVERIFY2(inspector.reevaluationText().contains(QStringLiteral("mean 0.1 ± 0 (95 %), sd 0")), qPrintable(inspector.reevaluationText()));
    QVERIFY(!inspector.reevaluationText().contains(QStringLiteral("e-1")));
}

QTEST_MAIN(TestGuiReevaluate)
#include "tst_gui_reevaluate.moc"
