// Imagined completions of history worlds (core/replay/worldmodel.h) and the
// imagined valuation: the test vectors of tests/data/imagination reproduced by
// `dreamrsi imagine` cell by cell, revealed cells unchanged, the cap, thread
// counts, and a version's imagined value against `dreamrsi replay` over the
// written completion files.
#include "clirunsupport.h"

#include "loop/counterfactual/counterfactualloop.h"
#include "loop/dream/dreamer.h"
#include "loop/dream/policydeveloper.h"
#include "loop/dream/policyimprover.h"
#include "model/treejson.h"
#include "policy/builtinpolicies.h"
#include "replay/replayengine.h"
#include "replay/worldmodel.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <cstring>
#include <limits>

using namespace dreamrsi;
using dreamrsi::test::runDreamrsi;

namespace {

QString vectors(const QString &kind)
{
    return QStringLiteral(DREAMRSI_SOURCE_DIR "/tests/data/imagination/") + kind;
}

/// The JSON files of `folder`, by name.
QStringList filesIn(const QString &folder)
{
    const QDir dir(folder);
    QStringList paths;
    for (const QString &name : dir.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name))
        paths.append(dir.filePath(name));
    return paths;
}

QStringList historyFiles(const QString &kind)
{
    return filesIn(vectors(kind) + QStringLiteral("/history"));
}

QJsonObject readJson(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}

/// (branch, attempt) → cell object of a tree file.
QMap<std::pair<int, int>, QJsonObject> cellsByPlace(const QJsonObject &tree)
{
    QMap<std::pair<int, int>, QJsonObject> out;
    for (const QJsonValue &v : tree.value(QStringLiteral("cells")).toArray()) {
        const QJsonObject c = v.toObject();
        out.insert({c.value(QStringLiteral("branch")).toInt(), c.value(QStringLiteral("attempt")).toInt()}, c);
    }
    return out;
}

bool sameBits(double a, double b)
{
    return std::memcmp(&a, &b, sizeof a) == 0;
}

/// The fields the vectors are compared on: id, seq, score (to the bit), fail
/// class, tags and `imagined`. Empty when equal, else what differs.
QString compareCell(const QJsonObject &want, const QJsonObject &got)
{
    auto failClass = [](const QJsonObject &c) {
        return c.value(QStringLiteral("fail_class")).toString(QStringLiteral("ok"));
    };
    if (want.value(QStringLiteral("id")) != got.value(QStringLiteral("id")))
        return QStringLiteral("id");
    if (want.value(QStringLiteral("seq")).toInteger() != got.value(QStringLiteral("seq")).toInteger())
        return QStringLiteral("seq");
    const QJsonValue ws = want.value(QStringLiteral("score")), gs = got.value(QStringLiteral("score"));
    if (ws.isDouble() != gs.isDouble() || (ws.isDouble() && !sameBits(ws.toDouble(), gs.toDouble())))
        return QStringLiteral("score %1 != %2").arg(ws.toDouble(), 0, 'g', 17).arg(gs.toDouble(), 0, 'g', 17);
    if (failClass(want) != failClass(got))
        return QStringLiteral("fail_class");
    if (want.value(QStringLiteral("tags")).toArray() != got.value(QStringLiteral("tags")).toArray())
        return QStringLiteral("tags");
    if (want.value(QStringLiteral("imagined")).toBool() != got.value(QStringLiteral("imagined")).toBool())
        return QStringLiteral("imagined");
    return {};
}

QList<ReplayWorld> readWorlds(const QStringList &paths)
{
    QList<ReplayWorld> worlds;
    for (const QString &p : paths) {
        TreeJson::ParseResult r = TreeJson::readFile(p);
        if (!r.ok())
            return {};
        worlds.append(ReplayWorld{p, std::make_shared<const DiscoveryTree>(std::move(*r.tree))});
    }
    return worlds;
}

const QString Directions = QStringLiteral("d0,d1,d2,d3,d4,d5,d6,d7,d8,d9");

