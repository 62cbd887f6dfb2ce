// The frugality trap's remedies (docs/online.md#probes, #imagination-rules,
// #a-proposal-must-beat-the-noise): probe calls where the world model is
// blind, the widened imagination rule, unopened roots completed from their
// own direction, and proposals that must beat the completions' noise.
#include "okcell.h"
#include "loop/counterfactual/counterfactualloop.h"
#include "loop/dream/dreamer.h"
#include "loop/dream/policyimprover.h"
#include "model/treejson.h"
#include "project/policyresolution.h"
#include "replay/probes.h"
#include "replay/synthworld.h"
#include "replay/worldmodel.h"

#include <QJsonArray>
#include <QTest>

#include <cmath>

using namespace dreamrsi;

namespace {

using test::okCell;

/// A world of `branches` branches, each `depth` attempts deep, on a 6 × 8
/// grid: branch b starts at 1 + 0.1·b and gains `gain` per attempt.
DiscoveryTree world(int branches, int depth, double gain, const QJsonObject &extra = {})
{
    QList<Cell> cells;
    qint64 seq = 0;
    for (int b = 0; b < branches; ++b) {
        for (int a = 0; a < depth; ++a)
            cells.append(okCell(b, a, 1.0 + 0.1 * b + gain * a, seq++));
    }
    TreeMeta meta;
    meta.grid = GridShape{6, 8};
    meta.payload = extra;
    TreeError error;
    std::optional<DiscoveryTree> t = DiscoveryTree::build(meta, cells, &error);
    if (!t)
        qFatal("test world: %s", qPrintable(error.message));
    return *t;
}

/// A synthetic world of a study regime, W 4.
DiscoveryTree synth(const QString &regime, quint64 seed)
{
    SynthParams p;
    p.regime = regime;
    p.seed = seed;
    p.maxParallelism = 4;
    return SynthWorld::generate(p);
}

/// `count` history worlds of `regime` (synth seeds from `seed`), each
/// revealed up to attempt `maxAttempt` on branches below `branches`.
QList<DreamWorld> revealedHistory(const QString &regime, quint64 seed, int count, int maxAttempt, int branches)
{
    QList<DreamWorld> history;
    for (int i = 0; i < count; ++i) {
        const DiscoveryTree full = synth(regime, seed + quint64(i));
        QStringList some;
        for (const Cell &c : full.cells()) {
            if (c.attempt <= maxAttempt && c.branch < branches)
                some.append(c.id);
        }
        history.append(DreamWorld{IterationId(i + 1), ReplayWorld{QStringLiteral("w%1").arg(i),
                                                                std::make_shared<const DiscoveryTree>(
                                                                    CounterfactualLoop::revealedTree(full, some))}});
    }
    return history;
}

/// A dream in memory over C = 2 imagined completions, W 4, without the
/// other valuation.
DreamSettings inMemoryDream(int versions)
{
    DreamSettings ds;
    ds.versions = versions;
    ds.replay.workers = 4;
    ds.replay.completions = 2;
    ds.replay.valuation = Valuation::Imagined;
    ds.inProcess = true;
    ds.bothValuations = false;
    return ds;
}

WorldModel fitOn(const QList<const DiscoveryTree *> &history, ImaginationRule rule = ImaginationRule::Capped)
{
    ImaginationOptions o;
    o.rule = rule;
    return WorldModel::fit(history, o);
}

/// Whether `rule` completes a world exactly as capped does when the history
/// holds NMIN gains at every depth of the grid (nothing is blind).
bool drawsAsCappedWhereObserved(ImaginationRule rule)
{
    const DiscoveryTree deep = world(6, 9, 0.05);
    const QList<const DiscoveryTree *> full{&deep};
    const DiscoveryTree part = world(2, 2, 0.05);
    const Result<DiscoveryTree> a = Imagination::complete(part, fitOn(full), 3, 0, 0);
    const Result<DiscoveryTree> b = Imagination::complete(part, fitOn(full, rule), 3, 0, 0);
    return a && b && a.value->cells() == b.value->cells();
}

} // namespace

class TestProbes : public QObject
{
    Q_OBJECT
private slots:
    void settingParsed();
    void earlyProbesUntilARefinementPays();
    void depthProbeWhereBlindAndNoneOnceSeen();
    void rootProbeForABlindDirection();
    void probeCellsCountedTaggedAndJoinTheHistory();
    void widenedExceedsTheCapOnlyWhereBlind();
    void uncertainIsWideOnlyWhereBlind();
    void anchoredIsWideOnlyNearTheDeepestGain();
    void unopenedRootCompletedFromItsDirection();
    void proposalInsideTheNoiseIsNotProposed();
    void proposalBelowTheHardestWorldIsNotProposed();
};

