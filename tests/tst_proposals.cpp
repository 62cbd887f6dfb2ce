// Dreams that can propose the frugal and the deep (docs/online.md, "What the
// history suggests" and "No wasted candidates"): no tunable of the portfolio
// family is a one-way constraint, both ends of the family are reachable at
// every β, a behaviour is valued once per dream, and the oracle valuation of
// a study is the plain replay mean over the complete worlds.

#include "clirunsupport.h"

#include "loop/counterfactual/counterfactualloop.h"
#include "loop/dream/dreamer.h"
#include "loop/dream/dreamjson.h"
#include "loop/dream/historystats.h"
#include "loop/dream/policyimprover.h"
#include "loop/dream/policytunables.h"
#include "model/treejson.h"
#include "policy/builtinpolicies.h"
#include "policy/policyspec.h"
#include "replay/replayengine.h"
#include "replay/synthworld.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace dreamrsi;

namespace {

/// Worlds of one study regime, as `dreamrsi synth --regime R --width 10 --depth 11 --workers 4` writes them.
QList<DiscoveryTree> studyWorlds(const QString &regime, int count, quint64 seed = 100)
{
    QList<DiscoveryTree> trees;
    for (int i = 0; i < count; ++i) {
        SynthParams p;
        p.regime = regime;
        p.seed = seed + quint64(i);
        p.width = 10;
        p.depth = 11;
        p.maxParallelism = 4;
        trees.append(SynthWorld::generate(p));
    }
    return trees;
}

/// What the portfolio at its defaults reveals of each world at β 0.5, W 4:
/// a history as a deployed policy leaves it.
QList<DiscoveryTree> revealedHistory(const QList<DiscoveryTree> &worlds)
{
    const std::unique_ptr<Policy> policy = std::move(*PolicySpec::builtin(QStringLiteral("portfolio")).create().value);
    ReplayOptions options;
    options.workers = 4;
    QList<DiscoveryTree> out;
    for (const DiscoveryTree &w : worlds) {
        const EpisodeResult e = ReplayEngine::runEpisode(w, *policy, 0.5, options);
        out.append(CounterfactualLoop::revealedTree(w, e.revealed));
    }
    return out;
}

QList<ReplayWorld> named(const QList<DiscoveryTree> &trees, const QString &stem)
{
    QList<ReplayWorld> worlds;
    for (const DiscoveryTree &t : trees)
        worlds.append(ReplayWorld{QStringLiteral("%1 %2").arg(stem).arg(worlds.size() + 1), std::make_shared<const DiscoveryTree>(t)});
    return worlds;
}

/// The portfolio with each numeric tunable in the middle of its range and
/// each choice at its middle alternative (`flip`: binary choices at 1), so
/// that every tunable has room on both sides.
QString midRangePortfolio(bool flip)
{
    QString code = BuiltinPolicies::javaScriptSource(QStringLiteral("portfolio"));
    QList<PolicyTunable> tunables = PolicyTunables::parse(code);
    for (qsizetype i = tunables.size() - 1; i >= 0; --i) {
        const PolicyTunable &t = tunables.at(i);
        double v = t.value;
        if (!t.choices.isEmpty())
            v = t.choices.size() == 2 ? t.choices.at(flip ? 1 : 0) : t.choices.at(t.choices.size() / 2);
        else if (t.low && t.high)
            v = t.integer ? std::round((*t.low + *t.high) / 2.0) : (*t.low + *t.high) / 2.0;
        code = PolicyTunables::withValue(code, t, v);
    }
    return code;
}

/// The built-in portfolio as a dream's version 0.
PolicyVersion portfolioVersion()
{
    PolicyVersion v;
    v.name = QStringLiteral("builtin:portfolio");
    v.origin = PolicyOrigin::Builtin;
    v.code = BuiltinPolicies::javaScriptSource(QStringLiteral("portfolio"));
    return v;
}

quint64 hashOf(const QString &code)
{
    return qHash(code, 0x5EED);
}

/// Every episode's batches (world by world, β by β) of `code` over `worlds`.
QStringList batchesOf(const QString &code, const QList<ReplayWorld> &worlds, const QList<double> &betas)
{
    ReplayOptions options;
    options.workers = 4;
    options.betas = betas;
    options.trace = true;
    options.threads = 1;
    const ReplayResult r = ReplayEngine::runWorlds(worlds, PolicySpec::script(code, QStringLiteral("c")), options);
    QStringList out;
    for (const SweepResult &s : r.worlds) {
        for (const EpisodeResult &e : s.episodes) {
            QStringList rounds;
            for (const RoundTrace &t : e.trace)
                rounds << t.batch.join(QLatin1Char(','));
            out << s.world + QLatin1Char('@') + QString::number(e.beta) + QLatin1Char(':') + rounds.join(QLatin1Char('|')) + e.error;
        }
    }
    return out;
}

} // namespace

