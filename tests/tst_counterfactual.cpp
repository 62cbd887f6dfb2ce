// The counterfactual loop: a hand-made case worked out by hand, the fixed arm
// equal to `dreamrsi replay` of the starting policy, dreams that see only the
// revealed cells, repeats deterministic by seed, the summary's statistics and
// the command's usage errors.
#include "clirunsupport.h"

#include "loop/counterfactual/counterfactualloop.h"
#include "loop/dream/policyimprover.h"
#include "model/treejson.h"
#include "project/projectsimulations.h"
#include "store/projectwriter.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QTemporaryDir>
#include <QtTest>

using namespace dreamrsi;
using dreamrsi::test::runDreamrsi;

namespace {

/// Reveals the first legal cell, one a round, until two cells are revealed.
const char *const TwoCalls = "var defaultBeta = 0.5;\n"
                             "function selectBatch(state) {\n"
                             "    if (state.observed.length >= 2) return [];\n"
                             "    return [state.legal[0]];\n"
                             "}\n";

QByteArray cellJson(const char *id, int branch, int attempt, int seq, const char *score)
{
    return QByteArray("{\"id\": \"") + id + "\", \"branch\": " + QByteArray::number(branch) + ", \"attempt\": "
           + QByteArray::number(attempt) + ", \"seq\": " + QByteArray::number(seq) + ", \"score\": " + score
           + ", \"tags\": [\"direction:d" + QByteArray::number(branch) + "\"]}";
}

bool writeFile(const QString &path, const QByteArray &content)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(content) == content.size();
}

QJsonObject parseObject(const QByteArray &json)
{
    return QJsonDocument::fromJson(json).object();
}

/// A developer that always proposes the same script.
class FixedDeveloper final : public PolicyDeveloper
{
public:
    explicit FixedDeveloper(QString code)
        : m_code(std::move(code))
    {
    }
    QString kind() const override { return QStringLiteral("fixed-test"); }
    DevelopmentOutcome develop(const DevelopmentContext &, const std::atomic_bool &) override
    {
        DevelopmentOutcome o;
        o.ok = true;
        o.code = m_code;
        o.model = kind();
        return o;
    }

private:
    QString m_code;
};

} // namespace

class TestCounterfactual : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void worldOrderIsAShuffleDeterminedBySeed();
    void revealedTreeHoldsOnlyRevealedCells();
    void handMadeCase();
    void summaryStatisticsByHand();
    void dreamPicksTheBestMeanValue();
    void dreamsSeeRevealedCellsOnly();
    void fixedArmEqualsReplay();
    void repeatsAreDeterministicBySeed();
    void guardedArmIsReportedBesideThePlainRule();
    void usageErrors_data();
    void usageErrors();
    void unreadableWorldExits1();
    void projectStoresTheRun();

private:
    QTemporaryDir m_dir;
    QString m_a, m_b, m_policy, m_synthDir;
    QStringList m_synth;
};

void TestCounterfactual::initTestCase()
{
    QVERIFY(m_dir.isValid());
    // World A: S = 3. The two-call policy reveals b0a0 (1), b0a1 (3): best 3, attainment 1.
    m_a = m_dir.filePath(QStringLiteral("a.json"));
    QVERIFY(writeFile(m_a, "{\"format\": \"dreamrsi-tree/1\", \"baseline_score\": 0.5, \"cells\": ["
                               + cellJson("a00", 0, 0, 0, "1") + ", " + cellJson("a01", 0, 1, 1, "3") + ", "
                               + cellJson("a10", 1, 0, 2, "2") + ", " + cellJson("a11", 1, 1, 3, "2.5") + "]}"));
    // World B: S = 4 (b1a0, never revealed). It reveals b0a0 (2), b0a1 (1): best 2, attainment 0.5.
    m_b = m_dir.filePath(QStringLiteral("b.json"));
    QVERIFY(writeFile(m_b, "{\"format\": \"dreamrsi-tree/1\", \"cells\": [" + cellJson("b00", 0, 0, 0, "2") + ", "
                               + cellJson("b01", 0, 1, 1, "1") + ", " + cellJson("b10", 1, 0, 2, "4") + "]}"));
    m_policy = m_dir.filePath(QStringLiteral("two.js"));
    QVERIFY(writeFile(m_policy, TwoCalls));

    m_synthDir = m_dir.filePath(QStringLiteral("synth"));
    const test::CliRun synth = runDreamrsi({QStringLiteral("synth"), QStringLiteral("--out"), m_synthDir, QStringLiteral("--worlds"),
                                            QStringLiteral("4"), QStringLiteral("--seed"), QStringLiteral("7"), QStringLiteral("--width"),
                                            QStringLiteral("6"), QStringLiteral("--depth"), QStringLiteral("6")});
    QVERIFY2(synth.finished && synth.exitCode == 0, synth.err.constData());
    for (const QString &name : QDir(m_synthDir).entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name))
        m_synth.append(QDir(m_synthDir).filePath(name));
    QCOMPARE(m_synth.size(), 4);
}

