// The live round in the workbench (offscreen): a round launched from the
// panel with the fake agent grows the item tree row by row (inserted, never
// reset; running attempts first shown as running), the counters move, the
// drawn tree gets every stored cell, Stop stops it, and the dialog
// remembers its choices.
#include "roundtestsupport.h"

#include "launchrounddialog.h"
#include "livetreemodel.h"
#include "roundpanel.h"
#include "treeview.h"

#include "store/projectstore.h"

#include <QComboBox>
#include <QDateTime>
#include <QJsonObject>
#include <QLabel>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QtTest>

using namespace dreamrsi;

class TestGuiRound : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void treeGrowsRowByRow();
    void stopFromThePanel();
    void dialogRemembersChoices();
    void runningAttemptShowsItsJob();

private:
    std::unique_ptr<QTemporaryDir> m_dir;
};

namespace {

template<typename T>
T take(QFuture<StoreResult<T>> future)
{
    future.waitForFinished();
    const StoreResult<T> r = future.result();
    if (!r.ok())
        qFatal("store call failed: %s", qPrintable(r.error));
    return *r.value;
}

RoundConfig toyConfig()
{
    RoundConfig c;
    c.task = test::toyTaskDir();
    c.policy = QStringLiteral("all");
    c.workers = 2;
    c.evaluateBaseline = false;
    return c;
}

void addPolicy(ProjectStore &store)
{
    PolicyVersion v;
    v.name = QStringLiteral("all");
    v.code = QStringLiteral("function planGrid(c) { return {branches: 3, refinements: 2, reason: \"gui\"}; }\n"
                            "function selectBatch(s) { return s.legal.slice(0, s.maxParallelism); }\n");
    take(store.addPolicyVersion(v));
}

} // namespace

void TestGuiRound::initTestCase()
{
    QCoreApplication::setOrganizationName(QStringLiteral("DreamRSI-test-gui-round"));
    m_dir = std::make_unique<QTemporaryDir>();
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, m_dir->path());
}

void TestGuiRound::treeGrowsRowByRow()
{
    ProjectStore store;
    take(store.create(m_dir->filePath(QStringLiteral("gui.dreamrsi")), ProjectInfo()));
    addPolicy(store);
    RoundPanel panel(&store);
    panel.resize(900, 600);
    panel.show();
    LiveTreeModel *model = panel.model();

    QList<int> finishedAfterEachChange;
    int runningInserted = 0;
    QSignalSpy resets(model, &QAbstractItemModel::modelReset);
    connect(model, &QAbstractItemModel::rowsInserted, this, [&](const QModelIndex &parent, int first) {
        if (parent.isValid() && model->index(first, 0, parent).data(LiveTreeModel::RunningRole).toBool())
            ++runningInserted;
    });
    connect(model, &QAbstractItemModel::dataChanged, this, [&] {
        if (finishedAfterEachChange.isEmpty() || finishedAfterEachChange.last() != model->cellCount())
            finishedAfterEachChange.append(model->cellCount());
    });
    QSignalSpy finished(&panel, &RoundPanel::roundFinished);
    auto agent = std::make_shared<test::FakeAgent>();
    QVERIFY(panel.startRound(toyConfig(), agent));
    const int resetsAtStart = int(resets.count());
    QVERIFY(panel.stopAction()->isEnabled());
    QVERIFY(!panel.launchAction()->isEnabled());

    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 120000);
    QCOMPARE(finished.first().at(1).toString(), QStringLiteral("finished"));
    QCOMPARE(model->cellCount(), 9);
    QCOMPARE(model->runningCount(), 0);
    QCOMPARE(model->rowCount(), 3); // branches
    for (int b = 0; b < 3; ++b)
        QCOMPARE(model->rowCount(model->index(b, 0)), 3);
    QCOMPARE(resets.count(), resetsAtStart); // rows were inserted, never reset
    QCOMPARE(runningInserted, 9);           // every attempt appeared as running first
    // Cells arrived one at a time: the finished count went up by one per step.
    QCOMPARE(finishedAfterEachChange.last(), 9);
    for (qsizetype i = 1; i < finishedAfterEachChange.size(); ++i)
        QVERIFY(finishedAfterEachChange.at(i) - finishedAfterEachChange.at(i - 1) <= 1);
    QVERIFY(panel.countersLabel()->text().contains(QStringLiteral("Calls 9")));
    QTRY_VERIFY_WITH_TIMEOUT(panel.treeView()->tree() && panel.treeView()->tree()->cells().size() == 9, 10000);
    QVERIFY(panel.launchAction()->isEnabled());
    QVERIFY(!panel.stopAction()->isEnabled());
    take(store.close());
}

void TestGuiRound::stopFromThePanel()
{
    ProjectStore store;
    take(store.create(m_dir->filePath(QStringLiteral("stop.dreamrsi")), ProjectInfo()));
    addPolicy(store);
    RoundPanel panel(&store);
    auto agent = std::make_shared<test::FakeAgent>();
    agent->closeGate();
    QSignalSpy finished(&panel, &RoundPanel::roundFinished);
    QVERIFY(panel.startRound(toyConfig(), agent));
    QTRY_COMPARE_WITH_TIMEOUT(panel.model()->runningCount(), 2, 60000);
    panel.stopAction()->trigger();
    QCOMPARE(panel.stopAction()->text(), QStringLiteral("&Kill Running Attempts"));
    agent->openGate();
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 60000);
    QCOMPARE(finished.first().at(1).toString(), QStringLiteral("stopped"));
    QCOMPARE(panel.model()->cellCount(), 2);
    const qint64 iteration = finished.first().at(0).toLongLong();
    QCOMPARE(take(store.iterationData(iteration)).info.status, IterationStatus::Stopped);
    take(store.close());
}

