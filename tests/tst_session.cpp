// The session library (views/session/) on its own: no widget library is
// linked (tests/session.cmake links dreamrsi::session only, and
// noWidgetLibraryLoaded checks the running process). What the workbench does
// around its widgets, driven the way the window drives it: the project
// opened in stages, a live round of the built-in agent run and reported,
// steering requests through the project's inbox, sweeps replayed in a child
// `dreamrsi`, the person's preferences in QSettings, stale job answers
// dropped, worlds picked by name or iteration.

#include "session/appsettings.h"
#include "session/dreamcontroller.h"
#include "session/imaginedworlds.h"
#include "session/jobtracker.h"
#include "session/preferences.h"
#include "session/projectsession.h"
#include "session/reevaluationcontroller.h"
#include "session/replayjobs.h"
#include "session/roundcontroller.h"
#include "session/steeringcontroller.h"
#include "session/sweeprunner.h"
#include "session/worldselection.h"

#include "models/workspace.h"

#include "loop/round/steeringinbox.h"
#include "project/versionreplay.h"
#include "replay/replayjson.h"
#include "replay/synthworld.h"
#include "store/projectstore.h"
#include "store/projectwriter.h"

#include "demotrees.h"
#include "storetestsupport.h"

#include <QCoreApplication>
#include <QFile>
#include <QRegularExpression>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QtConcurrent/QtConcurrentRun>

using namespace dreamrsi;
using dreamrsi::test::demoTree;
using dreamrsi::test::take;

class TestSession : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void noWidgetLibraryLoaded();
    void appSettingsRoundTrip();
    void appSettingsRejectsWhatIsOutOfRange();
    void jobTrackerDropsStaleAnswers();
    void selectWorldByNameOrIteration();
    void oneHistoryRuleForEveryValuation();
    void projectSessionCreatesAndImports();
    void roundControllerRunsBuiltinRound();
    void reevaluationControllerRunsLoadsAndCancels();
    void dreamControllerPreparesAndDreams();
    void steeringControllerRequestReachesInbox();
    void steeringControllerTakesBackUnanswered();
    void sweepRunnerMatchesVersionReplay();

private:
    QTemporaryDir m_dir;
};

