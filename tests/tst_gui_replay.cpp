// Replay views: the stepper against the engine's trace, the replay page,
// sweeps with cancel, the policy table (model tester), new versions,
// frontiers, stored results round trip, a project opened in the window, and
// Replay Selected Versions valuing under the project's configuration.
#include "figures/plotstyle.h"
#include "figures/qcp.h"
#include "model/treejson.h"
#include "policies/approvaldialog.h"
#include "policies/policiespage.h"
#include "models/policytablemodel.h"
#include "replay/replayengine.h"
#include "replayview/frontierpage.h"
#include "replayview/replaypage.h"
#include "replayview/stepperstate.h"
#include "session/jobtracker.h"
#include "session/preferences.h"
#include "session/replayjobs.h"
#include "session/sweeprunner.h"
#include "models/workspace.h"
#include "tree/treeview.h"
#include "window/mainwindow.h"
#include "models/projecttreemodel.h"
#include "store/projectwriter.h"

#include <QAbstractItemModelTester>
#include <QScopeGuard>
#include <QAction>
#include <QCheckBox>
#include <QJsonArray>
#include <QLineEdit>
#include <QListWidget>
#include <QTableWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTableView>
#include <QTemporaryDir>
#include "demotrees.h"

#include <QtTest>

using namespace dreamrsi;

namespace {
using test::demoTree;

void addDemoWorlds(Workspace &ws)
{
    ws.addWorld({QStringLiteral("cp1"), QStringLiteral("/demo/cp1.json"), 0, demoTree("circle-packing-iter1.json")});
    ws.addWorld({QStringLiteral("c3"), QStringLiteral("/demo/c3.json"), 0, demoTree("c3-iter1.json")});
}
} // namespace

