// Re-evaluation of stored cells (docs/online.md#re-evaluating-the-best):
// a toy task whose evaluator adds noise, a round of the fake agent, then
// `dreamrsi reevaluate` — the statistics recomputed here from the stored
// repeats, a lucky cell, the recorded scores and replay unchanged, a cell
// without a program named with nothing stored, the JSON's shape — and the
// Student-t quantile against known values.
#include "storetestsupport.h"
#include "roundtestsupport.h"
#include "clirunsupport.h"

#include "commands.h"
#include "backend/localevaluationbackend.h"
#include "loop/reevaluation/reevaluation.h"
#include "loop/round/roundrunner.h"
#include "policy/policyspec.h"
#include "project/reevaluationstats.h"
#include "replay/replayengine.h"
#include "store/projectstore.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace dreamrsi;
using dreamrsi::test::FakeAgent;
using dreamrsi::test::take;

namespace {

// VALUE plus a bonus the task folder's bonus.json gives some values (the
// round's lucky draw), plus uniform noise of the amplitude in noise.txt.
const char *const noisyScore = R"py(
import json, os, random, re, sys
folder = os.environ["DREAMRSI_TASK_DIR"]
text = open(sys.argv[-1]).read()
if "FAIL" in text:
    print(json.dumps({"score": None, "valid": False, "fail_class": "runtime", "error": "the program asked to fail"}))
    sys.exit(0)
value = float(re.search(r"VALUE\s*=\s*(-?\d+)", text).group(1))
bonus = 0.0
if os.path.exists(os.path.join(folder, "bonus.json")):
    bonus = json.load(open(os.path.join(folder, "bonus.json"))).get(str(int(value)), 0.0)
noise = 0.0
if os.path.exists(os.path.join(folder, "noise.txt")):
    noise = float(open(os.path.join(folder, "noise.txt")).read())
print(json.dumps({"score": value + bonus + random.uniform(-noise, noise), "valid": True, "fail_class": "ok",
                  "error": None, "n_valid": 1, "n_total": 1}))
)py";

bool writeFile(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(bytes) == bytes.size();
}

} // namespace

class TestReevaluate : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void studentQuantiles();
    void statisticsOfRecords();
    void commandReevaluatesTheBest();
    void namedCellsAndMissingPrograms();
    void usageErrors();
    void cancelStoresNothingMore();

private:
    QString runRound();

    QTemporaryDir m_dir;
    QString m_task;
    QString m_project;
    qint64 m_iteration = 0;
};

void TestReevaluate::initTestCase()
{
    QVERIFY(m_dir.isValid());
    // The sandbox reads the task folder as another user may: the temporary folder is private by default.
    QVERIFY(QFile::setPermissions(m_dir.path(), QFile::permissions(m_dir.path()) | QFile::ReadGroup | QFile::ExeGroup
                                                    | QFile::ReadOther | QFile::ExeOther));
    m_task = m_dir.filePath(QStringLiteral("noisy_task"));
    QVERIFY(QDir().mkpath(m_task));
    for (const char *name : {"initial.py", "problem.md", "task.json"})
        QVERIFY(QFile::copy(test::toyTaskDir() + QLatin1Char('/') + QLatin1String(name), m_task + QLatin1Char('/') + QLatin1String(name)));
    QVERIFY(writeFile(m_task + QStringLiteral("/score.py"), noisyScore));
    // During the round: no noise, and programs with VALUE = 4 score 50 more.
    QVERIFY(writeFile(m_task + QStringLiteral("/bonus.json"), R"({"4": 50})"));
    m_project = m_dir.filePath(QStringLiteral("p.dreamrsi"));
    m_iteration = runRound().toLongLong();
    QVERIFY(m_iteration > 0);
    // From now on: no bonus, and noise of ±0.5 on every evaluation.
    QVERIFY(QFile::remove(m_task + QStringLiteral("/bonus.json")));
    QVERIFY(writeFile(m_task + QStringLiteral("/noise.txt"), "0.5"));
}