class TestProposals : public QObject
{
    Q_OBJECT

private slots:
    void familyReachesBothEnds();
    void everyTunableMovesBothWays_data();
    void everyTunableMovesBothWays();
    void floorsAreProposalsNotConstraints();
    void duplicateBehavioursAreValuedOnce();
    void oracleValuationIsTheReplayMean();
};

void TestProposals::familyReachesBothEnds()
{
    const QList<ReplayWorld> worlds = named(studyWorlds(QStringLiteral("late"), 4), QStringLiteral("w"));
    const QString portfolio = BuiltinPolicies::javaScriptSource(QStringLiteral("portfolio"));
    auto with = [&](const QList<std::pair<QString, double>> &values) {
        QString code = portfolio;
        for (const auto &[name, value] : values) {
            for (const PolicyTunable &t : PolicyTunables::parse(code)) {
                if (t.name == name)
                    code = PolicyTunables::withValue(code, t, value);
            }
        }
        return code;
    };
    ReplayOptions options;
    options.workers = 4;
    options.betas = {0.0, 0.5, 1.0};
    options.threads = 1;
    // The frugal end: one root and a stop right after the first round, at every β.
    const QString frugal = with({{QStringLiteral("ROOT_SHARE"), 0.0},
                                 {QStringLiteral("FIRST_SHARE"), 0.0},
                                 {QStringLiteral("PATIENCE_BASE"), 0.0},
                                 {QStringLiteral("PATIENCE_SLOPE"), 0.0}});
    const ReplayResult f = ReplayEngine::runWorlds(worlds, PolicySpec::script(frugal, QStringLiteral("frugal")), options);
    QVERIFY2(f.ok(), qPrintable(f.firstError()));
    for (const SweepResult &s : f.worlds) {
        for (const EpisodeResult &e : s.episodes) {
            QCOMPARE(e.calls, 1);
            QCOMPARE(e.rounds, 1);
        }
    }
    // No refinement: every revealed cell is a root; the root budget is the rule's.
    const QString roots = with({{QStringLiteral("STALL_BASE"), 0.0}, {QStringLiteral("STALL_SLOPE"), 0.0}});
    const ReplayResult r = ReplayEngine::runWorlds(worlds, PolicySpec::script(roots, QStringLiteral("roots")), options);
    QVERIFY2(r.ok(), qPrintable(r.firstError()));
    for (const SweepResult &s : r.worlds) {
        for (const EpisodeResult &e : s.episodes) {
            for (const QString &id : e.revealed)
                QVERIFY2(id.endsWith(QLatin1String("a0")), qPrintable(id));
        }
    }
    // The deep end: more patience and probes past it reveal deeper cells and
    // more of them than the default, at every β.
    const QString deep = with({{QStringLiteral("STALL_BASE"), 6.0}, {QStringLiteral("PATIENCE_BASE"), 6.0}, {QStringLiteral("PROBE_CALLS"), 12.0}});
    const ReplayResult d = ReplayEngine::runWorlds(worlds, PolicySpec::script(deep, QStringLiteral("deep")), options);
    const ReplayResult base = ReplayEngine::runWorlds(worlds, PolicySpec::builtin(QStringLiteral("portfolio")), options);
    QVERIFY2(d.ok(), qPrintable(d.firstError()));
    int deeper = 0, episodes = 0;
    for (qsizetype w = 0; w < d.worlds.size(); ++w) {
        for (qsizetype b = 0; b < d.worlds.at(w).episodes.size(); ++b) {
            deeper += d.worlds.at(w).episodes.at(b).calls > base.worlds.at(w).episodes.at(b).calls ? 1 : 0;
            ++episodes;
        }
    }
    QVERIFY2(deeper * 2 > episodes, qPrintable(QStringLiteral("%1 of %2 episodes deeper").arg(deeper).arg(episodes)));
}

void TestProposals::everyTunableMovesBothWays_data()
{
    QTest::addColumn<QString>("regime");
    QTest::newRow("a few directions carry the task") << QStringLiteral("directions");
    QTest::newRow("gains arrive late") << QStringLiteral("late");
    QTest::newRow("nothing improves after the first attempt") << QStringLiteral("flat");
}

