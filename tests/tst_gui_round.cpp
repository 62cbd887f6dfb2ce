// The live round in the workbench (offscreen): a round launched from the
// panel with the fake agent grows the item tree row by row (inserted, never
// reset; running attempts first shown as running), the counters move, the
// drawn tree and the dashboard get every stored cell, Stop stops it (from
// the panel, and from the status bar's cancel button: a second press kills),
// the dialog remembers its choices and its labels show no '&', and Resume
// is offered only while an iteration can be resumed.
#include "storetestsupport.h"
#include "roundtestsupport.h"

#include "live/launchrounddialog.h"
#include "session/preferences.h"
#include "session/roundcontroller.h"
#include "live/livedashboard.h"
#include "models/livetreemodel.h"
#include "live/roundpanel.h"
#include "live/roundstatus.h"
#include "tree/treeview.h"

#include "store/projectstore.h"

#include <QComboBox>
#include <QAbstractButton>
#include <QDateTime>
#include <QJsonObject>
#include <QInputDialog>
#include <QLabel>
#include <QPlainTextEdit>
#include <QRegularExpression>
#include <QLineSeries>
#include <QMainWindow>
#include <QProgressBar>
#include <QStatusBar>
#include <QToolButton>
#include <QTreeView>
#include <QSignalSpy>
#include <QApplication>
#include <QTextBlock>
#include <QScrollBar>
#include <QCheckBox>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QChartView>
#include <QGraphicsScene>
#include <QGraphicsTextItem>
#include <QVBoxLayout>
#include <QAbstractItemModelTester>
#include <QtTest>

using namespace dreamrsi;
using dreamrsi::test::take;

class TestGuiRound : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void treeGrowsRowByRow();
    void dashboardPoints();
    void dashboardScoreLabelsAreWhole();
    void stopFromThePanel();
    void cancelFromTheStatusBar();
    void dialogRemembersChoices();
    void dialogLabelsShowNoAmpersand();
    void checkReportFitsMarksFailuresAndGoesStale();
    void resumeOnlyWithSomethingToResume();
    void runningAttemptShowsItsJob();
    void bigRoundListsBranchesCollapsed();

private:
    std::unique_ptr<QTemporaryDir> m_dir;
};

