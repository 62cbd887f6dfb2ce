// The discovery-tree model against docs/tree-format.md: one row per acceptance or
// rejection rule, defaults, effective score, B and S, payload round trips.
#include "model/treejson.h"
#include "model/treesummary.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

using namespace dreamrsi;

namespace {

/// A tree file with the given cells (JSON text of the array elements).
QByteArray treeWith(const QByteArray &cells, const QByteArray &extraTop = {})
{
    return "{\"format\":\"dreamrsi-tree/1\"" + extraTop + ",\"cells\":[" + cells + "]}";
}

QByteArray cell(const char *id, int branch, int attempt, int seq, const QByteArray &extra = {})
{
    return QByteArray("{\"id\":\"") + id + "\",\"branch\":" + QByteArray::number(branch)
           + ",\"attempt\":" + QByteArray::number(attempt) + ",\"seq\":" + QByteArray::number(seq) + extra + "}";
}

} // namespace

class TestTreeModel : public QObject
{
    Q_OBJECT
private slots:
    void accepts_data();
    void accepts();
    void rejects_data();
    void rejects();
    void defaults();
    void effectiveScore_data();
    void effectiveScore();
    void bestAndScorable();
    void branchIndex();
    void roundTripKeepsPayload();
    void exportIsCanonical();
    void readFileNamesPath();
    void summaryCountsFailClasses();
};

void TestTreeModel::accepts_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<int>("cells");
    QTest::addColumn<int>("branches");

    QTest::addRow("empty tree") << treeWith({}) << 0 << 0;
    QTest::addRow("one root") << treeWith(cell("a", 0, 0, 0)) << 1 << 1;
    QTest::addRow("chain") << treeWith(cell("a", 0, 0, 0) + "," + cell("b", 0, 1, 1) + "," + cell("c", 0, 2, 2)) << 3 << 1;
    QTest::addRow("sparse branch ids") << treeWith(cell("a", 3, 0, 0) + "," + cell("b", 17, 0, 1)) << 2 << 2;
    QTest::addRow("file order differs from seq") << treeWith(cell("b", 0, 1, 5) + "," + cell("a", 0, 0, 9)) << 2 << 1;
    QTest::addRow("negative seq") << treeWith(cell("a", 0, 0, -4)) << 1 << 1;
    QTest::addRow("score null") << treeWith(cell("a", 0, 0, 0, ",\"score\":null")) << 1 << 1;
    QTest::addRow("negative score") << treeWith(cell("a", 0, 0, 0, ",\"score\":-3.5")) << 1 << 1;
    QTest::addRow("integral double branch") << treeWith("{\"id\":\"a\",\"branch\":2.0,\"attempt\":0,\"seq\":0}") << 1 << 1;
    QTest::addRow("unknown fail class kept") << treeWith(cell("a", 0, 0, 0, ",\"fail_class\":\"oom-killer\"")) << 1 << 1;
    QTest::addRow("all optional fields")
        << treeWith(cell("a", 0, 0, 0,
                         ",\"score\":1.5,\"evaluated\":true,\"valid\":true,\"fail_class\":\"ok\",\"error\":null,"
                         "\"n_valid\":5,\"n_total\":5,\"tags\":[\"x\",\"y\"]"))
        << 1 << 1;
    QTest::addRow("top-level optional fields")
        << treeWith(cell("a", 0, 0, 0),
                    ",\"task\":\"t\",\"iteration\":3,\"baseline_score\":0.5,\"max_parallelism\":10,"
                    "\"grid\":{\"branches\":10,\"refinements\":4}")
        << 1 << 1;
    QTest::addRow("null top-level optionals")
        << treeWith(cell("a", 0, 0, 0), ",\"task\":null,\"iteration\":null,\"baseline_score\":null") << 1 << 1;
    QTest::addRow("payload keys") << treeWith(cell("a", 0, 0, 0, ",\"proposal\":\"p\",\"metrics\":{\"x\":[1,2]}"),
                                              ",\"source\":{\"k\":1}")
                                  << 1 << 1;
}