/// A revealed world of `task`: 3 of 4 branches opened, attempts 0 and 1 of
/// each (of 0 … 3), every score `base` + a small rise, so that a task's
/// scores never come near the other task's.
DiscoveryTree taskWorld(const std::optional<QString> &task, double base, int seed, qint64 iteration)
{
    QList<Cell> cells;
    qint64 seq = 0;
    for (int b = 0; b < 3; ++b) {
        for (int a = 0; a < 2; ++a) {
            Cell c;
            c.id = QStringLiteral("b%1a%2").arg(b).arg(a);
            c.branch = b;
            c.attempt = a;
            c.seq = seq++;
            c.score = base + 0.01 * ((seed + b) % 5) + 0.02 * a;
            c.evaluated = true;
            c.failClass = QStringLiteral("ok");
            cells.append(c);
        }
    }
    TreeMeta meta;
    meta.task = task;
    meta.iteration = iteration;
    meta.grid = GridShape{4, 3};
    return *DiscoveryTree::build(meta, cells);
}

/// Two tasks on different scales, interleaved, and a world without a task:
/// packing-like (about 2.5), autocorrelation-like (about 0.6), untasked (about 10).
QList<ReplayWorld> twoTaskHistory()
{
    const QString packing = QStringLiteral("circle_packing_26"), c3 = QStringLiteral("c3_autocorrelation");
    QList<ReplayWorld> h;
    auto add = [&h](const std::optional<QString> &task, double base, int seed) {
        h.append(ReplayWorld{QStringLiteral("w%1").arg(h.size()),
                             std::make_shared<const DiscoveryTree>(taskWorld(task, base, seed, h.size() + 1))});
    };
    add(packing, 2.5, 0);
    add(c3, 0.6, 1);
    add(packing, 2.5, 2);
    add(c3, 0.6, 3);
    add(std::nullopt, 10.0, 4);
    return h;
}

/// A developer that writes nothing: a dream of it values the deployed version only.
class NoDeveloper : public PolicyDeveloper
{
public:
    QString kind() const override { return QStringLiteral("none"); }
    DevelopmentOutcome develop(const DevelopmentContext &, const std::atomic_bool &) override { return {}; }
};

} // namespace

class TestImagination : public QObject
{
    Q_OBJECT
private slots:
    void vectorsReproduced_data();
    void vectorsReproduced();
    void revealedKeptAndCapped();
    void threadsDoNotMatter();
    void modelFallbacks();
    void oneModelPerTask();
    void imagineProjectOfTwoTasks();
    void imaginedValueMatchesReplay();
    void counterfactualNamesItsValuation();
    void badInput();
};

void TestImagination::vectorsReproduced_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<double>("cap");
    QTest::addColumn<QString>("rule");
    QTest::addColumn<QString>("vectorsOf"); ///< the rule whose vectors the completions must equal
    QTest::newRow("late") << QStringLiteral("late") << 0.997533547 << QStringLiteral("capped") << QStringLiteral("capped");
    QTest::newRow("directions") << QStringLiteral("directions") << 0.983952251 << QStringLiteral("capped") << QStringLiteral("capped");
    // The widened rule's own vectors (docs/online.md#imagination-rules), same histories.
    QTest::newRow("late, widened") << QStringLiteral("late") << 0.997533547 << QStringLiteral("widened") << QStringLiteral("widened");
    QTest::newRow("directions, widened") << QStringLiteral("directions") << 0.983952251 << QStringLiteral("widened")
                                         << QStringLiteral("widened");
    // The uncertain rule's own vectors, same histories.
    QTest::newRow("late, uncertain") << QStringLiteral("late") << 0.997533547 << QStringLiteral("uncertain")
                                     << QStringLiteral("uncertain");
    QTest::newRow("directions, uncertain") << QStringLiteral("directions") << 0.983952251 << QStringLiteral("uncertain")
                                           << QStringLiteral("uncertain");
    // The anchored rule: these histories gained as deep as attempt 9, so its
    // window covers every depth of the grid and it draws what uncertain draws.
    QTest::newRow("late, anchored") << QStringLiteral("late") << 0.997533547 << QStringLiteral("anchored")
                                    << QStringLiteral("uncertain");
    QTest::newRow("directions, anchored") << QStringLiteral("directions") << 0.983952251 << QStringLiteral("anchored")
                                          << QStringLiteral("uncertain");
    // Its own vectors: a history of three worlds stopped at attempt 2 that never gained, where the window ends at 4.
    QTest::newRow("flat, anchored") << QStringLiteral("flat") << 1.283432 << QStringLiteral("anchored") << QStringLiteral("anchored");
}