void TestProbes::settingParsed()
{
    QString error;
    QCOMPARE(ProbeSetting::parse(QStringLiteral("--probe"), QStringLiteral("auto"), &error)->budget(), ProbeSetting::AutoCalls);
    QCOMPARE(*ProbeSetting::parse(QStringLiteral("--probe"), QStringLiteral("early"), &error), ProbeSetting::early());
    QCOMPARE(ProbeSetting::early().name(), QStringLiteral("early"));
    QCOMPARE(ProbeSetting::early().budget(), ProbeSetting::EarlyCalls);
    QCOMPARE(ProbeSetting::parse(QStringLiteral("--probe"), QStringLiteral("off"), &error)->budget(), 0);
    QCOMPARE(ProbeSetting::parse(QStringLiteral("--probe"), QStringLiteral("5"), &error)->budget(), 5);
    QCOMPARE(ProbeSetting::parse(QStringLiteral("--probe"), QStringLiteral("0"), &error)->name(), QStringLiteral("off"));
    QVERIFY(!ProbeSetting::parse(QStringLiteral("--probe"), QStringLiteral("many"), &error));
    QVERIFY2(error.contains(QLatin1String("--probe")) && error.contains(QLatin1String("many")) && error.contains(QLatin1String("early")),
             qPrintable(error));
    QVERIFY(!ProbeSetting::parse(QStringLiteral("--probe"), QStringLiteral("-1"), &error));
}

void TestProbes::earlyProbesUntilARefinementPays()
{
    // `early`: twice the calls in a task's first three deployments, until one of them shows a refinement pay.
    const ProbeSetting early = ProbeSetting::early();
    QCOMPARE(ProbeSetting::EarlyCalls, 6);
    QCOMPARE(ProbeSetting::EarlyDeployments, 3);
    QCOMPARE(early.budgetAfter(0, false), 6);
    QCOMPARE(early.budgetAfter(2, false), 6);
    QCOMPARE(early.budgetAfter(3, false), 3);
    QCOMPARE(early.budgetAfter(1, true), 3);
    QCOMPARE(early.budgetAfter(10, true), 3);
    // Only `early`, in a task's first deployments, asks whether refining has paid.
    QVERIFY(early.asksWhetherRefiningPaid(2));
    QVERIFY(!early.asksWhetherRefiningPaid(3));
    QVERIFY(!ProbeSetting::automatic().asksWhetherRefiningPaid(0));
    // `auto` is three calls whatever the history.
    QCOMPARE(ProbeSetting::automatic().budgetAfter(0, false), ProbeSetting::AutoCalls);
    // A number of calls is what it says, whatever the history; off is none.
    QCOMPARE(ProbeSetting::calls(5).budgetAfter(0, false), 5);
    QCOMPARE(ProbeSetting::calls(5).budgetAfter(7, true), 5);
    QCOMPARE(ProbeSetting::off().budgetAfter(0, false), 0);

    // A refinement pays when it scores above every attempt before it on its branch.
    QVERIFY(Probes::refiningPaid(world(3, 3, 0.05)));
    QVERIFY(!Probes::refiningPaid(world(3, 3, 0.0)));   // equal scores: no refinement raised its best
    QVERIFY(!Probes::refiningPaid(world(3, 3, -0.05))); // every refinement worse
    QVERIFY(!Probes::refiningPaid(world(6, 1, 0.05)));  // roots only: higher roots are not refinements
    // A refinement back above a dip that stays below the branch's first score has not paid.
    QList<Cell> cells{okCell(0, 0, 1.0, 0), okCell(0, 1, 0.5, 1), okCell(0, 2, 0.9, 2)};
    TreeError error;
    std::optional<DiscoveryTree> dip = DiscoveryTree::build(TreeMeta{}, cells, &error);
    QVERIFY2(dip, qPrintable(error.message));
    QVERIFY(!Probes::refiningPaid(*dip));
    cells.append(okCell(0, 3, 1.2, 3));
    dip = DiscoveryTree::build(TreeMeta{}, cells, &error);
    QVERIFY2(dip, qPrintable(error.message));
    QVERIFY(Probes::refiningPaid(*dip));

    // In the counterfactual loop with `--probe early`: the first deployment
    // of the late regime (gains from attempt 3 on) shows none, so its probes
    // may go past three.
    CounterfactualSettings s;
    for (int i = 0; i < 2; ++i)
        s.worlds.append(ReplayWorld{QStringLiteral("late-%1").arg(i), std::make_shared<const DiscoveryTree>(synth(QStringLiteral("late"), 11 + quint64(i)))});
    s.iterations = 2;
    s.repeats = 1;
    s.versions = 1;
    s.workers = 4;
    s.seed = 1;
    s.probe = ProbeSetting::early();
    s.arms = {CounterfactualArm::FixedProbe};
    CounterfactualLoop loop(std::make_shared<PolicyImprover>(1));
    const CounterfactualReport report = loop.run(s);
    QVERIFY2(report.error.isEmpty(), qPrintable(report.error));
    const CounterfactualIteration &first = report.runs.at(0).iterations.at(0);
    QVERIFY2(first.probeCalls > ProbeSetting::AutoCalls, qPrintable(first.probes.join(QLatin1String("; "))));
    QVERIFY(first.probeCalls <= ProbeSetting::EarlyCalls);
}

