// The history store: round trips, imports, rounds and recovery, policy
// versions, replay results, approvals, artifacts and the async service.
#include "model/treejson.h"
#include "store/artifactstore.h"
#include "store/projectfiles.h"
#include "store/projectreader.h"
#include "store/projectstore.h"
#include "store/projectwriter.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <sqlite3.h>

using namespace dreamrsi;

namespace {

QString demo(const char *name)
{
    return QStringLiteral(DREAMRSI_SOURCE_DIR "/tests/data/demo/") + QLatin1String(name);
}

DiscoveryTree readTree(const QString &path)
{
    TreeJson::ParseResult r = TreeJson::readFile(path);
    if (!r.ok())
        qFatal("%s", qPrintable(r.error.message));
    return *r.tree;
}

Cell makeCell(int branch, int attempt, qint64 seq, std::optional<double> score)
{
    Cell c;
    c.id = QStringLiteral("b%1a%2").arg(branch).arg(attempt);
    c.branch = branch;
    c.attempt = attempt;
    c.seq = seq;
    c.score = score;
    c.evaluated = score.has_value();
    c.failClass = QLatin1String(score ? FailClass::Ok : FailClass::Agent);
    c.payload.insert(QStringLiteral("program"), QStringLiteral("print(%1)").arg(seq));
    c.payload.insert(QStringLiteral("agent"), QJsonObject{{QStringLiteral("name"), QStringLiteral("builtin")},
                                                          {QStringLiteral("tokens_in"), 100 + seq}});
    return c;
}

template<typename T>
T take(StoreResult<T> r)
{
    if (!r.ok())
        qFatal("unexpected store error: %s", qPrintable(r.error));
    return std::move(*r.value);
}

} // namespace

class TestStore : public QObject
{
    Q_OBJECT
private slots:
    void roundTrip_data();
    void roundTrip();
    void payloadEdgeCases();
    void invalidImportStoresNothing();
    void importManyAllOrNothing();
    void bundleAndIterationExport();
    void roundLifecycleAndRecovery();
    void appendRejectsBadCells();
    void policiesResultsApprovals();
    void artifacts();
    void asyncService();
    void demoProject();
};

void TestStore::roundTrip_data()
{
    QTest::addColumn<QString>("file");
    QTest::addRow("c3") << demo("c3-iter1.json");
    QTest::addRow("circle-1") << demo("circle-packing-iter1.json");
    QTest::addRow("circle-2") << demo("circle-packing-iter2.json");
}

void TestStore::roundTrip()
{
    QFETCH(QString, file);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("p.dreamrsi"));
    const DiscoveryTree tree = readTree(file);
    IterationId id = 0;
    {
        auto w = take(ProjectWriter::create(path, ProjectInfo()));
        id = take(w->importTree(tree, file));
    }
    auto r = take(ProjectReader::open(path));
    const DiscoveryTree back = take(r->loadIteration(id));
    QCOMPARE(back.meta(), tree.meta());
    QCOMPARE(back.cellCount(), tree.cellCount());
    for (int i = 0; i < tree.cellCount(); ++i)
        QCOMPARE(back.cells().at(i), tree.cells().at(i));
    QCOMPARE(TreeJson::serialize(back), TreeJson::serialize(tree));
    const IterationInfo info = take(r->iteration(id));
    QCOMPARE(info.status, IterationStatus::Finished);
    QCOMPARE(info.cellCount, qint64(tree.cellCount()));
    QCOMPARE(info.bestScore, tree.bestScore());
    QCOMPARE(info.source, file);
}