void TestImagination::vectorsReproduced()
{
    QFETCH(QString, kind);
    QFETCH(double, cap);
    QFETCH(QString, rule);
    QFETCH(QString, vectorsOf);
    QTemporaryDir out;
    QVERIFY(out.isValid());
    QStringList args{QStringLiteral("imagine")};
    // A rule's own set may bring its own history (…/imagination-RULE/KIND/history).
    const QString own = QStringLiteral(DREAMRSI_SOURCE_DIR "/tests/data/imagination-%1/").arg(vectorsOf) + kind;
    const QStringList history = QDir(own + QStringLiteral("/history")).exists() ? filesIn(own + QStringLiteral("/history"))
                                                                                 : historyFiles(kind);
    QVERIFY(!history.isEmpty());
    for (const QString &p : history)
        args << QStringLiteral("--world") << p;
    args << QStringLiteral("--seed") << QStringLiteral("1234") << QStringLiteral("--completions") << QStringLiteral("2")
         << QStringLiteral("--directions") << Directions << QStringLiteral("--out") << out.path() << QStringLiteral("--json");
    if (rule != QLatin1String("capped")) // capped: the default, as the contract's vectors were written
        args << QStringLiteral("--rule") << rule;
    const auto run = runDreamrsi(args);
    QVERIFY2(run.finished && run.exitCode == 0, run.err.constData());
    const QJsonObject json = QJsonDocument::fromJson(run.out).object();
    const QJsonObject model = json.value(QStringLiteral("model")).toObject();
    QCOMPARE(model.value(QStringLiteral("cap")).toDouble(), cap);
    QCOMPARE(model.value(QStringLiteral("rule")).toString(), rule);

    const QDir expected((vectorsOf == QLatin1String("capped") ? vectors(kind) : own) + QStringLiteral("/completions"));
    // How far above the cap a rule may draw: widened the largest gain, uncertain and anchored their prior's width.
    const bool prior = rule == QLatin1String("uncertain") || rule == QLatin1String("anchored");
    const double headroom = model.value(prior ? QStringLiteral("prior_width") : QStringLiteral("largest_gain")).toDouble();
    QVERIFY(headroom >= 0.0);
    // Anchored: capped past the window, nothing above the cap there.
    const int windowEnd = rule == QLatin1String("anchored") ? model.value(QStringLiteral("deepest_gain")).toInt(-100) + anchoredWindow()
                                                           : std::numeric_limits<int>::max();
    QVERIFY(windowEnd >= anchoredWindow());
    int pastWindow = 0;
    int aboveCap = 0;
    const QStringList names = expected.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name);
    QCOMPARE(names.size(), 6);
    int imagined = 0;
    for (const QString &name : names) {
        const auto want = cellsByPlace(readJson(expected.filePath(name)));
        const auto got = cellsByPlace(readJson(QDir(out.path()).filePath(name)));
        QVERIFY2(!got.isEmpty(), qPrintable(name));
        QCOMPARE(got.keys(), want.keys());
        for (auto it = want.cbegin(); it != want.cend(); ++it) {
            const QString why = compareCell(it.value(), got.value(it.key()));
            QVERIFY2(why.isEmpty(), qPrintable(QStringLiteral("%1 b%2a%3: %4").arg(name).arg(it.key().first).arg(it.key().second).arg(why)));
            imagined += it.value().value(QStringLiteral("imagined")).toBool() ? 1 : 0;
            const double score = it.value().value(QStringLiteral("score")).toDouble(-1e300);
            aboveCap += score > cap ? 1 : 0;
            if (it.key().second > windowEnd) {
                ++pastWindow;
                QVERIFY2(score <= cap, qPrintable(QStringLiteral("%1 b%2a%3 above the cap past the anchored window").arg(name).arg(it.key().first).arg(it.key().second)));
            }
            QVERIFY2(score <= cap + headroom, qPrintable(QStringLiteral("%1 b%2a%3 above the rule's ceiling").arg(name).arg(it.key().first).arg(it.key().second)));
        }
    }
    QVERIFY(imagined > 100); // the vectors do exercise imagination
    if (kind == QLatin1String("flat"))
        QVERIFY2(pastWindow > 100, qPrintable(QString::number(pastWindow))); // and the window's end
    // Capped: nothing above the cap; the other rules: the vectors do reach past it.
    QVERIFY2(rule == QLatin1String("capped") ? aboveCap == 0 : aboveCap > 0, qPrintable(QString::number(aboveCap)));
}

