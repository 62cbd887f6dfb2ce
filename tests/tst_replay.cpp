// The replay engine against hand-computed worlds (docs/replay.md#an-episode, #scoring, #grid-plans-in-replay).
#include "tst_replay_helpers.h"

#include "policy/builtinpolicies.h"
#include "replay/replayengine.h"
#include "replay/replayjson.h"
#include "replay/scoring.h"
#include "replay/synthworld.h"
#include "model/treejson.h"

#include <QJsonDocument>
#include <QtTest>

#include <atomic>

#include <cmath>
#include <limits>
#include <mutex>
#include <thread>

using namespace dreamrsi;
using dreamrsi::test::FnPolicy;
using dreamrsi::test::takeAll;
using dreamrsi::test::world;

namespace {

bool near(double a, double b)
{
    return std::fabs(a - b) <= 1e-12;
}

ReplayOptions opts(int workers = 10)
{
    ReplayOptions o;
    o.workers = workers;
    return o;
}

/// `count` synthetic worlds (seeds firstSeed, firstSeed + 1, ...) written
/// as w0.json, w1.json, ... in `dir`; the paths of those written.
QStringList writeSynthWorlds(const QTemporaryDir &dir, int count, quint64 firstSeed)
{
    QStringList paths;
    for (int i = 0; i < count; ++i) {
        SynthParams p;
        p.seed = firstSeed + quint64(i);
        const QString path = dir.filePath(QStringLiteral("w%1.json").arg(i));
        if (!TreeJson::writeFile(SynthWorld::generate(p), path))
            break;
        paths << path;
    }
    return paths;
}

/// Forwards to a policy made from a spec and notes the threads its
/// episodes began on.
class Witness : public Policy
{
public:
    Witness(std::unique_ptr<Policy> inner, std::shared_ptr<QList<std::thread::id>> threads)
        : m_inner(std::move(inner)), m_threads(std::move(threads))
    {
    }
    QString name() const override { return m_inner->name(); }
    std::optional<double> defaultBeta() const override { return m_inner->defaultBeta(); }
    bool hasGridPlanner() const override { return m_inner->hasGridPlanner(); }
    GridPlanResult planGrid(const GridContext &context) override { return m_inner->planGrid(context); }
    void beginEpisode(double beta, int maxParallelism) override
    {
        m_threads->append(std::this_thread::get_id());
        m_inner->beginEpisode(beta, maxParallelism);
    }
    PolicyDecision selectBatch(const PolicyState &state) override { return m_inner->selectBatch(state); }

private:
    std::unique_ptr<Policy> m_inner;
    std::shared_ptr<QList<std::thread::id>> m_threads;
};

} // namespace

class TestReplay : public QObject
{
    Q_OBJECT
private slots:
    void legalRootsAndFrontiers()
    {
        // Sparse branch ids 0, 2, 5.
        const DiscoveryTree w = world(QStringLiteral("0: 1 2 3 | 2: 4 5 | 5: 6"));
        QList<QStringList> legal, roots;
        QList<QList<int>> opened;
        FnPolicy policy([&](const PolicyState &s) {
            legal.append(s.legalIds());
            roots.append(s.legalRootIds());
            opened.append(s.openedBranches());
            PolicyDecision d;
            if (s.round() == 0)
                d.batch = {QStringLiteral("b2a0")};
            else if (s.round() == 1)
                d.batch = {QStringLiteral("b0a0"), QStringLiteral("b2a1")};
            return d;
        });
        const EpisodeResult r = ReplayEngine::runEpisode(w, policy, 0.5, opts());
        QVERIFY(r.ok());
        QCOMPARE(legal.size(), 3);
        QCOMPARE(legal.at(0), (QStringList{QStringLiteral("b0a0"), QStringLiteral("b2a0"), QStringLiteral("b5a0")}));
        QCOMPARE(roots.at(0), legal.at(0));
        QCOMPARE(opened.at(0), QList<int>{});
        QCOMPARE(legal.at(1), (QStringList{QStringLiteral("b0a0"), QStringLiteral("b2a1"), QStringLiteral("b5a0")}));
        QCOMPARE(roots.at(1), (QStringList{QStringLiteral("b0a0"), QStringLiteral("b5a0")}));
        QCOMPARE(opened.at(1), QList<int>{2});
        // b2 is exhausted after b2a1: no frontier for it.
        QCOMPARE(legal.at(2), (QStringList{QStringLiteral("b0a1"), QStringLiteral("b5a0")}));
        QCOMPARE(roots.at(2), QStringList{QStringLiteral("b5a0")});
        QCOMPARE(opened.at(2), (QList<int>{0, 2}));
        // The empty batch of round 3 stopped it.
        QCOMPARE(r.rounds, 2);
        QCOMPARE(r.calls, 3);
        QCOMPARE(r.revealed, (QStringList{QStringLiteral("b2a0"), QStringLiteral("b0a0"), QStringLiteral("b2a1")}));
        QCOMPARE(r.best, 5.0);
        QVERIFY(near(r.attainment, 5.0 / 6.0));
        QCOMPARE(r.curve.size(), 3);
        QCOMPARE(r.curve.at(0).calls, 1);
        QVERIFY(near(r.curve.at(0).attainment, 4.0 / 6.0));
        QVERIFY(near(r.curve.at(1).attainment, 4.0 / 6.0));
        QVERIFY(near(r.curve.at(2).attainment, 5.0 / 6.0));
    }

