// Robustness: thousands of random mutations of valid tree files (truncation,
// wrong types, duplicated ids, non-finite and huge numbers, deep nesting) must
// never crash the parser and never be accepted when the file breaks a rule of
// docs/tree-format.md. An independent, deliberately naive oracle decides validity.
#include "model/treejson.h"
#include "model/treejsonfast.h"

#include <QDir>
#include <QTemporaryDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QSet>
#include <QtTest>

#include <cmath>

using namespace dreamrsi;

namespace {

bool isInt(const QJsonValue &v, double min, double max)
{
    if (!v.isDouble())
        return false;
    const double d = v.toDouble();
    return std::isfinite(d) && d == std::floor(d) && d >= min && d <= max;
}

/// Straight from the text of docs/tree-format.md, written independently of TreeJson.
bool oracleValid(const QJsonDocument &doc)
{
    if (!doc.isObject())
        return false;
    const QJsonObject top = doc.object();
    if (top.value(QLatin1String("format")) != QJsonValue(QStringLiteral("dreamrsi-tree/1")))
        return false;
    const QJsonValue task = top.value(QLatin1String("task"));
    if (!task.isUndefined() && !task.isNull() && !task.isString())
        return false;
    const QJsonValue baseline = top.value(QLatin1String("baseline_score"));
    if (!baseline.isUndefined() && !baseline.isNull() && !baseline.isDouble())
        return false;
    const QJsonValue iteration = top.value(QLatin1String("iteration"));
    if (!iteration.isUndefined() && !iteration.isNull() && !isInt(iteration, -9.1e15, 9.1e15))
        return false;
    const QJsonValue w = top.value(QLatin1String("max_parallelism"));
    if (!w.isUndefined() && !w.isNull() && !isInt(w, 1, 1e6))
        return false;
    const QJsonValue grid = top.value(QLatin1String("grid"));
    if (!grid.isUndefined() && !grid.isNull()) {
        if (!grid.isObject() || !isInt(grid[QLatin1String("branches")], 0, 1e6)
            || !isInt(grid[QLatin1String("refinements")], 0, 1e6))
            return false;
    }
    if (!top.value(QLatin1String("cells")).isArray())
        return false;
    QSet<QString> ids;
    QSet<double> seqs;
    QMap<double, QSet<double>> attempts;
    for (const QJsonValue &cv : top.value(QLatin1String("cells")).toArray()) {
        if (!cv.isObject())
            return false;
        const QJsonObject c = cv.toObject();
        const QJsonValue id = c.value(QLatin1String("id"));
        if (!id.isString() || id.toString().isEmpty() || ids.contains(id.toString()))
            return false;
        ids.insert(id.toString());
        const QJsonValue b = c.value(QLatin1String("branch")), a = c.value(QLatin1String("attempt")),
                         s = c.value(QLatin1String("seq"));
        if (!isInt(b, 0, 2147483647.0) || !isInt(a, 0, 2147483647.0) || !isInt(s, -9.1e15, 9.1e15))
            return false;
        if (seqs.contains(s.toDouble()) || attempts[b.toDouble()].contains(a.toDouble()))
            return false;
        seqs.insert(s.toDouble());
        attempts[b.toDouble()].insert(a.toDouble());
        auto nullOr = [&c](const char *key, auto pred) {
            const QJsonValue v = c.value(QLatin1String(key));
            return v.isUndefined() || v.isNull() || pred(v);
        };
        if (!nullOr("score", [](const QJsonValue &v) { return v.isDouble() && std::isfinite(v.toDouble()); }))
            return false;
        const QJsonValue ev = c.value(QLatin1String("evaluated"));
        if (!ev.isUndefined() && !ev.isBool())
            return false;
        if (!nullOr("valid", [](const QJsonValue &v) { return v.isBool(); }))
            return false;
        const QJsonValue fc = c.value(QLatin1String("fail_class"));
        if (!fc.isUndefined() && !fc.isString())
            return false;
        if (!nullOr("error", [](const QJsonValue &v) { return v.isString(); }))
            return false;
        for (const char *k : {"n_valid", "n_total"}) {
            if (!nullOr(k, [](const QJsonValue &v) { return isInt(v, -9.1e15, 9.1e15); }))
                return false;
        }
        const QJsonValue tags = c.value(QLatin1String("tags"));
        if (!tags.isUndefined()) {
            if (!tags.isArray())
                return false;
            for (const QJsonValue &t : tags.toArray()) {
                if (!t.isString())
                    return false;
            }
        }
    }
    for (const QSet<double> &as : attempts) {
        for (int i = 0; i < as.size(); ++i) {
            if (!as.contains(i))
                return false;
        }
    }
    return true;
}

QJsonValue randomValue(QRandomGenerator &rng)
{
    switch (rng.bounded(12)) {
    case 0: return QJsonValue();
    case 1: return rng.bounded(2) == 1;
    case 2: return QStringLiteral("x%1").arg(rng.bounded(5));
    case 3: return QString();
    case 4: return -double(rng.bounded(3));
    case 5: return double(rng.bounded(4)) + 0.5;
    case 6: return 1e300;
    case 7: return 9.9e15;
    case 8: return QJsonArray{1, QStringLiteral("a")};
    case 9: return QJsonObject{{QStringLiteral("k"), 1}};
    case 10: return double(rng.bounded(6));
    default: return 2147483648.0;
    }
}

const char *const cellFields[] = {"id",         "branch", "attempt", "seq",     "score", "evaluated",
                                  "valid",      "fail_class", "error", "n_valid", "n_total", "tags"};
const char *const topFields[] = {"format", "task", "iteration", "baseline_score", "max_parallelism", "grid", "cells"};

/// One structural mutation of a parsed document.
QByteArray mutate(const QJsonObject &original, QRandomGenerator &rng)
{
    QJsonObject top = original;
    QJsonArray cells = top.value(QLatin1String("cells")).toArray();
    const int n = int(cells.size());
    const int kind = int(rng.bounded(9));
    if (n == 0 && kind < 6)
        return QJsonDocument(top).toJson(QJsonDocument::Compact);
    const int i = int(rng.bounded(n == 0 ? 1 : n));
    QJsonObject c = n ? cells.at(i).toObject() : QJsonObject();
    switch (kind) {
    case 0: // wrong type / odd value in a cell field
        c.insert(QLatin1String(cellFields[rng.bounded(int(std::size(cellFields)))]), randomValue(rng));
        break;
    case 1: // drop a field
        c.remove(QLatin1String(cellFields[rng.bounded(int(std::size(cellFields)))]));
        break;
    case 2: // duplicate an id, a seq or a (branch, attempt) pair of another cell
    {
        const QJsonObject other = cells.at(int(rng.bounded(n))).toObject();
        const int which = int(rng.bounded(3));
        if (which == 0)
            c.insert(QLatin1String("id"), other.value(QLatin1String("id")));
        else if (which == 1)
            c.insert(QLatin1String("seq"), other.value(QLatin1String("seq")));
        else {
            c.insert(QLatin1String("branch"), other.value(QLatin1String("branch")));
            c.insert(QLatin1String("attempt"), other.value(QLatin1String("attempt")));
        }
        break;
    }
    case 3: // remove a cell (may open a gap in a branch)
        cells.removeAt(i);
        top.insert(QLatin1String("cells"), cells);
        return QJsonDocument(top).toJson(QJsonDocument::Compact);
    case 4: // shift an attempt
        c.insert(QLatin1String("attempt"), c.value(QLatin1String("attempt")).toDouble() + double(rng.bounded(3)) - 1);
        break;
    case 5: // deep nesting inside a payload key
    {
        QJsonValue v = 1;
        const int depth = int(rng.bounded(2000));
        for (int d = 0; d < depth; ++d)
            v = QJsonArray{v};
        c.insert(QLatin1String("deep"), v);
        break;
    }
    case 6: // top-level field
        top.insert(QLatin1String(topFields[rng.bounded(int(std::size(topFields)))]), randomValue(rng));
        return QJsonDocument(top).toJson(QJsonDocument::Compact);
    case 7: // a cell that is not an object
        if (n)
            cells.replace(i, randomValue(rng));
        top.insert(QLatin1String("cells"), cells);
        return QJsonDocument(top).toJson(QJsonDocument::Compact);
    default: // huge numbers
        c.insert(QLatin1String(cellFields[1 + rng.bounded(4)]), rng.bounded(2) ? 1.7e308 : -1.7e308);
        break;
    }
    if (n)
        cells.replace(i, c);
    top.insert(QLatin1String("cells"), cells);
    return QJsonDocument(top).toJson(QJsonDocument::Compact);
}

/// One byte-level corruption: truncation, NaN/Infinity literals, deep bracket nesting, flipped bytes.
QByteArray corrupt(QByteArray bytes, QRandomGenerator &rng)
{
    const int pos = bytes.isEmpty() ? 0 : int(rng.bounded(int(bytes.size())));
    switch (rng.bounded(5)) {
    case 0: return bytes.left(pos);
    case 1: return bytes.insert(pos, rng.bounded(2) ? "NaN" : "-Infinity");
    case 2: return bytes.insert(pos, QByteArray(int(rng.bounded(100000)), '['));
    case 3:
        if (!bytes.isEmpty())
            bytes[pos] = char(rng.bounded(256));
        return bytes;
    default: return bytes.replace("0.", "1e999");
    }
}

/// TreeJson::parse (simdjson, falling back to the reference) must give exactly
/// what the reference reading gives: the same verdict, the same error (message,
/// cell, field) and, when accepted, the same tree down to payload numbers.
/// Returns an empty string when they agree, else what differs.
/// Files the compact reading accepted, over all differenceFromReference() calls.
int compactAccepted = 0;

QString differenceFromReference(const QByteArray &bytes)
{
    const TreeJson::ParseResult fast = TreeJson::parse(bytes);
    const TreeJson::ParseResult ref = TreeJson::parseReference(bytes);
    if (fast.ok() != ref.ok())
        return QStringLiteral("parse %1, reference %2 (%3)")
            .arg(fast.ok() ? QStringLiteral("accepts") : QStringLiteral("rejects"),
                 ref.ok() ? QStringLiteral("accepts") : QStringLiteral("rejects"),
                 fast.ok() ? ref.error.message : fast.error.message);
    if (fast.error.message != ref.error.message || fast.error.cellIndex != ref.error.cellIndex
        || fast.error.cellId != ref.error.cellId || fast.error.field != ref.error.field)
        return QStringLiteral("errors differ: \"%1\" vs \"%2\"").arg(fast.error.message, ref.error.message);
    if (fast.ok()) {
        if (!(fast.tree->meta() == ref.tree->meta()) || !(fast.tree->cells() == ref.tree->cells()))
            return QStringLiteral("trees differ");
        if (TreeJson::serialize(*fast.tree) != TreeJson::serialize(*ref.tree))
            return QStringLiteral("serialized trees differ");
    }
    // The compact reading (replay of built-in policies) accepts only what
    // the reference accepts, and then holds what the reference's tree holds.
    const QByteArray padded = bytes + QByteArray(TreeJson::detail::paddingBytes(), '\0');
    if (const std::optional<CompactTree> compact = TreeJson::detail::parseCompactPadded(padded.constData(), bytes.size())) {
        ++compactAccepted;
        if (!ref.ok())
            return QStringLiteral("the compact reading accepts what the reference rejects: %1").arg(ref.error.message);
        if (!(*compact == CompactTree::fromTree(*ref.tree)))
            return QStringLiteral("compact trees differ");
    }
    return QString();
}

} // namespace