namespace {

RoundConfig toyConfig()
{
    RoundConfig c;
    c.task = test::toyTaskDir();
    c.policy = PolicyChoice::stored(QStringLiteral("all"));
    c.workers = 2;
    c.evaluateBaseline = false;
    return c;
}

RoundOptions toyOptions()
{
    return RoundOptions{toyConfig(), std::nullopt};
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
    // The one model whose rows are inserted one by one: Qt's checker
    // verifies every insertion and change against the model's own answers.
    QAbstractItemModelTester tester(model, QAbstractItemModelTester::FailureReportingMode::QtTest);

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
    QSignalSpy counted(panel.controller(), &RoundController::countersChanged);
    auto agent = std::make_shared<test::FakeAgent>();
    QVERIFY(panel.controller()->start(toyOptions(), agent));
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
    const RoundCounters counters = counted.last().at(0).value<RoundCounters>();
    QCOMPARE(counters.calls, 9);
    QTRY_VERIFY_WITH_TIMEOUT(panel.treeView()->tree() && panel.treeView()->tree()->cells().size() == 9, 10000);
    // The dashboard got a point per stored cell: 9 calls at 0.001 USD each.
    LiveDashboard *dash = panel.dashboard();
    QCOMPARE(dash->calls(), 9);
    QCOMPARE(dash->costSeries()->count(), 10); // from (0, 0)
    QVERIFY(qAbs(dash->costSeries()->points().last().y() - 0.009) < 1e-9);
    QVERIFY(dash->bestSeries()->count() >= 2);
    QCOMPARE(dash->bestSeries()->points().last(), QPointF(9.0, dash->bestScore().value_or(-1)));
    QCOMPARE(counters.bestScore, dash->bestScore());
    QVERIFY(panel.launchAction()->isEnabled());
    QVERIFY(!panel.stopAction()->isEnabled());
    take(store.close());
}

void TestGuiRound::dashboardScoreLabelsAreWhole()
{
    // Scores of a circle-packing round, as they were stored: the best moves
    // in the third decimal, so the score axis' labels grow from "2.6" to
    // "2.625". The live panel's size, shown once the round is under way.
    // Every tick label is drawn whole. (In the workbench's Live Round dock
    // the labels stayed "..." until the chart's layout was invalidated at
    // each hand-over; this setting does not reproduce that, it guards the
    // labels' text.)
    QWidget window;
    auto *layout = new QVBoxLayout(&window);
    auto *dash = new LiveDashboard;
    layout->addWidget(dash);
    window.resize(460, 250);
    const double scores[] = {2.62008, 2.62343, 2.62644, 2.6017, 2.62481, 2.62644, 2.62343, 2.62435, 2.63037, 2.62343, 2.62976};
    int n = 0;
    for (const double s : scores) {
        Cell c;
        c.id = QStringLiteral("b%1a0").arg(n++);
        c.score = s;
        c.failClass = QStringLiteral("ok");
        dash->addCell(c);
        if (n % 3 == 0)
            dash->flush(); // some hand-overs, as the redraw timer makes them in a round
        if (n == 2) { // the panel is shown once the round is under way
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
        }
    }
    dash->flush();
    QCoreApplication::processEvents(); // the scene lays out the labels
    QStringList labels;
    for (QGraphicsItem *item : dash->scoreView()->scene()->items()) {
        if (auto *text = dynamic_cast<QGraphicsTextItem *>(item); text && text->isVisible())
            labels << text->toPlainText();
    }
    QVERIFY2(labels.contains(QStringLiteral("Best score")), qPrintable(labels.join(QLatin1Char('|'))));
    for (const QString &label : std::as_const(labels))
        QVERIFY2(!label.contains(QStringLiteral("...")), qPrintable(labels.join(QLatin1Char('|'))));
}

void TestGuiRound::dashboardPoints()
{
    LiveDashboard dash;
    const QDateTime start = QDateTime::fromString(QStringLiteral("2026-01-01T10:00:00.000Z"), Qt::ISODateWithMs);
    dash.reset(start);
    auto cell = [&](const QString &id, std::optional<double> score, double cost, int secondsLater) {
        Cell c;
        c.id = id;
        c.score = score;
        c.failClass = score ? QStringLiteral("ok") : QStringLiteral("agent");
        QJsonObject agent;
        agent.insert(QStringLiteral("cost"), cost);
        QJsonObject timing;
        timing.insert(QStringLiteral("ended"), start.addSecs(secondsLater).toString(Qt::ISODateWithMs));
        c.payload.insert(QStringLiteral("agent"), agent);
        c.payload.insert(QStringLiteral("timing"), timing);
        return c;
    };
    QCOMPARE(dash.costSeries()->count(), 1); // the origin
    dash.addCell(cell(QStringLiteral("b0a0"), std::nullopt, 0.5, 10)); // a failure: a call, a cost, no score
    dash.addCell(cell(QStringLiteral("b1a0"), 2.0, 0.25, 20));
    dash.addCell(cell(QStringLiteral("b0a1"), 1.5, 0.25, 30)); // worse: the best stays 2
    dash.addCell(cell(QStringLiteral("b1a1"), 3.0, 0.0, 45));
    // Batched: nothing drawn until the redraw timer (or flush) runs.
    QCOMPARE(dash.bestSeries()->count(), 0);
    QSignalSpy handedOver(dash.costSeries(), &QXYSeries::pointsReplaced);
    QTRY_COMPARE_WITH_TIMEOUT(dash.bestSeries()->count(), 3, 5000);
    QCOMPARE(handedOver.count(), 1); // four cells, one hand-over
    // The staircase: 2 from call 2, 3 from call 4 (call 3's 1.5 changes nothing).
    QCOMPARE(dash.bestSeries()->points(), (QList<QPointF>{{2, 2.0}, {4, 2.0}, {4, 3.0}}));
    QCOMPARE(dash.costSeries()->points(), (QList<QPointF>{{0, 0}, {10, 0.5}, {20, 0.75}, {30, 1.0}, {45, 1.0}}));
    QCOMPARE(dash.calls(), 4);
    QCOMPARE(dash.bestScore().value_or(0), 3.0);
    dash.addCell(cell(QStringLiteral("b1a2"), 2.5, 0.1, 50)); // no better: the stair runs on to call 5
    dash.flush();
    QCOMPARE(dash.bestSeries()->points(), (QList<QPointF>{{2, 2.0}, {4, 2.0}, {4, 3.0}, {5, 3.0}}));
    dash.addCell(cell(QStringLiteral("b0a2"), 4.0, 0.1, 55));
    dash.flush();
    QCOMPARE(dash.bestSeries()->points(), (QList<QPointF>{{2, 2.0}, {4, 2.0}, {4, 3.0}, {6, 3.0}, {6, 4.0}}));
    QCOMPARE(dash.costSeries()->points().last(), QPointF(55, 1.2));
    // A long round: the cost curve is drawn thinned, its last point exact.
    for (int i = 0; i < 3000; ++i)
        dash.addCell(cell(QStringLiteral("x"), std::nullopt, 0.001, 60 + i));
    dash.flush();
    QCOMPARE(dash.costPoints().size(), 3007);
    QVERIFY(dash.costSeries()->count() <= LiveDashboard::MaxCostPoints + 1);
    QCOMPARE(dash.costSeries()->points().last(), dash.costPoints().last());
    QCOMPARE(dash.bestSeries()->points().last(), QPointF(3006, 4.0));
    dash.reset(start);
    QCOMPARE(dash.bestSeries()->count(), 0);
    QCOMPARE(dash.costSeries()->count(), 1);
    QCOMPARE(dash.calls(), 0);
}

void TestGuiRound::stopFromThePanel()
{
    ProjectStore store;
    take(store.create(m_dir->filePath(QStringLiteral("stop.dreamrsi")), ProjectInfo()));
    addPolicy(store);
    RoundPanel panel(&store);
    panel.showProject(store.path()); // as the window does when it opens the project
    auto agent = std::make_shared<test::FakeAgent>();
    agent->closeGate();
    QSignalSpy finished(&panel, &RoundPanel::roundFinished);
    QVERIFY(panel.controller()->start(toyOptions(), agent));
    QTRY_COMPARE_WITH_TIMEOUT(panel.model()->runningCount(), 2, 60000);
    panel.stopAction()->trigger();
    QCOMPARE(panel.stopAction()->text(), QStringLiteral("&Kill Running Attempts"));
    agent->openGate();
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 60000);
    QCOMPARE(finished.first().at(1).toString(), QStringLiteral("stopped"));
    QCOMPARE(panel.model()->cellCount(), 2);
    // The state names the cells and, only when there were any, the rounds: never "in 0 rounds".
    const QString state = panel.findChild<QLabel *>(QStringLiteral("roundState"))->text();
    QVERIFY2(state.contains(QStringLiteral("stopped: 2 cell")) && state.contains(QStringLiteral(" in 1 round")), qPrintable(state));
    // A round that stored a cell before any policy round ended: no "in 0 rounds".
    RoundSummary early;
    early.iteration = 99;
    early.status = IterationStatus::Stopped;
    early.counters.cells = 1;
    early.counters.rounds = 0;
    emit panel.controller()->finished(early, false);
    const QString earlyState = panel.findChild<QLabel *>(QStringLiteral("roundState"))->text();
    QVERIFY2(earlyState.contains(QStringLiteral("Iteration 99")) && earlyState.contains(QStringLiteral("1 cell"))
                 && !earlyState.contains(QStringLiteral("round")),
             qPrintable(earlyState));
    const qint64 iteration = finished.first().at(0).toLongLong();
    QCOMPARE(take(store.iterationData(iteration)).info.status, IterationStatus::Stopped);