void TestTreeModel::accepts()
{
    QFETCH(QByteArray, json);
    QFETCH(int, cells);
    QFETCH(int, branches);
    const TreeJson::ParseResult r = TreeJson::parse(json);
    QVERIFY2(r.ok(), qPrintable(r.error.message));
    QCOMPARE(r.tree->cellCount(), cells);
    QCOMPARE(int(r.tree->branches().size()), branches);
}

void TestTreeModel::rejects_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<int>("cellIndex");
    QTest::addColumn<QString>("field");
    QTest::addColumn<QString>("messagePart");

    const QByteArray a0 = cell("a", 0, 0, 0);
    QTest::addRow("not json") << QByteArray("{\"format\":") << -1 << QString() << QStringLiteral("not valid JSON");
    QTest::addRow("top is array") << QByteArray("[]") << -1 << QString() << QStringLiteral("not a JSON object");
    QTest::addRow("format missing") << QByteArray("{\"cells\":[]}") << -1 << QStringLiteral("format") << QStringLiteral("missing");
    QTest::addRow("format wrong") << QByteArray("{\"format\":\"dreamrsi-tree/2\",\"cells\":[]}") << -1
                                  << QStringLiteral("format") << QStringLiteral("dreamrsi-tree/2");
    QTest::addRow("cells missing") << QByteArray("{\"format\":\"dreamrsi-tree/1\"}") << -1 << QStringLiteral("cells")
                                   << QStringLiteral("missing");
    QTest::addRow("cells not array") << QByteArray("{\"format\":\"dreamrsi-tree/1\",\"cells\":{}}") << -1
                                     << QStringLiteral("cells") << QStringLiteral("array");
    QTest::addRow("cell not object") << treeWith(a0 + ",3") << 1 << QString() << QStringLiteral("cell 1");
    QTest::addRow("id missing") << treeWith("{\"branch\":0,\"attempt\":0,\"seq\":0}") << 0 << QStringLiteral("id")
                                << QStringLiteral("missing");
    QTest::addRow("id empty") << treeWith(cell("", 0, 0, 0)) << 0 << QStringLiteral("id") << QStringLiteral("non-empty");
    QTest::addRow("id number") << treeWith("{\"id\":7,\"branch\":0,\"attempt\":0,\"seq\":0}") << 0 << QStringLiteral("id")
                               << QStringLiteral("string");
    QTest::addRow("branch missing") << treeWith("{\"id\":\"a\",\"attempt\":0,\"seq\":0}") << 0 << QStringLiteral("branch")
                                    << QStringLiteral("missing");
    QTest::addRow("branch string") << treeWith("{\"id\":\"a\",\"branch\":\"0\",\"attempt\":0,\"seq\":0}") << 0
                                   << QStringLiteral("branch") << QStringLiteral("integer");
    QTest::addRow("branch negative") << treeWith(cell("a", -1, 0, 0)) << 0 << QStringLiteral("branch") << QStringLiteral(">= 0");
    QTest::addRow("branch fractional") << treeWith("{\"id\":\"a\",\"branch\":0.5,\"attempt\":0,\"seq\":0}") << 0
                                       << QStringLiteral("branch") << QStringLiteral("integer");
    QTest::addRow("branch huge") << treeWith("{\"id\":\"a\",\"branch\":1e300,\"attempt\":0,\"seq\":0}") << 0
                                 << QStringLiteral("branch") << QStringLiteral("range");
    QTest::addRow("attempt missing") << treeWith("{\"id\":\"a\",\"branch\":0,\"seq\":0}") << 0 << QStringLiteral("attempt")
                                     << QStringLiteral("missing");
    QTest::addRow("attempt negative") << treeWith(cell("a", 0, -2, 0)) << 0 << QStringLiteral("attempt") << QStringLiteral(">= 0");
    QTest::addRow("seq missing") << treeWith("{\"id\":\"a\",\"branch\":0,\"attempt\":0}") << 0 << QStringLiteral("seq")
                                 << QStringLiteral("missing");
    QTest::addRow("seq null") << treeWith("{\"id\":\"a\",\"branch\":0,\"attempt\":0,\"seq\":null}") << 0
                              << QStringLiteral("seq") << QStringLiteral("integer");
    QTest::addRow("seq fractional") << treeWith("{\"id\":\"a\",\"branch\":0,\"attempt\":0,\"seq\":1.25}") << 0
                                    << QStringLiteral("seq") << QStringLiteral("integer");
    QTest::addRow("duplicate id") << treeWith(a0 + "," + cell("a", 1, 0, 1)) << 1 << QStringLiteral("id")
                                  << QStringLiteral("repeats");
    QTest::addRow("duplicate pair") << treeWith(a0 + "," + cell("b", 0, 0, 1)) << 1 << QStringLiteral("attempt")
                                    << QStringLiteral("repeats");
    QTest::addRow("duplicate seq") << treeWith(a0 + "," + cell("b", 1, 0, 0)) << 1 << QStringLiteral("seq")
                                   << QStringLiteral("repeats");
    QTest::addRow("gap in attempts") << treeWith(a0 + "," + cell("c", 0, 2, 2)) << 1 << QStringLiteral("attempt")
                                     << QStringLiteral("0..L-1");
    QTest::addRow("branch without attempt 0") << treeWith(cell("b", 4, 1, 0)) << 0 << QStringLiteral("attempt")
                                              << QStringLiteral("no attempt 0");
    QTest::addRow("score string") << treeWith(cell("a", 0, 0, 0, ",\"score\":\"1.0\"")) << 0 << QStringLiteral("score")
                                  << QStringLiteral("number");
    // JSON cannot spell NaN or infinity, but Python's json.dump writes them
    // (NaN, Infinity) and a literal past the largest double reads as one:
    // the file is rejected with the cell and the field named.
    QTest::addRow("score overflows") << treeWith(cell("a", 0, 0, 0, ",\"score\":1e999")) << 0 << QStringLiteral("score")
                                     << QStringLiteral("1e999 is not a finite number");
    QTest::addRow("score NaN") << treeWith(a0 + "," + cell("b", 1, 0, 1, ",\"score\":NaN")) << 1 << QStringLiteral("score")
                               << QStringLiteral("NaN is not a finite number");
    QTest::addRow("score -Infinity") << treeWith(cell("a", 0, 0, 0, ",\"score\": -Infinity ")) << 0 << QStringLiteral("score")
                                     << QStringLiteral("-Infinity is not a finite number");
    QTest::addRow("payload Infinity") << treeWith(cell("a", 0, 0, 0, ",\"m\":{\"x\":[1,Infinity]},\"score\":NaN")) << 0
                                      << QStringLiteral("m.x[1]") << QStringLiteral("Infinity is not a finite number");
    QTest::addRow("baseline NaN") << treeWith(a0, ",\"baseline_score\":NaN") << -1 << QStringLiteral("baseline_score")
                                  << QStringLiteral("NaN is not a finite number");
    QTest::addRow("NaN and a broken file") << QByteArray("{\"format\":\"dreamrsi-tree/1\",\"cells\":[{\"score\":NaN,}]}") << -1
                                           << QString() << QStringLiteral("not valid JSON: illegal number");
    QTest::addRow("cell not an object") << treeWith(a0 + ",1") << 1 << QString()
                                        << QStringLiteral("cell 1: is the number 1, expected an object");
    QTest::addRow("evaluated string") << treeWith(cell("a", 0, 0, 0, ",\"evaluated\":\"yes\"")) << 0
                                      << QStringLiteral("evaluated") << QStringLiteral("boolean");
    QTest::addRow("valid number") << treeWith(cell("a", 0, 0, 0, ",\"valid\":1")) << 0 << QStringLiteral("valid")
                                  << QStringLiteral("boolean");
    QTest::addRow("fail_class null") << treeWith(cell("a", 0, 0, 0, ",\"fail_class\":null")) << 0
                                     << QStringLiteral("fail_class") << QStringLiteral("string");
    QTest::addRow("error number") << treeWith(cell("a", 0, 0, 0, ",\"error\":5")) << 0 << QStringLiteral("error")
                                  << QStringLiteral("string");
    QTest::addRow("n_valid fractional") << treeWith(cell("a", 0, 0, 0, ",\"n_valid\":1.5")) << 0
                                        << QStringLiteral("n_valid") << QStringLiteral("integer");
    QTest::addRow("n_total string") << treeWith(cell("a", 0, 0, 0, ",\"n_total\":\"5\"")) << 0
                                    << QStringLiteral("n_total") << QStringLiteral("integer");
    QTest::addRow("tags not array") << treeWith(cell("a", 0, 0, 0, ",\"tags\":\"x\"")) << 0 << QStringLiteral("tags")
                                    << QStringLiteral("array");
    QTest::addRow("tag not string") << treeWith(cell("a", 0, 0, 0, ",\"tags\":[\"x\",2]")) << 0 << QStringLiteral("tags")
                                    << QStringLiteral("element 1");
    QTest::addRow("baseline string") << treeWith(a0, ",\"baseline_score\":\"x\"") << -1 << QStringLiteral("baseline_score")
                                     << QStringLiteral("number");
    QTest::addRow("iteration fractional") << treeWith(a0, ",\"iteration\":2.5") << -1 << QStringLiteral("iteration")
                                          << QStringLiteral("integer");
    QTest::addRow("task number") << treeWith(a0, ",\"task\":4") << -1 << QStringLiteral("task") << QStringLiteral("string");
    QTest::addRow("max_parallelism zero") << treeWith(a0, ",\"max_parallelism\":0") << -1
                                          << QStringLiteral("max_parallelism") << QStringLiteral(">= 1");
    QTest::addRow("grid not object") << treeWith(a0, ",\"grid\":[1,2]") << -1 << QStringLiteral("grid")
                                     << QStringLiteral("object");
    QTest::addRow("grid missing branches") << treeWith(a0, ",\"grid\":{\"refinements\":2}") << -1
                                           << QStringLiteral("grid.branches") << QStringLiteral("missing");
}