void TestCounterfactual::worldOrderIsAShuffleDeterminedBySeed()
{
    QCOMPARE(CounterfactualLoop::worldOrder(5, 0, 99), (QList<int>{0, 1, 2, 3, 4}));
    const QList<int> a = CounterfactualLoop::worldOrder(20, 1, 7);
    QCOMPARE(CounterfactualLoop::worldOrder(20, 1, 7), a);
    QList<int> sorted = a;
    std::sort(sorted.begin(), sorted.end());
    QCOMPARE(sorted, CounterfactualLoop::worldOrder(20, 0, 7));
    QVERIFY(a != sorted);
    // Repeat r with seed S is repeat r + 1 with seed S − 1: the seed is S + r.
    QCOMPARE(CounterfactualLoop::worldOrder(20, 2, 7), CounterfactualLoop::worldOrder(20, 1, 8));
    QVERIFY(CounterfactualLoop::worldOrder(20, 2, 7) != a);
}

void TestCounterfactual::revealedTreeHoldsOnlyRevealedCells()
{
    TreeJson::ParseResult world = TreeJson::readFile(m_a);
    QVERIFY(world.ok());
    const DiscoveryTree t = CounterfactualLoop::revealedTree(*world.tree, {QStringLiteral("a10"), QStringLiteral("a00")});
    QCOMPARE(t.cellCount(), 2);
    QCOMPARE(t.cells().at(0).id, QStringLiteral("a00"));
    QCOMPARE(t.cells().at(1).id, QStringLiteral("a10"));
    QCOMPARE(t.meta().baselineScore, std::optional<double>(0.5));
    QCOMPARE(t.bestEffectiveScore(), 2.0);
}

