// The live round runner (docs/online.md#a-live-round, #workspaces) with a deterministic fake agent
// and the toy task (python3 scores `VALUE = n`): cells stored as they
// finish with seq in finishing order and their artifacts, the stops (empty
// batch, K1, budget caps, Stop, second Stop), agent and evaluator failures
// as cells, policy errors, and resuming a stopped round.
#include "replay/probes.h"
#include "storetestsupport.h"
#include "roundtestsupport.h"

#include "backend/localevaluationbackend.h"
#include "loop/round/roundbudget.h"
#include "loop/round/roundjournal.h"
#include "loop/round/roundrunner.h"
#include "task/task.h"
#include "loop/round/roundtree.h"
#include "policy/builtinpolicies.h"
#include "policy/policyspec.h"
#include "replay/replayengine.h"
#include "store/projectstore.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QFileInfo>
#include <QHash>
#include <QSet>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>

using namespace dreamrsi;
using dreamrsi::test::take;
using dreamrsi::test::FakeAgent;

namespace {

const char *const allLegal = R"js(
function planGrid(context) { return {branches: 3, refinements: 2, reason: "toy grid 3x2"}; }
function selectBatch(state) { return state.legal.slice(0, state.maxParallelism); }
)js";

const char *const oneRound = R"js(
function selectBatch(state) { return state.round >= 1 ? [] : state.legalRoots.slice(0, 2); }
)js";

// Opens and refines only the branches whose legal cells say they explore
// "beta", for two rounds.
const char *const betaOnly = R"js(
function planGrid(context) { return {branches: 4, refinements: 1, reason: "toy grid 4x1"}; }
function directionOf(m) {
    for (var i = 0; i < m.tags.length; ++i) {
        if (m.tags[i].indexOf("direction:") === 0)
            return m.tags[i].substring(10);
    }
    return "";
}
function selectBatch(state) {
    if (state.round >= 2)
        return [];
    return state.legal.filter(function (id) { return directionOf(state.meta(id)) === "beta"; }).slice(0, state.maxParallelism);
}
)js";

const char *const allOf4x1 = R"js(
function planGrid(context) { return {branches: 4, refinements: 1, reason: "toy grid 4x1"}; }
function selectBatch(state) { return state.legal.slice(0, state.maxParallelism); }
)js";

const char *const illegal = R"js(
function selectBatch(state) { return ["b9a9"]; }
)js";

/// The local evaluator behind a pretend scheduler: each evaluation is "job"
/// 100, 101, … that reports submitted, pending (Priority), running and its
/// end with a queue wait and run time, as a cluster backend does.
class ScheduledBackend final : public EvaluationBackend
{
public:
    QString name() const override { return QStringLiteral("pretend"); }
    EvaluationResult evaluate(const EvaluationRequest &request, const std::atomic_bool &cancel,
                              const ProgressSink &progress) override
    {
        EvaluationProgress p;
        p.backend = QStringLiteral("pretend");
        p.jobId = QString::number(m_next.fetch_add(1));
        p.submittedMs = QDateTime::currentMSecsSinceEpoch();
        for (const char *state : {"SUBMITTED", "PENDING", "RUNNING"}) {
            p.state = QString::fromLatin1(state);
            p.reason = p.state == QLatin1String("PENDING") ? QStringLiteral("Priority") : QString();
            if (p.state == QLatin1String("RUNNING"))
                p.startedMs = QDateTime::currentMSecsSinceEpoch();
            if (progress)
                progress(p);
        }
        const EvaluationResult result = m_local.evaluate(request, cancel);
        p.state = QStringLiteral("COMPLETED");
        p.queueWaitS = 0.25;
        p.runS = 1.5;
        p.finished = true;
        if (progress)
            progress(p);
        return result;
    }

private:
    LocalEvaluationBackend m_local;
    std::atomic_int m_next{100};
};

/// The local evaluator, except that every evaluation after the first
/// `okCalls` fails `env`, as when a cluster refuses the jobs.
class RefusingBackend final : public EvaluationBackend
{
public:
    explicit RefusingBackend(int okCalls) : m_ok(okCalls) {}
    QString name() const override { return QStringLiteral("refusing"); }
    EvaluationResult evaluate(const EvaluationRequest &request, const std::atomic_bool &cancel,
                              const ProgressSink &) override
    {
        if (m_calls.fetch_add(1) >= m_ok)
            return EvaluationResult::failure(FailClass::Env, QStringLiteral("the cluster refused the job"));
        return m_local.evaluate(request, cancel);
    }

private:
    LocalEvaluationBackend m_local;
    const int m_ok;
    std::atomic_int m_calls{0};
};

} // namespace

class TestLoopRound : public QObject
{
    Q_OBJECT
private slots:
    void init();
    void cleanup();
    void fullRoundStoresEveryCell();
    void emptyBatchStops();
    void roundLimitStops();
    void callBudgetCutsTheLastBatch();
    void usdBudgetStops();
    void stopLetsRunningAttemptsFinish();
    void secondStopKillsThenResumeCompletes();
    void resumeWithoutWKeepsTheIterationsOwn();
    void resumeKeepsTheIterationsLimits();
    void policyErrorStopsWithError();
    void unknownTaskIsAnError();
    void legalCellsFollowThePlan();
    void schedulerProgressReachesTheCell();
    void branchesGetDirectionsAndTags();
    void legalRootsTellTheirDirectionLiveAsInReplay();
    void probeCellsAreRealCalls();
    void roundProbesWhereTheModelIsBlind();
    void earlyProbesInATasksFirstRounds();
    void badDirectionsAreAnError();
    void envFailuresOfTheFirstRoundStopIt();
    void laterEnvFailuresStayCells();
    void journalRecordsAndReadsBatches();
    void budgetCapsAndEnvironmentFailure();
    void errorsEndTheLogLineWhole();

private:
    RoundConfig config(const QString &policy, int workers) const;
    /// A copy of the toy task whose task.json also holds `directions`.
    QString toyTaskWithDirections(const QJsonValue &directions) const;
    /// Runs to the end; fills m_cells (in cellFinished order).
    RoundSummary run(RoundConfig c, const std::shared_ptr<FakeAgent> &agent, RoundRunner **keep = nullptr);
    /// A round of W 3 (policy "all", FakeAgent gate closed) killed while its first batch of 3 waits.
    RoundSummary killedAtTheFirstBatch();
    /// A round of `c` (W 3) stopped in `mode` while its first batch of 3
    /// waits at a closed gate; after a Finish stop the gate opens, so the
    /// batch finishes and is stored.
    RoundSummary stoppedAtTheFirstBatch(const RoundConfig &c, RoundRunner::StopMode mode);

    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<ProjectStore> m_store;
    QString m_artifactDir;
    QList<Cell> m_cells;
    QList<qint64> m_storedAtSignal; ///< cells in the store when each cellFinished arrived
};

