// Steering a live round (interventions between batches): a scripted policy
// that records what it saw shows that `close` takes a branch out of the
// legal list for good, `refine` puts the leaf first in the next batch and
// leaves the policy W less the pins and a legal list without them, hints
// reach the agent (a hint naming a direction asks for it) and tag the
// attempt, `pause` holds the round until `continue`; refusals name the
// branch; every applied request is a stored event. A second process
// (round_helper) is steered with `dreamrsi steer`, killed with SIGKILL and
// resumed: what was acknowledged is honoured. `steer` refuses bad input.
#include "clirunsupport.h"
#include "roundtestsupport.h"
#include "storetestsupport.h"

#include "backend/localevaluationbackend.h"
#include "loop/round/roundrunner.h"
#include "loop/round/roundtree.h"
#include "loop/round/steeringbook.h"
#include "loop/round/steeringinbox.h"
#include "policy/policyspec.h"
#include "project/projectreplay.h"
#include "replay/replayengine.h"
#include "store/projectstore.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QSet>
#include <QJsonDocument>
#include <QJsonObject>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <pwd.h>
#include <unistd.h>

using namespace dreamrsi;
using dreamrsi::test::FakeAgent;
using dreamrsi::test::take;

namespace {

// Takes the first legal ids up to maxParallelism and records what it saw;
// in round 2 it hands the record back as its error.
const char *const recorder = R"js(
var seen = [];
function planGrid(context) { return {branches: 4, refinements: 3, reason: "steering grid 4x3"}; }
function selectBatch(state) {
    seen.push({round: state.round, W: state.maxParallelism, legal: state.legal, steering: state.steering});
    if (state.round === 2)
        throw new Error("SEEN " + JSON.stringify(seen));
    return state.legal.slice(0, state.maxParallelism);
}
)js";

// Refines everything it may, round after round.
const char *const greedy = R"js(
function planGrid(context) { return {branches: 3, refinements: 2, reason: "pause grid 3x2"}; }
function selectBatch(state) { return state.legal.slice(0, state.maxParallelism); }
)js";

QString binary()
{
    return test::dreamrsiProgram();
}

QString helperPath()
{
    return QCoreApplication::applicationDirPath() + QStringLiteral("/round_helper");
}

SteeringRequest request(const QString &action, std::optional<int> branch = std::nullopt, const QString &text = {})
{
    SteeringRequest r;
    r.action = action;
    r.branch = branch;
    r.text = text;
    r.by = QStringLiteral("tester");
    r.why = QStringLiteral("because ") + action;
    return r;
}

/// The answer to request `id`, waiting for it (not in a QTRY: taking it removes it).
std::optional<SteeringAck> waitForAck(const QString &path, const QString &id)
{
    std::optional<SteeringAck> ack;
    for (int i = 0; i < 1200 && !(ack = SteeringInbox::takeAck(path, id)); ++i)
        QTest::qWait(50);
    return ack;
}

test::TextRun runCli(const QStringList &args, int timeoutMs = 60000)
{
    return test::runText(args, timeoutMs);
}

} // namespace

class TestLoopSteering : public QObject
{
    Q_OBJECT
private slots:
    void init();
    void cleanup();
    void interventionsChangeTheNextBatch();
    void pauseHoldsTheRoundUntilContinue();
    void roundWithoutSteeringIsRefused();
    void nameWithoutUserComesFromTheSystem();
    void bookRebuildsFromEvents();
    void secondProcessSteersAndSurvivesKill();
    void steerRefusesBadInput();
    void manualRoundReplaysFromItsRecordedPolicy();
    void replayAppliesSteeringOnlyWhenAsked();

private:
    QString taskWithDirections();
    RoundSummary runToEnd(RoundRunner &runner, const bool &finished);

    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<ProjectStore> m_store;
    QString m_path;
};

void TestLoopSteering::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    m_path = m_dir->filePath(QStringLiteral("steer.dreamrsi"));
    m_store = std::make_unique<ProjectStore>();
    take(m_store->create(m_path, ProjectInfo()));
    for (const auto &[name, code] : {std::pair{"recorder", recorder}, std::pair{"greedy", greedy}}) {
        PolicyVersion v;
        v.name = QString::fromLatin1(name);
        v.code = QString::fromLatin1(code);
        take(m_store->addPolicyVersion(v));
    }
}

void TestLoopSteering::cleanup()
{
    m_store.reset();
    m_dir.reset();
}