QString TestReevaluate::runRound()
{
    ProjectStore store;
    ProjectInfo info;
    info.name = QStringLiteral("noisy");
    take(store.create(m_project, info));
    PolicyVersion all;
    all.name = QStringLiteral("all");
    all.code = QStringLiteral("function planGrid(context) { return {branches: 3, refinements: 2, reason: \"toy grid 3x2\"}; }\n"
                              "function selectBatch(state) { return state.legal.slice(0, state.maxParallelism); }\n");
    take(store.addPolicyVersion(all));
    RoundConfig c;
    c.task = m_task;
    c.agent.kind = QStringLiteral("fake");
    c.policy = PolicyChoice::fromArgument(QStringLiteral("all"));
    c.workers = 2;
    c.evaluateBaseline = false;
    c.fallbackGrid = GridPlan{3, 2, QStringLiteral("toy fallback")};
    auto agent = std::make_shared<FakeAgent>();
    agent->failIds = {QStringLiteral("b2a2")};     // no program stored
    agent->evalFailIds = {QStringLiteral("b0a2")}; // a program that always fails
    RoundRunner runner(&store, c, agent, std::make_shared<LocalEvaluationBackend>());
    bool done = false;
    connect(&runner, &RoundRunner::finished, this, [&done] { done = true; });
    runner.start();
    [&] { QTRY_VERIFY_WITH_TIMEOUT(done, 120000); }();
    runner.wait();
    const RoundSummary s = runner.summary();
    take(store.close());
    if (!s.ok())
        qWarning("the round failed: %s", qPrintable(s.error));
    return s.ok() ? QString::number(s.iteration) : QString();
}

void TestReevaluate::studentQuantiles()
{
    // Known values of t(0.975, ν) (to the 4 decimals tables give).
    const QList<std::pair<int, double>> known = {{1, 12.7062}, {2, 4.3027}, {3, 3.1824}, {4, 2.7764},
                                                 {9, 2.2622},  {29, 2.0452}, {100, 1.9840}, {1000, 1.9623}};
    for (const auto &[dof, t] : known)
        QVERIFY2(std::fabs(studentTQuantile(0.975, dof) - t) < 5e-5, qPrintable(QString::number(studentTQuantile(0.975, dof), 'g', 10)));
    QCOMPARE(studentTQuantile(0.5, 7), 0.0);
    QVERIFY(std::fabs(studentTQuantile(0.025, 4) + 2.7764) < 5e-5);
    QVERIFY(std::fabs(studentTQuantile(0.995, 10) - 3.1693) < 5e-5);
    QVERIFY(std::isnan(studentTQuantile(0.975, 0)));
    QVERIFY(std::isnan(studentTQuantile(1.0, 3)));
    QVERIFY(std::fabs(regularizedIncompleteBeta(2.0, 3.0, 0.4) - 0.5248) < 1e-12);
}

void TestReevaluate::statisticsOfRecords()
{
    auto record = [](const QString &cell, std::optional<double> score) {
        ReevaluationRecord r;
        r.iteration = 7;
        r.cellId = cell;
        r.score = score;
        r.failClass = score ? QStringLiteral("ok") : QStringLiteral("runtime");
        return r;
    };
    const QList<ReevaluationRecord> records = {record(QStringLiteral("b0a0"), 1.0), record(QStringLiteral("b0a0"), 2.0),
                                               record(QStringLiteral("b0a0"), std::nullopt), record(QStringLiteral("b0a0"), 3.0),
                                               record(QStringLiteral("b1a0"), 5.0)};
    const ReevaluationStats s = ReevaluationStats::of(7, QStringLiteral("b0a0"), 9.0, records);
    QCOMPARE(s.repeats.size(), 4);
    QCOMPARE(s.failed, 1);
    QCOMPARE(*s.mean, 2.0);
    QCOMPARE(*s.sd, 1.0);
    const double half = 4.302652729911275 / std::sqrt(3.0);
    QVERIFY(std::fabs(s.ci95->first - (2.0 - half)) < 1e-9 && std::fabs(s.ci95->second - (2.0 + half)) < 1e-9);
    QVERIFY(s.lucky); // 9 > 2 + 2.48
    const ReevaluationStats one = ReevaluationStats::of(7, QStringLiteral("b1a0"), 9.0, records);
    QCOMPARE(*one.mean, 5.0);
    QVERIFY(!one.sd && !one.ci95 && !one.lucky); // no interval from one score
    const ReevaluationBest best = ReevaluationBest::of({s, one});
    QCOMPARE(best.byScore, QStringLiteral("b0a0"));
    QCOMPARE(best.byMean, QStringLiteral("b1a0"));
}