void TestLoopRound::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    m_store = std::make_unique<ProjectStore>();
    const OpenReport report = take(m_store->create(m_dir->filePath(QStringLiteral("p.dreamrsi")), ProjectInfo()));
    m_artifactDir = report.project.artifactDir;
    for (const auto &[name, code] : {std::pair{"all", allLegal}, std::pair{"one", oneRound}, std::pair{"illegal", illegal},
                                     std::pair{"beta", betaOnly}, std::pair{"all4x1", allOf4x1}}) {
        PolicyVersion v;
        v.name = QString::fromLatin1(name);
        v.code = QString::fromLatin1(code);
        take(m_store->addPolicyVersion(v));
    }
    m_cells.clear();
    m_storedAtSignal.clear();
}

void TestLoopRound::cleanup()
{
    m_store.reset();
    m_dir.reset();
}

RoundConfig TestLoopRound::config(const QString &policy, int workers) const
{
    RoundConfig c;
    c.task = test::toyTaskDir();
    c.agent.kind = QStringLiteral("fake");
    c.policy = PolicyChoice::fromArgument(policy);
    c.workers = workers;
    c.evaluateBaseline = false;
    c.fallbackGrid = GridPlan{4, 2, QStringLiteral("toy fallback")};
    return c;
}

RoundSummary TestLoopRound::run(RoundConfig c, const std::shared_ptr<FakeAgent> &agent, RoundRunner **keep)
{
    auto runner = std::make_unique<RoundRunner>(m_store.get(), c, agent, std::make_shared<LocalEvaluationBackend>());
    bool done = false;
    connect(runner.get(), &RoundRunner::cellFinished, this, [this](qint64 iteration, const Cell &cell) {
        m_cells.append(cell);
        m_storedAtSignal.append(take(m_store->iterationData(iteration)).cells.size());
    });
    connect(runner.get(), &RoundRunner::finished, this, [&done] { done = true; });
    runner->start();
    if (keep)
        *keep = runner.get();
    [&] { QTRY_VERIFY_WITH_TIMEOUT(done, 120000); }();
    runner->wait();
    QCoreApplication::processEvents();
    return runner->summary();
}

void TestLoopRound::fullRoundStoresEveryCell()
{
    auto agent = std::make_shared<FakeAgent>();
    agent->failIds = {QStringLiteral("b1a1")};
    agent->evalFailIds = {QStringLiteral("b2a0")};
    RoundConfig c = config(QStringLiteral("all"), 3);
    c.evaluateBaseline = true;
    c.beta = 0.75;
    const RoundSummary s = run(c, agent);
    QVERIFY2(s.ok(), qPrintable(s.error));
    QCOMPARE(s.status, IterationStatus::Finished);
    QCOMPARE(s.counters.cells, 9);
    QCOMPARE(s.counters.rounds, 3);
    QCOMPARE(s.counters.calls, 9);
    QCOMPARE(s.counters.tokensIn, 3 * (100 + 101 + 102));
    QCOMPARE(s.counters.tokensOut, 9 * 50);
    QVERIFY(qAbs(s.counters.usd - 0.009) < 1e-12);
    QCOMPARE(s.grid, (GridPlan{3, 2, QStringLiteral("toy grid 3x2")}));
    QCOMPARE(agent->calls.load(), 9);

    // Written the moment each finished: seq in finishing order, in the store before the signal.
    QCOMPARE(m_cells.size(), 9);
    for (qsizetype i = 0; i < m_cells.size(); ++i) {
        QCOMPARE(m_cells.at(i).seq, qint64(i));
        QVERIFY(m_storedAtSignal.at(i) >= i + 1);
    }

    const IterationData data = take(m_store->iterationData(s.iteration));
    QCOMPARE(data.info.status, IterationStatus::Finished);
    QCOMPARE(data.info.grid->branches, 3);
    QCOMPARE(data.info.grid->refinements, 2);
    QCOMPARE(data.info.gridReason, QStringLiteral("toy grid 3x2"));
    QCOMPARE(data.info.beta.value_or(-1), 0.75);
    QCOMPARE(data.info.maxParallelism.value_or(0), 3);
    QCOMPARE(data.info.baselineScore.value_or(-1), 1.0); // initial.py: VALUE = 1
    QVERIFY(data.info.policyVersion != 0);
    QCOMPARE(data.cells.size(), 9);

    QHash<QString, Cell> byId;
    for (const Cell &cell : data.cells)
        byId.insert(cell.id, cell);
    // b0a0: 1 + ((0 + 0) % 5 + 1) = 2; b0a1: 2 + (3 % 5 + 1) = 6.
    QCOMPARE(byId.value(QStringLiteral("b0a0")).score.value_or(-1), 2.0);
    QCOMPARE(byId.value(QStringLiteral("b0a1")).score.value_or(-1), 6.0);
    const Cell agentFailure = byId.value(QStringLiteral("b1a1"));
    QCOMPARE(agentFailure.failClass, QStringLiteral("agent"));
    QVERIFY(agentFailure.error.value_or(QString()).contains(QStringLiteral("no code block")));
    QVERIFY(!agentFailure.evaluated);
    QVERIFY(byId.contains(QStringLiteral("b1a2"))); // the round went on
    // b1a2 starts from the program b1a1 inherited (b1a0: 1 + 7 % 5 + 1 = 4): 4 + (7 + 6) % 5 + 1 = 8.
    QCOMPARE(byId.value(QStringLiteral("b1a0")).score.value_or(-1), 4.0);
    QCOMPARE(byId.value(QStringLiteral("b1a2")).score.value_or(-1), 8.0);
    const Cell evalFailure = byId.value(QStringLiteral("b2a0"));
    QCOMPARE(evalFailure.failClass, QStringLiteral("runtime"));
    QVERIFY(!evalFailure.score);
    QCOMPARE(evalFailure.error.value_or(QString()), QStringLiteral("the program asked to fail"));

    const QJsonObject agentInfo = byId.value(QStringLiteral("b0a0")).payload.value(QStringLiteral("agent")).toObject();
    QCOMPARE(agentInfo.value(QStringLiteral("model")).toString(), QStringLiteral("fake-model"));
    QCOMPARE(agentInfo.value(QStringLiteral("tokens_in")).toInt(), 100);
    QVERIFY(byId.value(QStringLiteral("b0a0")).payload.value(QStringLiteral("timing")).toObject().contains(QStringLiteral("eval_s")));

    auto names = [&](const QString &id) {
        QSet<QString> n;
        for (const ArtifactRef &a : take(m_store->cellArtifacts(s.iteration, id)))
            n.insert(a.name);
        return n;
    };
    QCOMPARE(names(QStringLiteral("b0a0")), (QSet<QString>{QStringLiteral("proposal.md"), QStringLiteral("main.py"),
                                                          QStringLiteral("score.json"), QStringLiteral("agent.log")}));
    // An agent failure keeps what the answer said (docs/online.md: the
    // proposal is the text) beside the error; it has no program.
    QCOMPARE(names(QStringLiteral("b1a1")), (QSet<QString>{QStringLiteral("agent.log"), QStringLiteral("error.txt"),
                                                          QStringLiteral("proposal.md")}));
    QFile failedProposal(m_artifactDir + QStringLiteral("/attempts/%1/b1a1/proposal.md").arg(s.iteration));
    QVERIFY(failedProposal.open(QIODevice::ReadOnly));
    QCOMPARE(failedProposal.readAll(), QByteArray("# b1a1\nNo program this time.\n"));
    QVERIFY(names(QStringLiteral("b2a0")).contains(QStringLiteral("error.txt")));
    QVERIFY(names(QStringLiteral("b2a0")).contains(QStringLiteral("score.json")));
    const QString ws = m_artifactDir + QStringLiteral("/attempts/%1/b0a1").arg(s.iteration);
    for (const char *file : {"proposal.md", "main.py", "eval/score.json", "agent.log"})
        QVERIFY2(QFileInfo::exists(ws + QLatin1Char('/') + QLatin1String(file)), file);
    QVERIFY(!QFileInfo::exists(ws + QStringLiteral("/error.txt")));

    // A finished iteration is a replay world at once.
    const DiscoveryTree tree = take(m_store->loadIteration(s.iteration));
    QCOMPARE(tree.cells().size(), 9);
}

