// The store's headless commands, driven as the CLI drives them.
#include "model/treejson.h"
#include "replay/replaycommand.h"
#include "store/projectreader.h"
#include "store/storecommands.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace dreamrsi;

namespace {

struct Run
{
    int rc = 0;
    QString out;
    QString err;
};

Run run(int (*command)(const QStringList &, QTextStream &, QTextStream &), const QStringList &args)
{
    Run r;
    QTextStream out(&r.out);
    QTextStream err(&r.err);
    r.rc = command(args, out, err);
    out.flush();
    err.flush();
    return r;
}

QString demo(const char *name)
{
    return QStringLiteral(DREAMRSI_SOURCE_DIR "/tests/data/demo/") + QLatin1String(name);
}

} // namespace

class TestStoreCli : public QObject
{
    Q_OBJECT
private slots:
    void projectImportLsExport();
    void usageErrors_data();
    void usageErrors();
    void replayIntoProject();
};

void TestStoreCli::projectImportLsExport()
{
    QTemporaryDir dir;
    const QString p = dir.filePath(QStringLiteral("p.dreamrsi"));
    Run r = run(runProjectCommand, {QStringLiteral("new"), p, QStringLiteral("--name"), QStringLiteral("Demo")});
    QCOMPARE(r.rc, 0);
    QCOMPARE(run(runProjectCommand, {QStringLiteral("new"), p}).rc, 1); // exists
    r = run(runImportCommand, {p, demo("c3-iter1.json"), demo("circle-packing-iter1.json")});
    QVERIFY2(r.rc == 0, qPrintable(r.err));
    QVERIFY(r.out.contains(QStringLiteral("stored as iteration 2")));

    const QString bad = dir.filePath(QStringLiteral("bad.json"));
    QFile f(bad);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(R"({"format": "dreamrsi-tree/1", "cells": [{"id": "a", "branch": 0, "attempt": 1, "seq": 0}]})");
    f.close();
    r = run(runImportCommand, {p, demo("circle-packing-iter2.json"), bad});
    QCOMPARE(r.rc, 1);
    QVERIFY2(r.err.contains(bad) && r.err.contains(QStringLiteral("nothing was imported")), qPrintable(r.err));

    r = run(runLsCommand, {p});
    QCOMPARE(r.rc, 0);
    QCOMPARE(r.out.count(QStringLiteral("finished")), 2);
    r = run(runProjectCommand, {QStringLiteral("info"), p});
    QCOMPARE(r.rc, 0);
    QVERIFY2(r.out.contains(QStringLiteral("cells       149")), qPrintable(r.out));

    // Tree out equals the file that went in (canonically written).
    const QString out = dir.filePath(QStringLiteral("it1.json"));
    QCOMPARE(run(runProjectExportCommand, {p, QStringLiteral("--iteration"), QStringLiteral("1"), QStringLiteral("-o"), out}).rc, 0);
    QCOMPARE(TreeJson::serialize(*TreeJson::readFile(out).tree), TreeJson::serialize(*TreeJson::readFile(demo("c3-iter1.json")).tree));
    r = run(runProjectExportCommand, {p, QStringLiteral("--iteration"), QStringLiteral("2")});
    QCOMPARE(r.rc, 0);
    QVERIFY(TreeJson::parse(r.out.toUtf8()).ok());
    QCOMPARE(run(runProjectExportCommand, {p, QStringLiteral("--iteration"), QStringLiteral("9")}).rc, 1);
    // The tree-file form still works through the same entry.
    r = run(runProjectExportCommand, {demo("c3-iter1.json")});
    QCOMPARE(r.rc, 0);
    QVERIFY(TreeJson::parse(r.out.toUtf8()).ok());

    // Whole iteration, all iterations, bundle round trip.
    QCOMPARE(run(runProjectExportCommand, {p, QStringLiteral("--iteration"), QStringLiteral("2"), QStringLiteral("--dir"),
                                           dir.filePath(QStringLiteral("it2"))}).rc, 0);
    QVERIFY(QFileInfo::exists(dir.filePath(QStringLiteral("it2/iteration.json"))));
    QCOMPARE(run(runProjectExportCommand, {p, QStringLiteral("--all"), QStringLiteral("--dir"), dir.filePath(QStringLiteral("all"))}).rc, 0);
    QVERIFY(QFileInfo::exists(dir.filePath(QStringLiteral("all/iteration-2.json"))));
    const QString bundle = dir.filePath(QStringLiteral("p.bundle"));
    QCOMPARE(run(runProjectExportCommand, {p, QStringLiteral("--bundle"), bundle}).rc, 0);
    const QString q = dir.filePath(QStringLiteral("q.dreamrsi"));
    QCOMPARE(run(runImportCommand, {QStringLiteral("--bundle"), bundle, q}).rc, 0);
    QCOMPARE(run(runLsCommand, {q}).out, run(runLsCommand, {p}).out);

    // Policies.
    const QString js = dir.filePath(QStringLiteral("mine.js"));
    QFile pf(js);
    QVERIFY(pf.open(QIODevice::WriteOnly));
    pf.write("function selectBatch(state) { return state.legal.slice(0, 1); }\n");
    pf.close();
    QCOMPARE(run(runImportCommand, {p, QStringLiteral("--policy"), js}).rc, 0);
    r = run(runImportCommand, {p, QStringLiteral("--policy"), js, QStringLiteral("--name"), QStringLiteral("mine2"),
                               QStringLiteral("--parent"), QStringLiteral("mine"), QStringLiteral("--origin"),
                               QStringLiteral("agent")});
    QVERIFY2(r.rc == 0, qPrintable(r.err));
    QCOMPARE(run(runImportCommand, {p, QStringLiteral("--policy"), js}).rc, 1); // name taken
    r = run(runLsCommand, {p, QStringLiteral("policies")});
    QVERIFY2(r.out.contains(QStringLiteral("mine2")) && r.out.contains(QStringLiteral("agent")), qPrintable(r.out));
}