    void emptyBatchStopsAtOnce()
    {
        const DiscoveryTree w = world(QStringLiteral("0: 1 | 1: 2"));
        FnPolicy policy([](const PolicyState &) { return PolicyDecision{}; });
        const EpisodeResult r = ReplayEngine::runEpisode(w, policy, 0.0, opts());
        QVERIFY(r.ok());
        QCOMPARE(r.rounds, 0);
        QCOMPARE(r.calls, 0);
        QCOMPARE(r.best, 0.0);
        QCOMPARE(r.attainment, 0.0);
        QVERIFY(r.revealed.isEmpty());
    }

    void roundLimit_data()
    {
        QTest::addColumn<int>("k");
        QTest::addColumn<int>("rounds");
        QTest::addColumn<int>("calls");
        QTest::addRow("K=0") << 0 << 0 << 0;
        QTest::addRow("K=1") << 1 << 1 << 2;
        QTest::addRow("K=2") << 2 << 2 << 4;
        QTest::addRow("K=9 (world ends first)") << 9 << 3 << 6;
    }
    void roundLimit()
    {
        QFETCH(int, k);
        QFETCH(int, rounds);
        QFETCH(int, calls);
        const DiscoveryTree w = world(QStringLiteral("0: 1 2 3 | 1: 1 2 3"));
        FnPolicy policy(takeAll);
        ReplayOptions o = opts();
        o.maxRounds = k;
        const EpisodeResult r = ReplayEngine::runEpisode(w, policy, 1.0, o);
        QVERIFY(r.ok());
        QCOMPARE(r.rounds, rounds);
        QCOMPARE(r.calls, calls);
    }

    void allRevealedWithWorkerLimit()
    {
        // 3 roots, W = 2: round 1 takes b0a0 b1a0, round 2 b0a1 b2a0, round 3 b0a2.
        const DiscoveryTree w = world(QStringLiteral("0: 1 2 3 | 1: 4 | 2: 2"));
        FnPolicy policy(takeAll);
        const EpisodeResult r = ReplayEngine::runEpisode(w, policy, 1.0, opts(2));
        QVERIFY(r.ok());
        QCOMPARE(r.revealed, (QStringList{QStringLiteral("b0a0"), QStringLiteral("b1a0"), QStringLiteral("b0a1"),
                                          QStringLiteral("b2a0"), QStringLiteral("b0a2")}));
        QCOMPARE(r.rounds, 3);
        QCOMPARE(r.calls, 5);
        QCOMPARE(r.attainment, 1.0);
    }

    void illegalBatches_data()
    {
        QTest::addColumn<QStringList>("second");
        QTest::addColumn<int>("workers");
        QTest::addColumn<QString>("error");
        QTest::addRow("not legal (unrevealed frontier+1)")
            << QStringList{QStringLiteral("b0a2")} << 10 << QStringLiteral("round 2: id b0a2 is not legal");
        QTest::addRow("already revealed")
            << QStringList{QStringLiteral("b0a0")} << 10 << QStringLiteral("round 2: id b0a0 is not legal");
        QTest::addRow("unknown id") << QStringList{QStringLiteral("zz")} << 10 << QStringLiteral("round 2: id zz is not legal");
        QTest::addRow("repeated id") << QStringList{QStringLiteral("b0a1"), QStringLiteral("b0a1")} << 10
                                     << QStringLiteral("round 2: id b0a1 appears twice in the batch");
        QTest::addRow("more than W") << QStringList{QStringLiteral("b0a1"), QStringLiteral("b1a0"), QStringLiteral("b2a0")}
                                     << 2 << QStringLiteral("round 2: batch of 3 ids exceeds the 2 workers");
    }
    void illegalBatches()
    {
        QFETCH(QStringList, second);
        QFETCH(int, workers);
        QFETCH(QString, error);
        const DiscoveryTree w = world(QStringLiteral("0: 1 2 3 | 1: 4 | 2: 2"));
        FnPolicy policy([&](const PolicyState &s) {
            PolicyDecision d;
            d.batch = s.round() == 0 ? QStringList{QStringLiteral("b0a0")} : second;
            return d;
        });
        ReplayOptions o = opts(workers);
        o.trace = true;
        const EpisodeResult r = ReplayEngine::runEpisode(w, policy, 0.5, o);
        QCOMPARE(r.error, error);
        // What was revealed before the error is kept.
        QCOMPARE(r.rounds, 1);
        QCOMPARE(r.calls, 1);
        QCOMPARE(r.revealed, QStringList{QStringLiteral("b0a0")});
        QCOMPARE(r.trace.size(), 2);
        QCOMPARE(r.trace.at(1).batch, second);
        QVERIFY(r.trace.at(1).revealed.isEmpty());
        QCOMPARE(r.trace.at(1).error, error);
    }