void TestLoopRound::emptyBatchStops()
{
    const RoundSummary s = run(config(QStringLiteral("one"), 3), std::make_shared<FakeAgent>());
    QVERIFY2(s.ok(), qPrintable(s.error));
    QCOMPARE(s.status, IterationStatus::Finished);
    QCOMPARE(s.counters.cells, 2);
    QCOMPARE(s.counters.rounds, 1);
    QCOMPARE(s.stopReason, QStringLiteral("the policy returned an empty batch"));
    QCOMPARE(s.grid.branches, 4); // no planGrid: the fallback grid

    // A policy that chooses nothing at all: the round finishes without a
    // call, and its stop reason says that no attempt was made.
    PolicyVersion none;
    none.name = QStringLiteral("none");
    none.code = QStringLiteral("function selectBatch(state) { return []; }");
    take(m_store->addPolicyVersion(none));
    const RoundSummary idle = run(config(QStringLiteral("none"), 3), std::make_shared<FakeAgent>());
    QVERIFY2(idle.ok(), qPrintable(idle.error));
    QCOMPARE(idle.status, IterationStatus::Finished);
    QCOMPARE(idle.counters.cells, 0);
    QCOMPARE(idle.stopReason,
             QStringLiteral("the policy returned an empty batch in the first round: no attempt was made (4 legal cells)"));
}

void TestLoopRound::roundLimitStops()
{
    RoundConfig c = config(QStringLiteral("all"), 3);
    c.maxRounds = 2;
    const RoundSummary s = run(c, std::make_shared<FakeAgent>());
    QCOMPARE(s.status, IterationStatus::Finished);
    QCOMPARE(s.counters.cells, 6);
    QCOMPARE(s.counters.rounds, 2);
    // Stored with the iteration, for a workbench that follows the round.
    const IterationInfo info = take(m_store->iterationData(s.iteration)).info;
    QCOMPARE(info.roundLimit, std::optional<int>(2));
    QCOMPARE(info.maxParallelism, std::optional<int>(3));
    QVERIFY(!info.callLimit);
}

void TestLoopRound::callBudgetCutsTheLastBatch()
{
    RoundConfig c = config(QStringLiteral("all"), 3);
    c.maxCalls = 4;
    const RoundSummary s = run(c, std::make_shared<FakeAgent>());
    QCOMPARE(s.status, IterationStatus::Finished);
    QCOMPARE(s.counters.calls, 4);
    QCOMPARE(s.counters.cells, 4);
    QVERIFY(s.stopReason.startsWith(QStringLiteral("budget")));
    QCOMPARE(take(m_store->iterationData(s.iteration)).info.callLimit, std::optional<qint64>(4));
}

void TestLoopRound::usdBudgetStops()
{
    RoundConfig c = config(QStringLiteral("all"), 1);
    c.maxUsd = 0.0025;
    const RoundSummary s = run(c, std::make_shared<FakeAgent>());
    QCOMPARE(s.counters.cells, 3); // 0.001 per call: the cap is reached after the third
    QVERIFY(s.stopReason.contains(QStringLiteral("USD")));
}

void TestLoopRound::stopLetsRunningAttemptsFinish()
{
    auto agent = std::make_shared<FakeAgent>();
    agent->closeGate();
    RoundRunner *runner = nullptr;
    bool stopped = false;
    QTimer::singleShot(0, this, [&] {
        QTRY_COMPARE_WITH_TIMEOUT(agent->waiting.load(), 3, 60000);
        runner->stop();
        agent->openGate();
        stopped = true;
    });
    const RoundSummary s = run(config(QStringLiteral("all"), 3), agent, &runner);
    QVERIFY(stopped);
    QVERIFY2(s.ok(), qPrintable(s.error));
    QCOMPARE(s.status, IterationStatus::Stopped);
    QCOMPARE(s.counters.cells, 3); // the running attempts finished and were stored
    QCOMPARE(agent->calls.load(), 3); // no new round
    QCOMPARE(take(m_store->iterationData(s.iteration)).info.status, IterationStatus::Stopped);
}

RoundSummary TestLoopRound::stoppedAtTheFirstBatch(const RoundConfig &c, RoundRunner::StopMode mode)
{
    auto agent = std::make_shared<FakeAgent>();
    agent->closeGate();
    RoundRunner *runner = nullptr;
    QTimer::singleShot(0, this, [&] {
        QTRY_COMPARE_WITH_TIMEOUT(agent->waiting.load(), 3, 60000);
        runner->stop(mode);
        if (mode == RoundRunner::StopMode::Finish)
            agent->openGate();
    });
    return run(c, agent, &runner);
}

RoundSummary TestLoopRound::killedAtTheFirstBatch()
{
    return stoppedAtTheFirstBatch(config(QStringLiteral("all"), 3), RoundRunner::StopMode::Kill);
}