class TestTreeFuzz : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void structuralMutations();
    void byteCorruptions();
    void oracleAgreesOnSeeds();
    void fastParserMatchesReference_data();
    void fastParserMatchesReference();
    void fastParserMatchesReferenceOnNumbers();
    void filesReadLikeBytes();

private:
    QList<QJsonObject> m_seeds;
    QList<QByteArray> m_seedBytes;
};

void TestTreeFuzz::initTestCase()
{
    const QDir demo(QStringLiteral(DREAMRSI_SOURCE_DIR "/tests/data/demo"));
    for (const QString &name : demo.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name)) {
        QFile f(demo.filePath(name));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray bytes = f.readAll();
        m_seedBytes.append(bytes);
        m_seeds.append(QJsonDocument::fromJson(bytes).object());
    }
    // a small hand-made seed with sparse branches and every optional field
    const QByteArray small = R"({"format":"dreamrsi-tree/1","task":"t","iteration":1,"baseline_score":0.5,
        "max_parallelism":4,"grid":{"branches":3,"refinements":2},"cells":[
        {"id":"r","branch":5,"attempt":0,"seq":0,"score":1,"evaluated":true,"valid":true,"fail_class":"ok",
         "error":null,"n_valid":1,"n_total":1,"tags":["a"]},
        {"id":"s","branch":5,"attempt":1,"seq":1,"score":null,"fail_class":"timeout","error":"slow"},
        {"id":"t","branch":0,"attempt":0,"seq":2,"extra":{"x":[1,2]}}]})";
    m_seedBytes.append(small);
    m_seeds.append(QJsonDocument::fromJson(small).object());
    QVERIFY(m_seeds.size() >= 2);
}