void TestSession::initTestCase()
{
    QVERIFY(m_dir.isValid());
    // Preferences go to a folder of this run, never the person's own.
    QCoreApplication::setOrganizationName(QStringLiteral("DreamRSI-test-session"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_session"));
    QSettings::setDefaultFormat(QSettings::IniFormat);
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, m_dir.filePath(QStringLiteral("settings")));
}

void TestSession::noWidgetLibraryLoaded()
{
    // The session library builds and runs without widgets: QtWidgets is not
    // even mapped into this process.
    QFile maps(QStringLiteral("/proc/self/maps"));
    if (!maps.open(QIODevice::ReadOnly))
        QSKIP("no /proc/self/maps on this system");
    const QByteArray mapped = maps.readAll();
    QVERIFY(mapped.contains("libQt6Core"));
    QVERIFY2(!mapped.contains("libQt6Widgets"), "tst_session has QtWidgets loaded");
    QVERIFY(!QCoreApplication::instance()->inherits("QGuiApplication"));
}

void TestSession::appSettingsRoundTrip()
{
    AppSettings a;
    a.theme = AppSettings::Theme::Dark;
    a.workers = 7;
    a.lambda = 0.35;
    a.betas = {0.0, 0.5, 1.0};
    a.scriptTimeLimitMs = 1500;
    a.includeApproximate = true;
    a.replayMemoryLimitMb = 2048;
    a.replayWallLimitS = 120;
    a.playIntervalMs = 250;
    a.prices.setPrice(ModelPrice{QStringLiteral("session-test-model"), 1.25, 7.5});
    a.slurmPartition = QStringLiteral("gpu");
    a.slurmAccount = QStringLiteral("lab");
    a.slurmQos = QStringLiteral("short");
    a.slurmSbatchArgs = QStringLiteral("--gres=gpu:1 --time=10");
    a.slurmSharedDir = QStringLiteral("/shared/dreamrsi");
    a.userName = QStringLiteral("  Ada  ");
    a.agentTimeLimitMin = 42;
    a.save();
    QCOMPARE(PriceTable::current(), a.prices); // installed on save

    PriceTable::setCurrent(PriceTable::defaults());
    const AppSettings b = AppSettings::load();
    QCOMPARE(b.theme, a.theme);
    QCOMPARE(b.workers, a.workers);
    QCOMPARE(b.lambda, a.lambda);
    QCOMPARE(b.betas, a.betas);
    QCOMPARE(b.scriptTimeLimitMs, a.scriptTimeLimitMs);
    QCOMPARE(b.includeApproximate, true);
    QCOMPARE(b.replayMemoryLimitMb, a.replayMemoryLimitMb);
    QCOMPARE(b.replayWallLimitS, a.replayWallLimitS);
    QCOMPARE(b.playIntervalMs, a.playIntervalMs);
    QCOMPARE(b.prices, a.prices);
    QCOMPARE(b.prices.priceFor(QStringLiteral("session-test-model"))->outputPerMillion, 7.5);
    QCOMPARE(PriceTable::current(), a.prices); // installed on load
    QCOMPARE(b.slurmPartition, a.slurmPartition);
    QCOMPARE(b.slurmAccount, a.slurmAccount);
    QCOMPARE(b.slurmQos, a.slurmQos);
    QCOMPARE(b.slurmSbatchArgs, a.slurmSbatchArgs);
    QCOMPARE(b.slurmSharedDir, a.slurmSharedDir);
    QCOMPARE(b.userName, a.userName);
    QCOMPARE(b.personName(), QStringLiteral("Ada"));
    QCOMPARE(b.steeringName(), QStringLiteral("Ada"));
    QCOMPARE(b.agentTimeLimitMin, 42);
    QCOMPARE(AppSettings::loadAgentTimeLimitMin(), 42);

    // What every replay job is given, and the loose files' configuration.
    const ScriptLimits limits = b.scriptLimits();
    QCOMPARE(limits, (ScriptLimits{1500, qint64(2048) << 20, 120 * 1000}));
    const ReplayConfig loose = b.looseReplayConfig();
    QCOMPARE(loose.workers, 7);
    QCOMPARE(loose.lambda, 0.35);
    QCOMPARE(loose.betas, a.betas);
    QCOMPARE(loose.valuation, Valuation::Revealed);
    PriceTable::setCurrent(PriceTable::defaults());
}

void TestSession::appSettingsRejectsWhatIsOutOfRange()
{
    QSettings s;
    s.clear();
    // Before Settings had it, Launch Round kept the agent's time limit in its own group.
    s.setValue(QStringLiteral("launchRound/agentTimeLimitMin"), 30);
    s.setValue(QStringLiteral("replay/workers"), 0);
    s.setValue(QStringLiteral("replay/betas"), QStringLiteral("0, 1.5"));
    s.setValue(QStringLiteral("replay/timeLimitMs"), 1);
    s.setValue(QStringLiteral("ui/theme"), 9);
    s.setValue(QStringLiteral("agent/prices"), QByteArrayLiteral("{\"prices\": 3}"));
    s.sync();
    QTest::ignoreMessage(QtWarningMsg,
                         QRegularExpression(QStringLiteral("^settings: price table: .*; using the default prices$")));
    const AppSettings defaults;
    const AppSettings a = AppSettings::load();
    QCOMPARE(a.agentTimeLimitMin, 30);
    QCOMPARE(a.workers, 1);                  // clamped to [1, 1000]
    QCOMPARE(a.betas, defaults.betas);       // 1.5 is not in [0, 1]
    QCOMPARE(a.scriptTimeLimitMs, 10);       // clamped to [10, 600000]
    QCOMPARE(a.theme, AppSettings::Theme::Dark); // clamped to the last theme
    QCOMPARE(a.prices, PriceTable::defaults()); // an unreadable table keeps the defaults

    // Settings' own key wins over the old one, and is clamped.
    AppSettings::saveAgentTimeLimitMin(AppSettings::MaxAgentTimeLimitMin + 5);
    QCOMPARE(AppSettings::loadAgentTimeLimitMin(), AppSettings::MaxAgentTimeLimitMin);

    QCOMPARE(AppSettings::parseBetas(QStringLiteral(" 0.25,1 ,0")), (QList<double>{0.25, 1.0, 0.0}));
    QVERIFY(!AppSettings::parseBetas(QStringLiteral("")));
    QVERIFY(!AppSettings::parseBetas(QStringLiteral("0.5, x")));
    QVERIFY(!AppSettings::parseBetas(QStringLiteral("-0.1")));
    QCOMPARE(AppSettings::formatBetas({0.0, 0.25, 1.0}), QStringLiteral("0, 0.25, 1"));
    s.clear();
}

void TestSession::jobTrackerDropsStaleAnswers()
{
    JobTracker jobs;
    QSignalSpy idle(&jobs, &JobTracker::idle);
    const JobTracker::CancelCheck cancelled = jobs.cancelCheck(QStringLiteral("page"));
    QVERIFY(!cancelled());

    QList<int> applied;
    QPromise<int> first;
    QPromise<int> second;
    jobs.then(QStringLiteral("page"), first.future(), this, [&](int v) { applied.append(v); });
    jobs.renew(QStringLiteral("page")); // the first job's answer no longer matters
    QVERIFY(cancelled());
    jobs.then(QStringLiteral("page"), second.future(), this, [&](int v) { applied.append(v); });
    QCOMPARE(jobs.pending(), 2);
    for (auto *p : {&first, &second}) {
        p->start();
        p->addResult(p == &first ? 1 : 2);
        p->finish();
    }
    QTRY_COMPARE(jobs.pending(), 0);
    QCOMPARE(applied, QList<int>{2});
    QVERIFY(idle.count() >= 1);

    // A future that has already finished is answered from the event loop,
    // never inside then() itself (QFuture::then(context, …) would call it
    // at once): the caller finishes what it set up first.
    QPromise<int> done;
    done.start();
    done.addResult(3);
    done.finish();
    QVERIFY(done.future().isFinished());
    jobs.then(QStringLiteral("page"), done.future(), this, [&](int v) { applied.append(v); });
    QCOMPARE(applied, QList<int>{2});
    QCOMPARE(jobs.pending(), 1);
    QTRY_COMPARE(jobs.pending(), 0);
    QCOMPARE(applied, (QList<int>{2, 3}));

    // guard(): a signal's answer runs only while its scope was not renewed.
    int calls = 0;
    auto current = jobs.guard(QStringLiteral("other"), [&](int v) { calls += v; });
    auto stale = jobs.guard(QStringLiteral("page"), [&](int v) { calls += 100 * v; });
    jobs.renew(QStringLiteral("page"));
    current(1);
    stale(1);
    QCOMPARE(calls, 1);
}

void TestSession::selectWorldByNameOrIteration()
{
    const auto cp1 = demoTree("circle-packing-iter1.json");
    const auto cp2 = demoTree("circle-packing-iter2.json");
    const auto c3 = demoTree("c3-iter1.json");
    QCOMPARE(cp1->meta().iteration, std::optional<qint64>(1));
    QCOMPARE(cp2->meta().iteration, std::optional<qint64>(2));
    QCOMPARE(c3->meta().iteration, std::optional<qint64>(1));
    const QList<WorldEntry> worlds{{QStringLiteral("cp1"), QStringLiteral("/demo/cp1.json"), 0, cp1},
                                   {QStringLiteral("cp2"), QStringLiteral("/demo/cp2.json"), 0, cp2},
                                   {QStringLiteral("c3"), QStringLiteral("/demo/c3.json"), 0, c3},
                                   {QStringLiteral("stored"), QString(), 77, nullptr}};
    QCOMPARE(selectWorld(worlds, QStringLiteral("c3")).valueOr(-1), 2);
    QCOMPARE(selectWorld(worlds, QStringLiteral("2")).valueOr(-1), 1);   // the tree's iteration field
    QCOMPARE(selectWorld(worlds, QStringLiteral("77")).valueOr(-1), 3);  // else the project's iteration id
    const Result<int> shared = selectWorld(worlds, QStringLiteral("1"));
    QVERIFY(!shared.ok());
    QCOMPARE(shared.error, QStringLiteral("iteration 1 is ambiguous: cp1, c3; give the world's name"));
    const Result<int> missing = selectWorld(worlds, QStringLiteral("nope"));
    QVERIFY(!missing.ok());
    QCOMPARE(missing.error, QStringLiteral("no world named 'nope' (worlds: cp1, cp2, c3, stored)"));
    QCOMPARE(selectWorld(worlds, QStringLiteral("5")).error, QStringLiteral("no world is iteration 5"));
}

void TestSession::oneHistoryRuleForEveryValuation()
{
    // The history a dream, the World Model page and Show imagined cells fit
    // on: the project's finished iterations with a tree, approximate worlds
    // (imported runs) only when Settings include them — the rule
    // ValuationWorlds::historyOf gives the sweeps too.
    const auto cp1 = demoTree("circle-packing-iter1.json");
    TreeMeta meta = cp1->meta();
    meta.approximate = true;
    const auto imported = std::make_shared<const DiscoveryTree>(*DiscoveryTree::build(meta, cp1->cells()));
    const QList<WorldEntry> worlds{WorldEntry{QStringLiteral("loose"), QStringLiteral("/tmp/x.json"), 0, cp1},
                                   WorldEntry{QStringLiteral("iteration 1"), QString(), 1, cp1},
                                   WorldEntry{QStringLiteral("imported"), QString(), 2, imported},
                                   WorldEntry{QStringLiteral("iteration 3"), QString(), 3, cp1}};
    const ImaginedWorlds::History without = ImaginedWorlds::historyOf(worlds, false);
    QCOMPARE(without.rows, (QList<int>{1, 3}));
    QCOMPARE(without.approximateLeftOut, 1);
    QCOMPARE(without.placeOf(3), 1);
    QCOMPARE(without.placeOf(2), -1);
    const ImaginedWorlds::History with = ImaginedWorlds::historyOf(worlds, true);
    QCOMPARE(with.rows, (QList<int>{1, 2, 3}));
    QCOMPARE(with.approximateLeftOut, 0);
    // The sweeps' history keeps the same worlds of the project (and loose files, which they replay too).
    Workspace workspace;
    for (const WorldEntry &w : worlds)
        workspace.addWorld(w);
    QStringList sweep;
    for (const ProjectWorld &w : ReplayJobs::historyOf(workspace, false))
        sweep.append(w.name);
    QCOMPARE(sweep, (QStringList{QStringLiteral("loose"), QStringLiteral("iteration 1"), QStringLiteral("iteration 3")}));
}

void TestSession::projectSessionCreatesAndImports()
{
    const QString path = m_dir.filePath(QStringLiteral("imports.dreamrsi"));
    const QStringList builtins = [] {
        QStringList names;
        for (const PolicyVersion &v : ReplayJobs::builtinVersions())
            names.append(v.name);
        return names;
    }();
    QVERIFY(!builtins.isEmpty());
    const auto tree = demoTree("c3-iter1.json");
    {
        Workspace workspace;
        JobTracker jobs;
        ProjectSession session(&workspace, &jobs);
        QSignalSpy loaded(&session, &ProjectSession::loaded);
        QSignalSpy stages(&session, &ProjectSession::stageReached);
        QSignalSpy failed(&session, &ProjectSession::openFailed);
        session.create(path);
        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, 30000);
        QCOMPARE(failed.count(), 0);
        QCOMPARE(loaded.first().first().toString(), path);
        QVERIFY(session.isOpen());
        QVERIFY(!session.isReadOnly());
        // Every stage, in order.
        QList<ProjectSession::Stage> reached;
        for (const QList<QVariant> &s : stages)
            reached.append(s.first().value<ProjectSession::Stage>());
        QCOMPARE(reached, (QList<ProjectSession::Stage>{ProjectSession::Stage::Opened, ProjectSession::Stage::Seeded,
                                                        ProjectSession::Stage::Worlds, ProjectSession::Stage::Versions,
                                                        ProjectSession::Stage::Results, ProjectSession::Stage::Approvals}));
        // A new project is seeded with the built-in versions, stored (not local ids).
        QStringList names;
        for (const PolicyVersion &v : workspace.versions()) {
            names.append(v.name);
            QVERIFY(v.id > 0 && !Workspace::isLocalId(v.id));
        }
        QCOMPARE(names, builtins);
        QVERIFY(workspace.worlds().isEmpty());

        QSignalSpy imported(&session, &ProjectSession::treeImported);
        session.importTree(tree, QStringLiteral("/demo/c3.json"));
        QTRY_COMPARE_WITH_TIMEOUT(imported.count(), 1, 30000);
        const int row = imported.first().at(1).toInt();
        QCOMPARE(workspace.worlds().size(), 1);
        QVERIFY(workspace.worlds().at(row).iteration > 0);
        QCOMPARE(workspace.worlds().at(row).tree->cells().size(), tree->cells().size());
    }
    // Opened again: the imported tree is a world, the versions are not seeded twice.
    Workspace workspace;
    JobTracker jobs;
    ProjectSession session(&workspace, &jobs);
    QSignalSpy loaded(&session, &ProjectSession::loaded);
    session.open(path);
    QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, 30000);
    QCOMPARE(workspace.worlds().size(), 1);
    QCOMPARE(workspace.worlds().first().tree->cells().size(), tree->cells().size());
    QCOMPARE(workspace.versions().size(), builtins.size());
}