void TestReevaluate::commandReevaluatesTheBest()
{
    // Before: the cells and an episode of a built-in policy replayed over the iteration.
    ProjectStore store;
    take(store.openReadOnly(m_project));
    const DiscoveryTree before = take(store.loadIteration(m_iteration));
    take(store.close());
    QVERIFY(before.cellCount() >= 6);
    int planted = 0;
    for (const Cell &c : before.cells())
        planted += c.score && *c.score > 40.0;
    QVERIFY2(planted >= 1, "the round drew no program with VALUE = 4");
    Result<std::unique_ptr<Policy>> policy = PolicySpec::builtin(QStringLiteral("portfolio")).create();
    QVERIFY2(policy.ok(), qPrintable(policy.error));
    ReplayOptions options;
    options.workers = 2;
    const EpisodeResult replayedBefore = ReplayEngine::runEpisode(before, **policy.value, 0.5, options);
    QVERIFY2(replayedBefore.ok(), qPrintable(replayedBefore.error));

    const int top = 4;
    const int repeats = 4;
    const test::CommandRun run = test::runCommand(runReevaluateCommand,
        {QStringLiteral("--project"), m_project, QStringLiteral("--top"), QString::number(top), QStringLiteral("--repeats"),
         QString::number(repeats), QStringLiteral("--json")});
    QVERIFY2(run.rc == 0, qPrintable(run.err + run.out));
    QJsonParseError error{};
    const QJsonObject json = QJsonDocument::fromJson(run.out.toUtf8(), &error).object();
    QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(run.out));
    const QStringList keys = json.keys();
    QCOMPARE(QSet<QString>(keys.begin(), keys.end()),
             (QSet<QString>{QStringLiteral("cells"), QStringLiteral("best_by_score"), QStringLiteral("best_by_mean")}));
    const QJsonArray cells = json.value(QStringLiteral("cells")).toArray();
    QCOMPARE(cells.size(), top);

    // After: the stored repeats, the cells and the replay.
    take(store.openReadOnly(m_project));
    const DiscoveryTree after = take(store.loadIteration(m_iteration));
    const QList<ReevaluationRecord> records = take(store.reevaluations(m_iteration));
    take(store.close());
    QCOMPARE(records.size(), top * repeats);
    const EpisodeResult replayedAfter = ReplayEngine::runEpisode(after, **policy.value, 0.5, options);
    QCOMPARE(replayedAfter.revealed, replayedBefore.revealed);
    QCOMPARE(replayedAfter.best, replayedBefore.best);
    QCOMPARE(after.cellCount(), before.cellCount());
    for (qsizetype i = 0; i < before.cells().size(); ++i)
        QCOMPARE(after.cells().at(i).score, before.cells().at(i).score);

    // Each cell's statistics, recomputed here from the stored repeats.
    QSet<QString> lucky;
    double bestScore = -1e300;
    double bestMean = -1e300;
    QString byScore;
    QString byMean;
    double previous = 1e300;
    for (const QJsonValue &v : cells) {
        const QJsonObject o = v.toObject();
        const QStringList cellKeys = o.keys();
        QCOMPARE(QSet<QString>(cellKeys.begin(), cellKeys.end()),
                 (QSet<QString>{QStringLiteral("iteration"), QStringLiteral("id"), QStringLiteral("score"),
                                QStringLiteral("repeats"), QStringLiteral("failed"), QStringLiteral("mean"),
                                QStringLiteral("sd"), QStringLiteral("ci95"), QStringLiteral("lucky")}));
        QCOMPARE(o.value(QStringLiteral("iteration")).toInteger(), m_iteration);
        const QString id = o.value(QStringLiteral("id")).toString();
        QVERIFY(after.indexOfId(id) >= 0);
        const Cell *cell = &after.cells().at(after.indexOfId(id));
        const double score = o.value(QStringLiteral("score")).toDouble();
        QCOMPARE(score, *cell->score);
        QVERIFY(score <= previous); // the best K, best first
        previous = score;
        QList<double> xs;
        for (const ReevaluationRecord &r : records) {
            if (r.cellId != id)
                continue;
            QCOMPARE(r.backend, QStringLiteral("local"));
            QVERIFY(!r.host.isEmpty());
            QVERIFY(r.seconds > 0.0);
            QVERIFY(r.time.isValid());
            QCOMPARE(r.failClass, QStringLiteral("ok"));
            xs.append(*r.score);
        }
        QCOMPARE(xs.size(), repeats);
        QCOMPARE(o.value(QStringLiteral("repeats")).toArray().size(), repeats);
        QCOMPARE(o.value(QStringLiteral("failed")).toInt(), 0);
        double mean = 0.0;
        for (const double x : xs)
            mean += x / repeats;
        double ss = 0.0;
        for (const double x : xs)
            ss += (x - mean) * (x - mean);
        const double sd = std::sqrt(ss / (repeats - 1));
        const double half = 3.182446305284263 * sd / std::sqrt(double(repeats)); // t(0.975, 3)
        QVERIFY(std::fabs(o.value(QStringLiteral("mean")).toDouble() - mean) < 1e-9);
        QVERIFY(std::fabs(o.value(QStringLiteral("sd")).toDouble() - sd) < 1e-9);
        const QJsonArray ci = o.value(QStringLiteral("ci95")).toArray();
        QVERIFY(std::fabs(ci.at(0).toDouble() - (mean - half)) < 1e-9);
        QVERIFY(std::fabs(ci.at(1).toDouble() - (mean + half)) < 1e-9);
        QCOMPARE(o.value(QStringLiteral("lucky")).toBool(), score > mean + half);
        // The noise is ±0.5 around VALUE, the score's integer part without the bonus.
        QVERIFY(std::fabs(mean - FakeAgent::valueOf(cell->program())) <= 0.5);
        if (o.value(QStringLiteral("lucky")).toBool())
            lucky.insert(id);
        if (score > bestScore) {
            bestScore = score;
            byScore = id;
        }
        if (mean > bestMean) {
            bestMean = mean;
            byMean = id;
        }
    }
    // The planted cell (recorded 54, re-evaluated about 4) is lucky, and best by score only.
    QVERIFY(!lucky.isEmpty());
    QVERIFY(lucky.contains(byScore));
    QCOMPARE(json.value(QStringLiteral("best_by_score")).toString(), byScore);
    QCOMPARE(json.value(QStringLiteral("best_by_mean")).toString(), byMean);
    QVERIFY(byScore != byMean);

    // The text table names both best cells and the lucky one.
    const test::CommandRun text = test::runCommand(runReevaluateCommand,
        {QStringLiteral("--project"), m_project, QStringLiteral("--cell"), byScore, QStringLiteral("--repeats"), QStringLiteral("2")});
    QVERIFY2(text.rc == 0, qPrintable(text.err));
    QVERIFY2(text.out.contains(QStringLiteral("lucky")), qPrintable(text.out));
    QVERIFY2(text.out.contains(QStringLiteral("best by recorded score and by mean: ") + byScore), qPrintable(text.out));
    QVERIFY2(text.out.contains(QStringLiteral("%1 repeats").arg(repeats + 2)) || text.out.contains(QString::number(repeats + 2)),
             qPrintable(text.out));
}

