// Dreaming: tunables, the history's per-direction statistics, the built-in
// improver (learning direction priorities and stopping floors from a
// history), the policy-development agent on a stand-in chat model (good
// script, syntax error, no code block), failures stored and fed back, the
// best-by-mean proposal, cancel, `dreamrsi dream`.
#include "clirunsupport.h"

#include "loop/dream/agentpolicydeveloper.h"
#include "loop/dream/autoapproval.h"
#include "loop/dream/dreamer.h"
#include "loop/dream/historystats.h"
#include "loop/dream/policyimprover.h"
#include "loop/dream/policytunables.h"

#include "policy/builtinpolicies.h"
#include "replay/replayengine.h"
#include "replay/synthworld.h"
#include "store/projectstore.h"
#include "store/projectwriter.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMutex>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <functional>

using namespace dreamrsi;

namespace {

/// A chat model that answers from a list, records every request, and can run
/// a hook on a given call (to cancel from inside the dream).
class ScriptedChatModel final : public ChatModel
{
public:
    explicit ScriptedChatModel(QStringList answers)
        : m_answers(std::move(answers))
    {
    }
    QString kind() const override { return QStringLiteral("openai"); }
    QString model() const override { return QStringLiteral("stand-in"); }
    ChatResponse complete(const ChatRequest &request, const std::atomic_bool &cancel) override
    {
        QMutexLocker lock(&m_mutex);
        m_requests.append(request);
        const int call = int(m_requests.size()) - 1;
        if (onCall)
            onCall(call);
        ChatResponse r;
        r.usage.model = model();
        if (cancel.load()) {
            r.cancelled = true;
            r.error = QStringLiteral("cancelled");
            return r;
        }
        r.ok = true;
        r.text = m_answers.value(call % m_answers.size());
        r.usage.tokensIn = request.user.size() / 4;
        r.usage.tokensOut = r.text.size() / 4;
        return r;
    }
    QList<ChatRequest> requests() const
    {
        QMutexLocker lock(&m_mutex);
        return m_requests;
    }
    std::function<void(int)> onCall;

private:
    mutable QMutex m_mutex;
    QStringList m_answers;
    QList<ChatRequest> m_requests;
};

QList<DiscoveryTree> synthTrees(int count, const QString &regime = QStringLiteral("steady"))
{
    QList<DiscoveryTree> trees;
    for (int i = 0; i < count; ++i) {
        SynthParams p;
        p.regime = regime;
        p.seed = quint64(11 + i);
        p.width = 8;
        p.depth = 8;
        trees.append(SynthWorld::generate(p));
    }
    return trees;
}

/// A project at `path` holding `trees` as finished iterations.
void makeProject(const QString &path, const QList<DiscoveryTree> &trees)
{
    ProjectInfo info;
    info.name = QStringLiteral("dream test");
    StoreResult<std::unique_ptr<ProjectWriter>> writer = ProjectWriter::create(path, info);
    QVERIFY2(writer.ok(), qPrintable(writer.error));
    if (trees.isEmpty())
        return;
    const StoreResult<QList<IterationId>> ids = (*writer.value)->importTrees(trees);
    QVERIFY2(ids.ok(), qPrintable(ids.error));
}

const QString goodScript = QStringLiteral(
    "// widest legal batch\n"
    "function selectBatch(state) {\n"
    "    return state.legal.slice(0, state.maxParallelism);\n"
    "}\n");
const QString syntaxErrorScript = QStringLiteral("function selectBatch(state) {\n    return [ ;\n}\n");

QString answerWith(const QString &code)
{
    return QStringLiteral("Here is the change.\n\n```js\nnot this one\n```\n\nFinal:\n\n```javascript\n") + code
        + QStringLiteral("```\n");
}

/// A hand-made cell: a success when `failClass` is "ok" and it has a score.
Cell makeCell(int branch, int attempt, qint64 seq, std::optional<double> score, const QString &direction,
              const QString &failClass = QStringLiteral("ok"))
{
    Cell c;
    c.id = QStringLiteral("b%1a%2").arg(branch).arg(attempt);
    c.branch = branch;
    c.attempt = attempt;
    c.seq = seq;
    c.score = score;
    c.failClass = failClass;
    c.evaluated = failClass == QLatin1String("ok") && score.has_value();
    if (failClass != QLatin1String("ok"))
        c.error = QStringLiteral("planted %1 failure").arg(failClass);
    if (!direction.isEmpty())
        c.tags = {QStringLiteral("direction:") + direction};
    return c;
}

DiscoveryTree makeTree(const QList<Cell> &cells, std::optional<double> baseline)
{
    TreeMeta meta;
    meta.baselineScore = baseline;
    TreeError error;
    const std::optional<DiscoveryTree> tree = DiscoveryTree::build(meta, cells, &error);
    if (!tree)
        qFatal("hand-made tree rejected: %s", qPrintable(error.message));
    return *tree;
}

/// A history in which one direction, "payoff", clearly pays: five other
/// directions creep from 0.20 to 0.22 over three attempts, "payoff" climbs
/// 0.6 → 0.8 → 1.0. Its branch id differs per world (5, 3, 4), so only its
/// tag can tell a policy where it is.
QList<DiscoveryTree> payoffHistory()
{
    const QStringList others{QStringLiteral("alpha"), QStringLiteral("beta"), QStringLiteral("gamma"), QStringLiteral("delta"),
                             QStringLiteral("epsilon")};
    const int payoffBranch[] = {5, 3, 4};
    QList<DiscoveryTree> trees;
    for (int w = 0; w < 3; ++w) {
        QList<Cell> cells;
        qint64 seq = 0;
        int other = 0;
        for (int b = 0; b < 6; ++b) {
            const bool pays = b == payoffBranch[w];
            const QString direction = pays ? QStringLiteral("payoff") : others.at(other++);
            for (int a = 0; a < 3; ++a) {
                const double score = pays ? 0.6 + 0.2 * a : 0.2 + 0.01 * a;
                cells.append(makeCell(b, a, seq++, score, direction));
            }
        }
        trees.append(makeTree(cells, 0.1));
    }
    return trees;
}

DreamSettings smallSettings(int versions)
{
    DreamSettings s;
    s.versions = versions;
    s.replay.workers = 4;
    s.replay.betas = QList<double>{0.0, 0.5, 1.0};
    s.limits.memoryBytes = qint64(2048) << 20;
    s.limits.wallMs = 120000;
    s.seed = 5;
    // These suites check the dream's mechanics over the worlds as revealed
    // (records per world and β); tst_imagination covers the imagined valuation.
    s.replay.valuation = Valuation::Revealed;
    return s;
}

} // namespace

class TestDream : public QObject
{
    Q_OBJECT

private slots:
    void lastCodeBlock_data();
    void lastCodeBlock();
    void tunablesOfTheStarterPolicies();
    void historyStatsOfAHandMadeHistory();
    void directionPriorityLine();
    void improverIsDeterministicAndClimbs();
    void improverLearnsWhichDirectionPays();
    void improverProposesDirectionAndProbeVersions();
    void promptCarriesTheHistoryStatistics();
    void agentFailuresAreStoredAndFedBack();
    void dreamWithImproverKeepsOrImproves();
    void floorIsTheFirstApprovedVersion();
    void identicalScriptsAreStoredOnce();
    void cancelFromTheModelStopsTheDream();
    void cancelBetweenVersionsStopsTheDream();
    void autoApprovalRecordsThatItWasAutomatic();
    void dreamCommandJson();
    void dreamCommandUsage();
};