void TestSession::roundControllerRunsBuiltinRound()
{
    // A round of the built-in agent, started the way Launch Round starts one,
    // on a project the session created; then the project opened again shows
    // the finished round as a world.
    const QString path = m_dir.filePath(QStringLiteral("round.dreamrsi"));
    Workspace workspace;
    JobTracker jobs;
    ProjectSession session(&workspace, &jobs);
    QSignalSpy loaded(&session, &ProjectSession::loaded);
    session.create(path);
    QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, 30000);

    RoundController controller(session.store());
    QVERIFY(!controller.isBusy());
    QList<bool> running;
    QStringList cellIds;
    IterationInfo started;
    std::optional<RoundSummary> summary;
    RoundCounters counters;
    QStringList log;
    connect(&controller, &RoundController::runningChanged, this, [&](bool r) { running.append(r); });
    connect(&controller, &RoundController::iterationStarted, this,
            [&](const IterationInfo &info, bool resumed, bool followed) {
                QVERIFY(!resumed && !followed);
                started = info;
            });
    connect(&controller, &RoundController::cellStored, this, [&](const Cell &cell) { cellIds.append(cell.id); });
    connect(&controller, &RoundController::countersChanged, this,
            [&](const RoundCounters &c, bool followed) {
                QVERIFY(!followed);
                counters = c;
            });
    connect(&controller, &RoundController::logLine, this, [&](const QString &line) { log.append(line); });
    connect(&controller, &RoundController::finished, this, [&](const RoundSummary &s, bool followed) {
        QVERIFY(!followed);
        summary = s;
    });

    RoundOptions options;
    options.round.task = QStringLiteral("sums_differences");
    options.round.agent.kind = QStringLiteral("builtin");
    options.round.workers = 2;
    options.round.maxCalls = 4;
    options.round.seed = 3;
    options.round.evaluateBaseline = false;
    QVERIFY2(controller.start(options), qPrintable(log.join(QLatin1Char('\n'))));
    QVERIFY(controller.isRunning());
    QCOMPARE(controller.config().workers, std::optional<int>(2));
    QVERIFY(controller.config().acceptSteering); // rounds started from the workbench take steering
    // A second round cannot start beside it.
    QSignalSpy status(&controller, &RoundController::statusMessage);
    QVERIFY(!controller.start(options));
    QCOMPARE(status.last().first().toString(), QStringLiteral("A round is already running"));

    QTRY_VERIFY_WITH_TIMEOUT(summary.has_value(), 120000);
    QVERIFY2(summary->ok(), qPrintable(summary->error));
    QCOMPARE(running, (QList<bool>{true, false}));
    QVERIFY(!controller.isRunning());
    QVERIFY(started.id > 0);
    QCOMPARE(summary->iteration, started.id);
    QCOMPARE(controller.iteration().id, started.id);
    QCOMPARE(summary->stopReason, QStringLiteral("budget: 4 agent calls reached"));
    QCOMPARE(summary->status, IterationStatus::Finished);
    QCOMPARE(summary->counters.calls, 4);
    QCOMPARE(summary->counters.cells, 4);
    QCOMPARE(counters.cells, 4);
    QCOMPARE(controller.cellCount(), 4);
    // Each stored cell was told once, in stored order.
    const IterationData data = take(session.store()->iterationData(started.id));
    QCOMPARE(data.info.status, IterationStatus::Finished);
    QStringList storedIds;
    for (const Cell &c : data.cells)
        storedIds.append(c.id);
    QCOMPARE(cellIds, storedIds);

    // The finished round is a world of the project opened again.
    loaded.clear();
    session.open(path);
    QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, 30000);
    QCOMPARE(workspace.worlds().size(), 1);
    QCOMPARE(workspace.worlds().first().iteration, started.id);
    QCOMPARE(workspace.worlds().first().tree->cells().size(), qsizetype(4));
}

