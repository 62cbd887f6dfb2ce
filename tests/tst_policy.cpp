// Scripted policies (docs/policy-api.md) and the built-in policies with their
// JavaScript twins.
#include "tst_replay_helpers.h"

#include "policy/builtinpolicies.h"
#include "policy/scriptedpolicy.h"
#include "replay/replayengine.h"
#include "replay/replayjson.h"
#include "replay/scoring.h"
#include "replay/synthworld.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QtTest>

using namespace dreamrsi;
using dreamrsi::test::world;

namespace {

std::unique_ptr<ScriptedPolicy> compile(const QString &source, int timeLimitMs = 2000, quint32 seed = 0x5EED1234u)
{
    Result<std::unique_ptr<ScriptedPolicy>> p = ScriptedPolicy::create(source, QStringLiteral("test.js"), timeLimitMs, seed);
    if (!p) {
        qWarning("compile failed: %s", qUtf8Printable(p.error));
        return nullptr;
    }
    return std::move(*p.value);
}

EpisodeResult run(const QString &source, const DiscoveryTree &w, int workers = 10, double beta = 0.5,
                  int timeLimitMs = 2000)
{
    std::unique_ptr<ScriptedPolicy> p = compile(source, timeLimitMs);
    if (!p)
        return EpisodeResult{};
    ReplayOptions o;
    o.workers = workers;
    return ReplayEngine::runEpisode(w, *p, beta, o);
}

/// portfolio.js with some of its tunables set: `values` maps a tunable's
/// name to the text after `=` (without the `;`). Empty when a name is not a
/// top-level tunable line of the script.
QString portfolioWith(const QList<std::pair<QString, QString>> &values)
{
    QString source = BuiltinPolicies::javaScriptSource(QStringLiteral("portfolio"));
    for (const auto &[name, value] : values) {
        const QRegularExpression line(QStringLiteral("^const %1 = [^;]*;").arg(name), QRegularExpression::MultilineOption);
        if (!source.contains(line))
            return {};
        source.replace(line, QStringLiteral("const %1 = %2;").arg(name, value));
    }
    return source;
}

/// The JSON a test policy threw as its error message.
QJsonObject thrownJson(const QString &error)
{
    const qsizetype from = error.indexOf(QLatin1Char('{'));
    const qsizetype to = error.lastIndexOf(QLatin1Char('}'));
    if (from < 0 || to < from)
        return {};
    return QJsonDocument::fromJson(error.mid(from, to - from + 1).toUtf8()).object();
}

const QString errorWorld = QStringLiteral("0: 1 2 3 | 1: 2 | 2: 3");

/// The errors of `episodes` episodes that one policy runs in errorWorld, one
/// after another (what an episode leaves behind must not reach the next).
QStringList episodeErrors(ScriptedPolicy &policy, int episodes)
{
    QStringList errors;
    for (int i = 0; i < episodes; ++i)
        errors.append(ReplayEngine::runEpisode(world(errorWorld), policy, 0.5, ReplayOptions{}).error);
    return errors;
}

/// Compiles `source` and runs three episodes of it one after another in
/// errorWorld: each must end with an error that contains `expected`.
void eachEpisodeSays(const QString &source, QLatin1String expected)
{
    std::unique_ptr<ScriptedPolicy> p = compile(source);
    QVERIFY(p);
    for (const QString &error : episodeErrors(*p, 3))
        QVERIFY2(error.contains(expected), qPrintable(error));
}

} // namespace

class TestPolicy : public QObject
{
    Q_OBJECT
private slots:
    void errorPaths_data()
    {
        QTest::addColumn<QString>("source");
        QTest::addColumn<int>("workers");
        QTest::addColumn<QString>("error");
        QTest::addRow("throw") << QStringLiteral("function selectBatch(s) { throw new Error('boom'); }") << 10
                               << QStringLiteral("round 1: selectBatch threw: Error: boom");
        QTest::addRow("throw in round 2")
            << QStringLiteral("function selectBatch(s) { if (s.round === 1) throw 'late'; return [s.legal[0]]; }") << 10
            << QStringLiteral("round 2: selectBatch threw: late");
        QTest::addRow("spin") << QStringLiteral("function selectBatch(s) { for (;;) {} }") << 10
                              << QStringLiteral("round 1: selectBatch ran past its time limit of 300 ms");
        QTest::addRow("number") << QStringLiteral("function selectBatch(s) { return 5; }") << 10
                                << QStringLiteral("round 1: selectBatch returned a number, not an array");
        QTest::addRow("object") << QStringLiteral("function selectBatch(s) { return {0: s.legal[0], length: 1}; }") << 10
                                << QStringLiteral("round 1: selectBatch returned an object, not an array");
        QTest::addRow("undefined") << QStringLiteral("function selectBatch(s) { }") << 10
                                   << QStringLiteral("round 1: selectBatch returned undefined, not an array");
        QTest::addRow("string") << QStringLiteral("function selectBatch(s) { return s.legal[0]; }") << 10
                                << QStringLiteral("round 1: selectBatch returned a string, not an array");
        QTest::addRow("non-string id") << QStringLiteral("function selectBatch(s) { return [0]; }") << 10
                                       << QStringLiteral("round 1: batch item 0 is a number, not a cell id string");
        QTest::addRow("illegal") << QStringLiteral("function selectBatch(s) { return ['b0a1']; }") << 10
                                 << QStringLiteral("round 1: id b0a1 is not legal");
        QTest::addRow("duplicate") << QStringLiteral("function selectBatch(s) { return [s.legal[1], s.legal[1]]; }") << 10
                                   << QStringLiteral("round 1: id b1a0 appears twice in the batch");
        QTest::addRow("oversized") << QStringLiteral("function selectBatch(s) { return s.legal; }") << 2
                                   << QStringLiteral("round 1: batch of 3 ids exceeds the 2 workers");
        QTest::addRow("illegal id reported before the size")
            << QStringLiteral("function selectBatch(s) { return ['zz', s.legal[0], s.legal[1]]; }") << 2
            << QStringLiteral("round 1: id zz is not legal");
        QTest::addRow("meta of an unrevealed non-legal cell")
            << QStringLiteral("function selectBatch(s) { s.meta('b0a1'); return []; }") << 10
            << QStringLiteral("round 1: selectBatch threw: Error: meta: b0a1 is neither a legal nor a revealed cell");
        QTest::addRow("meta of an unknown id") << QStringLiteral("function selectBatch(s) { s.meta('nope'); return []; }") << 10
                                               << QStringLiteral("round 1: selectBatch threw: Error: meta: nope is neither");
        QTest::addRow("no clock") << QStringLiteral("function selectBatch(s) { return [String(Date.now())]; }") << 10
                                  << QStringLiteral("round 1: selectBatch threw: Error: Date is not available to policies");
        QTest::addRow("no new Date") << QStringLiteral("function selectBatch(s) { new Date(); return []; }") << 10
                                     << QStringLiteral("round 1: selectBatch threw: Error: Date is not available");
        QTest::addRow("no Qt, console or require")
            << QStringLiteral("function selectBatch(s) { return [typeof Qt, typeof console, typeof require, typeof XMLHttpRequest].join() === 'undefined,undefined,undefined,undefined' ? [] : ['leak']; }")
            << 10 << QString();
    }
    void errorPaths()
    {
        QFETCH(QString, source);
        QFETCH(int, workers);
        QFETCH(QString, error);
        const EpisodeResult r = run(source, world(errorWorld), workers, 0.5, 300);
        if (error.isEmpty()) {
            QVERIFY2(r.ok(), qPrintable(r.error));
            return;
        }
        QVERIFY2(r.error.startsWith(error), qPrintable(r.error)); // a hang is caught by the suite's ctest timeout
    }

    void spinIsInterruptedAndTheEngineRecovers()
    {
        // After an interrupted call the same interpreter serves the next episode.
        std::unique_ptr<ScriptedPolicy> p =
            compile(QStringLiteral("function selectBatch(s) { if (s.beta > 0.5) for (;;) {} return [s.legal[0]]; }"), 200);
        QVERIFY(p);
        ReplayOptions o;
        const EpisodeResult spin = ReplayEngine::runEpisode(world(errorWorld), *p, 1.0, o);
        QVERIFY(spin.error.contains(QLatin1String("time limit of 200 ms")));
        const EpisodeResult fine = ReplayEngine::runEpisode(world(errorWorld), *p, 0.0, o);
        QVERIFY2(fine.ok(), qPrintable(fine.error));
        QCOMPARE(fine.calls, 5);
    }