void TestImagination::revealedKeptAndCapped()
{
    const QList<ReplayWorld> history = readWorlds(historyFiles(QStringLiteral("late")));
    QCOMPARE(history.size(), 3);
    ImaginationOptions options;
    options.directions = Directions.split(QLatin1Char(','));
    const Result<ImaginedHistory> imagined = Imagination::imagine(history, 7, 4, options, 1);
    QVERIFY2(imagined.ok(), qPrintable(imagined.error));
    const double cap = *imagined.value->model.of(0).cap();
    for (qsizetype i = 0; i < imagined.value->completions.size(); ++i) {
        const DiscoveryTree &world = *history.at(Imagination::placeOf(i, 4).world).tree;
        const DiscoveryTree &done = *imagined.value->completions.at(i).tree;
        QCOMPARE(done.cellCount(), Imagination::completedCellCount(world));
        QCOMPARE(done.cellCount(), 110); // the full 10 × 11 grid
        for (const Cell &c : world.cells()) {
            const int j = done.indexOfId(c.id);
            QVERIFY(j >= 0);
            QCOMPARE(done.cells().at(j), c); // revealed cells never change
        }
        for (const Cell &c : done.cells()) {
            if (Imagination::isImagined(c) && c.score)
                QVERIFY(*c.score <= cap);
        }
    }
    // Without the cap the late kind's gains carry branches past it.
    options.cap = false;
    const Result<ImaginedHistory> uncapped = Imagination::imagine(history, 7, 4, options, 1);
    QVERIFY(uncapped.ok());
    QVERIFY(!uncapped.value->model.of(0).cap());
    double highest = 0.0;
    for (const ReplayWorld &w : uncapped.value->completions)
        highest = std::max(highest, w.tree->bestEffectiveScore());
    QVERIFY(highest > cap);
}

void TestImagination::threadsDoNotMatter()
{
    QTemporaryDir one, two;
    auto run = [](const QString &dir, const QString &threads) {
        QStringList args{QStringLiteral("imagine")};
        for (const QString &p : historyFiles(QStringLiteral("directions")))
            args << QStringLiteral("--world") << p;
        args << QStringLiteral("--seed") << QStringLiteral("99") << QStringLiteral("--completions") << QStringLiteral("5")
             << QStringLiteral("--threads") << threads << QStringLiteral("--out") << dir;
        return runDreamrsi(args);
    };
    const auto a = run(one.path(), QStringLiteral("1"));
    const auto b = run(two.path(), QStringLiteral("2"));
    QVERIFY2(a.finished && a.exitCode == 0, a.err.constData());
    QVERIFY2(b.finished && b.exitCode == 0, b.err.constData());
    const QStringList names = QDir(one.path()).entryList(QDir::Files, QDir::Name);
    QCOMPARE(names.size(), 15);
    QCOMPARE(QDir(two.path()).entryList(QDir::Files, QDir::Name), names);
    for (const QString &name : names) {
        QFile f1(QDir(one.path()).filePath(name)), f2(QDir(two.path()).filePath(name));
        QVERIFY(f1.open(QIODevice::ReadOnly) && f2.open(QIODevice::ReadOnly));
        QVERIFY2(f1.readAll() == f2.readAll(), qPrintable(name));
    }
}