QString TestLoopSteering::taskWithDirections()
{
    const QString dir = m_dir->filePath(QStringLiteral("task"));
    QDir().mkpath(dir);
    // The sandbox's user must reach the task through the temporary folder (0700).
    QFile::setPermissions(m_dir->path(), QFile::permissions(m_dir->path()) | QFileDevice::ExeGroup | QFileDevice::ExeOther);
    const QDir toy(test::toyTaskDir());
    for (const QString &name : toy.entryList(QDir::Files))
        QFile::copy(toy.filePath(name), dir + QLatin1Char('/') + name);
    QFile spec(dir + QStringLiteral("/task.json"));
    if (!spec.open(QIODevice::ReadOnly))
        return {};
    QJsonObject o = QJsonDocument::fromJson(spec.readAll()).object();
    spec.close();
    o.insert(QStringLiteral("directions"), QJsonArray{QStringLiteral("alpha"), QStringLiteral("gamma")});
    if (!spec.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return {};
    spec.write(QJsonDocument(o).toJson());
    return dir;
}

// `finished` is set by a connection made before the runner started: the round may end while
// the test is still reading acknowledgements, and a connection made here would miss it.
RoundSummary TestLoopSteering::runToEnd(RoundRunner &runner, const bool &finished)
{
    [&] { QTRY_VERIFY_WITH_TIMEOUT(finished, 120000); }();
    runner.wait();
    return runner.summary();
}

void TestLoopSteering::interventionsChangeTheNextBatch()
{
    auto agent = std::make_shared<FakeAgent>();
    agent->closeGate();
    RoundConfig c;
    c.task = taskWithDirections();
    c.agent.kind = QStringLiteral("fake");
    c.policy = PolicyChoice::stored(QStringLiteral("recorder"));
    c.workers = 3;
    c.evaluateBaseline = false;
    c.acceptSteering = true;
    RoundRunner runner(m_store.get(), c, agent, std::make_shared<LocalEvaluationBackend>());
    bool finished = false;
    connect(&runner, &RoundRunner::finished, this, [&finished] { finished = true; });
    connect(&runner, &RoundRunner::logLine, this, [](const QString &line) { qInfo("round: %s", qPrintable(line)); },
            Qt::DirectConnection);
    QList<SteeringEvent> signalled;
    connect(&runner, &RoundRunner::steered, this, [&](const SteeringEvent &e) { signalled.append(e); });
    runner.start();
    // Round 1 (b0a0 b1a0 b2a0) is held by the agent's gate while the requests arrive.
    QTRY_COMPARE_WITH_TIMEOUT(agent->waiting.load(), 3, 30000);
    QVERIFY(SteeringInbox::readLive(m_path).has_value());
    QList<SteeringRequest> requests = {request(QStringLiteral("close"), 1), request(QStringLiteral("refine"), 2),
                                       request(QStringLiteral("hint"), 0, QStringLiteral("try gamma here")),
                                       request(QStringLiteral("hint"), std::nullopt, QStringLiteral("a fresh idea")),
                                       request(QStringLiteral("close"), 7), request(QStringLiteral("refine"), 3),
                                       request(QStringLiteral("continue"))};
    requests[3].newBranch = true;
    for (SteeringRequest &r : requests) {
        const Result<Done> submitted = SteeringInbox::submit(m_path, &r);
        QVERIFY2(submitted.ok(), qPrintable(submitted.error));
    }
    agent->openGate();
    QList<SteeringAck> acks;
    for (const SteeringRequest &r : std::as_const(requests)) {
        std::optional<SteeringAck> ack;
        ack = waitForAck(m_path, r.id);
        QVERIFY(ack.has_value());
        acks.append(*ack);
    }
    const RoundSummary s = runToEnd(runner, finished);

    for (int i = 0; i < 4; ++i)
        QVERIFY2(acks.at(i).applied, qPrintable(acks.at(i).message));
    QVERIFY(!acks.at(4).applied);
    QCOMPARE(acks.at(4).message, QStringLiteral("branch b7 is not opened in this iteration"));
    QVERIFY(!acks.at(5).applied);
    QCOMPARE(acks.at(5).message, QStringLiteral("branch b3 is not opened in this iteration"));
    QVERIFY(!acks.at(6).applied);
    QCOMPARE(acks.at(6).message, QStringLiteral("the round is not paused"));
    QCOMPARE(signalled.size(), 4);

    // What the policy saw, in order.
    QVERIFY(!s.ok());
    const qsizetype at = s.error.indexOf(QStringLiteral("SEEN "));
    QVERIFY2(at >= 0, qPrintable(s.error));
    const qsizetype end = s.error.lastIndexOf(QLatin1Char(']')); // after it: " (line N)"
    const QJsonArray seen = QJsonDocument::fromJson(s.error.mid(at + 5, end - at - 4).toUtf8()).array();
    QCOMPARE(seen.size(), 3);
    const QJsonObject r0 = seen.at(0).toObject();
    QCOMPARE(r0.value(QStringLiteral("W")).toInt(), 3);
    QCOMPARE(r0.value(QStringLiteral("steering")).toObject().value(QStringLiteral("closed")).toArray().size(), 0);
    const QJsonObject r1 = seen.at(1).toObject();
    QCOMPARE(r1.value(QStringLiteral("W")).toInt(), 2); // W 3 less one pin
    QCOMPARE(r1.value(QStringLiteral("legal")).toArray(), (QJsonArray{QStringLiteral("b0a1"), QStringLiteral("b3a0")}));
    const QJsonObject st1 = r1.value(QStringLiteral("steering")).toObject();
    QCOMPARE(st1.value(QStringLiteral("closed")).toArray(), QJsonArray{1});
    QCOMPARE(st1.value(QStringLiteral("pinned")).toArray(), QJsonArray{QStringLiteral("b2a1")});
    const QJsonObject hints = st1.value(QStringLiteral("hints")).toObject();
    QCOMPARE(hints.value(QStringLiteral("0")).toString(), QStringLiteral("try gamma here"));
    QCOMPARE(hints.value(QStringLiteral("new")).toString(), QStringLiteral("a fresh idea"));
    const QJsonObject r2 = seen.at(2).toObject();
    QCOMPARE(r2.value(QStringLiteral("W")).toInt(), 3);
    QCOMPARE(r2.value(QStringLiteral("legal")).toArray(),
             (QJsonArray{QStringLiteral("b0a2"), QStringLiteral("b2a2"), QStringLiteral("b3a1")}));
    QCOMPARE(r2.value(QStringLiteral("steering")).toObject().value(QStringLiteral("closed")).toArray(), QJsonArray{1});
    QCOMPARE(r2.value(QStringLiteral("steering")).toObject().value(QStringLiteral("pinned")).toArray().size(), 0);

    // The second batch: the pin first, then the policy's two.
    QFile round1(take(m_store->projectInfo()).artifactDir + QStringLiteral("/attempts/%1/rounds/1.json").arg(s.iteration));
    QVERIFY(round1.open(QIODevice::ReadOnly));
    QCOMPARE(QJsonDocument::fromJson(round1.readAll()).object().value(QStringLiteral("batch")).toArray(),
             (QJsonArray{QStringLiteral("b2a1"), QStringLiteral("b0a1"), QStringLiteral("b3a0")}));

    // Hints: to the agent, the attempt tagged, the branch keeps its direction.
    const QHash<QString, QString> given = agent->hints();
    QCOMPARE(given.value(QStringLiteral("b0a1")), QStringLiteral("try gamma here"));
    QCOMPARE(given.value(QStringLiteral("b3a0")), QStringLiteral("a fresh idea"));
    QCOMPARE(given.size(), 2);
    QCOMPARE(agent->directions().value(QStringLiteral("b0a1")).first, QStringLiteral("direction:gamma"));
    QCOMPARE(agent->directions().value(QStringLiteral("b0a0")).first, QStringLiteral("direction:alpha"));
    const IterationData data = take(m_store->iterationData(s.iteration));
    for (const Cell &cell : data.cells) {
        if (cell.id == QLatin1String("b0a1"))
            QCOMPARE(cell.tags, (QStringList{QStringLiteral("direction:alpha"), QStringLiteral("hint")}));
        else if (cell.id == QLatin1String("b3a0"))
            QVERIFY(cell.tags.contains(QStringLiteral("hint")));
        else
            QVERIFY2(!cell.tags.contains(QStringLiteral("hint")), qPrintable(cell.id));
        QVERIFY2(cell.branch != 1 || cell.attempt == 0, qPrintable(cell.id)); // closed
    }

    // Stored events: time, round, who, what, why.
    const QList<SteeringEvent> events = take(m_store->steeringEvents(s.iteration));
    QCOMPARE(events.size(), 4);
    QCOMPARE(events.at(0).action, QStringLiteral("close"));
    QCOMPARE(events.at(0).branch.value_or(-1), 1);
    QCOMPARE(events.at(0).round.value_or(-1), 1);
    QCOMPARE(events.at(0).who, QStringLiteral("tester"));
    QCOMPARE(events.at(0).why, QStringLiteral("because close"));
    QVERIFY(events.at(0).time.isValid());
    QCOMPARE(events.at(1).target, QStringLiteral("b2a1"));
    QCOMPARE(events.at(2).target, QStringLiteral("b0a1"));
    QCOMPARE(events.at(3).target, QStringLiteral("new"));
    QCOMPARE(events.at(3).text, QStringLiteral("a fresh idea"));
    // The round has ended: nobody accepts requests any more.
    QVERIFY(!SteeringInbox::readLive(m_path).has_value());
}

void TestLoopSteering::pauseHoldsTheRoundUntilContinue()
{
    auto agent = std::make_shared<FakeAgent>();
    agent->closeGate();
    RoundConfig c;
    c.task = test::toyTaskDir();
    c.agent.kind = QStringLiteral("fake");
    c.policy = PolicyChoice::stored(QStringLiteral("greedy"));
    c.workers = 3;
    c.evaluateBaseline = false;
    c.acceptSteering = true;
    RoundRunner runner(m_store.get(), c, agent, std::make_shared<LocalEvaluationBackend>());
    bool finished = false;
    connect(&runner, &RoundRunner::finished, this, [&finished] { finished = true; });
    bool paused = false;
    connect(&runner, &RoundRunner::pausedChanged, this, [&](bool p) { paused = p; });
    runner.start();
    QTRY_COMPARE_WITH_TIMEOUT(agent->waiting.load(), 3, 30000);
    SteeringRequest pause = request(QStringLiteral("pause"));
    QVERIFY(SteeringInbox::submit(m_path, &pause).ok());
    agent->openGate();
    std::optional<SteeringAck> ack;
    ack = waitForAck(m_path, pause.id);
    QVERIFY(ack.has_value());
    QVERIFY2(ack->applied, qPrintable(ack->message));
    QTRY_VERIFY_WITH_TIMEOUT(paused, 30000);
    // Held after the first batch: no attempt of round 2 has started.
    QCOMPARE(agent->calls.load(), 3);
    SteeringRequest again = request(QStringLiteral("pause"));
    QVERIFY(SteeringInbox::submit(m_path, &again).ok());
    ack = waitForAck(m_path, again.id);
    QVERIFY(ack.has_value());
    QVERIFY(!ack->applied);
    QCOMPARE(ack->message, QStringLiteral("the round is already paused"));
    QCOMPARE(agent->calls.load(), 3);
    SteeringRequest go = request(QStringLiteral("continue"));
    QVERIFY(SteeringInbox::submit(m_path, &go).ok());
    const RoundSummary s = runToEnd(runner, finished);
    QVERIFY2(s.ok(), qPrintable(s.error));
    QCOMPARE(s.counters.cells, 9);
    const QList<SteeringEvent> events = take(m_store->steeringEvents(s.iteration));
    QCOMPARE(events.size(), 2);
    QCOMPARE(events.at(0).action, QStringLiteral("pause"));
    QCOMPARE(events.at(1).action, QStringLiteral("continue"));
}

void TestLoopSteering::roundWithoutSteeringIsRefused()
{
    // The project is open here (this process is its writer) but no round
    // accepting steering runs: `steer` says so and exits 1.
    const test::TextRun r = runCli({QStringLiteral("steer"), QStringLiteral("--project"), m_path, QStringLiteral("close"),
                             QStringLiteral("b1")});
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains(QStringLiteral("does not accept steering")), qPrintable(r.err));
    QVERIFY2(r.err.contains(QStringLiteral("--accept-steering")), qPrintable(r.err));
    // Asked by the process that holds the project itself (a window whose
    // followed round ended): no round runs, and it does not name itself.
    const QString own = SteeringInbox::whyNotAccepting(m_path, QStringLiteral("round"));
    QVERIFY2(own.startsWith(QStringLiteral("no round is running")), qPrintable(own));
    QVERIFY2(!own.contains(QStringLiteral("does not accept steering")), qPrintable(own));
    QVERIFY2(!own.contains(QString::number(QCoreApplication::applicationPid())), qPrintable(own));
    m_store.reset();
    const test::TextRun closed = runCli({QStringLiteral("steer"), QStringLiteral("--project"), m_path, QStringLiteral("pause")});
    QCOMPARE(closed.exitCode, 1);
    QVERIFY2(closed.err.contains(QStringLiteral("no round is running")), qPrintable(closed.err));
    // Nothing left in the inbox.
    QVERIFY(SteeringInbox::pending(m_path).isEmpty());
}