    // The same project opened again (as after a round) keeps the stopped
    // round on show; another project clears it, so that nothing of this
    // round reads as the other project's.
    auto *log = panel.findChild<QPlainTextEdit *>(QStringLiteral("roundLog"));
    QVERIFY(!log->toPlainText().isEmpty());
    panel.showProject(store.path());
    QCOMPARE(panel.model()->cellCount(), 2);
    QVERIFY(!log->toPlainText().isEmpty());
    panel.showProject(m_dir->filePath(QStringLiteral("another.dreamrsi")));
    QCOMPARE(panel.model()->cellCount(), 0);
    QVERIFY(log->toPlainText().isEmpty());
    QVERIFY(panel.findChild<QLabel *>(QStringLiteral("roundCounters"))->text().isEmpty());
    QCOMPARE(panel.findChild<QLabel *>(QStringLiteral("roundState"))->text(), QStringLiteral("No round running"));
    take(store.close());
}

void TestGuiRound::dialogRemembersChoices()
{
    {
        Preferences preferences; // the ones in this test's QSettings
        LaunchRoundDialog dialog({QStringLiteral("v7")}, &preferences);
        qobject_cast<QSpinBox *>(dialog.field(QStringLiteral("workers")))->setValue(7);
        qobject_cast<QSpinBox *>(dialog.field(QStringLiteral("rounds")))->setValue(3);
        qobject_cast<QSpinBox *>(dialog.field(QStringLiteral("maxTokens")))->setValue(250000);
        auto *policy = qobject_cast<QComboBox *>(dialog.field(QStringLiteral("policy")));
        policy->setCurrentIndex(policy->findData(QStringLiteral("v7")));
        qobject_cast<QComboBox *>(dialog.field(QStringLiteral("task")))->setCurrentText(QStringLiteral("lasso_path"));
        qobject_cast<QLineEdit *>(dialog.field(QStringLiteral("partition")))->setText(QStringLiteral("gpu"));
        dialog.accept();
        QCOMPARE(dialog.result(), int(QDialog::Accepted));
    }
    // The cluster is stored once, as the preferences (Settings and re-evaluation on Slurm read it there).
    QCOMPARE(AppSettings::load().slurmPartition, QStringLiteral("gpu"));
    QCOMPARE(AppSettings::load().slurm().partition, QStringLiteral("gpu"));
    Preferences stored; // the next session's, read from QSettings
    LaunchRoundDialog again({QStringLiteral("v7")}, &stored);
    QCOMPARE(qobject_cast<QLineEdit *>(again.field(QStringLiteral("partition")))->text(), QStringLiteral("gpu"));
    const RoundConfig c = again.config();
    QCOMPARE(c.workers, std::optional<int>(7));
    QCOMPARE(c.maxRounds.value_or(0), 3);
    QCOMPARE(c.maxTokens, std::optional<qint64>(250000)); // the token budget (RoundBudget)
    QVERIFY(!c.maxCalls && !c.maxUsd);                      // "no cap"
    QCOMPARE(c.policy, PolicyChoice::stored(QStringLiteral("v7")));
    QCOMPARE(c.task, QStringLiteral("lasso_path"));
    QVERIFY(!c.beta); // the policy's default

    // Probe calls: automatic leaves the choice to the round; Early probes is `--probe early`.
    QVERIFY(!c.probe);
    auto *probe = qobject_cast<QSpinBox *>(again.field(QStringLiteral("probe")));
    auto *early = qobject_cast<QCheckBox *>(again.field(QStringLiteral("earlyProbe")));
    QVERIFY(probe && early);
    QVERIFY(!early->isChecked());
    probe->setValue(4);
    QCOMPARE(again.config().probe, std::optional<ProbeSetting>(ProbeSetting::calls(4)));
    early->setChecked(true);
    QVERIFY(!probe->isEnabled());
    QCOMPARE(again.config().probe, std::optional<ProbeSetting>(ProbeSetting::early()));
    early->setChecked(false);
    QVERIFY(probe->isEnabled());
    QCOMPARE(again.config().probe, std::optional<ProbeSetting>(ProbeSetting::calls(4)));

    // The command agent's environment: names only, on for the command agent.
    auto *agent = qobject_cast<QComboBox *>(again.field(QStringLiteral("agent")));
    auto *allowEnv = qobject_cast<QLineEdit *>(again.field(QStringLiteral("allowEnv")));
    QVERIFY(agent && allowEnv);
    QVERIFY(!allowEnv->isEnabled()); // the built-in agent runs no command
    agent->setCurrentText(QStringLiteral("command"));
    QVERIFY(allowEnv->isEnabled());
    qobject_cast<QLineEdit *>(again.field(QStringLiteral("command")))->setText(QStringLiteral("my-agent"));
    allowEnv->setText(QStringLiteral("MY_API_KEY, MY_BASE_URL"));
    QCOMPARE(again.config().agent.allowedEnvironment, (QStringList{QStringLiteral("MY_API_KEY"), QStringLiteral("MY_BASE_URL")}));
    again.accept();
    QCOMPARE(again.result(), int(QDialog::Accepted));
    LaunchRoundDialog third({QStringLiteral("v7")}, &stored);
    QCOMPARE(third.config().agent.allowedEnvironment, (QStringList{QStringLiteral("MY_API_KEY"), QStringLiteral("MY_BASE_URL")}));
}