void TestSession::reevaluationControllerRunsLoadsAndCancels()
{
    // A built-in round's best cell re-evaluated twice on this machine, off
    // the GUI thread, as the window's Re-evaluate the Best… does; the
    // workspace then holds its statistics. A second start waits; a cancel
    // stops a long run with what it stored; a Slurm backend that cannot
    // run is refused with the backend's reason.
    const QString path = m_dir.filePath(QStringLiteral("reevaluate.dreamrsi"));
    Workspace workspace;
    JobTracker jobs;
    ProjectSession session(&workspace, &jobs);
    QSignalSpy loaded(&session, &ProjectSession::loaded);
    session.create(path);
    QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, 30000);
    RoundController round(session.store());
    std::optional<RoundSummary> summary;
    connect(&round, &RoundController::finished, this, [&](const RoundSummary &s, bool) { summary = s; });
    RoundOptions options;
    options.round.task = QStringLiteral("sums_differences");
    options.round.agent.kind = QStringLiteral("builtin");
    options.round.workers = 2;
    options.round.maxCalls = 3;
    options.round.seed = 5;
    options.round.evaluateBaseline = false;
    QVERIFY(round.start(options));
    QTRY_VERIFY_WITH_TIMEOUT(summary.has_value(), 120000);
    QVERIFY2(summary->ok(), qPrintable(summary->error));
    loaded.clear();
    session.open(path);
    QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, 30000);
    const IterationId iteration = summary->iteration;

    ReevaluationController controller(&jobs);
    controller.follow(session.store(), &workspace);
    QList<bool> running;
    QList<int> done;
    std::optional<Result<ReevaluationReport>> report;
    connect(&controller, &ReevaluationController::runningChanged, this, [&](bool r) { running.append(r); });
    connect(&controller, &ReevaluationController::progressed, this, [&](int d, int, const QString &) { done.append(d); });
    connect(&controller, &ReevaluationController::finished, this,
            [&](const Result<ReevaluationReport> &r) { report = r; });
    QVERIFY(!controller.start(session.store(), ReevaluationSelection{0, 1, {}}, 2)); // iteration 0: nothing shown
    QVERIFY(controller.start(session.store(), ReevaluationSelection{iteration, 1, {}}, 2));
    QVERIFY(controller.isRunning());
    QVERIFY(!controller.start(session.store(), ReevaluationSelection{iteration, 1, {}}, 2));
    QTRY_VERIFY_WITH_TIMEOUT(report.has_value(), 120000);
    QVERIFY2(report->ok(), qPrintable(report->error));
    QCOMPARE(report->value->stored, 2);
    QVERIFY(!report->value->cancelled);
    QCOMPARE(running, (QList<bool>{true, false}));
    QCOMPARE(done, (QList<int>{1, 2}));
    // Loads follow each stored repeat and the end: wait for the one that holds both.
    QTRY_VERIFY_WITH_TIMEOUT(workspace.reevaluations(iteration).size() == 1
                                 && workspace.reevaluations(iteration).first().repeats.size() == 2,
                             30000);
    QCOMPARE(workspace.reevaluations(iteration).first().okRepeats, 2);

    // Cancelled at the first progress: fewer than planned are stored, and said so.
    report.reset();
    connect(&controller, &ReevaluationController::progressed, &controller, &ReevaluationController::cancel);
    QVERIFY(controller.start(session.store(), ReevaluationSelection{iteration, 1, {}}, 50));
    QTRY_VERIFY_WITH_TIMEOUT(report.has_value(), 120000);
    QVERIFY2(report->ok(), qPrintable(report->error));
    QVERIFY(report->value->cancelled);
    QVERIFY(report->value->stored >= 1 && report->value->stored < 50);
    QTRY_COMPARE_WITH_TIMEOUT(workspace.reevaluations(iteration).first().repeats.size(),
                              qsizetype(2 + report->value->stored), 30000);

    // Slurm without its commands: the backend's checks answer, nothing runs.
    report.reset();
    SlurmSettings slurm;
    slurm.binDir = m_dir.filePath(QStringLiteral("no-slurm-here"));
    QVERIFY(controller.start(session.store(), ReevaluationSelection{iteration, 1, {}}, 1, slurm));
    QTRY_VERIFY_WITH_TIMEOUT(report.has_value(), 60000);
    QVERIFY(!report->ok());
    QVERIFY2(report->error.contains(QLatin1String("sbatch")) || report->error.contains(QLatin1String("Slurm")),
             qPrintable(report->error));
}