void TestTreeModel::rejects()
{
    QFETCH(QByteArray, json);
    QFETCH(int, cellIndex);
    QFETCH(QString, field);
    QFETCH(QString, messagePart);
    const TreeJson::ParseResult r = TreeJson::parse(json);
    QVERIFY(!r.ok());
    QCOMPARE(r.error.cellIndex, cellIndex);
    QCOMPARE(r.error.field, field);
    QVERIFY2(r.error.message.contains(messagePart), qPrintable(r.error.message));
    if (cellIndex >= 0)
        QVERIFY2(r.error.message.contains(QStringLiteral("cell %1").arg(cellIndex)), qPrintable(r.error.message));
}

void TestTreeModel::defaults()
{
    const TreeJson::ParseResult r = TreeJson::parse(treeWith(
        cell("scored", 0, 0, 0, ",\"score\":2") + "," + cell("unscored", 1, 0, 1) + ","
        + cell("errored", 2, 0, 2, ",\"score\":1,\"error\":\"boom\"") + ","
        + cell("notEvaluated", 3, 0, 3, ",\"score\":1,\"evaluated\":false")));
    QVERIFY2(r.ok(), qPrintable(r.error.message));
    const DiscoveryTree &t = *r.tree;
    const Cell &scored = t.cells().at(t.indexOfId(QStringLiteral("scored")));
    QVERIFY(scored.evaluated);
    QCOMPARE(scored.failClass, QStringLiteral("ok"));
    QVERIFY(!scored.valid.has_value());
    QVERIFY(!scored.error.has_value());
    QVERIFY(!scored.nValid.has_value());
    QVERIFY(scored.tags.isEmpty());
    const Cell &unscored = t.cells().at(t.indexOfId(QStringLiteral("unscored")));
    QVERIFY(!unscored.evaluated);
    QVERIFY(!unscored.score.has_value());
    QCOMPARE(unscored.failClass, QStringLiteral("agent"));
    const Cell &errored = t.cells().at(t.indexOfId(QStringLiteral("errored")));
    QVERIFY(errored.evaluated);
    QCOMPARE(errored.failClass, QStringLiteral("agent"));
    QCOMPARE(*errored.error, QStringLiteral("boom"));
    const Cell &notEvaluated = t.cells().at(t.indexOfId(QStringLiteral("notEvaluated")));
    QCOMPARE(notEvaluated.failClass, QStringLiteral("agent"));
    QVERIFY(!notEvaluated.isSuccess());
    QVERIFY(scored.isSuccess());
}