void TestDream::lastCodeBlock_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("found");
    QTest::addColumn<QString>("code");
    QTest::newRow("two blocks") << QStringLiteral("a\n```js\nfirst\n```\nb\n```\nsecond\nline\n```\n") << true
                                << QStringLiteral("second\nline");
    QTest::newRow("tilde and tag") << QStringLiteral("~~~javascript\nx = 1;\n~~~") << true << QStringLiteral("x = 1;");
    QTest::newRow("none") << QStringLiteral("no code here, only `inline`") << false << QString();
    QTest::newRow("unclosed last") << QStringLiteral("```\nfirst\n```\n```js\nopen\n") << true << QStringLiteral("open");
    QTest::newRow("inner shorter fence") << QStringLiteral("````md\n```\ninner\n```\n````\n") << true
                                         << QStringLiteral("```\ninner\n```");
}

void TestDream::lastCodeBlock()
{
    QFETCH(QString, text);
    QFETCH(bool, found);
    QFETCH(QString, code);
    const std::optional<QString> block = lastFencedCodeBlock(text);
    QCOMPARE(block.has_value(), found);
    if (found)
        QCOMPARE(*block, code);
}

void TestDream::tunablesOfTheStarterPolicies()
{
    const QString portfolio = BuiltinPolicies::javaScriptSource(QStringLiteral("portfolio"));
    const QList<PolicyTunable> tunables = PolicyTunables::parse(portfolio);
    QStringList names;
    for (const PolicyTunable &t : tunables)
        names << t.name;
    QCOMPARE(names, (QStringList{QStringLiteral("ROOT_ROUNDING"), QStringLiteral("ROOT_SHARE"), QStringLiteral("FIRST_SHARE"),
                                 QStringLiteral("STALL_BASE"), QStringLiteral("STALL_SLOPE"),
                                 QStringLiteral("REPAIR_BASE"), QStringLiteral("REPAIR_SLOPE"), QStringLiteral("PATIENCE_BASE"),
                                 QStringLiteral("PATIENCE_SLOPE"), QStringLiteral("RECOVERY_MODE"), QStringLiteral("ROOT_BASE"),
                                 QStringLiteral("FIRST_BASE"), QStringLiteral("WEAK_SHARE"), QStringLiteral("WEAK_DEPTH"),
                                 QStringLiteral("PATIENCE_FLOOR"), QStringLiteral("STALL_FLOOR"), QStringLiteral("SKIP_WEAK_ROOTS"),
                                 QStringLiteral("STALL_BY_DIRECTION"), QStringLiteral("PROBE_CALLS"), QStringLiteral("PROBE_EVIDENCE")}));
    // Every number is searched, the floors too: what the history suggests
    // for them is a proposal, never a one-way constraint.
    for (const PolicyTunable &t : tunables)
        QVERIFY2(!t.learned, qPrintable(t.name));
    QVERIFY(!tunables.at(12).integer); // WEAK_SHARE is a share, not a count
    QVERIFY(!tunables.at(1).integer);  // ROOT_SHARE too
    QCOMPARE(tunables.at(1).low.value_or(-1), 0.0); // down to one root at every β
    QVERIFY(PolicyTunables::hasDirectionTable(portfolio, QStringLiteral("DIRECTION_PRIORITY")));
    QVERIFY(PolicyTunables::hasDirectionTable(portfolio, QStringLiteral("DIRECTION_DEEPEST_GAIN")));
    QVERIFY(PolicyTunables::hasDirectionTable(portfolio, QStringLiteral("DIRECTION_STALL")));
    QVERIFY(PolicyTunables::hasDirectionTable(portfolio, QStringLiteral("DEPTH_EVIDENCE")));
    QCOMPARE(tunables.at(16).choices, (QList<double>{0, 1})); // SKIP_WEAK_ROOTS
    QCOMPARE(tunables.at(18).low.value_or(-1), 0.0);           // PROBE_CALLS: 0 (no probe) is one of its values
    QCOMPARE(tunables.at(18).value, 0.0);
    const PolicyTunable &rounding = tunables.at(0);
    QCOMPARE(rounding.value, 0.5);
    QVERIFY(!rounding.integer);
    QCOMPARE(rounding.low.value_or(-1), 0.0);
    QCOMPARE(rounding.high.value_or(-1), 1.0);
    QVERIFY(tunables.at(4).integer);
    QCOMPARE(tunables.at(9).choices, (QList<double>{0, 1, 2}));

    // An edit changes exactly that literal; the result parses again.
    const QString edited = PolicyTunables::withValue(portfolio, tunables.at(4), 5);
    QVERIFY(edited.contains(QStringLiteral("const STALL_SLOPE = 5;")));
    QCOMPARE(edited.size(), portfolio.size());
    const QList<PolicyTunable> again = PolicyTunables::parse(edited);
    QCOMPARE(again.size(), tunables.size());
    QCOMPARE(again.at(4).value, 5.0);
    QCOMPARE(PolicyTunables::literal(0.25, false), QStringLiteral("0.25"));
    QCOMPARE(PolicyTunables::literal(1.0, false), QStringLiteral("1.0"));

    QCOMPARE(PolicyTunables::parse(BuiltinPolicies::javaScriptSource(QStringLiteral("parallel_refine"))).size(), 2);

    // The starter scripts with their tunables still give the C++ twins' results.
    QList<ReplayWorld> worlds;
    for (const DiscoveryTree &t : synthTrees(3, QStringLiteral("plateau")))
        worlds.append(ReplayWorld{QStringLiteral("w%1").arg(worlds.size()), std::make_shared<const DiscoveryTree>(t)});
    ReplayOptions options;
    options.workers = 5;
    for (const QString &name : BuiltinPolicies::names()) {
        const ReplayResult cpp = ReplayEngine::runWorlds(worlds, PolicySpec::builtin(name), options);
        const ReplayResult js =
            ReplayEngine::runWorlds(worlds, PolicySpec::script(BuiltinPolicies::javaScriptSource(name), name), options);
        QVERIFY(cpp.value.has_value());
        QVERIFY(js.value.has_value());
        QCOMPARE(*js.value, *cpp.value);
        for (qsizetype w = 0; w < cpp.worlds.size(); ++w) {
            for (qsizetype e = 0; e < cpp.worlds.at(w).episodes.size(); ++e)
                QCOMPARE(js.worlds.at(w).episodes.at(e).revealed, cpp.worlds.at(w).episodes.at(e).revealed);
        }
    }
}