void TestCounterfactual::handMadeCase()
{
    // Worked out by hand (see initTestCase): A gives 2 calls, best 3,
    // attainment 1; B gives 2 calls, best 2, attainment 0.5. With M = 1 the
    // dream has only the deployed version, so Dream-RSI equals fixed.
    const test::CliRun run = runDreamrsi({QStringLiteral("loop"), QStringLiteral("--worlds"), m_a, QStringLiteral("--worlds"), m_b,
                                          QStringLiteral("--iterations"), QStringLiteral("2"), QStringLiteral("--versions"),
                                          QStringLiteral("1"), QStringLiteral("--agent"), QStringLiteral("builtin"),
                                          QStringLiteral("--policy"), m_policy, QStringLiteral("--compare"),
                                          QStringLiteral("--probe"), QStringLiteral("off"), QStringLiteral("--json")});
    QVERIFY2(run.finished && run.exitCode == 0, run.err.constData());
    const QJsonObject json = parseObject(run.out);
    const QJsonArray runs = json.value(QStringLiteral("runs")).toArray();
    QCOMPARE(runs.size(), 2);
    for (const QJsonValue &v : runs) {
        const QJsonObject r = v.toObject();
        QCOMPARE(r.value(QStringLiteral("repeat")).toInt(), 0);
        const QJsonArray its = r.value(QStringLiteral("iterations")).toArray();
        QCOMPARE(its.size(), 2);
        const QJsonObject i1 = its.at(0).toObject(), i2 = its.at(1).toObject();
        QCOMPARE(i1.value(QStringLiteral("iteration")).toInt(), 1);
        QCOMPARE(i1.value(QStringLiteral("world")).toString(), m_a);
        QCOMPARE(i1.value(QStringLiteral("policy_version")).toString(), m_policy);
        QCOMPARE(i1.value(QStringLiteral("calls")).toInt(), 2);
        QCOMPARE(i1.value(QStringLiteral("best_score")).toDouble(), 3.0);
        QCOMPARE(i1.value(QStringLiteral("attainment")).toDouble(), 1.0);
        QCOMPARE(i1.value(QStringLiteral("cumulative_calls")).toInt(), 2);
        QCOMPARE(i2.value(QStringLiteral("world")).toString(), m_b);
        QCOMPARE(i2.value(QStringLiteral("calls")).toInt(), 2);
        QCOMPARE(i2.value(QStringLiteral("best_score")).toDouble(), 2.0);
        QCOMPARE(i2.value(QStringLiteral("attainment")).toDouble(), 0.5);
        QCOMPARE(i2.value(QStringLiteral("cumulative_calls")).toInt(), 4);
        QCOMPARE(i2.value(QStringLiteral("policy_version")).toString(), m_policy);
    }
    QCOMPARE(runs.at(0).toObject().value(QStringLiteral("fixed")).toBool(), false);
    QCOMPARE(runs.at(1).toObject().value(QStringLiteral("fixed")).toBool(), true);
    const QJsonObject summary = json.value(QStringLiteral("summary")).toObject();
    for (const char *arm : {"dream", "fixed"}) {
        const QJsonObject a = summary.value(QLatin1String(arm)).toObject();
        QCOMPARE(a.value(QStringLiteral("calls_mean")).toDouble(), 2.0);
        QVERIFY(a.value(QStringLiteral("calls_ci95")).isNull());
        QCOMPARE(a.value(QStringLiteral("attainment_mean")).toDouble(), 0.75);
        QVERIFY(a.value(QStringLiteral("attainment_ci95")).isNull());
    }
    // The fixed arm's final best (3) is reached by Dream-RSI at iteration 1, after 2 calls.
    const QJsonObject reach = summary.value(QStringLiteral("calls_to_reach_fixed_best")).toObject();
    QCOMPARE(reach.value(QStringLiteral("per_repeat")).toArray(), QJsonArray{2});
    QCOMPARE(reach.value(QStringLiteral("mean")).toDouble(), 2.0);
}