void TestProposals::everyTunableMovesBothWays()
{
    QFETCH(QString, regime);
    const QList<DiscoveryTree> history = revealedHistory(studyWorlds(regime, 6));
    QList<const DiscoveryTree *> trees;
    for (const DiscoveryTree &t : history)
        trees.append(&t);
    const HistoryStats stats = computeHistoryStats(trees);
    QVERIFY(!stats.isEmpty());

    // A stand-in replay: every script its own behaviour and some value, so
    // the test sees every step the improver would offer.
    auto evaluate = [](const QString &code, const std::atomic_bool &) {
        CandidateScore s;
        const quint64 h = hashOf(code);
        s.value = double(h % 1000) / 1000.0;
        s.behaviour = h;
        s.deployedBehaviour = h;
        return s;
    };
    QHash<QString, int> below, above; // per tunable: candidates that moved it down, up
    QStringList names;
    for (const bool flip : {false, true}) {
        const QString deployed = midRangePortfolio(flip);
        for (const PolicyTunable &t : PolicyTunables::parse(deployed)) {
            if (!names.contains(t.name))
                names << t.name;
        }
        for (quint64 seed = 0; seed < 120; ++seed) {
            DevelopmentContext context;
            context.current.version.name = QStringLiteral("deployed");
            context.current.version.code = deployed;
            context.current.value = 0.5;
            context.seed = seed;
            context.worldStats = stats;
            context.evaluate = evaluate;
            context.deployedBeta = 0.5;
            context.workers = 4;
            DreamMemory memory;
            context.memory = &memory;
            PolicyImprover improver(4);
            std::atomic_bool cancel(false);
            const DevelopmentOutcome o = improver.develop(context, cancel);
            QVERIFY2(o.ok, qPrintable(o.error));
            for (const CandidateRecord &c : std::as_const(memory.candidates)) {
                QCOMPARE(c.parent, QStringLiteral("deployed"));
                for (const TunableChange &ch : c.changes) {
                    if (ch.to < ch.from)
                        ++below[ch.name];
                    if (ch.to > ch.from)
                        ++above[ch.name];
                }
            }
        }
    }
    QVERIFY(names.contains(QStringLiteral("PATIENCE_FLOOR")));
    QVERIFY(names.contains(QStringLiteral("ROOT_SHARE")));
    for (const QString &name : std::as_const(names)) {
        QVERIFY2(below.value(name) > 0, qPrintable(QStringLiteral("%1 is never proposed below its deployed value (%2)").arg(name, regime)));
        QVERIFY2(above.value(name) > 0, qPrintable(QStringLiteral("%1 is never proposed above its deployed value (%2)").arg(name, regime)));
    }
}