    void policyErrorIsReported()
    {
        const DiscoveryTree w = world(QStringLiteral("0: 1"));
        FnPolicy policy([](const PolicyState &) { return PolicyDecision::failure(QStringLiteral("no idea")); });
        const EpisodeResult r = ReplayEngine::runEpisode(w, policy, 0.5, opts());
        QCOMPARE(r.error, QStringLiteral("round 1: no idea"));
        QCOMPARE(r.calls, 0);
    }

    void observationsCarryDeltas()
    {
        const DiscoveryTree w = world(QStringLiteral("0: 1.5 2 x 3 | 1: x 3"), 1.0);
        QList<Observation> seen;
        FnPolicy policy([&](const PolicyState &s) {
            seen = s.observed();
            return takeAll(s);
        });
        const EpisodeResult r = ReplayEngine::runEpisode(w, policy, 1.0, opts());
        QVERIFY(r.ok());
        QCOMPARE(seen.size(), 5); // the last call sees everything but b0a3
        auto find = [&](const char *id) {
            for (const Observation &o : seen) {
                if (o.meta.id == QLatin1String(id))
                    return o;
            }
            return Observation{};
        };
        const Observation b0a0 = find("b0a0");
        QCOMPARE(b0a0.deltaVsBaseline.value(), 0.5);
        QCOMPARE(b0a0.deltaVsParent.value(), 0.5); // attempt 0: against the baseline
        QVERIFY(b0a0.meta.parentId.isEmpty());
        const Observation b0a1 = find("b0a1");
        QCOMPARE(b0a1.deltaVsParent.value(), 0.5);
        QCOMPARE(b0a1.meta.parentId, QStringLiteral("b0a0"));
        QVERIFY(b0a1.improvedVsParent());
        const Observation b0a2 = find("b0a2");
        QVERIFY(!b0a2.deltaVsParent && !b0a2.deltaVsBaseline && !b0a2.isSuccess());
        const Observation b1a1 = find("b1a1");
        QVERIFY(!b1a1.deltaVsParent); // parent has no score
        QCOMPARE(b1a1.deltaVsBaseline.value(), 2.0);
    }

    void unscorableWorld()
    {
        const DiscoveryTree tree = world(QStringLiteral("0: 0 -1 x | 1: n"));
        QVERIFY(!tree.isScorable());
        FnPolicy policy(takeAll);
        const SweepResult s =
            ReplayEngine::runSweep(ReplayWorld{QStringLiteral("zero"), std::make_shared<DiscoveryTree>(tree)}, policy, opts());
        QVERIFY(s.ok());
        QVERIFY(!s.scorable);
        QVERIFY(!s.hypervolume);
        QVERIFY(!s.value);
        // Every β: rounds 3, calls 4.
        QVERIFY(near(*s.penalty, (1.0 / 5.0) * (5 * (3.0 / 4.0))));
        for (const EpisodeResult &e : s.episodes) {
            QCOMPARE(e.attainment, 0.0);
            QVERIFY(!e.scorable);
            QVERIFY(std::isfinite(e.curve.constLast().attainment));
        }
        // A policy over only unscorable worlds has no value.
        const ReplayResult all = ReplayEngine::runWorlds(
            {ReplayWorld{QStringLiteral("zero"), std::make_shared<DiscoveryTree>(tree)}},
            PolicySpec::builtin(QStringLiteral("parallel_refine")), opts());
        QVERIFY(all.ok());
        QCOMPARE(all.scorableWorlds, 0);
        QVERIFY(!all.value);
        const QJsonObject json = ReplayJson::resultToJson(all);
        QVERIFY(json.value(QLatin1String("value")).isNull());
        QVERIFY(json.value(QLatin1String("worlds")).toArray().at(0).toObject().value(QLatin1String("value")).isNull());
    }