void TestProbes::depthProbeWhereBlindAndNoneOnceSeen()
{
    // Three history worlds whose deepest cells are at attempt 2: depth 3 is blind.
    const DiscoveryTree shallow = world(6, 3, 0.05);
    const QList<const DiscoveryTree *> history{&shallow, &shallow, &shallow};
    const WorldModel blind = fitOn(history);
    QVERIFY(blind.depthBlind(QString(), 3));
    QVERIFY(!blind.depthBlind(QString(), 2));
    const std::optional<ProbeCall> call = Probes::next(shallow, blind, {});
    QVERIFY(call);
    QCOMPARE(call->kind, ProbeCall::Kind::Depth);
    QCOMPARE(call->branch, 5); // the best branch: 1.5 + 0.1
    QCOMPARE(call->attempt, 3);
    QVERIFY2(call->reason.contains(QLatin1String("depth 3 had 0 values")), qPrintable(call->reason));
    // The plan chains deeper on the best branch while each depth stays blind.
    const QList<ProbeCall> planned = Probes::plan(shallow, blind, {}, 3);
    QCOMPARE(planned.size(), 3);
    QCOMPARE(planned.at(2).attempt, 5);
    // A cell the world does not hold is passed over (every root is open: nothing else to probe).
    QVERIFY(!Probes::next(shallow, blind, {}, {QStringLiteral("b5a3")}));

    // Once NMIN = 3 gains are known at depth 3 (and 4), nothing is probed there.
    const DiscoveryTree deeper = world(3, 5, 0.05);
    const QList<const DiscoveryTree *> seen{&shallow, &deeper};
    const WorldModel evidence = fitOn(seen);
    QCOMPARE(evidence.gainCount(QString(), 3), 3);
    QVERIFY(!evidence.depthBlind(QString(), 3));
    QVERIFY(!Probes::next(shallow, evidence, {}));
    // A seen depth does not wall off the blind one behind it: with three
    // calls left the best branch sets off through depths 3 and 4 (seen)
    // towards depth 5 (blind), and not with two, nor through a cell the
    // caller cannot make.
    QVERIFY(evidence.depthBlind(QString(), 5));
    const std::optional<ProbeCall> onTheWay = Probes::next(shallow, evidence, {}, {}, 3);
    QVERIFY(onTheWay);
    QCOMPARE(onTheWay->cellId(), QStringLiteral("b5a3"));
    QVERIFY2(onTheWay->reason.contains(QLatin1String("on the way to depth 5, which had 0 values")),
             qPrintable(onTheWay->reason));
    QVERIFY(!Probes::next(shallow, evidence, {}, {}, 2));
    QVERIFY(!Probes::next(shallow, evidence, {}, {QStringLiteral("b5a4")}, 3));
    const QList<ProbeCall> route = Probes::plan(shallow, evidence, {}, 3);
    QCOMPARE(route.size(), 3);
    QCOMPARE(route.at(2).cellId(), QStringLiteral("b5a5"));
    QVERIFY2(route.at(2).reason.contains(QLatin1String("depth 5 had 0 values")), qPrintable(route.at(2).reason));
    QVERIFY(Probes::plan(shallow, evidence, {}, 2).isEmpty());
    // Two values are still blind.
    const DiscoveryTree two = world(2, 4, 0.05);
    const QList<const DiscoveryTree *> almost{&shallow, &two};
    QVERIFY(fitOn(almost).depthBlind(QString(), 3));
    QVERIFY(Probes::next(shallow, fitOn(almost), {}));
    // Past the grid's refinements (8) there is nothing to probe.
    const DiscoveryTree full = world(6, 9, 0.01);
    const QList<const DiscoveryTree *> self{&full};
    QVERIFY(!Probes::next(full, fitOn(self), {}));
}