void TestDream::historyStatsOfAHandMadeHistory()
{
    // World 1 (baseline 0.5, S = 2): alpha on branches 0 and 2, beta on branch 1.
    //   b0: 1.0, 0.8 (a stall), runtime failure, 1.2 (gains again after a stall of 1)
    //   b1: 2.0, 1.5          b2: env failure
    // Creation order b0a0 b0a1 b2a0 b1a0 b1a1 b0a2 b0a3: two cells pass
    // between the first best (1.0) and the next (2.0).
    const DiscoveryTree scorable = makeTree({makeCell(0, 0, 0, 1.0, QStringLiteral("alpha")), makeCell(0, 1, 1, 0.8, QStringLiteral("alpha")),
                                             makeCell(2, 0, 2, std::nullopt, QStringLiteral("alpha"), QStringLiteral("env")),
                                             makeCell(1, 0, 3, 2.0, QStringLiteral("beta")), makeCell(1, 1, 4, 1.5, QStringLiteral("beta")),
                                             makeCell(0, 2, 5, std::nullopt, QStringLiteral("alpha"), QStringLiteral("runtime")),
                                             makeCell(0, 3, 6, 1.2, QStringLiteral("alpha"))},
                                            0.5);
    // World 2: S = 0, not scorable: gamma's one success counts, its attainment does not.
    const DiscoveryTree flat = makeTree({makeCell(0, 0, 0, 0.0, QStringLiteral("gamma"))}, std::nullopt);
    const HistoryStats h = computeHistoryStats({&scorable, nullptr, &flat});

    QCOMPARE(h.worlds, 2);
    QCOMPARE(h.scorableWorlds, 1);
    QCOMPARE(h.cells, 8);
    QCOMPARE(h.branches, 4);
    QCOMPARE(h.branchesAtAttempt, (QList<int>{4, 2, 1, 1}));
    QCOMPARE(h.gainAtAttempt.size(), 4);
    // Attempt 0: alpha (1.0 − 0.5)/2 + beta (2.0 − 0.5)/2; attempt 3: (1.2 − 1.0)/2.
    QCOMPARE(h.gainAtAttempt.at(0), 1.0);
    QCOMPARE(h.gainAtAttempt.at(1), 0.0);
    QCOMPARE(h.gainAtAttempt.at(3), 0.1);
    QVERIFY(qFuzzyCompare(h.lateGainShare(), 0.1 / 1.1));
    QCOMPARE(h.stoppedWhileImproving, 1); // b0's last attempt raised its best
    QCOMPARE(h.longestStallBeforeGain, 1);
    QCOMPARE(h.stallFloor(), 2);
    QCOMPARE(h.longestDroughtBeforeGain, 2);
    QCOMPARE(h.patienceFloor(), 3);
    // Branch attainments 0.6 (b0), 1.0 (b1), 0 (b2): the mean is the unseen prior.
    QVERIFY(qFuzzyCompare(h.unseenPriority, 1.6 / 3));

    QCOMPARE(h.directions.size(), 3);
    QCOMPARE(h.directions.at(0).name, QStringLiteral("beta"));
    QCOMPARE(h.directions.at(1).name, QStringLiteral("gamma"));
    QCOMPARE(h.directions.at(2).name, QStringLiteral("alpha"));

    const DirectionStats *alpha = h.direction(QStringLiteral("alpha"));
    QVERIFY(alpha);
    QCOMPARE(alpha->worlds, 1);
    QCOMPARE(alpha->branches, 2);
    QCOMPARE(alpha->calls, 5);
    QCOMPARE(alpha->successes, 3);
    QCOMPARE(alpha->best.value_or(-1), 1.2);
    QVERIFY(qFuzzyCompare(alpha->gain, 0.35));
    QVERIFY(qFuzzyCompare(alpha->gainPerCall(), 0.07));
    QCOMPARE(alpha->deepestGain, 3);
    QVERIFY(qFuzzyCompare(alpha->meanAttainment, 0.3));
    QVERIFY(qFuzzyCompare(alpha->bestAttainment, 0.6));
    QVERIFY(qFuzzyCompare(alpha->priority, (0.6 + 1.6 / 3) / 3)); // shrunk towards the prior

    const DirectionStats *beta = h.direction(QStringLiteral("beta"));
    QVERIFY(beta);
    QCOMPARE(beta->calls, 2);
    QCOMPARE(beta->successes, 2);
    QCOMPARE(beta->best.value_or(-1), 2.0);
    QVERIFY(qFuzzyCompare(beta->gainPerCall(), 0.375));
    QCOMPARE(beta->deepestGain, 0);
    QVERIFY(qFuzzyCompare(beta->priority, (1.0 + 1.6 / 3) / 2));

    const DirectionStats *gamma = h.direction(QStringLiteral("gamma"));
    QVERIFY(gamma);
    QCOMPARE(gamma->worlds, 1);
    QCOMPARE(gamma->calls, 1);
    QCOMPARE(gamma->successes, 1);
    QCOMPARE(gamma->best.value_or(-1), 0.0);
    QCOMPARE(gamma->gain, 0.0);
    QCOMPARE(gamma->deepestGain, -1);
    QVERIFY(qFuzzyCompare(gamma->priority, h.unseenPriority)); // no scorable branch: the prior

    const QString table = h.markdown();
    QVERIFY2(table.contains(QStringLiteral("| beta | 1 | 1 | 2 | 2 | 2 | 1 | 1 | 0.375 | 0 |")), qPrintable(table));
    QVERIFY2(table.contains(QStringLiteral("| alpha | 1 | 2 | 5 | 3 | 1.2 | 0.3 | 0.6 | 0.07 | 3 |")), qPrintable(table));
    QVERIFY(table.contains(QStringLiteral("| gamma | 1 | 1 | 1 | 1 | 0 | 0 | 0 | 0 | none |")));
    QVERIFY(table.contains(QStringLiteral("| 3 | 1 | 0.1 | 0.1 |")));
    QVERIFY(table.contains(QStringLiteral("1 of 2 refined branches")));

    // Nothing given, nothing learned.
    const HistoryStats none = computeHistoryStats({});
    QVERIFY(none.isEmpty());
    QVERIFY(none.directions.isEmpty());
    QCOMPARE(none.stallFloor(), 1);
    QCOMPARE(none.patienceFloor(), 1);
}

void TestDream::directionPriorityLine()
{
    const QString table = QStringLiteral("DIRECTION_PRIORITY");
    const QString source = QStringLiteral("var x = 1;\nconst DIRECTION_PRIORITY = {}; // learned: {a: 1};\nfunction selectBatch(s) { return []; }\n");
    QVERIFY(PolicyTunables::hasDirectionTable(source, table));
    QVERIFY(!PolicyTunables::hasDirectionTable(source, QStringLiteral("DIRECTION")));
    QVERIFY(!PolicyTunables::hasDirectionTable(QStringLiteral("const DIRECTION_PRIORITY = 3;\n"), table));
    const QString written = PolicyTunables::withDirectionTable(
        source, table, {{QStringLiteral("payoff"), 0.912345}, {QStringLiteral("say \"hi\""), 2.0}, {QStringLiteral("*"), 1.0 / 3}});
    QVERIFY2(written.contains(QStringLiteral("const DIRECTION_PRIORITY = {\"payoff\": 0.9123, \"say \\\"hi\\\"\": 2, \"*\": 0.3333}; // learned: {a: 1};")),
             qPrintable(written));
    // Written again from a written line: only the table changes.
    const QString again = PolicyTunables::withDirectionTable(written, table, {{QStringLiteral("x"), 0.5}});
    QVERIFY(again.contains(QStringLiteral("const DIRECTION_PRIORITY = {\"x\": 0.5}; // learned: {a: 1};")));
    QCOMPARE(PolicyTunables::withDirectionTable(QStringLiteral("no table"), table, {{QStringLiteral("x"), 1}}), QStringLiteral("no table"));
}