void TestReevaluate::namedCellsAndMissingPrograms()
{
    ProjectStore store;
    take(store.openReadOnly(m_project));
    const qsizetype storedBefore = take(store.reevaluations(m_iteration)).size();
    take(store.close());

    // b2a2: the agent failed, no program; b0a2: a program that always fails.
    const test::CommandRun run = test::runCommand(runReevaluateCommand,
        {QStringLiteral("--project"), m_project, QStringLiteral("--iteration"), QString::number(m_iteration),
         QStringLiteral("--cell"), QStringLiteral("b2a2,b0a2"), QStringLiteral("--repeats"), QStringLiteral("3"),
         QStringLiteral("--json")});
    QVERIFY2(run.rc == 0, qPrintable(run.err));
    QVERIFY2(run.err.contains(QStringLiteral("b2a2")) && run.err.contains(QStringLiteral("no program is stored")), qPrintable(run.err));
    const QJsonArray cells = QJsonDocument::fromJson(run.out.toUtf8()).object().value(QStringLiteral("cells")).toArray();
    QCOMPARE(cells.size(), 1);
    const QJsonObject failing = cells.first().toObject();
    QCOMPARE(failing.value(QStringLiteral("id")).toString(), QStringLiteral("b0a2"));
    QCOMPARE(failing.value(QStringLiteral("failed")).toInt(), 3);
    QVERIFY(failing.value(QStringLiteral("mean")).isNull());
    QVERIFY(failing.value(QStringLiteral("ci95")).isNull());
    QVERIFY(!failing.value(QStringLiteral("lucky")).toBool());
    QCOMPARE(failing.value(QStringLiteral("repeats")).toArray().first().toObject().value(QStringLiteral("fail_class")).toString(),
             QStringLiteral("runtime"));

    take(store.openReadOnly(m_project));
    const QList<ReevaluationRecord> records = take(store.reevaluations(m_iteration));
    take(store.close());
    QCOMPARE(records.size(), storedBefore + 3);
    for (const ReevaluationRecord &r : records)
        QVERIFY(r.cellId != QLatin1String("b2a2")); // nothing stored for it

    // Only a cell without a program: nothing evaluated, exit 1.
    const test::CommandRun none = test::runCommand(runReevaluateCommand,
        {QStringLiteral("--project"), m_project, QStringLiteral("--cell"), QStringLiteral("b2a2"), QStringLiteral("--repeats"),
         QStringLiteral("2")});
    QCOMPARE(none.rc, 1);
    QVERIFY2(none.err.contains(QStringLiteral("b2a2")) && none.err.contains(QStringLiteral("no cell could be re-evaluated")),
             qPrintable(none.err));
    // Unknown cells and iterations are named.
    const test::CommandRun unknown = test::runCommand(runReevaluateCommand,
        {QStringLiteral("--project"), m_project, QStringLiteral("--cell"), QStringLiteral("b9a9,b0a0,b8a1"), QStringLiteral("--repeats"),
         QStringLiteral("2")});
    QCOMPARE(unknown.rc, 1);
    QVERIFY2(unknown.err.contains(QStringLiteral("b9a9, b8a1")), qPrintable(unknown.err));
    const test::CommandRun noIteration = test::runCommand(runReevaluateCommand,
        {QStringLiteral("--project"), m_project, QStringLiteral("--iteration"), QStringLiteral("99"), QStringLiteral("--top"),
         QStringLiteral("1"), QStringLiteral("--repeats"), QStringLiteral("2")});
    QCOMPARE(noIteration.rc, 1);
    QVERIFY2(noIteration.err.contains(QStringLiteral("iteration 99")), qPrintable(noIteration.err));
    take(store.openReadOnly(m_project));
    QCOMPARE(take(store.reevaluations(m_iteration)).size(), records.size());
    take(store.close());
}