void TestImagination::modelFallbacks()
{
    // A tiny history: one tagged branch with two ok cells and a failure.
    QList<Cell> cells;
    auto cell = [&](int attempt, std::optional<double> score, qint64 seq) {
        Cell c;
        c.id = QStringLiteral("b0a%1").arg(attempt);
        c.branch = 0;
        c.attempt = attempt;
        c.seq = seq;
        c.score = score;
        c.evaluated = score.has_value();
        c.failClass = score ? QStringLiteral("ok") : QStringLiteral("runtime");
        c.tags = {QStringLiteral("direction:x")};
        cells.append(c);
    };
    cell(0, 0.5, 0);
    cell(1, 0.7, 1);
    cell(2, std::nullopt, 2);
    TreeMeta meta;
    meta.grid = GridShape{2, 3};
    const std::optional<DiscoveryTree> tree = DiscoveryTree::build(meta, cells);
    QVERIFY(tree);
    const WorldModel m = WorldModel::fit({&*tree}, ImaginationOptions());
    // Fewer than NMIN samples: pooled lists, then the fallbacks of the contract.
    QCOMPARE(m.firstScores(QStringLiteral("direction:x")), QList<double>{0.5});
    QCOMPARE(m.firstScores(QString()), QList<double>{0.5});
    QCOMPARE(m.gains(QStringLiteral("direction:x"), 1).size(), 1); // every pooled gain in depth order
    QVERIFY(std::abs(m.gains(QString(), 5).constFirst() - 0.2) < 1e-12);
    QCOMPARE(m.failureRate(0), 0.0);        // F[0]: 1 trial, 0 failures
    QCOMPARE(m.failureRate(2), 0.5);        // F[2] has 1 trial < NMIN: F[*] = 1 of 2
    QCOMPARE(*m.cap(), 0.7);
    QCOMPARE(Imagination::branchTag(*tree, 1, {QStringLiteral("a"), QStringLiteral("b")}), QStringLiteral("direction:b"));
    QCOMPARE(Imagination::branchTag(*tree, 0, {QStringLiteral("a")}), QStringLiteral("direction:x"));
    QVERIFY(Imagination::branchTag(*tree, 1, {}).isEmpty());
    const QJsonObject json = m.toJson();
    QCOMPARE(json.value(QStringLiteral("strata")).toArray().size(), 2);
    QCOMPARE(json.value(QStringLiteral("min_samples")).toInt(), 3);
}

void TestImagination::oneModelPerTask()
{
    // Worlds of two tasks and one without a task: each group gets its own
    // model and cap, and a world's imagined cells draw only its own task's
    // scores. Completion seeds keep j, the world's place in the whole history.
    const QList<ReplayWorld> history = twoTaskHistory();
    const Result<ImaginedHistory> imagined = Imagination::imagine(history, 11, 3, ImaginationOptions(), 2);
    QVERIFY2(imagined.ok(), qPrintable(imagined.error));
    const WorldModels &models = imagined.value->model;
    QCOMPARE(models.groups().size(), 3);
    QCOMPARE(models.groups().at(0).task, std::optional<QString>(QStringLiteral("circle_packing_26")));
    QCOMPARE(models.groups().at(0).worlds, (QList<int>{0, 2}));
    QCOMPARE(models.groups().at(1).task, std::optional<QString>(QStringLiteral("c3_autocorrelation")));
    QCOMPARE(models.groups().at(1).worlds, (QList<int>{1, 3}));
    QCOMPARE(models.groups().at(2).task, std::nullopt);
    QCOMPARE(models.groups().at(2).worlds, QList<int>{4});
    // Each cap is its own task's best revealed score.
    QCOMPARE(*models.of(0).cap(), history.at(0).tree->bestEffectiveScore() > history.at(2).tree->bestEffectiveScore()
                                      ? history.at(0).tree->bestEffectiveScore()
                                      : history.at(2).tree->bestEffectiveScore());
    QVERIFY(*models.of(1).cap() < 0.7);
    QCOMPARE(*models.of(4).cap(), history.at(4).tree->bestEffectiveScore());

    int imaginedOk = 0;
    for (qsizetype i = 0; i < imagined.value->completions.size(); ++i) {
        const Imagination::CompletionPlace p = Imagination::placeOf(i, 3);
        const WorldModels::Group &group = models.groups().at(models.groupOf(p.world));
        // The lowest and highest score any world of the group revealed.
        double low = 1e9, high = -1e9;
        for (const int j : group.worlds) {
            for (const Cell &c : history.at(j).tree->cells()) {
                low = std::min(low, *c.score);
                high = std::max(high, *c.score);
            }
        }
        for (const Cell &c : imagined.value->completions.at(i).tree->cells()) {
            if (!Imagination::isImagined(c) || !c.score)
                continue;
            ++imaginedOk;
            QVERIFY2(*c.score >= low && *c.score <= high,
                     qPrintable(QStringLiteral("world %1 (%2): imagined %3 = %4 outside its task's [%5, %6]")
                                    .arg(p.world)
                                    .arg(group.task.value_or(QStringLiteral("no task")), c.id)
                                    .arg(*c.score)
                                    .arg(low)
                                    .arg(high)));
        }
        // The same cells as a model fitted on the group's worlds alone draws
        // for this j and k: the grouping changes no seed.
        QList<const DiscoveryTree *> own;
        for (const int j : group.worlds)
            own.append(history.at(j).tree.get());
        const Result<DiscoveryTree> alone = Imagination::complete(*history.at(p.world).tree, WorldModel::fit(own, ImaginationOptions()),
                                                                  11, p.world, p.completion);
        QVERIFY(alone.ok());
        QCOMPARE(alone.value->cells(), imagined.value->completions.at(i).tree->cells());
    }
    QVERIFY(imaginedOk > 50);

    // What this rule prevents: one model over every world draws the packing
    // scores into the autocorrelation worlds (the cap is then the packing's).
    QList<const DiscoveryTree *> all;
    for (const ReplayWorld &w : history)
        all.append(w.tree.get());
    const WorldModel mixed = WorldModel::fit(all, ImaginationOptions());
    QVERIFY(*mixed.cap() > 10.0);
    double highest = 0.0;
    for (int k = 0; k < 8; ++k) {
        const Result<DiscoveryTree> c3 = Imagination::complete(*history.at(1).tree, mixed, 11, 1, k);
        QVERIFY(c3.ok());
        for (const Cell &c : c3.value->cells())
            highest = std::max(highest, c.score.value_or(0.0));
    }
    QVERIFY(highest > 1.0);

    // The JSON: one entry per task with its worlds; no top-level model fields
    // when there are several.
    const QJsonObject json = models.toJson();
    const QJsonArray list = json.value(QStringLiteral("models")).toArray();
    QCOMPARE(list.size(), 3);
    QCOMPARE(list.at(1).toObject().value(QStringLiteral("task")).toString(), QStringLiteral("c3_autocorrelation"));
    QCOMPARE(list.at(1).toObject().value(QStringLiteral("worlds")).toArray(), (QJsonArray{1, 3}));
    QVERIFY(list.at(2).toObject().value(QStringLiteral("task")).isNull());
    QCOMPARE(list.at(1).toObject().value(QStringLiteral("model")).toObject(), models.of(1).toJson());
    QVERIFY(!json.contains(QStringLiteral("cap")));
}

