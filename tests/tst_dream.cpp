// Dreaming: tunables, the built-in improver, the policy-development agent on
// a stand-in chat model (good script, syntax error, no code block), failures
// stored and fed back, the best-by-mean proposal, cancel, `dreamrsi dream`.
#include "loop/agentpolicydeveloper.h"
#include "loop/autoapproval.h"
#include "loop/dreamer.h"
#include "loop/policyimprover.h"
#include "loop/policytunables.h"

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

DreamSettings smallSettings(int versions)
{
    DreamSettings s;
    s.versions = versions;
    s.replay.workers = 4;
    s.replay.betas = QList<double>{0.0, 0.5, 1.0};
    s.memoryLimitBytes = qint64(2048) << 20;
    s.wallLimitMs = 120000;
    s.seed = 5;
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
    void improverIsDeterministicAndClimbs();
    void agentFailuresAreStoredAndFedBack();
    void dreamWithImproverKeepsOrImproves();
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
    QCOMPARE(names, (QStringList{QStringLiteral("ROOT_ROUNDING"), QStringLiteral("STALL_BASE"), QStringLiteral("STALL_SLOPE"),
                                 QStringLiteral("REPAIR_BASE"), QStringLiteral("REPAIR_SLOPE"), QStringLiteral("PATIENCE_BASE"),
                                 QStringLiteral("PATIENCE_SLOPE"), QStringLiteral("RECOVERY_MODE")}));
    const PolicyTunable &rounding = tunables.at(0);
    QCOMPARE(rounding.value, 0.5);
    QVERIFY(!rounding.integer);
    QCOMPARE(rounding.low.value_or(-1), 0.0);
    QCOMPARE(rounding.high.value_or(-1), 1.0);
    QVERIFY(tunables.at(2).integer);
    QCOMPARE(tunables.at(7).choices, (QList<double>{0, 1, 2}));

    // An edit changes exactly that literal; the result parses again.
    const QString edited = PolicyTunables::withValue(portfolio, tunables.at(2), 5);
    QVERIFY(edited.contains(QStringLiteral("const STALL_SLOPE = 5;")));
    QCOMPARE(edited.size(), portfolio.size());
    const QList<PolicyTunable> again = PolicyTunables::parse(edited);
    QCOMPARE(again.size(), tunables.size());
    QCOMPARE(again.at(2).value, 5.0);
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
    QCOMPARE(evaluations, 4);
    const DevelopmentOutcome b = improver.develop(context, cancel);
    QVERIFY(b.ok);
    QCOMPARE(b.code, a.code); // same seed, same script
    QVERIFY(a.code != context.current.version.code);
    QVERIFY(a.response.contains(QStringLiteral("Candidates replayed (4)")));

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
    QVERIFY(deployed.developed.value.has_value());
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
    QProcess p;
    p.start(QStringLiteral(DREAMRSI_BIN_DIR "/dreamrsi"),
            {QStringLiteral("dream"), QStringLiteral("--project"), path, QStringLiteral("--versions"), QStringLiteral("3"),
             QStringLiteral("--agent"), QStringLiteral("builtin"), QStringLiteral("--seed"), QStringLiteral("3"),
             QStringLiteral("--workers"), QStringLiteral("4"), QStringLiteral("--auto-approve"), QStringLiteral("--json")});
    QVERIFY(p.waitForFinished(300000));
    const QByteArray err = p.readAllStandardError();
    QCOMPARE(p.exitCode(), 0);
    QVERIFY2(err.contains("dream: version 0/2"), err.constData());
    QJsonParseError parseError;
    const QJsonObject o = QJsonDocument::fromJson(p.readAllStandardOutput(), &parseError).object();
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
        QCOMPARE(vo.value(QStringLiteral("worlds")).toArray().size(), 2);
        best = std::max(best, vo.value(QStringLiteral("value")).toDouble());
    }
    QCOMPARE(versions.at(0).toObject().value(QStringLiteral("name")).toString(), QStringLiteral("builtin:portfolio"));
    const QJsonObject proposed = o.value(QStringLiteral("proposed")).toObject();
    QCOMPARE(proposed.value(QStringLiteral("value")).toDouble(), best);
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
        QProcess p;
        p.start(QStringLiteral(DREAMRSI_BIN_DIR "/dreamrsi"), QStringList{QStringLiteral("dream")} + args);
        p.waitForFinished(60000);
        if (err)
            *err = p.readAllStandardError();
        if (out)
            *out = p.readAllStandardOutput();
        return p.exitCode();
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
    QCOMPARE(run({QStringLiteral("--project"), path}, &err), 1);
    QVERIFY2(err.contains("no finished iteration"), err.constData());
}

QTEST_GUILESS_MAIN(TestDream)
#include "tst_dream.moc"