// Launch Round's Check (issue 53): a failed check paints only the failed
// lines red, the pane is tall enough for the whole report (it scrolled at 8
// lines), the report goes once an option it was made with changes (a failed
// report stayed after switching to the built-in agent), and the key line of
// a non-OpenAI agent carries no aside about OpenAI-compatible servers.
void TestGuiRound::checkReportFitsMarksFailuresAndGoesStale()
{
    const QString path = m_dir->filePath(QStringLiteral("check.dreamrsi"));
    {
        ProjectStore store;
        take(store.create(path, ProjectInfo()));
        take(store.close());
    }
    const QByteArray savedKey = qgetenv("ANTHROPIC_API_KEY");
    qunsetenv("ANTHROPIC_API_KEY");
    Preferences preferences;
    LaunchRoundDialog dialog({}, &preferences);
    dialog.setProjectPath(path);
    dialog.show();
    qobject_cast<QComboBox *>(dialog.field(QStringLiteral("task")))->setCurrentText(test::toyTaskDir());
    auto *agent = qobject_cast<QComboBox *>(dialog.field(QStringLiteral("agent")));
    agent->setCurrentText(QStringLiteral("anthropic"));
    auto *key = qobject_cast<QLabel *>(dialog.field(QStringLiteral("keyStatus")));
    QCOMPARE(key->text(), QStringLiteral("ANTHROPIC_API_KEY is not set"));
    QVERIFY(key->wordWrap());

    auto *report = dialog.findChild<QPlainTextEdit *>(QStringLiteral("checkReport"));
    QVERIFY(report);
    QSignalSpy finished(&dialog, &LaunchRoundDialog::checkFinished);
    dialog.check();
    QVERIFY(finished.wait(120000));
    QCOMPARE(finished.first().first().toBool(), false);
    QVERIFY(report->isVisible());
    // Red on the failed lines only.
    int red = 0, plain = 0;
    for (QTextBlock block = report->document()->begin(); block.isValid(); block = block.next()) {
        if (block.text().isEmpty())
            continue;
        bool isRed = false;
        for (auto it = block.begin(); !it.atEnd(); ++it)
            isRed = isRed || it.fragment().charFormat().foreground().color() == QColor(0xb0, 0x00, 0x20);
        const bool failedLine = block.text().startsWith(QLatin1String("FAILED")) || block.text().startsWith(QLatin1String("not ready"));
        QVERIFY2(isRed == failedLine, qPrintable(block.text()));
        (isRed ? red : plain) += 1;
    }
    QVERIFY(red >= 2);  // the agent check and the verdict
    QVERIFY(plain >= 3); // the checks that passed, the estimate
    QVERIFY2(report->toPlainText().contains(QStringLiteral("FAILED agent")), qPrintable(report->toPlainText()));
    // The whole report in sight, no scrolling.
    QApplication::processEvents();
    QCOMPARE(report->verticalScrollBar()->maximum(), 0);

    // Switching to the built-in agent: the failed report goes.
    agent->setCurrentText(QStringLiteral("builtin"));
    QVERIFY(report->isHidden());
    QVERIFY(report->toPlainText().isEmpty());
    if (!savedKey.isNull())
        qputenv("ANTHROPIC_API_KEY", savedKey);
}

