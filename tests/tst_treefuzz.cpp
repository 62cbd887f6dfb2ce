// Robustness: thousands of random mutations of valid tree files (truncation,
// wrong types, duplicated ids, non-finite and huge numbers, deep nesting) must
// never crash the parser and never be accepted when the file breaks a rule of
// replay.md §1. An independent, deliberately naive oracle decides validity.
#include "model/treejson.h"

#include <QDir>
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

/// Straight from the text of replay.md §1, written independently of TreeJson.
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

} // namespace

class TestTreeFuzz : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void structuralMutations();
    void byteCorruptions();
    void oracleAgreesOnSeeds();

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
    for (int round = 0; round < 2000; ++round) {
        const QJsonObject &seed = m_seeds.at(round % m_seeds.size());
        QByteArray bytes = mutate(seed, rng);
        if (rng.bounded(3) == 0) // stack a second mutation now and then
            bytes = mutate(QJsonDocument::fromJson(bytes).object(), rng);
        const TreeJson::ParseResult r = TreeJson::parse(bytes);
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
    qInfo("structural mutations: %d accepted, %d rejected", accepted, rejected);
    QVERIFY(rejected > 1000); // most mutations break a rule; the suite must exercise rejection
}

void TestTreeFuzz::byteCorruptions()
{
    QRandomGenerator rng(7);
    int rejected = 0;
    for (int round = 0; round < 2000; ++round) {
        const QByteArray bytes = corrupt(m_seedBytes.at(round % m_seedBytes.size()), rng);
        const TreeJson::ParseResult r = TreeJson::parse(bytes);
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

QTEST_GUILESS_MAIN(TestTreeFuzz)
#include "tst_treefuzz.moc"