void TestLoopRound::secondStopKillsThenResumeCompletes()
{
    const RoundSummary first = killedAtTheFirstBatch();
    QCOMPARE(first.status, IterationStatus::Stopped);
    QCOMPARE(first.counters.cells, 0); // killed attempts are not stored
    QCOMPARE(take(m_store->iterationData(first.iteration)).cells.size(), 0);

    RoundConfig c = config(QString(), 2);
    c.task.clear(); // the iteration's own task
    c.resume = first.iteration;
    m_cells.clear();
    const RoundSummary second = run(c, std::make_shared<FakeAgent>());
    QVERIFY2(second.ok(), qPrintable(second.error));
    QCOMPARE(second.iteration, first.iteration);
    QCOMPARE(second.status, IterationStatus::Finished);
    QCOMPARE(second.counters.cells, 9);
    // The killed batch ran again first, from its parents.
    QStringList firstIds;
    for (qsizetype i = 0; i < 3; ++i)
        firstIds.append(m_cells.at(i).id);
    firstIds.sort();
    QCOMPARE(firstIds, (QStringList{QStringLiteral("b0a0"), QStringLiteral("b1a0"), QStringLiteral("b2a0")}));
    const IterationData data = take(m_store->iterationData(first.iteration));
    QSet<QString> ids;
    QSet<qint64> seqs;
    for (const Cell &cell : data.cells) {
        ids.insert(cell.id);
        seqs.insert(cell.seq);
    }
    QCOMPARE(ids.size(), 9);
    QCOMPARE(seqs.size(), 9);
    QCOMPARE(data.info.maxParallelism, std::optional<int>(2)); // the resumed round's W
}

void TestLoopRound::resumeWithoutWKeepsTheIterationsOwn()
{
    const RoundSummary first = killedAtTheFirstBatch();
    QCOMPARE(first.status, IterationStatus::Stopped);

    RoundConfig c = config(QString(), 2);
    c.task.clear();
    c.workers.reset(); // no W given: the iteration's own (3), not the default 4
    c.resume = first.iteration;
    const RoundSummary second = run(c, std::make_shared<FakeAgent>());
    QVERIFY2(second.ok(), qPrintable(second.error));
    QCOMPARE(second.status, IterationStatus::Finished);
    QCOMPARE(take(m_store->iterationData(first.iteration)).info.maxParallelism, std::optional<int>(3));
}

void TestLoopRound::resumeKeepsTheIterationsLimits()
{
    // W 3, at most 2 rounds and 5 calls; stopped while its first batch runs.
    RoundConfig limited = config(QStringLiteral("all"), 3);
    limited.maxRounds = 2;
    limited.maxCalls = 5;
    const RoundSummary first = stoppedAtTheFirstBatch(limited, RoundRunner::StopMode::Finish);
    QCOMPARE(first.status, IterationStatus::Stopped);
    QCOMPARE(first.counters.cells, 3);

    // Resumed with no limits given: the iteration's own hold (5 calls in
    // all, so the second round is cut to 2 attempts), not "no limit".
    RoundConfig c = config(QString(), 3);
    c.task.clear();
    c.resume = first.iteration;
    const RoundSummary second = run(c, std::make_shared<FakeAgent>());
    QVERIFY2(second.ok(), qPrintable(second.error));
    QCOMPARE(second.counters.cells, 5);
    QCOMPARE(second.counters.rounds, 2);
    const IterationInfo info = take(m_store->iterationData(first.iteration)).info;
    QCOMPARE(info.roundLimit, std::optional<int>(2));
    QCOMPARE(info.callLimit, std::optional<qint64>(5));
}

void TestLoopRound::policyErrorStopsWithError()
{
    const RoundSummary s = run(config(QStringLiteral("illegal"), 2), std::make_shared<FakeAgent>());
    QVERIFY(!s.ok());
    QCOMPARE(s.error, QStringLiteral("round 1: id b9a9 is not legal"));
    QCOMPARE(s.status, IterationStatus::Stopped);
    QCOMPARE(s.counters.cells, 0);
}

void TestLoopRound::unknownTaskIsAnError()
{
    RoundConfig c = config(QStringLiteral("all"), 2);
    c.task = m_dir->filePath(QStringLiteral("no-such-task"));
    const RoundSummary s = run(c, std::make_shared<FakeAgent>());
    QVERIFY(!s.ok());
    QVERIFY2(s.error.contains(QStringLiteral("no-such-task")), qPrintable(s.error));
    QCOMPARE(s.iteration, 0);
    QCOMPARE(take(m_store->iterations()).size(), 0);
}

void TestLoopRound::legalCellsFollowThePlan()
{
    RoundTree tree(GridPlan{2, 1, QString()}, 1.0);
    auto ids = [&] {
        QStringList l;
        for (const CellMeta &m : tree.legal())
            l.append(m.id);
        return l;
    };
    QCOMPARE(ids(), (QStringList{QStringLiteral("b0a0"), QStringLiteral("b1a0")}));
    Cell c;
    c.id = QStringLiteral("b1a0");
    c.branch = 1;
    c.score = 3.0;
    c.evaluated = true;
    c.failClass = QStringLiteral("ok");
    QVERIFY(tree.add(c));
    QVERIFY(!tree.add(c)); // never twice
    QCOMPARE(ids(), (QStringList{QStringLiteral("b0a0"), QStringLiteral("b1a1")}));
    QCOMPARE(tree.checkBatch({QStringLiteral("b1a0")}, 2), QStringLiteral("id b1a0 is not legal"));
    QCOMPARE(tree.checkBatch({QStringLiteral("b0a0"), QStringLiteral("b0a0")}, 2),
             QStringLiteral("id b0a0 appears twice in the batch"));
    QCOMPARE(tree.checkBatch({QStringLiteral("b0a0"), QStringLiteral("b1a1")}, 1),
             QStringLiteral("batch of 2 ids exceeds the 1 workers"));
    PolicyState state;
    tree.fillState(state, 0.5, 2, 1);
    QCOMPARE(state.observed().size(), 1);
    QCOMPARE(state.observed().first().deltaVsBaseline.value_or(0), 2.0);
    QCOMPARE(state.observed().first().deltaVsParent.value_or(0), 2.0);
    QCOMPARE(state.legalRootIds(), QStringList{QStringLiteral("b0a0")});
    QVERIFY(state.meta(QStringLiteral("b1a1")));
    QCOMPARE(state.meta(QStringLiteral("b1a1"))->parentId, QStringLiteral("b1a0"));
    QVERIFY(!state.meta(QStringLiteral("b1a2")));
    c.id = QStringLiteral("b1a1");
    c.attempt = 1;
    c.seq = 1;
    QVERIFY(tree.add(c));
    QCOMPARE(ids(), QStringList{QStringLiteral("b0a0")}); // b1 reached its depth cap
}