    void handComputedSweep()
    {
        // B = 10, S = 10.
        const DiscoveryTree tree = world(QStringLiteral("0: 1 2 3 4 5 | 1: 10 | 2: 2 2 2 2"));
        FnPolicy policy([](const PolicyState &s) {
            PolicyDecision d;
            const double b = s.beta();
            if (b == 0.0) {
                if (s.round() == 0)
                    d.batch = {QStringLiteral("b0a0")};
            } else if (b == 0.25) {
                if (s.round() < 2)
                    d.batch = {QStringLiteral("b0a%1").arg(s.round())};
            } else if (b == 0.5) {
                if (s.round() == 0)
                    d.batch = {QStringLiteral("b0a0"), QStringLiteral("b1a0")};
            } else if (b == 0.75) {
                if (s.round() == 0)
                    d.batch = s.legalIds();
            } else {
                d = takeAll(s);
            }
            return d;
        });
        const SweepResult s =
            ReplayEngine::runSweep(ReplayWorld{QStringLiteral("w"), std::make_shared<DiscoveryTree>(tree)}, policy, opts());
        QVERIFY(s.ok());
        QCOMPARE(s.cells, 10);
        QCOMPARE(s.best, 10.0);
        const QList<int> calls{1, 2, 2, 3, 10};
        const QList<int> rounds{1, 2, 1, 1, 5};
        const QList<double> att{0.1, 0.2, 1.0, 1.0, 1.0};
        for (int i = 0; i < 5; ++i) {
            QCOMPARE(s.episodes.at(i).calls, calls.at(i));
            QCOMPARE(s.episodes.at(i).rounds, rounds.at(i));
            QVERIFY(near(s.episodes.at(i).attainment, att.at(i)));
        }
        // (2, 0.2) dominated by (2, 1); (3, 1) and (10, 1) too.
        QCOMPARE(s.frontier, (QList<ParetoPoint>{{1, 0.1}, {2, 1.0}}));
        const double hv = (1.0 / 10.0) * ((0.1 - 0.0) * (10 - 1) + (1.0 - 0.1) * (10 - 2));
        const double pen = (1.0 / 5.0) * (1.0 / 1 + 2.0 / 2 + 1.0 / 2 + 1.0 / 3 + 5.0 / 10);
        QVERIFY(near(*s.hypervolume, 0.81));
        QVERIFY(near(*s.hypervolume, hv));
        QVERIFY(near(*s.penalty, pen));
        QVERIFY(near(*s.value, hv - 0.1 * pen));
        QVERIFY(near(*s.value, 0.81 - 0.1 * (10.0 / 3.0) / 5.0));
    }

    void zeroCallPointsCountInTheGrid()
    {
        // β 0 and 0.25 stop at once (n = 0): they are not in the penalty sum but
        // the sum is still divided by |grid| = 5; (0, 0) joins the frontier.
        const DiscoveryTree tree = world(QStringLiteral("0: 2 4 | 1: 1"));
        FnPolicy policy([](const PolicyState &s) {
            if (s.beta() < 0.5)
                return PolicyDecision{};
            return takeAll(s);
        });
        const SweepResult s =
            ReplayEngine::runSweep(ReplayWorld{QStringLiteral("w"), std::make_shared<DiscoveryTree>(tree)}, policy, opts());
        QVERIFY(s.ok());
        QCOMPARE(s.episodes.at(0).calls, 0);
        QCOMPARE(s.episodes.at(2).calls, 3);
        QCOMPARE(s.episodes.at(2).rounds, 2);
        QVERIFY(near(*s.penalty, (1.0 / 5.0) * (3 * (2.0 / 3.0))));
        QCOMPARE(s.frontier, (QList<ParetoPoint>{{0, 0.0}, {3, 1.0}}));
        QVERIFY(near(*s.hypervolume, (1.0 / 3.0) * ((1.0 - 0.0) * (3 - 3))));
    }

    void hypervolume_data()
    {
        QTest::addColumn<QList<ParetoPoint>>("points");
        QTest::addColumn<int>("cells");
        QTest::addColumn<QList<ParetoPoint>>("frontier");
        QTest::addColumn<double>("expected");
        using P = QList<ParetoPoint>;
        QTest::addRow("single") << P{{5, 0.5}} << 10 << P{{5, 0.5}} << 0.25;
        QTest::addRow("duplicates") << P{{5, 0.5}, {5, 0.5}} << 10 << P{{5, 0.5}} << 0.25;
        QTest::addRow("dominated") << P{{5, 0.5}, {6, 0.4}, {3, 0.5}} << 10 << P{{3, 0.5}} << 0.35;
        QTest::addRow("staircase") << P{{8, 1.0}, {2, 0.5}, {4, 0.8}, {4, 0.8}, {6, 0.7}} << 10
                                   << P{{2, 0.5}, {4, 0.8}, {8, 1.0}} << (0.5 * 8 + (0.8 - 0.5) * 6 + (1.0 - 0.8) * 2) / 10;
        QTest::addRow("zero attainment") << P{{0, 0.0}, {3, 0.0}} << 7 << P{{0, 0.0}} << 0.0;
        QTest::addRow("everything revealed") << P{{10, 1.0}} << 10 << P{{10, 1.0}} << 0.0;
        QTest::addRow("same calls, better attainment") << P{{4, 0.3}, {4, 0.9}} << 8 << P{{4, 0.9}} << 0.9 * 4 / 8;
    }
    void hypervolume()
    {
        QFETCH(QList<ParetoPoint>, points);
        QFETCH(int, cells);
        QFETCH(QList<ParetoPoint>, frontier);
        QFETCH(double, expected);
        QCOMPARE(Scoring::paretoFrontier(points), frontier);
        QVERIFY2(near(Scoring::hypervolume(points, cells), expected),
                 qPrintable(QString::number(Scoring::hypervolume(points, cells), 'g', 17)));
    }