void TestSession::dreamControllerPreparesAndDreams()
{
    // The Dream dialog's work without the dialog: DreamSession::prepare
    // reads the history from the project (refused, saying why, when there
    // is none), then the dream runs on a pool thread and reports each
    // version and a proposal, as `dreamrsi dream` does.
    const QString path = m_dir.filePath(QStringLiteral("dream.dreamrsi"));
    {
        auto writer = ProjectWriter::create(path, ProjectInfo{});
        QVERIFY2(writer.ok(), qPrintable(writer.error));
        ReplayConfig config;
        config.workers = 4;
        config.betas = {0.0, 1.0};
        config.valuation = Valuation::Revealed;
        QVERIFY((*writer.value)->setReplayConfig(config).ok());
    }
    ProjectStore store;
    QVERIFY(store.open(path).result().ok());
    DreamController controller(&store);
    std::optional<DreamReport> report;
    connect(&controller, &DreamController::finished, this, [&](const DreamReport &r) { report = r; });
    DreamOptions options;
    options.settings.versions = 2;
    QVERIFY(controller.start(options));
    QVERIFY(!controller.start(options)); // one at a time
    QTRY_VERIFY_WITH_TIMEOUT(report.has_value(), 60000);
    QVERIFY2(report->error.contains(QLatin1String("no finished iteration")), qPrintable(report->error));
    QVERIFY(!controller.isRunning());

    // Unknown developer kinds are refused before anything runs.
    options.agentKind = QStringLiteral("telepathy");
    QVERIFY(!options.problem().isEmpty());
    options.agentKind = QStringLiteral("command");
    QVERIFY2(options.problem().contains(QLatin1String("command line")), qPrintable(options.problem()));
    options.agentKind = QStringLiteral("builtin");

    QList<DiscoveryTree> trees;
    for (int i = 0; i < 2; ++i) {
        SynthParams p;
        p.seed = quint64(31 + i);
        p.width = 5;
        p.depth = 5;
        trees.append(SynthWorld::generate(p));
    }
    for (const DiscoveryTree &t : trees)
        QVERIFY(store.importTree(t).result().ok());
    report.reset();
    int prepared = -1;
    QList<QString> versions;
    connect(&controller, &DreamController::prepared, this, [&](int worlds, int) { prepared = worlds; });
    connect(&controller, &DreamController::versionReady, this,
            [&](const DreamVersion &v) { versions.append(v.developed.version.name); });
    QVERIFY(controller.start(options));
    QTRY_VERIFY_WITH_TIMEOUT(report.has_value(), 300000);
    QVERIFY2(report->error.isEmpty(), qPrintable(report->error));
    QCOMPARE(prepared, 2);
    QCOMPARE(versions.size(), 2);
    QVERIFY(report->proposal());
    QVERIFY(store.close().result().ok());
}