void TestCounterfactual::summaryStatisticsByHand()
{
    // Two repeats of one arm: calls (2, 4) and (6, 8): per-repeat means 3 and 7,
    // overall mean 5, sd of the means √8, ci95 = 1.96·√8/√2 = 3.92.
    CounterfactualSettings s;
    s.arms = {CounterfactualArm::Dream, CounterfactualArm::Fixed};
    s.repeats = 2;
    CounterfactualReport report;
    auto iteration = [](int t, int calls, qint64 cumulative, std::optional<double> best, std::optional<double> a) {
        CounterfactualIteration it;
        it.iteration = t;
        it.calls = calls;
        it.cumulativeCalls = cumulative;
        it.bestScore = best;
        it.attainment = a;
        return it;
    };
    report.runs.append({CounterfactualArm::Dream, 0, {iteration(1, 2, 2, 1.0, 0.5), iteration(2, 4, 6, 2.0, 1.0)}});
    report.runs.append({CounterfactualArm::Fixed, 0, {iteration(1, 5, 5, 1.5, 0.75), iteration(2, 5, 10, 1.8, 0.9)}});
    report.runs.append({CounterfactualArm::Dream, 1, {iteration(1, 6, 6, 1.0, 0.5), iteration(2, 8, 14, std::nullopt, std::nullopt)}});
    report.runs.append({CounterfactualArm::Fixed, 1, {iteration(1, 5, 5, 1.5, 0.75), iteration(2, 5, 10, 1.2, 0.6)}});
    const QJsonObject summary = CounterfactualLoop::toJson(report, s).value(QStringLiteral("summary")).toObject();
    const QJsonObject dream = summary.value(QStringLiteral("dream")).toObject();
    QCOMPARE(dream.value(QStringLiteral("calls_mean")).toDouble(), 5.0);
    QVERIFY(qAbs(dream.value(QStringLiteral("calls_ci95")).toDouble() - 3.92) < 1e-12);
    // Attainments (0.5, 1) and (0.5): three values, mean 2/3; repeat means 0.75 and 0.5.
    QVERIFY(qAbs(dream.value(QStringLiteral("attainment_mean")).toDouble() - 2.0 / 3.0) < 1e-12);
    QVERIFY(qAbs(dream.value(QStringLiteral("attainment_ci95")).toDouble() - 1.96 * std::sqrt(0.03125) / std::sqrt(2.0)) < 1e-12);
    const QJsonObject fixed = summary.value(QStringLiteral("fixed")).toObject();
    QCOMPARE(fixed.value(QStringLiteral("calls_mean")).toDouble(), 5.0);
    QCOMPARE(fixed.value(QStringLiteral("calls_ci95")).toDouble(), 0.0);
    // Fixed's final best: 1.8 (repeat 0), 1.5 (repeat 1). Dream reaches 1.8 at
    // iteration 2 of repeat 0 (6 calls) and 1.5 never in repeat 1.
    const QJsonObject reach = summary.value(QStringLiteral("calls_to_reach_fixed_best")).toObject();
    QCOMPARE(reach.value(QStringLiteral("per_repeat")).toArray(), (QJsonArray{6, QJsonValue()}));
    QCOMPARE(reach.value(QStringLiteral("mean")).toDouble(), 6.0);
    QCOMPARE(dream.value(QStringLiteral("calls_to_reach_fixed_best")).toObject(), reach);
    QVERIFY(!fixed.contains(QStringLiteral("calls_to_reach_fixed_best")));
}

void TestCounterfactual::dreamPicksTheBestMeanValue()
{
    CounterfactualSettings s;
    s.worldPaths = {m_a, m_b};
    s.iterations = 2;
    s.versions = 2;
    s.policyArgument = m_policy;
    s.valuation = Valuation::Revealed; // the values below are over the revealed prefixes
    s.probe = ProbeSetting::off();      // and the deployments' episodes alone
    s.floor = false;                    // the best mean value alone (the floor check: below)

    // A version that cannot run is stored with its error and never proposed:
    // the deployed version stays.
    CounterfactualLoop keep(std::make_shared<FixedDeveloper>(QStringLiteral("function selectBatch(state) { return [; }")));
    CounterfactualReport r = keep.run(s);
    QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
    QCOMPARE(r.runs.size(), 1);
    QCOMPARE(r.runs.at(0).iterations.at(0).proposed, std::optional<QString>(m_policy));
    QCOMPARE(r.runs.at(0).iterations.at(1).policyVersion, m_policy);

    // The history is A's revealed cells: a00 (1), a01 (3), so B' = 2, S' = 3.
    // The deployed policy reveals both in two rounds: the point (2, 1),
    // hypervolume (1/2)·1·(2 − 2) = 0, penalty 2/2 = 1, value −0.1. A version
    // that opens the legal roots (here only a00) in one round and stops has
    // the point (1, 1/3): hypervolume (1/2)·(1/3)·1 = 1/6, penalty 1, value
    // 1/6 − 0.1 > −0.1, so it is proposed and approved as v1 (the bias of
    // valuing revealed prefixes: stopping early looks good).
    const QString oneRound = QStringLiteral("function selectBatch(state) {\n"
                                            "  if (state.observed.length > 0) return [];\n"
                                            "  return state.legalRoots.slice(0, 2);\n"
                                            "}\n");
    CounterfactualLoop take(std::make_shared<FixedDeveloper>(oneRound));
    r = take.run(s);
    QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
    const CounterfactualIteration &first = r.runs.at(0).iterations.at(0);
    QCOMPARE(first.proposed, std::optional<QString>(QStringLiteral("v1")));
    QCOMPARE(first.approved, std::optional<QString>(QStringLiteral("v1")));
    const CounterfactualIteration &second = r.runs.at(0).iterations.at(1);
    QCOMPARE(second.policyVersion, QStringLiteral("v1"));
    // v1 on B opens both roots in one round: b00 (2), b10 (4): best 4 = S, attainment 1.
    QCOMPARE(second.calls, 2);
    QCOMPARE(second.bestScore, std::optional<double>(4.0));
    QCOMPARE(second.attainment, std::optional<double>(1.0));

    // The floor check refuses v1 too: on its hardest (only) history world it
    // reaches 1/3 at the deployment β, the starting version 1.
    s.floor = true;
    CounterfactualLoop floored(std::make_shared<FixedDeveloper>(oneRound));
    r = floored.run(s);
    QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
    QCOMPARE(r.runs.at(0).iterations.at(0).approved, std::optional<QString>(m_policy));
    QVERIFY2(r.runs.at(0).iterations.at(0).approvalNote.contains(QStringLiteral("v1 reaches 0.333 on its hardest world, below the floor 1")),
             qPrintable(r.runs.at(0).iterations.at(0).approvalNote));
    QCOMPARE(r.runs.at(0).iterations.at(1).policyVersion, m_policy);
    QCOMPARE(CounterfactualLoop::toJson(r, s).value(QStringLiteral("config")).toObject().value(QStringLiteral("floor")).toBool(), true);
    s.floor = false;

    // The guard refuses v1: on the history it reaches attainment 1/3 where
    // the deployed version reaches 1.
    s.arms = {CounterfactualArm::Guarded};
    CounterfactualLoop guarded(std::make_shared<FixedDeveloper>(oneRound));
    r = guarded.run(s);
    QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
    QCOMPARE(r.runs.at(0).iterations.at(0).proposed, std::optional<QString>(QStringLiteral("v1")));
    QCOMPARE(r.runs.at(0).iterations.at(0).approved, std::optional<QString>(m_policy));
    QVERIFY(r.runs.at(0).iterations.at(0).approvalNote.contains(QStringLiteral("guard")));
    QCOMPARE(r.runs.at(0).iterations.at(1).policyVersion, m_policy);
}