    void penalty_data()
    {
        QTest::addColumn<QList<int>>("calls");
        QTest::addColumn<QList<int>>("rounds");
        QTest::addColumn<double>("expected");
        QTest::addRow("zero-call points") << QList<int>{0, 2, 4} << QList<int>{0, 1, 2} << (1.0 / 3.0) * (0.5 + 0.5);
        QTest::addRow("serial") << QList<int>{3, 5} << QList<int>{3, 5} << 1.0;
        QTest::addRow("all zero") << QList<int>{0, 0} << QList<int>{0, 0} << 0.0;
        QTest::addRow("full batches") << QList<int>{10} << QList<int>{1} << 0.1;
    }
    void penalty()
    {
        QFETCH(QList<int>, calls);
        QFETCH(QList<int>, rounds);
        QFETCH(double, expected);
        QVERIFY(near(Scoring::penalty(calls, rounds, int(calls.size())), expected));
        QVERIFY(near(Scoring::value(0.5, Scoring::penalty(calls, rounds, int(calls.size())), 0.1), 0.5 - 0.1 * expected));
    }

    void traceRecordsEveryRound()
    {
        const DiscoveryTree w = world(QStringLiteral("0: 1 3 | 1: 2"));
        FnPolicy policy(takeAll);
        ReplayOptions o = opts();
        o.trace = true;
        const EpisodeResult r = ReplayEngine::runEpisode(w, policy, 1.0, o);
        QCOMPARE(r.trace.size(), 2);
        QCOMPARE(r.trace.at(0).prefix.calls, 0);
        QCOMPARE(r.trace.at(0).prefix.legal, (QStringList{QStringLiteral("b0a0"), QStringLiteral("b1a0")}));
        QCOMPARE(r.trace.at(0).revealed.size(), 2);
        QCOMPARE(r.trace.at(1).round, 1);
        QCOMPARE(r.trace.at(1).prefix.calls, 2);
        QCOMPARE(r.trace.at(1).prefix.best, 2.0);
        QCOMPARE(r.trace.at(1).prefix.bestId, QStringLiteral("b1a0"));
        QCOMPARE(r.trace.at(1).prefix.openedBranches, (QList<int>{0, 1}));
        QCOMPARE(r.trace.at(1).batch, QStringList{QStringLiteral("b0a1")});
        QCOMPARE(r.trace.at(1).revealed.at(0).score.value(), 3.0);
        // Round trip through the trace line.
        const Result<ReplayJson::EpisodeTrace> line =
            ReplayJson::episodeTraceFromJson(ReplayJson::episodeTraceToJson(QStringLiteral("w"), r));
        QVERIFY2(line, qPrintable(line.error));
        QCOMPARE(line.value->world, QStringLiteral("w"));
        const EpisodeResult *back = &line.value->episode;
        QCOMPARE(back->revealed, r.revealed);
        QCOMPARE(back->curve, r.curve);
        QCOMPARE(back->trace.size(), 2);
        QCOMPARE(back->trace.at(1).prefix.bestId, QStringLiteral("b1a0"));
        QCOMPARE(back->trace.at(1).revealed.at(0).id, QStringLiteral("b0a1"));
    }

    void jsonShapeAndRoundTrip()
    {
        const DiscoveryTree tree = world(QStringLiteral("0: 1 2 3 | 1: 2 | 2: 0.5 0.7"));
        const ReplayResult r = ReplayEngine::runWorlds({ReplayWorld{QStringLiteral("A.json"), std::make_shared<DiscoveryTree>(tree)}},
                                                       PolicySpec::builtin(QStringLiteral("portfolio")), opts());
        QVERIFY(r.ok());
        const QJsonObject j = ReplayJson::resultToJson(r);
        for (const char *k : {"policy", "lambda", "workers", "betas", "value", "worlds"})
            QVERIFY2(j.contains(QLatin1String(k)), k);
        QCOMPARE(j.value(QLatin1String("policy")).toString(), QStringLiteral("builtin:portfolio"));
        const QJsonObject w = j.value(QLatin1String("worlds")).toArray().at(0).toObject();
        for (const char *k : {"world", "cells", "best", "scorable", "hypervolume", "penalty", "value", "sweep"})
            QVERIFY2(w.contains(QLatin1String(k)), k);
        const QJsonObject e = w.value(QLatin1String("sweep")).toArray().at(0).toObject();
        for (const char *k : {"beta", "calls", "rounds", "best", "attainment", "revealed"})
            QVERIFY2(e.contains(QLatin1String(k)), k);
        QVERIFY(!e.contains(QLatin1String("error")));
        const Result<ReplayResult> read = ReplayJson::resultFromJson(j);
        QVERIFY2(read.ok(), qPrintable(read.error));
        const std::optional<ReplayResult> &back = read.value;
        QCOMPARE(ReplayJson::resultToJson(*back), j);
        QCOMPARE(*back->value, *r.value); // shortest round-trip printing keeps the bits
    }