void TestReevaluate::usageErrors()
{
    const QList<std::pair<QStringList, QString>> cases = {
        {{QStringLiteral("--top"), QStringLiteral("1"), QStringLiteral("--repeats"), QStringLiteral("2")}, QStringLiteral("--project")},
        {{QStringLiteral("--project"), m_project, QStringLiteral("--top"), QStringLiteral("1")}, QStringLiteral("--repeats")},
        {{QStringLiteral("--project"), m_project, QStringLiteral("--repeats"), QStringLiteral("2")}, QStringLiteral("--top K or --cell")},
        {{QStringLiteral("--project"), m_project, QStringLiteral("--top"), QStringLiteral("0"), QStringLiteral("--repeats"),
          QStringLiteral("2")}, QStringLiteral("--top")},
        {{QStringLiteral("--project"), m_project, QStringLiteral("--top"), QStringLiteral("1"), QStringLiteral("--repeats"),
          QStringLiteral("x")}, QStringLiteral("--repeats")},
        {{QStringLiteral("--project"), m_project, QStringLiteral("--top"), QStringLiteral("1"), QStringLiteral("--repeats"),
          QStringLiteral("2"), QStringLiteral("--partition"), QStringLiteral("gpu")}, QStringLiteral("--backend slurm")},
    };
    for (const auto &[args, named] : cases) {
        const test::CommandRun run = test::runCommand(runReevaluateCommand, args);
        QCOMPARE(run.rc, 2);
        QVERIFY2(run.err.contains(named), qPrintable(run.err));
    }
}

void TestReevaluate::cancelStoresNothingMore()
{
    // A cancel raised before the run: nothing is evaluated or stored, the report says so.
    ProjectStore store;
    take(store.open(m_project));
    const qsizetype storedBefore = take(store.reevaluations(m_iteration)).size();
    ReevaluationSelection selection;
    selection.top = 2;
    const Result<ReevaluationPlan> plan = Reevaluation::plan(&store, selection, true);
    QVERIFY2(plan.ok(), qPrintable(plan.error));
    QCOMPARE(plan.value->iteration, m_iteration); // the latest
    QCOMPARE(plan.value->runnable(), 2);
    LocalEvaluationBackend backend;
    const std::atomic_bool cancel{true};
    const Result<ReevaluationReport> report = Reevaluation::run(&store, *plan.value, 3, backend, cancel);
    QVERIFY2(report.ok(), qPrintable(report.error));
    QVERIFY(report.value->cancelled);
    QCOMPARE(report.value->stored, 0);
    QCOMPARE(take(store.reevaluations(m_iteration)).size(), storedBefore);
    take(store.close());
}

QTEST_GUILESS_MAIN(TestReevaluate)
#include "tst_reevaluate.moc"