void TestGuiRound::dialogLabelsShowNoAmpersand()
{
    // A label with a mnemonic needs a buddy: without one Qt draws the '&'
    // itself ("&Task:", "&β:" were shown so). Every mnemonic is used once.
    Preferences preferences;
    LaunchRoundDialog dialog({}, &preferences);
    dialog.show();
    QHash<QChar, QString> keys;
    auto mnemonic = [](QString text) -> std::optional<QChar> {
        text.remove(QStringLiteral("&&"));
        const qsizetype amp = text.indexOf(QLatin1Char('&'));
        if (amp < 0 || amp + 1 >= text.size())
            return std::nullopt;
        return text.at(amp + 1).toLower();
    };
    int labelled = 0;
    for (QLabel *label : dialog.findChildren<QLabel *>()) {
        const std::optional<QChar> key = mnemonic(label->text());
        if (!key)
            continue;
        QVERIFY2(label->buddy(), qPrintable(QStringLiteral("'%1' has no buddy: its '&' is shown").arg(label->text())));
        QVERIFY2(!keys.contains(*key), qPrintable(QStringLiteral("'%1' and '%2'").arg(label->text(), keys.value(*key))));
        keys.insert(*key, label->text());
        ++labelled;
    }
    for (QAbstractButton *button : dialog.findChildren<QAbstractButton *>()) {
        if (const std::optional<QChar> key = mnemonic(button->text())) {
            QVERIFY2(!keys.contains(*key), qPrintable(QStringLiteral("'%1' and '%2'").arg(button->text(), keys.value(*key))));
            keys.insert(*key, button->text());
        }
    }
    QVERIFY(labelled >= 12); // task, agent, model, URL, command, W, K1, policy, β, seed, calls, cost, backend
    for (const QString &text : {QStringLiteral("&Task:"), QStringLiteral("&Beta (β):")}) {
        bool found = false;
        for (QLabel *label : dialog.findChildren<QLabel *>())
            found = found || label->text() == text;
        QVERIFY2(found, qPrintable(text));
    }
}