void TestStore::payloadEdgeCases()
{
    // Conventional keys with unexpected types stay payload; empty objects,
    // nested values, unicode and exotic numbers survive.
    const QByteArray json = R"({"format": "dreamrsi-tree/1", "extra": {"a": [1, 2.5, null]},
      "cells": [
        {"id": "x", "branch": 0, "attempt": 0, "seq": 5, "score": -0.0, "proposal": 3, "program": "π ≈ 3.14159",
         "metrics": {}, "agent": "not an object", "timing": {"agent_s": 1.5, "eval_s": 0.25},
         "stdout": "", "stderr": "line\n\u0000zero", "n_valid": 0, "tags": ["t1", "t2", "a\",\"b", "", "é\\"], "valid": false},
        {"id": "y", "branch": 0, "attempt": 1, "seq": 7, "score": 1e-300, "metrics": {"deep": {"x": [true]}},
         "agent": {"name": "gpt", "model": "m", "tokens_in": 9007199254740991, "cost": 0.0125, "more": 1},
         "error": "boom", "fail_class": "weird-class", "tags": ["", ""]}
      ]})";
    TreeJson::ParseResult parsed = TreeJson::parse(json);
    QVERIFY2(parsed.ok(), qPrintable(parsed.error.message));
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("p.dreamrsi"));
    auto w = take(ProjectWriter::create(path, ProjectInfo()));
    const IterationId id = take(w->importTree(*parsed.tree));
    auto r = take(ProjectReader::open(path));
    const DiscoveryTree back = take(r->loadIteration(id));
    QCOMPARE(back.meta(), parsed.tree->meta());
    QCOMPARE(back.cells(), parsed.tree->cells());
    QCOMPARE(TreeJson::serialize(back), TreeJson::serialize(*parsed.tree));
}

void TestStore::invalidImportStoresNothing()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("p.dreamrsi"));
    auto w = take(ProjectWriter::create(path, ProjectInfo()));
    // The second file repeats a (branch, attempt) pair deep inside: the first,
    // valid file must not be stored either.
    QFile in(demo("c3-iter1.json"));
    QVERIFY(in.open(QIODevice::ReadOnly));
    QJsonObject top = QJsonDocument::fromJson(in.readAll()).object();
    QJsonArray cells = top.value(QStringLiteral("cells")).toArray();
    QJsonObject last = cells.last().toObject();
    last.insert(QStringLiteral("attempt"), cells.first().toObject().value(QStringLiteral("attempt")));
    last.insert(QStringLiteral("branch"), cells.first().toObject().value(QStringLiteral("branch")));
    cells.replace(cells.size() - 1, last);
    top.insert(QStringLiteral("cells"), cells);
    const QString badPath = dir.filePath(QStringLiteral("bad.json"));
    QFile bad(badPath);
    QVERIFY(bad.open(QIODevice::WriteOnly));
    bad.write(QJsonDocument(top).toJson());
    bad.close();
    const QString notJson = dir.filePath(QStringLiteral("garbage.json"));
    QFile g(notJson);
    QVERIFY(g.open(QIODevice::WriteOnly));
    g.write("{\"format\": \"dreamrsi-tree/1\", \"cells\": [");
    g.close();

    for (const QString &broken : {badPath, notJson}) {
        const StoreResult<QList<IterationId>> r =
            ProjectFiles::importTreeFiles(*w, {demo("circle-packing-iter1.json"), broken});
        QVERIFY(!r.ok());
        QVERIFY2(r.error.contains(broken), qPrintable(r.error));
        QVERIFY2(r.error.contains(QStringLiteral("nothing was imported")), qPrintable(r.error));
    }
    QVERIFY(!ProjectFiles::importTreeFiles(*w, {dir.filePath(QStringLiteral("missing.json"))}).ok());
    auto reader = take(ProjectReader::open(path));
    QCOMPARE(take(reader->iterations()).size(), 0);
    QCOMPARE(take(reader->cellCount()), qint64(0));
    QCOMPARE(take(ProjectFiles::importTreeFiles(*w, {demo("circle-packing-iter1.json")})).size(), 1);
}

void TestStore::importManyAllOrNothing()
{
    // A failure inside the database half-way through (injected with a
    // trigger) rolls every tree of the call back.
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("p.dreamrsi"));
    auto w = take(ProjectWriter::create(path, ProjectInfo()));
    const DiscoveryTree a = readTree(demo("circle-packing-iter1.json"));
    {
        sqlite3 *db = nullptr;
        QCOMPARE(sqlite3_open(path.toUtf8().constData(), &db), SQLITE_OK);
        QCOMPARE(sqlite3_exec(db,
                              "CREATE TRIGGER fault BEFORE INSERT ON cells WHEN "
                              "(SELECT count(*) FROM iterations) >= 3 AND NEW.seq = 40 "
                              "BEGIN SELECT RAISE(ABORT, 'injected fault'); END;",
                              nullptr, nullptr, nullptr),
                 SQLITE_OK);
        sqlite3_close(db);
    }
    const StoreResult<QList<IterationId>> r = w->importTrees({a, a, a}, {QStringLiteral("x.json")});
    QVERIFY(!r.ok());
    QVERIFY2(r.error.contains(QStringLiteral("injected fault")), qPrintable(r.error));
    auto reader = take(ProjectReader::open(path));
    QCOMPARE(take(reader->cellCount()), qint64(0));
    QCOMPARE(take(reader->iterations()).size(), 0);
    const QList<IterationId> ids = take(w->importTrees({a, a}));
    QCOMPARE(ids.size(), 2);
    QCOMPARE(take(reader->cellCount()), qint64(2 * a.cellCount()));
}