void TestTreeFuzz::oracleAgreesOnSeeds()
{
    for (const QByteArray &bytes : std::as_const(m_seedBytes)) {
        QVERIFY(oracleValid(QJsonDocument::fromJson(bytes)));
        QVERIFY(TreeJson::parse(bytes).ok());
    }
}

void TestTreeFuzz::structuralMutations()
{
    QRandomGenerator rng(20261129);
    int accepted = 0, rejected = 0;
    const int compactBefore = compactAccepted;
    for (int round = 0; round < 2000; ++round) {
        const QJsonObject &seed = m_seeds.at(round % m_seeds.size());
        QByteArray bytes = mutate(seed, rng);
        if (rng.bounded(3) == 0) // stack a second mutation now and then
            bytes = mutate(QJsonDocument::fromJson(bytes).object(), rng);
        const TreeJson::ParseResult r = TreeJson::parse(bytes);
        const QString difference = differenceFromReference(bytes);
        QVERIFY2(difference.isEmpty(), qPrintable(QStringLiteral("round %1: %2").arg(round).arg(difference)));
        QJsonParseError pe;
        const QJsonDocument doc = QJsonDocument::fromJson(bytes, &pe);
        const bool valid = pe.error == QJsonParseError::NoError && oracleValid(doc);
        if (r.ok() != valid)
            QFAIL(qPrintable(QStringLiteral("round %1: parser %2, oracle %3; error: %4; file: %5")
                                 .arg(round)
                                 .arg(r.ok() ? QStringLiteral("accepted") : QStringLiteral("rejected"),
                                      valid ? QStringLiteral("valid") : QStringLiteral("invalid"), r.error.message,
                                      QString::fromUtf8(bytes.left(400)))));
        if (r.ok()) {
            ++accepted;
            // what is accepted survives its own round trip
            const TreeJson::ParseResult again = TreeJson::parse(TreeJson::serialize(*r.tree));
            QVERIFY(again.ok());
            QCOMPARE(again.tree->cells(), r.tree->cells());
        } else {
            ++rejected;
            QVERIFY(!r.error.message.isEmpty());
        }
    }
    qInfo("structural mutations: %d accepted, %d rejected, %d by the compact reading too", accepted, rejected,
          compactAccepted - compactBefore);
    QVERIFY(rejected > 1000); // most mutations break a rule; the suite must exercise rejection
    QVERIFY(compactAccepted - compactBefore > 100); // and the compact reading's acceptance
}