void TestImagination::imagineProjectOfTwoTasks()
{
    // `dreamrsi imagine --project` over a project of two tasks: one model per
    // task in --json, each world says its task, and no imagined cell of the
    // autocorrelation worlds carries a packing score.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QList<ReplayWorld> history = twoTaskHistory().mid(0, 4);
    QStringList files;
    for (qsizetype i = 0; i < history.size(); ++i) {
        files.append(dir.filePath(QStringLiteral("t%1.json").arg(i)));
        QVERIFY(TreeJson::writeFile(*history.at(i).tree, files.last()).ok());
    }
    const QString project = dir.filePath(QStringLiteral("two.dreamrsi"));
    auto run = runDreamrsi({QStringLiteral("project"), QStringLiteral("new"), project});
    QVERIFY2(run.finished && run.exitCode == 0, run.err.constData());
    run = runDreamrsi(QStringList{QStringLiteral("import"), project} + files);
    QVERIFY2(run.finished && run.exitCode == 0, run.err.constData());
    const QString out = dir.filePath(QStringLiteral("out"));
    run = runDreamrsi({QStringLiteral("imagine"), QStringLiteral("--project"), project, QStringLiteral("--out"), out,
                       QStringLiteral("--completions"), QStringLiteral("2"), QStringLiteral("--json")});
    QVERIFY2(run.finished && run.exitCode == 0, run.err.constData());
    QVERIFY2(run.err.contains("2 models, one per task") && run.err.contains("task c3_autocorrelation: 2 worlds"),
             run.err.constData());
    const QJsonObject json = QJsonDocument::fromJson(run.out).object();
    const QJsonArray models = json.value(QStringLiteral("model")).toObject().value(QStringLiteral("models")).toArray();
    QCOMPARE(models.size(), 2);
    QStringList tasks;
    for (const QJsonValue &m : models)
        tasks.append(m.toObject().value(QStringLiteral("task")).toString());
    QCOMPARE(tasks, (QStringList{QStringLiteral("circle_packing_26"), QStringLiteral("c3_autocorrelation")}));
    const double c3cap = models.at(1).toObject().value(QStringLiteral("model")).toObject().value(QStringLiteral("cap")).toDouble();
    QVERIFY(c3cap < 0.7);
    const QJsonArray worlds = json.value(QStringLiteral("worlds")).toArray();
    QCOMPARE(worlds.size(), 4);
    for (const QJsonValue &v : worlds) {
        const QJsonObject w = v.toObject();
        const int j = w.value(QStringLiteral("j")).toInt();
        QCOMPARE(w.value(QStringLiteral("task")).toString(), *history.at(j).tree->meta().task);
        if (w.value(QStringLiteral("task")).toString() != QLatin1String("c3_autocorrelation"))
            continue;
        for (int k = 0; k < 2; ++k) {
            const TreeJson::ParseResult done = TreeJson::readFile(QDir(out).filePath(QStringLiteral("h%1_k%2.json").arg(j).arg(k)));
            QVERIFY2(done.ok(), qPrintable(done.error.message));
            int imagined = 0;
            for (const Cell &c : done.tree->cells()) {
                if (!Imagination::isImagined(c))
                    continue;
                ++imagined;
                QVERIFY2(!c.score || *c.score <= c3cap, qPrintable(QStringLiteral("%1: %2").arg(c.id).arg(*c.score)));
            }
            QVERIFY(imagined > 0);
        }
    }
}