    void compileErrors_data()
    {
        QTest::addColumn<QString>("source");
        QTest::addColumn<QString>("error");
        QTest::addRow("syntax") << QStringLiteral("function selectBatch(s) {\n return [;\n}") << QStringLiteral("line 2");
        QTest::addRow("no selectBatch") << QStringLiteral("var x = 1;") << QStringLiteral("does not define function selectBatch");
        QTest::addRow("top level throws") << QStringLiteral("throw new Error('top');\nfunction selectBatch(s) { return []; }")
                                          << QStringLiteral("top");
        QTest::addRow("top level spins") << QStringLiteral("for (;;) {}\nfunction selectBatch(s) { return []; }")
                                         << QStringLiteral("time limit");
    }
    void compileErrors()
    {
        QFETCH(QString, source);
        QFETCH(QString, error);
        const Result<std::unique_ptr<ScriptedPolicy>> p = ScriptedPolicy::create(source, QStringLiteral("bad.js"), 300, 1);
        QVERIFY(!p);
        const QString &message = p.error;
        QVERIFY2(message.contains(error), qPrintable(message));
        QVERIFY(message.contains(QLatin1String("bad.js")));
    }

    void stateObject()
    {
        // Round 1 reveals b1a0 then b0a0, round 2 b0a1 and b1a1, round 3 dumps the state.
        const DiscoveryTree w = world(QStringLiteral("0: 1.5 2 x | 1: x 3 | 2: 4"), 1.0);
        const QString js = QStringLiteral(R"JS(
function selectBatch(s) {
    if (s.round === 0) return ['b1a0', 'b0a0'];
    if (s.round === 1) return ['b0a1', 'b1a1'];
    throw new Error(JSON.stringify({ round: s.round, beta: s.beta, W: s.maxParallelism, baseline: s.baselineScore,
        observed: s.observed, legal: s.legal, legalRoots: s.legalRoots, opened: s.openedBranches,
        metaLegal: s.meta('b0a2'), metaRevealed: s.meta('b1a1'), keys: Object.keys(s).sort(), steering: s.steering,
        helpers: s.observed.map(function (o) { return [improvedVsParent(o), improvedVsBaseline(o), isSuccess(o), failedHard(o)]; }) }));
})JS");
        const EpisodeResult r = run(js, w, 7, 0.25);
        QVERIFY(r.error.startsWith(QLatin1String("round 3: selectBatch threw: Error: {")));
        const QJsonObject s = thrownJson(r.error);
        QCOMPARE(s.value(QLatin1String("round")).toInt(), 2);
        QCOMPARE(s.value(QLatin1String("beta")).toDouble(), 0.25);
        QCOMPARE(s.value(QLatin1String("W")).toInt(), 7);
        QCOMPARE(s.value(QLatin1String("baseline")).toDouble(), 1.0);
        QCOMPARE(s.value(QLatin1String("legal")).toArray(), (QJsonArray{QStringLiteral("b0a2"), QStringLiteral("b2a0")}));
        QCOMPARE(s.value(QLatin1String("legalRoots")).toArray(), QJsonArray{QStringLiteral("b2a0")});
        QCOMPARE(s.value(QLatin1String("opened")).toArray(), (QJsonArray{0, 1}));
        // Nobody steers a replay: state.steering is empty.
        QCOMPARE(s.value(QLatin1String("steering")).toObject(),
                 (QJsonObject{{QLatin1String("closed"), QJsonArray{}}, {QLatin1String("pinned"), QJsonArray{}},
                              {QLatin1String("hints"), QJsonObject{}}}));
        QCOMPARE(s.value(QLatin1String("keys")).toArray(),
                 (QJsonArray{QStringLiteral("baselineScore"), QStringLiteral("beta"), QStringLiteral("legal"),
                             QStringLiteral("legalRoots"), QStringLiteral("maxParallelism"), QStringLiteral("meta"),
                             QStringLiteral("observed"), QStringLiteral("openedBranches"), QStringLiteral("round"),
                             QStringLiteral("steering")}));
        const QJsonObject metaLegal{{QLatin1String("id"), QStringLiteral("b0a2")}, {QLatin1String("branch"), 0},
                                    {QLatin1String("attempt"), 2}, {QLatin1String("parentId"), QStringLiteral("b0a1")},
                                    {QLatin1String("seq"), 2}, {QLatin1String("tags"), QJsonArray{QStringLiteral("t0")}}};
        QCOMPARE(s.value(QLatin1String("metaLegal")).toObject(), metaLegal);
        QCOMPARE(s.value(QLatin1String("metaRevealed")).toObject().value(QLatin1String("parentId")).toString(),
                 QStringLiteral("b1a0"));

        const QJsonArray obs = s.value(QLatin1String("observed")).toArray();
        QCOMPARE(obs.size(), 4);
        const QJsonObject b1a0{{QLatin1String("id"), QStringLiteral("b1a0")}, {QLatin1String("branch"), 1},
                               {QLatin1String("attempt"), 0}, {QLatin1String("parentId"), QJsonValue::Null},
                               {QLatin1String("seq"), 3}, {QLatin1String("tags"), QJsonArray{QStringLiteral("t1")}},
                               {QLatin1String("score"), QJsonValue::Null}, {QLatin1String("evaluated"), true},
                               {QLatin1String("valid"), false}, {QLatin1String("failClass"), QStringLiteral("compile")},
                               {QLatin1String("error"), QStringLiteral("does not compile")},
                               {QLatin1String("nValid"), QJsonValue::Null}, {QLatin1String("nTotal"), QJsonValue::Null},
                               {QLatin1String("deltaVsBaseline"), QJsonValue::Null},
                               {QLatin1String("deltaVsParent"), QJsonValue::Null}};
        QCOMPARE(obs.at(0).toObject(), b1a0);
        const QJsonObject b0a0 = obs.at(1).toObject();
        QCOMPARE(b0a0.value(QLatin1String("id")).toString(), QStringLiteral("b0a0"));
        QCOMPARE(b0a0.value(QLatin1String("score")).toDouble(), 1.5);
        QCOMPARE(b0a0.value(QLatin1String("deltaVsBaseline")).toDouble(), 0.5);
        QCOMPARE(b0a0.value(QLatin1String("deltaVsParent")).toDouble(), 0.5);
        QVERIFY(b0a0.value(QLatin1String("error")).isNull());
        QCOMPARE(b0a0.value(QLatin1String("valid")).toBool(), true);
        const QJsonObject b0a1 = obs.at(2).toObject();
        QCOMPARE(b0a1.value(QLatin1String("deltaVsParent")).toDouble(), 0.5);
        QCOMPARE(b0a1.value(QLatin1String("deltaVsBaseline")).toDouble(), 1.0);
        const QJsonObject b1a1 = obs.at(3).toObject();
        QVERIFY(b1a1.value(QLatin1String("deltaVsParent")).isNull());
        QCOMPARE(b1a1.value(QLatin1String("deltaVsBaseline")).toDouble(), 2.0);
        // improvedVsParent, improvedVsBaseline, isSuccess, failedHard per observation.
        QCOMPARE(s.value(QLatin1String("helpers")).toArray(),
                 (QJsonArray{QJsonArray{false, false, false, false}, QJsonArray{true, true, true, false},
                             QJsonArray{true, true, true, false}, QJsonArray{false, true, true, false}}));
    }

    void helpersFollowTheSuccessSemantics()
    {
        // valid = false with fail class ok and no error is a success; env is a hard failure.
        QList<Cell> cells;
        Cell a;
        a.id = QStringLiteral("a");
        a.score = 1.0;
        a.evaluated = true;
        a.valid = false;
        a.failClass = QStringLiteral("ok");
        Cell b = a;
        b.id = QStringLiteral("b");
        b.branch = 1;
        b.seq = 1;
        b.score.reset();
        b.evaluated = false;
        b.failClass = QStringLiteral("env");
        b.error = QStringLiteral("no toolchain");
        Cell c = a;
        c.id = QStringLiteral("c");
        c.branch = 2;
        c.seq = 2;
        const DiscoveryTree w = *DiscoveryTree::build(TreeMeta{}, {a, b, c});
        const EpisodeResult r = run(QStringLiteral(
            "function selectBatch(s) { if (s.round === 0) return s.legal.slice(0, 2);"
            " throw new Error(JSON.stringify(s.observed.map(function (o) { return [isSuccess(o), failedHard(o)]; }))); }"), w);
        QVERIFY2(r.error.contains(QLatin1String("[[true,false],[false,true]]")), qPrintable(r.error));
    }