void TestTreeFuzz::byteCorruptions()
{
    QRandomGenerator rng(7);
    int rejected = 0;
    for (int round = 0; round < 2000; ++round) {
        const QByteArray bytes = corrupt(m_seedBytes.at(round % m_seedBytes.size()), rng);
        const TreeJson::ParseResult r = TreeJson::parse(bytes);
        const QString difference = differenceFromReference(bytes);
        QVERIFY2(difference.isEmpty(), qPrintable(QStringLiteral("round %1: %2").arg(round).arg(difference)));
        QJsonParseError pe;
        const QJsonDocument doc = QJsonDocument::fromJson(bytes, &pe);
        const bool valid = pe.error == QJsonParseError::NoError && oracleValid(doc);
        QVERIFY2(r.ok() == valid, qPrintable(QStringLiteral("round %1: %2").arg(round).arg(r.error.message)));
        if (!r.ok()) {
            ++rejected;
            QVERIFY(!r.error.message.isEmpty());
        }
    }
    qInfo("byte corruptions: %d rejected of 2000", rejected);
    QVERIFY(rejected > 1000);
}

void TestTreeFuzz::fastParserMatchesReference_data()
{
    QTest::addColumn<QByteArray>("json");
    const QByteArray head = R"({"format":"dreamrsi-tree/1","cells":[)";
    const auto cell = [&head](const QByteArray &fields) -> QByteArray {
        return head + R"({"id":"a","branch":0,"attempt":0,"seq":0)" + fields + "}]}";
    };
    QTest::addRow("plain") << cell("");
    QTest::addRow("bom") << QByteArray("\xEF\xBB\xBF") + cell("");
    QTest::addRow("empty") << QByteArray();
    QTest::addRow("top-level array") << QByteArray("[1]");
    QTest::addRow("trailing garbage") << cell("") + "x";
    QTest::addRow("trailing value") << cell("") + " {}";
    QTest::addRow("whitespace") << QByteArray(" \t\r\n") + cell("") + " \n";
    QTest::addRow("minus zero score") << cell(R"(,"score":-0)");
    QTest::addRow("minus zero float score") << cell(R"(,"score":-0.0)");
    QTest::addRow("minus zero payload") << cell(R"(,"x":-0)");
    QTest::addRow("zero float payload") << cell(R"(,"x":0.0,"y":-0.0,"z":0e5)");
    QTest::addRow("underflow score") << cell(R"(,"score":1e-400)");
    QTest::addRow("subnormal score") << cell(R"(,"score":5e-324)");
    QTest::addRow("subnormal payload") << cell(R"(,"x":[4.9e-324,2.2250738585072011e-308])");
    QTest::addRow("overflow score") << cell(R"(,"score":1e309)");
    QTest::addRow("int64 edge payload") << cell(R"(,"x":[9223372036854775807,-9223372036854775808])");
    QTest::addRow("uint64 payload") << cell(R"(,"x":[9223372036854775808,18446744073709551615])");
    QTest::addRow("beyond uint64 payload") << cell(R"(,"x":18446744073709551616)");
    QTest::addRow("huge integer text seq") << cell("").replace(R"("seq":0)", R"("seq":100000000000000000000)");
    QTest::addRow("integral float seq") << cell("").replace(R"("seq":0)", R"("seq":3.0)");
    QTest::addRow("exponent seq") << cell("").replace(R"("seq":0)", R"("seq":3e2)");
    QTest::addRow("fraction seq") << cell("").replace(R"("seq":0)", R"("seq":3.5)");
    QTest::addRow("2^53 seq") << cell("").replace(R"("seq":0)", R"("seq":9007199254740992)");
    QTest::addRow("2^53+1 seq") << cell("").replace(R"("seq":0)", R"("seq":9007199254740993)");
    QTest::addRow("trailing dot") << cell(R"(,"score":1.)");
    QTest::addRow("leading zero") << cell(R"(,"score":01)");
    QTest::addRow("plus sign") << cell(R"(,"score":+1)");
    QTest::addRow("float forms payload") << cell(R"(,"x":[1.0,1.5e3,1E-2,0.1,123456789.123456789,1e22])");
    QTest::addRow("control char in string") << cell(",\"error\":\"a\x01b\"");
    QTest::addRow("tab in string") << cell(",\"error\":\"a\tb\"");
    QTest::addRow("escapes") << cell(R"(,"error":"\"\\\/\b\f\n\r\t\u00e9\u4e2d\ud83d\ude00")");
    QTest::addRow("nul escape") << cell(R"(,"error":"a\u0000b")");
    QTest::addRow("lone high surrogate") << cell(R"(,"error":"\ud800")");
    QTest::addRow("lone low surrogate") << cell(R"(,"error":"\udc00x")");
    QTest::addRow("bad escape") << cell(R"(,"error":"\x")");
    QTest::addRow("invalid utf-8") << cell(",\"error\":\"\xC3\x28\"");
    QTest::addRow("overlong utf-8") << cell(",\"error\":\"\xC0\xAF\"");
    QTest::addRow("raw utf-8") << cell(",\"error\":\"\xE4\xB8\xAD\xF0\x9F\x98\x80\"");
    QTest::addRow("escaped key") << head + R"({"i\u0064":"a","branch":0,"attempt":0,"seq":0}]})";
    QTest::addRow("duplicate cell key") << cell(R"(,"seq":1)");
    QTest::addRow("duplicate payload key") << cell(R"(,"x":1,"x":2)");
    QTest::addRow("duplicate nested key") << cell(R"(,"x":{"k":1,"k":2})");
    QTest::addRow("duplicate top key") << cell("").replace("\"cells\"", "\"task\":\"a\",\"task\":\"b\",\"cells\"");
    QTest::addRow("duplicate grid key")
        << cell("").replace("\"cells\"", "\"grid\":{\"branches\":1,\"branches\":2,\"refinements\":0},\"cells\"");
    QTest::addRow("grid extra key")
        << cell("").replace("\"cells\"", "\"grid\":{\"branches\":1,\"refinements\":0,\"x\":[1]},\"cells\"");
    QTest::addRow("null grid and width") << cell("").replace("\"cells\"", "\"grid\":null,\"max_parallelism\":null,\"cells\"");
    QTest::addRow("null fail_class") << cell(R"(,"fail_class":null)");
    QTest::addRow("null tags") << cell(R"(,"tags":null)");
    QTest::addRow("null evaluated") << cell(R"(,"evaluated":null)");
    QTest::addRow("null id") << head + R"({"id":null,"branch":0,"attempt":0,"seq":0}]})";
    QTest::addRow("format twice") << cell("").replace("\"cells\"", "\"format\":\"dreamrsi-tree/1\",\"cells\"");
    QTest::addRow("payload everywhere")
        << cell(R"(,"p":{"a":[true,false,null,"s",{"b":[]}],"c":{}})").replace("\"cells\"", "\"meta\":{\"x\":[1,2.5]},\"cells\"");
    for (const int depth : {200, 254, 255, 256, 257, 300, 1000, 1023, 1024, 1025, 1030}) {
        QTest::addRow("payload depth %d", depth)
            << cell(",\"deep\":" + QByteArray(depth, '[') + QByteArray(depth, ']'));
    }
    QTest::addRow("unterminated") << cell("").chopped(1);
    QTest::addRow("NaN") << cell(R"(,"score":NaN)");
}