void TestStore::bundleAndIterationExport()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("p.dreamrsi"));
    auto w = take(ProjectWriter::create(path, ProjectInfo{QStringLiteral("bundled"), QStringLiteral("c3"), {}, {}, 0, {}, {}}));
    const DiscoveryTree tree = readTree(demo("c3-iter1.json"));
    const IterationId imported = take(w->importTree(tree, QStringLiteral("c3-iter1.json")));
    PolicyVersion v;
    v.name = QStringLiteral("v1");
    v.code = QStringLiteral("function selectBatch(s) { return []; }");
    const PolicyVersionId vid = take(w->addPolicyVersion(v));
    IterationInfo live;
    live.policyVersion = vid;
    live.gridReason = QStringLiteral("because");
    const IterationId round = take(w->beginIteration(live));
    const ArtifactRef a1 = take(w->putArtifact(QByteArrayLiteral("alpha"), QStringLiteral("main.py")));
    // a1 is kept in its row, a2 (over the inline limit) in the artifact folder.
    const QByteArray big(ArtifactStore::InlineLimit + 1000, 'z');
    const ArtifactRef a2 = take(w->putArtifact(big, QStringLiteral("log.txt")));
    take(w->appendCell(round, makeCell(0, 0, 0, 1.0), {a1, a2}));
    take(w->finishIteration(round, IterationStatus::Finished));

    // Whole iteration out.
    auto r = take(ProjectReader::open(path));
    const QString out = dir.filePath(QStringLiteral("iter"));
    take(ProjectFiles::exportIterationDir(*r, round, out));
    QFile art(out + QStringLiteral("/artifacts/b0a0/main.py"));
    QVERIFY(art.open(QIODevice::ReadOnly));
    QCOMPARE(art.readAll(), QByteArrayLiteral("alpha"));
    QFile meta(out + QStringLiteral("/iteration.json"));
    QVERIFY(meta.open(QIODevice::ReadOnly));
    const QJsonObject m = QJsonDocument::fromJson(meta.readAll()).object();
    QCOMPARE(m.value(QStringLiteral("policy")).toObject().value(QStringLiteral("name")).toString(), QStringLiteral("v1"));
    QCOMPARE(m.value(QStringLiteral("grid_reason")).toString(), QStringLiteral("because"));
    QVERIFY(TreeJson::readFile(out + QStringLiteral("/tree.json")).ok());

    // Bundle out while the writer keeps the project open, then in elsewhere.
    const QString bundle = dir.filePath(QStringLiteral("p.dreamrsi-bundle"));
    take(ProjectFiles::exportBundle(path, bundle));
    QVERIFY(!ProjectFiles::exportBundle(path, bundle).ok()); // never overwrites
    const QString copy = dir.filePath(QStringLiteral("copy/q.dreamrsi"));
    QVERIFY(QDir().mkpath(dir.filePath(QStringLiteral("copy"))));
    take(ProjectFiles::importBundle(bundle, copy));
    QVERIFY(!ProjectFiles::importBundle(bundle, copy).ok()); // never overwrites
    auto c = take(ProjectReader::open(copy));
    QCOMPARE(take(c->projectInfo()).name, QStringLiteral("bundled"));
    QCOMPARE(take(c->loadIteration(imported)).cells(), tree.cells());
    QCOMPARE(take(c->policyVersions()).size(), 1);
    QCOMPARE(take(c->readArtifact(a2.hash)), big);
    QCOMPARE(take(c->readArtifact(a1.hash)), QByteArrayLiteral("alpha"));
    QCOMPARE(take(c->cellArtifacts(round, QStringLiteral("b0a0"))).size(), 2);
    // A project is not a bundle, and a bundle is not a project.
    QVERIFY(!ProjectFiles::importBundle(path, dir.filePath(QStringLiteral("x.dreamrsi"))).ok());
    QVERIFY(!QFileInfo::exists(dir.filePath(QStringLiteral("x.dreamrsi"))));
    const StoreResult<std::unique_ptr<ProjectReader>> asProject = ProjectReader::open(bundle);
    QVERIFY(!asProject.ok());
    QVERIFY2(asProject.error.contains(QStringLiteral("not a Dream-RSI project")), qPrintable(asProject.error));
    // A missing artifact stops the bundle from being written at all.
    QVERIFY(QFile::remove(w->artifactDir() + QLatin1Char('/') + a2.hash.left(2) + QLatin1Char('/') + a2.hash));
    const StoreResult<Done> incomplete = ProjectFiles::exportBundle(path, dir.filePath(QStringLiteral("b2")));
    QVERIFY(!incomplete.ok());
    QVERIFY2(incomplete.error.contains(a2.hash), qPrintable(incomplete.error));
    QVERIFY(!QFileInfo::exists(dir.filePath(QStringLiteral("b2"))));
    QVERIFY(!QFileInfo::exists(dir.filePath(QStringLiteral("b2.part"))));
}