void TestCounterfactual::dreamsSeeRevealedCellsOnly()
{
    CounterfactualSettings s;
    s.worldPaths = m_synth;
    s.iterations = 4;
    s.versions = 2;
    s.workers = 3;
    s.repeats = 2;
    s.seed = 5;
    CounterfactualLoop loop(std::make_shared<PolicyImprover>(2));
    // Every dream's worlds against the episodes reported so far.
    QList<QList<DreamWorld>> seen;
    connect(&loop, &CounterfactualLoop::dreaming, &loop,
            [&](int, int, const QList<DreamWorld> &history) { seen.append(history); }, Qt::DirectConnection);
    const CounterfactualReport r = loop.run(s);
    QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
    QCOMPARE(seen.size(), 2 * 3); // repeats × (T − 1)
    int dream = 0;
    for (const CounterfactualRun &run : r.runs) {
        for (int t = 1; t < s.iterations; ++t, ++dream) {
            const QList<DreamWorld> &history = seen.at(dream);
            QCOMPARE(history.size(), qsizetype(t));
            for (int h = 0; h < t; ++h) {
                const CounterfactualIteration &it = run.iterations.at(h);
                TreeJson::ParseResult world = TreeJson::readFile(it.world);
                QVERIFY(world.ok());
                // Replaying the iteration's deployment gives the revealed set;
                // the dream's tree holds exactly those cells.
                const DiscoveryTree &tree = *history.at(h).world.tree;
                QCOMPARE(tree.cellCount(), it.calls);
                for (const Cell &c : tree.cells()) {
                    const int i = world.tree->indexOfId(c.id);
                    QVERIFY(i >= 0);
                    // A probe call is the world's cell with the probe tag and its reason.
                    Cell recorded = c;
                    if (Probes::isProbe(c)) {
                        recorded.tags.removeAll(Probes::tag());
                        recorded.payload.remove(Probes::reasonKey());
                        QVERIFY(it.probes.join(QLatin1Char('\n')).contains(c.id + QLatin1Char(':')));
                    }
                    QCOMPARE(world.tree->cells().at(i), recorded);
                }
                if (it.bestScore)
                    QCOMPARE(tree.bestScore(), it.bestScore);
            }
        }
    }
}