void TestLoopSteering::nameWithoutUserComesFromTheSystem()
{
    // $USER first; without it, the account's login name from the system.
    const QByteArray saved = qgetenv("USER");
    qputenv("USER", "grace");
    QCOMPARE(SteeringInbox::accountName(), QStringLiteral("grace"));
    qunsetenv("USER");
    const passwd *entry = getpwuid(geteuid());
    QVERIFY2(entry && entry->pw_name, "this account has no entry in the system's user database");
    QCOMPARE(SteeringInbox::accountName(), QString::fromLocal8Bit(entry->pw_name));
    QCOMPARE(SteeringInbox::loginName(), QString::fromLocal8Bit(entry->pw_name));
    if (!saved.isEmpty())
        qputenv("USER", saved);
}

void TestLoopSteering::bookRebuildsFromEvents()
{
    // What a resumed round recovers: the closings, the pins not yet used,
    // hints by target, new-branch hints given to the first new branch of a
    // later batch.
    auto event = [](const QString &action, int round, std::optional<int> branch, const QString &target,
                    const QString &text = {}) {
        SteeringEvent e;
        e.action = action;
        e.round = round;
        e.branch = branch;
        e.target = target;
        e.text = text;
        return e;
    };
    const QList<SteeringEvent> events = {event(QStringLiteral("close"), 1, 1, {}),
                                         event(QStringLiteral("refine"), 1, 2, QStringLiteral("b2a1")),
                                         event(QStringLiteral("hint"), 1, std::nullopt, QStringLiteral("new"), QStringLiteral("n")),
                                         event(QStringLiteral("refine"), 2, 0, QStringLiteral("b0a2")),
                                         event(QStringLiteral("hint"), 2, 0, QStringLiteral("b0a2"), QStringLiteral("h"))};
    SteeringBook book;
    // Round 1's batch was recorded (it used the first pin and the new hint);
    // round 2's was not: its pin is still waiting.
    book.rebuild(events, {{QStringLiteral("b0a0"), QStringLiteral("b1a0"), QStringLiteral("b2a0")},
                          {QStringLiteral("b2a1"), QStringLiteral("b0a1"), QStringLiteral("b3a0")}});
    QVERIFY(book.isClosed(1));
    QVERIFY(!book.isClosed(2));
    QCOMPARE(book.hintFor(QStringLiteral("b3a0")), QStringLiteral("n"));
    QCOMPARE(book.hintFor(QStringLiteral("b0a2")), QStringLiteral("h"));
    RoundTree tree(GridPlan{4, 3, QString()}, std::nullopt);
    for (const char *id : {"b0a0", "b1a0", "b2a0", "b2a1", "b0a1", "b3a0"}) {
        Cell cell;
        cell.id = QString::fromLatin1(id);
        RoundTree::parseId(cell.id, &cell.branch, &cell.attempt);
        cell.seq = tree.nextSeq();
        cell.failClass = QStringLiteral("ok");
        QVERIFY(tree.add(cell));
    }
    QCOMPARE(book.pins(tree, 3), QStringList{QStringLiteral("b0a2")});
    const QList<CellMeta> legal = book.policyLegal(tree.legal(), book.pins(tree, 3));
    QStringList ids;
    for (const CellMeta &m : legal)
        ids.append(m.id);
    QCOMPARE(ids, (QStringList{QStringLiteral("b2a2"), QStringLiteral("b3a1")}));
    // Refusals name the branch.
    SteeringRequest r = request(QStringLiteral("refine"), 1);
    QCOMPARE(book.check(r, tree), QStringLiteral("branch b1 is already closed"));
    r.branch = 0;
    QCOMPARE(book.check(r, tree), QStringLiteral("branch b0 is already pinned first in the next batch"));
    RoundTree small(GridPlan{2, 0, QString()}, std::nullopt);
    Cell root;
    root.id = QStringLiteral("b0a0");
    root.failClass = QStringLiteral("ok");
    QVERIFY(small.add(root));
    r.branch = 0;
    QCOMPARE(SteeringBook().check(r, small),
             QStringLiteral("branch b0 is finished: its leaf b0a0 is the last the grid allows (0 refinements)"));
}