void TestSession::steeringControllerRequestReachesInbox()
{
    const QString path = m_dir.filePath(QStringLiteral("steer.dreamrsi"));
    ProjectStore store; // this process holds the project, as a round's would
    take(store.create(path, ProjectInfo()));
    SteeringController steering;
    steering.setInterval(20);
    QSignalSpy answered(&steering, &SteeringController::answered);

    SteeringRequest hint;
    hint.action = QStringLiteral("hint");
    hint.branch = 2;
    hint.text = QStringLiteral("try a greedy start");
    hint.by = QStringLiteral("Ada");
    // No project yet, then nobody accepting requests: refused, saying why.
    const Result<QString> noProject = steering.send(hint);
    QVERIFY(!noProject.ok());
    QCOMPARE(noProject.error, QStringLiteral("no project is open"));
    steering.setProjectPath(path);
    const Result<QString> nobody = steering.send(hint);
    QVERIFY(!nobody.ok());
    QVERIFY2(nobody.error.contains(QStringLiteral("this process has it open and runs none")), qPrintable(nobody.error));
    QCOMPARE(steering.waiting(), 0);

    // A round here accepts requests: the request lands in the inbox as written.
    SteeringLive live;
    live.pid = QCoreApplication::applicationPid();
    live.kind = QStringLiteral("round");
    live.iteration = 1;
    QVERIFY(SteeringInbox::publish(path, live).ok());
    const Result<QString> approval = steering.send(hint, QStringLiteral("approval"));
    QVERIFY(!approval.ok());
    QVERIFY2(approval.error.contains(QStringLiteral("no loop is waiting for approval")), qPrintable(approval.error));
    const Result<QString> sent = steering.send(hint);
    QVERIFY2(sent.ok(), qPrintable(sent.error));
    QCOMPARE(steering.waiting(), 1);
    const QList<SteeringRequest> pending = SteeringInbox::pending(path);
    QCOMPARE(pending.size(), 1);
    QCOMPARE(pending.first().id, *sent.value);
    QCOMPARE(pending.first().action, QStringLiteral("hint"));
    QCOMPARE(pending.first().branch, std::optional<int>(2));
    QCOMPARE(pending.first().text, hint.text);
    QCOMPARE(pending.first().by, QStringLiteral("Ada"));
    QVERIFY(pending.first().time.isValid());

    // The round's answer comes back through answered().
    SteeringAck ack;
    ack.id = pending.first().id;
    ack.applied = true;
    ack.message = QStringLiteral("hint for b2 stored");
    ack.eventId = 5;
    QVERIFY(SteeringInbox::acknowledge(path, ack).ok());
    QTRY_COMPARE_WITH_TIMEOUT(answered.count(), 1, 5000);
    const auto request = answered.first().at(0).value<SteeringRequest>();
    const auto answer = answered.first().at(1).value<SteeringAck>();
    QCOMPARE(request.id, *sent.value);
    QVERIFY(answer.applied);
    QCOMPARE(answer.message, ack.message);
    QCOMPARE(answer.eventId, qint64(5));
    QCOMPARE(steering.waiting(), 0);
    QVERIFY(SteeringInbox::pending(path).isEmpty());
    SteeringInbox::unpublish(path);
    take(store.close());
}