void TestCounterfactual::fixedArmEqualsReplay()
{
    for (const QString &policy : {QStringLiteral("builtin:portfolio"), m_policy, QStringLiteral("builtin:parallel_refine")}) {
        const test::CliRun run = runDreamrsi({QStringLiteral("loop"), QStringLiteral("--world-dir"), m_synthDir,
                                              QStringLiteral("--iterations"), QStringLiteral("4"), QStringLiteral("--fixed"),
                                              QStringLiteral("--policy"), policy, QStringLiteral("--workers"), QStringLiteral("3"),
                                              QStringLiteral("--seed"), QStringLiteral("11"), QStringLiteral("--json")});
        QVERIFY2(run.finished && run.exitCode == 0, run.err.constData());
        const QJsonArray runs = parseObject(run.out).value(QStringLiteral("runs")).toArray();
        QCOMPARE(runs.size(), 1);
        QVERIFY(runs.at(0).toObject().value(QStringLiteral("fixed")).toBool());
        const QJsonArray its = runs.at(0).toObject().value(QStringLiteral("iterations")).toArray();
        QCOMPARE(its.size(), 4);
        for (qsizetype t = 0; t < its.size(); ++t) {
            const QJsonObject it = its.at(t).toObject();
            QCOMPARE(it.value(QStringLiteral("world")).toString(), m_synth.at(t));
            QCOMPARE(it.value(QStringLiteral("policy_version")).toString(), policy);
            const test::CliRun replay = runDreamrsi(
                {QStringLiteral("replay"), QStringLiteral("--world"), m_synth.at(t), QStringLiteral("--policy"), policy,
                 QStringLiteral("--betas"), QString::number(it.value(QStringLiteral("beta")).toDouble()), QStringLiteral("--workers"),
                 QStringLiteral("3"), QStringLiteral("--seed"), QStringLiteral("11"), QStringLiteral("--json")});
            QVERIFY2(replay.finished && replay.exitCode == 0, replay.err.constData());
            const QJsonObject world = parseObject(replay.out).value(QStringLiteral("worlds")).toArray().at(0).toObject();
            const QJsonObject sweep = world.value(QStringLiteral("sweep")).toArray().at(0).toObject();
            QCOMPARE(it.value(QStringLiteral("calls")).toInt(), sweep.value(QStringLiteral("calls")).toInt());
            QCOMPARE(it.value(QStringLiteral("attainment")).toDouble(), sweep.value(QStringLiteral("attainment")).toDouble());
            // The best raw score of the revealed cells.
            TreeJson::ParseResult tree = TreeJson::readFile(m_synth.at(t));
            QVERIFY(tree.ok());
            std::optional<double> best;
            for (const QJsonValue &id : sweep.value(QStringLiteral("revealed")).toArray()) {
                const std::optional<double> score = tree.tree->cells().at(tree.tree->indexOfId(id.toString())).score;
                if (score && (!best || *score > *best))
                    best = score;
            }
            QCOMPARE(it.value(QStringLiteral("best_score")).toDouble(), best.value_or(0.0));
        }
    }
}