void TestLoopSteering::secondProcessSteersAndSurvivesKill()
{
    QVERIFY(QFileInfo::exists(helperPath()));
    m_store.reset(); // the helper is the project's writer
    const QString gate = m_dir->filePath(QStringLiteral("gate"));
    QProcess helper;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("DREAMRSI_HELPER_STEER"), QStringLiteral("1"));
    helper.setProcessEnvironment(env);
    helper.start(helperPath(), {m_path, test::toyTaskDir(), QStringLiteral("0"), gate});
    QVERIFY(helper.waitForStarted());
    QTRY_VERIFY_WITH_TIMEOUT(SteeringInbox::readLive(m_path).has_value(), 60000);

    // Three `steer` processes wait for their answers while round 1 is held.
    auto steer = [&](const QStringList &words) {
        auto p = std::make_unique<QProcess>();
        p->start(binary(), QStringList{QStringLiteral("steer"), QStringLiteral("--project"), m_path, QStringLiteral("--by"),
                                       QStringLiteral("second"), QStringLiteral("--why"), QStringLiteral("test")}
                               + words);
        return p;
    };
    std::vector<std::unique_ptr<QProcess>> steering;
    steering.push_back(steer({QStringLiteral("close"), QStringLiteral("b1")}));
    steering.push_back(steer({QStringLiteral("refine"), QStringLiteral("2")}));
    steering.push_back(steer({QStringLiteral("hint"), QStringLiteral("b0"), QStringLiteral("look"), QStringLiteral("closer")}));
    for (auto &p : steering)
        QVERIFY(p->waitForStarted());
    // Their requests are in the inbox before the gate opens.
    QTRY_COMPARE_WITH_TIMEOUT(SteeringInbox::pending(m_path).size(), qsizetype(3), 30000);
    QFile opened(gate);
    QVERIFY(opened.open(QIODevice::WriteOnly));
    opened.close();
    for (auto &p : steering) {
        QVERIFY(test::waitForExit(*p, 120000));
        QCOMPARE(p->exitCode(), 0);
        QVERIFY(QString::fromUtf8(p->readAllStandardOutput()).startsWith(QStringLiteral("applied: ")));
    }
    // Acknowledged: now the round dies.
    helper.kill();
    helper.waitForFinished(30000);
    const QByteArray said = helper.readAllStandardOutput();
    IterationId iteration = 0;
    for (const QByteArray &line : said.split('\n')) {
        if (line.startsWith("iteration "))
            iteration = line.mid(10).toLongLong();
    }
    QVERIFY(iteration != 0);

    // Resumed (the kernel drops the dead writer's lock; retry until it has).
    QProcess resumed;
    resumed.setProcessEnvironment(env);
    for (int tries = 0; tries < 50; ++tries) {
        resumed.start(helperPath(), {m_path, test::toyTaskDir(), QString::number(iteration)});
        QVERIFY(resumed.waitForFinished(120000));
        const QString err = QString::fromUtf8(resumed.readAllStandardError());
        if (resumed.exitCode() == 0 || !err.contains(QStringLiteral("already open for writing")))
            break;
        QTest::qWait(200);
    }
    QCOMPARE(resumed.exitCode(), 0);

    ProjectStore store;
    take(store.open(m_path));
    const IterationData data = take(store.iterationData(iteration));
    QCOMPARE(data.info.status, IterationStatus::Finished);
    QSet<QString> ids;
    for (const Cell &cell : data.cells) {
        ids.insert(cell.id);
        QVERIFY2(cell.branch != 1 || cell.attempt == 0, qPrintable(cell.id + QStringLiteral(": b1 was closed")));
        if (cell.id == QLatin1String("b0a1"))
            QVERIFY(cell.tags.contains(QStringLiteral("hint")));
    }
    QVERIFY(ids.contains(QStringLiteral("b2a1")));
    QVERIFY(ids.contains(QStringLiteral("b0a1")));
    // The refined b2a1 and the hinted b0a1 went ahead of the policy's picks
    // in round 2, in the order their requests reached the inbox (the three
    // `steer` processes run at once, so that order is theirs, not ours).
    QFile round1(take(store.projectInfo()).artifactDir + QStringLiteral("/attempts/%1/rounds/1.json").arg(iteration));
    QVERIFY(round1.open(QIODevice::ReadOnly));
    const QJsonArray batch = QJsonDocument::fromJson(round1.readAll()).object().value(QStringLiteral("batch")).toArray();
    QVERIFY(batch.size() >= 2);
    const QSet<QString> ahead{batch.at(0).toString(), batch.at(1).toString()};
    QCOMPARE(ahead, (QSet<QString>{QStringLiteral("b2a1"), QStringLiteral("b0a1")}));
    const QList<SteeringEvent> events = take(store.steeringEvents(iteration));
    QCOMPARE(events.size(), 3);
    for (const SteeringEvent &e : events) {
        QCOMPARE(e.who, QStringLiteral("second"));
        QCOMPARE(e.why, QStringLiteral("test"));
    }
}