void TestTreeFuzz::fastParserMatchesReference()
{
    QFETCH(QByteArray, json);
    const QString difference = differenceFromReference(json);
    QVERIFY2(difference.isEmpty(), qPrintable(difference));
}

void TestTreeFuzz::fastParserMatchesReferenceOnNumbers()
{
    // Random number texts in every numeric field and in payload.
    QRandomGenerator rng(424242);
    const char *const digits = "0123456789";
    const char *const fields[] = {"score", "seq", "branch", "n_valid", "x"};
    for (int round = 0; round < 3000; ++round) {
        QByteArray number;
        if (rng.bounded(3) == 0)
            number += '-';
        const int intDigits = 1 + int(rng.bounded(rng.bounded(4) == 0 ? 25 : 4));
        for (int i = 0; i < intDigits; ++i)
            number += digits[rng.bounded(i == 0 && rng.bounded(4) ? 2 : 10)];
        if (rng.bounded(3) == 0) {
            number += '.';
            for (int i = int(rng.bounded(6)); i >= 0; --i)
                number += digits[rng.bounded(rng.bounded(2) ? 1 : 10)];
        }
        if (rng.bounded(4) == 0) {
            number += rng.bounded(2) ? 'e' : 'E';
            if (rng.bounded(2))
                number += rng.bounded(2) ? '-' : '+';
            number += QByteArray::number(rng.bounded(rng.bounded(3) ? 30 : 400));
        }
        const QByteArray field = fields[rng.bounded(int(std::size(fields)))];
        QByteArray json = R"({"format":"dreamrsi-tree/1","cells":[{"id":"a","branch":0,"attempt":0,"seq":0,)";
        if (field == "seq" || field == "branch")
            json.replace(QByteArray("\"" + field + "\":0,"), QByteArray());
        json += QByteArray("\"" + field + "\":" + number + "}]}");
        const QString difference = differenceFromReference(json);
        QVERIFY2(difference.isEmpty(), qPrintable(QStringLiteral("%1: %2").arg(QString::fromLatin1(json), difference)));
    }
}