void TestCounterfactual::repeatsAreDeterministicBySeed()
{
    auto run = [&](const QString &seed) {
        return runDreamrsi({QStringLiteral("loop"), QStringLiteral("--world-dir"), m_synthDir, QStringLiteral("--iterations"),
                            QStringLiteral("3"), QStringLiteral("--versions"), QStringLiteral("2"), QStringLiteral("--repeats"),
                            QStringLiteral("3"), QStringLiteral("--seed"), seed, QStringLiteral("--workers"), QStringLiteral("3"),
                            QStringLiteral("--compare"), QStringLiteral("--json")});
    };
    const test::CliRun a = run(QStringLiteral("3")), b = run(QStringLiteral("3")), c = run(QStringLiteral("4"));
    QVERIFY2(a.finished && a.exitCode == 0, a.err.constData());
    QVERIFY(b.finished && b.exitCode == 0 && c.finished && c.exitCode == 0);
    QCOMPARE(a.out, b.out);
    QVERIFY(a.out != c.out);
    const QJsonArray runs = parseObject(a.out).value(QStringLiteral("runs")).toArray();
    QCOMPARE(runs.size(), 6);
    // Both arms of a repeat take the same worlds in the same order: repeat r
    // takes the first T of worldOrder(4, r, 3).
    for (const QJsonValue &v : runs) {
        const QJsonObject r = v.toObject();
        const QList<int> order = CounterfactualLoop::worldOrder(4, r.value(QStringLiteral("repeat")).toInt(), 3);
        const QJsonArray its = r.value(QStringLiteral("iterations")).toArray();
        for (qsizetype t = 0; t < its.size(); ++t)
            QCOMPARE(its.at(t).toObject().value(QStringLiteral("world")).toString(), m_synth.at(order.at(t)));
    }
    const QJsonObject summary = parseObject(a.out).value(QStringLiteral("summary")).toObject();
    QVERIFY(summary.value(QStringLiteral("dream")).toObject().value(QStringLiteral("calls_ci95")).isDouble());
    QCOMPARE(summary.value(QStringLiteral("calls_to_reach_fixed_best")).toObject().value(QStringLiteral("per_repeat")).toArray().size(), 3);
}

void TestCounterfactual::guardedArmIsReportedBesideThePlainRule()
{
    const test::CliRun run = runDreamrsi({QStringLiteral("loop"), QStringLiteral("--world-dir"), m_synthDir, QStringLiteral("--iterations"),
                                          QStringLiteral("3"), QStringLiteral("--versions"), QStringLiteral("2"), QStringLiteral("--guard"),
                                          QStringLiteral("--compare"), QStringLiteral("--workers"), QStringLiteral("3"), QStringLiteral("--json")});
    QVERIFY2(run.finished && run.exitCode == 0, run.err.constData());
    const QJsonObject json = parseObject(run.out);
    QStringList arms;
    for (const QJsonValue &v : json.value(QStringLiteral("runs")).toArray())
        arms.append(v.toObject().value(QStringLiteral("arm")).toString());
    QCOMPARE(arms, (QStringList{QStringLiteral("dream"), QStringLiteral("dream_guarded"), QStringLiteral("fixed")}));
    const QJsonObject summary = json.value(QStringLiteral("summary")).toObject();
    QVERIFY(summary.contains(QStringLiteral("dream_guarded")));
    QVERIFY(summary.value(QStringLiteral("dream_guarded")).toObject().contains(QStringLiteral("calls_to_reach_fixed_best")));
}

void TestCounterfactual::usageErrors_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("message");
    const QString a = QDir::temp().filePath(QStringLiteral("none.json"));
    QTest::newRow("too many iterations") << QStringList{QStringLiteral("--worlds"), a, QStringLiteral("--iterations"), QStringLiteral("2")}
                                         << QStringLiteral("exceeds the number of worlds (1)");
    QTest::newRow("both arms flags") << QStringList{QStringLiteral("--worlds"), a, QStringLiteral("--iterations"), QStringLiteral("1"),
                                                    QStringLiteral("--fixed"), QStringLiteral("--compare")}
                                     << QStringLiteral("--fixed and --compare");
    QTest::newRow("no iterations") << QStringList{QStringLiteral("--worlds"), a} << QStringLiteral("--iterations is required");
    QTest::newRow("bad agent") << QStringList{QStringLiteral("--worlds"), a, QStringLiteral("--iterations"), QStringLiteral("1"),
                                              QStringLiteral("--agent"), QStringLiteral("oracle")}
                               << QStringLiteral("unknown kind 'oracle'");
    QTest::newRow("bad beta") << QStringList{QStringLiteral("--worlds"), a, QStringLiteral("--iterations"), QStringLiteral("1"),
                                             QStringLiteral("--beta"), QStringLiteral("2")}
                              << QStringLiteral("--beta");
    QTest::newRow("bad repeats") << QStringList{QStringLiteral("--worlds"), a, QStringLiteral("--iterations"), QStringLiteral("1"),
                                                QStringLiteral("--repeats"), QStringLiteral("0")}
                                 << QStringLiteral("--repeats");
    QTest::newRow("bad floor") << QStringList{QStringLiteral("--worlds"), a, QStringLiteral("--iterations"), QStringLiteral("1"),
                                              QStringLiteral("--floor"), QStringLiteral("maybe")}
                               << QStringLiteral("--floor takes on or off (got 'maybe')");
    QTest::newRow("unknown built-in policy")
        << QStringList{QStringLiteral("--worlds"), a, QStringLiteral("--iterations"), QStringLiteral("1"), QStringLiteral("--policy"),
                       QStringLiteral("builtin:nosuch")}
        << QStringLiteral("--policy: unknown built-in policy 'builtin:nosuch' (known: builtin:");
    QTest::newRow("missing dir") << QStringList{QStringLiteral("--world-dir"), QStringLiteral("/nonexistent/dir"),
                                                QStringLiteral("--iterations"), QStringLiteral("1")}
                                 << QStringLiteral("/nonexistent/dir");
}