void TestProbes::rootProbeForABlindDirection()
{
    // Branches 0–2 open in directions a, a, b; the task's directions are
    // a, b, c (b mod 3): unopened branch 5 explores c, never opened.
    QList<Cell> cells{okCell(0, 0, 1.0, 0, QStringLiteral("a")), okCell(1, 0, 1.1, 1, QStringLiteral("a")),
                      okCell(2, 0, 1.2, 2, QStringLiteral("b"))};
    TreeMeta meta;
    meta.grid = GridShape{6, 0}; // no refinements: no depth to probe
    const DiscoveryTree episode = *DiscoveryTree::build(meta, cells);
    const QStringList directions{QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c")};
    ImaginationOptions o;
    o.directions = directions;
    const QList<const DiscoveryTree *> history{&episode};
    const WorldModel model = WorldModel::fit(history, o);
    const std::optional<ProbeCall> call = Probes::next(episode, model, directions);
    QVERIFY(call);
    QCOMPARE(call->kind, ProbeCall::Kind::Root);
    QCOMPARE(call->branch, 3); // branch 3 explores a: 2 first values, still blind
    QVERIFY2(call->reason.contains(QLatin1String("first attempts of a had 2 values")), qPrintable(call->reason));
}

void TestProbes::probeCellsCountedTaggedAndJoinTheHistory()
{
    // The deep regime: a portfolio deployment stops before attempt 4.
    QList<ReplayWorld> worlds;
    for (int i = 0; i < 3; ++i)
        worlds.append(ReplayWorld{QStringLiteral("deep %1").arg(i),
                                  std::make_shared<const DiscoveryTree>(synth(QStringLiteral("deep"), quint64(300 + i)))});
    CounterfactualSettings s;
    s.worlds = worlds;
    s.iterations = 3;
    s.versions = 2;
    s.workers = 4;
    s.completions = 2;
    s.probe = ProbeSetting::automatic();
    s.arms = {CounterfactualArm::Dream, CounterfactualArm::Fixed, CounterfactualArm::FixedProbe};
    CounterfactualLoop loop(std::make_shared<PolicyImprover>(2));
    QList<QList<DreamWorld>> histories;
    connect(&loop, &CounterfactualLoop::dreaming, this,
            [&](int, int, const QList<DreamWorld> &history) { histories.append(history); }, Qt::DirectConnection);
    const CounterfactualReport report = loop.run(s);
    QVERIFY2(report.error.isEmpty(), qPrintable(report.error));
    QCOMPARE(report.runs.size(), 3);
    const CounterfactualRun &dream = report.runs.at(0), &fixed = report.runs.at(1), &fixedProbe = report.runs.at(2);
    QCOMPARE(fixed.arm, CounterfactualArm::Fixed);
    // Fixed exploration never probes; fixed_probe is the same episode plus its probes.
    for (int t = 0; t < 3; ++t) {
        QCOMPARE(fixed.iterations.at(t).probeCalls, 0);
        const CounterfactualIteration &fp = fixedProbe.iterations.at(t);
        QCOMPARE(fp.calls, fixed.iterations.at(t).calls + fp.probeCalls);
        QCOMPARE(fp.probes.size(), fp.probeCalls);
        QVERIFY(fp.probeCalls <= ProbeSetting::AutoCalls);
        QVERIFY(!fp.attainment || !fixed.iterations.at(t).attainment || *fp.attainment >= *fixed.iterations.at(t).attainment);
    }
    QVERIFY2(fixedProbe.iterations.at(0).probeCalls > 0, "the first deployment of the deep regime probes");
    QVERIFY2(fixedProbe.iterations.at(0).probes.constFirst().contains(QLatin1String("depth")),
             qPrintable(fixedProbe.iterations.at(0).probes.constFirst()));
    // The dreaming arm's probes are counted in its calls and join its history, tagged with their reason.
    const CounterfactualIteration &first = dream.iterations.at(0);
    QVERIFY(first.probeCalls > 0);
    QVERIFY(!histories.isEmpty());
    const DiscoveryTree &tree = *histories.at(0).at(0).world.tree;
    QCOMPARE(tree.cellCount(), first.calls);
    int probes = 0;
    for (const Cell &c : tree.cells()) {
        if (!Probes::isProbe(c))
            continue;
        ++probes;
        QVERIFY(!c.payload.value(Probes::reasonKey()).toString().isEmpty());
        QVERIFY(first.probes.join(QLatin1Char('\n')).contains(c.id + QLatin1Char(':')));
    }
    QCOMPARE(probes, first.probeCalls);
    // The JSON says so.
    const QJsonObject json = CounterfactualLoop::toJson(report, s);
    const QJsonObject it0 = json.value(QStringLiteral("runs")).toArray().at(0).toObject().value(QStringLiteral("iterations")).toArray().at(0).toObject();
    QCOMPARE(it0.value(QStringLiteral("probe_calls")).toInt(), first.probeCalls);
    QCOMPARE(json.value(QStringLiteral("summary")).toObject().value(QStringLiteral("fixed")).toObject().value(QStringLiteral("probe")).toString(),
             QStringLiteral("off"));
}

void TestProbes::widenedExceedsTheCapOnlyWhereBlind()
{
    // Gains of 0.05 at depths 1 and 2, nothing known deeper; cap = 1.6.
    const DiscoveryTree shallow = world(6, 3, 0.05);
    const QList<const DiscoveryTree *> history{&shallow, &shallow, &shallow};
    const WorldModel capped = fitOn(history);
    const WorldModel widened = fitOn(history, ImaginationRule::Widened);
    QCOMPARE(*capped.cap(), 1.6);
    QVERIFY(std::abs(widened.largestGain() - 0.05) < 1e-9);
    double cappedMax = 0.0, widenedMax = 0.0, widenedShallowMax = 0.0;
    for (int k = 0; k < 20; ++k) {
        const Result<DiscoveryTree> c = Imagination::complete(shallow, capped, 7, 0, k);
        const Result<DiscoveryTree> w = Imagination::complete(shallow, widened, 7, 0, k);
        QVERIFY(c && w);
        for (const Cell &cell : c.value->cells()) {
            if (cell.score)
                cappedMax = std::max(cappedMax, *cell.score);
        }
        for (const Cell &cell : w.value->cells()) {
            if (!cell.score)
                continue;
            widenedMax = std::max(widenedMax, *cell.score);
            if (cell.attempt <= 2) // a depth with evidence
                widenedShallowMax = std::max(widenedShallowMax, *cell.score);
        }
    }
    QVERIFY2(cappedMax <= 1.6, qPrintable(QString::number(cappedMax)));
    QVERIFY2(widenedMax > 1.6, qPrintable(QString::number(widenedMax)));
    QVERIFY2(widenedMax <= 1.6 + 0.05 + 1e-12, qPrintable(QString::number(widenedMax)));
    QVERIFY2(widenedShallowMax <= 1.6, qPrintable(QString::number(widenedShallowMax)));

    // Where the depth is well observed, the widened rule draws what capped draws.
    QVERIFY(drawsAsCappedWhereObserved(ImaginationRule::Widened));
}

void TestProbes::uncertainIsWideOnlyWhereBlind()
{
    // A history that never saw a gain: every refinement at depths 1 and 2
    // scores what its root did, nothing is known deeper; first scores 1.0 …
    // 1.5, so the cap is 1.5 and the largest gain 0. The widened rule has no
    // headroom there; the uncertain rule's prior is as wide as the roots.
    const DiscoveryTree flat = world(6, 3, 0.0);
    const QList<const DiscoveryTree *> history{&flat, &flat, &flat};
    const WorldModel widened = fitOn(history, ImaginationRule::Widened);
    const WorldModel uncertain = fitOn(history, ImaginationRule::Uncertain);
    QCOMPARE(*uncertain.cap(), 1.5);
    QCOMPARE(uncertain.largestGain(), 0.0);
    double mean = 0.0, squares = 0.0;
    for (int b = 0; b < 6; ++b)
        mean += (1.0 + 0.1 * b) / 6.0;
    for (int b = 0; b < 6; ++b)
        squares += 3.0 * (1.0 + 0.1 * b - mean) * (1.0 + 0.1 * b - mean);
    const double width = 2.0 * std::sqrt(squares / 17.0); // 18 first scores
    QVERIFY2(std::abs(uncertain.priorWidth() - width) < 1e-12, qPrintable(QString::number(uncertain.priorWidth())));
    QCOMPARE(uncertain.toJson().value(QStringLiteral("prior_width")).toDouble(), uncertain.priorWidth());
    // Completed: a world of the same task whose roots alone are revealed, so
    // that attempts 1 and 2 (observed) and 3 on (blind) are all imagined.
    const DiscoveryTree roots = world(6, 1, 0.0);
    double widenedMax = 0.0, blindMax = 0.0, seenMax = 0.0;
    int belowRoot = 0, seen = 0;
    for (int k = 0; k < 20; ++k) {
        const Result<DiscoveryTree> w = Imagination::complete(roots, widened, 7, 0, k);
        const Result<DiscoveryTree> u = Imagination::complete(roots, uncertain, 7, 0, k);
        QVERIFY(w && u);
        for (const Cell &cell : w.value->cells()) {
            if (cell.score)
                widenedMax = std::max(widenedMax, *cell.score);
        }
        for (const Cell &cell : u.value->cells()) {
            if (!cell.score || !Imagination::isImagined(cell))
                continue;
            if (cell.attempt <= 2) {
                ++seen;
                seenMax = std::max(seenMax, *cell.score);
            } else {
                blindMax = std::max(blindMax, *cell.score);
                // Both ways: a draw below the branch's root is a loss (its best stays).
                belowRoot += *cell.score < 1.0 + 0.1 * cell.branch - 1e-12 ? 1 : 0;
            }
        }
    }
    QVERIFY2(widenedMax <= 1.5, qPrintable(QString::number(widenedMax)));
    QVERIFY2(blindMax > 1.5, qPrintable(QString::number(blindMax)));
    QVERIFY2(blindMax <= 1.5 + width + 1e-12, qPrintable(QString::number(blindMax)));
    QVERIFY(seen > 100);
    QVERIFY2(seenMax <= 1.5, qPrintable(QString::number(seenMax)));
    QVERIFY(belowRoot > 0);

    // Where every depth is well observed, the uncertain rule draws what capped draws.
    QVERIFY(drawsAsCappedWhereObserved(ImaginationRule::Uncertain));
}

void TestProbes::anchoredIsWideOnlyNearTheDeepestGain()
{
    // A history that never saw a gain (as above): the deepest gain is at
    // depth 0, so the anchored rule's window holds depths 1 … 4 of the
    // grid's 8, and depths 5 … 8 are drawn as capped draws them.
    QCOMPARE(anchoredWindow(), 4);
    const DiscoveryTree flat = world(6, 3, 0.0);
    const QList<const DiscoveryTree *> history{&flat, &flat, &flat};
    const WorldModel anchored = fitOn(history, ImaginationRule::Anchored);
    QCOMPARE(anchored.deepestGain(), 0);
    QCOMPARE(anchored.toJson().value(QStringLiteral("deepest_gain")).toInt(-1), 0);
    QCOMPARE(anchored.toJson().value(QStringLiteral("rule")).toString(), QStringLiteral("anchored"));
    QVERIFY(anchored.depthBlind(QString(), 3) && anchored.depthBlind(QString(), 5));
    QVERIFY(anchored.priorAt(3) && anchored.priorAt(4));
    QVERIFY(!anchored.priorAt(5) && !anchored.priorAt(8));
    QVERIFY(fitOn(history, ImaginationRule::Uncertain).priorAt(8));
    QVERIFY(!fitOn(history, ImaginationRule::Capped).priorAt(3));
    const double cap = *anchored.cap(), width = anchored.priorWidth();
    QCOMPARE(cap, 1.5);
    const DiscoveryTree roots = world(6, 1, 0.0);
    double nearMax = 0.0, farMax = 0.0;
    int far = 0;
    for (int k = 0; k < 20; ++k) {
        const Result<DiscoveryTree> c = Imagination::complete(roots, anchored, 7, 0, k);
        QVERIFY(c);
        for (const Cell &cell : c.value->cells()) {
            if (!cell.score || !Imagination::isImagined(cell))
                continue;
            if (cell.attempt >= 3 && cell.attempt <= 4) {
                nearMax = std::max(nearMax, *cell.score);
            } else if (cell.attempt >= 5) {
                ++far;
                farMax = std::max(farMax, *cell.score);
            }
        }
    }
    // Blind and near: above the cap, never past cap + S. Blind and far: at most the cap.
    QVERIFY2(nearMax > cap && nearMax <= cap + width + 1e-12, qPrintable(QString::number(nearMax)));
    QVERIFY(far > 100);
    QVERIFY2(farMax <= cap, qPrintable(QString::number(farMax)));

    // A history whose branches gained at depths 1 and 2: the window reaches depth 6.
    const DiscoveryTree climbing = world(6, 3, 0.05);
    const WorldModel anchoredAtTwo = fitOn({&climbing, &climbing, &climbing}, ImaginationRule::Anchored);
    QCOMPARE(anchoredAtTwo.deepestGain(), 2);
    QVERIFY(anchoredAtTwo.priorAt(6) && !anchoredAtTwo.priorAt(7));

    // Where every depth is well observed, the anchored rule draws what capped draws.
    QVERIFY(drawsAsCappedWhereObserved(ImaginationRule::Anchored));
}

void TestProbes::unopenedRootCompletedFromItsDirection()
{
    // Direction "hi" starts at 10, direction "lo" at 1; branch 4 was never
    // opened, but the recorded world says it explores "hi".
    QList<Cell> cells;
    qint64 seq = 0;
    for (int b = 0; b < 4; ++b)
        cells.append(okCell(b, 0, b % 2 ? 10.0 + b : 1.0 + b, seq++, b % 2 ? QStringLiteral("hi") : QStringLiteral("lo")));
    cells.append(okCell(5, 0, 11.5, seq++, QStringLiteral("hi")));
    TreeMeta meta;
    meta.grid = GridShape{6, 0};
    meta.payload.insert(QStringLiteral("branch_directions"), QJsonObject{{QStringLiteral("4"), QStringLiteral("hi")}});
    const DiscoveryTree tree = *DiscoveryTree::build(meta, cells);
    QCOMPARE(Imagination::branchTag(tree, 4, {}), QStringLiteral("direction:hi"));
    const QList<const DiscoveryTree *> history{&tree};
    const WorldModel model = WorldModel::fit(history, ImaginationOptions());
    QCOMPARE(model.firstCount(QStringLiteral("direction:hi")), 3);
    for (int k = 0; k < 10; ++k) {
        const Result<DiscoveryTree> c = Imagination::complete(tree, model, 11, 0, k);
        QVERIFY(c);
        const Cell &root = c.value->cells().at(c.value->indexOfId(QStringLiteral("b4a0")));
        QVERIFY(Imagination::isImagined(root));
        QCOMPARE(root.tags, QStringList{QStringLiteral("direction:hi")});
        QVERIFY2(*root.score >= 10.0, qPrintable(QString::number(*root.score)));
    }
    // The counterfactual loop's history tree carries the recorded directions of unopened branches.
    const DiscoveryTree revealed = CounterfactualLoop::revealedTree(tree, {QStringLiteral("b0a0"), QStringLiteral("b1a0")});
    const QJsonObject known = revealed.meta().payload.value(QStringLiteral("branch_directions")).toObject();
    QCOMPARE(known.value(QStringLiteral("2")).toString(), QStringLiteral("lo"));
    QCOMPARE(known.value(QStringLiteral("5")).toString(), QStringLiteral("hi"));
    QVERIFY(!known.contains(QStringLiteral("0")));
    // And survives a round trip through the file format.
    const TreeJson::ParseResult back = TreeJson::parse(TreeJson::serialize(revealed));
    QVERIFY(back.ok());
    QCOMPARE(Imagination::branchTag(*back.tree, 5, {}), QStringLiteral("direction:hi"));
}

void TestProbes::proposalInsideTheNoiseIsNotProposed()
{
    QCOMPARE(ProposalCheck::beatsNoise(0.0001, 0.0006, 0.001), false); // the demo's v6: lead smaller than the noise
    QCOMPARE(ProposalCheck::beatsNoise(0.01, 0.0006, -0.001), false);  // does not lead under the second seed
    QCOMPARE(ProposalCheck::beatsNoise(0.01, 0.0006, 0.002), true);
    QCOMPARE(ProposalCheck::beatsNoise(0.0, 0.0, 0.0), false);

    // A real dream in memory: when it runs, the check's verdict decides the proposal.
    const QList<DreamWorld> history = revealedHistory(QStringLiteral("late"), 40, 2, 1, 5);
    for (const quint64 seed : {quint64(1), quint64(2), quint64(3)}) {
        DreamSettings ds = inMemoryDream(3);
        ds.seed = seed;
        Dreamer dreamer(nullptr, std::make_shared<PolicyImprover>(3));
        QStringList log;
        connect(&dreamer, &Dreamer::message, this, [&](const QString &line) { log.append(line); }, Qt::DirectConnection);
        const Result<PolicyVersion> portfolio = PolicyResolution::versionOfArgument(QStringLiteral("builtin:portfolio"), {}, {});
        QVERIFY(portfolio);
        const DreamReport report = dreamer.runInMemory(history, ds, *portfolio.value, 1);
        QVERIFY2(report.error.isEmpty(), qPrintable(report.error));
        const ProposalCheck &c = report.check;
        if (!c.measured) {
            QVERIFY(report.proposed <= 0); // nothing led: no check, nothing new proposed
            continue;
        }
        QVERIFY(c.noise && c.secondLead);
        QCOMPARE(c.passed, ProposalCheck::beatsNoise(c.lead, *c.noise, *c.secondLead));
        QCOMPARE(report.proposed > 0, c.passed);
        QVERIFY(!c.verdict.isEmpty());
        for (const QString &line : std::as_const(log)) // the log never proposes the deployed version
            QVERIFY2(!line.startsWith(QStringLiteral("proposed: ") + portfolio.value->name), qPrintable(line));
    }
}

namespace {

/// A sweep whose episodes at β 0, 0.5 and 1 reach `low`, `mid` and `high`.
SweepResult sweepReaching(double low, double mid, double high)
{
    SweepResult s;
    s.scorable = true;
    s.best = 1.0;
    for (const auto &[beta, a] : {std::pair{0.0, low}, std::pair{0.5, mid}, std::pair{1.0, high}}) {
        EpisodeResult e;
        e.beta = beta;
        e.attainment = a;
        s.episodes.append(e);
    }
    return s;
}

/// A version with mean value `value` whose two worlds (one completion each)
/// reach `first` and `second` at β 0.5.
DreamVersion versionReaching(int index, const QString &name, double value, double first, double second)
{
    auto result = std::make_shared<ReplayResult>();
    result->worlds = {sweepReaching(0.0, first, 1.0), sweepReaching(0.0, second, 1.0)};
    DreamVersion v;
    v.index = index;
    v.developed.version.name = name;
    v.developed.value = value;
    v.developed.result = result;
    return v;
}

} // namespace

void TestProbes::proposalBelowTheHardestWorldIsNotProposed()
{
    // The hardest world: each history world's completions averaged, at the
    // grid's β nearest the deployed one, then the lowest.
    ReplayResult two;
    two.completions = 2;
    two.worlds = {sweepReaching(0.1, 0.9, 1.0), sweepReaching(0.1, 0.7, 1.0),  // world 0: 0.8 at β 0.5
                  sweepReaching(0.2, 0.6, 1.0), sweepReaching(0.2, 0.8, 1.0)}; // world 1: 0.7
    QCOMPARE(*FloorCheck::worstAttainment(two, 0.5), 0.7);
    QCOMPARE(*FloorCheck::worstAttainment(two, 0.4), 0.7); // 0.5 is the nearest grid point
    QCOMPARE(*FloorCheck::worstAttainment(two, 0.1), 0.1); // 0: world 0 reaches 0.1, world 1 0.2
    two.completions = 1;
    QCOMPARE(*FloorCheck::worstAttainment(two, 0.5), 0.6); // each completion its own world
    QVERIFY(!FloorCheck::worstAttainment(ReplayResult(), 0.5));

    // The deployed version keeps the floor 0.75: the leader v2 does not
    // (0.6 on its hardest world) and gives way to v3, which does and still
    // leads the deployed version; v4 keeps it too but v3 is worth more.
    const QList<DreamVersion> versions{versionReaching(0, QStringLiteral("v1"), 0.50, 0.90, 0.80),
                                       versionReaching(1, QStringLiteral("v2"), 0.70, 0.95, 0.60),
                                       versionReaching(2, QStringLiteral("v3"), 0.60, 0.90, 0.85),
                                       versionReaching(3, QStringLiteral("v4"), 0.55, 0.90, 0.90)};
    QStringList refused;
    bool repair = true;
    QCOMPARE(FloorCheck::choose(versions, 0.75, 0.5, &refused, &repair), 2);
    QCOMPARE(refused, QStringList{QStringLiteral("v2")});
    QVERIFY(!repair);
    // No version that leads the deployed one keeps a floor of 0.86: the
    // deployed version (0.80) is below it too, so the repair takes the
    // best-valued one that keeps it, v4, although it is worth less than v1.
    refused.clear();
    QCOMPARE(FloorCheck::choose(versions, 0.86, 0.5, &refused, &repair), 3);
    QVERIFY(repair);
    QCOMPARE(refused, (QStringList{QStringLiteral("v2"), QStringLiteral("v3")}));
    // Nobody keeps 0.95: the deployed version stays.
    refused.clear();
    QCOMPARE(FloorCheck::choose(versions, 0.95, 0.5, &refused, &repair), 0);
    QCOMPARE(refused.size(), 3);
    // A low floor: the leader.
    refused.clear();
    QCOMPARE(FloorCheck::choose(versions, 0.5, 0.5, &refused, &repair), 1);
    QVERIFY(refused.isEmpty() && !repair);
    // While the deployed version keeps the floor, nothing worth less than it is proposed.
    const QList<DreamVersion> worse{versionReaching(0, QStringLiteral("v1"), 0.50, 0.90, 0.80),
                                    versionReaching(1, QStringLiteral("v2"), 0.70, 0.95, 0.60),
                                    versionReaching(2, QStringLiteral("v3"), 0.40, 0.90, 0.90)};
    refused.clear();
    QCOMPARE(FloorCheck::choose(worse, 0.75, 0.5, &refused, &repair), 0);
    QCOMPARE(refused, QStringList{QStringLiteral("v2")});

    // Real dreams in memory over flat worlds (where frugal versions lead):
    // whatever is proposed keeps the starting version's hardest world, and
    // every version passed over falls below it.
    const QList<DreamWorld> history = revealedHistory(QStringLiteral("flat"), 70, 3, 1, 1000);
    const Result<PolicyVersion> portfolio = PolicyResolution::versionOfArgument(QStringLiteral("builtin:portfolio"), {}, {});
    QVERIFY(portfolio);
    DreamSettings ds = inMemoryDream(4);
    ds.noiseCheck = false; // the floor alone decides here
    ds.deployedBeta = 0.5;
    const auto check = [&](const DreamReport &report) {
        const FloorCheck &f = report.floor;
        QVERIFY(f.measured && f.floor && !f.verdict.isEmpty());
        const DreamVersion *p = report.proposal();
        QVERIFY(p);
        if (p->index > 0)
            QVERIFY(*FloorCheck::worstAttainment(*p->developed.result, 0.5) >= *f.floor);
        for (const QString &name : f.refused) {
            const auto it = std::find_if(report.versions.cbegin(), report.versions.cend(),
                                         [&](const DreamVersion &v) { return v.developed.version.name == name; });
            QVERIFY(it != report.versions.cend() && it->index > 0);
            QVERIFY(*FloorCheck::worstAttainment(*it->developed.result, 0.5) < *f.floor);
        }
    };
    for (const quint64 seed : {quint64(1), quint64(2)}) {
        ds.seed = seed;
        ds.floorCheck = true;
        Dreamer dreamer(nullptr, std::make_shared<PolicyImprover>(3));
        QStringList log;
        connect(&dreamer, &Dreamer::message, this, [&](const QString &line) { log.append(line); }, Qt::DirectConnection);
        const DreamReport report = dreamer.runInMemory(history, ds, *portfolio.value, 1);
        QVERIFY2(report.error.isEmpty(), qPrintable(report.error));
        check(report);
        if (QTest::currentTestFailed())
            return;
        const FloorCheck &f = report.floor;
        QCOMPARE(f.floorVersion, portfolio.value->name); // a dream in memory: the deployed version
        QVERIFY(!f.repair); // the deployed version is the floor's own
        QCOMPARE(f.passed, f.refused.isEmpty());
        if (!f.passed)
            QVERIFY(log.contains(f.verdict));
        // Without the check the leader is proposed.
        ds.floorCheck = false;
        Dreamer unchecked(nullptr, std::make_shared<PolicyImprover>(3));
        const DreamReport plain = unchecked.runInMemory(history, ds, *portfolio.value, 1);
        QVERIFY(!plain.floor.measured);
        QCOMPARE(plain.proposed, Dreamer::bestByMeanValue(plain.versions));
        QCOMPARE(plain.proposal()->developed.version.name, f.candidate);
    }

    // A floor version that reveals every cell reaches 1 on every world: the
    // deployed version falls below that floor, and so does every version
    // that stops early; a version that keeps it replaces the deployed one.
    PolicyVersion everything;
    everything.name = QStringLiteral("everything");
    everything.code = QStringLiteral("function selectBatch(state) { return state.legal.slice(0, state.maxParallelism); }");
    ds.floorCheck = true;
    ds.floorVersion = everything;
    ds.seed = 1;
    Dreamer strict(nullptr, std::make_shared<PolicyImprover>(3));
    QStringList log;
    connect(&strict, &Dreamer::message, this, [&](const QString &line) { log.append(line); }, Qt::DirectConnection);
    const DreamReport report = strict.runInMemory(history, ds, *portfolio.value, 1);
    QVERIFY2(report.error.isEmpty(), qPrintable(report.error));
    check(report);
    const FloorCheck &f = report.floor;
    QCOMPARE(f.floorVersion, QStringLiteral("everything"));
    QCOMPARE(*f.floor, 1.0);
    QVERIFY(f.repair);
    QVERIFY(*f.deployedWorst < 1.0);
    // Either a version keeps the floor and is proposed, or every one was passed over.
    QVERIFY2(report.proposed > 0 || f.refused.size() == report.versions.size() - 1, qPrintable(f.verdict));
    QVERIFY2(f.verdict.contains(QLatin1String("below the floor 1")), qPrintable(f.verdict));
    QVERIFY(log.contains(f.verdict));
}

QTEST_GUILESS_MAIN(TestProbes)
#include "tst_probes.moc"