void TestProposals::floorsAreProposalsNotConstraints()
{
    // A late history shows long droughts; a deployed version whose floors
    // ratcheted far above them gets candidates that lower them, and the
    // learned script itself leaves the floors where they were.
    const QList<DiscoveryTree> history = revealedHistory(studyWorlds(QStringLiteral("late"), 6));
    QList<const DiscoveryTree *> trees;
    for (const DiscoveryTree &t : history)
        trees.append(&t);
    const HistoryStats stats = computeHistoryStats(trees);
    QString deployed = BuiltinPolicies::javaScriptSource(QStringLiteral("portfolio"));
    for (const PolicyTunable &t : PolicyTunables::parse(deployed)) {
        if (t.name == QLatin1String("STALL_FLOOR"))
            deployed = PolicyTunables::withValue(deployed, t, 12);
    }
    for (const PolicyTunable &t : PolicyTunables::parse(deployed)) {
        if (t.name == QLatin1String("PATIENCE_FLOOR"))
            deployed = PolicyTunables::withValue(deployed, t, 60);
    }
    QVERIFY(stats.patienceFloor() < 60 && stats.stallFloor() < 12);
    DevelopmentContext context;
    context.current.version.name = QStringLiteral("ratcheted");
    context.current.version.code = deployed;
    context.current.value = 0.1;
    context.worldStats = stats;
    context.deployedBeta = 0.5;
    context.workers = 4;
    context.evaluate = [](const QString &code, const std::atomic_bool &) {
        CandidateScore s;
        s.value = 0.2;
        s.behaviour = hashOf(code);
        s.deployedBehaviour = hashOf(code);
        return s;
    };
    DreamMemory memory;
    context.memory = &memory;
    bool historyFloors = false, noFloors = false;
    for (int step = 0; step < 3; ++step) {
        context.step = step;
        PolicyImprover improver(6);
        std::atomic_bool cancel(false);
        const DevelopmentOutcome o = improver.develop(context, cancel);
        QVERIFY2(o.ok, qPrintable(o.error));
    }
    QSet<QString> offered;
    for (const CandidateRecord &c : std::as_const(memory.candidates)) {
        if (c.kind == QLatin1String("learned")) {
            for (const PolicyTunable &t : PolicyTunables::parse(c.code)) {
                if (t.name == QLatin1String("PATIENCE_FLOOR"))
                    QCOMPARE(t.value, 60.0);
                if (t.name == QLatin1String("STALL_FLOOR"))
                    QCOMPARE(t.value, 12.0);
            }
        }
        if (c.kind != QLatin1String("proposal"))
            continue;
        const QString key = c.why.section(QLatin1Char(':'), 0, 1);
        QVERIFY2(!offered.contains(key), qPrintable(QStringLiteral("offered twice in one dream: ") + key));
        offered.insert(key);
        for (const TunableChange &ch : c.changes) {
            if (c.why.startsWith(QLatin1String("floors: the history's")) && ch.name == QLatin1String("PATIENCE_FLOOR")) {
                QCOMPARE(ch.to, double(stats.patienceFloor()));
                historyFloors = true;
            }
            if (c.why.startsWith(QLatin1String("floors: none")) && ch.name == QLatin1String("STALL_FLOOR")) {
                QCOMPARE(ch.to, 0.0);
                noFloors = true;
            }
        }
    }
    QVERIFY(historyFloors);
    QVERIFY(noFloors);
}