void TestSession::steeringControllerTakesBackUnanswered()
{
    const QString path = m_dir.filePath(QStringLiteral("gone.dreamrsi"));
    ProjectStore store;
    take(store.create(path, ProjectInfo()));
    SteeringLive live;
    live.pid = QCoreApplication::applicationPid();
    live.kind = QStringLiteral("round");
    live.iteration = 1;
    QVERIFY(SteeringInbox::publish(path, live).ok());
    SteeringController steering;
    steering.setInterval(10);
    steering.setProjectPath(path);
    QSignalSpy answered(&steering, &SteeringController::answered);
    SteeringRequest pause;
    pause.action = QStringLiteral("pause");
    const Result<QString> sent = steering.send(pause);
    QVERIFY2(sent.ok(), qPrintable(sent.error));
    QCOMPARE(SteeringInbox::pending(path).size(), 1);

    // The round stops accepting before it read the request: taken back, refused.
    SteeringInbox::unpublish(path);
    QTRY_COMPARE_WITH_TIMEOUT(answered.count(), 1, 5000);
    const auto answer = answered.first().at(1).value<SteeringAck>();
    QCOMPARE(answer.id, *sent.value);
    QVERIFY(!answer.applied);
    QVERIFY2(answer.message.startsWith(QStringLiteral("not answered: ")), qPrintable(answer.message));
    QVERIFY(answer.message.endsWith(QStringLiteral("the request was taken back")));
    QVERIFY(SteeringInbox::pending(path).isEmpty());
    QCOMPARE(steering.waiting(), 0);

    // Leaving the project takes back what still waits there.
    QVERIFY(SteeringInbox::publish(path, live).ok());
    QVERIFY(steering.send(pause).ok());
    steering.setProjectPath(m_dir.filePath(QStringLiteral("elsewhere.dreamrsi")));
    QCOMPARE(answered.count(), 2);
    QCOMPARE(answered.last().at(1).value<SteeringAck>().message,
             QStringLiteral("the workbench left the project before the answer came"));
    QVERIFY(SteeringInbox::pending(path).isEmpty());
    SteeringInbox::unpublish(path);
    take(store.close());
}