void TestGuiRound::resumeOnlyWithSomethingToResume()
{
    ProjectStore store;
    take(store.create(m_dir->filePath(QStringLiteral("resume.dreamrsi")), ProjectInfo()));
    addPolicy(store);
    RoundPanel panel(&store);
    QSignalSpy checked(panel.controller(), &RoundController::resumableChecked);
    QSignalSpy logged(panel.controller(), &RoundController::logLine);
    // A new project: nothing to resume.
    QTRY_VERIFY_WITH_TIMEOUT(checked.count() >= 1, 30000);
    QCOMPARE(checked.last().at(0).toBool(), false);
    QVERIFY(!panel.resumeAction()->isEnabled());
    QVERIFY(panel.launchAction()->isEnabled());

    // A stopped round can be resumed.
    auto agent = std::make_shared<test::FakeAgent>();
    agent->closeGate();
    QSignalSpy finished(&panel, &RoundPanel::roundFinished);
    QVERIFY(panel.controller()->start(toyOptions(), agent));
    QVERIFY(!panel.resumeAction()->isEnabled());
    QTRY_COMPARE_WITH_TIMEOUT(panel.model()->runningCount(), 2, 60000);
    panel.stopAction()->trigger();
    agent->openGate();
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 60000);
    QCOMPARE(finished.first().at(1).toString(), QStringLiteral("stopped"));
    const qint64 iteration = finished.first().at(0).toLongLong();
    QTRY_VERIFY_WITH_TIMEOUT(panel.resumeAction()->isEnabled(), 30000);

    // A new round says that the stopped one stays stopped; stopped too, it is
    // the one Resume offers first (the most recent).
    agent->closeGate();
    QVERIFY(panel.controller()->start(toyOptions(), agent));
    QVERIFY(std::any_of(logged.cbegin(), logged.cend(), [&](const QList<QVariant> &line) {
        return line.at(0).toString().startsWith(QStringLiteral("Iteration %1 stays stopped").arg(iteration));
    }));
    QTRY_COMPARE_WITH_TIMEOUT(panel.model()->runningCount(), 2, 60000);
    panel.stopAction()->trigger();
    agent->openGate();
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 2, 60000);
    const qint64 second = finished.last().at(0).toLongLong();
    QVERIFY(second > iteration);
    QTRY_VERIFY_WITH_TIMEOUT(panel.resumeAction()->isEnabled(), 30000);
    panel.resumeAction()->trigger();
    QInputDialog *choose = nullptr;
    QTRY_VERIFY_WITH_TIMEOUT((choose = panel.findChild<QInputDialog *>()) != nullptr, 30000);
    // A title the window manager does not cut (issue 53); what to do is in the label.
    QCOMPARE(choose->windowTitle(), QStringLiteral("Resume"));
    QCOMPARE(choose->labelText(), QStringLiteral("Iteration to resume:"));
    const QStringList offered = choose->comboBoxItems();
    QCOMPARE(offered.size(), 2);
    QVERIFY2(offered.first().startsWith(QStringLiteral("Iteration %1 (stopped").arg(second)), qPrintable(offered.join(QLatin1Char('|'))));
    QVERIFY2(offered.last().startsWith(QStringLiteral("Iteration %1 (stopped").arg(iteration)), qPrintable(offered.join(QLatin1Char('|'))));
    // Choosing one opens Launch Round for it: the task shown is the iteration's own and cannot be edited.
    choose->setTextValue(offered.first());
    choose->accept();
    LaunchRoundDialog *resume = nullptr;
    QTRY_VERIFY_WITH_TIMEOUT((resume = panel.findChild<LaunchRoundDialog *>()) != nullptr, 30000);
    auto *task = qobject_cast<QComboBox *>(resume->field(QStringLiteral("task")));
    QVERIFY(task);
    QVERIFY(!task->isEnabled());
    QCOMPARE(task->currentText(), toyConfig().task);
    resume->reject();
    QTRY_VERIFY(!panel.findChild<LaunchRoundDialog *>());
    QRegularExpression cells(QStringLiteral("\\d cell\\(s\\)|\\d cells?"));
    QVERIFY2(cells.match(offered.first()).hasMatch(), qPrintable(offered.first()));

    // Resumed to their ends: nothing is left to resume.
    // The second as Resume Round does it: the task left to the iteration's
    // own, read from the store before the round starts.
    for (const qint64 id : {second, iteration}) {
        RoundConfig config = toyConfig();
        config.resume = id;
        const RoundOptions options =
            id == second ? RoundController::resumeOptions(toyOptions(), id) : RoundOptions{config, std::nullopt};
        const qsizetype before = finished.count();
        QVERIFY(panel.controller()->start(options, std::make_shared<test::FakeAgent>()));
        QVERIFY(!panel.resumeAction()->isEnabled());
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), before + 1, 120000);
        QCOMPARE(finished.last().at(1).toString(), QStringLiteral("finished"));
    }
    // The store's answer once the round ended (until it comes, Resume may show the earlier one).
    QTRY_VERIFY_WITH_TIMEOUT(!panel.resumeAction()->isEnabled(), 30000);
    QCOMPARE(checked.last().at(0).toBool(), false);
    QVERIFY(panel.launchAction()->isEnabled());
    take(store.close());
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
    // One signal per item from the status to the time (a range of items
    // makes an item view repaint all it shows, at every report of a round).
    QCOMPARE(changed.count(), LiveTreeModel::TimeColumn - LiveTreeModel::StatusColumn + 1);
    for (const QList<QVariant> &signal : std::as_const(changed)) {
        const QModelIndex first = signal.at(0).toModelIndex();
        QCOMPARE(signal.at(1).toModelIndex(), first);
        QCOMPARE(first.parent(), branch);
        QVERIFY(first.column() >= LiveTreeModel::StatusColumn && first.column() <= LiveTreeModel::TimeColumn);
    }
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