class TestReplayViews : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("DreamRSI-tests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_gui_replay"));
        QSettings().clear();
    }

    void stepperFollowsTrace()
    {
        const auto tree = demoTree("circle-packing-iter1.json");
        ReplayOptions options;
        options.trace = true;
        options.workers = 3;
        auto made = PolicySpec::builtin(QStringLiteral("portfolio")).create();
        QVERIFY2(made, qPrintable(made.error));
        const auto &policy = *made.value;
        auto episode = std::make_shared<const EpisodeResult>(ReplayEngine::runEpisode(*tree, *policy, 0.5, options));
        QVERIFY(episode->ok());
        // Steps are the rounds that revealed something (a final empty batch only stops).
        QList<const RoundTrace *> steps;
        for (const RoundTrace &r : episode->trace) {
            if (!r.revealed.isEmpty())
                steps.append(&r);
        }
        QVERIFY(steps.size() >= 3);
        StepperState st(tree, episode);
        QCOMPARE(st.roundCount(), int(steps.size()));
        QVERIFY(st.atStart());
        QVERIFY(!st.stepBack());
        QStringList expected;
        for (int n = 1; n <= st.roundCount(); ++n) {
            QVERIFY(st.stepForward());
            const RoundTrace &r = *steps.at(n - 1);
            for (const RevealedCell &c : r.revealed)
                expected.append(c.id);
            QCOMPARE(st.position(), n);
            QCOMPARE(st.revealedIds(), expected);
            QCOMPARE(st.latestBatch(), r.batch);
            QCOMPARE(st.calls(), int(expected.size()));
            QCOMPARE(st.attainment(), episode->curve.at(expected.size() - 1).attainment);
            // The overlay reveals exactly those cells, the latest batch outlined.
            const RevealOverlay o = st.overlay();
            int revealed = 0;
            for (int i = 0; i < tree->cellCount(); ++i) {
                const bool shown = o.revealRound.at(i) >= 0 && o.revealRound.at(i) < o.roundsShown;
                revealed += shown;
                QCOMPARE(shown, expected.contains(tree->cells().at(i).id));
            }
            QCOMPARE(revealed, int(expected.size()));
        }
        QVERIFY(st.atEnd());
        QVERIFY(!st.stepForward());
        QCOMPARE(st.revealedIds(), episode->revealed);
        // Back three rounds equals the trace prefix.
        for (int i = 0; i < 3; ++i)
            QVERIFY(st.stepBack());
        QStringList prefix;
        for (int n = 0; n < st.roundCount() - 3; ++n)
            for (const RevealedCell &c : steps.at(n)->revealed)
                prefix.append(c.id);
        QCOMPARE(st.revealedIds(), prefix);
        st.seek(0);
        QVERIFY(st.revealedIds().isEmpty());
        QCOMPARE(st.attainment(), 0.0);
    }

    void replayPageRunsOffThreadAndSteps()
    {
        Workspace ws;
        addDemoWorlds(ws);
        for (const PolicyVersion &v : ReplayJobs::builtinVersions())
            ws.addVersion(v);
        ReplayPage page(&ws);
        page.resize(1200, 800);
        QSignalSpy ready(&page, &ReplayPage::episodesReady);
        page.compare(QStringLiteral("c3"), ws.versions().at(0).name, ws.versions().at(1).name, 0.5);
        QVERIFY(page.isRunning());
        QTRY_COMPARE_WITH_TIMEOUT(ready.count(), 1, 20000);
        QVERIFY(page.roundCount() > 0);
        QCOMPARE(page.position(), 0);
        page.stepForward();
        page.stepForward();
        QCOMPARE(page.position(), 2);
        for (int s = 0; s < 2; ++s) {
            const StepperState &st = page.state(s);
            QVERIFY(st.isValid());
            QCOMPARE(st.position(), std::min(2, st.roundCount()));
            QStringList expected;
            int shown = 0;
            for (const RoundTrace &r : st.episode()->trace) {
                if (r.revealed.isEmpty() || shown == st.position())
                    continue;
                ++shown;
                for (const RevealedCell &c : r.revealed)
                    expected.append(c.id);
            }
            QCOMPARE(st.revealedIds(), expected);
            QCOMPARE(page.treeView(s)->renderer().overlay().roundsShown, st.position());
        }
        page.stepBack();
        QCOMPARE(page.position(), 1);
        page.togglePlay();
        QVERIFY(page.isPlaying());
        QTRY_VERIFY_WITH_TIMEOUT(!page.isPlaying(), 30000); // plays to the end and stops
        QCOMPARE(page.position(), page.roundCount());
        // The button is ▶ again once the last round shows (issue 46: it stayed ⏸).
        QCOMPARE(page.playButton()->toolTip(), QStringLiteral("Play (Space)"));
        // The chart's attainment axis fits the curves, as Frontiers' does, not 0–1.05.
        {
            double low = 1e9, high = -1e9;
            for (int s = 0; s < 2; ++s) {
                for (const CurvePoint &p : page.state(s).episode()->curve) {
                    low = std::min(low, p.attainment);
                    high = std::max(high, p.attainment);
                }
            }
            const QCPRange y = page.plot()->yAxis->range();
            QCOMPARE(y.lower, PlotStyle::fittedAttainmentRange(low, high).lower);
            QCOMPARE(y.upper, PlotStyle::fittedAttainmentRange(low, high).upper);
        }
        // The page fits a narrow window: playback has a line of its own.
        QVERIFY2(page.minimumSizeHint().width() < 800, qPrintable(QString::number(page.minimumSizeHint().width())));
        // A new request makes the running one stale: only the latest arrives.
        page.compare(QStringLiteral("cp1"), ws.versions().at(1).name, ws.versions().at(0).name, 0.0);
        page.compare(QStringLiteral("c3"), ws.versions().at(0).name, ws.versions().at(0).name, 1.0);
        QTRY_COMPARE_WITH_TIMEOUT(ready.count(), 2, 20000);
        QCOMPARE(page.state(0).episode()->beta, 1.0);
        // A third request, awaited: had the stale one been delivered late it
        // would show as an extra ready() before this one's.
        page.compare(QStringLiteral("c3"), ws.versions().at(0).name, ws.versions().at(0).name, 0.5);
        QTRY_COMPARE_WITH_TIMEOUT(ready.count(), 3, 20000);
        QCOMPARE(page.state(0).episode()->beta, 0.5);
    }

    void sweepsPolicyTableAndFrontiers()
    {
        Workspace ws;
        addDemoWorlds(ws);
        for (const PolicyVersion &v : ReplayJobs::builtinVersions())
            ws.addVersion(v);
        PolicyTableModel model(&ws);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.columnCount(), int(PolicyTableModel::FixedColumns) + 2 * int(PolicyTableModel::PerWorld));
        SweepRunner runner(&ws);
        FrontierPage frontiers(&ws);
        QSignalSpy finished(&runner, &SweepRunner::finished);
        runner.run({ws.versions().at(0).name, ws.versions().at(1).name});
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 2, 60000);
        for (const PolicyVersion &v : ws.versions()) {
            const ReplayResultPtr r = ws.result(v.name);
            QVERIFY(r);
            QVERIFY2(r->ok(), qPrintable(r->firstError()));
            QCOMPARE(r->worlds.size(), 2);
            QVERIFY(r->value);
        }
        // Table shows the result's numbers.
        const ReplayResultPtr r0 = ws.result(ws.versions().at(0).name);
        QCOMPARE(model.index(0, PolicyTableModel::MeanValue).data(PolicyTableModel::SortRole).toDouble(), *r0->value);
        QCOMPARE(model.index(0, int(PolicyTableModel::FixedColumns) + int(PolicyTableModel::WorldHypervolume)).data(PolicyTableModel::SortRole).toDouble(),
                 *r0->worlds.at(0).hypervolume);
        QCOMPARE(model.index(0, PolicyTableModel::MeanValue).data().toString(), QString::number(*r0->value, 'f', 4));
        {
            // A version replayed on one world only (as a stored result older
            // than the newest world is): no mean, and the cell says why.
            auto partial = std::make_shared<ReplayResult>(*r0);
            partial->worlds.removeLast();
            partial->value.reset();
            ws.setResult(ws.versions().at(0).name, partial);
            const QModelIndex mean = model.index(0, PolicyTableModel::MeanValue);
            QCOMPARE(mean.data().toString(), QStringLiteral("1 of 2 worlds"));
            QVERIFY2(mean.data(Qt::ToolTipRole).toString().contains(QStringLiteral("Replayed on 1 of the 2 worlds")),
                     qPrintable(mean.data(Qt::ToolTipRole).toString()));
            QCOMPARE(mean.data(PolicyTableModel::SortRole).toDouble(), -std::numeric_limits<double>::infinity());
            // The project dock says the same beside the version's name.
            ProjectTreeModel project(&ws);
            const QModelIndex row = project.index(0, 0, project.groupIndex(ProjectTreeModel::VersionsGroup));
            QCOMPARE(row.data().toString(), ws.versions().at(0).name + QStringLiteral(" — 1 of 2 worlds"));
            // Its one world still shows its own numbers; the missing one a dash.
            QCOMPARE(model.index(0, int(PolicyTableModel::FixedColumns) + int(PolicyTableModel::WorldValue)).data().toString(),
                     QString::number(*r0->worlds.at(0).value, 'f', 4));
            QCOMPARE(model.index(0, int(PolicyTableModel::FixedColumns) + int(PolicyTableModel::PerWorld)).data().toString(),
                     QStringLiteral("—"));
            ws.setResult(ws.versions().at(0).name, r0);
            QCOMPARE(model.index(0, PolicyTableModel::MeanValue).data().toString(), QString::number(*r0->value, 'f', 4));
        }
        // Both versions are drawn, per world and as the mean.
        frontiers.setChecked({ws.versions().at(0).name, ws.versions().at(1).name});
        QCOMPARE(frontiers.seriesShown(), 2);
        frontiers.setCurrentWorld(QStringLiteral("c3"));
        QCOMPARE(frontiers.currentWorld(), QStringLiteral("c3"));
        QCOMPARE(frontiers.seriesShown(), 2);
        // The attainment axis fits the points drawn; the check box gives 0–1 back.
        auto *fullAxis = frontiers.findChild<QCheckBox *>(QStringLiteral("frontiersFullAxis"));
        QVERIFY(fullAxis);
        QVERIFY(!frontiers.fullAttainmentAxis());
        double low = 1e9, high = -1e9;
        for (const PolicyVersion &v : ws.versions()) {
            for (const EpisodeResult &e : ws.result(v.name)->sweepOf(QStringLiteral("c3"))->episodes) {
                low = std::min(low, e.attainment);
                high = std::max(high, e.attainment);
            }
        }
        const QCPRange fitted = frontiers.plot()->yAxis->range();
        QCOMPARE(fitted.lower, PlotStyle::fittedAttainmentRange(low, high).lower);
        QCOMPARE(fitted.upper, PlotStyle::fittedAttainmentRange(low, high).upper);
        fullAxis->click();
        QVERIFY(frontiers.fullAttainmentAxis());
        QCOMPARE(frontiers.plot()->yAxis->range().lower, 0.0);
        QCOMPARE(frontiers.plot()->yAxis->range().upper, 1.05);
        fullAxis->click();
        QCOMPARE(frontiers.plot()->yAxis->range().lower, fitted.lower);
        frontiers.setChecked({ws.versions().at(1).name});
        QCOMPARE(frontiers.seriesShown(), 1);

        // Cancel: the queue empties and no new result appears.
        ws.clearResults();
        QSignalSpy cancelled(&runner, &SweepRunner::cancelled);
        runner.run({ws.versions().at(0).name});
        QVERIFY(runner.isRunning());
        runner.cancel();
        QCOMPARE(cancelled.count(), 1);
        QVERIFY(!runner.isRunning());
        // Another sweep runs to its end afterwards; the cancelled one never
        // delivers a result meanwhile.
        runner.run({ws.versions().at(1).name});
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 3, 60000);
        QVERIFY(ws.result(ws.versions().at(1).name));
        QVERIFY(!ws.result(ws.versions().at(0).name));
    }

    // After a dream of many versions the Frontiers tab ticks only the
    // deployed version, the proposal and the best few; its legend sits above
    // the plot; every version has its own colour, none black. A result that
    // was asked for is ticked when it arrives, a dream's are not.
    void frontierTicksTheFewAfterADream()
    {
        Workspace ws;
        addDemoWorlds(ws);
        const QList<PolicyVersion> builtins = ReplayJobs::builtinVersions();
        PolicyVersion deployed = builtins.at(0);
        deployed.id = 1;
        ws.addVersion(deployed);
        SweepRunner runner(&ws);
        QSignalSpy finished(&runner, &SweepRunner::finished);
        runner.run({deployed.name});
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 60000);
        const ReplayResultPtr base = ws.result(deployed.name);
        QVERIFY(base && base->value);
        ws.addApproval(Approval{1, deployed.id, QDateTime::currentDateTimeUtc(), QStringLiteral("test"), {}, {}});
        FrontierPage frontiers(&ws);
        frontiers.resize(1100, 600);
        // A dream of 20 versions: v1 … v20, values spread around the deployed one's.
        for (int k = 1; k <= 20; ++k) {
            PolicyVersion v = deployed;
            v.id = 100 + k;
            v.name = QStringLiteral("v%1").arg(k);
            ws.addVersion(v);
            auto r = std::make_shared<ReplayResult>(*base);
            r->value = *base->value + 0.001 * ((k * 7) % 20) - 0.01; // v17 best, then v14, v11, …
            ws.setResult(v.name, r);
        }
        // v3 is the dream's proposal, though not among the best three.
        frontiers.showDream(QStringLiteral("v3"));
        QStringList checked = frontiers.checkedVersions();
        std::sort(checked.begin(), checked.end());
        QStringList expected{deployed.name, QStringLiteral("v3"), QStringLiteral("v17"), QStringLiteral("v14"),
                             QStringLiteral("v11")};
        std::sort(expected.begin(), expected.end());
        QCOMPARE(checked, expected);
        QCOMPARE(frontiers.seriesShown(), 5);
        QCOMPARE(frontiers.defaultVersions().size(), 2 + FrontierPage::BestFew);
        // The legend is a band above the data, never over it.
        QVERIFY(frontiers.legendOutsidePlot());
        QCOMPARE(frontiers.plot()->legend->itemCount(), 5);
        // Colours: none repeats, none is black, over as many versions as a long dream stores.
        QSet<QRgb> colours;
        for (int i = 0; i < 64; ++i) {
            const QColor c = PlotStyle::seriesColor(i);
            QVERIFY2(c.lightnessF() > 0.25, qPrintable(QStringLiteral("colour %1 is %2").arg(i).arg(c.name())));
            colours.insert(c.rgb());
        }
        QCOMPARE(colours.size(), 64);

        // A dream's further results keep the default ticks (the best few move with them) …
        PolicyVersion late = deployed;
        late.id = 200;
        late.name = QStringLiteral("v21");
        ws.addVersion(late);
        auto best = std::make_shared<ReplayResult>(*base);
        best->value = *base->value + 1.0;
        ws.setResult(late.name, best);
        QVERIFY(frontiers.checkedVersions().contains(late.name));
        QCOMPARE(frontiers.checkedVersions().size(), 5);
        // … until the researcher ticks by hand: then only results asked for are ticked.
        frontiers.setChecked({deployed.name});
        ws.setResult(QStringLiteral("v1"), best);
        QCOMPARE(frontiers.checkedVersions(), QStringList{deployed.name});
        frontiers.expectResult(QStringLiteral("v2"));
        ws.setResult(QStringLiteral("v2"), best);
        QCOMPARE(frontiers.checkedVersions(), (QStringList{deployed.name, QStringLiteral("v2")}));
    }

    void staircaseKeepsNonDominated()
    {
        const QList<QPointF> s = PlotStyle::staircase({{5, 0.5}, {3, 0.5}, {8, 0.9}, {9, 0.7}, {3, 0.2}, {1, 0.1}});
        QCOMPARE(s, (QList<QPointF>{{1, 0.1}, {3, 0.5}, {8, 0.9}}));
    }

    void storedRecordsRoundTrip()
    {
        Workspace ws;
        ws.addWorld({QStringLiteral("cp1"), QString(), 11, demoTree("circle-packing-iter1.json")});
        ws.addWorld({QStringLiteral("c3"), QString(), 12, demoTree("c3-iter1.json")});
        AppSettings settings;
        PolicyVersion v = ReplayJobs::builtinVersions().at(1);
        v.id = 7;
        ws.addVersion(v);
        SweepRunner runner(&ws);
        const Preferences preferences(settings); // in memory
        runner.setPreferences(&preferences);
        QSignalSpy finished(&runner, &SweepRunner::finished);
        QSignalSpy progress(&runner, &SweepRunner::progress);
        runner.run({v.name});
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 60000);
        const ReplayResultPtr r = finished.at(0).at(1).value<ReplayResultPtr>();
        QVERIFY(r);
        QVERIFY2(r->ok(), qPrintable(r->firstError()));
        QVERIFY(!progress.isEmpty());
        QCOMPARE(progress.constLast().at(1).toInt(), progress.constLast().at(2).toInt());
        QCOMPARE(progress.constLast().at(2).toInt(), int(2 * settings.betas.size()));
        const QList<ReplayResultRecord> records = ReplayJobs::recordsFor(*r, 7, ws.worlds());
        QCOMPARE(records.size(), 2 * settings.betas.size());
        const auto back = ReplayJobs::resultsFromRecords(records, ws.worlds(), runner.replayConfig());
        QVERIFY(back.contains(7));
        const ReplayResultPtr b = back.value(7);
        QCOMPARE(b->worlds.size(), 2);
        QCOMPARE(*b->value, *r->value);
        for (int w = 0; w < 2; ++w) {
            QCOMPARE(*b->worlds.at(w).hypervolume, *r->worlds.at(w).hypervolume);
            QCOMPARE(*b->worlds.at(w).penalty, *r->worlds.at(w).penalty);
            QCOMPARE(b->worlds.at(w).frontier, r->worlds.at(w).frontier);
        }
    }

    void editingCreatesNewVersion()
    {
        Workspace ws;
        addDemoWorlds(ws);
        for (const PolicyVersion &v : ReplayJobs::builtinVersions())
            ws.addVersion(v);
        SweepRunner runner(&ws);
        PoliciesPage page(&ws, &runner);
        const QString original = ws.versions().at(0).name;
        page.selectVersion(original);
        QCOMPARE(page.selectedVersion(), original);
        const QString code = ws.versions().at(0).code;
        QCOMPARE(page.editor()->toPlainText(), code);
        QVERIFY(page.replayButton()->isEnabled());
        page.editor()->appendPlainText(QStringLiteral("// tuned by hand"));
        QVERIFY(!page.replayButton()->isEnabled()); // replay what is saved, not a draft
        QSignalSpy created(&page, &PoliciesPage::versionCreated);
        const QString name = page.saveAsNewVersion();
        QCOMPARE(created.count(), 1);
        QCOMPARE(ws.versions().size(), 3);
        QCOMPARE(ws.versions().at(0).code, code); // nothing overwritten
        const int row = ws.indexOfVersion(name);
        QVERIFY(row >= 0);
        QVERIFY(ws.versions().at(row).code.endsWith(QLatin1String("// tuned by hand")));
        QCOMPARE(ws.versions().at(row).parent, ws.versions().at(0).id);
        QCOMPARE(page.selectedVersion(), name);
        QCOMPARE(page.model()->index(page.model()->rowCount() - 1, PolicyTableModel::Parent).data().toString(), original);
        // The edited version replays like any other.
        QSignalSpy finished(&runner, &SweepRunner::finished);
        page.replaySelected();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 60000);
        QVERIFY(ws.result(name));
        QVERIFY2(ws.result(name)->ok(), qPrintable(ws.result(name)->firstError()));
    }

    // A sweep from the GUI runs in a child process, yet gives exactly what
    // the in-process engine gives: same worlds (by workspace name), same numbers.
    void childSweepMatchesEngine()
    {
        Workspace ws;
        addDemoWorlds(ws);
        const PolicyVersion v = ReplayJobs::builtinVersions().at(0);
        ws.addVersion(v);
        AppSettings settings;
        settings.workers = 4;
        settings.lambda = 0.2;
        settings.betas = {0.0, 0.3, 1.0};
        SweepRunner runner(&ws);
        const Preferences preferences(settings); // in memory
        runner.setPreferences(&preferences);
        runner.setReplayConfig(settings.looseReplayConfig());
        QSignalSpy finished(&runner, &SweepRunner::finished);
        runner.run({v.name});
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 60000);
        const ReplayResultPtr child = ws.result(v.name);
        QVERIFY(child);
        ReplayOptions options;
        options.workers = settings.workers;
        options.lambda = settings.lambda;
        options.betas = settings.betas;
        const ReplayResult local = ReplayEngine::runWorlds(ReplayJobs::worldsOf(ws), PolicySpec::script(v.code, v.name), options);
        QVERIFY(child->value && local.value);
        QCOMPARE(*child->value, *local.value); // exact: the JSON carries shortest round-trip numbers
        QCOMPARE(child->worlds.size(), local.worlds.size());
        for (int w = 0; w < local.worlds.size(); ++w) {
            const SweepResult &a = child->worlds.at(w);
            const SweepResult &b = local.worlds.at(w);
            QCOMPARE(a.world, b.world);
            QCOMPARE(*a.hypervolume, *b.hypervolume);
            QCOMPARE(*a.penalty, *b.penalty);
            QCOMPARE(a.frontier, b.frontier);
            for (int e = 0; e < b.episodes.size(); ++e)
                QCOMPARE(a.episodes.at(e).revealed, b.episodes.at(e).revealed);
        }
    }

    // Hostile policy code edited in the GUI costs an error message, never the
    // window: a spin meets the wall-clock limit, a hog its memory limit, and a
    // missing replay program is named. The next queued version still runs.
    void hostileVersionsAreContained_data()
    {
        QTest::addColumn<QString>("code");
        QTest::addColumn<QString>("program");
        QTest::addColumn<QString>("expected");
        QTest::addRow("spin") << QStringLiteral("function selectBatch(s) { for (;;) {} }") << QString()
                              << QStringLiteral("wall-clock limit");
        QTest::addRow("memory hog")
            << QStringLiteral("var keep = []; function selectBatch(s) { for (;;) keep.push(new Array(1000000).fill(s.round + 0.5)); }")
            << QString() << QString();
        QTest::addRow("no replay program") << QStringLiteral("function selectBatch(s) { return []; }")
                                           << QStringLiteral("/nonexistent/dreamrsi") << QStringLiteral("/nonexistent/dreamrsi");
    }
    void hostileVersionsAreContained()
    {
        QFETCH(QString, code);
        QFETCH(QString, program);
        QFETCH(QString, expected);
        const QByteArray saved = qgetenv("DREAMRSI_PROGRAM");
        if (!program.isEmpty())
            qputenv("DREAMRSI_PROGRAM", program.toUtf8());
        auto restore = qScopeGuard([&saved] { qputenv("DREAMRSI_PROGRAM", saved); });
        Workspace ws;
        addDemoWorlds(ws);
        PolicyVersion hostile;
        hostile.name = QStringLiteral("hostile");
        hostile.code = code;
        ws.addVersion(hostile);
        const PolicyVersion good = ReplayJobs::builtinVersions().at(0);
        ws.addVersion(good);
        AppSettings settings;
        settings.betas = {0.5};
        settings.scriptTimeLimitMs = 600000; // only the process limits can stop it
        settings.replayWallLimitS = 5;
        settings.replayMemoryLimitMb = 1024;
        SweepRunner runner(&ws);
        const Preferences preferences(settings); // in memory
        runner.setPreferences(&preferences);
        runner.setReplayConfig(settings.looseReplayConfig());
        QSignalSpy failed(&runner, &SweepRunner::failed);
        QSignalSpy finished(&runner, &SweepRunner::finished);
        QSignalSpy idle(&runner, &SweepRunner::idle);
        runner.run({hostile.name, good.name});
        QTRY_COMPARE_WITH_TIMEOUT(idle.count(), 1, 60000);
        if (!failed.isEmpty()) {
            QCOMPARE(failed.count(), program.isEmpty() ? 1 : 2);
            QCOMPARE(failed.at(0).at(0).toString(), hostile.name);
            const QString message = failed.at(0).at(1).toString();
            QVERIFY2(message.contains(expected), qPrintable(message));
            QVERIFY(!ws.result(hostile.name));
        } else {
            // The interpreter may report its own out-of-memory as a policy error.
            QVERIFY(expected.isEmpty());
            QVERIFY(ws.result(hostile.name));
            QVERIFY(!ws.result(hostile.name)->ok());
        }
        if (program.isEmpty()) {
            QVERIFY(ws.result(good.name));
            QVERIFY(ws.result(good.name)->ok());
        } else {
            QCOMPARE(failed.count(), 2); // the good one cannot start either, and says so
        }
    }

    // The replay page's staleness rule: an answer wrapped before a renew of
    // its scope is dropped, one wrapped after it is applied, other scopes
    // are not affected, and nothing runs once the tracker is gone.
    void jobTrackerGuardDropsStaleAnswers()
    {
        QList<int> applied;
        auto tracker = std::make_unique<JobTracker>();
        const QString scope = QStringLiteral("replay page");
        auto stale = tracker->guard(scope, [&applied](int v) { applied.append(v); });
        auto other = tracker->guard(QStringLiteral("project"), [&applied](int v) { applied.append(v); });
        tracker->renew(scope);
        auto current = tracker->guard(scope, [&applied](int v) { applied.append(v); });
        stale(1);
        current(2);
        other(3);
        QCOMPARE(applied, (QList<int>{2, 3}));
        tracker.reset();
        current(4);
        QCOMPARE(applied, (QList<int>{2, 3}));
    }

    // The stepper shows a contained policy's failure as that side's error.
    void replayPageShowsContainedFailure()
    {
        Workspace ws;
        addDemoWorlds(ws);
        PolicyVersion spin;
        spin.name = QStringLiteral("spin");
        spin.code = QStringLiteral("function selectBatch(s) { if (s.round > 1) for (;;) {} return [s.legal[0]]; }");
        ws.addVersion(spin);
        ws.addVersion(ReplayJobs::builtinVersions().at(0));
        ReplayPage page(&ws);
        AppSettings settings;
        settings.scriptTimeLimitMs = 300;
        const Preferences preferences(settings); // in memory
        page.setPreferences(&preferences);
        QSignalSpy ready(&page, &ReplayPage::episodesReady);
        page.compare(QStringLiteral("cp1"), spin.name, ws.versions().at(1).name, 0.5);
        QTRY_COMPARE_WITH_TIMEOUT(ready.count(), 1, 30000);
        QVERIFY(page.state(0).episode());
        const QString error = page.state(0).episode()->error;
        QVERIFY2(error.contains(QLatin1String("round 3")), qPrintable(error));
        QVERIFY(page.state(1).episode()->ok());
        QVERIFY(page.state(1).roundCount() > 0);
    }

    // The bundled demo project opens with its worlds, versions and stored results.
    void demoProjectOpens()
    {
        const QString bundled = QStringLiteral(DREAMRSI_SOURCE_DIR "/tests/data/demo/demo.dreamrsi");
        QVERIFY2(QFileInfo::exists(bundled), qPrintable(bundled));
        QTemporaryDir dir;
        const QString copy = dir.filePath(QStringLiteral("demo.dreamrsi"));
        QVERIFY(QFile::copy(bundled, copy));
        MainWindow w;
        QSignalSpy loaded(&w, &MainWindow::projectLoaded);
        w.openProject(copy);
        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, 60000);
        QCOMPARE(w.workspace()->worlds().size(), 3);
        QVERIFY(w.workspace()->versions().size() >= 2);
        int withResults = 0;
        for (const PolicyVersion &v : w.workspace()->versions()) {
            const ReplayResultPtr r = w.workspace()->result(v.name);
            if (r && r->value)
                ++withResults;
        }
        QVERIFY(withResults >= 2);
        w.frontierPage()->setChecked({w.workspace()->versions().at(0).name, w.workspace()->versions().at(1).name});
        QCOMPARE(w.frontierPage()->seriesShown(), 2);
        QVERIFY(w.currentTree());
    }

    void projectInWindow()
    {
        QTemporaryDir dir;
        const QString project = dir.filePath(QStringLiteral("demo.dreamrsi"));
        {
            MainWindow w;
            QSignalSpy loaded(&w, &MainWindow::projectLoaded);
            w.newProject(project);
            QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, 60000);
            QCOMPARE(w.projectPath(), QFileInfo(project).absoluteFilePath());
            QCOMPARE(w.workspace()->versions().size(), ReplayJobs::builtinVersions().size());
            QAction *import = w.findChild<QAction *>(QStringLiteral("actionImport"));
            QVERIFY(import->isEnabled());
            QAction *dream = w.findChild<QAction *>(QStringLiteral("actionDream"));
            QVERIFY(!dream->isEnabled()); // no finished iteration yet
            QSignalSpy opened(&w, &MainWindow::treeOpened);
            w.importTrees({QStringLiteral(DREAMRSI_SOURCE_DIR "/tests/data/demo/c3-iter1.json")});
            QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, 20000);
            QCOMPARE(w.workspace()->worlds().size(), 1);
            QVERIFY(w.workspace()->worlds().first().iteration > 0);
            QTRY_VERIFY(dream->isEnabled()); // an iteration to dream over
            QSignalSpy stored(&w, &MainWindow::resultsStored);
            const QString version = w.workspace()->versions().first().name;
            w.replayVersions({version});
            QTRY_COMPARE_WITH_TIMEOUT(stored.count(), 1, 60000);

            // Approve it for redeployment from the Policies tab.
            PoliciesPage *policies = w.policiesPage();
            policies->selectVersion(version);
            QVERIFY(policies->approveButton()->isEnabled());
            ApprovalDialog *dialog = policies->approveSelected();
            QVERIFY(dialog);
            QVERIFY2(dialog->comparison().approvable(), qPrintable(ApprovalDialog::blockerText(dialog->comparison())));
            dialog->whoEdit()->setText(QStringLiteral("Ada"));
            dialog->noteEdit()->setPlainText(QStringLiteral("beats the floor on c3"));
            QVERIFY(dialog->approveButton()->isEnabled());
            QSignalSpy approved(&w, &MainWindow::approvalStored);
            dialog->approveButton()->click();
            QTRY_COMPARE_WITH_TIMEOUT(approved.count(), 1, 20000);
            QCOMPARE(approved.at(0).at(0).toString(), version);
            QCOMPARE(w.workspace()->deployedVersion(), w.workspace()->versions().first().id);
            QVERIFY(!policies->approveButton()->isEnabled()); // already the deployed one
            QVERIFY(policies->model()->index(0, PolicyTableModel::Approved).data().toString().contains(QLatin1String("deployed")));
        }
        // Reopened, the project brings back its world, versions and results.
        MainWindow w;
        QSignalSpy loaded(&w, &MainWindow::projectLoaded);
        w.openProject(project);
        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, 60000);
        QCOMPARE(w.workspace()->worlds().size(), 1);
        QVERIFY(w.currentTree());
        const QString version = w.workspace()->versions().first().name;
        QVERIFY(w.workspace()->result(version));
        QVERIFY(w.workspace()->result(version)->value);
        // … and its approval, with who, note and the evidence that was shown.
        QCOMPARE(w.workspace()->approvals().size(), 1);
        const Approval a = w.workspace()->approvals().first();
        QCOMPARE(a.version, w.workspace()->versions().first().id);
        QCOMPARE(a.who, QStringLiteral("Ada"));
        QCOMPARE(a.note, QStringLiteral("beats the floor on c3"));
        QCOMPARE(a.evidence.value(QLatin1String("candidate")).toString(), version);
        QCOMPARE(a.evidence.value(QLatin1String("value")).toObject().value(QLatin1String("candidate")).toDouble(),
                 *w.workspace()->result(version)->value);
    }

    // What the approval dialog compares, and when it refuses.
    void approvalComparison()
    {
        Workspace ws;
        addDemoWorlds(ws);
        QList<PolicyVersion> versions = ReplayJobs::builtinVersions();
        versions[0].id = 1;
        versions[1].id = 2;
        PolicyVersion loose;
        loose.name = QStringLiteral("loose");
        loose.code = versions[0].code;
        ws.addVersion(versions[0]);
        ws.addVersion(versions[1]);
        ws.addVersion(loose); // a session-local id: not in a project
        const QString a = versions[0].name;
        const QString b = versions[1].name;

        QCOMPARE(ApprovalDialog::compare(ws, a).blocker, ApprovalBlocker::NotReplayed);
        QVERIFY(ApprovalDialog::blockerText(ApprovalDialog::compare(ws, a)).contains(QLatin1String("Replay it first")));
        QVERIFY(ApprovalDialog::blockerText(ApprovalDialog::compare(ws, QStringLiteral("nope"))).contains(QLatin1String("nope")));
        SweepRunner runner(&ws);
        QSignalSpy idle(&runner, &SweepRunner::idle);
        runner.run({a, b, loose.name});
        QTRY_COMPARE_WITH_TIMEOUT(idle.count(), 1, 90000);
        QCOMPARE(ApprovalDialog::compare(ws, loose.name).blocker, ApprovalBlocker::NotStored);

        // Without a deployed version, the baseline is the best other version.
        ApprovalComparison c = ApprovalDialog::compare(ws, a);
        QVERIFY2(c.approvable(), qPrintable(ApprovalDialog::blockerText(c)));
        const double va = *ws.result(a)->value;
        const double vb = *ws.result(b)->value;
        const double vl = *ws.result(loose.name)->value;
        QCOMPARE(vl, va); // same code, same numbers
        QCOMPARE(c.baseline, vl > vb ? loose.name : b);
        const QJsonObject value = c.evidence.value(QLatin1String("value")).toObject();
        QCOMPARE(value.value(QLatin1String("candidate")).toDouble(), va);
        QCOMPARE(value.value(QLatin1String("difference")).toDouble(),
                 va - value.value(QLatin1String("baseline")).toDouble());
        const QJsonArray worlds = c.evidence.value(QLatin1String("worlds")).toArray();
        QCOMPARE(worlds.size(), 2);
        QCOMPARE(worlds.at(1).toObject().value(QLatin1String("world")).toString(), QStringLiteral("c3"));
        QCOMPARE(worlds.at(1).toObject().value(QLatin1String("candidate")).toObject().value(QLatin1String("hypervolume")).toDouble(),
                 *ws.result(a)->worlds.at(1).hypervolume);

        // With b deployed, b is the baseline; a lower value is a warning, not a blocker.
        Approval deployed;
        deployed.version = 2;
        deployed.when = QDateTime::currentDateTimeUtc();
        ws.addApproval(deployed);
        c = ApprovalDialog::compare(ws, a);
        QCOMPARE(c.baseline, b);
        QCOMPARE(c.baselineRole, QStringLiteral("deployed"));
        QCOMPARE(c.warnings.size(), va < vb ? 1 : 0);
        QCOMPARE(c.evidence.value(QLatin1String("warnings")).toArray().contains(QStringLiteral("lower_value")), va < vb);
        ApprovalDialog dialog(ws, a, nullptr);
        QCOMPARE(dialog.table()->rowCount(), 3); // two worlds and the mean
        QCOMPARE(dialog.table()->columnCount(), 6);
        QCOMPARE(dialog.table()->item(2, 1)->text(), QString::number(va, 'f', 4));
        dialog.whoEdit()->clear();
        QVERIFY(!dialog.approveButton()->isEnabled()); // an approval names who gave it

        // A result with a policy error cannot be approved.
        auto broken = std::make_shared<ReplayResult>(*ws.result(a));
        broken->worlds[0].error = QStringLiteral("round 2: boom");
        ws.setResult(a, broken);
        QCOMPARE(ApprovalDialog::compare(ws, a).blocker, ApprovalBlocker::PolicyError);
        QVERIFY(ApprovalDialog::compare(ws, a).blockerDetail.contains(QLatin1String("round 2: boom")));
    }

    // Replay ▸ Replay Selected Versions takes the path of Frontiers' Replay
    // Checked Versions (MainWindow::replayVersions): the selected version is
    // replayed under the project's configuration (imagined, C 2 here),
    // valued, stored and said in the status bar, with the value Frontiers'
    // button gives. Frontiers draws no curve and no HV for a version without
    // a value under the configuration (issue 53 item 4).
    void toolbarReplayValuesUnderTheProjectsConfiguration()
    {
        const QString bundled = QStringLiteral(DREAMRSI_SOURCE_DIR "/tests/data/demo/demo.dreamrsi");
        QTemporaryDir dir;
        const QString copy = dir.filePath(QStringLiteral("demo.dreamrsi"));
        QVERIFY(QFile::copy(bundled, copy));
        QVERIFY(QFile::setPermissions(copy, QFile::ReadOwner | QFile::WriteOwner));
        ReplayConfig config; // W 10, λ 0.1, no K
        config.betas = {0.0, 0.5, 1.0};
        config.valuation = Valuation::Imagined;
        config.completions = 2;
        {
            StoreResult<std::unique_ptr<ProjectWriter>> writer = ProjectWriter::open(copy);
            QVERIFY2(writer.ok(), qPrintable(writer.error));
            QVERIFY((*writer.value)->setReplayConfig(config).ok());
        }
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QSignalSpy loaded(&w, &MainWindow::projectLoaded);
        w.openProject(copy);
        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, 60000);
        Workspace *ws = w.workspace();
        QCOMPARE(ws->worlds().size(), 3);
        QVERIFY(ws->replayConfig());
        QCOMPARE(ws->replayConfig()->config.label(), config.label());
        const QString version = QStringLiteral("builtin:parallel_refine");
        const QString other = QStringLiteral("builtin:portfolio");
        QVERIFY(ws->indexOfVersion(version) >= 0 && ws->indexOfVersion(other) >= 0);
        // The demo's values are revealed ones: kept apart, none under this configuration.
        QVERIFY(!ws->result(version));
        QVERIFY(!ws->result(other));
        QVERIFY(!ws->otherResults().isEmpty());

        FrontierPage *frontiers = w.frontierPage();
        auto *list = frontiers->findChild<QListWidget *>();
        QVERIFY(list);
        auto rowOf = [list](const QString &name) -> QListWidgetItem * {
            for (int i = 0; i < list->count(); ++i) {
                if (list->item(i)->data(Qt::UserRole).toString() == name)
                    return list->item(i);
            }
            return nullptr;
        };
        auto legendNames = [frontiers] {
            QStringList names;
            for (int i = 0; i < frontiers->plot()->plottableCount(); ++i) {
                if (frontiers->plot()->plottable(i)->name().contains(QLatin1String("HV")))
                    names.append(frontiers->plot()->plottable(i)->name());
            }
            return names;
        };
        frontiers->setChecked({version});
        QCOMPARE(frontiers->seriesShown(), 0);
        QVERIFY(legendNames().isEmpty());
        QCOMPARE(rowOf(version)->text(), version + QStringLiteral(" (not valued under this configuration)"));

        // Selected in Policies, replayed from the toolbar.
        w.tabs()->setCurrentIndex(MainWindow::PoliciesTab);
        PoliciesPage *policies = w.policiesPage();
        policies->selectVersion(version);
        QCOMPARE(w.selectedVersions(), QStringList{version});
        QAction *replay = w.findChild<QAction *>(QStringLiteral("actionReplay"));
        QVERIFY(replay && replay->isEnabled());
        QSignalSpy stored(&w, &MainWindow::resultsStored);
        replay->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(ws->result(version) && ws->result(version)->value, 120000);
        QTRY_COMPARE_WITH_TIMEOUT(stored.count(), 1, 30000);
        const ReplayResultPtr viaToolbar = ws->result(version);
        // Under the project's configuration: C completions of every world, its β grid and W.
        QCOMPARE(viaToolbar->completions, 2);
        QCOMPARE(viaToolbar->worlds.size(), 3 * 2);
        QCOMPARE(viaToolbar->betas, config.betas);
        QCOMPARE(viaToolbar->workers, config.workers);
        QCOMPARE(ws->worldsReplayed(*viaToolbar), 3);
        const double value = *viaToolbar->value;
        QVERIFY2(value > 0.5 && value < 1.0, qPrintable(QString::number(value)));
        const QString shown = QString::number(value, 'f', 4);
        // (Without the workbench's English translator the plural reads "world(s)".)
        QTRY_COMPARE(w.statusBar()->currentMessage(), QStringLiteral("Replayed %1 over 3 world(s): value %2").arg(version, shown));
        // The Policies table shows it under the configuration.
        const int row = ws->indexOfVersion(version);
        QCOMPARE(policies->model()->index(row, PolicyTableModel::MeanValue).data().toString(), shown);
        QCOMPARE(policies->model()->index(row, PolicyTableModel::MeanValue).data(PolicyTableModel::SortRole).toDouble(), value);
        QTRY_VERIFY(!ws->staleVersions().contains(ws->versions().at(row).id)); // stored under the configuration
        // Frontiers now draws it, with its value and HV.
        QCOMPARE(frontiers->seriesShown(), 1);
        QCOMPARE(rowOf(version)->text(), version);
        QCOMPARE(legendNames().size(), 1);
        QVERIFY2(legendNames().first().startsWith(version + QStringLiteral(" — value ") + QString::number(value, 'f', 3)), qPrintable(legendNames().first()));

        // Frontiers' Replay Checked Versions gives the same value (the
        // completions are drawn with the same seed).
        QPushButton *checkedButton = nullptr;
        for (QPushButton *b : frontiers->findChildren<QPushButton *>()) {
            if (b->text() == QLatin1String("Replay Checked Versions"))
                checkedButton = b;
        }
        QVERIFY(checkedButton);
        ws->setResult(version, nullptr); // so the button's result is the one read below
        QCOMPARE(frontiers->seriesShown(), 0);
        checkedButton->click();
        QTRY_COMPARE_WITH_TIMEOUT(stored.count(), 2, 120000);
        QVERIFY(ws->result(version) && ws->result(version)->value);
        QCOMPARE(*ws->result(version)->value, value);
        QTRY_COMPARE(w.statusBar()->currentMessage(), QStringLiteral("Replayed %1 over 3 world(s): value %2").arg(version, shown));

        // A version selected in the Project dock, on the Frontiers tab where
        // it is not checked, is the one the toolbar replays.
        w.tabs()->setCurrentIndex(MainWindow::FrontiersTab);
        QVERIFY(!frontiers->checkedVersions().contains(other));
        w.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        ProjectTreeModel *project = w.projectModel();
        const QModelIndex otherItem = project->index(ws->indexOfVersion(other), 0, project->groupIndex(ProjectTreeModel::VersionsGroup));
        w.projectView()->setFocus();
        w.projectView()->setCurrentIndex(otherItem);
        QTRY_VERIFY(w.projectView()->hasFocus());
        QCOMPARE(w.selectedVersions(), QStringList{other});
        replay->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(ws->result(other) && ws->result(other)->value, 120000);
        QTRY_COMPARE_WITH_TIMEOUT(stored.count(), 3, 30000);
        const double otherValue = *ws->result(other)->value;
        QTRY_COMPARE(w.statusBar()->currentMessage(),
                     QStringLiteral("Replayed %1 over 3 world(s): value %2").arg(other, QString::number(otherValue, 'f', 4)));
        QVERIFY(otherValue != value);

        // Stored under the configuration: reopened, both values come back from the records.
        QSignalSpy reloaded(&w, &MainWindow::projectLoaded);
        w.openProject(copy);
        QTRY_COMPARE_WITH_TIMEOUT(reloaded.count(), 1, 60000);
        QVERIFY(ws->result(version) && ws->result(version)->value);
        QCOMPARE(*ws->result(version)->value, value);
        QVERIFY(ws->result(other) && ws->result(other)->value);
        QCOMPARE(*ws->result(other)->value, otherValue);

        // A result without a value under the configuration (the records of a
        // world are missing, as when a world came after the replay): no
        // curve, no HV, its row and the Policies table say why.
        auto partial = std::make_shared<ReplayResult>(*ws->result(version));
        partial->worlds.remove(partial->worlds.size() - 2, 2); // the last world's two completions
        partial->value.reset();
        ws->setResult(version, partial);
        frontiers->setChecked({version, other});
        QCOMPARE(frontiers->currentWorld(), QString()); // the mean over worlds, where the partial once was drawn
        QCOMPARE(frontiers->seriesShown(), 1);
        QCOMPARE(legendNames().size(), 1);
        QVERIFY2(legendNames().first().startsWith(other + QStringLiteral(" — value ")), qPrintable(legendNames().first()));
        QCOMPARE(rowOf(version)->text(), version + QStringLiteral(" (not valued under this configuration)"));
        QVERIFY2(rowOf(version)->toolTip().contains(QLatin1String("Replayed on 2 of the 3 worlds")), qPrintable(rowOf(version)->toolTip()));
        QCOMPARE(policies->model()->index(ws->indexOfVersion(version), PolicyTableModel::MeanValue).data().toString(),
                 QStringLiteral("2 of 3 worlds"));
        // The figure's numbers are those drawn: the valued version's only.
        const FigureTable data = frontiers->figureData();
        QCOMPARE(data.rows.size(), 3 * 2 * 3); // worlds × completions × β
        for (const QStringList &r : data.rows)
            QCOMPARE(r.first(), other);
    }
};

QTEST_MAIN(TestReplayViews)
#include "tst_gui_replay.moc"
