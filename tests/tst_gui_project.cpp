// The GUI path and the CLI path on the same project give identical numbers:
// the window (ProjectSession) loads what `dreamrsi replay --project` stored
// with the CLI's values, a replay started in the window is judged by
// `dreamrsi approve` exactly as the approval dialog judges it, and the
// workspace's row signals let the project dock insert rows.
#include "clirunsupport.h"
#include "policies/approvaldialog.h"
#include "policies/policiespage.h"
#include "replayview/frontierpage.h"
#include "session/projectsession.h"
#include "models/workspace.h"
#include "window/mainwindow.h"
#include "models/projecttreemodel.h"
#include "window/settingsdialog.h"

#include <QAbstractItemModelTester>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSpinBox>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace dreamrsi;

namespace {

using Run = dreamrsi::test::TextRun;
using dreamrsi::test::runText;

QString fixture(const char *name)
{
    return QStringLiteral(DREAMRSI_SOURCE_DIR "/tests/data/project/") + QLatin1String(name);
}

} // namespace

class TestGuiProject : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("DreamRSI-tests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_gui_project"));
        QSettings().clear();
    }

    void guiAndCliAgree()
    {
        QTemporaryDir dir;
        const QString p = dir.filePath(QStringLiteral("p.dreamrsi"));
        QCOMPARE(runText({QStringLiteral("project"), QStringLiteral("new"), p}).exitCode, 0);
        Run r = runText({QStringLiteral("import"), p, fixture("alpha.json"), fixture("beta.json"), fixture("flat.json")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        // Both value the worlds as revealed here (tst_gui_imagination covers completions).
        r = runText({QStringLiteral("project"), QStringLiteral("config"), p, QStringLiteral("--valuation"), QStringLiteral("revealed")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        // The CLI replays one built-in with the workbench's default parameters.
        const AppSettings defaults;
        QStringList betas;
        for (const double b : defaults.betas)
            betas.append(QString::number(b));
        r = runText({QStringLiteral("replay"), QStringLiteral("--project"), p, QStringLiteral("--policy"),
                 QStringLiteral("builtin:portfolio"), QStringLiteral("--workers"), QString::number(defaults.workers),
                 QStringLiteral("--lambda"), QString::number(defaults.lambda), QStringLiteral("--betas"),
                 betas.join(QLatin1Char(',')), QStringLiteral("--json")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonObject cliResult = QJsonDocument::fromJson(r.out.toUtf8()).object();

        auto window = std::make_unique<MainWindow>();
        MainWindow &w = *window;
        ProjectTreeModel *model = w.projectModel();
        QAbstractItemModelTester tester(model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy inserted(model, &QAbstractItemModel::rowsInserted);
        QSignalSpy reset(model, &QAbstractItemModel::modelReset);
        QSignalSpy stages(w.session(), &ProjectSession::stageReached);
        QSignalSpy loaded(&w, &MainWindow::projectLoaded);
        w.openProject(p);
        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, 60000);
        QCOMPARE(stages.count(), 6); // opened, seeded, worlds, versions, results, approvals
        QCOMPARE(stages.last().at(0).value<ProjectSession::Stage>(), ProjectSession::Stage::Approvals);
        QCOMPARE(reset.count(), 0); // rows were inserted, never reset
        QVERIFY(inserted.count() >= 3);
        Workspace *ws = w.workspace();
        QCOMPARE(ws->worlds().size(), 3);
        QCOMPARE(ws->worlds().at(0).name, QStringLiteral("alpha"));

        // 1. What the CLI stored, the window shows with the same numbers.
        const ReplayResultPtr stored = ws->result(QStringLiteral("builtin:portfolio"));
        QVERIFY(stored);
        QCOMPARE(QJsonValue(*stored->value), cliResult.value(QStringLiteral("value")));
        const QJsonArray cliWorlds = cliResult.value(QStringLiteral("worlds")).toArray();
        for (qsizetype i = 0; i < stored->worlds.size(); ++i) {
            const QJsonObject cw = cliWorlds.at(i).toObject();
            QCOMPARE(stored->worlds.at(i).world, cw.value(QStringLiteral("world")).toString());
            QCOMPARE(stored->worlds.at(i).hypervolume ? QJsonValue(*stored->worlds.at(i).hypervolume) : QJsonValue(QJsonValue::Null),
                     cw.value(QStringLiteral("hypervolume")));
        }

        // 2. The same version replayed in the window (a child process, the
        // workbench's settings): the same value, judged by the CLI exactly as
        // by the approval dialog.
        const QString version = QStringLiteral("builtin:portfolio");
        QSignalSpy storedSpy(&w, &MainWindow::resultsStored);
        w.replayVersions({version});
        QTRY_COMPARE_WITH_TIMEOUT(storedSpy.count(), 1, 120000);
        QVERIFY(ws->result(version) != stored);
        QCOMPARE(QJsonValue(*ws->result(version)->value), cliResult.value(QStringLiteral("value")));
        const ApprovalComparison dialog = ApprovalDialog::compare(*ws, version);
        QVERIFY(dialog.approvable());
        r = runText({QStringLiteral("approve"), QStringLiteral("--project"), p, QStringLiteral("--version"), version,
                 QStringLiteral("--by"), QStringLiteral("Ada"), QStringLiteral("--json")});
        // The window holds the project open for writing: the CLI is refused, naming the holder …
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(QStringLiteral("open")), qPrintable(r.err));
        window.reset(); // the store finishes its writes and closes
        // … and once the window let go, it records exactly the evidence the dialog showed.
        r = runText({QStringLiteral("approve"), QStringLiteral("--project"), p, QStringLiteral("--version"), version,
                 QStringLiteral("--by"), QStringLiteral("Ada"), QStringLiteral("--json")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonObject evidence = QJsonDocument::fromJson(r.out.toUtf8()).object().value(QStringLiteral("evidence")).toObject();
        QCOMPARE(evidence, dialog.evidence);
    }

    // A world's name shows once in the project dock ("iteration 1", not
    // "iteration 1 (iteration 1)"), followed by the task it ran.
    void worldNamesShowOnce()
    {
        Workspace ws;
        Cell cell;
        cell.id = QStringLiteral("b0a0");
        cell.score = 1.0;
        TreeMeta live;
        live.task = QStringLiteral("circle_packing_26");
        live.iteration = 1;
        const std::optional<DiscoveryTree> round = DiscoveryTree::build(live, {cell});
        const std::optional<DiscoveryTree> imported = DiscoveryTree::build(TreeMeta(), {cell});
        QVERIFY(round && imported);
        ws.addWorld({QStringLiteral("iteration 1"), QString(), 1, std::make_shared<const DiscoveryTree>(*round)});
        ws.addWorld({QStringLiteral("alpha"), QString(), 2, std::make_shared<const DiscoveryTree>(*imported)});
        ProjectTreeModel model(&ws);
        const QModelIndex worlds = model.groupIndex(ProjectTreeModel::WorldsGroup);
        QCOMPARE(model.rowCount(worlds), 2);
        QCOMPARE(model.index(0, 0, worlds).data().toString(), QStringLiteral("iteration 1 — circle_packing_26"));
        QCOMPARE(model.index(1, 0, worlds).data().toString(), QStringLiteral("alpha"));
        // A long name, cut by the narrow dock, is whole in its tooltip.
        const QString longName = QStringLiteral("a world imported from a tree file with a rather long name indeed");
        ws.addWorld({longName, QStringLiteral("/data/") + longName + QStringLiteral(".json"), 0,
                     std::make_shared<const DiscoveryTree>(*imported)});
        QCOMPARE(model.rowCount(worlds), 3);
        for (int row = 0; row < model.rowCount(worlds); ++row) {
            const QModelIndex i = model.index(row, 0, worlds);
            QVERIFY2(i.data(Qt::ToolTipRole).toString().startsWith(i.data().toString()),
                     qPrintable(i.data(Qt::ToolTipRole).toString()));
        }
    }

    // A live world grows one cell at a time: the cell table inserts rows.
    // The window's paths use the project's replay configuration: the values
    // it loads, the Policies and Frontiers tabs and the approval dialog say
    // which; Settings shows it, and changing it there asks whether to replay
    // the stale versions and does so as a replay job.
    void settingsChangeTheProjectConfiguration()
    {
        QTemporaryDir dir;
        const QString p = dir.filePath(QStringLiteral("c.dreamrsi"));
        QCOMPARE(runText({QStringLiteral("project"), QStringLiteral("new"), p}).exitCode, 0);
        Run r = runText({QStringLiteral("import"), p, fixture("alpha.json"), fixture("beta.json")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        r = runText({QStringLiteral("project"), QStringLiteral("config"), p, QStringLiteral("--workers"), QStringLiteral("4"),
                 QStringLiteral("--betas"), QStringLiteral("0,0.5,1")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        r = runText({QStringLiteral("replay"), QStringLiteral("--project"), p, QStringLiteral("--policy"),
                 QStringLiteral("builtin:portfolio"), QStringLiteral("--json")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const double cliValue = QJsonDocument::fromJson(r.out.toUtf8()).object().value(QStringLiteral("value")).toDouble();

        auto window = std::make_unique<MainWindow>();
        MainWindow &w = *window;
        QSignalSpy loaded(&w, &MainWindow::projectLoaded);
        w.openProject(p);
        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, 60000);
        Workspace *ws = w.workspace();
        QVERIFY(ws->replayConfig());
        const ReplayConfig four = ws->replayConfig()->config;
        QCOMPARE(four.workers, 4);
        QCOMPARE(w.replayConfig().workers, 4);
        const QString version = QStringLiteral("builtin:portfolio");
        QVERIFY(ws->result(version));
        QCOMPARE(*ws->result(version)->value, cliValue);
        auto *policiesLabel = w.policiesPage()->findChild<QLabel *>(QStringLiteral("policiesReplayConfig"));
        QVERIFY(policiesLabel);
        QVERIFY2(policiesLabel->text().contains(four.label()), qPrintable(policiesLabel->text()));
        auto *frontiersLabel = w.frontierPage()->findChild<QLabel *>(QStringLiteral("frontiersReplayConfig"));
        QVERIFY(frontiersLabel);
        QVERIFY2(frontiersLabel->text().contains(four.label()), qPrintable(frontiersLabel->text()));
        {
            ApprovalDialog approval(*ws, version, nullptr);
            auto *label = approval.findChild<QLabel *>(QStringLiteral("approvalReplayConfig"));
            QVERIFY(label);
            QVERIFY2(label->text().contains(four.label()), qPrintable(label->text()));
            QCOMPARE(approval.comparison().evidence.value(QStringLiteral("replay")).toObject(), four.toJson());
        }

        // Settings shows the project's configuration; W 3 there makes portfolio stale.
        QAction *settings = w.findChild<QAction *>(QStringLiteral("actionSettings"));
        QVERIFY(settings);
        settings->trigger();
        SettingsDialog *dialog = nullptr;
        QTRY_VERIFY((dialog = w.findChild<SettingsDialog *>()));
        auto *workers = dialog->findChild<QSpinBox *>(QStringLiteral("replayWorkers"));
        auto *betas = dialog->findChild<QLineEdit *>(QStringLiteral("replayBetas"));
        QVERIFY(workers && betas);
        QCOMPARE(workers->value(), 4);
        QCOMPARE(betas->text(), QStringLiteral("0, 0.5, 1"));
        QVERIFY(dialog->projectReplayConfig());
        workers->setValue(3);
        dialog->accept();
        QMessageBox *ask = nullptr;
        QTRY_VERIFY_WITH_TIMEOUT((ask = w.findChild<QMessageBox *>(QStringLiteral("staleReplayQuestion"))), 30000);
        QVERIFY2(ask->text().contains(version), qPrintable(ask->text()));
        QCOMPARE(ws->replayConfig()->config.workers, 3);
        QCOMPARE(ws->replayConfig()->origin, ReplayConfigOrigin::User);
        QVERIFY(!ws->result(version)); // its value was under W 4: not shown as the project's
        QCOMPARE(ws->otherResults().size(), 1);
        QCOMPARE(ws->otherResults().first().config.workers, 4);
        QVERIFY(policiesLabel->text().contains(QStringLiteral("W 4")));
        QSignalSpy stored(&w, &MainWindow::resultsStored);
        ask->button(QMessageBox::Yes)->click();
        QTRY_COMPARE_WITH_TIMEOUT(stored.count(), 1, 120000);
        QVERIFY(ws->result(version));
        QCOMPARE(ws->result(version)->workers, 3);
        QTRY_VERIFY_WITH_TIMEOUT(ws->staleVersions().isEmpty(), 30000);
        window.reset();
        // What the window stored is the project's value under W 3.
        r = runText({QStringLiteral("project"), QStringLiteral("config"), p, QStringLiteral("--json")});
        const QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(o.value(QStringLiteral("config")).toObject().value(QStringLiteral("workers")).toInt(), 3);
        QVERIFY(o.value(QStringLiteral("stale")).toArray().isEmpty());
    }

    void appendCellInsertsRows()
    {
        Workspace ws;
        Cell first;
        first.id = QStringLiteral("b0a0");
        first.score = 1.0;
        const std::optional<DiscoveryTree> seed = DiscoveryTree::build(TreeMeta(), {first});
        QVERIFY(seed);
        ws.addWorld({QStringLiteral("live"), QString(), 9, std::make_shared<const DiscoveryTree>(*seed)});
        QSignalSpy appended(&ws, &Workspace::cellAppended);
        for (int a = 1; a < 3; ++a) {
            Cell c;
            c.id = QStringLiteral("b0a%1").arg(a);
            c.branch = 0;
            c.attempt = a;
            c.seq = a;
            c.score = 1.0 + a;
            const Result<Done> r = ws.appendCell(0, c);
            QVERIFY2(r.ok(), qPrintable(r.error));
        }
        QCOMPARE(appended.count(), 2);
        QCOMPARE(appended.last().at(1).toInt(), 2);
        QCOMPARE(ws.worlds().first().tree->cellCount(), 3);
        Cell gap;
        gap.id = QStringLiteral("b0a9");
        gap.branch = 0;
        gap.attempt = 9;
        gap.seq = 9;
        QVERIFY(!ws.appendCell(0, gap).ok()); // an attempt gap does not fit
        QCOMPARE(ws.worlds().first().tree->cellCount(), 3);
    }
};

QTEST_MAIN(TestGuiProject)
#include "tst_gui_project.moc"