void TestDream::improverIsDeterministicAndClimbs()
{
    QList<ReplayWorld> worlds;
    for (const DiscoveryTree &t : synthTrees(3))
        worlds.append(ReplayWorld{QStringLiteral("w%1").arg(worlds.size()), std::make_shared<const DiscoveryTree>(t)});
    ReplayOptions options;
    options.workers = 4;
    options.threads = 1;
    int evaluations = 0;
    auto evaluate = [&](const QString &code, const std::atomic_bool &) {
        ++evaluations;
        const ReplayResult r = ReplayEngine::runWorlds(worlds, PolicySpec::script(code, QStringLiteral("candidate")), options);
        CandidateScore s;
        s.value = r.ok() ? r.value : std::nullopt;
        s.error = r.firstError();
        return s;
    };
    DevelopmentContext context;
    context.current.version.name = QStringLiteral("builtin:portfolio");
    context.current.version.code = BuiltinPolicies::javaScriptSource(QStringLiteral("portfolio"));
    context.current.value = evaluate(context.current.version.code, std::atomic_bool(false)).value;
    QVERIFY(context.current.value.has_value());
    context.seed = 42;
    context.evaluate = evaluate;

    PolicyImprover improver(4);
    std::atomic_bool cancel(false);
    evaluations = 0;
    const DevelopmentOutcome a = improver.develop(context, cancel);
    QVERIFY2(a.ok, qPrintable(a.error));
    // Four candidates, and one replay of the base itself: the reference a
    // candidate's behaviour at the deployed β is compared with (a dream has
    // it cached; this stand-in replays it).
    QCOMPARE(evaluations, 5);
    const DevelopmentOutcome b = improver.develop(context, cancel);
    QVERIFY(b.ok);
    QCOMPARE(b.code, a.code); // same seed, same script
    QVERIFY(a.code != context.current.version.code);
    QVERIFY2(a.response.contains(QStringLiteral("Candidates replayed (4, 4 with a new behaviour")), qPrintable(a.response));

    // It differs from its base in one or two tunables, nothing else.
    const QList<PolicyTunable> base = PolicyTunables::parse(context.current.version.code);
    const QList<PolicyTunable> mine = PolicyTunables::parse(a.code);
    QCOMPARE(mine.size(), base.size());
    int changed = 0;
    for (qsizetype i = 0; i < base.size(); ++i)
        changed += base.at(i).value != mine.at(i).value ? 1 : 0;
    QVERIFY(changed >= 1 && changed <= 2);

    // The returned script is the best of its candidates: nothing in the
    // report beats it.
    const std::optional<double> value = evaluate(a.code, cancel).value;
    QVERIFY(value.has_value());
    const QRegularExpression reported(QStringLiteral("^- .*: mean value (-?[0-9.]+)$"), QRegularExpression::MultilineOption);
    int lines = 0;
    for (auto it = reported.globalMatch(a.response); it.hasNext(); ++lines)
        QVERIFY(it.next().captured(1).toDouble() <= *value + 1e-6);
    QVERIFY(lines >= 1);

    // Another seed writes other candidates.
    context.seed = 43;
    const DevelopmentOutcome c = improver.develop(context, cancel);
    QVERIFY(c.ok);
    QVERIFY(c.response != a.response);

    // A script without tunables is a clear failure.
    context.current.version.code = QStringLiteral("function selectBatch(s) { return []; }");
    const DevelopmentOutcome none = improver.develop(context, cancel);
    QVERIFY(!none.ok);
    QVERIFY(none.error.contains(QStringLiteral("no tunables")));
}

void TestDream::improverLearnsWhichDirectionPays()
{
    const QList<DiscoveryTree> history = payoffHistory();
    QList<ReplayWorld> worlds;
    QList<const DiscoveryTree *> trees;
    for (const DiscoveryTree &t : history) {
        worlds.append(ReplayWorld{QStringLiteral("w%1").arg(worlds.size()), std::make_shared<const DiscoveryTree>(t)});
        trees.append(worlds.constLast().tree.get());
    }
    ReplayOptions options;
    options.workers = 4;
    options.threads = 1;
    auto evaluate = [&](const QString &code, const std::atomic_bool &) {
        const ReplayResult r = ReplayEngine::runWorlds(worlds, PolicySpec::script(code, QStringLiteral("candidate")), options);
        CandidateScore s;
        s.value = r.ok() ? r.value : std::nullopt;
        s.error = r.firstError();
        return s;
    };
    const HistoryStats stats = computeHistoryStats(trees);
    QCOMPARE(stats.directions.first().name, QStringLiteral("payoff"));

    DevelopmentContext context;
    context.current.version.name = QStringLiteral("builtin:portfolio");
    context.current.version.code = BuiltinPolicies::javaScriptSource(QStringLiteral("portfolio"));
    context.current.value = evaluate(context.current.version.code, std::atomic_bool(false)).value;
    QVERIFY(context.current.value.has_value());
    context.seed = 7;
    context.worldStats = stats;
    context.evaluate = evaluate;

    PolicyImprover improver(4);
    std::atomic_bool cancel(false);
    const DevelopmentOutcome a = improver.develop(context, cancel);
    QVERIFY2(a.ok, qPrintable(a.error));
    QVERIFY2(a.prompt.contains(QStringLiteral("Learned from it: direction priority payoff")), qPrintable(a.prompt));
    QCOMPARE(improver.develop(context, cancel).code, a.code); // deterministic for a seed

    // The table ranks "payoff" first; unseen directions get the mean.
    static const QRegularExpression table(QStringLiteral("const DIRECTION_PRIORITY = \\{\"([^\"]+)\": ([0-9.]+), "));
    const QRegularExpressionMatch m = table.match(a.code);
    QVERIFY2(m.hasMatch(), qPrintable(a.code));
    QCOMPARE(m.captured(1), QStringLiteral("payoff"));
    QVERIFY(a.code.contains(QStringLiteral("\"*\": %1}").arg(PolicyTunables::literal(std::round(stats.unseenPriority * 1e4) / 1e4, false))));
    QVERIFY2(a.code.contains(QStringLiteral("const DIRECTION_DEEPEST_GAIN = {\"payoff\": 2, ")), qPrintable(a.code));
    // The history's floors are offered, not imposed: the prompt reports them.
    QVERIFY2(a.prompt.contains(QStringLiteral("longest stall before a gain %1").arg(stats.longestStallBeforeGain)), qPrintable(a.prompt));

    // It opens the paying direction first, on every world and every β, and
    // scores a better value than the deployed portfolio, which opens roots
    // by branch id.
    const ReplayResult learned = ReplayEngine::runWorlds(worlds, PolicySpec::script(a.code, QStringLiteral("learned")), options);
    QVERIFY2(learned.ok(), qPrintable(learned.firstError()));
    const int payoffBranch[] = {5, 3, 4};
    for (qsizetype w = 0; w < learned.worlds.size(); ++w) {
        for (const EpisodeResult &e : learned.worlds.at(w).episodes) {
            QVERIFY(!e.revealed.isEmpty());
            QCOMPARE(e.revealed.first(), QStringLiteral("b%1a0").arg(payoffBranch[w]));
            QCOMPARE(e.attainment, 1.0);
        }
    }
    QVERIFY(learned.value.has_value());
    qInfo("deployed portfolio %.4f, learned %.4f", *context.current.value, *learned.value);
    QVERIFY(*learned.value > *context.current.value + 0.05);

    // A direction the history never tried ranks as an average one: above
    // the directions that did not pay, below the one that did.
    QList<Cell> cells;
    cells << makeCell(0, 0, 0, 0.2, QStringLiteral("alpha")) << makeCell(1, 0, 1, 0.5, QStringLiteral("novel"))
          << makeCell(2, 0, 2, 0.9, QStringLiteral("payoff"));
    const QList<ReplayWorld> fresh{ReplayWorld{QStringLiteral("fresh"), std::make_shared<const DiscoveryTree>(makeTree(cells, 0.1))}};
    ReplayOptions wide = options;
    wide.betas = {1.0};
    const ReplayResult onFresh = ReplayEngine::runWorlds(fresh, PolicySpec::script(a.code, QStringLiteral("learned")), wide);
    QVERIFY2(onFresh.ok(), qPrintable(onFresh.firstError()));
    QCOMPARE(onFresh.worlds.first().episodes.first().revealed,
             (QStringList{QStringLiteral("b2a0"), QStringLiteral("b1a0"), QStringLiteral("b0a0")}));
}