void TestStoreCli::usageErrors_data()
{
    QTest::addColumn<int>("which");
    QTest::addColumn<QStringList>("args");
    QTest::addRow("project nothing") << 0 << QStringList{};
    QTest::addRow("project bad sub") << 0 << QStringList{QStringLiteral("frob")};
    QTest::addRow("import nothing") << 1 << QStringList{};
    QTest::addRow("import no trees") << 1 << QStringList{QStringLiteral("p.dreamrsi")};
    QTest::addRow("export two forms") << 2 << QStringList{QStringLiteral("p"), QStringLiteral("--all"), QStringLiteral("--iteration"), QStringLiteral("1")};
    QTest::addRow("export bad id") << 2 << QStringList{QStringLiteral("p"), QStringLiteral("--iteration"), QStringLiteral("x")};
    QTest::addRow("ls bad kind") << 3 << QStringList{QStringLiteral("p"), QStringLiteral("frobs")};
    QTest::addRow("replay no project") << 4 << QStringList{QStringLiteral("--policy"), QStringLiteral("builtin:portfolio")};
    QTest::addRow("replay world and project") << 4 << QStringList{QStringLiteral("--project"), QStringLiteral("p"), QStringLiteral("--world"), QStringLiteral("w.json"), QStringLiteral("--policy"), QStringLiteral("x")};
}

void TestStoreCli::usageErrors()
{
    QFETCH(int, which);
    QFETCH(QStringList, args);
    using Fn = int (*)(const QStringList &, QTextStream &, QTextStream &);
    const Fn fns[] = {runProjectCommand, runImportCommand, runProjectExportCommand, runLsCommand, runProjectReplayCommand};
    const Run r = run(fns[which], args);
    QCOMPARE(r.rc, 2);
    QVERIFY2(r.err.contains(QStringLiteral("usage")) || r.err.startsWith(QStringLiteral("error: ")), qPrintable(r.err));
}