void TestLoopSteering::steerRefusesBadInput()
{
    const QString p = m_path;
    struct Case
    {
        QStringList args;
        QString message;
    };
    const QList<Case> cases = {
        {{QStringLiteral("close"), QStringLiteral("b1")}, QStringLiteral("--project is required")},
        {{QStringLiteral("--project"), p}, QStringLiteral("what to do is missing")},
        {{QStringLiteral("--project"), p, QStringLiteral("close")}, QStringLiteral("close takes one branch")},
        {{QStringLiteral("--project"), p, QStringLiteral("close"), QStringLiteral("x3")}, QStringLiteral("'x3' is not a branch")},
        {{QStringLiteral("--project"), p, QStringLiteral("refine"), QStringLiteral("-1")}, QStringLiteral("is not a branch")},
        {{QStringLiteral("--project"), p, QStringLiteral("hint"), QStringLiteral("b2")}, QStringLiteral("hint takes a branch (or new) and a text")},
        {{QStringLiteral("--project"), p, QStringLiteral("hint"), QStringLiteral("old"), QStringLiteral("text")}, QStringLiteral("'old' is not a branch")},
        {{QStringLiteral("--project"), p, QStringLiteral("pause"), QStringLiteral("now")}, QStringLiteral("pause takes no argument")},
        {{QStringLiteral("--project"), p, QStringLiteral("explode"), QStringLiteral("b1")}, QStringLiteral("unknown action 'explode'")},
        {{QStringLiteral("--project"), p, QStringLiteral("--timeout"), QStringLiteral("soon"), QStringLiteral("pause")}, QStringLiteral("--timeout must be")},
        {{QStringLiteral("--project"), p, QStringLiteral("--by"), QStringLiteral(""), QStringLiteral("pause")}, QStringLiteral("--by needs a name")},
    };
    for (const Case &c : cases) {
        const test::TextRun r = runCli(QStringList{QStringLiteral("steer")} + c.args);
        QVERIFY2(r.exitCode == 2, qPrintable(c.args.join(u' ') + QStringLiteral(" → ") + QString::number(r.exitCode) + r.err));
        QVERIFY2(r.err.contains(c.message), qPrintable(r.err));
    }
    const test::TextRun missing = runCli({QStringLiteral("steer"), QStringLiteral("--project"), m_dir->filePath(QStringLiteral("none.dreamrsi")),
                                   QStringLiteral("pause")});
    QCOMPARE(missing.exitCode, 1);
    QVERIFY2(missing.err.contains(QStringLiteral("no project")), qPrintable(missing.err));
    // `round --policy manual` is the workbench's only.
    const test::TextRun manual = runCli({QStringLiteral("round"), QStringLiteral("--project"), m_dir->filePath(QStringLiteral("m.dreamrsi")),
                                  QStringLiteral("--task"), test::toyTaskDir(), QStringLiteral("--agent"), QStringLiteral("builtin"),
                                  QStringLiteral("--policy"), QStringLiteral("manual")});
    QCOMPARE(manual.exitCode, 2);
    QVERIFY2(manual.err.contains(QStringLiteral("manual policy exists in the workbench only")), qPrintable(manual.err));
}