void TestLoopRound::schedulerProgressReachesTheCell()
{
    // A backend with a scheduler: every attempt's job and states reach the
    // listeners (attemptProgress, after attemptStarted and before
    // cellFinished), and the stored cell keeps the job, the queue wait and
    // the run time apart.
    auto agent = std::make_shared<FakeAgent>();
    RoundRunner runner(m_store.get(), config(QStringLiteral("all"), 2), agent, std::make_shared<ScheduledBackend>());
    QHash<QString, QStringList> states; // cell → states in arrival order
    QSet<QString> started;
    QStringList outOfOrder;
    QHash<QString, QString> jobs;
    connect(&runner, &RoundRunner::attemptStarted, this, [&](const QString &id) { started.insert(id); });
    connect(&runner, &RoundRunner::attemptProgress, this, [&](const QString &id, const EvaluationProgress &p) {
        if (!started.contains(id) || std::any_of(m_cells.cbegin(), m_cells.cend(), [&](const Cell &c) { return c.id == id; }))
            outOfOrder << id;
        states[id] << (p.reason.isEmpty() ? p.state : p.state + QLatin1Char('/') + p.reason);
        jobs[id] = p.jobId;
    });
    connect(&runner, &RoundRunner::cellFinished, this, [this](qint64, const Cell &cell) { m_cells.append(cell); });
    bool done = false;
    connect(&runner, &RoundRunner::finished, this, [&done] { done = true; });
    runner.start();
    QTRY_VERIFY_WITH_TIMEOUT(done, 120000);
    runner.wait();
    QCoreApplication::processEvents();
    QVERIFY2(runner.summary().ok(), qPrintable(runner.summary().error));
    QCOMPARE(m_cells.size(), 9);
    QVERIFY2(outOfOrder.isEmpty(), qPrintable(outOfOrder.join(QLatin1Char(' '))));
    const QStringList expected = {QStringLiteral("SUBMITTED"), QStringLiteral("PENDING/Priority"), QStringLiteral("RUNNING"),
                                  QStringLiteral("COMPLETED")};
    QSet<QString> jobIds;
    for (const Cell &cell : std::as_const(m_cells)) {
        QCOMPARE(states.value(cell.id), expected);
        const QJsonObject timing = cell.payload.value(QStringLiteral("timing")).toObject();
        QCOMPARE(timing.value(QStringLiteral("queue_wait_s")).toDouble(), 0.25);
        QCOMPARE(timing.value(QStringLiteral("run_s")).toDouble(), 1.5);
        const QJsonObject scheduler = cell.payload.value(QStringLiteral("scheduler")).toObject();
        QCOMPARE(scheduler.value(QStringLiteral("backend")).toString(), QStringLiteral("pretend"));
        QCOMPARE(scheduler.value(QStringLiteral("job_id")).toString(), jobs.value(cell.id));
        QCOMPARE(scheduler.value(QStringLiteral("state")).toString(), QStringLiteral("COMPLETED"));
        jobIds.insert(jobs.value(cell.id));
    }
    QCOMPARE(jobIds.size(), 9); // one job per attempt

    // The history keeps them: read back from the store.
    const QList<Cell> stored = take(m_store->iterationData(runner.summary().iteration)).cells;
    QCOMPARE(stored.size(), 9);
    for (const Cell &cell : stored) {
        QCOMPARE(cell.payload.value(QStringLiteral("timing")).toObject().value(QStringLiteral("queue_wait_s")).toDouble(), 0.25);
        QCOMPARE(cell.payload.value(QStringLiteral("scheduler")).toObject().value(QStringLiteral("job_id")).toString(),
                 jobs.value(cell.id));
    }
}

// The resume journal on its own: what a resume reads back.
void TestLoopRound::journalRecordsAndReadsBatches()
{
    const RoundJournal journal(m_dir->filePath(QStringLiteral("attempts/7")));
    QStringList last;
    QCOMPARE(journal.lastRound(&last), -1); // nothing recorded yet
    QVERIFY(journal.batches().isEmpty());
    QVERIFY(journal.record(0, {QStringLiteral("b0a0"), QStringLiteral("b1a0")}).ok());
    QVERIFY(journal.record(2, {QStringLiteral("b0a1")}).ok());
    QCOMPARE(journal.fileOf(2), m_dir->filePath(QStringLiteral("attempts/7/rounds/2.json")));
    QCOMPARE(journal.lastRound(&last), 2);
    QCOMPARE(last, QStringList{QStringLiteral("b0a1")});
    // A round with no file (never recorded) reads as an empty batch.
    QCOMPARE(
        journal.batches(),
        (QList<QStringList>{{QStringLiteral("b0a0"), QStringLiteral("b1a0")}, {}, {QStringLiteral("b0a1")}}));
    // A journal that cannot be written says where.
    const QString blocked = m_dir->filePath(QStringLiteral("blocked"));
    QFile file(blocked);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.close();
    const Result<Done> refused = RoundJournal(blocked).record(0, {QStringLiteral("b0a0")});
    QVERIFY(!refused.ok());
    QVERIFY2(refused.error.contains(QStringLiteral("cannot record round 1")), qPrintable(refused.error));
}

void TestLoopRound::budgetCapsAndEnvironmentFailure()
{
    RoundConfig c;
    RoundCounters counters;
    QVERIFY(RoundBudget::reached(c, counters).isEmpty()); // no cap, nothing reached
    c.maxCalls = 3;
    c.maxTokens = 1000;
    c.maxUsd = 0.5;
    counters.calls = 2;
    counters.tokensIn = 600;
    counters.tokensOut = 300;
    counters.usd = 0.49;
    QVERIFY(RoundBudget::reached(c, counters).isEmpty());
    counters.tokensOut = 400;
    QCOMPARE(RoundBudget::reached(c, counters), QStringLiteral("budget: 1000 tokens reached"));
    counters.calls = 3;
    QCOMPARE(RoundBudget::reached(c, counters), QStringLiteral("budget: 3 agent calls reached"));

    Cell env;
    env.failClass = QString::fromLatin1(FailClass::Env);
    env.error = QStringLiteral("python3: not found");
    Cell ok;
    ok.failClass = QString::fromLatin1(FailClass::Ok);
    QVERIFY(RoundBudget::environmentFailure({}).isEmpty());
    QVERIFY(RoundBudget::environmentFailure({env, ok}).isEmpty()); // one scored: the round goes on
    const QString cause = RoundBudget::environmentFailure({env, env});
    QVERIFY2(cause.contains(QStringLiteral("(env)")) &&
                 cause.count(QStringLiteral("python3: not found")) == 1,
             qPrintable(cause));
}

QTEST_GUILESS_MAIN(TestLoopRound)

QString TestLoopRound::toyTaskWithDirections(const QJsonValue &directions) const
{
    const QString dir = m_dir->filePath(QStringLiteral("task-with-directions"));
    QDir().mkpath(dir);
    // The evaluator's sandbox may run as another user (root runs it as
    // nobody): the private temporary folder must let it reach the task.
    QFile::setPermissions(m_dir->path(), QFile::permissions(m_dir->path()) | QFileDevice::ExeGroup | QFileDevice::ExeOther);
    const QDir toy(test::toyTaskDir());
    for (const QString &name : toy.entryList(QDir::Files)) {
        QFile::remove(dir + QLatin1Char('/') + name);
        if (!QFile::copy(toy.filePath(name), dir + QLatin1Char('/') + name))
            return {};
    }
    QFile spec(dir + QStringLiteral("/task.json"));
    if (!spec.open(QIODevice::ReadOnly))
        return {};
    QJsonObject o = QJsonDocument::fromJson(spec.readAll()).object();
    spec.close();
    o.insert(QStringLiteral("directions"), directions);
    QFile::remove(spec.fileName());
    if (!spec.open(QIODevice::WriteOnly) || spec.write(QJsonDocument(o).toJson()) < 0)
        return {};
    return dir;
}