void TestGuiRound::cancelFromTheStatusBar()
{
    ProjectStore store;
    take(store.create(m_dir->filePath(QStringLiteral("cancel.dreamrsi")), ProjectInfo()));
    addPolicy(store);
    QMainWindow window;
    auto *panel = new RoundPanel(&store);
    // As the main window places it: the panel in the window, its status in the status bar.
    window.setCentralWidget(panel);
    window.statusBar()->addPermanentWidget(panel->statusWidget());
    window.show();
    auto *cancel = window.statusBar()->findChild<QToolButton *>(QStringLiteral("roundCancel"));
    auto *bar = window.statusBar()->findChild<QProgressBar *>(QStringLiteral("roundProgress"));
    QVERIFY(cancel && bar);
    QVERIFY(!panel->statusWidget()->isVisible()); // no round: nothing in the status bar
    auto agent = std::make_shared<test::FakeAgent>();
    agent->closeGate();
    QSignalSpy finished(panel, &RoundPanel::roundFinished);
    QVERIFY(panel->controller()->start(toyOptions(), agent));
    QVERIFY(panel->statusWidget()->isVisible());
    QTRY_COMPARE_WITH_TIMEOUT(panel->model()->runningCount(), 2, 60000);
    // Planned: the policy's 3 x 2 grid, 3 attempts per branch; none finished.
    QCOMPARE(bar->maximum(), 9);
    QCOMPARE(bar->value(), 0);
    // The number stands beside the bar, where its fill cannot cover it.
    QVERIFY(!bar->isTextVisible());
    QCOMPARE(panel->statusWidget()->text()->text(), QStringLiteral("0 of 9 attempts"));
    // Probe calls past the plan are counted, never "11 of 9".
    panel->statusWidget()->setProgress(11, 9);
    QCOMPARE(panel->statusWidget()->text()->text(), QStringLiteral("11 of 11 attempts"));
    QCOMPARE(bar->value(), bar->maximum());
    panel->statusWidget()->setProgress(0, 9);
    QVERIFY(panel->statusWidget()->text()->isVisible());
    QVERIFY(cancel->isEnabled());
    QTest::mouseClick(cancel, Qt::LeftButton);
    QCOMPARE(panel->stopAction()->text(), QStringLiteral("&Kill Running Attempts"));
    QTest::mouseClick(cancel, Qt::LeftButton); // the second press kills the held attempts
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 60000);
    QCOMPARE(finished.first().at(1).toString(), QStringLiteral("stopped"));
    QCOMPARE(panel->model()->cellCount(), 0); // killed attempts are not stored
    QCOMPARE(panel->model()->runningCount(), 0);
    QVERIFY(!panel->statusWidget()->isVisible());
    QVERIFY(!cancel->isEnabled());
    const qint64 iteration = finished.first().at(0).toLongLong();
    QCOMPARE(take(store.iterationData(iteration)).info.status, IterationStatus::Stopped);
    agent->openGate();
    take(store.close());
}