void TestProposals::duplicateBehavioursAreValuedOnce()
{
    // A real dream (revealed valuation, so the test can replay what it valued).
    const QList<DiscoveryTree> history = revealedHistory(studyWorlds(QStringLiteral("flat"), 5));
    QList<DreamWorld> worlds;
    for (const DiscoveryTree &t : history)
        worlds.append(DreamWorld{IterationId(worlds.size() + 1), ReplayWorld{QStringLiteral("iteration %1").arg(worlds.size() + 1),
                                                                             std::make_shared<const DiscoveryTree>(t)}});
    DreamSettings settings;
    settings.versions = 4;
    settings.replay.workers = 4;
    settings.replay.betas = QList<double>{0.0, 0.5, 1.0};
    settings.replay.valuation = Valuation::Revealed;
    settings.inProcess = true;
    settings.bothValuations = false;
    settings.seed = 3;
    settings.deployedBeta = 0.5;
    Dreamer dreamer(nullptr, std::make_shared<PolicyImprover>(4));
    const PolicyVersion deployed = portfolioVersion();
    const DreamReport report = dreamer.runInMemory(worlds, settings, deployed, 1);
    QVERIFY2(report.error.isEmpty(), qPrintable(report.error));
    QCOMPARE(report.versions.size(), 4);
    QVERIFY(!report.candidates.isEmpty());

    QList<ReplayWorld> valued;
    for (const DreamWorld &w : worlds)
        valued.append(w.world);
    const QList<double> betas{0.0, 0.5, 1.0};
    QHash<int, QStringList> behaviour;
    for (qsizetype i = 0; i < report.candidates.size(); ++i)
        behaviour.insert(int(i), batchesOf(report.candidates.at(i).code, valued, betas));
    int duplicates = 0, inert = 0;
    QHash<QStringList, int> firstWith;
    for (qsizetype i = 0; i < report.candidates.size(); ++i) {
        const CandidateRecord &c = report.candidates.at(i);
        if (c.duplicate) {
            ++duplicates;
            QVERIFY(!c.kept);
            if (c.duplicateOf >= 0) // the same batches in every episode as the candidate it repeats
                QCOMPARE(behaviour.value(int(i)), behaviour.value(c.duplicateOf));
            continue;
        }
        // A candidate counted as new differs from every earlier new one.
        QVERIFY2(!firstWith.contains(behaviour.value(int(i))),
                 qPrintable(QStringLiteral("candidate %1 repeats candidate %2 unflagged").arg(i).arg(firstWith.value(behaviour.value(int(i))))));
        firstWith.insert(behaviour.value(int(i)), int(i));
        if (c.inertAtDeployedBeta) {
            ++inert;
            QVERIFY(!c.kept);
        }
    }
    // Each new version is one of its step's candidates, and no version repeats another's behaviour.
    QSet<QStringList> versions;
    for (const DreamVersion &v : report.versions) {
        if (v.index == 0)
            continue;
        QVERIFY(!v.candidates.isEmpty());
        bool kept = false;
        for (const CandidateRecord &c : v.candidates) {
            QCOMPARE(report.candidates.at(c.index).code, c.code);
            kept = kept || (c.kept && c.code == v.developed.version.code);
        }
        QVERIFY(kept || !v.developed.error.isEmpty());
        const QStringList b = batchesOf(v.developed.version.code, valued, betas);
        QVERIFY2(!versions.contains(b), qPrintable(v.developed.version.name));
        versions.insert(b);
    }
    // The JSON counts what the records say.
    const QJsonObject json = dreamReportJson(report, worlds, settings);
    const QJsonObject counts = json.value(QStringLiteral("candidates")).toObject();
    QCOMPARE(counts.value(QStringLiteral("total")).toInt(), int(report.candidates.size()));
    QCOMPARE(counts.value(QStringLiteral("duplicates")).toInt(), duplicates);
    QCOMPARE(counts.value(QStringLiteral("distinct")).toInt(), int(report.candidates.size()) - duplicates);
    QCOMPARE(counts.value(QStringLiteral("inert_at_deployed_beta")).toInt(), inert);
    const QJsonArray listed = json.value(QStringLiteral("versions")).toArray().at(1).toObject().value(QStringLiteral("candidates")).toArray();
    QVERIFY(!listed.isEmpty());
    const QJsonObject first = listed.first().toObject();
    QCOMPARE(first.value(QStringLiteral("parent")).toString(), QStringLiteral("builtin:portfolio"));
    QVERIFY(first.contains(QStringLiteral("changes")));
    QVERIFY(first.contains(QStringLiteral("duplicate")));
    qInfo("dream: %lld candidates replayed, %d duplicates, %d inert at the deployed beta, %d screened out",
          qlonglong(report.candidates.size()), duplicates, inert, report.screened);
    QCOMPARE(counts.value(QStringLiteral("screened")).toInt(), report.screened);

    // Without the cheap screen (a developer given no probe), repeats reach
    // the full replay: each is flagged, matches the candidate it repeats
    // batch for batch, and is replaced, so the step still counts four new
    // behaviours.
    QList<const DiscoveryTree *> trees;
    for (const DiscoveryTree &t : history)
        trees.append(&t);
    DevelopmentContext context;
    context.current.version = portfolioVersion();
    context.current.value = 0.5;
    context.worldStats = computeHistoryStats(trees);
    context.deployedBeta = 0.5;
    context.workers = 4;
    context.evaluate = [&](const QString &code, const std::atomic_bool &) {
        CandidateScore score;
        const QStringList b = batchesOf(code, valued, betas);
        score.behaviour = qHash(b, 1);
        QStringList atDeployed;
        for (const QString &e : b) {
            if (e.contains(QLatin1String("@0.5:")))
                atDeployed << e;
        }
        score.deployedBehaviour = qHash(atDeployed, 1);
        score.value = double(score.behaviour.value() % 997) / 997.0;
        return score;
    };
    DreamMemory memory;
    context.memory = &memory;
    int repeats = 0;
    for (int step = 0; step < 3; ++step) {
        context.step = step;
        context.seed = 9;
        PolicyImprover improver(4);
        std::atomic_bool cancel(false);
        const DevelopmentOutcome o = improver.develop(context, cancel);
        QVERIFY2(o.ok, qPrintable(o.error));
        int fresh = 0, wasted = 0;
        for (const int c : o.candidates) {
            const CandidateRecord &r = memory.candidates.at(c);
            const bool waste = r.duplicate || r.inertAtDeployedBeta;
            fresh += waste ? 0 : 1;
            wasted += waste ? 1 : 0;
            QVERIFY(!(waste && r.kept)); // what repeats a behaviour is never the version
        }
        // Wasted candidates are replaced: four new ones, unless the step ran
        // out of replays (three times its candidates).
        QVERIFY2(fresh == 4 || fresh + wasted >= 12, qPrintable(QStringLiteral("%1 new, %2 wasted").arg(fresh).arg(wasted)));
    }
    for (const CandidateRecord &c : std::as_const(memory.candidates)) {
        if (!c.duplicate)
            continue;
        ++repeats;
        if (c.duplicateOf >= 0)
            QCOMPARE(batchesOf(c.code, valued, betas), batchesOf(memory.candidates.at(c.duplicateOf).code, valued, betas));
        else
            QCOMPARE(batchesOf(c.code, valued, betas), batchesOf(context.current.version.code, valued, betas));
    }
    QVERIFY2(repeats > 0, "the stand-in should meet repeats without the screen");
    qInfo("without the screen: %lld candidates, %d repeats", qlonglong(memory.candidates.size()), repeats);
}