    /// The direct writer prints what QJsonDocument would, byte for byte:
    /// errors, plans, nulls, odd names and awkward numbers included.
    void indentedJsonMatchesQJsonDocument()
    {
        const DiscoveryTree tree = world(QStringLiteral("0: 1 2 3 | 1: 2 | 2: 0.5 0.7"));
        const DiscoveryTree flat = world(QStringLiteral("0: 0 0 | 1: 0"));
        QList<ReplayWorld> worlds{
            {QStringLiteral("A.json"), std::make_shared<DiscoveryTree>(tree)},
            {QStringLiteral("zero \"S\"\t\u00e9\u4e2d\\n.json"), std::make_shared<DiscoveryTree>(flat)}};
        ReplayResult r = ReplayEngine::runWorlds(worlds, PolicySpec::builtin(QStringLiteral("portfolio")), opts());
        const auto same = [](const ReplayResult &x) {
            return ReplayJson::resultToIndentedJson(x)
                == QJsonDocument(ReplayJson::resultToJson(x)).toJson(QJsonDocument::Indented);
        };
        QVERIFY(same(r));
        // A plan, an error, a round limit and numbers at the edges of Qt's forms.
        r.maxRounds = 3;
        r.worlds[0].episodes[1].plan = GridPlan{4, 2, QStringLiteral("wide \u2192 shallow")};
        r.worlds[0].episodes[2].error = QStringLiteral("round 2: id b7a2 is not legal\u0001");
        r.worlds[0].error = r.worlds[0].episodes[2].error;
        r.worlds[0].value.reset();
        r.value.reset();
        const double edges[] = {0.0, -0.0, 1e15, 1e16, 9007199254740992.0, 123456789012345678.0, 1e21, 1e-7,
                                0.1 + 0.2, 5e-324, -2.5e-300, std::numeric_limits<double>::quiet_NaN()};
        for (const double d : edges) {
            r.lambda = d;
            r.worlds[1].best = -d;
            r.worlds[0].episodes[0].attainment = d / 3.0;
            QVERIFY2(same(r), qPrintable(QString::number(d, 'g', 17)));
        }
        // Numbers around the writer's own fixed form (fractions from 1e-3 to 2^52) and its edges.
        QRandomGenerator rng(15);
        for (int i = 0; i < 3000; ++i) {
            const double magnitude = std::pow(10.0, -5.0 + 21.0 * rng.generateDouble());
            double d = (rng.bounded(2) ? -1.0 : 1.0) * magnitude;
            if (i % 3 == 1)
                d = std::round(d * 1000.0) / 1000.0;
            r.lambda = d;
            r.worlds[0].episodes[0].attainment = 0.001 * (1.0 + double(i) * 1e-4);
            QVERIFY2(same(r), qPrintable(QString::number(d, 'g', 17)));
        }
        for (const double d : {0.001, 0.0009999999999999998, 0.0010000000000000002, 0.0001, 4503599627370495.5,
                               4503599627370496.0, -4503599627370495.5, 0.30000000000000004, 123456.78125}) {
            r.lambda = d;
            QVERIFY2(same(r), qPrintable(QString::number(d, 'g', 17)));
        }
        r.worlds[0].world = QStringLiteral("emoji \U0001F600 and a lone ") + QChar(0xd800) + QStringLiteral(" surrogate");
        r.worlds[0].episodes[0].revealed.append(QStringLiteral("caf\u00e9\u007f/"));
        QVERIFY(same(r));
        QVERIFY(same(ReplayResult{}));
    }

    void sameResultOnAnyThreadCount()
    {
        QList<ReplayWorld> worlds;
        for (int i = 0; i < 24; ++i) {
            SynthParams p;
            p.seed = quint64(i + 7);
            p.regime = SynthWorld::regimes().at(i % 4);
            worlds.append(ReplayWorld{QStringLiteral("w%1").arg(i), std::make_shared<DiscoveryTree>(SynthWorld::generate(p))});
        }
        const QString randomJs = QStringLiteral(
            "function selectBatch(s) { if (Math.random() < 0.15 * s.round) return [];\n"
            "  var b = []; for (var i = 0; i < s.legal.length; ++i) if (Math.random() < 0.5 && b.length < s.maxParallelism) b.push(s.legal[i]);\n"
            "  return b.length ? b : [s.legal[0]]; }");
        for (const PolicySpec &spec : {PolicySpec::builtin(QStringLiteral("portfolio")), PolicySpec::script(randomJs, QStringLiteral("r.js"))}) {
            ReplayOptions o = opts();
            o.threads = 1;
            const QJsonObject one = ReplayJson::resultToJson(ReplayEngine::runWorlds(worlds, spec, o));
            for (const int threads : {2, 4, 7}) {
                o.threads = threads;
                QCOMPARE(ReplayJson::resultToJson(ReplayEngine::runWorlds(worlds, spec, o)), one);
            }
            QVERIFY2(!one.value(QLatin1String("value")).isNull(), qPrintable(ReplayEngine::runWorlds(worlds, spec, o).firstError()));
        }
    }