void TestLoopSteering::manualRoundReplaysFromItsRecordedPolicy()
{
    RoundConfig c;
    c.task = test::toyTaskDir();
    c.agent.kind = QStringLiteral("fake");
    c.policy = PolicyChoice::manual();
    c.workers = 2;
    c.evaluateBaseline = false;
    c.fallbackGrid = GridPlan{3, 2, QStringLiteral("manual grid")};
    RoundRunner runner(m_store.get(), c, std::make_shared<FakeAgent>(), std::make_shared<LocalEvaluationBackend>());
    QList<QStringList> offered;
    connect(&runner, &RoundRunner::batchWanted, this,
            [&](int, const QStringList &legal, int workers) {
                QCOMPARE(workers, 2);
                offered.append(legal);
            });
    bool ended = false; // connected before the start: the last batch may end the round at once
    connect(&runner, &RoundRunner::finished, this, [&ended] { ended = true; });
    runner.start();
    auto send = [&](const QString &action, const QString &text, std::optional<int> branch = std::nullopt) {
        SteeringRequest r = request(action, branch, text);
        if (const Result<Done> submitted = SteeringInbox::submit(m_path, &r); !submitted.ok())
            return SteeringAck{r.id, false, submitted.error, 0};
        std::optional<SteeringAck> ack;
        for (int i = 0; i < 1200 && !(ack = SteeringInbox::takeAck(m_path, r.id)); ++i)
            QTest::qWait(50);
        return ack.value_or(SteeringAck{r.id, false, QStringLiteral("no answer"), 0});
    };
    QTRY_COMPARE_WITH_TIMEOUT(offered.size(), 1, 30000);
    QCOMPARE(offered.at(0), (QStringList{QStringLiteral("b0a0"), QStringLiteral("b1a0"), QStringLiteral("b2a0")}));
    SteeringAck ack = send(QStringLiteral("batch"), QStringLiteral("b0a1"));
    QVERIFY(!ack.applied);
    QCOMPARE(ack.message, QStringLiteral("id b0a1 is not legal"));
    ack = send(QStringLiteral("batch"), QStringLiteral("b0a0 b1a0 b2a0"));
    QVERIFY(!ack.applied);
    QCOMPARE(ack.message, QStringLiteral("batch of 3 ids exceeds the 2 workers"));
    ack = send(QStringLiteral("batch"), QStringLiteral("b0a0 b2a0"));
    QVERIFY2(ack.applied, qPrintable(ack.message));
    QTRY_COMPARE_WITH_TIMEOUT(offered.size(), 2, 60000);
    ack = send(QStringLiteral("refine"), {}, 0);
    QVERIFY(!ack.applied); // a person picks the batch in a manual round
    ack = send(QStringLiteral("close"), {}, 2);
    QVERIFY2(ack.applied, qPrintable(ack.message));
    ack = send(QStringLiteral("batch"), QStringLiteral("b2a1"));
    QCOMPARE(ack.message, QStringLiteral("id b2a1 is not legal")); // closed
    ack = send(QStringLiteral("batch"), QStringLiteral("b1a0 b0a1"));
    QVERIFY2(ack.applied, qPrintable(ack.message));
    QTRY_COMPARE_WITH_TIMEOUT(offered.size(), 3, 60000);
    QVERIFY(!offered.at(2).contains(QStringLiteral("b2a1")));
    ack = send(QStringLiteral("batch"), QString());
    QVERIFY2(ack.applied, qPrintable(ack.message));
    QTRY_VERIFY_WITH_TIMEOUT(ended, 120000);
    runner.wait();
    const RoundSummary s = runner.summary();
    QVERIFY2(s.ok(), qPrintable(s.error));
    QCOMPARE(s.status, IterationStatus::Finished);
    QCOMPARE(s.stopReason, QStringLiteral("the researcher picked an empty batch"));
    QCOMPARE(s.counters.cells, 4);
    const IterationData data = take(m_store->iterationData(s.iteration));
    bool named = false;
    for (const PolicyVersion &v : take(m_store->policyVersions()))
        named = named || (v.id == data.info.policyVersion && v.name == QLatin1String("manual"));
    QVERIFY(named);
    QStringList batches;
    for (const SteeringEvent &e : take(m_store->steeringEvents(s.iteration))) {
        if (e.action == QLatin1String("batch"))
            batches.append(QStringLiteral("%1:%2").arg(e.round.value_or(-1)).arg(e.text));
    }
    QCOMPARE(batches, (QStringList{QStringLiteral("0:b0a0 b2a0"), QStringLiteral("1:b1a0 b0a1"), QStringLiteral("2:")}));
    take(m_store->close());

    // The recorded policy replays the batches exactly on the iteration's tree.
    const QString script = m_dir->filePath(QStringLiteral("recorded.js"));
    const QString tree = m_dir->filePath(QStringLiteral("tree.json"));
    const QString trace = m_dir->filePath(QStringLiteral("trace.jsonl"));
    const QString id = QString::number(s.iteration);
    test::TextRun r = runCli({QStringLiteral("export"), m_path, QStringLiteral("--iteration"), id, QStringLiteral("--recorded-policy"), script});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    r = runCli({QStringLiteral("export"), m_path, QStringLiteral("--iteration"), id, QStringLiteral("-o"), tree});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    r = runCli({QStringLiteral("replay"), QStringLiteral("--world"), tree, QStringLiteral("--policy"), script, QStringLiteral("--workers"),
                QStringLiteral("2"), QStringLiteral("--betas"), QStringLiteral("0.5"), QStringLiteral("--trace"), trace});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err + r.out));
    QFile traced(trace);
    QVERIFY(traced.open(QIODevice::ReadOnly));
    const QJsonObject episode = QJsonDocument::fromJson(traced.readAll().split('\n').first()).object();
    QStringList replayed;
    for (const QJsonValue &round : episode.value(QStringLiteral("rounds_trace")).toArray()) {
        QStringList ids;
        for (const QJsonValue &v : round.toObject().value(QStringLiteral("batch")).toArray())
            ids.append(v.toString());
        if (!ids.isEmpty()) // the last round's empty batch ends the episode
            replayed.append(ids.join(u' '));
    }
    QCOMPARE(replayed, (QStringList{QStringLiteral("b0a0 b2a0"), QStringLiteral("b1a0 b0a1")}));
    // Bad use of --recorded-policy.
    r = runCli({QStringLiteral("export"), m_path, QStringLiteral("--recorded-policy"), script});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains(QStringLiteral("--recorded-policy OUT.js goes with --iteration N alone")), qPrintable(r.err));
}

