// The recursive loop (round → dream → approve) and the fixed-exploration
// baseline on the toy task with the deterministic fake agent: the approved
// version drives the next round, the baseline never changes its policy, both
// runs behave identically in the first round, and the JSON has the contract's
// keys.
#include "roundtestsupport.h"

#include "backend/localevaluationbackend.h"
#include "loop/dream/policyimprover.h"
#include "loop/recursiveloop.h"
#include "store/projectstore.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

using namespace dreamrsi;
using dreamrsi::test::FakeAgent;

namespace {

LoopSettings toySettings(bool fixed)
{
    LoopSettings s;
    s.round.task = test::toyTaskDir();
    s.round.agent.kind = QStringLiteral("fake");
    s.round.workers = 2;
    s.round.evaluateBaseline = false;
    s.round.fallbackGrid = GridPlan{4, 2, QStringLiteral("toy fallback")};
    s.round.seed = 9;
    s.dream.versions = 2;
    s.dream.replay.workers = 2;
    s.dream.replay.betas = QList<double>{0.0, 0.5, 1.0};
    s.dream.limits.memoryBytes = qint64(2048) << 20;
    s.dream.limits.wallMs = 120000;
    s.iterations = 3;
    s.fixed = fixed;
    s.autoApprove = !fixed;
    return s;
}

} // namespace

class TestLoopDream : public QObject
{
    Q_OBJECT

private:
    LoopReport runLoop(const QString &path, bool fixed, QList<Approval> *approvals)
    {
        return runLoop(path, toySettings(fixed), approvals);
    }
    LoopReport runLoop(const QString &path, const LoopSettings &settings, QList<Approval> *approvals)
    {
        const bool fixed = settings.fixed;
        ProjectStore store;
        const StoreResult<OpenReport> created = store.create(path, ProjectInfo()).result();
        if (!created.ok())
            qWarning() << created.error;
        auto agent = std::make_shared<FakeAgent>();
        RecursiveLoop loop(&store, agent, std::make_shared<LocalEvaluationBackend>(),
                           fixed ? nullptr : std::make_shared<PolicyImprover>(2));
        const LoopReport report = loop.run(settings);
        *approvals = store.approvals().result().value.value_or(QList<Approval>());
        store.close().waitForFinished();
        return report;
    }

private slots:
    void loopAndFixedBaseline()
    {
        QTemporaryDir dir;
        QList<Approval> approvals, fixedApprovals;
        const LoopReport dream = runLoop(dir.filePath(QStringLiteral("dream.dreamrsi")), false, &approvals);
        QVERIFY2(dream.error.isEmpty(), qPrintable(dream.error));
        QCOMPARE(dream.iterations.size(), 3);
        const LoopReport fixed = runLoop(dir.filePath(QStringLiteral("fixed.dreamrsi")), true, &fixedApprovals);
        QVERIFY2(fixed.error.isEmpty(), qPrintable(fixed.error));
        QCOMPARE(fixed.iterations.size(), 3);

        // Dream-RSI: a dream after every round but the last, each approved
        // automatically; the approved version drives the next round.
        qint64 calls = 0;
        for (const LoopIteration &it : dream.iterations) {
            QVERIFY(it.round.ok());
            QVERIFY(it.round.counters.calls > 0);
            calls += it.round.counters.calls;
            QCOMPARE(it.cumulativeCalls, calls);
            QCOMPARE(it.dream.has_value(), it.index < 3);
            if (it.dream) {
                QCOMPARE(it.dream->versions.size(), 2);
                QVERIFY(it.dream->proposal());
                QCOMPARE(it.approved, it.dream->proposal()->developed.version.id);
                QCOMPARE(dream.iterations.at(it.index).policyVersion, it.approved);
                // The second dream replays in both finished iterations, over
                // C imagined completions of each (a new project's valuation).
                QCOMPARE(it.dream->config.valuation, Valuation::Imagined);
                QCOMPARE(it.dream->versions.at(0).developed.result->worlds.size(), it.index * it.dream->config.completions);
                QVERIFY(it.dream->versions.at(0).revealedValue);
            }
        }
        QCOMPARE(approvals.size(), 2);
        for (const Approval &a : approvals) {
            QVERIFY(a.who.contains(QStringLiteral("automatic")));
            QVERIFY(a.evidence.value(QStringLiteral("automatic")).toBool());
        }

        // The baseline: one policy throughout, no dream, no approval.
        QVERIFY(fixedApprovals.isEmpty());
        for (const LoopIteration &it : fixed.iterations) {
            QVERIFY(!it.dream);
            QCOMPARE(it.policyVersion, fixed.iterations.first().policyVersion);
            QCOMPARE(it.policyName, QStringLiteral("builtin:portfolio"));
        }
        // Identical first rounds: same agent, evaluator, seed and policy.
        QCOMPARE(fixed.iterations.first().round.counters.cells, dream.iterations.first().round.counters.cells);
        QCOMPARE(fixed.iterations.first().round.counters.bestScore.value_or(-1), dream.iterations.first().round.counters.bestScore.value_or(-1));
        QCOMPARE(fixed.iterations.first().policyName, dream.iterations.first().policyName);

        // The JSON of docs/online.md#commands.
        const QJsonObject json = RecursiveLoop::toJson({dream, fixed});
        const QJsonArray runs = json.value(QStringLiteral("runs")).toArray();
        QCOMPARE(runs.size(), 2);
        QCOMPARE(runs.at(0).toObject().value(QStringLiteral("fixed")).toBool(), false);
        QCOMPARE(runs.at(1).toObject().value(QStringLiteral("fixed")).toBool(), true);
        for (const QJsonValue &run : runs) {
            const QJsonArray its = run.toObject().value(QStringLiteral("iterations")).toArray();
            QCOMPARE(its.size(), 3);
            double lastBest = -1e300;
            for (const QJsonValue &v : its) {
                const QJsonObject o = v.toObject();
                for (const char *key : {"iteration", "policy_version", "cells", "best_score", "cumulative_calls"})
                    QVERIFY2(o.contains(QLatin1String(key)), key);
                QVERIFY(o.value(QStringLiteral("best_score")).toDouble() >= lastBest);
                lastBest = o.value(QStringLiteral("best_score")).toDouble();
            }
        }
    }