void TestDream::improverProposesDirectionAndProbeVersions()
{
    // Every candidate the improver writes, and the replay it would get.
    auto runWith = [](const QList<DiscoveryTree> &history, QStringList *codes) {
        QList<ReplayWorld> worlds;
        QList<const DiscoveryTree *> trees;
        for (const DiscoveryTree &t : history) {
            worlds.append(ReplayWorld{QStringLiteral("w%1").arg(worlds.size()), std::make_shared<const DiscoveryTree>(t)});
            trees.append(worlds.constLast().tree.get());
        }
        ReplayOptions options;
        options.workers = 4;
        options.threads = 1;
        auto evaluate = [worlds, options, codes](const QString &code, const std::atomic_bool &) {
            codes->append(code);
            const ReplayResult r = ReplayEngine::runWorlds(worlds, PolicySpec::script(code, QStringLiteral("candidate")), options);
            CandidateScore s;
            s.value = r.ok() ? r.value : std::nullopt;
            s.error = r.firstError();
            return s;
        };
        DevelopmentContext context;
        context.current.version.name = QStringLiteral("builtin:portfolio");
        context.current.version.code = BuiltinPolicies::javaScriptSource(QStringLiteral("portfolio"));
        context.current.value = evaluate(context.current.version.code, std::atomic_bool(false)).value;
        codes->clear();
        context.seed = 11;
        context.worldStats = computeHistoryStats(trees);
        context.evaluate = evaluate;
        PolicyImprover improver(4);
        std::atomic_bool cancel(false);
        return improver.develop(context, cancel);
    };
    auto tunable = [](const QString &code, const QString &name) -> std::optional<double> {
        for (const PolicyTunable &t : PolicyTunables::parse(code)) {
            if (t.name == name)
                return t.value;
        }
        return std::nullopt;
    };

    // One direction pays and gains keep arriving at attempt 2: the first
    // step tries a version that opens only the paying direction and one that
    // probes past patience.
    QStringList codes;
    const DevelopmentOutcome paying = runWith(payoffHistory(), &codes);
    QVERIFY2(paying.ok, qPrintable(paying.error));
    QCOMPARE(codes.size(), 4);
    bool directionAware = false, probing = false;
    for (const QString &code : std::as_const(codes)) {
        if (tunable(code, QStringLiteral("SKIP_WEAK_ROOTS")) == 1.0 && tunable(code, QStringLiteral("WEAK_SHARE")).value_or(0) > 0.0)
            directionAware = true;
        if (tunable(code, QStringLiteral("PROBE_CALLS")).value_or(0) > 0.0)
            probing = true;
        // Every candidate carries what the history taught: per attempt, the
        // successes that show a score there (18 branches of three attempts),
        // and the stall floor per direction.
        QVERIFY2(code.contains(QStringLiteral("const DEPTH_EVIDENCE = {\"0\": 18, \"1\": 18, \"2\": 18};")), qPrintable(code));
        QVERIFY2(code.contains(QStringLiteral("const DIRECTION_STALL = {\"payoff\": 1, ")), qPrintable(code));
    }
    QVERIFY(directionAware);
    QVERIFY(probing);
    QVERIFY2(paying.response.contains(QStringLiteral("the history's paying directions: payoff")), qPrintable(paying.response));
    QVERIFY2(paying.response.contains(QStringLiteral("PROBE_CALLS 0 → 3 (deep: probe 3: late gains in the history")), qPrintable(paying.response));
    // The paying direction opened alone: on every world and β its branch is
    // the only one revealed.
    for (const QString &code : std::as_const(codes)) {
        if (tunable(code, QStringLiteral("SKIP_WEAK_ROOTS")) != 1.0 || tunable(code, QStringLiteral("WEAK_SHARE")).value_or(0) < 0.5)
            continue; // (a random step moves WEAK_SHARE by 0.3 at most)
        QList<ReplayWorld> worlds;
        for (const DiscoveryTree &t : payoffHistory())
            worlds.append(ReplayWorld{QStringLiteral("w%1").arg(worlds.size()), std::make_shared<const DiscoveryTree>(t)});
        ReplayOptions options;
        options.workers = 4;
        const ReplayResult r = ReplayEngine::runWorlds(worlds, PolicySpec::script(code, QStringLiteral("paying")), options);
        QVERIFY2(r.ok(), qPrintable(r.firstError()));
        const int payoffBranch[] = {5, 3, 4};
        for (qsizetype w = 0; w < r.worlds.size(); ++w) {
            for (const EpisodeResult &e : r.worlds.at(w).episodes) {
                for (const QString &id : e.revealed)
                    QVERIFY2(id.startsWith(QStringLiteral("b%1a").arg(payoffBranch[w])), qPrintable(id));
            }
        }
    }

    // Nothing after the first attempt and every direction alike: neither is asked for.
    QList<DiscoveryTree> flat;
    for (int w = 0; w < 3; ++w) {
        QList<Cell> cells;
        qint64 seq = 0;
        for (int b = 0; b < 6; ++b) {
            for (int a = 0; a < 3; ++a)
                cells.append(makeCell(b, a, seq++, a == 0 ? 0.5 + 0.01 * b : 0.4, QStringLiteral("d%1").arg(b % 3)));
        }
        flat.append(makeTree(cells, 0.1));
    }
    const DevelopmentOutcome none = runWith(flat, &codes);
    QVERIFY2(none.ok, qPrintable(none.error));
    QVERIFY(!none.response.contains(QStringLiteral("late gains in the history")));
    QVERIFY(!none.response.contains(QStringLiteral("paying directions")));
}

void TestDream::promptCarriesTheHistoryStatistics()
{
    const QList<DiscoveryTree> history = payoffHistory();
    QList<const DiscoveryTree *> trees;
    for (const DiscoveryTree &t : history)
        trees.append(&t);
    DevelopmentContext context;
    context.current.version.name = QStringLiteral("builtin:portfolio");
    context.current.version.code = BuiltinPolicies::javaScriptSource(QStringLiteral("portfolio"));
    context.current.value = 0.25;
    context.worldCount = 3;
    context.betas = {0.0, 1.0};
    const QString without = AgentPolicyDeveloper::userMessage(context);
    // (The portfolio's own comments speak of directions; the section is what matters.)
    QVERIFY(!without.contains(QStringLiteral("# What the stored worlds show")));

    context.worldStats = computeHistoryStats(trees);
    const QString user = AgentPolicyDeveloper::userMessage(context);
    QVERIFY(user.contains(QStringLiteral("# What the stored worlds show, per direction")));
    // payoff: 3 worlds, 3 branches, 9 calls, 9 successes, best 1, every branch at attainment 1,
    // gain per call (0.9 per branch) / 3 = 0.3, last gain at attempt 2.
    QVERIFY2(user.contains(QStringLiteral("| payoff | 3 | 3 | 9 | 9 | 1 | 1 | 1 | 0.3 | 2 |")), qPrintable(user));
    QVERIFY(user.contains(QStringLiteral("| alpha | 3 | 3 | 9 | 9 | 0.22 | 0.22 | 0.22 |")));
    QVERIFY(user.indexOf(QStringLiteral("| payoff |")) < user.indexOf(QStringLiteral("| alpha |"))); // highest priority first
    QVERIFY(user.contains(QStringLiteral("Where gains arrive along a branch")));
    QVERIFY(user.contains(QStringLiteral("Caution: these worlds hold only what earlier policies revealed")));
    // The statistics come before the task, after the current version's code.
    QVERIFY(user.indexOf(QStringLiteral("per direction")) > user.indexOf(QStringLiteral("## Its code")));
    QVERIFY(user.indexOf(QStringLiteral("per direction")) < user.indexOf(QStringLiteral("# Task")));
    // The built-in prompt tells the model what the statistics are for.
    QVERIFY(AgentPolicyDeveloper::builtinPrompt().contains(QStringLiteral("per-direction statistics")));
}