void TestGuiRound::bigRoundListsBranchesCollapsed()
{
    // A small round's list shows every branch's attempts; past a thousand
    // attempt rows the branches are collapsed (a row inserted under an
    // expanded branch lays the whole list out again), and later ones stay so.
    RoundPanel panel(nullptr);
    LiveTreeModel *model = panel.model();
    QTreeView *list = panel.cellList();
    auto stored = [](int branch, int attempt) {
        Cell c;
        c.id = QStringLiteral("b%1a%2").arg(branch).arg(attempt);
        c.branch = branch;
        c.attempt = attempt;
        c.seq = branch * 1000 + attempt;
        c.evaluated = true;
        c.score = 1.0;
        c.failClass = QStringLiteral("ok");
        return c;
    };
    for (int b = 0; b < 10; ++b)
        model->addCell(stored(b, 0));
    QVERIFY(list->isExpanded(model->index(0, 0)));
    QVERIFY(list->isExpanded(model->index(9, 0)));
    for (int a = 1; a < 110; ++a) {
        for (int b = 0; b < 10; ++b)
            model->addCell(stored(b, a));
    }
    QCOMPARE(model->attemptCount(), 1100);
    QVERIFY(!list->isExpanded(model->index(0, 0)));
    model->addCell(stored(10, 0)); // a new branch of a big round
    QVERIFY(!list->isExpanded(model->index(10, 0)));
    list->expand(model->index(3, 0)); // opened by hand: stays open
    model->addCell(stored(3, 110));
    QVERIFY(list->isExpanded(model->index(3, 0)));
    model->reset({}); // the next round starts small again
    model->addCell(stored(0, 0));
    QVERIFY(list->isExpanded(model->index(0, 0)));
}

QTEST_MAIN(TestGuiRound)
#include "tst_gui_round.moc"