    // `loop --policy P`: P drives the rounds and is version 0 of the dreams
    // until a version of a dream is approved; with --fixed, every round. An
    // unknown P stops the loop before its first round, with its name.
    void aGivenPolicyDrivesTheLoop()
    {
        QTemporaryDir dir;
        const QString given = QStringLiteral("builtin:parallel_refine");
        QList<Approval> approvals;

        LoopSettings fixed = toySettings(true);
        fixed.round.policy = PolicyChoice::fromArgument(given);
        fixed.iterations = 2;
        const LoopReport baseline = runLoop(dir.filePath(QStringLiteral("fixed.dreamrsi")), fixed, &approvals);
        QVERIFY2(baseline.error.isEmpty(), qPrintable(baseline.error));
        QCOMPARE(baseline.iterations.size(), 2);
        for (const LoopIteration &it : baseline.iterations)
            QCOMPARE(it.policyName, given);
        QVERIFY(approvals.isEmpty());

        // Not approved: P stays, and each dream improves on P.
        LoopSettings proposing = toySettings(false);
        proposing.autoApprove = false;
        proposing.round.policy = PolicyChoice::fromArgument(given);
        const LoopReport kept = runLoop(dir.filePath(QStringLiteral("kept.dreamrsi")), proposing, &approvals);
        QVERIFY2(kept.error.isEmpty(), qPrintable(kept.error));
        QCOMPARE(kept.iterations.size(), 3);
        QVERIFY(approvals.isEmpty());
        for (const LoopIteration &it : kept.iterations) {
            QCOMPARE(it.policyName, given);
            if (it.dream)
                QCOMPARE(it.dream->versions.at(0).developed.version.name, given);
        }

        // Approved automatically: P drives the first round only.
        LoopSettings approving = toySettings(false);
        approving.round.policy = PolicyChoice::fromArgument(given);
        const LoopReport moved = runLoop(dir.filePath(QStringLiteral("moved.dreamrsi")), approving, &approvals);
        QVERIFY2(moved.error.isEmpty(), qPrintable(moved.error));
        QCOMPARE(moved.iterations.size(), 3);
        QCOMPARE(moved.iterations.at(0).policyName, given);
        QCOMPARE(moved.iterations.at(0).dream->versions.at(0).developed.version.name, given);
        QVERIFY(moved.iterations.at(0).approved != 0);
        QCOMPARE(moved.iterations.at(1).policyVersion, moved.iterations.at(0).approved);
        QCOMPARE(moved.iterations.at(1).dream->versions.at(0).developed.version.id, moved.iterations.at(0).approved);
        QCOMPARE(approvals.size(), 2);

        LoopSettings unknown = toySettings(true);
        unknown.round.policy = PolicyChoice::fromArgument(QStringLiteral("builtin:nosuch"));
        const LoopReport refused = runLoop(dir.filePath(QStringLiteral("unknown.dreamrsi")), unknown, &approvals);
        QVERIFY(refused.iterations.isEmpty());
        QVERIFY2(refused.error.contains(QStringLiteral("unknown built-in policy 'builtin:nosuch'")), qPrintable(refused.error));
    }