void TestGuiRound::dialogRemembersChoices()
{
    {
        LaunchRoundDialog dialog({QStringLiteral("v7")});
        qobject_cast<QSpinBox *>(dialog.field(QStringLiteral("workers")))->setValue(7);
        qobject_cast<QSpinBox *>(dialog.field(QStringLiteral("rounds")))->setValue(3);
        auto *policy = qobject_cast<QComboBox *>(dialog.field(QStringLiteral("policy")));
        policy->setCurrentIndex(policy->findData(QStringLiteral("v7")));
        qobject_cast<QComboBox *>(dialog.field(QStringLiteral("task")))->setCurrentText(QStringLiteral("lasso_path"));
        dialog.accept();
        QCOMPARE(dialog.result(), int(QDialog::Accepted));
    }
    LaunchRoundDialog again({QStringLiteral("v7")});
    const RoundConfig c = again.config();
    QCOMPARE(c.workers, 7);
    QCOMPARE(c.maxRounds.value_or(0), 3);
    QCOMPARE(c.policy, QStringLiteral("v7"));
    QCOMPARE(c.task, QStringLiteral("lasso_path"));
    QVERIFY(!c.beta); // the policy's default
}

void TestGuiRound::runningAttemptShowsItsJob()
{
    // The runner's events as a Slurm round sends them, without Slurm: the
    // running row names the job and its state (pending with Slurm's reason,
    // then running), the queue wait apart from the run time; the stored
    // cell keeps both.
    LiveTreeModel model;
    model.markRunning(QStringLiteral("b1a0"));
    const QModelIndex branch = model.index(0, 0);
    auto text = [&](int column) { return model.index(0, column, branch).data().toString(); };
    QVERIFY2(text(LiveTreeModel::StatusColumn).contains(QStringLiteral("running")), qPrintable(text(LiveTreeModel::StatusColumn)));
    QVERIFY(!text(LiveTreeModel::StatusColumn).contains(QStringLiteral("job")));

    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    EvaluationProgress p;
    p.backend = QStringLiteral("slurm");
    p.jobId = QStringLiteral("123");
    p.state = QStringLiteral("PENDING");
    p.reason = QStringLiteral("Resources");
    p.submittedMs = QDateTime::currentMSecsSinceEpoch() - 4000;
    model.setProgress(QStringLiteral("b1a0"), p);
    QCOMPARE(changed.count(), 1);
    QCOMPARE(text(LiveTreeModel::StatusColumn).section(QLatin1Char(' '), 1), QStringLiteral("pending (slurm job 123, Resources)"));
    QVERIFY2(text(LiveTreeModel::TimeColumn).contains(QStringLiteral("queued")), qPrintable(text(LiveTreeModel::TimeColumn)));
    QVERIFY(!text(LiveTreeModel::TimeColumn).contains(QStringLiteral("ran")));
    QVERIFY(model.index(0, LiveTreeModel::StatusColumn, branch).data(Qt::ToolTipRole).toString().contains(QStringLiteral("Resources")));
    QVERIFY(model.index(0, 0, branch).data(LiveTreeModel::RunningRole).toBool());

    p.state = QStringLiteral("RUNNING");
    p.reason = QStringLiteral("None");
    p.startedMs = p.submittedMs + 4000;
    model.setProgress(QStringLiteral("b1a0"), p);
    QCOMPARE(text(LiveTreeModel::StatusColumn).section(QLatin1Char(' '), 1), QStringLiteral("running on slurm job 123"));
    const QString time = text(LiveTreeModel::TimeColumn);
    QVERIFY2(time.contains(QStringLiteral("queued 4.0 s")) && time.contains(QStringLiteral("ran")), qPrintable(time));

    // Stored: the outcome, and the recorded queue wait and run time.
    Cell cell;
    cell.id = QStringLiteral("b1a0");
    cell.branch = 1;
    cell.attempt = 0;
    cell.score = 3.0;
    cell.evaluated = true;
    cell.valid = true;
    cell.failClass = QStringLiteral("ok");
    cell.payload.insert(QStringLiteral("timing"), QJsonObject{{QStringLiteral("wall_s"), 7.0},
                                                              {QStringLiteral("queue_wait_s"), 4.0},
                                                              {QStringLiteral("run_s"), 2.5}});
    cell.payload.insert(QStringLiteral("scheduler"), QJsonObject{{QStringLiteral("backend"), QStringLiteral("slurm")},
                                                                 {QStringLiteral("job_id"), QStringLiteral("123")},
                                                                 {QStringLiteral("state"), QStringLiteral("COMPLETED")}});
    model.addCell(cell);
    QCOMPARE(text(LiveTreeModel::StatusColumn), QStringLiteral("ok"));
    QCOMPARE(text(LiveTreeModel::TimeColumn), QStringLiteral("7.0 s · queued 4.0 s · ran 2.5 s"));
    QVERIFY(model.index(0, 0, branch).data(Qt::ToolTipRole).toString().contains(QStringLiteral("slurm job 123: COMPLETED")));
    // A late report of a stored attempt changes nothing.
    model.setProgress(QStringLiteral("b1a0"), p);
    QCOMPARE(text(LiveTreeModel::StatusColumn), QStringLiteral("ok"));
}

QTEST_MAIN(TestGuiRound)
#include "tst_gui_round.moc"