void TestImagination::imaginedValueMatchesReplay()
{
    // A dream (in memory, no developer's versions) values the deployed
    // version over the completions; `dreamrsi replay` over the files that
    // `imagine` writes with the same seed prints the same mean value.
    const QStringList paths = historyFiles(QStringLiteral("late"));
    const QList<ReplayWorld> history = readWorlds(paths);
    QList<DreamWorld> worlds;
    for (qsizetype i = 0; i < history.size(); ++i)
        worlds.append(DreamWorld{IterationId(i + 1), history.at(i)});
    DreamSettings settings;
    settings.versions = 1;
    settings.inProcess = true;
    settings.seed = 42;
    settings.replay.workers = 4;
    settings.replay.valuation = Valuation::Imagined;
    settings.replay.completions = 3;
    PolicyVersion deployed;
    deployed.name = QStringLiteral("builtin:portfolio");
    deployed.origin = PolicyOrigin::Builtin;
    deployed.code = BuiltinPolicies::javaScriptSource(QStringLiteral("portfolio"));
    Dreamer dreamer(nullptr, std::make_shared<NoDeveloper>());
    const DreamReport report = dreamer.runInMemory(worlds, settings, deployed, 1);
    QVERIFY2(report.error.isEmpty(), qPrintable(report.error));
    QCOMPARE(report.versions.size(), 1);
    const DreamVersion &v0 = report.versions.constFirst();
    QVERIFY(v0.imaginedValue);
    QVERIFY(v0.revealedValue); // the dialogs' other number
    QCOMPARE(*v0.developed.value, *v0.imaginedValue);
    QCOMPARE(report.config.valuation, Valuation::Imagined);
    QVERIFY(!report.model.isEmpty());

    QTemporaryDir out;
    QStringList args{QStringLiteral("imagine")};
    for (const QString &p : paths)
        args << QStringLiteral("--world") << p;
    args << QStringLiteral("--seed") << QStringLiteral("42") << QStringLiteral("--completions") << QStringLiteral("3")
         << QStringLiteral("--out") << out.path();
    const auto imagined = runDreamrsi(args);
    QVERIFY2(imagined.finished && imagined.exitCode == 0, imagined.err.constData());
    QStringList replayArgs{QStringLiteral("replay"), QStringLiteral("--policy"), QStringLiteral("builtin:portfolio"),
                           QStringLiteral("--workers"), QStringLiteral("4"), QStringLiteral("--json")};
    for (const QString &name : QDir(out.path()).entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name))
        replayArgs << QStringLiteral("--world") << QDir(out.path()).filePath(name);
    QCOMPARE(replayArgs.count(QStringLiteral("--world")), 9);
    const auto replayed = runDreamrsi(replayArgs);
    QVERIFY2(replayed.finished && replayed.exitCode == 0, replayed.err.constData());
    const QJsonObject result = QJsonDocument::fromJson(replayed.out).object();
    QVERIFY2(result.value(QStringLiteral("value")).isDouble(), replayed.out.left(400).constData());
    QVERIFY2(std::abs(result.value(QStringLiteral("value")).toDouble() - *v0.imaginedValue) <= 1e-12,
             qPrintable(QStringLiteral("%1 vs %2").arg(result.value(QStringLiteral("value")).toDouble(), 0, 'g', 17)
                            .arg(*v0.imaginedValue, 0, 'g', 17)));
    // The revealed number is the plain replay of the history.
    QStringList revealedArgs{QStringLiteral("replay"), QStringLiteral("--policy"), QStringLiteral("builtin:portfolio"),
                             QStringLiteral("--workers"), QStringLiteral("4"), QStringLiteral("--json")};
    for (const QString &p : paths)
        revealedArgs << QStringLiteral("--world") << p;
    const auto revealed = runDreamrsi(revealedArgs);
    QVERIFY(revealed.finished && revealed.exitCode == 0);
    QVERIFY(std::abs(QJsonDocument::fromJson(revealed.out).object().value(QStringLiteral("value")).toDouble() - *v0.revealedValue)
            <= 1e-12);
}

