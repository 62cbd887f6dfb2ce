// Re-evaluation from the window (docs/online.md#re-evaluating-the-best): the
// Cells table's "Mean ± 95 %" column and the inspector show stored repeats,
// a lucky cell marked; Round ▸ Re-evaluate the Best… asks K and R, runs off
// the GUI thread and the new repeats appear in the table.
#include "storetestsupport.h"
#include "roundtestsupport.h"

#include "backend/localevaluationbackend.h"
#include "loop/round/roundrunner.h"
#include "models/celltablemodel.h"
#include "store/projectreader.h"
#include "store/projectstore.h"
#include "store/projectwriter.h"
#include "tree/inspectorwidget.h"
#include "window/mainwindow.h"

#include <QAction>
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
};

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
    // b0a0 (recorded 2) re-evaluated three times far lower: lucky.
    {
        StoreResult<std::unique_ptr<ProjectWriter>> writer = ProjectWriter::open(project);
        QVERIFY2(writer.ok(), qPrintable(writer.error));
        for (const double x : {0.1, 0.2, 0.3}) {
            ReevaluationRecord r;
            r.iteration = iteration;
            r.cellId = QStringLiteral("b0a0");
            r.score = x;
            r.failClass = QStringLiteral("ok");
            r.seconds = 0.1;
            r.backend = QStringLiteral("local");
            QVERIFY((*writer.value)->addReevaluation(r).ok());
        }
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

    // Round ▸ Re-evaluate the Best…: K 2, R 2.
    auto *best = w.findChild<QAction *>(QStringLiteral("reevaluateBestAction"));
    QVERIFY(best && best->isEnabled());
    bool asked = false;
    QTimer::singleShot(0, this, [&asked] {
        auto *dialog = qobject_cast<QDialog *>(QApplication::activeModalWidget());
        if (!dialog)
            return;
        asked = true;
        dialog->findChild<QSpinBox *>(QStringLiteral("reevaluateTop"))->setValue(2);
        dialog->findChild<QSpinBox *>(QStringLiteral("reevaluateRepeats"))->setValue(2);
        dialog->accept();
    });
    best->trigger();
    QVERIFY(asked);
    QTRY_VERIFY_WITH_TIMEOUT(best->isEnabled(), 120000); // enabled again once the job ended
    int bestIndex = tree->bestCellIndex();
    QVERIFY(bestIndex >= 0);
    // The best cell re-evaluated twice, with the same score (the toy evaluator has no noise).
    QTRY_VERIFY(!model->index(bestIndex, CellTableModel::Reevaluated).data().toString().isEmpty());
    const QString shown = model->index(bestIndex, CellTableModel::Reevaluated).data().toString();
    QVERIFY2(shown.startsWith(QString::number(*tree->cells().at(bestIndex).score, 'g', 6)), qPrintable(shown));
    QVERIFY(!shown.contains(QStringLiteral("⚠")));
    StoreResult<std::unique_ptr<ProjectReader>> reader = ProjectReader::open(project);
    QVERIFY(reader.ok());
    QCOMPARE((*reader.value)->reevaluations(iteration).value->size(), 3 + 2 * 2);

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

QTEST_MAIN(TestGuiReevaluate)
#include "tst_gui_reevaluate.moc"