void TestDream::agentFailuresAreStoredAndFedBack()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("p.dreamrsi"));
    makeProject(path, synthTrees(2));
    ProjectStore store;
    QVERIFY(store.open(path).result().ok());
    const StoreResult<QList<DreamWorld>> worlds = Dreamer::finishedWorlds(store);
    QVERIFY(worlds.ok());
    QCOMPARE(worlds.value->size(), 2);

    auto model = std::make_shared<ScriptedChatModel>(QStringList{
        answerWith(goodScript), answerWith(syntaxErrorScript), QStringLiteral("I would widen the search, but here is no code."),
        answerWith(BuiltinPolicies::javaScriptSource(QStringLiteral("parallel_refine")))});
    Dreamer dreamer(&store, std::make_shared<AgentPolicyDeveloper>(model, QStringLiteral("You write policies.")));
    QSignalSpy ready(&dreamer, &Dreamer::versionReady);
    const DreamReport report = dreamer.run(*worlds.value, smallSettings(5));
    QVERIFY2(report.error.isEmpty(), qPrintable(report.error));
    QVERIFY(!report.cancelled);
    QCOMPARE(report.versions.size(), 5);
    QCOMPARE(ready.size(), 5);
    QCOMPARE(model->requests().size(), 4);

    const DreamVersion &deployed = report.versions.at(0);
    QCOMPARE(deployed.developed.version.name, QStringLiteral("builtin:portfolio"));
    QVERIFY2(deployed.developed.value.has_value(), qPrintable(deployed.developed.error));
    QVERIFY(report.versions.at(1).developed.value.has_value());
    QCOMPARE(report.versions.at(1).developed.version.code.trimmed(), goodScript.trimmed());
    const QString syntaxError = report.versions.at(2).developed.error;
    QVERIFY(!syntaxError.isEmpty());
    QVERIFY(!report.versions.at(2).developed.value);
    const QString noCode = report.versions.at(3).developed.error;
    QVERIFY2(noCode.contains(QStringLiteral("no fenced code block")), qPrintable(noCode));
    QVERIFY(report.versions.at(4).developed.value.has_value());

    // Fed back: the step after a failure shows the failing version and its error.
    const QList<ChatRequest> requests = model->requests();
    QCOMPARE(requests.at(0).system, QStringLiteral("You write policies."));
    QVERIFY(requests.at(0).user.contains(QStringLiteral("# Current version: builtin:portfolio")));
    QVERIFY(requests.at(0).user.contains(QStringLiteral("frontier (calls, attainment)")));
    QVERIFY(requests.at(0).user.contains(QStringLiteral("round 1: prefix 0 calls")));
    // The history's per-direction statistics (synthetic worlds tag branches d0 … d4).
    QVERIFY(requests.at(0).user.contains(QStringLiteral("# What the stored worlds show, per direction")));
    QVERIFY(requests.at(0).user.contains(QStringLiteral("| direction | worlds | branches | calls | successes | best score |")));
    QVERIFY(requests.at(0).user.contains(QStringLiteral("gain per call")));
    QVERIFY(requests.at(0).user.contains(QStringLiteral("| d0 | 2 | ")));
    QVERIFY(requests.at(0).user.contains(QStringLiteral("Longest stall before a branch improved again")));
    QVERIFY(requests.at(2).user.contains(QStringLiteral("This version FAILED: ") + syntaxError));
    QVERIFY(requests.at(3).user.contains(QStringLiteral("FAILED: ") + noCode));
    QVERIFY(requests.at(3).user.contains(QStringLiteral("- %1: FAILED: %2").arg(report.versions.at(2).developed.version.name, syntaxError)));

    // Stored: every version with prompt and response; failures as error results.
    const StoreResult<QList<PolicyVersion>> stored = store.policyVersions().result();
    QVERIFY(stored.ok());
    for (int i = 1; i < 5; ++i) {
        const PolicyVersion &v = report.versions.at(i).developed.version;
        bool found = false;
        for (const PolicyVersion &s : *stored.value) {
            if (s.id == v.id) {
                found = true;
                QCOMPARE(s.name, v.name);
                QVERIFY(s.origin == PolicyOrigin::Agent);
                QCOMPARE(s.prompt, requests.at(i - 1).user);
                QVERIFY(!s.response.isEmpty());
                QCOMPARE(s.parent, report.versions.at(i - 1).developed.version.id);
            }
        }
        QVERIFY2(found, qPrintable(v.name));
        const StoreResult<QList<ReplayResultRecord>> results = store.replayResults(v.id).result();
        QVERIFY(results.ok());
        QCOMPARE(results.value->size(), 2 * 3); // worlds × β
        const bool failed = i == 2 || i == 3;
        for (const ReplayResultRecord &r : *results.value)
            QCOMPARE(r.error.has_value(), failed);
        if (i == 3)
            QVERIFY(results.value->first().error->contains(QStringLiteral("no fenced code block")));
    }

    // The proposal is the best mean value.
    QVERIFY(report.proposed >= 0);
    QCOMPARE(report.proposed, Dreamer::bestByMeanValue(report.versions));
    for (const DreamVersion &v : report.versions) {
        if (v.developed.value)
            QVERIFY(*v.developed.value <= *report.proposal()->developed.value);
    }
    store.close().waitForFinished();
}

void TestDream::dreamWithImproverKeepsOrImproves()
{
    QTemporaryDir dir;
    QList<QList<QString>> codes;
    for (int run = 0; run < 2; ++run) {
        const QString path = dir.filePath(QStringLiteral("p%1.dreamrsi").arg(run));
        makeProject(path, synthTrees(3, QStringLiteral("plateau")));
        ProjectStore store;
        QVERIFY(store.open(path).result().ok());
        const StoreResult<QList<DreamWorld>> worlds = Dreamer::finishedWorlds(store);
        QVERIFY(worlds.ok());
        Dreamer dreamer(&store, std::make_shared<PolicyImprover>(3));
        const DreamReport report = dreamer.run(*worlds.value, smallSettings(3));
        QVERIFY2(report.error.isEmpty(), qPrintable(report.error));
        QCOMPARE(report.versions.size(), 3);
        QVERIFY(report.proposal());
        const double deployed = report.versions.at(0).developed.value.value();
        QVERIFY(*report.proposal()->developed.value >= deployed);
        QList<QString> mine;
        for (const DreamVersion &v : report.versions) {
            QVERIFY2(v.developed.error.isEmpty(), qPrintable(v.developed.error));
            QCOMPARE(v.developer, v.index == 0 ? QStringLiteral("deployed") : QStringLiteral("builtin-improver"));
            mine.append(v.developed.version.code);
            if (v.index > 0) {
                QVERIFY(v.developed.version.parent != 0);
                QVERIFY(v.developed.version.prompt.contains(QStringLiteral("Built-in policy improver")));
            }
        }
        codes.append(mine);
        store.close().waitForFinished();
    }
    QCOMPARE(codes.at(0), codes.at(1)); // deterministic for a seed
}