void TestCounterfactual::usageErrors()
{
    QFETCH(QStringList, args);
    QFETCH(QString, message);
    const test::CliRun run = runDreamrsi(QStringList{QStringLiteral("loop")} + args);
    QVERIFY(run.finished);
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(QString::fromUtf8(run.err).contains(message), run.err.constData());
}

void TestCounterfactual::unreadableWorldExits1()
{
    const QString broken = m_dir.filePath(QStringLiteral("broken.json"));
    QVERIFY(writeFile(broken, "{\"format\": \"dreamrsi-tree/1\", \"cells\": [{\"id\": \"x\"}]}"));
    const test::CliRun run = runDreamrsi({QStringLiteral("loop"), QStringLiteral("--worlds"), m_a, QStringLiteral("--worlds"), broken,
                                          QStringLiteral("--iterations"), QStringLiteral("2"), QStringLiteral("--fixed")});
    QVERIFY(run.finished);
    QCOMPARE(run.exitCode, 1);
    QVERIFY2(run.err.contains("broken.json"), run.err.constData());
    QVERIFY(run.out.isEmpty());
}

void TestCounterfactual::projectStoresTheRun()
{
    const QString project = m_dir.filePath(QStringLiteral("p.dreamrsi"));
    // Without a project file the command refuses and writes nothing.
    test::CliRun run = runDreamrsi({QStringLiteral("loop"), QStringLiteral("--worlds"), m_a, QStringLiteral("--iterations"),
                                    QStringLiteral("1"), QStringLiteral("--fixed"), QStringLiteral("--project"), project});
    QCOMPARE(run.exitCode, 1);
    QVERIFY(!QFileInfo::exists(ProjectSimulations::folderOf(project)));
    // A file that is no project is refused by name: the study starts from the project's replay configuration.
    QVERIFY(writeFile(project, "stand-in: no project"));
    run = runDreamrsi({QStringLiteral("loop"), QStringLiteral("--worlds"), m_a, QStringLiteral("--iterations"),
                       QStringLiteral("1"), QStringLiteral("--fixed"), QStringLiteral("--project"), project});
    QCOMPARE(run.exitCode, 1);
    QVERIFY2(run.err.contains("not a Dream-RSI project"), run.err.constData());
    QVERIFY(!QFileInfo::exists(ProjectSimulations::folderOf(project)));
    QVERIFY(QFile::remove(project));
    {
        auto writer = ProjectWriter::create(project, ProjectInfo{});
        QVERIFY2(writer.ok(), qPrintable(writer.error));
    }
    run = runDreamrsi({QStringLiteral("loop"), QStringLiteral("--worlds"), m_a, QStringLiteral("--iterations"), QStringLiteral("1"),
                       QStringLiteral("--fixed"), QStringLiteral("--project"), project, QStringLiteral("--json")});
    QVERIFY2(run.finished && run.exitCode == 0, run.err.constData());
    const QList<StoredSimulation> stored = ProjectSimulations::list(project);
    QCOMPARE(stored.size(), 1);
    QFile f(stored.at(0).path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(f.readAll(), run.out);
    QVERIFY(stored.at(0).created.isValid());
}

QTEST_GUILESS_MAIN(TestCounterfactual)
#include "tst_counterfactual.moc"