void TestSession::sweepRunnerMatchesVersionReplay()
{
    // A sweep from the window (a child `dreamrsi replay`, on a worker) gives
    // the result VersionReplay gives for the same job run directly.
    Workspace workspace;
    workspace.addWorld({QStringLiteral("cp1"), QStringLiteral("/demo/cp1.json"), 0, demoTree("circle-packing-iter1.json")});
    workspace.addWorld({QStringLiteral("c3"), QStringLiteral("/demo/c3.json"), 0, demoTree("c3-iter1.json")});
    for (const PolicyVersion &v : ReplayJobs::builtinVersions())
        workspace.addVersion(v);
    QVERIFY(workspace.versions().size() >= 2);
    AppSettings settings;
    settings.betas = {0.0, 0.5, 1.0};
    ReplayConfig config = settings.looseReplayConfig();
    const PolicyVersion version = workspace.versions().at(1);

    SweepRunner runner(&workspace);
    const Preferences preferences(settings);
    runner.setPreferences(&preferences);
    runner.setReplayConfig(config);
    QSignalSpy started(&runner, &SweepRunner::started);
    QSignalSpy finished(&runner, &SweepRunner::finished);
    QSignalSpy failed(&runner, &SweepRunner::failed);
    QSignalSpy progress(&runner, &SweepRunner::progress);
    QSignalSpy idle(&runner, &SweepRunner::idle);
    runner.run({version.name, version.name}); // queued once
    QVERIFY(runner.isRunning());
    QCOMPARE(runner.currentVersion(), version.name);
    QTRY_COMPARE_WITH_TIMEOUT(idle.count(), 1, 60000);
    QVERIFY2(failed.isEmpty(), failed.isEmpty() ? "" : qPrintable(failed.first().at(1).toString()));
    QCOMPARE(started.count(), 1);
    QCOMPARE(finished.count(), 1);
    QCOMPARE(finished.first().at(0).toString(), version.name);
    const ReplayResultPtr swept = finished.first().at(1).value<ReplayResultPtr>();
    QVERIFY(swept);
    QVERIFY2(swept->ok(), qPrintable(swept->firstError()));
    QCOMPARE(workspace.result(version.name), swept); // the workspace holds it
    QCOMPARE(swept->worlds.size(), 2);
    QVERIFY(swept->value);
    QCOMPARE(progress.constLast().at(1).toInt(), 2 * 3); // 2 worlds × 3 β
    QCOMPARE(progress.constLast().at(2).toInt(), 2 * 3);

    VersionReplayJob job = ReplayJobs::sweepJob(version, config, settings);
    QCOMPARE(job.where, VersionReplayJob::Where::ChildProcess);
    job.worlds = ReplayJobs::worldsOf(workspace, settings.includeApproximate);
    // Never on the thread that waits: the child is waited for in a local event loop.
    QFuture<SandboxedReplayOutcome> direct = QtConcurrent::run([job] { return VersionReplay::run(job); });
    QTRY_VERIFY_WITH_TIMEOUT(direct.isFinished(), 60000);
    const SandboxedReplayOutcome outcome = direct.result();
    QVERIFY2(outcome.output, qPrintable(outcome.error));
    ReplayResult expected = outcome.output->result;
    expected.policy = version.name;
    QCOMPARE(ReplayJson::resultToIndentedJson(*swept), ReplayJson::resultToIndentedJson(expected));
    QCOMPARE(*swept->value, *expected.value);
}

QTEST_GUILESS_MAIN(TestSession)
#include "tst_session.moc"