    // The dream inside the loop replays under the project's replay
    // configuration: on a fresh project the first round's W; on a project
    // whose configuration the user set, that one; explicit values override
    // it for the run only and the report says so.
    void dreamsUseTheProjectConfiguration()
    {
        QTemporaryDir dir;
        auto runTwo = [](ProjectStore &store, LoopSettings settings) {
            settings.iterations = 2;
            RecursiveLoop loop(&store, std::make_shared<FakeAgent>(), std::make_shared<LocalEvaluationBackend>(),
                               std::make_shared<PolicyImprover>(2));
            return loop.run(settings);
        };
        LoopSettings settings = toySettings(false);
        settings.dream.replay = ReplayConfigOverrides();
        settings.round.workers = 2;

        // A fresh project: the first round sets W = 2.
        {
            ProjectStore store;
            QVERIFY(store.create(dir.filePath(QStringLiteral("fresh.dreamrsi")), ProjectInfo()).result().ok());
            const LoopReport report = runTwo(store, settings);
            QVERIFY2(report.error.isEmpty(), qPrintable(report.error));
            const StoredReplayConfig config = *store.replayConfig().result().value;
            QCOMPARE(config.origin, ReplayConfigOrigin::FirstRound);
            QCOMPARE(config.config.workers, 2);
            const DreamReport &dream = *report.iterations.first().dream;
            QCOMPARE(dream.config, config.config);
            QVERIFY(!dream.overridden);
            const QList<ReplayResultRecord> records = *store.replayResults().result().value;
            QVERIFY(!records.isEmpty());
            // Under the project's configuration, except the deployed version's
            // and the proposal's values over the history as revealed.
            ReplayConfig revealedTwin = config.config;
            revealedTwin.valuation = Valuation::Revealed;
            for (const ReplayResultRecord &r : records)
                QVERIFY(config.config.covers(r.key) || revealedTwin.covers(r.key));
            // The approval's evidence names the configuration.
            const QList<Approval> approvals = *store.approvals().result().value;
            QCOMPARE(approvals.size(), 1);
            QCOMPARE(approvals.first().evidence.value(QStringLiteral("replay")).toObject(), config.config.toJson());
            store.close().waitForFinished();
        }
        // The user set W = 3 and β {0, 1} before: the rounds run with W = 2, the dream with the project's.
        {
            ProjectStore store;
            QVERIFY(store.create(dir.filePath(QStringLiteral("set.dreamrsi")), ProjectInfo()).result().ok());
            ReplayConfig mine;
            mine.workers = 3;
            mine.betas = {0.0, 1.0};
            mine.valuation = Valuation::Revealed; // and the history as revealed
            QVERIFY(store.setReplayConfig(mine).result().ok());
            const LoopReport report = runTwo(store, settings);
            QVERIFY2(report.error.isEmpty(), qPrintable(report.error));
            QCOMPARE(store.replayConfig().result().value->config, mine);
            QCOMPARE(report.iterations.first().dream->config, mine);
            const StoreResult<QList<ReplayResultRecord>> results = store.replayResults().result();
            QVERIFY(results.ok());
            // Everything under the project's configuration, but the imagined
            // values of the deployed version and the proposal (the dialogs' other number).
            ReplayConfig imaginedTwin = mine;
            imaginedTwin.valuation = Valuation::Imagined;
            int revealed = 0;
            for (const ReplayResultRecord &r : *results.value) {
                QVERIFY(mine.covers(r.key) || imaginedTwin.covers(r.key));
                revealed += mine.covers(r.key) ? 1 : 0;
            }
            QVERIFY(revealed > 0);
            store.close().waitForFinished();
        }
        // An explicit λ: this run only, labelled.
        {
            ProjectStore store;
            QVERIFY(store.create(dir.filePath(QStringLiteral("override.dreamrsi")), ProjectInfo()).result().ok());
            LoopSettings overriding = settings;
            overriding.dream.replay.lambda = 0.3;
            const LoopReport report = runTwo(store, overriding);
            QVERIFY2(report.error.isEmpty(), qPrintable(report.error));
            QVERIFY(report.iterations.first().dream->overridden);
            QCOMPARE(report.iterations.first().dream->config.lambda, 0.3);
            QCOMPARE(store.replayConfig().result().value->config.lambda, 0.1);
            store.close().waitForFinished();
        }
    }
};

QTEST_GUILESS_MAIN(TestLoopDream)
#include "tst_loop_dream.moc"