QTEST_GUILESS_MAIN(TestTreeFuzz)
// Reading files goes through a buffer each thread reuses: a long file, then
// shorter corrupted ones, leave old bytes past each one's end. Every file
// must still read exactly as its bytes parse (message behind the path).
void TestTreeFuzz::filesReadLikeBytes()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QRandomGenerator rng(11);
    QStringList paths;
    QList<QByteArray> contents;
    for (int i = 0; i < 300; ++i) {
        QByteArray bytes = m_seedBytes.at(i % m_seedBytes.size());
        if (i % 3 != 0)
            bytes = corrupt(bytes, rng);
        if (i % 5 == 1)
            bytes.truncate(qsizetype(rng.bounded(int(bytes.size()) + 1)));
        const QString path = dir.filePath(QStringLiteral("w%1.json").arg(i, 3, 10, QLatin1Char('0')));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        QCOMPARE(f.write(bytes), bytes.size());
        paths.append(path);
        contents.append(bytes);
    }
    paths.append(dir.filePath(QStringLiteral("missing.json")));
    for (int threads : {1, 3}) {
        const QList<TreeJson::ParseResult> read = TreeJson::readFiles(paths, threads);
        QCOMPARE(read.size(), paths.size());
        for (qsizetype i = 0; i < contents.size(); ++i) {
            const TreeJson::ParseResult expected = TreeJson::parse(contents.at(i));
            const TreeJson::ParseResult &got = read.at(i);
            QVERIFY2(got.ok() == expected.ok(), qPrintable(paths.at(i) + QStringLiteral(": ") + got.error.message));
            if (expected.ok())
                QVERIFY(got.tree->meta() == expected.tree->meta() && got.tree->cells() == expected.tree->cells());
            else
                QCOMPARE(got.error.message, paths.at(i) + QStringLiteral(": ") + expected.error.message);
            // The compact reading of the same file: the same verdict and message.
            const Result<CompactTree> compact = TreeJson::readCompactFile(paths.at(i));
            QCOMPARE(compact.ok(), expected.ok());
            if (compact)
                QVERIFY(*compact.value == CompactTree::fromTree(*expected.tree));
            else
                QCOMPARE(compact.error, got.error.message);
        }
        QVERIFY(read.constLast().error.message.contains(QStringLiteral("missing.json: cannot open")));
    }
}

#include "tst_treefuzz.moc"