void TestLoopRound::branchesGetDirectionsAndTags()
{
    // Branch b follows directions[b mod 2] at every attempt, whatever the
    // agent: the agent is told (name and description) and the cell is tagged.
    RoundConfig c = config(QStringLiteral("all"), 3);
    c.task = toyTaskWithDirections(QJsonArray{QStringLiteral("alpha"),
                                              QJsonObject{{QStringLiteral("name"), QStringLiteral("beta")},
                                                          {QStringLiteral("description"), QStringLiteral("try the beta idea")}}});
    QVERIFY(!c.task.isEmpty());
    auto agent = std::make_shared<FakeAgent>();
    const RoundSummary s = run(c, agent);
    QVERIFY2(s.ok(), qPrintable(s.error));
    QCOMPARE(m_cells.size(), 9);
    const auto asked = agent->directions();
    QCOMPARE(asked.size(), 9);
    for (const Cell &cell : std::as_const(m_cells)) {
        const bool alpha = cell.branch % 2 == 0;
        const QString tag = alpha ? QStringLiteral("direction:alpha") : QStringLiteral("direction:beta");
        QCOMPARE(cell.tags, QStringList{tag});
        QCOMPARE(asked.value(cell.id).first, tag);
        QCOMPARE(asked.value(cell.id).second, alpha ? QString() : QStringLiteral("try the beta idea"));
    }
    // The tags are stored with the cells (and so reach replay's meta().tags).
    const IterationData data = take(m_store->iterationData(s.iteration));
    for (const Cell &cell : data.cells)
        QCOMPARE(cell.tags.size(), 1);

    // The toy task itself has none: no hint, no tag.
    init();
    auto plain = std::make_shared<FakeAgent>();
    QVERIFY(run(config(QStringLiteral("one"), 2), plain).ok());
    QVERIFY(!m_cells.isEmpty());
    for (const Cell &cell : std::as_const(m_cells)) {
        QVERIFY(cell.tags.isEmpty());
        QCOMPARE(plain->directions().value(cell.id).first, QString());
    }

    // A built-in task brings the built-in agent's directions, described.
    const Result<Task> resolved = Task::resolve(QStringLiteral("circle_packing_26"));
    QVERIFY2(resolved.ok(), qPrintable(resolved.error));
    const std::optional<Task> &builtin = resolved.value;
    QCOMPARE(builtin->directions.size(), 5);
    QCOMPARE(builtin->directionFor(0)->name, QStringLiteral("hex-rows"));
    QCOMPARE(builtin->directionFor(6)->name, builtin->directionFor(1)->name);
    for (const Task::Direction &d : builtin->directions)
        QVERIFY2(!d.detail.isEmpty(), qPrintable(d.name));
}

void TestLoopRound::legalRootsTellTheirDirectionLiveAsInReplay()
{
    // The live tree tags every legal cell with its branch's direction,
    // directions[b mod n], before the cell exists.
    RoundTree tree(GridPlan{3, 1, QString()}, 1.0);
    for (const CellMeta &m : tree.legal())
        QVERIFY(m.tags.isEmpty()); // no directions, no tags
    tree.setDirections({QStringLiteral("alpha"), QStringLiteral("beta")});
    QStringList tags;
    for (const CellMeta &m : tree.legal())
        tags.append(m.tags.join(QLatin1Char(',')));
    QCOMPARE(tags, (QStringList{QStringLiteral("direction:alpha"), QStringLiteral("direction:beta"), QStringLiteral("direction:alpha")}));
    PolicyState state;
    tree.fillState(state, 0.5, 2, 0);
    QCOMPARE(state.meta(QStringLiteral("b1a0"))->tags, QStringList{QStringLiteral("direction:beta")});

    // A policy that opens only the roots of direction "beta" (and refines
    // them) does so live: before the legal roots told their direction, it
    // found none and ran nothing.
    const QString task = toyTaskWithDirections(QJsonArray{QStringLiteral("alpha"), QStringLiteral("beta")});
    QVERIFY(!task.isEmpty());
    RoundConfig c = config(QStringLiteral("beta"), 3);
    c.task = task;
    const RoundSummary live = run(c, std::make_shared<FakeAgent>());
    QVERIFY2(live.ok(), qPrintable(live.error));
    QSet<QString> liveIds;
    for (const Cell &cell : std::as_const(m_cells)) {
        liveIds.insert(cell.id);
        QCOMPARE(cell.tags, QStringList{QStringLiteral("direction:beta")});
    }
    QCOMPARE(liveIds, (QSet<QString>{QStringLiteral("b1a0"), QStringLiteral("b3a0"), QStringLiteral("b1a1"), QStringLiteral("b3a1")}));

    // Replayed on a world recorded by another policy (every cell of the same
    // grid), the same policy reads the recorded tags and reveals the same cells.
    m_cells.clear();
    c.policy = PolicyChoice::stored(QStringLiteral("all4x1"));
    const RoundSummary full = run(c, std::make_shared<FakeAgent>());
    QVERIFY2(full.ok(), qPrintable(full.error));
    QCOMPARE(full.counters.cells, 8);
    const DiscoveryTree world = take(m_store->loadIteration(full.iteration));
    Result<std::unique_ptr<Policy>> policy = PolicySpec::script(QString::fromLatin1(betaOnly), QStringLiteral("beta")).create();
    QVERIFY2(policy.ok(), qPrintable(policy.error));
    ReplayOptions options;
    options.workers = 3;
    const EpisodeResult replayed = ReplayEngine::runEpisode(world, **policy.value, 0.5, options);
    QVERIFY2(replayed.ok(), qPrintable(replayed.error));
    QCOMPARE(QSet<QString>(replayed.revealed.begin(), replayed.revealed.end()), liveIds);
    QCOMPARE(replayed.rounds, live.counters.rounds);
}