void TestStore::roundLifecycleAndRecovery()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("p.dreamrsi"));
    IterationId round = 0;
    {
        auto w = take(ProjectWriter::create(path, ProjectInfo{QStringLiteral("demo"), QStringLiteral("circle_packing_26"),
                                                              {}, {}, 0, {}, {}}));
        IterationInfo info;
        info.number = 4;
        info.task = QStringLiteral("circle_packing_26");
        info.grid = GridShape{3, 2};
        info.gridReason = QStringLiteral("three wide, two deep");
        info.beta = 0.5;
        info.maxParallelism = 3;
        round = take(w->beginIteration(info));
        take(w->appendCell(round, makeCell(0, 0, 0, 1.0)));
        take(w->appendCell(round, makeCell(1, 0, 1, 2.5)));
        take(w->appendCell(round, makeCell(0, 1, 2, std::nullopt)));
        // The writer goes away without finishing: as if the process died.
    }
    OpenReport report;
    auto w = take(ProjectWriter::open(path, &report));
    QCOMPARE(report.interrupted.size(), 1);
    QCOMPARE(report.interrupted.first().id, round);
    QCOMPARE(report.interrupted.first().status, IterationStatus::Interrupted);
    QCOMPARE(report.project.name, QStringLiteral("demo"));
    auto r = take(ProjectReader::open(path));
    IterationInfo info = take(r->iteration(round));
    QCOMPARE(info.status, IterationStatus::Interrupted);
    QCOMPARE(info.cellCount, qint64(3));
    QCOMPARE(info.bestScore, std::optional<double>(2.5));
    QCOMPARE(info.gridReason, QStringLiteral("three wide, two deep"));
    QCOMPARE(info.beta, std::optional<double>(0.5));
    // Interrupted rounds take no cells until resumed.
    QVERIFY(!w->appendCell(round, makeCell(2, 0, 3, 0.5)).ok());
    const QList<Cell> kept = take(w->resumeIteration(round));
    QCOMPARE(kept.size(), 3);
    QCOMPARE(kept.at(1), makeCell(1, 0, 1, 2.5));
    take(w->appendCell(round, makeCell(2, 0, 3, 0.5)));
    take(w->finishIteration(round, IterationStatus::Finished));
    QVERIFY(!w->finishIteration(round, IterationStatus::Finished).ok());
    info = take(r->iteration(round));
    QCOMPARE(info.status, IterationStatus::Finished);
    QVERIFY(info.finished.isValid());
    const DiscoveryTree tree = take(r->loadIteration(round));
    QCOMPARE(tree.cellCount(), 4);
    QCOMPARE(tree.meta().grid, std::optional<GridShape>(GridShape{3, 2}));
    // A clean reopen reports nothing.
    w.reset();
    OpenReport again;
    w = take(ProjectWriter::open(path, &again));
    QVERIFY(again.interrupted.isEmpty());
    QVERIFY(w->integrityCheck().ok());
}