// `replay --project --apply-steering` (ReplayEngine::runEpisode with a
// WorldSteering): a closing removes the branch from its round on, a pin goes
// first in its round's batch and the policy gets W less the pins; without
// steering, or with none recorded, the replay is the plain one.
void TestLoopSteering::replayAppliesSteeringOnlyWhenAsked()
{
    QList<Cell> cells;
    int seq = 0;
    for (int b = 0; b < 4; ++b) {
        for (int a = 0; a < 3; ++a) {
            Cell c;
            c.id = RoundTree::idOf(b, a);
            c.branch = b;
            c.attempt = a;
            c.seq = seq++;
            c.score = 0.1 * (b + 1) + 0.01 * a;
            c.evaluated = true;
            c.failClass = QStringLiteral("ok");
            cells.append(c);
        }
    }
    TreeError treeError;
    const std::optional<DiscoveryTree> tree = DiscoveryTree::build(TreeMeta(), cells, &treeError);
    QVERIFY2(tree, qPrintable(treeError.message));
    PolicySpec spec = PolicySpec::script(QStringLiteral("function selectBatch(s) {\n"
                                                        "  return s.legal.slice(0, s.maxParallelism).map(function (c) {\n"
                                                        "    return typeof c === 'string' ? c : c.id; });\n"
                                                        "}\n"),
                                         QStringLiteral("in-order.js"));
    Result<std::unique_ptr<Policy>> made = spec.create();
    QVERIFY2(made, qPrintable(made.error));
    const std::unique_ptr<Policy> policy = std::move(*made.value);
    ReplayOptions options;
    options.workers = 3;
    const EpisodeResult plain = ReplayEngine::runEpisode(*tree, *policy, 0.5, options);
    QVERIFY2(plain.ok(), qPrintable(plain.error));
    QCOMPARE(plain.revealed.mid(0, 6), (QStringList{QStringLiteral("b0a0"), QStringLiteral("b1a0"), QStringLiteral("b2a0"),
                                                    QStringLiteral("b0a1"), QStringLiteral("b1a1"), QStringLiteral("b2a1")}));
    const WorldSteering none;
    QCOMPARE(ReplayEngine::runEpisode(*tree, *policy, 0.5, options, &none).revealed, plain.revealed);

    // The events a live round stores: close b1 and refine b2 before round 2 (index 1).
    SteeringEvent close;
    close.action = QStringLiteral("close");
    close.round = 1;
    close.branch = 1;
    SteeringEvent refine;
    refine.action = QStringLiteral("refine");
    refine.round = 1;
    refine.branch = 2;
    refine.target = QStringLiteral("b2a1");
    SteeringEvent hint;
    hint.action = QStringLiteral("hint");
    hint.round = 1;
    hint.branch = 0;
    hint.text = QStringLiteral("no effect on what is revealed");
    const WorldSteering steering = ProjectReplay::steeringOf({close, refine, hint});
    QCOMPARE(steering.steps.size(), 2);
    const EpisodeResult steered = ReplayEngine::runEpisode(*tree, *policy, 0.5, options, &steering);
    QVERIFY2(steered.ok(), qPrintable(steered.error));
    // Round 2: the pin first, then the policy's two of {b0a1, b3a0}.
    QCOMPARE(steered.revealed.mid(0, 6), (QStringList{QStringLiteral("b0a0"), QStringLiteral("b1a0"), QStringLiteral("b2a0"),
                                                      QStringLiteral("b2a1"), QStringLiteral("b0a1"), QStringLiteral("b3a0")}));
    for (const QString &id : steered.revealed)
        QVERIFY2(!id.startsWith(QLatin1String("b1a")) || id == QLatin1String("b1a0"), qPrintable(id)); // closed
    QCOMPARE(steered.calls, int(cells.size()) - 2); // everything else, in time
}

QTEST_GUILESS_MAIN(TestLoopSteering)
#include "tst_loop_steering.moc"