void TestProposals::oracleValuationIsTheReplayMean()
{
    const QList<DiscoveryTree> complete = studyWorlds(QStringLiteral("late"), 4, 300);
    const QList<DiscoveryTree> history = revealedHistory(complete);
    QList<DreamWorld> worlds;
    QList<ReplayWorld> oracle;
    QTemporaryDir dir;
    QStringList args{QStringLiteral("replay")};
    for (qsizetype i = 0; i < complete.size(); ++i) {
        const QString name = QStringLiteral("iteration %1").arg(i + 1);
        worlds.append(DreamWorld{IterationId(i + 1), ReplayWorld{name, std::make_shared<const DiscoveryTree>(history.at(i))}});
        oracle.append(ReplayWorld{name, std::make_shared<const DiscoveryTree>(complete.at(i))});
        const QString path = dir.filePath(QStringLiteral("w%1.json").arg(i));
        QVERIFY(TreeJson::writeFile(complete.at(i), path).ok());
        args << QStringLiteral("--world") << path;
    }
    DreamSettings settings;
    settings.versions = 1;
    settings.replay.workers = 4;
    settings.inProcess = true;
    settings.bothValuations = false;
    settings.oracleWorlds = oracle;
    Dreamer dreamer(nullptr, std::make_shared<PolicyImprover>());
    const PolicyVersion deployed = portfolioVersion();
    const DreamReport report = dreamer.runInMemory(worlds, settings, deployed, 1);
    QVERIFY2(report.error.isEmpty(), qPrintable(report.error));
    QVERIFY(report.oracle);
    const std::optional<double> value = report.versions.at(0).developed.value;
    QVERIFY(value.has_value());

    // `dreamrsi replay` over the complete worlds prints the same mean.
    args << QStringLiteral("--policy") << QStringLiteral("builtin:portfolio") << QStringLiteral("--workers") << QStringLiteral("4")
         << QStringLiteral("--json");
    const test::CliRun run = test::runDreamrsi(args);
    QCOMPARE(run.exitCode, 0);
    const QJsonObject printed = QJsonDocument::fromJson(run.out).object();
    QVERIFY(printed.value(QStringLiteral("value")).isDouble());
    QVERIFY2(std::abs(printed.value(QStringLiteral("value")).toDouble() - *value) <= 1e-12,
             qPrintable(QStringLiteral("oracle %1, replay %2").arg(*value, 0, 'g', 17).arg(printed.value(QStringLiteral("value")).toDouble(), 0, 'g', 17)));
    // And the history as revealed values it differently: the oracle is not the revealed valuation.
    settings.oracleWorlds.clear();
    settings.replay.valuation = Valuation::Revealed;
    const DreamReport revealed = dreamer.runInMemory(worlds, settings, deployed, 1);
    QVERIFY(revealed.versions.at(0).developed.value.has_value());
    QVERIFY(!revealed.oracle);

    // The loop's oracle arm says what it valued over.
    QStringList loop{QStringLiteral("loop")};
    for (qsizetype i = 0; i < complete.size(); ++i)
        loop << QStringLiteral("--worlds") << dir.filePath(QStringLiteral("w%1.json").arg(i));
    loop << QStringLiteral("--iterations") << QStringLiteral("2") << QStringLiteral("--versions") << QStringLiteral("2")
         << QStringLiteral("--workers") << QStringLiteral("4") << QStringLiteral("--valuation") << QStringLiteral("oracle")
         << QStringLiteral("--json");
    const test::CliRun looped = test::runDreamrsi(loop);
    QCOMPARE(looped.exitCode, 0);
    const QJsonObject lo = QJsonDocument::fromJson(looped.out).object();
    QCOMPARE(lo.value(QStringLiteral("config")).toObject().value(QStringLiteral("valuation")).toString(), QStringLiteral("oracle"));
    QVERIFY2(looped.err.contains("oracle valuation"), looped.err.constData());
}

QTEST_GUILESS_MAIN(TestProposals)
#include "tst_proposals.moc"