void TestTreeModel::effectiveScore_data()
{
    QTest::addColumn<QByteArray>("scoreJson");
    QTest::addColumn<double>("expected");
    QTest::addRow("positive") << QByteArray("2.5") << 2.5;
    QTest::addRow("zero") << QByteArray("0") << 0.0;
    QTest::addRow("negative clamps") << QByteArray("-7") << 0.0;
    QTest::addRow("null") << QByteArray("null") << 0.0;
    QTest::addRow("tiny") << QByteArray("1e-300") << 1e-300;
}

void TestTreeModel::effectiveScore()
{
    QFETCH(QByteArray, scoreJson);
    QFETCH(double, expected);
    const TreeJson::ParseResult r = TreeJson::parse(treeWith(cell("a", 0, 0, 0, ",\"score\":" + scoreJson)));
    QVERIFY2(r.ok(), qPrintable(r.error.message));
    QCOMPARE(r.tree->cells().first().effectiveScore(), expected);
}

void TestTreeModel::bestAndScorable()
{
    auto r = TreeJson::parse(treeWith(cell("a", 0, 0, 0, ",\"score\":-1") + "," + cell("b", 0, 1, 1, ",\"score\":3") + ","
                                      + cell("c", 1, 0, 2, ",\"score\":3") + "," + cell("d", 1, 1, 3)));
    QVERIFY(r.ok());
    QCOMPARE(r.tree->cellCount(), 4);             // B
    QCOMPARE(r.tree->bestEffectiveScore(), 3.0);   // S
    QVERIFY(r.tree->isScorable());
    QCOMPARE(r.tree->cells().at(r.tree->bestCellIndex()).id, QStringLiteral("b")); // first by seq on ties
    QCOMPARE(r.tree->maxDepth(), 2);

    r = TreeJson::parse(treeWith(cell("a", 0, 0, 0, ",\"score\":-1") + "," + cell("b", 0, 1, 1)));
    QVERIFY(r.ok());
    QCOMPARE(r.tree->bestEffectiveScore(), 0.0);
    QVERIFY(!r.tree->isScorable());
    QCOMPARE(r.tree->bestCellIndex(), -1);
    QCOMPARE(*r.tree->bestScore(), -1.0);
}