void TestImagination::counterfactualNamesItsValuation()
{
    // The loop over recorded worlds values its dreams over completions by
    // default, and its JSON names the valuation and C of every dream arm.
    CounterfactualSettings s;
    s.worldPaths = historyFiles(QStringLiteral("late"));
    s.iterations = 3;
    s.versions = 2;
    s.workers = 4;
    s.completions = 2;
    s.arms = {CounterfactualArm::Dream, CounterfactualArm::Fixed};
    QCOMPARE(s.valuation, Valuation::Imagined);
    CounterfactualLoop loop(std::make_shared<PolicyImprover>(2));
    const CounterfactualReport report = loop.run(s);
    QVERIFY2(report.error.isEmpty(), qPrintable(report.error));
    const QJsonObject json = CounterfactualLoop::toJson(report, s);
    for (const QJsonValue &v : json.value(QStringLiteral("runs")).toArray()) {
        const QJsonObject run = v.toObject();
        const bool fixed = run.value(QStringLiteral("fixed")).toBool();
        QCOMPARE(run.value(QStringLiteral("valuation")).toString(), fixed ? QString() : QStringLiteral("imagined"));
        if (!fixed)
            QCOMPARE(run.value(QStringLiteral("completions")).toInt(), 2);
        QCOMPARE(run.value(QStringLiteral("iterations")).toArray().size(), 3);
    }
    const QJsonObject dream = json.value(QStringLiteral("summary")).toObject().value(QStringLiteral("dream")).toObject();
    QCOMPARE(dream.value(QStringLiteral("valuation")).toString(), QStringLiteral("imagined"));
    QCOMPARE(json.value(QStringLiteral("config")).toObject().value(QStringLiteral("completions")).toInt(), 2);
    // The revealed valuation is said so, with no C.
    s.valuation = Valuation::Revealed;
    const QJsonObject revealed = CounterfactualLoop::toJson(loop.run(s), s);
    const QJsonObject arm = revealed.value(QStringLiteral("summary")).toObject().value(QStringLiteral("dream")).toObject();
    QCOMPARE(arm.value(QStringLiteral("valuation")).toString(), QStringLiteral("revealed"));
    QVERIFY(arm.value(QStringLiteral("completions")).isNull());
}

void TestImagination::badInput()
{
    QTemporaryDir out;
    // Neither --world nor --project.
    auto run = runDreamrsi({QStringLiteral("imagine"), QStringLiteral("--out"), out.path()});
    QCOMPARE(run.exitCode, 2);
    QVERIFY(run.err.contains("--world"));
    // A file that is not a tree: named, exit 1, nothing written.
    const QString bad = QDir(out.path()).filePath(QStringLiteral("bad.json"));
    QFile f(bad);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("{\"cells\": 3}");
    f.close();
    const QString dest = QDir(out.path()).filePath(QStringLiteral("completions"));
    run = runDreamrsi({QStringLiteral("imagine"), QStringLiteral("--world"), bad, QStringLiteral("--out"), dest});
    QCOMPARE(run.exitCode, 1);
    QVERIFY2(run.err.contains("bad.json"), run.err.constData());
    QVERIFY(!QFileInfo::exists(dest));
    // C must be at least 1.
    run = runDreamrsi({QStringLiteral("imagine"), QStringLiteral("--world"), historyFiles(QStringLiteral("late")).constFirst(),
                       QStringLiteral("--completions"), QStringLiteral("0"), QStringLiteral("--out"), dest});
    QCOMPARE(run.exitCode, 2);
    QVERIFY(run.err.contains("--completions"));
}

QTEST_GUILESS_MAIN(TestImagination)
#include "tst_imagination.moc"