// A project's floor is its first approved version, not the deployed one:
// after a thorough version and then a frugal one were approved, the frugal
// one (deployed) falls below the floor its predecessor sets.
void TestDream::floorIsTheFirstApprovedVersion()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("p.dreamrsi"));
    makeProject(path, synthTrees(2, QStringLiteral("plateau")));
    ProjectStore store;
    QVERIFY(store.open(path).result().ok());
    PolicyVersion thorough;
    thorough.name = QStringLiteral("thorough");
    thorough.code = QStringLiteral("function selectBatch(state) { return state.legal.slice(0, state.maxParallelism); }");
    PolicyVersion frugal;
    frugal.name = QStringLiteral("frugal");
    frugal.code = QStringLiteral("function selectBatch(state) { return state.round === 0 ? state.legalRoots.slice(0, 1) : []; }");
    for (PolicyVersion *v : {&thorough, &frugal}) {
        const StoreResult<PolicyVersionId> id = store.addPolicyVersion(*v).result();
        QVERIFY2(id.ok(), qPrintable(id.error));
        v->id = *id.value;
        QVERIFY(store.addApproval(Approval{0, v->id, {}, QStringLiteral("test"), {}, {}}).result().ok());
    }
    const StoreResult<QList<DreamWorld>> worlds = Dreamer::finishedWorlds(store);
    QVERIFY(worlds.ok());
    Dreamer dreamer(&store, std::make_shared<PolicyImprover>(3));
    DreamSettings settings = smallSettings(2);
    settings.noiseCheck = false;
    const DreamReport report = dreamer.run(*worlds.value, settings);
    QVERIFY2(report.error.isEmpty(), qPrintable(report.error));
    QCOMPARE(report.versions.first().developed.version.name, QStringLiteral("frugal")); // deployed: the newest approval
    const FloorCheck &f = report.floor;
    QVERIFY(f.measured);
    QCOMPARE(f.floorVersion, QStringLiteral("thorough"));
    QCOMPARE(f.floor, std::optional<double>(1.0)); // it reveals every cell of every world
    QVERIFY(f.deployedWorst && *f.deployedWorst < 1.0);
    QVERIFY(f.repair);
    QVERIFY2(f.verdict.startsWith(QStringLiteral("the deployed version frugal reaches")), qPrintable(f.verdict));
    // The one dreamed version (a step from the frugal one) does not reveal
    // every cell either: the floor version itself joins the versions and
    // is proposed, and it keeps its own floor.
    const DreamVersion *p = report.proposal();
    QVERIFY(p);
    QCOMPARE(p->developer, QStringLiteral("floor"));
    QCOMPARE(p->index, report.versions.size() - 1);
    QCOMPARE(p->developed.version.id, thorough.id);
    QCOMPARE(*FloorCheck::worstAttainment(*p->developed.result, f.beta), 1.0);
    QCOMPARE(f.chosen, QStringLiteral("thorough"));
    QVERIFY2(f.verdict.contains(QStringLiteral("no dreamed version keeps it; thorough itself is proposed")), qPrintable(f.verdict));
    // With the check off nothing of it is measured.
    settings.floorCheck = false;
    Dreamer unchecked(&store, std::make_shared<PolicyImprover>(3));
    QVERIFY(!unchecked.run(*worlds.value, settings).floor.measured);
    store.close().waitForFinished();
}

// A developer that hands back a script the project already holds (twice in
// one dream, or again in a later dream) gets that stored version: identical
// candidates are not stored twice.
void TestDream::identicalScriptsAreStoredOnce()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("p.dreamrsi"));
    makeProject(path, synthTrees(1));
    ProjectStore store;
    QVERIFY(store.open(path).result().ok());
    const StoreResult<QList<DreamWorld>> worlds = Dreamer::finishedWorlds(store);
    QVERIFY(worlds.ok());
    auto model = std::make_shared<ScriptedChatModel>(QStringList{answerWith(goodScript), answerWith(goodScript)});
    Dreamer dreamer(&store, std::make_shared<AgentPolicyDeveloper>(model, QStringLiteral("p")));
    QStringList messages;
    connect(&dreamer, &Dreamer::message, &dreamer, [&messages](const QString &m) { messages.append(m); });
    const DreamReport report = dreamer.run(*worlds.value, smallSettings(3));
    QVERIFY2(report.error.isEmpty(), qPrintable(report.error));
    QCOMPARE(report.versions.size(), 3);
    const PolicyVersion &first = report.versions.at(1).developed.version;
    const PolicyVersion &again = report.versions.at(2).developed.version;
    QCOMPARE(first.name, QStringLiteral("v1"));
    QCOMPARE(again.id, first.id);
    QCOMPARE(again.name, first.name);
    QVERIFY(report.versions.at(2).developed.value.has_value()); // still valued in this dream
    QVERIFY2(messages.contains(QStringLiteral("version 2: the script of stored version v1, not stored again")),
             qPrintable(messages.join(QLatin1Char('\n'))));
    StoreResult<QList<PolicyVersion>> stored = store.policyVersions().result();
    QVERIFY(stored.ok());
    QCOMPARE(stored.value->size(), 2); // the deployed built-in and v1
    // A later dream handed the same script: v1 again, nothing new stored.
    auto later = std::make_shared<ScriptedChatModel>(QStringList{answerWith(goodScript)});
    Dreamer second(&store, std::make_shared<AgentPolicyDeveloper>(later, QStringLiteral("p")));
    const DreamReport next = second.run(*worlds.value, smallSettings(2));
    QVERIFY2(next.error.isEmpty(), qPrintable(next.error));
    QCOMPARE(next.versions.at(1).developed.version.id, first.id);
    stored = store.policyVersions().result();
    QCOMPARE(stored.value->size(), 2);
    store.close().waitForFinished();
}

void TestDream::cancelFromTheModelStopsTheDream()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("p.dreamrsi"));
    makeProject(path, synthTrees(1));
    ProjectStore store;
    QVERIFY(store.open(path).result().ok());
    const StoreResult<QList<DreamWorld>> worlds = Dreamer::finishedWorlds(store);
    auto model = std::make_shared<ScriptedChatModel>(QStringList{answerWith(goodScript)});
    Dreamer dreamer(&store, std::make_shared<AgentPolicyDeveloper>(model, QStringLiteral("p")));
    model->onCall = [&dreamer](int) { dreamer.cancel(); };
    const DreamReport report = dreamer.run(*worlds.value, smallSettings(6));
    QVERIFY(report.cancelled);
    QCOMPARE(model->requests().size(), 1);
    QCOMPARE(report.versions.size(), 1);
    QCOMPARE(report.proposed, 0); // the deployed version, which finished
    const StoreResult<QList<PolicyVersion>> stored = store.policyVersions().result();
    QCOMPARE(stored.value->size(), 1);
    store.close().waitForFinished();
}

void TestDream::cancelBetweenVersionsStopsTheDream()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("p.dreamrsi"));
    makeProject(path, synthTrees(1));
    ProjectStore store;
    QVERIFY(store.open(path).result().ok());
    const StoreResult<QList<DreamWorld>> worlds = Dreamer::finishedWorlds(store);
    Dreamer dreamer(&store, std::make_shared<PolicyImprover>(2));
    connect(&dreamer, &Dreamer::versionReady, &dreamer, [&dreamer](const DreamVersion &v) {
        if (v.index == 1)
            dreamer.cancel();
    });
    const DreamReport report = dreamer.run(*worlds.value, smallSettings(5));
    QVERIFY(report.cancelled);
    QCOMPARE(report.versions.size(), 2);
    QVERIFY(report.proposal());
    store.close().waitForFinished();
}