void TestStore::appendRejectsBadCells()
{
    QTemporaryDir dir;
    auto w = take(ProjectWriter::create(dir.filePath(QStringLiteral("p.dreamrsi")), ProjectInfo()));
    const IterationId round = take(w->beginIteration(IterationInfo()));
    take(w->appendCell(round, makeCell(0, 0, 0, 1.0)));
    StoreResult<Done> dup = w->appendCell(round, makeCell(0, 0, 1, 1.0));
    QVERIFY(!dup.ok());
    QVERIFY2(dup.error.contains(QStringLiteral("b0a0")), qPrintable(dup.error));
    QVERIFY(!w->appendCell(round + 1, makeCell(1, 0, 2, 1.0)).ok());
    Cell empty = makeCell(1, 0, 3, 1.0);
    empty.id.clear();
    QVERIFY(!w->appendCell(round, empty).ok());
    QVERIFY(!w->appendCell(round, makeCell(1, 0, 4, 1.0), {ArtifactRef{QStringLiteral("00ff"), 1, QStringLiteral("x")}}).ok());
    auto r = take(ProjectReader::open(w->path()));
    QCOMPARE(take(r->iteration(round)).cellCount, qint64(1));
    QCOMPARE(take(r->cellCount()), qint64(1));
}

void TestStore::policiesResultsApprovals()
{
    QTemporaryDir dir;
    auto w = take(ProjectWriter::create(dir.filePath(QStringLiteral("p.dreamrsi")), ProjectInfo()));
    PolicyVersion base;
    base.name = QStringLiteral("builtin:greedy");
    base.code = QStringLiteral("function selectBatch(s) { return s.legal.slice(0, 1); }");
    base.origin = PolicyOrigin::Builtin;
    const PolicyVersionId v1 = take(w->addPolicyVersion(base));
    PolicyVersion child = base;
    child.name = QStringLiteral("v2");
    child.parent = v1;
    child.origin = PolicyOrigin::Agent;
    child.prompt = QStringLiteral("make it wider");
    child.response = QStringLiteral("```js\n…\n```");
    const PolicyVersionId v2 = take(w->addPolicyVersion(child));
    QVERIFY(!w->addPolicyVersion(child).ok()); // name taken
    PolicyVersion orphan = child;
    orphan.name = QStringLiteral("v3");
    orphan.parent = 999;
    const StoreResult<PolicyVersionId> o = w->addPolicyVersion(orphan);
    QVERIFY(!o.ok());
    QVERIFY2(o.error.contains(QStringLiteral("parent version 999")), qPrintable(o.error));

    const IterationId world = take(w->importTree(readTree(demo("c3-iter1.json"))));
    QList<ReplayResultRecord> results;
    for (double beta : {0.0, 0.5, 1.0}) {
        ReplayResultRecord rec;
        rec.key = ReplayKey{v2, world, beta, 10, 0.1, std::nullopt, std::nullopt};
        rec.calls = qint64(10 + beta * 10);
        rec.rounds = 2;
        rec.best = 0.6;
        rec.attainment = 0.9;
        rec.revealed = {QStringLiteral("b2a0"), QStringLiteral("b3a0")};
        results.append(rec);
    }
    results[2].key.rounds = 4;
    results[2].key.grid = GridShape{4, 3};
    results[2].error = QStringLiteral("round 3: id b7a2 is not legal");
    take(w->storeReplayResults(results));
    // Same key again replaces, does not duplicate.
    results[0].calls = 42;
    take(w->storeReplayResults({results[0]}));

    Approval a;
    a.version = v2;
    a.who = QStringLiteral("researcher");
    a.evidence = QJsonObject{{QStringLiteral("value"), 0.41}};
    a.note = QStringLiteral("wider is better");
    take(w->addApproval(a));
    a.version = 12345;
    QVERIFY(!w->addApproval(a).ok());

    auto r = take(ProjectReader::open(w->path()));
    const QList<PolicyVersion> versions = take(r->policyVersions());
    QCOMPARE(versions.size(), 2);
    QCOMPARE(versions.at(1).parent, v1);
    QCOMPARE(versions.at(1).origin, PolicyOrigin::Agent);
    QCOMPARE(versions.at(1).response, child.response);
    QCOMPARE(take(r->policyVersionByName(QStringLiteral("v2"))).id, v2);
    QVERIFY(!r->policyVersionByName(QStringLiteral("nope")).ok());
    const QList<ReplayResultRecord> stored = take(r->replayResults(v2));
    QCOMPARE(stored.size(), 3);
    QCOMPARE(take(r->replayResults(v1)).size(), 0);
    QCOMPARE(take(r->replayResults()).size(), 3);
    const auto find = [&](const ReplayKey &k) {
        for (const ReplayResultRecord &s : stored) {
            if (s.key == k)
                return s;
        }
        qFatal("result not found");
    };
    QCOMPARE(find(results[0].key).calls, qint64(42));
    const ReplayResultRecord last = find(results[2].key);
    QCOMPARE(last.error, results[2].error);
    QCOMPARE(last.key.grid, results[2].key.grid);
    QCOMPARE(last.revealed, results[2].revealed);
    const QList<Approval> approvals = take(r->approvals());
    QCOMPARE(approvals.size(), 1);
    QCOMPARE(approvals.first().evidence, a.evidence);
    QVERIFY(approvals.first().when.isValid());
}