void TestStoreCli::replayIntoProject()
{
    QTemporaryDir dir;
    const QString p = dir.filePath(QStringLiteral("p.dreamrsi"));
    QCOMPARE(run(runProjectCommand, {QStringLiteral("new"), p}).rc, 0);
    const QStringList worlds = {demo("c3-iter1.json"), demo("circle-packing-iter1.json"), demo("circle-packing-iter2.json")};
    QCOMPARE(run(runImportCommand, QStringList{p} + worlds).rc, 0);
    const QStringList common = {QStringLiteral("--betas"), QStringLiteral("0,0.5,1"), QStringLiteral("--workers"),
                                QStringLiteral("4"), QStringLiteral("--threads"), QStringLiteral("1"), QStringLiteral("--json")};

    Run r = run(runProjectReplayCommand,
                QStringList{QStringLiteral("--project"), p, QStringLiteral("--policy"), QStringLiteral("builtin:portfolio")} + common);
    QVERIFY2(r.rc == 0, qPrintable(r.err));
    QVERIFY2(r.err.contains(QStringLiteral("stored 9 results")), qPrintable(r.err));
    const QJsonObject fromProject = QJsonDocument::fromJson(r.out.toUtf8()).object();

    // The same replay straight from the files gives the same numbers.
    QStringList direct = {QStringLiteral("--policy"), QStringLiteral("builtin:portfolio")};
    for (const QString &w : worlds)
        direct << QStringLiteral("--world") << w;
    r = run(runReplayCommand, direct + common);
    QCOMPARE(r.rc, 0);
    const QJsonObject fromFiles = QJsonDocument::fromJson(r.out.toUtf8()).object();
    QCOMPARE(fromProject.value(QStringLiteral("value")), fromFiles.value(QStringLiteral("value")));

    auto reader = ProjectReader::open(p);
    QVERIFY(reader.ok());
    const PolicyVersion v = *(*reader.value)->policyVersionByName(QStringLiteral("builtin:portfolio")).value;
    QCOMPARE(v.origin, PolicyOrigin::Builtin);
    QVERIFY(v.code.contains(QStringLiteral("selectBatch")));
    const QList<ReplayResultRecord> stored = *(*reader.value)->replayResults(v.id).value;
    QCOMPARE(stored.size(), 9);
    const QJsonArray fileWorlds = fromFiles.value(QStringLiteral("worlds")).toArray();
    for (const ReplayResultRecord &rec : stored) {
        const QJsonArray sweep = fileWorlds.at(int(rec.key.world - 1)).toObject().value(QStringLiteral("sweep")).toArray();
        bool found = false;
        for (const QJsonValue &e : sweep) {
            const QJsonObject o = e.toObject();
            if (o.value(QStringLiteral("beta")).toDouble() != rec.key.beta)
                continue;
            found = true;
            QCOMPARE(rec.calls, qint64(o.value(QStringLiteral("calls")).toInt()));
            QCOMPARE(rec.rounds, o.value(QStringLiteral("rounds")).toInt());
            QCOMPARE(rec.attainment, o.value(QStringLiteral("attainment")).toDouble());
            QCOMPARE(QJsonArray::fromStringList(rec.revealed), o.value(QStringLiteral("revealed")).toArray());
        }
        QVERIFY(found);
        QCOMPARE(rec.key.workers, 4);
    }

    // Again: results are replaced, not duplicated; a stored version is found by name.
    r = run(runProjectReplayCommand,
            QStringList{QStringLiteral("--project"), p, QStringLiteral("--policy"), QStringLiteral("builtin:portfolio")} + common);
    QCOMPARE(r.rc, 0);
    QCOMPARE((*reader.value)->replayResults(v.id).value->size(), 9);

    // A script stored as a version, then replayed by its name.
    const QString js = dir.filePath(QStringLiteral("first.js"));
    QFile f(js);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("function selectBatch(state) { return state.legal.slice(0, 1); }\n");
    f.close();
    r = run(runProjectReplayCommand, QStringList{QStringLiteral("--project"), p, QStringLiteral("--policy"), js} + common);
    QVERIFY2(r.rc == 0, qPrintable(r.err));
    r = run(runProjectReplayCommand,
            QStringList{QStringLiteral("--project"), p, QStringLiteral("--policy"), QStringLiteral("first")} + common);
    QVERIFY2(r.rc == 0, qPrintable(r.err));
    QCOMPARE((*reader.value)->replayResults().value->size(), 18);

    // A script that breaks the rules: its errors are stored and reported.
    const QString badJs = dir.filePath(QStringLiteral("bad.js"));
    QFile b(badJs);
    QVERIFY(b.open(QIODevice::WriteOnly));
    b.write("function selectBatch(state) { return ['nope']; }\n");
    b.close();
    r = run(runProjectReplayCommand, QStringList{QStringLiteral("--project"), p, QStringLiteral("--policy"), badJs} + common);
    QCOMPARE(r.rc, 1);
    const PolicyVersion badVersion = *(*reader.value)->policyVersionByName(QStringLiteral("bad")).value;
    const QList<ReplayResultRecord> errors = *(*reader.value)->replayResults(badVersion.id).value;
    QVERIFY(!errors.isEmpty());
    QVERIFY(errors.first().error.has_value());
    QVERIFY2(errors.first().error->contains(QStringLiteral("round 1")), qPrintable(*errors.first().error));

    r = run(runProjectReplayCommand, QStringList{QStringLiteral("--project"), p, QStringLiteral("--policy"), QStringLiteral("unknown")});
    QCOMPARE(r.rc, 1);
    QVERIFY2(r.err.contains(QStringLiteral("no policy version named")), qPrintable(r.err));
    QCOMPARE(run(runLsCommand, {p, QStringLiteral("results"), QStringLiteral("--policy"), QStringLiteral("first")}).out.count(QLatin1Char('\n')), 10);
}

QTEST_GUILESS_MAIN(TestStoreCli)
#include "tst_store_cli.moc"