void TestDream::autoApprovalRecordsThatItWasAutomatic()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("p.dreamrsi"));
    makeProject(path, synthTrees(2));
    ProjectStore store;
    QVERIFY(store.open(path).result().ok());
    const StoreResult<QList<DreamWorld>> worlds = Dreamer::finishedWorlds(store);
    const DreamSettings settings = smallSettings(2);
    Dreamer dreamer(&store, std::make_shared<PolicyImprover>(2));
    const DreamReport report = dreamer.run(*worlds.value, settings);
    QVERIFY(report.proposal());
    const StoreResult<qint64> id = approveAutomatically(store, report, report.proposed, *worlds.value, QStringLiteral("tester"));
    QVERIFY2(id.ok(), qPrintable(id.error));
    const StoreResult<QList<Approval>> approvals = store.approvals().result();
    QCOMPARE(approvals.value->size(), 1);
    const Approval &a = approvals.value->first();
    QCOMPARE(a.version, report.proposal()->developed.version.id);
    QVERIFY(a.who.contains(QStringLiteral("automatic")));
    QVERIFY(a.note.contains(QStringLiteral("automatically")));
    QCOMPARE(a.evidence.value(QStringLiteral("automatic")).toBool(), true);
    QCOMPARE(a.evidence.value(QStringLiteral("worlds")).toArray().size(), 2);
    QCOMPARE(a.evidence.value(QStringLiteral("value")).toObject().value(QStringLiteral("candidate")).toDouble(),
             *report.proposal()->developed.value);

    // The approved version is the next dream's version 0.
    const StoreResult<PolicyVersion> deployed = Dreamer::deployedVersion(store);
    QVERIFY(deployed.ok());
    QCOMPARE(deployed.value->id, a.version);
    store.close().waitForFinished();
}

void TestDream::dreamCommandJson()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("p.dreamrsi"));
    makeProject(path, synthTrees(2, QStringLiteral("needle")));
    const test::CliRun run = test::runDreamrsi(
        {QStringLiteral("dream"), QStringLiteral("--project"), path, QStringLiteral("--versions"), QStringLiteral("3"),
         QStringLiteral("--agent"), QStringLiteral("builtin"), QStringLiteral("--seed"), QStringLiteral("3"),
         QStringLiteral("--workers"), QStringLiteral("4"), QStringLiteral("--completions"), QStringLiteral("2"),
         QStringLiteral("--auto-approve"), QStringLiteral("--json")});
    const QByteArray &err = run.err;
    QCOMPARE(run.exitCode, 0);
    QVERIFY2(err.contains("dream: version 0/2"), err.constData());
    QVERIFY2(err.contains("imagined C 2 (overrides the project's"), err.constData());
    QJsonParseError parseError;
    const QJsonObject o = QJsonDocument::fromJson(run.out, &parseError).object();
    QCOMPARE(parseError.error, QJsonParseError::NoError);
    const QJsonArray versions = o.value(QStringLiteral("versions")).toArray();
    QCOMPARE(versions.size(), 3);
    QCOMPARE(o.value(QStringLiteral("worlds")).toArray().size(), 2);
    double best = -1e300;
    for (const QJsonValue &v : versions) {
        const QJsonObject vo = v.toObject();
        QVERIFY(vo.value(QStringLiteral("id")).toInteger() > 0);
        QVERIFY(vo.value(QStringLiteral("value")).isDouble());
        QVERIFY(vo.value(QStringLiteral("error")).isNull());
        // A new project values over imagined completions: 2 of each of the 2 worlds.
        QCOMPARE(vo.value(QStringLiteral("worlds")).toArray().size(), 2 * 2);
        QCOMPARE(vo.value(QStringLiteral("worlds")).toArray().at(3).toObject().value(QStringLiteral("completion")).toInt(), 1);
        QCOMPARE(vo.value(QStringLiteral("value")).toDouble(), vo.value(QStringLiteral("imagined_value")).toDouble());
        best = std::max(best, vo.value(QStringLiteral("value")).toDouble());
    }
    QCOMPARE(o.value(QStringLiteral("valuation")).toString(), QStringLiteral("imagined"));
    QCOMPARE(o.value(QStringLiteral("completions")).toInt(), 2);
    // The deployed version is valued over the history as revealed too.
    QVERIFY(versions.at(0).toObject().value(QStringLiteral("revealed_value")).isDouble());
    QCOMPARE(versions.at(0).toObject().value(QStringLiteral("name")).toString(), QStringLiteral("builtin:portfolio"));
    const QJsonObject proposed = o.value(QStringLiteral("proposed")).toObject();
    // The floor check ran (the deployed version is the floor: nothing was approved yet);
    // the best mean value is proposed unless it fell below the floor.
    const QJsonObject floor = o.value(QStringLiteral("floor_check")).toObject();
    QCOMPARE(floor.value(QStringLiteral("floor_version")).toString(), QStringLiteral("builtin:portfolio"));
    QVERIFY(floor.value(QStringLiteral("floor")).isDouble());
    QVERIFY(!floor.value(QStringLiteral("verdict")).toString().isEmpty());
    QCOMPARE(floor.value(QStringLiteral("repair")).toBool(), false);
    // With seed 3 the best mean value falls below the floor: the next best,
    // which keeps it, is proposed (and approved) instead.
    QCOMPARE(floor.value(QStringLiteral("passed")).toBool(), false);
    const QString leader = floor.value(QStringLiteral("candidate")).toString();
    QCOMPARE(floor.value(QStringLiteral("refused")).toArray(), QJsonArray{leader});
    QVERIFY(floor.value(QStringLiteral("candidate_worst")).toDouble() < floor.value(QStringLiteral("floor")).toDouble());
    QCOMPARE(floor.value(QStringLiteral("chosen")).toString(), proposed.value(QStringLiteral("name")).toString());
    QVERIFY(proposed.value(QStringLiteral("name")).toString() != leader);
    QVERIFY(proposed.value(QStringLiteral("value")).toDouble() < best);
    QCOMPARE(o.value(QStringLiteral("approved")).toInteger(), proposed.value(QStringLiteral("id")).toInteger());

    // The approval is in the project: a second dream starts from it.
    ProjectStore store;
    QVERIFY(store.open(path).result().ok());
    const StoreResult<PolicyVersion> deployed = Dreamer::deployedVersion(store);
    QCOMPARE(deployed.value->id, proposed.value(QStringLiteral("id")).toInteger());
    store.close().waitForFinished();
}

void TestDream::dreamCommandUsage()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("p.dreamrsi"));
    makeProject(path, {});
    auto run = [](const QStringList &args, QByteArray *err = nullptr, QByteArray *out = nullptr) {
        const test::CliRun r =
            test::runDreamrsi(QStringList{QStringLiteral("dream")} + args, QProcessEnvironment::systemEnvironment(), 60000);
        if (err)
            *err = r.err;
        if (out)
            *out = r.out;
        return r.exitCode;
    };
    QByteArray err, out;
    QCOMPARE(run({QStringLiteral("--help")}, nullptr, &out), 0);
    QVERIFY(out.contains("--versions"));
    QCOMPARE(run({QStringLiteral("--versions"), QStringLiteral("2")}, &err), 2);
    QVERIFY(err.contains("--project"));
    QCOMPARE(run({QStringLiteral("--project"), path, QStringLiteral("--versions"), QStringLiteral("0")}, &err), 2);
    QVERIFY(err.contains("--versions"));
    QCOMPARE(run({QStringLiteral("--project"), path, QStringLiteral("--agent"), QStringLiteral("oracle")}, &err), 2);
    QVERIFY(err.contains("oracle"));
    QCOMPARE(run({QStringLiteral("--project"), path, QStringLiteral("--bogus")}, &err), 2);
    QCOMPARE(run({QStringLiteral("--project"), path, QStringLiteral("--floor"), QStringLiteral("maybe")}, &err), 2);
    QVERIFY2(err.contains("--floor takes on or off (got 'maybe')"), err.constData());
    QCOMPARE(run({QStringLiteral("--project"), path}, &err), 1);
    QVERIFY2(err.contains("no finished iteration"), err.constData());
}

QTEST_GUILESS_MAIN(TestDream)
#include "tst_dream.moc"