    void stateChangesChangeNothing()
    {
        const DiscoveryTree w = world(QStringLiteral("0: 1 2 3"));
        const EpisodeResult r = run(QStringLiteral(R"JS(
function selectBatch(s) {
    if (s.round === 0) { s.observed.push({id: 'fake'}); s.round = 99; s.legal.push('b0a2'); return ['b0a0']; }
    if (s.round === 1) {
        s.observed[0].score = 1000; s.observed[0].tags.push('z'); s.observed.length = 0;
        try { s.meta('b0a0').branch = 5; } catch (e) {}
        return ['b0a1'];
    }
    throw new Error(JSON.stringify({ n: s.observed.length, score0: s.observed[0].score, tags0: s.observed[0].tags,
                                     round: s.round, branch: s.meta('b0a0').branch }));
})JS"), w);
        const QJsonObject s = thrownJson(r.error);
        QCOMPARE(s.value(QLatin1String("n")).toInt(), 2);
        QCOMPARE(s.value(QLatin1String("score0")).toDouble(), 1.0);
        QCOMPARE(s.value(QLatin1String("tags0")).toArray(), QJsonArray{QStringLiteral("t0")});
        QCOMPARE(s.value(QLatin1String("round")).toInt(), 2);
        QCOMPARE(s.value(QLatin1String("branch")).toInt(), 0);
    }

    // Observations and metas are fresh plain objects: a policy may annotate
    // them (also in strict mode) within a round, and nothing of it survives.
    void observationsArePlainFreshObjects()
    {
        const DiscoveryTree w = world(QStringLiteral("0: 1 2 3 | 1: 2"));
        const EpisodeResult r = run(QStringLiteral(R"JS(
"use strict";
function selectBatch(s) {
    if (s.round < 2) {
        s.observed.forEach(function (o, i) { o.rank = -i; o.score = 0; o.tags.push('mine'); });
        var m = s.meta(s.legal[0]); m.rank = 1; m.tags.push('x');
        return [s.legal[0]];
    }
    var o = s.observed[0];
    throw new Error(JSON.stringify({ rank: o.rank === undefined, score: o.score, tags: o.tags,
                                     frozen: Object.isFrozen(o), keys: Object.keys(o),
                                     metaRank: s.meta(o.id).rank === undefined, metaTags: s.meta(o.id).tags,
                                     same: s.observed[0] === s.observed[0] && s.meta(o.id) !== s.meta(o.id) }));
})JS"), w);
        const QJsonObject s = thrownJson(r.error);
        QVERIFY2(!s.isEmpty(), qPrintable(r.error));
        QCOMPARE(s.value(QLatin1String("rank")).toBool(), true);
        QCOMPARE(s.value(QLatin1String("score")).toDouble(), 1.0);
        QCOMPARE(s.value(QLatin1String("tags")).toArray(), QJsonArray{QStringLiteral("t0")});
        QCOMPARE(s.value(QLatin1String("frozen")).toBool(), false);
        QCOMPARE(s.value(QLatin1String("keys")).toArray(),
                 (QJsonArray{QStringLiteral("id"), QStringLiteral("branch"), QStringLiteral("attempt"),
                             QStringLiteral("parentId"), QStringLiteral("seq"), QStringLiteral("tags"),
                             QStringLiteral("score"), QStringLiteral("evaluated"), QStringLiteral("valid"),
                             QStringLiteral("failClass"), QStringLiteral("error"), QStringLiteral("nValid"),
                             QStringLiteral("nTotal"), QStringLiteral("deltaVsBaseline"), QStringLiteral("deltaVsParent")}));
        QCOMPARE(s.value(QLatin1String("metaRank")).toBool(), true);
        QCOMPARE(s.value(QLatin1String("metaTags")).toArray(), QJsonArray{QStringLiteral("t0")});
        QCOMPARE(s.value(QLatin1String("same")).toBool(), true);
    }

    // Array.prototype.sort is stable (ES2019), whatever the interpreter's own
    // sort does, and the later built-ins a current engine has are there.
    void sortIsStableAndModernBuiltinsExist()
    {
        const EpisodeResult r = run(QStringLiteral(R"JS(
function selectBatch(s) {
    var out = {};
    var ties = [];
    for (var i = 0; i < 60; ++i) ties.push({ k: i % 3, id: i });
    ties.sort(function (x, y) { return y.k - x.k; });
    var stable = true;
    for (var j = 1; j < ties.length; ++j)
        if (ties[j - 1].k === ties[j].k && ties[j - 1].id > ties[j].id) stable = false;
    out.stable = stable;
    out.first = ties.slice(0, 3).map(function (o) { return o.id; });
    out.small = [{k:1,n:'A'},{k:0,n:'B'},{k:1,n:'C'},{k:0,n:'D'},{k:1,n:'E'}]
        .sort(function (x, y) { return y.k - x.k; }).map(function (o) { return o.n; }).join('');
    out.eight = [0, 1, 2, 3, 4, 5, 6, 7].map(function (n) { return { k: n % 2, n: n }; })
        .sort(function (x, y) { return x.k - y.k; }).map(function (o) { return o.n; }).join('');
    out.nine = [0, 1, 2, 3, 4, 5, 6, 7, 8].map(function (n) { return { k: n % 2, n: n }; })
        .sort(function (x, y) { return x.k - y.k; }).map(function (o) { return o.n; }).join('');
    var holes = [10, undefined, 9, , 1];
    out.defaultSort = holes.sort();
    out.holesAtEnd = !(4 in holes) && holes.length === 5;
    out.nanComparator = [3, 1, 2].sort(function () { return NaN; });
    out.badComparator = (function () { try { [1].sort(5); return false; } catch (e) { return e instanceof TypeError; } })();
    out.globalThis = globalThis.Math === Math && typeof globalThis.improvedVsParent === "function";
    out.at = [[1, 2, 3].at(-1), 'abc'.at(0), [1].at(5) === undefined];
    out.flat = [1, [2, [3, [4]]]].flat(2);
    out.flatMap = [1, 2].flatMap(function (x) { return [x, x * 10]; });
    out.findLast = [[1, 2, 3, 4].findLast(function (x) { return x % 2; }), [1, 2].findLastIndex(function (x) { return x > 5; })];
    out.fromEntries = Object.fromEntries([['a', 1], ['b', 2]]);
    out.hasOwn = [Object.hasOwn({ a: 1 }, 'a'), Object.hasOwn({}, 'toString')];
    out.replaceAll = ['a.b.c'.replaceAll('.', '$&$&'), 'x-y-z'.replaceAll(/-/g, '+'), 'ab'.replaceAll('', '|')];
    throw new Error(JSON.stringify(out));
})JS"), world(QStringLiteral("0: 1")));
        const QJsonObject o = thrownJson(r.error);
        QVERIFY2(!o.isEmpty(), qPrintable(r.error));
        QCOMPARE(o.value(QLatin1String("stable")).toBool(), true);
        QCOMPARE(o.value(QLatin1String("first")).toArray(), (QJsonArray{2, 5, 8}));
        QCOMPARE(o.value(QLatin1String("small")).toString(), QStringLiteral("ACEBD"));
        QCOMPARE(o.value(QLatin1String("eight")).toString(), QStringLiteral("02461357"));
        QCOMPARE(o.value(QLatin1String("nine")).toString(), QStringLiteral("024681357"));
        QCOMPARE(o.value(QLatin1String("defaultSort")).toArray(), (QJsonArray{1, 10, 9, QJsonValue::Null, QJsonValue::Null}));
        QCOMPARE(o.value(QLatin1String("holesAtEnd")).toBool(), true);
        QCOMPARE(o.value(QLatin1String("nanComparator")).toArray(), (QJsonArray{3, 1, 2}));
        QCOMPARE(o.value(QLatin1String("badComparator")).toBool(), true);
        QCOMPARE(o.value(QLatin1String("globalThis")).toBool(), true);
        QCOMPARE(o.value(QLatin1String("at")).toArray(), (QJsonArray{3, QStringLiteral("a"), true}));
        QCOMPARE(o.value(QLatin1String("flat")).toArray(), (QJsonArray{1, 2, 3, QJsonArray{4}}));
        QCOMPARE(o.value(QLatin1String("flatMap")).toArray(), (QJsonArray{1, 10, 2, 20}));
        QCOMPARE(o.value(QLatin1String("findLast")).toArray(), (QJsonArray{3, -1}));
        QCOMPARE(o.value(QLatin1String("fromEntries")).toObject(), (QJsonObject{{QStringLiteral("a"), 1}, {QStringLiteral("b"), 2}}));
        QCOMPARE(o.value(QLatin1String("hasOwn")).toArray(), (QJsonArray{true, false}));
        QCOMPARE(o.value(QLatin1String("replaceAll")).toArray(),
                 (QJsonArray{QStringLiteral("a..b..c"), QStringLiteral("x+y+z"), QStringLiteral("|a|b|")}));
    }

    // A policy error nulls the world's value only: the frontier, hypervolume
    // and penalty of the points reached are still reported (docs/replay.md#scoring).
    void policyErrorNullsOnlyTheValue()
    {
        std::unique_ptr<ScriptedPolicy> p = compile(QStringLiteral(
            "function selectBatch(s) { if (s.beta === 1 && s.round === 1) throw new Error('late');"
            " return s.legal.length ? [s.legal[0]] : []; }"));
        QVERIFY(p);
        ReplayOptions o;
        o.workers = 2;
        const SweepResult sw =
            ReplayEngine::runSweep(ReplayWorld{QStringLiteral("w"), std::make_shared<DiscoveryTree>(world(errorWorld))}, *p, o);
        QVERIFY2(sw.error.startsWith(QLatin1String("round 2: selectBatch threw: Error: late")), qPrintable(sw.error));
        QVERIFY(!sw.value);
        QVERIFY(sw.hypervolume && sw.penalty);
        QList<ParetoPoint> points;
        QList<int> calls, rounds;
        for (const EpisodeResult &e : sw.episodes) {
            points.append({e.calls, e.attainment});
            calls.append(e.calls);
            rounds.append(e.rounds);
        }
        QCOMPARE(sw.episodes.constLast().calls, 1); // what the errored episode reached
        QCOMPARE(*sw.hypervolume, Scoring::hypervolume(points, sw.cells));
        QCOMPARE(*sw.penalty, Scoring::penalty(calls, rounds, int(o.betas.size())));
        QCOMPARE(sw.frontier, Scoring::paretoFrontier(points));
    }

    // A policy that replaces a built-in does not carry it into the next episode.
    void replacedBuiltinsAreRestoredEachEpisode()
    {
        eachEpisodeSays(QStringLiteral(
            "function selectBatch(s) { var before = [2, 1].sort().join();\n"
            "  Array.prototype.sort = function () { return 'hijacked'; }; Math.random = function () { return 7; };\n"
            "  throw new Error(before + '/' + (Math.random() === 7)); }"),
                        QLatin1String("Error: 1,2/true"));
    }

    void globalsSwappedOneForAnotherComeBack()
    {
        // One global deleted and one made (the same number of names), a
        // helper replaced, an addition deleted: the next episode has the
        // originals and not the new name.
        eachEpisodeSays(QStringLiteral(
            "function selectBatch(s) {\n"
            "  var seen = [typeof escape, typeof swapped, typeof isSuccess({}), typeof [1].at].join();\n"
            "  delete globalThis.escape; globalThis.swapped = 1;\n"
            "  isSuccess = function () { return 'replaced'; }; delete Array.prototype.at;\n"
            "  throw new Error(seen); }"),
                        QLatin1String("Error: function,undefined,boolean,function"));
    }

    void globalsTurnedIntoThrowingGettersComeBack()
    {
        // Getters that throw in place of Math, of a helper and of an
        // addition: the next episode still starts, with the originals.
        eachEpisodeSays(QStringLiteral(
            "function selectBatch(s) {\n"
            "  var seen = [typeof Math.max, typeof isSuccess, typeof [].at].join();\n"
            "  var boom = { get: function () { throw new Error('boom'); }, configurable: true };\n"
            "  Object.defineProperty(globalThis, 'Math', boom); Object.defineProperty(globalThis, 'isSuccess', boom);\n"
            "  Object.defineProperty(Array.prototype, 'at', boom);\n"
            "  throw new Error(seen); }"),
                        QLatin1String("Error: function,function,function"));
    }

    void episodesStartAfresh()
    {
        // Top-level variables and globals made by assignment start over every episode.
        std::unique_ptr<ScriptedPolicy> p = compile(QStringLiteral(
            "var calls = 0;\n"
            "function selectBatch(s) { calls++; leaked = (typeof leaked === 'undefined') ? 1 : leaked + 1;\n"
            "  if (s.round === 0) return [s.legal[0]]; throw new Error(calls + '/' + leaked); }"));
        QVERIFY(p);
        for (const QString &error : episodeErrors(*p, 3))
            QVERIFY2(error.startsWith(QLatin1String("round 2: selectBatch threw: Error: 2/2 (line 3)")), qPrintable(error));
    }

    void linesAreThePolicysOwn()
    {
        // A line is the policy file's own, wherever the interpreter compiled
        // it; an error of the runtime's making (meta, Date) names no line.
        ReplayOptions o;
        std::unique_ptr<ScriptedPolicy> meta = compile(QStringLiteral(
            "function selectBatch(s) {\n"
            "  if (s.round > 0) s.meta('nope');\n"
            "  return [s.legal[0]]; }"));
        QVERIFY(meta);
        QCOMPARE(ReplayEngine::runEpisode(world(errorWorld), *meta, 0.5, o).error,
                 QStringLiteral("round 2: selectBatch threw: Error: meta: nope is neither a legal nor a revealed cell"));
        std::unique_ptr<ScriptedPolicy> type = compile(QStringLiteral(
            "function selectBatch(s) {\n"
            "  var o;\n"
            "  return o.x; }"));
        QVERIFY(type);
        QCOMPARE(ReplayEngine::runEpisode(world(errorWorld), *type, 0.5, o).error,
                 QStringLiteral("round 1: selectBatch threw: TypeError: Cannot read property 'x' of undefined (line 3)"));
        std::unique_ptr<ScriptedPolicy> clock = compile(QStringLiteral("function selectBatch(s) { return [String(Date.now())]; }"));
        QVERIFY(clock);
        QCOMPARE(ReplayEngine::runEpisode(world(errorWorld), *clock, 0.5, o).error,
                 QStringLiteral("round 1: selectBatch threw: Error: Date is not available to policies (no clock access)"));
        const QString error =
            ScriptedPolicy::create(QStringLiteral("var a = 1;\nthrow new Error('top');\nfunction selectBatch(s) { return []; }"),
                                   QStringLiteral("p.js"), 2000, 0)
                .error;
        QVERIFY2(error.endsWith(QStringLiteral("Error: top (line 2)")), qPrintable(error));
    }

    void globalsOfEveryKindGoBetweenEpisodes()
    {
        // A numeric global, a hidden one (defineProperty) and a removed
        // helper: none of it reaches the next episode, however the global
        // object's names were reordered.
        eachEpisodeSays(QStringLiteral(
            "function selectBatch(s) {\n"
            "  var seen = [typeof globalThis[0], typeof hidden, typeof failedHard].join();\n"
            "  globalThis[0] = 1;\n"
            "  Object.defineProperty(globalThis, 'hidden', { value: 2, enumerable: false, configurable: true });\n"
            "  delete globalThis.failedHard;\n"
            "  throw new Error(seen); }"),
                        QLatin1String("Error: undefined,undefined,function"));
    }

    void episodesAfterOthersSeeWhatAFreshPolicySees()
    {
        // One interpreter runs episode after episode; an episode whose first
        // round has the legal cells of the last one takes over the records
        // made then. Whatever the order, each episode must see exactly what a
        // new interpreter sees: same reveals, same metadata and tags.
        const QString js = QStringLiteral(
            "function selectBatch(s) {\n"
            "  var b = [];\n"
            "  for (var i = 0; i < s.legal.length && b.length < s.maxParallelism; ++i) {\n"
            "    var m = s.meta(s.legal[i]);\n"
            "    var seen = s.observed.filter(function (o) { return o.branch === m.branch; }).length;\n"
            "    if (Math.random() < 0.6 || m.tags.join().length % 3 === seen % 3) b.push(m.id);\n"
            "  }\n"
            "  if (s.round > 4) return [];\n"
            "  return b.length ? b : s.legal.slice(0, 1); }");
        // Same ids, shape and seqs with other tags; and a third world.
        DiscoveryTree a = world(QStringLiteral("0: 1 2 3 | 1: 2 0.5 | 2: 0.5 0.7 0.9"), 1.0);
        QList<Cell> retagged = a.cells();
        for (Cell &c : retagged)
            c.tags = {QStringLiteral("other"), QStringLiteral("b%1").arg(c.branch)};
        const DiscoveryTree b = *DiscoveryTree::build(a.meta(), retagged);
        const DiscoveryTree c = world(QStringLiteral("0: 3 | 4: 1 1 1 | 7: 2 2"));
        const QList<const DiscoveryTree *> order{&a, &a, &b, &a, &c, &c, &b, &b, &a};
        std::unique_ptr<ScriptedPolicy> shared = compile(js);
        QVERIFY(shared);
        ReplayOptions o;
        o.workers = 2;
        for (qsizetype i = 0; i < order.size(); ++i) {
            const double beta = double(i % 5) / 4.0;
            std::unique_ptr<ScriptedPolicy> fresh = compile(js);
            const EpisodeResult expected = ReplayEngine::runEpisode(*order.at(i), *fresh, beta, o);
            const EpisodeResult got = ReplayEngine::runEpisode(*order.at(i), *shared, beta, o);
            QVERIFY2(expected.ok(), qPrintable(expected.error));
            QCOMPARE(got.revealed, expected.revealed);
            QCOMPARE(got.rounds, expected.rounds);
            QCOMPARE(got.error, expected.error);
        }
        // Tags reach the policy as the world has them, after an episode of the other world.
        const QString tagsJs = QStringLiteral(
            "function selectBatch(s) { throw new Error(s.legal.map(function (id) { return s.meta(id).tags.join('+'); }).join()); }");
        std::unique_ptr<ScriptedPolicy> tagged = compile(tagsJs);
        const EpisodeResult first = ReplayEngine::runEpisode(a, *tagged, 0.5, o);
        const EpisodeResult second = ReplayEngine::runEpisode(b, *tagged, 0.5, o);
        QVERIFY2(first.error.contains(QLatin1String("Error: t0,t1,t2")), qPrintable(first.error));
        QVERIFY2(second.error.contains(QLatin1String("Error: other+b0,other+b1,other+b2")), qPrintable(second.error));
    }

    void tagListsOfEveryLengthArriveWhole()
    {
        // Roots with 0 to 5 tags: meta() and the observations hand out
        // copies with every tag, in order; changing a copy changes neither
        // the next copy nor the next round's.
        const DiscoveryTree base = world(QStringLiteral("0: 1 2 | 1: 1 2 | 2: 1 2 | 3: 1 2 | 4: 1 2 | 5: 1 2"));
        QList<Cell> cells = base.cells();
        for (Cell &c : cells) {
            c.tags.clear();
            for (int t = 0; t < c.branch; ++t)
                c.tags << QStringLiteral("b%1t%2").arg(c.branch).arg(t);
        }
        const DiscoveryTree tagged = *DiscoveryTree::build(base.meta(), cells);
        std::unique_ptr<ScriptedPolicy> p = compile(QStringLiteral(
            "function selectBatch(s) {\n"
            "  if (s.round === 0) {\n"
            "    var seen = s.legal.map(function (id) { var t = s.meta(id).tags; var text = t.join('+'); t.push('x'); t[0] = 'y';\n"
            "      return text === s.meta(id).tags.join('+') ? text : 'changed'; });\n"
            "    if (seen.join() !== ',b1t0,b2t0+b2t1,b3t0+b3t1+b3t2,b4t0+b4t1+b4t2+b4t3,b5t0+b5t1+b5t2+b5t3+b5t4') throw new Error('meta ' + seen.join());\n"
            "    return s.legal.slice(0, 6); }\n"
            "  return []; }"));
        QVERIFY(p);
        ReplayOptions o;
        o.workers = 6;
        const EpisodeResult r = ReplayEngine::runEpisode(tagged, *p, 0.5, o);
        QVERIFY2(r.ok(), qPrintable(r.error));
        QCOMPARE(r.revealed.size(), 6);
        // A second episode: the observations of round 1 lost nothing to round 0's pushes.
        std::unique_ptr<ScriptedPolicy> q = compile(QStringLiteral(
            "function selectBatch(s) { if (s.round === 0) return s.legal.slice(0, 6);\n"
            "  var text = s.observed.map(function (o) { var t = o.tags.join('+'); o.tags.length = 0; return t; }).join();\n"
            "  if (s.round === 1) return [s.legal[0]];\n"
            "  throw new Error(text); }"));
        QVERIFY(q);
        const EpisodeResult e = ReplayEngine::runEpisode(tagged, *q, 0.5, o);
        QVERIFY2(e.error.contains(QLatin1String("Error: ,b1t0,b2t0+b2t1,b3t0+b3t1+b3t2,b4t0+b4t1+b4t2+b4t3,b5t0+b5t1+b5t2+b5t3+b5t4,")),
                 qPrintable(e.error));
    }

    void replacedStandardGlobalsComeBack()
    {
        // A policy that replaces Math, JSON and Object.defineProperty (which
        // the runtime itself uses between episodes) finds the originals at
        // the next episode, and Math.random still seeded.
        std::unique_ptr<ScriptedPolicy> p = compile(QStringLiteral(
            "function selectBatch(s) {\n"
            "  var seen = [typeof Math.max, typeof JSON.stringify, typeof Object.defineProperty, Math.random()].join();\n"
            "  Math = { random: function () { return 7; } };\n"
            "  JSON = null;\n"
            "  Object.defineProperty = function () { throw new Error('replaced'); };\n"
            "  throw new Error(seen); }"));
        QVERIFY(p);
        const QStringList errors = episodeErrors(*p, 3);
        for (const QString &error : errors) {
            QVERIFY2(error.contains(QLatin1String("Error: function,function,function,0.")), qPrintable(error));
            QCOMPARE(error, errors.first());
        }
    }

    void mathRandomIsSeededPerEpisode()
    {
        // The documented generator: xorshift32 (13, 17, 5) from the seed.
        quint32 x = 0x5EED1234u;
        QList<double> expected;
        for (int i = 0; i < 3; ++i) {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            expected.append(double(x) / 4294967296.0);
        }
        const QString js = QStringLiteral(
            "function selectBatch(s) { throw new Error(JSON.stringify([Math.random(), Math.random(), Math.random()])); }");
        std::unique_ptr<ScriptedPolicy> p = compile(js);
        ReplayOptions o;
        for (int episode = 0; episode < 2; ++episode) {
            const EpisodeResult r = ReplayEngine::runEpisode(world(errorWorld), *p, 0.5, o);
            const QString arrayText = r.error.mid(r.error.indexOf(QLatin1Char('[')));
            const QJsonArray values = QJsonDocument::fromJson(arrayText.left(arrayText.indexOf(QLatin1Char(']')) + 1).toUtf8()).array();
            QCOMPARE(values.size(), 3);
            for (int i = 0; i < 3; ++i)
                QCOMPARE(values.at(i).toDouble(), expected.at(i));
        }
        // Another seed, another sequence.
        std::unique_ptr<ScriptedPolicy> other = compile(js, 2000, 7);
        QVERIFY(ReplayEngine::runEpisode(world(errorWorld), *other, 0.5, o).error
                != ReplayEngine::runEpisode(world(errorWorld), *p, 0.5, o).error);
    }

    void randomPoliciesAreReproducible()
    {
        QList<ReplayWorld> worlds;
        for (int i = 0; i < 12; ++i) {
            SynthParams sp;
            sp.seed = quint64(100 + i);
            worlds.append(ReplayWorld{QStringLiteral("w%1").arg(i), std::make_shared<DiscoveryTree>(SynthWorld::generate(sp))});
        }
        PolicySpec spec = PolicySpec::script(QStringLiteral(
            "function selectBatch(s) { if (s.observed.length > 30 * s.beta + 3) return [];"
            " return [s.legal[Math.floor(Math.random() * s.legal.length)]]; }"), QStringLiteral("random.js"));
        ReplayOptions o;
        o.betas = {0.5, 0.5, 0.5, 1.0};
        o.threads = 1;
        const ReplayResult one = ReplayEngine::runWorlds(worlds, spec, o);
        QVERIFY(one.ok());
        // Same β, same episode: the generator restarts each time.
        for (const SweepResult &s : one.worlds) {
            QCOMPARE(s.episodes.at(1).revealed, s.episodes.at(0).revealed);
            QCOMPARE(s.episodes.at(2).revealed, s.episodes.at(0).revealed);
        }
        QCOMPARE(ReplayJson::resultToJson(ReplayEngine::runWorlds(worlds, spec, o)), ReplayJson::resultToJson(one));
        o.threads = 3;
        QCOMPARE(ReplayJson::resultToJson(ReplayEngine::runWorlds(worlds, spec, o)), ReplayJson::resultToJson(one));
    }

    void gridPlanRestrictsTheWorld()
    {
        const DiscoveryTree w = world(QStringLiteral("1: 1 2 3 | 4: 2 3 | 7: 5 6 | 9: 9"));
        const EpisodeResult r = run(QStringLiteral(
            "function planGrid(c) { return {branches: 2, refinements: 1, reason: 'narrow'}; }\n"
            "function selectBatch(s) { return s.legal; }"), w);
        QVERIFY2(r.ok(), qPrintable(r.error));
        QCOMPARE(r.revealed, (QStringList{QStringLiteral("b1a0"), QStringLiteral("b4a0"), QStringLiteral("b1a1"),
                                          QStringLiteral("b4a1")}));
        QCOMPARE(r.rounds, 2);
        QCOMPARE(r.best, 3.0);
        QCOMPARE(r.attainment, 3.0 / 9.0);
        QVERIFY(r.plan);
        QCOMPARE(r.plan->reason, QStringLiteral("narrow"));

        // Without a plan (or with plans switched off) nothing is restricted.
        std::unique_ptr<ScriptedPolicy> p = compile(QStringLiteral(
            "function planGrid(c) { return {branches: 1, refinements: 0}; }\nfunction selectBatch(s) { return s.legal; }"));
        ReplayOptions o;
        o.useGridPlan = false;
        QCOMPARE(ReplayEngine::runEpisode(w, *p, 0.5, o).calls, 8);
        QCOMPARE(run(QStringLiteral("function selectBatch(s) { return s.legal; }"), w).calls, 8);
    }

    void gridPlanContextAndErrors_data()
    {
        QTest::addColumn<QString>("plan");
        QTest::addColumn<QString>("error");
        QTest::addRow("branches 0") << QStringLiteral("return {branches: 0, refinements: 1};")
                                    << QStringLiteral("round 1: planGrid: branches 0 is outside 1..64");
        QTest::addRow("refinements -1") << QStringLiteral("return {branches: 1, refinements: -1};")
                                        << QStringLiteral("round 1: planGrid: refinements -1 is outside 0..64");
        QTest::addRow("fraction") << QStringLiteral("return {branches: 1.5, refinements: 1};")
                                  << QStringLiteral("round 1: planGrid returned branches = 1.5, not an integer");
        QTest::addRow("not an object") << QStringLiteral("return 3;")
                                       << QStringLiteral("round 1: planGrid returned a number, not an object");
        QTest::addRow("context")
            << QStringLiteral("throw new Error(JSON.stringify(c));")
            << QStringLiteral("round 1: planGrid threw: Error: {\"fallbackGrid\":{\"branches\":4,\"refinements\":2},"
                              "\"hardMaxBranches\":64,\"hardMaxRefinements\":64,\"history\":[],\"maxWorkers\":10,"
                              "\"recordedBranches\":4,\"recordedGrid\":{\"branches\":4,\"refinements\":2},\"recordedRefinements\":2}");
    }
    void gridPlanContextAndErrors()
    {
        QFETCH(QString, plan);
        QFETCH(QString, error);
        const DiscoveryTree w = world(QStringLiteral("1: 1 2 3 | 4: 2 3 | 7: 5 6 | 9: 9"));
        const QString js = QStringLiteral("function planGrid(c) {\n") + plan
            + QStringLiteral("\n}\nfunction selectBatch(s) { return s.legal; }");
        QString actual = run(js, w).error;
        if (error.contains(QLatin1String("{"))) {
            // Compare the context object itself, whatever the key order.
            QCOMPARE(thrownJson(actual), thrownJson(error));
            QVERIFY(actual.startsWith(QLatin1String("round 1: planGrid threw")));
        } else {
            QVERIFY2(actual.startsWith(error), qPrintable(actual));
        }
    }

    void handMadeStatesAreFollowed()
    {
        // A live round may hold a legal cell back (in flight); the script sees
        // exactly the state's legal list, not what it would derive itself.
        std::unique_ptr<ScriptedPolicy> p =
            compile(QStringLiteral("function selectBatch(s) { return s.legal.concat(['|'], s.legalRoots, ['|'], s.openedBranches.map(String)); }"));
        QVERIFY(p);
        p->beginEpisode(0.5, 4);
        const CellMeta a{QStringLiteral("a"), 0, 0, QString(), 0, {}};
        const CellMeta b{QStringLiteral("b"), 1, 0, QString(), 1, {}};
        const CellMeta a1{QStringLiteral("a1"), 0, 1, QStringLiteral("a"), 2, {}};
        PolicyState state;
        state.reset(0.5, 4, std::nullopt);
        state.setLegal({a, b});
        QCOMPARE(p->selectBatch(state).batch, (QStringList{QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("|"),
                                                           QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("|")}));
        state.setRound(1);
        state.setLegal({b});
        QCOMPARE(p->selectBatch(state).batch,
                 (QStringList{QStringLiteral("b"), QStringLiteral("|"), QStringLiteral("b"), QStringLiteral("|")}));
        Observation o;
        o.meta = a;
        o.evaluated = true;
        o.failClass = QStringLiteral("ok");
        state.appendObservation(o);
        state.setRound(2);
        state.setLegal({a1, b});
        QCOMPARE(p->selectBatch(state).batch, (QStringList{QStringLiteral("a1"), QStringLiteral("b"), QStringLiteral("|"),
                                                           QStringLiteral("b"), QStringLiteral("|"), QStringLiteral("0")}));
    }

    void metaFindsIdsThatObjectsKnowByName()
    {
        // meta() looks ids up by name: ids that are also names every object
        // has (or array indices) are found as any other, names that are not
        // ids are not, and an id given as a number or an object is looked up
        // as String(id) gives it.
        std::unique_ptr<ScriptedPolicy> p = compile(QStringLiteral(R"JS(
function selectBatch(s) {
    var found = s.legal.concat(s.observed.map(function (o) { return o.id; })).map(function (id) {
        var m = s.meta(id);
        return [m.id, m.branch, m.attempt, m.parentId].join(':');
    });
    var missing = ['valueOf', 'isPrototypeOf', '__defineGetter__', 'nope'].map(function (id) {
        try { s.meta(id); return 'found ' + id; } catch (e) { return String(e.message); }
    });
    var coerced = [s.meta(0).id, s.meta({ toString: function () { return 'constructor'; } }).branch];
    throw new Error(JSON.stringify({ found: found, missing: missing, coerced: coerced }));
}
)JS"));
        QVERIFY(p);
        p->beginEpisode(0.5, 4);
        const CellMeta proto{QStringLiteral("__proto__"), 0, 0, QString(), 0, {QStringLiteral("t")}};
        const CellMeta zero{QStringLiteral("0"), 0, 1, QStringLiteral("__proto__"), 1, {}};
        const CellMeta ctor{QStringLiteral("constructor"), 1, 0, QString(), 2, {}};
        const CellMeta str{QStringLiteral("toString"), 2, 0, QString(), 3, {}};
        PolicyState state;
        state.reset(0.5, 4, std::nullopt);
        Observation o;
        o.meta = proto;
        o.evaluated = true;
        o.failClass = QStringLiteral("ok");
        state.appendObservation(o);
        state.setRound(1);
        state.setLegal({zero, ctor, str});
        const PolicyDecision d = p->selectBatch(state);
        const QJsonObject s = thrownJson(d.error);
        QVERIFY2(!s.isEmpty(), qPrintable(d.error));
        QCOMPARE(s.value(QLatin1String("found")).toArray(),
                 (QJsonArray{QStringLiteral("0:0:1:__proto__"), QStringLiteral("constructor:1:0:"),
                             QStringLiteral("toString:2:0:"), QStringLiteral("__proto__:0:0:")}));
        QCOMPARE(s.value(QLatin1String("missing")).toArray(),
                 (QJsonArray{QStringLiteral("meta: valueOf is neither a legal nor a revealed cell"),
                             QStringLiteral("meta: isPrototypeOf is neither a legal nor a revealed cell"),
                             QStringLiteral("meta: __defineGetter__ is neither a legal nor a revealed cell"),
                             QStringLiteral("meta: nope is neither a legal nor a revealed cell")}));
        QCOMPARE(s.value(QLatin1String("coerced")).toArray(), (QJsonArray{QStringLiteral("0"), 1}));
    }

    void legalIdsAreSortedWhateverTheStateOrder()
    {
        // The engine's legal list is sorted by (branch, attempt) and new
        // cells go straight to their place; a hand-made list in another
        // order is still shown sorted, and so are cells added to it later.
        std::unique_ptr<ScriptedPolicy> p = compile(QStringLiteral("function selectBatch(s) { return s.legal.slice(); }"));
        QVERIFY(p);
        p->beginEpisode(0.5, 4);
        const CellMeta a{QStringLiteral("a"), 0, 0, QString(), 0, {}};
        const CellMeta b{QStringLiteral("b"), 1, 0, QString(), 1, {}};
        const CellMeta c{QStringLiteral("c"), 2, 0, QString(), 2, {}};
        const CellMeta a1{QStringLiteral("a1"), 0, 1, QStringLiteral("a"), 3, {}};
        const CellMeta b1{QStringLiteral("b1"), 1, 1, QStringLiteral("b"), 4, {}};
        PolicyState state;
        state.reset(0.5, 4, std::nullopt);
        state.setLegal({c, a});
        QCOMPARE(p->selectBatch(state).batch, (QStringList{QStringLiteral("a"), QStringLiteral("c")}));
        state.setRound(1);
        state.setLegal({c, b, a}); // b joins, out of order
        QCOMPARE(p->selectBatch(state).batch, (QStringList{QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c")}));
        Observation o;
        o.meta = a;
        o.evaluated = true;
        o.failClass = QStringLiteral("ok");
        state.appendObservation(o);
        o.meta = b;
        state.appendObservation(o);
        state.setRound(2);
        state.setLegal({a1, b1, c}); // sorted: both go to their places
        QCOMPARE(p->selectBatch(state).batch, (QStringList{QStringLiteral("a1"), QStringLiteral("b1"), QStringLiteral("c")}));
    }

    void legalListsFollowEveryChange()
    {
        // From one round to the next a place changes hands, goes, comes back
        // to a cell seen before, new branches appear, everything goes: the
        // script sees each state's list exactly.
        std::unique_ptr<ScriptedPolicy> p =
            compile(QStringLiteral("function selectBatch(s) { return s.legal.concat(['|'], s.legalRoots); }"));
        QVERIFY(p);
        p->beginEpisode(0.5, 4);
        const CellMeta a{QStringLiteral("a"), 0, 0, QString(), 0, {}};
        const CellMeta b{QStringLiteral("b"), 1, 0, QString(), 1, {}};
        const CellMeta c{QStringLiteral("c"), 2, 0, QString(), 2, {}};
        const CellMeta d{QStringLiteral("d"), 3, 0, QString(), 3, {}};
        const CellMeta a1{QStringLiteral("a1"), 0, 1, QStringLiteral("a"), 4, {}};
        const QList<QPair<QList<CellMeta>, QString>> rounds{
            {{a, b, c}, QStringLiteral("a,b,c,|,a,b,c")},
            {{a1, c}, QStringLiteral("a1,c,|,c")},
            {{a, c}, QStringLiteral("a,c,|,a,c")},
            {{a, b, c, d}, QStringLiteral("a,b,c,d,|,a,b,c,d")},
            {{b, d}, QStringLiteral("b,d,|,b,d")},
            {{}, QStringLiteral("|")},
            {{c}, QStringLiteral("c,|,c")}};
        PolicyState state;
        state.reset(0.5, 4, std::nullopt);
        for (qsizetype r = 0; r < rounds.size(); ++r) {
            state.setRound(int(r));
            state.setLegal(rounds.at(r).first);
            const PolicyDecision decision = p->selectBatch(state);
            QVERIFY2(decision.ok(), qPrintable(decision.error));
            QCOMPARE(decision.batch.join(QLatin1Char(',')), rounds.at(r).second);
        }
    }

    void defaultBeta()
    {
        QCOMPARE(compile(QStringLiteral("var defaultBeta = 0.3; function selectBatch(s) { return []; }"))->defaultBeta().value(), 0.3);
        QVERIFY(!compile(QStringLiteral("function selectBatch(s) { return []; }"))->defaultBeta());
        QVERIFY(compile(QStringLiteral("function planGrid(c) { return {}; } function selectBatch(s) { return []; }"))->hasGridPlanner());
    }

    void builtinTwinsAgree_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("regime");
        for (const QString &name : BuiltinPolicies::names()) {
            for (const QString &regime : SynthWorld::regimes())
                QTest::addRow("%s/%s", qPrintable(name), qPrintable(regime)) << name << regime;
        }
    }
    void builtinTwinsAgree()
    {
        QFETCH(QString, name);
        QFETCH(QString, regime);
        const QString source = BuiltinPolicies::javaScriptSource(name);
        QVERIFY(source.contains(QLatin1String("function selectBatch")));
        QList<ReplayWorld> worlds;
        for (int i = 0; i < 10; ++i) {
            SynthParams sp;
            sp.seed = quint64(500 + i);
            sp.regime = regime;
            sp.width = 6 + i % 7;
            sp.depth = 4 + i % 9;
            sp.failRate = 0.1 * (i % 5);
            sp.maxParallelism = 2 + i % 9;
            worlds.append(ReplayWorld{QStringLiteral("w%1").arg(i), std::make_shared<DiscoveryTree>(SynthWorld::generate(sp))});
        }
        for (const int workers : {1, 3, 10}) {
            ReplayOptions o;
            o.workers = workers;
            o.betas = {0.0, 0.1, 0.25, 0.5, 0.6, 0.75, 0.9, 1.0};
            o.threads = 2;
            ReplayResult cpp = ReplayEngine::runWorlds(worlds, PolicySpec::builtin(name), o);
            ReplayResult js = ReplayEngine::runWorlds(worlds, PolicySpec::script(source, name + QStringLiteral(".js")), o);
            QVERIFY2(cpp.ok(), qPrintable(cpp.firstError()));
            QVERIFY2(js.ok(), qPrintable(js.firstError()));
            js.policy = cpp.policy;
            QCOMPARE(ReplayJson::resultToJson(js), ReplayJson::resultToJson(cpp));
            // The sweep is not degenerate: the budget knob changes the calls.
            QVERIFY(cpp.worlds.at(0).episodes.constFirst().calls <= cpp.worlds.at(0).episodes.constLast().calls);
        }
    }

    void builtinsBehaveAsDocumented()
    {
        // parallel_refine: width 1 + floor(β(W−1) + 0.5); W = 3 → β 0: 1 branch, β 1: 3 branches.
        const DiscoveryTree w = world(QStringLiteral("0: 1 2 | 1: 3 4 | 2: 5 | 3: 6"));
        std::unique_ptr<Policy> p = BuiltinPolicies::create(QStringLiteral("parallel_refine"));
        ReplayOptions o;
        o.workers = 3;
        const EpisodeResult narrow = ReplayEngine::runEpisode(w, *p, 0.0, o);
        QCOMPARE(narrow.revealed, (QStringList{QStringLiteral("b0a0"), QStringLiteral("b0a1")}));
        const EpisodeResult wide = ReplayEngine::runEpisode(w, *p, 1.0, o);
        QCOMPARE(wide.revealed, (QStringList{QStringLiteral("b0a0"), QStringLiteral("b1a0"), QStringLiteral("b2a0"),
                                             QStringLiteral("b0a1"), QStringLiteral("b1a1")}));
        QCOMPARE(wide.rounds, 2);
        QVERIFY(!BuiltinPolicies::create(QStringLiteral("nope")));
        const Result<PolicySpec> unknown = PolicySpec::fromArgument(QStringLiteral("builtin:nope"));
        QVERIFY(!unknown);
        QVERIFY(unknown.error.contains(QLatin1String("portfolio")));
        const Result<PolicySpec> missing = PolicySpec::fromArgument(QStringLiteral("/no/such/policy.js"));
        QVERIFY(!missing);
        QVERIFY(missing.error.contains(QLatin1String("/no/such/policy.js")));
    }

    void directionPreferencesReplayDifferentlyAndCorrectly()
    {
        // Worlds of the "directions" study regime: each branch carries a
        // `direction:dN` tag, d2 and d5 pay. A portfolio version that ranks
        // them first and opens no root of the weak ones reveals only their
        // branches, opening their roots in ascending branch order; the
        // built-in opens roots by branch id whatever they explore.
        const QString source = BuiltinPolicies::javaScriptSource(QStringLiteral("portfolio"));
        const QString preferring = portfolioWith(
            {{QStringLiteral("DIRECTION_PRIORITY"), QStringLiteral("{\"d2\": 0.9, \"d5\": 0.9, \"d0\": 0.3, \"d1\": 0.3, \"d3\": 0.3, "
                                                                   "\"d4\": 0.3, \"d6\": 0.3, \"d7\": 0.3, \"*\": 0.5}")},
             {QStringLiteral("WEAK_SHARE"), QStringLiteral("0.5")},
             {QStringLiteral("SKIP_WEAK_ROOTS"), QStringLiteral("1")}});
        QVERIFY(preferring.contains(QStringLiteral("\"d2\": 0.9")));
        QVERIFY(preferring.contains(QStringLiteral("const SKIP_WEAK_ROOTS = 1;")));
        auto directionOf = [](const DiscoveryTree &w, const QString &id) {
            for (const Cell &c : w.cells()) {
                if (c.id == id)
                    return c.tags.value(0);
            }
            return QString();
        };
        int differing = 0;
        for (int seed = 1; seed <= 6; ++seed) {
            SynthParams sp;
            sp.seed = quint64(seed);
            sp.regime = QStringLiteral("directions");
            const DiscoveryTree w = SynthWorld::generate(sp);
            QStringList paying; // attempt-0 ids of d2/d5 branches, ascending branch
            for (const DiscoveryTree::Branch &b : w.branches()) {
                const QString tag = w.cells().at(b.cells.first()).tags.value(0);
                if (tag == QLatin1String("direction:d2") || tag == QLatin1String("direction:d5"))
                    paying.append(w.cells().at(b.cells.first()).id);
            }
            for (const double beta : {0.25, 0.5, 1.0}) {
                const EpisodeResult plain = run(source, w, 4, beta);
                const EpisodeResult pref = run(preferring, w, 4, beta);
                QVERIFY2(plain.ok(), qPrintable(plain.error));
                QVERIFY2(pref.ok(), qPrintable(pref.error));
                QVERIFY(!pref.revealed.isEmpty());
                if (paying.isEmpty()) {
                    // Every direction of this world is weak: the first round
                    // opens them anyway (allWeakRootsStillOpen).
                    differing += plain.revealed != pref.revealed ? 1 : 0;
                    continue;
                }
                QStringList roots;
                for (const QString &id : pref.revealed) {
                    const QString tag = directionOf(w, id);
                    QVERIFY2(tag == QLatin1String("direction:d2") || tag == QLatin1String("direction:d5"), qPrintable(id + tag));
                    if (id.endsWith(QLatin1String("a0")))
                        roots.append(id);
                }
                QCOMPARE(roots, paying.mid(0, roots.size()));
                QVERIFY(!roots.isEmpty());
                differing += plain.revealed != pref.revealed ? 1 : 0;
            }
        }
        QVERIFY(differing >= 6);
    }

    void allWeakRootsStillOpen()
    {
        // A version that skips the roots of weak directions, on a world whose
        // every direction the history found weak (its table lists only d9,
        // which this world lacks, as strong): the first round opens the
        // world's roots as the built-in does (equal priorities: ascending
        // branch) instead of nothing, which ended the episode without a call
        // (a dreamed version deployed 0 calls in a counterfactual loop).
        // Once a branch is open, weak roots stay closed: no root is opened
        // that the same version without SKIP_WEAK_ROOTS would not open first.
        const std::pair<QString, QString> table{
            QStringLiteral("DIRECTION_PRIORITY"), QStringLiteral("{\"d9\": 1.0, \"d0\": 0.1, \"d1\": 0.1, \"d2\": 0.1, \"d3\": 0.1, "
                                                                 "\"d4\": 0.1, \"d5\": 0.1, \"d6\": 0.1, \"d7\": 0.1, \"d8\": 0.1}")};
        const std::pair<QString, QString> weak{QStringLiteral("WEAK_SHARE"), QStringLiteral("0.5")};
        const QString allWeak = portfolioWith({table, weak});
        const QString skipping = portfolioWith({table, weak, {QStringLiteral("SKIP_WEAK_ROOTS"), QStringLiteral("1")}});
        QVERIFY(allWeak.contains(QStringLiteral("const SKIP_WEAK_ROOTS = 0;")));
        QVERIFY(skipping.contains(QStringLiteral("const SKIP_WEAK_ROOTS = 1;")));
        QVERIFY(skipping.contains(QStringLiteral("\"d9\": 1.0")));
        for (int seed = 1; seed <= 3; ++seed) {
            SynthParams sp;
            sp.seed = quint64(seed);
            sp.regime = QStringLiteral("directions");
            const DiscoveryTree w = SynthWorld::generate(sp);
            for (const Cell &c : w.cells())
                QVERIFY2(!c.tags.contains(QStringLiteral("direction:d9")), qPrintable(c.id));
            for (const double beta : {0.0, 0.5, 1.0}) {
                const EpisodeResult opening = run(allWeak, w, 4, beta);
                const EpisodeResult skipped = run(skipping, w, 4, beta);
                QVERIFY2(opening.ok(), qPrintable(opening.error));
                QVERIFY2(skipped.ok(), qPrintable(skipped.error));
                QVERIFY(!skipped.revealed.isEmpty());
                QVERIFY(skipped.rounds >= 1);
                // The first round is the built-in's: the first w0 roots by
                // branch (portfolio.js: R = 1 + floor(β(T − 1) + 0.5), w0 =
                // min(R, 1 + floor(β(W − 1) + 0.5)); T roots, W 4).
                QStringList roots;
                for (const DiscoveryTree::Branch &b : w.branches())
                    roots.append(w.cells().at(b.cells.first()).id);
                const int t = int(roots.size());
                const int w0 = std::min(1 + int(std::floor(beta * (t - 1) + 0.5)), 1 + int(std::floor(beta * 3 + 0.5)));
                QVERIFY(w0 >= 1);
                QCOMPARE(opening.revealed.mid(0, w0), roots.mid(0, w0));
                QCOMPARE(skipped.revealed.mid(0, w0), roots.mid(0, w0));
                // Later rounds open no further root.
                int skippedRoots = 0;
                for (const QString &id : skipped.revealed)
                    skippedRoots += id.endsWith(QLatin1String("a0")) ? 1 : 0;
                QCOMPARE(skippedRoots, w0);
            }
        }
    }

    void probeContinuesTheBestBranchPastItsPatience()
    {
        // W 1, β 0: one root, P 1, G 1. The built-in stops after b0a2 (no new
        // best); a probe of PROBE_CALLS goes on with b0 past its patience,
        // one call a round, and a probe that raises the best (b0a4: 9) hands
        // the episode back to the rule.
        const DiscoveryTree w = world(QStringLiteral("0: 1 2 2 2 9 | 1: 0.5"));
        const QString source = BuiltinPolicies::javaScriptSource(QStringLiteral("portfolio"));
        auto withProbe = [&](int calls, const QString &evidence = QString()) {
            QString s = source;
            s.replace(QStringLiteral("const PROBE_CALLS = 0;"), QStringLiteral("const PROBE_CALLS = %1;").arg(calls));
            if (!evidence.isEmpty())
                s.replace(QStringLiteral("const DEPTH_EVIDENCE = {};"), QStringLiteral("const DEPTH_EVIDENCE = %1;").arg(evidence));
            return s;
        };
        const QStringList stops{QStringLiteral("b0a0"), QStringLiteral("b0a1"), QStringLiteral("b0a2")};
        QCOMPARE(run(source, w, 1, 0.0).revealed, stops);
        QCOMPARE(run(withProbe(0), w, 1, 0.0).revealed, stops);
        QCOMPARE(run(withProbe(1), w, 1, 0.0).revealed, stops + QStringList{QStringLiteral("b0a3")});
        const EpisodeResult probed = run(withProbe(3), w, 1, 0.0);
        QVERIFY2(probed.ok(), qPrintable(probed.error));
        QCOMPARE(probed.revealed, (stops + QStringList{QStringLiteral("b0a3"), QStringLiteral("b0a4")}));
        QCOMPARE(probed.best, 9.0);
        // The probe decays once the history holds evidence at the depths it would reach.
        QCOMPARE(run(withProbe(2, QStringLiteral("{\"3\": 10, \"4\": 10}")), w, 1, 0.0).revealed, stops);
        QCOMPARE(run(withProbe(2, QStringLiteral("{\"3\": 10, \"4\": 2}")), w, 1, 0.0).revealed,
                 (stops + QStringList{QStringLiteral("b0a3"), QStringLiteral("b0a4")}));
        // When the best branch has nothing left, the next opened branch is probed.
        const DiscoveryTree two = world(QStringLiteral("0: 5 4 | 1: 1 1 1 1 1 1 6"));
        const EpisodeResult next = run(withProbe(3), two, 2, 1.0);
        QVERIFY2(next.ok(), qPrintable(next.error));
        const EpisodeResult plainTwo = run(source, two, 2, 1.0);
        QVERIFY(next.revealed.size() > plainTwo.revealed.size());
        QCOMPARE(next.revealed.mid(0, plainTwo.revealed.size()), plainTwo.revealed);
        // b0 holds the best (5) but has no next attempt: b1 is probed until its 6.
        QCOMPARE(next.revealed.mid(plainTwo.revealed.size()), (QStringList{QStringLiteral("b1a5"), QStringLiteral("b1a6")}));
    }

    void portfolioUsesOneRecoveryAndStops()
    {
        // W = 4, β = 1. Round 1 opens 4 roots; b1 and b2 fail (repairable), b3
        // fails hard. Round 2: one root (b4), the exploit b0a1, one recovery:
        // the anchored/shorter-run tie goes to the lower branch id, b1a1.
        const DiscoveryTree w = world(QStringLiteral("0: 1 2 | 1: x 3 | 2: x 3 | 3: e 9 | 4: 0.5 | 5: 0.2"));
        std::unique_ptr<Policy> p = BuiltinPolicies::create(QStringLiteral("portfolio"));
        ReplayOptions o;
        o.workers = 4;
        o.trace = true;
        const EpisodeResult r = ReplayEngine::runEpisode(w, *p, 1.0, o);
        QVERIFY(r.ok());
        QCOMPARE(r.trace.at(0).batch, (QStringList{QStringLiteral("b0a0"), QStringLiteral("b1a0"), QStringLiteral("b2a0"),
                                                   QStringLiteral("b3a0")}));
        QCOMPARE(r.trace.at(1).batch, (QStringList{QStringLiteral("b4a0"), QStringLiteral("b0a1"), QStringLiteral("b1a1"),
                                                   QStringLiteral("b5a0")}));
        // b3 failed hard: never refined.
        QVERIFY(!r.revealed.contains(QStringLiteral("b3a1")));
        QVERIFY(r.revealed.contains(QStringLiteral("b2a1")));
    }
};

QTEST_GUILESS_MAIN(TestPolicy)
#include "tst_policy.moc"