void TestTreeModel::branchIndex()
{
    const auto r = TreeJson::parse(treeWith(cell("x1", 9, 1, 4) + "," + cell("y", 2, 0, 1) + "," + cell("x0", 9, 0, 2)));
    QVERIFY(r.ok());
    const DiscoveryTree &t = *r.tree;
    QCOMPARE(t.branches().size(), 2);
    QCOMPARE(t.branches().at(0).id, 2);
    QCOMPARE(t.branches().at(1).id, 9);
    QCOMPARE(t.cells().at(t.indexOf(9, 1)).id, QStringLiteral("x1"));
    QCOMPARE(t.indexOf(9, 2), -1);
    QCOMPARE(t.indexOf(3, 0), -1);
    QCOMPARE(t.cells().at(t.parentIndex(t.indexOfId(QStringLiteral("x1")))).id, QStringLiteral("x0"));
    QCOMPARE(t.parentIndex(t.indexOfId(QStringLiteral("y"))), -1);
    // cells are kept sorted by seq
    QCOMPARE(t.cells().at(0).id, QStringLiteral("y"));
    QCOMPARE(t.cells().at(2).id, QStringLiteral("x1"));
}

void TestTreeModel::roundTripKeepsPayload()
{
    const QByteArray json = treeWith(
        cell("a", 0, 0, 1,
             ",\"score\":1.37,\"proposal\":\"**p**\",\"metrics\":{\"sum\":[1,2.5,null],\"nested\":{\"deep\":true}},"
             "\"program\":\"print(1)\\n\"") + "," + cell("b", 0, 1, 0, ",\"agent\":null"),
        ",\"source\":\"lab\",\"task\":\"circle_packing_26\",\"extra\":{\"a\":[1]},\"baseline_score\":0.92");
    const auto first = TreeJson::parse(json);
    QVERIFY2(first.ok(), qPrintable(first.error.message));
    const QByteArray written = TreeJson::serialize(*first.tree);
    const auto second = TreeJson::parse(written);
    QVERIFY2(second.ok(), qPrintable(second.error.message));
    QCOMPARE(second.tree->cells(), first.tree->cells());
    QCOMPARE(second.tree->meta(), first.tree->meta());
    // payload exactly as in the input
    const QJsonObject in = QJsonDocument::fromJson(json).object();
    const QJsonObject out = QJsonDocument::fromJson(written).object();
    QCOMPARE(out.value(QLatin1String("source")), in.value(QLatin1String("source")));
    QCOMPARE(out.value(QLatin1String("extra")), in.value(QLatin1String("extra")));
    const QJsonObject inA = in.value(QLatin1String("cells")).toArray().at(0).toObject();
    const QJsonObject outA = out.value(QLatin1String("cells")).toArray().at(1).toObject(); // sorted by seq
    for (const char *key : {"proposal", "metrics", "program"})
        QCOMPARE(outA.value(QLatin1String(key)), inA.value(QLatin1String(key)));
    QVERIFY(out.value(QLatin1String("cells")).toArray().at(0).toObject().contains(QLatin1String("agent")));
    QCOMPARE(first.tree->cells().at(1).proposal(), QStringLiteral("**p**"));
}