void TestStore::artifacts()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("p.dreamrsi"));
    const QByteArray content = QByteArrayLiteral("int main() { return 0; }\n");
    const QByteArray big(ArtifactStore::InlineLimit + 1, 'L');
    ArtifactRef ref, bigRef;
    IterationId round = 0;
    {
        auto w = take(ProjectWriter::create(path, ProjectInfo()));
        ref = take(w->putArtifact(content, QStringLiteral("main.cpp")));
        QCOMPARE(ref.hash, ArtifactStore::hashOf(content));
        QCOMPARE(take(w->putArtifact(content, QStringLiteral("again.cpp"))).hash, ref.hash);
        bigRef = take(w->putArtifact(big, QStringLiteral("agent.log")));
        round = take(w->beginIteration(IterationInfo()));
        take(w->appendCell(round, makeCell(0, 0, 0, 1.0), {ref, bigRef}));
        // A small artifact lives in the database, a large one in the folder.
        const QString folder = w->artifactDir();
        QVERIFY(!QFileInfo::exists(folder + QLatin1Char('/') + ref.hash.left(2) + QLatin1Char('/') + ref.hash));
        QVERIFY(QFileInfo::exists(folder + QLatin1Char('/') + bigRef.hash.left(2) + QLatin1Char('/') + bigRef.hash));
    }
    {
        auto r = take(ProjectReader::open(path));
        const QList<ArtifactRef> refs = take(r->cellArtifacts(round, QStringLiteral("b0a0")));
        QCOMPARE(refs.size(), 2);
        QCOMPARE(refs.first().name, QStringLiteral("agent.log"));
        QCOMPARE(refs.last().name, QStringLiteral("main.cpp"));
        QCOMPARE(take(r->readArtifact(ref.hash)), content);
        QCOMPARE(take(r->readArtifact(bigRef.hash)), big);
    }
    // The project file copied alone still shows its small artifacts.
    {
        QVERIFY(QDir().mkpath(dir.filePath(QStringLiteral("elsewhere"))));
        const QString copy = dir.filePath(QStringLiteral("elsewhere/p.dreamrsi"));
        QVERIFY(QFile::copy(path, copy));
        auto r = take(ProjectReader::open(copy));
        QCOMPARE(take(r->readArtifact(ref.hash)), content);
        const StoreResult<QByteArray> lost = r->readArtifact(bigRef.hash);
        QVERIFY(!lost.ok());
        QVERIFY2(lost.error.contains(QStringLiteral("artifact folder")), qPrintable(lost.error));
    }
    // Corrupted content is reported, not returned: a file of the folder…
    {
        QFile f(ArtifactStore::folderFor(path) + QLatin1Char('/') + bigRef.hash.left(2) + QLatin1Char('/') + bigRef.hash);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("tampered");
    }
    auto r = take(ProjectReader::open(path));
    const StoreResult<QByteArray> bad = r->readArtifact(bigRef.hash);
    QVERIFY(!bad.ok());
    QVERIFY2(bad.error.contains(QStringLiteral("corrupted")), qPrintable(bad.error));
    // …and a row's content.
    r.reset();
    {
        sqlite3 *db = nullptr;
        QCOMPARE(sqlite3_open(path.toUtf8().constData(), &db), SQLITE_OK);
        QCOMPARE(sqlite3_exec(db, "UPDATE artifacts SET content = X'00' WHERE size < 1000;", nullptr, nullptr, nullptr),
                 SQLITE_OK);
        sqlite3_close(db);
    }
    r = take(ProjectReader::open(path));
    const StoreResult<QByteArray> badRow = r->readArtifact(ref.hash);
    QVERIFY(!badRow.ok());
    QVERIFY2(badRow.error.contains(QStringLiteral("corrupted")) && badRow.error.contains(ref.hash), qPrintable(badRow.error));
}