    void filesReplayAsTheirTrees()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QStringList paths;
        QList<ReplayWorld> worlds;
        for (int i = 0; i < 24; ++i) {
            SynthParams p;
            p.seed = quint64(i + 11);
            p.regime = SynthWorld::regimes().at(i % 4);
            const DiscoveryTree tree = SynthWorld::generate(p);
            paths << dir.filePath(QStringLiteral("w%1.json").arg(i));
            QVERIFY(TreeJson::writeFile(tree, paths.last()));
            worlds.append(ReplayWorld{paths.last(), std::make_shared<DiscoveryTree>(*TreeJson::readFile(paths.last()).tree)});
        }
        const QString randomJs = QStringLiteral(
            "function selectBatch(s) { if (Math.random() < 0.2 * s.round) return [];\n"
            "  var b = []; for (var i = 0; i < s.legal.length; ++i) if (Math.random() < 0.5 && b.length < s.maxParallelism) b.push(s.legal[i]);\n"
            "  return b.length ? b : [s.legal[0]]; }");
        for (const PolicySpec &spec : {PolicySpec::builtin(QStringLiteral("portfolio")), PolicySpec::script(randomJs, QStringLiteral("r.js"))}) {
            // 24 files go a world per thread at a time; 3 are read first, then spread by episode.
            for (const qsizetype count : {qsizetype(24), qsizetype(3)}) {
                const QStringList some = paths.first(count);
                ReplayOptions o = opts();
                o.threads = 1;
                const QJsonObject expected = ReplayJson::resultToJson(ReplayEngine::runWorlds(worlds.first(count), spec, o));
                QVERIFY(!expected.value(QLatin1String("value")).isNull());
                for (const int threads : {1, 2, 3}) {
                    o.threads = threads;
                    QList<QByteArray> entries(count);
                    QList<int> progress;
                    std::mutex progressMutex;
                    const Result<ReplayResult> replayed = ReplayEngine::runFiles(
                        some, spec, o,
                        [&entries](qsizetype w, const SweepResult &sweep) { entries[w] = ReplayJson::sweepToIndentedJson(sweep); },
                        [&](int done, int total) {
                            std::lock_guard lock(progressMutex);
                            QCOMPARE(total, int(count * 5));
                            progress << done;
                        });
                    QVERIFY2(replayed, qPrintable(replayed.error));
                    const ReplayResult &r = *replayed.value;
                    QCOMPARE(ReplayJson::resultToJson(r), expected);
                    // The entries written as worlds finished make the same document.
                    QCOMPARE(QByteArray::fromStdString(ReplayJson::resultToIndentedJson(r, entries)), ReplayJson::resultToIndentedJson(r));
                    std::sort(progress.begin(), progress.end());
                    QVERIFY(!progress.isEmpty());
                    QCOMPARE(progress.last(), int(count * 5));
                }
            }
        }
    }

    void aPolicyMadeBeforeReplaysOnTheCallingThread()
    {
        // The policy a caller made to check the script replays on the
        // calling thread; the result is the one a fresh policy gives.
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QStringList paths = writeSynthWorlds(dir, 12, 40);
        QCOMPARE(paths.size(), 12);
        const PolicySpec spec = PolicySpec::script(QStringLiteral("function selectBatch(s) { return s.round < 3 && Math.random() < 0.9 ? s.legal.slice(0, 2) : []; }"),
                                                   QStringLiteral("m.js"));
        ReplayOptions o = opts();
        const Result<ReplayResult> first = ReplayEngine::runFiles(paths, spec, o);
        QVERIFY2(first, qPrintable(first.error));
        const QJsonObject expected = ReplayJson::resultToJson(*first.value);
        QVERIFY(!expected.value(QLatin1String("value")).isNull());
        // 12 files: a world per thread at a time with 1 to 3 threads; with 4
        // they are read first and the episodes spread.
        for (const int threads : {1, 2, 3, 4}) {
            o.threads = threads;
            Result<std::unique_ptr<Policy>> compiled = spec.create();
            QVERIFY2(compiled, qPrintable(compiled.error));
            std::unique_ptr<Policy> made = std::move(*compiled.value);
            auto began = std::make_shared<QList<std::thread::id>>();
            const Result<ReplayResult> r =
                ReplayEngine::runFiles(paths, spec, o, {}, {}, std::make_unique<Witness>(std::move(made), began));
            QVERIFY2(r, qPrintable(r.error));
            QCOMPARE(ReplayJson::resultToJson(*r.value), expected);
            QVERIFY(std::all_of(began->cbegin(), began->cend(), [](std::thread::id t) { return t == std::this_thread::get_id(); }));
            if (threads == 1)
                QCOMPARE(began->size(), paths.size() * 5);
        }
    }

    void unreadableFilesStopTheReplay()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QStringList paths = writeSynthWorlds(dir, 30, 1);
        QCOMPARE(paths.size(), 30);
        // Two broken files: the first in path order is the one reported, on
        // any thread count, however the threads meet them.
        QFile truncated(paths.at(17));
        QVERIFY(truncated.open(QIODevice::ReadWrite));
        QVERIFY(truncated.resize(truncated.size() / 2));
        truncated.close();
        paths[25] = dir.filePath(QStringLiteral("missing.json"));
        for (const int threads : {1, 2, 3}) {
            ReplayOptions o = opts();
            o.threads = threads;
            std::atomic_int handed{0}; // sweeps end on every thread
            const Result<ReplayResult> r = ReplayEngine::runFiles(paths, PolicySpec::builtin(QStringLiteral("portfolio")), o,
                                                                  [&handed](qsizetype, const SweepResult &) { ++handed; });
            QVERIFY(!r);
            QVERIFY2(r.error.startsWith(paths.at(17) + QStringLiteral(": ")), qPrintable(r.error));
            // One thread stops at the broken file. With more, the others may
            // finish worlds past it while it is being read (how many depends
            // on timing: a busy machine let more through than one a thread);
            // no broken file is ever handed on as a sweep.
            if (threads == 1)
                QCOMPARE(handed.load(), 17);
            else
                QVERIFY2(handed.load() <= 28, qPrintable(QString::number(handed.load())));
        }
        // A script that does not compile on any thread: every world says why, as runWorlds does.
        ReplayOptions o = opts();
        o.threads = 2;
        const Result<ReplayResult> broken = ReplayEngine::runFiles(
            paths.first(12), PolicySpec::script(QStringLiteral("function selectBatch(s) {"), QStringLiteral("broken.js")), o);
        QVERIFY2(broken, qPrintable(broken.error));
        QCOMPARE(broken.value->worlds.size(), 12);
        for (const SweepResult &s : broken.value->worlds) {
            QVERIFY2(s.error.startsWith(QLatin1String("broken.js: line")), qPrintable(s.error));
            QCOMPARE(s.episodes.size(), 5);
        }
    }

    void cancelledRunsReportIt()
    {
        const DiscoveryTree tree = world(QStringLiteral("0: 1 2"));
        std::atomic<bool> cancel{true};
        const ReplayResult r = ReplayEngine::runWorlds({ReplayWorld{QStringLiteral("w"), std::make_shared<DiscoveryTree>(tree)}},
                                                       PolicySpec::builtin(QStringLiteral("portfolio")), opts(), {}, &cancel);
        QVERIFY(!r.ok());
        QCOMPARE(r.worlds.at(0).error, QStringLiteral("cancelled"));
        QVERIFY(!r.value);
        // A script that does not compile: every world says why, on any thread count.
        for (const int threads : {1, 3}) {
            ReplayOptions o = opts();
            o.threads = threads;
            const ReplayResult bad = ReplayEngine::runWorlds(
                {ReplayWorld{QStringLiteral("w"), std::make_shared<DiscoveryTree>(tree)}},
                PolicySpec::script(QStringLiteral("function selectBatch(s) {"), QStringLiteral("broken.js")), o);
            QVERIFY(!bad.ok());
            QVERIFY2(bad.worlds.at(0).error.startsWith(QLatin1String("broken.js: line")), qPrintable(bad.worlds.at(0).error));
            QCOMPARE(bad.worlds.at(0).episodes.size(), 5);
        }
    }

    void synthWorldsAreValidAndReproducible_data()
    {
        QTest::addColumn<QString>("regime");
        for (const QString &r : SynthWorld::regimes())
            QTest::newRow(qPrintable(r)) << r;
    }
    void synthWorldsAreValidAndReproducible()
    {
        QFETCH(QString, regime);
        SynthParams p;
        p.regime = regime;
        p.seed = 42;
        p.width = 10;
        p.depth = 15;
        const DiscoveryTree a = SynthWorld::generate(p);
        const DiscoveryTree b = SynthWorld::generate(p);
        QCOMPARE(a.cells(), b.cells());
        QCOMPARE(a.branches().size(), 10);
        QVERIFY(a.cellCount() >= 80 && a.cellCount() <= 150);
        QVERIFY(a.isScorable());
        p.seed = 43;
        QVERIFY(SynthWorld::generate(p).cells() != a.cells());
        p.failRate = 2.0;
        QVERIFY(SynthWorld::validate(p).contains(QLatin1String("fail-rate")));
    }
};

QTEST_GUILESS_MAIN(TestReplay)
#include "tst_replay.moc"