void TestTreeModel::exportIsCanonical()
{
    const auto r = TreeJson::parse(treeWith(cell("late", 0, 1, 7) + "," + cell("early", 0, 0, 3)));
    QVERIFY(r.ok());
    const QJsonArray cells = QJsonDocument::fromJson(TreeJson::serialize(*r.tree)).object().value(QLatin1String("cells")).toArray();
    QCOMPARE(cells.size(), 2);
    QCOMPARE(cells.at(0).toObject().value(QLatin1String("id")).toString(), QStringLiteral("early"));
    // defaults are written out resolved
    QCOMPARE(cells.at(0).toObject().value(QLatin1String("fail_class")).toString(), QStringLiteral("agent"));
    QCOMPARE(cells.at(0).toObject().value(QLatin1String("evaluated")).toBool(true), false);
    // exporting twice gives the same bytes
    QCOMPARE(TreeJson::serialize(*TreeJson::parse(TreeJson::serialize(*r.tree)).tree), TreeJson::serialize(*r.tree));
}

void TestTreeModel::readFileNamesPath()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("bad.json"));
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(treeWith(cell("a", 0, 0, 0) + "," + cell("a", 1, 0, 1)));
    f.close();
    const auto r = TreeJson::readFile(path);
    QVERIFY(!r.ok());
    QVERIFY(r.error.message.startsWith(path));
    QVERIFY(r.error.message.contains(QStringLiteral("cell 1 (id \"a\")")));
    const auto missing = TreeJson::readFile(dir.filePath(QStringLiteral("missing.json")));
    QVERIFY(!missing.ok());
    QVERIFY(missing.error.message.contains(QStringLiteral("cannot open")));
}

void TestTreeModel::summaryCountsFailClasses()
{
    const auto r = TreeJson::parse(treeWith(cell("a", 0, 0, 0, ",\"score\":2.5") + ","
                                            + cell("b", 0, 1, 1, ",\"fail_class\":\"timeout\",\"evaluated\":true") + ","
                                            + cell("c", 1, 0, 2, ",\"fail_class\":\"timeout\"")));
    QVERIFY(r.ok());
    const QMap<QString, int> counts = r.tree->failClassCounts();
    QCOMPARE(counts.value(QStringLiteral("timeout")), 2);
    QCOMPARE(counts.value(QStringLiteral("ok")), 1);
    const QString s = summarizeTree(*r.tree);
    QVERIFY2(s.contains(QStringLiteral("3 cells, 2 branches, max depth 2, best score 2.5")), qPrintable(s));
    QVERIFY2(s.contains(QStringLiteral("ok=1 timeout=2")), qPrintable(s));
}

QTEST_GUILESS_MAIN(TestTreeModel)
#include "tst_treemodel.moc"