void TestStore::asyncService()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("p.dreamrsi"));
    ProjectStore store;
    QSignalSpy cells(&store, &ProjectStore::cellAppended);
    QSignalSpy iterations(&store, &ProjectStore::iterationChanged);
    auto created = store.create(path, ProjectInfo());
    created.waitForFinished();
    QVERIFY2(created.result().ok(), qPrintable(created.result().error));
    QCOMPARE(store.path(), QFileInfo(path).absoluteFilePath());

    auto begun = store.beginIteration(IterationInfo());
    begun.waitForFinished();
    const IterationId round = *begun.result().value;
    QList<QFuture<StoreResult<Done>>> appends;
    for (int i = 0; i < 20; ++i)
        appends.append(store.appendCell(round, makeCell(i, 0, i, i * 0.1)));
    bool sawResultOnGuiThread = false;
    auto loaded = appends.last()
                      .then(this, [&](const StoreResult<Done> &r) {
                          sawResultOnGuiThread = QThread::currentThread() == thread() && r.ok();
                      });
    QTRY_VERIFY_WITH_TIMEOUT(loaded.isFinished(), 10000);
    QVERIFY(sawResultOnGuiThread);
    for (auto &f : appends)
        QVERIFY(f.result().ok());
    auto tree = store.loadIteration(round);
    tree.waitForFinished();
    QVERIFY2(tree.result().ok(), qPrintable(tree.result().error));
    QCOMPARE(tree.result().value->cellCount(), 20);
    QTRY_COMPARE_WITH_TIMEOUT(cells.size(), 20, 5000);
    QTRY_COMPARE_WITH_TIMEOUT(iterations.size(), 1, 5000);

    // A second store cannot open the project for writing while this one has it.
    ProjectStore other;
    auto refused = other.open(path);
    refused.waitForFinished();
    QVERIFY(!refused.result().ok());
    QVERIFY2(refused.result().error.contains(QStringLiteral("already open")), qPrintable(refused.result().error));
    auto closed = store.close();
    closed.waitForFinished();
    auto noProject = store.iterations();
    noProject.waitForFinished();
    QVERIFY(!noProject.result().ok());
    auto reopened = other.open(path);
    reopened.waitForFinished();
    QVERIFY2(reopened.result().ok(), qPrintable(reopened.result().error));
    QCOMPARE(reopened.result().value->interrupted.size(), 1);
}

void TestStore::demoProject()
{
    // tests/data/demo/demo.dreamrsi: a copy of the demo project as resources/demo/make-demo-project.sh first made it.
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("demo.dreamrsi"));
    QVERIFY(QFile::copy(demo("demo.dreamrsi"), path));
    QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner);
    OpenReport report;
    auto w = take(ProjectWriter::open(path, &report));
    QVERIFY(report.interrupted.isEmpty());
    QVERIFY(report.missingArtifacts.isEmpty());
    QVERIFY(w->integrityCheck().ok());
    auto r = take(ProjectReader::open(path));
    const QList<IterationInfo> its = take(r->iterations());
    QCOMPARE(its.size(), 3);
    const char *files[] = {"c3-iter1.json", "circle-packing-iter1.json", "circle-packing-iter2.json"};
    for (int i = 0; i < 3; ++i)
        QCOMPARE(TreeJson::serialize(take(r->loadIteration(its.at(i).id))), TreeJson::serialize(readTree(demo(files[i]))));
    const QList<PolicyVersion> versions = take(r->policyVersions());
    QCOMPARE(versions.size(), 2);
    for (const PolicyVersion &v : versions) {
        QCOMPARE(v.origin, PolicyOrigin::Builtin);
        QVERIFY(v.code.contains(QStringLiteral("selectBatch")));
        const QList<ReplayResultRecord> results = take(r->replayResults(v.id));
        QCOMPARE(results.size(), 3 * 5); // three worlds, the default five betas
        for (const ReplayResultRecord &rec : results) {
            QVERIFY(!rec.error);
            QVERIFY(rec.calls > 0 && rec.attainment > 0.0 && rec.attainment <= 1.0);
            QCOMPARE(rec.revealed.size(), rec.calls);
        }
    }
}

QTEST_GUILESS_MAIN(TestStore)
#include "tst_store.moc"