void TestLoopRound::probeCellsAreRealCalls()
{
    // The portfolio with probing on: once its rule would stop, it goes on
    // with the best branch; those cells are agent calls and evaluations like
    // any other, stored with the iteration. One worker, so both rounds take
    // the same decisions up to the stop; β 0 stops after one reveal without
    // a new best, here the agent failure at b0a1.
    const QString source = BuiltinPolicies::javaScriptSource(QStringLiteral("portfolio"));
    QString probing = source;
    probing.replace(QStringLiteral("const PROBE_CALLS = 0;"), QStringLiteral("const PROBE_CALLS = 3;"));
    QVERIFY(probing != source);
    PolicyVersion v;
    v.name = QStringLiteral("probing");
    v.code = probing;
    take(m_store->addPolicyVersion(v));

    RoundConfig c = config(QStringLiteral("builtin:portfolio"), 1);
    c.fallbackGrid = GridPlan{2, 8, QStringLiteral("toy fallback")};
    c.beta = 0.0;
    auto plainAgent = std::make_shared<FakeAgent>();
    plainAgent->failIds = {QStringLiteral("b0a1")};
    const RoundSummary plain = run(c, plainAgent);
    QVERIFY2(plain.ok(), qPrintable(plain.error));
    const QList<Cell> plainCells = m_cells;
    QCOMPARE(plainCells.size(), 2); // b0a0, then b0a1 fails: the rule stops

    m_cells.clear();
    c.policy = PolicyChoice::stored(QStringLiteral("probing"));
    auto probeAgent = std::make_shared<FakeAgent>();
    probeAgent->failIds = {QStringLiteral("b0a1")};
    const RoundSummary probed = run(c, probeAgent);
    QVERIFY2(probed.ok(), qPrintable(probed.error));
    QVERIFY2(m_cells.size() > plainCells.size(), qPrintable(QStringLiteral("%1 vs %2").arg(m_cells.size()).arg(plainCells.size())));
    for (qsizetype i = 0; i < plainCells.size(); ++i)
        QCOMPARE(m_cells.at(i).id, plainCells.at(i).id);
    // The first probe refines the branch that held the best score.
    std::optional<double> best;
    int bestBranch = -1;
    for (const Cell &cell : plainCells) {
        if (cell.isSuccess() && cell.score && (!best || *cell.score > *best)) {
            best = cell.score;
            bestBranch = cell.branch;
        }
    }
    QCOMPARE(m_cells.at(plainCells.size()).branch, bestBranch);
    QVERIFY(m_cells.at(plainCells.size()).attempt > 0);
    // Real calls: the agent ran for each, and each is stored.
    QCOMPARE(probeAgent->calls.load(), int(m_cells.size()));
    QCOMPARE(plainAgent->calls.load(), int(plainCells.size()));
    QCOMPARE(probed.counters.calls, qint64(m_cells.size()));
    QCOMPARE(take(m_store->iterationData(probed.iteration)).cells.size(), m_cells.size());
}

void TestLoopRound::roundProbesWhereTheModelIsBlind()
{
    // The runner's probes (docs/online.md#probes), apart from the policy's
    // own: after the policy's last batch, the best branch goes one attempt
    // deeper while that depth is blind. A fresh project has no history, so
    // depths 2 and 3 are blind; the budget is two calls.
    RoundConfig c = config(QStringLiteral("builtin:portfolio"), 1);
    c.fallbackGrid = GridPlan{2, 8, QStringLiteral("toy fallback")};
    c.beta = 0.0;
    auto plainAgent = std::make_shared<FakeAgent>();
    plainAgent->failIds = {QStringLiteral("b0a1")};
    const RoundSummary plain = run(c, plainAgent); // a built-in policy: probes off by default
    QVERIFY2(plain.ok(), qPrintable(plain.error));
    QCOMPARE(m_cells.size(), 2);
    for (const Cell &cell : std::as_const(m_cells))
        QVERIFY(!Probes::isProbe(cell));

    m_cells.clear();
    c.probe = ProbeSetting::calls(2);
    auto probeAgent = std::make_shared<FakeAgent>();
    probeAgent->failIds = {QStringLiteral("b0a1")};
    const RoundSummary probed = run(c, probeAgent);
    QVERIFY2(probed.ok(), qPrintable(probed.error));
    const QList<Cell> stored = take(m_store->iterationData(probed.iteration)).cells;
    QCOMPARE(stored.size(), 4);
    QCOMPARE(probed.counters.calls, qint64(4)); // real calls: counted
    QCOMPARE(probeAgent->calls.load(), 4);
    QStringList probeIds;
    for (const Cell &cell : stored) {
        if (!Probes::isProbe(cell))
            continue;
        probeIds.append(cell.id);
        QVERIFY2(cell.payload.value(Probes::reasonKey()).toString().startsWith(QStringLiteral("depth %1").arg(cell.attempt)),
                 qPrintable(cell.payload.value(Probes::reasonKey()).toString()));
    }
    QCOMPARE(probeIds, (QStringList{QStringLiteral("b0a2"), QStringLiteral("b0a3")}));
    QCOMPARE(probed.counters.rounds, 4); // the policy's two and the two probes

    // Each probe is a round: a round limit K1 stops them as it stops the
    // policy (the policy's two rounds, then one probe under K1 = 3, none
    // under K1 = 2).
    for (const int limit : {3, 2}) {
        m_cells.clear();
        c.maxRounds = limit;
        auto limited = std::make_shared<FakeAgent>();
        limited->failIds = {QStringLiteral("b0a1")};
        const RoundSummary s = run(c, limited);
        QVERIFY2(s.ok(), qPrintable(s.error));
        QCOMPARE(s.counters.rounds, limit);
        const QList<Cell> cells = take(m_store->iterationData(s.iteration)).cells;
        QCOMPARE(cells.size(), qsizetype(limit));
        QCOMPARE(std::count_if(cells.cbegin(), cells.cend(), [](const Cell &cell) { return Probes::isProbe(cell); }),
                 std::ptrdiff_t(limit - 2));
    }
}

