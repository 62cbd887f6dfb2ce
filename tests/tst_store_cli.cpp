// The store's headless commands, driven as the CLI drives them.
#include "model/treejson.h"
#include "store/projectreader.h"
#include "clirunsupport.h"
#include "commands.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace dreamrsi;

namespace {

using Run = dreamrsi::test::CommandRun;

Run run(int (*command)(const QStringList &, QTextStream &, QTextStream &), const QStringList &args)
{
    return dreamrsi::test::runCommand(command, args);
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
}

void TestStoreCli::usageErrors()
{
    QFETCH(int, which);
    QFETCH(QStringList, args);
    using Fn = int (*)(const QStringList &, QTextStream &, QTextStream &);
    const Fn fns[] = {runProjectCommand, runImportCommand, runProjectExportCommand, runLsCommand};
    const Run r = run(fns[which], args);
    QCOMPARE(r.rc, 2);
    QVERIFY2(r.err.contains(QStringLiteral("usage")) || r.err.startsWith(QStringLiteral("error: ")), qPrintable(r.err));
}

QTEST_GUILESS_MAIN(TestStoreCli)
#include "tst_store_cli.moc"