void TestLoopRound::earlyProbesInATasksFirstRounds()
{
    // `--probe early` (docs/online.md#probes): a task's first rounds get up to
    // six probe calls while none of its recorded rounds has shown a
    // refinement pay, then three. A fresh project has no recorded round.
    RoundConfig c = config(QStringLiteral("builtin:portfolio"), 1);
    c.fallbackGrid = GridPlan{2, 8, QStringLiteral("toy fallback")};
    c.beta = 0.0;
    c.probe = ProbeSetting::early();
    const auto probesOf = [this](qint64 iteration) {
        QStringList ids;
        for (const Cell &cell : take(m_store->iterationData(iteration)).cells) {
            if (Probes::isProbe(cell))
                ids.append(cell.id);
        }
        return ids;
    };
    const auto runLogged = [&](QStringList *log) {
        auto agent = std::make_shared<FakeAgent>();
        agent->failIds = {QStringLiteral("b0a1")};
        auto runner = std::make_unique<RoundRunner>(m_store.get(), c, agent, std::make_shared<LocalEvaluationBackend>());
        bool done = false;
        connect(runner.get(), &RoundRunner::logLine, this, [log](const QString &line) { log->append(line); });
        connect(runner.get(), &RoundRunner::finished, this, [&done] { done = true; });
        runner->start();
        [&] { QTRY_VERIFY_WITH_TIMEOUT(done, 120000); }();
        runner->wait();
        QCoreApplication::processEvents();
        return runner->summary();
    };

    QStringList firstLog;
    const RoundSummary first = runLogged(&firstLog);
    QVERIFY2(first.ok(), qPrintable(first.error));
    const QString early = QStringLiteral("probes: up to 6 calls (early: the task has 0 recorded rounds so far, none with a refinement");
    QVERIFY2(firstLog.filter(early).size() == 1, qPrintable(firstLog.join(QLatin1Char('\n'))));
    // b0a0, then b0a1 fails: the chain goes on along branch 0 through every blind depth, six calls.
    QCOMPARE(probesOf(first.iteration),
             (QStringList{QStringLiteral("b0a2"), QStringLiteral("b0a3"), QStringLiteral("b0a4"), QStringLiteral("b0a5"),
                          QStringLiteral("b0a6"), QStringLiteral("b0a7")}));
    const std::optional<DiscoveryTree> firstTree = DiscoveryTree::build(TreeMeta{}, take(m_store->iterationData(first.iteration)).cells);
    QVERIFY(firstTree);
    QVERIFY(Probes::refiningPaid(*firstTree));

    // That round showed refinements pay: the next one is back at three.
    QStringList secondLog;
    const RoundSummary second = runLogged(&secondLog);
    QVERIFY2(second.ok(), qPrintable(second.error));
    QVERIFY2(secondLog.filter(QStringLiteral("probes: up to")).isEmpty(), qPrintable(secondLog.join(QLatin1Char('\n'))));
    QCOMPARE(probesOf(second.iteration).size(), ProbeSetting::AutoCalls);
}

void TestLoopRound::badDirectionsAreAnError()
{
    const QList<std::pair<QJsonValue, QString>> cases{
        {QJsonValue(5), QStringLiteral("\"directions\" is not an array")},
        {QJsonArray{QStringLiteral("ok"), 3}, QStringLiteral("entry 1 is neither a name nor an object")},
        {QJsonArray{QJsonObject{{QStringLiteral("description"), QStringLiteral("nameless")}}}, QStringLiteral("entry 0 has no name")},
        {QJsonArray{QStringLiteral("  ")}, QStringLiteral("entry 0 has no name")},
        {QJsonArray{QJsonObject{{QStringLiteral("name"), QStringLiteral("x")}, {QStringLiteral("description"), 1}}},
         QStringLiteral("entry 0: \"description\" is not a string")},
    };
    for (const auto &[directions, message] : cases) {
        const QString task = toyTaskWithDirections(directions);
        QVERIFY(!task.isEmpty());
        const QString error = Task::resolve(task).error;
        QVERIFY(!error.isEmpty());
        QVERIFY2(error.contains(message) && error.contains(QStringLiteral("task.json")), qPrintable(error));
        // A round on it stops before it starts: nothing stored.
        RoundConfig c = config(QStringLiteral("all"), 2);
        c.task = task;
        const RoundSummary s = run(c, std::make_shared<FakeAgent>());
        QVERIFY(!s.ok());
        QVERIFY2(s.error.contains(message), qPrintable(s.error));
        QCOMPARE(take(m_store->iterations()).size(), 0);
    }
}

void TestLoopRound::envFailuresOfTheFirstRoundStopIt()
{
    // Every attempt of the first round fails `env`: the round stops after
    // it with the cause, before the agent is called again.
    auto agent = std::make_shared<FakeAgent>();
    RoundRunner runner(m_store.get(), config(QStringLiteral("all"), 2), agent, std::make_shared<RefusingBackend>(0));
    bool done = false;
    connect(&runner, &RoundRunner::finished, this, [&done] { done = true; });
    runner.start();
    QTRY_VERIFY_WITH_TIMEOUT(done, 120000);
    runner.wait();
    const RoundSummary s = runner.summary();
    QVERIFY(!s.ok());
    QCOMPARE(s.status, IterationStatus::Stopped);
    QVERIFY2(s.error.contains(QStringLiteral("environment")) && s.error.contains(QStringLiteral("the cluster refused the job")),
             qPrintable(s.error));
    QCOMPARE(s.counters.cells, 2);
    QCOMPARE(agent->calls.load(), 2);
    const IterationData data = take(m_store->iterationData(s.iteration));
    QCOMPARE(data.info.status, IterationStatus::Stopped);
    QCOMPARE(data.cells.size(), 2);
}

void TestLoopRound::laterEnvFailuresStayCells()
{
    // One attempt of the first round scores; every later one fails `env`.
    // Those are cells like any other failure, and the round runs to its end.
    auto agent = std::make_shared<FakeAgent>();
    RoundRunner runner(m_store.get(), config(QStringLiteral("all"), 2), agent, std::make_shared<RefusingBackend>(1));
    bool done = false;
    connect(&runner, &RoundRunner::finished, this, [&done] { done = true; });
    runner.start();
    QTRY_VERIFY_WITH_TIMEOUT(done, 120000);
    runner.wait();
    const RoundSummary s = runner.summary();
    QVERIFY2(s.ok(), qPrintable(s.error));
    QCOMPARE(s.status, IterationStatus::Finished);
    QCOMPARE(s.counters.cells, 9);
    const IterationData data = take(m_store->iterationData(s.iteration));
    int env = 0;
    for (const Cell &c : data.cells)
        env += c.failClass == QLatin1String(FailClass::Env) ? 1 : 0;
    QCOMPARE(env, 8);
}

void TestLoopRound::errorsEndTheLogLineWhole()
{
    // A traceback: its last line ends the log line whole, whatever its
    // length; the rest stays the cell's (the inspector shows it).
    Cell c;
    c.id = QStringLiteral("b0a1");
    c.failClass = QStringLiteral("runtime");
    const QString last = QStringLiteral("FileNotFoundError: [Errno 2] No such file or directory: '")
                         + QString(240, u'x') + QStringLiteral("/data/input.csv'");
    c.error = QStringLiteral("Traceback (most recent call last):\n  File \"/tmp/work/main.py\", line 3, in <module>\n    open(p)\n")
              + last + QStringLiteral("\n");
    const QString text = RoundRunner::describeOutcome(c);
    QVERIFY2(text.startsWith(QStringLiteral("runtime: ") + last), qPrintable(text));
    QVERIFY2(!text.contains(QStringLiteral("Traceback")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("inspector")), qPrintable(text));
    c.error = QStringLiteral("no output");
    QCOMPARE(RoundRunner::describeOutcome(c), QStringLiteral("runtime: no output"));
    c.score = 0.5;
    c.failClass = QStringLiteral("ok");
    QCOMPARE(RoundRunner::describeOutcome(c), QStringLiteral("score 0.5 (ok)"));
}

#include "tst_loop_round.moc"
