// Property test of the fast tree reader: random valid tree files, written by
// hand with every habit the format allows (optional fields present, absent
// or null, keys in any order, cells in any order, sparse branch ids, zero
// scores written "0.0" and "-0.0", tiny and huge numbers, integers written as
// fractions, Unicode raw and escaped, any spacing), must each be read by the
// fast path itself (no fallback to the reference reading) into exactly the
// tree the reference reading gives; and one defect put into such a file must
// get the same verdict and message from both readings.
#include "model/treejson.h"
#include "model/treejsonfast.h"
#include "model/treesummary.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QSet>
#include <QtTest>

#include <bit>
#include <cstdint>
#include <optional>

using namespace dreamrsi;

namespace {

/// One key and the JSON text of its value.
using Field = std::pair<QByteArray, QByteArray>;

/// Scores and other numbers in the forms writers use; every one is a number
/// both readings take.
const char *const numberForms[] = {
    "0.0",  "-0.0", "0",     "-0",      "0e0",      "0.000",  "-0.0e-999", "0E+5",   "1e-300", "-1e-300",
    "5e-324", "4.9e-324", "2.2250738585072014e-308", "1e-310", "1e300",  "1.7976931348623157e308", "-1.5E+200",
    "42",   "-7",   "9007199254740992", "123456789", "1.0",  "2.50",   "1e-05",  "0.1",    "3.14159", "1e15",
    "1e20", "-9223372036854775808", "9223372036854775807", "18446744073709551615", "0.30000000000000004", "1E2",
    "1e17", "17972783122005643.3", "-4611686018427387904.0", "9.2233720368547758e18", "-9.2233720368547758e18"};

/// Integer value `n` in one of the forms QJsonDocument reads as that integer.
QByteArray integerText(qint64 n, QRandomGenerator &rng)
{
    const QByteArray plain = QByteArray::number(n);
    switch (rng.bounded(8)) {
    case 0: return plain + ".0";
    case 1: return n == 0 ? QByteArray("-0") : plain + "e0";
    case 2: return n == 0 ? QByteArray("0.0") : plain;
    default: return plain;
    }
}

/// Some text with the characters writers put in proposals and errors.
QString randomText(QRandomGenerator &rng, int maxLength)
{
    static const QString pieces[] = {
        QStringLiteral("lasso"), QStringLiteral(" "), QStringLiteral("tolérance"), QStringLiteral("中文"),
        QStringLiteral("λ→∞"), QStringLiteral("🙂"), QString::fromUcs4(U"\U0001F680"), QStringLiteral("\n"),
        QStringLiteral("\t"), QStringLiteral("\"quoted\""), QStringLiteral("back\\slash"), QStringLiteral("/"),
        QStringLiteral("x"), QString(QChar(0x7f)), QString(QChar(0x01)), QStringLiteral("Ωμέγα"), QStringLiteral("0.0"),
        QStringLiteral("1e-400")};
    QString s;
    const int n = int(rng.bounded(maxLength + 1));
    for (int i = 0; i < n; ++i) {
        s += pieces[rng.bounded(int(std::size(pieces)))];
    }
    return s;
}

/// `s` as a JSON string literal: non-ASCII raw or escaped (pairs for
/// characters outside the BMP), some ASCII escaped for no reason.
QByteArray stringText(const QString &s, QRandomGenerator &rng)
{
    QByteArray out = "\"";
    const bool escapeAll = rng.bounded(4) == 0;
    for (qsizetype i = 0; i < s.size(); ++i) {
        const QChar c = s.at(i);
        const char16_t u = c.unicode();
        auto hex = [&out](char16_t v) { out += "\\u" + QByteArray::number(v, 16).rightJustified(4, '0'); };
        if (u == '"')
            out += "\\\"";
        else if (u == '\\')
            out += "\\\\";
        else if (u == '\n')
            out += rng.bounded(2) ? "\\n" : "\\u000a";
        else if (u == '\t')
            out += "\\t";
        else if (u < 0x20)
            hex(u);
        else if (u == '/' && rng.bounded(2))
            out += "\\/";
        else if (u < 0x80)
            rng.bounded(20) == 0 ? hex(u) : void(out += char(u));
        else if (c.isHighSurrogate() && i + 1 < s.size() && (escapeAll || rng.bounded(2))) {
            hex(u);
            hex(s.at(++i).unicode());
        } else if (c.isHighSurrogate() && i + 1 < s.size()) {
            out += QString(s.mid(i, 2)).toUtf8();
            ++i;
        } else if (escapeAll || rng.bounded(3) == 0)
            hex(u);
        else
            out += QString(c).toUtf8();
    }
    return out + "\"";
}

/// How a document is spaced: compact, Python's json (", " and ": "), or indented.
struct Spacing
{
    QByteArray comma = ",", colon = ":", open, close;
};

Spacing randomSpacing(QRandomGenerator &rng)
{
    switch (rng.bounded(4)) {
    case 0: return Spacing{};
    case 1: return Spacing{", ", ": ", "", ""};
    case 2: return Spacing{",\n  ", " : ", "\n  ", "\n"};
    default: return Spacing{",\t", ":\r\n", " ", " "};
    }
}

QByteArray objectText(QList<Field> fields, const Spacing &spacing, QRandomGenerator &rng, bool shuffle = true)
{
    if (shuffle) {
        for (qsizetype i = fields.size() - 1; i > 0; --i)
            fields.swapItemsAt(i, qsizetype(rng.bounded(int(i + 1))));
    }
    QByteArray out = "{" + spacing.open;
    for (qsizetype i = 0; i < fields.size(); ++i) {
        if (i)
            out += spacing.comma;
        out += stringText(QString::fromUtf8(fields.at(i).first), rng) + spacing.colon + fields.at(i).second;
    }
    return out + spacing.close + "}";
}

/// A payload value of any JSON type (objects with unique keys).
QByteArray payloadValue(QRandomGenerator &rng, const Spacing &spacing, int depth)
{
    switch (rng.bounded(depth > 2 ? 5 : 7)) {
    case 0: return "null";
    case 1: return rng.bounded(2) ? "true" : "false";
    case 2: return numberForms[rng.bounded(int(std::size(numberForms)))];
    case 3: return integerText(qint64(rng.bounded(100000)) - 50000, rng);
    case 4: return stringText(randomText(rng, 6), rng);
    case 5: {
        QByteArray out = "[";
        for (int i = int(rng.bounded(4)); i > 0; --i)
            out += payloadValue(rng, spacing, depth + 1) + (i > 1 ? spacing.comma : QByteArray());
        return out + "]";
    }
    default: {
        QList<Field> fields;
        for (int i = int(rng.bounded(4)); i > 0; --i)
            fields.append(Field{"k" + QByteArray::number(i) + (rng.bounded(2) ? "é" : ""), payloadValue(rng, spacing, depth + 1)});
        return objectText(fields, spacing, rng);
    }
    }
}

QByteArray numberText(QRandomGenerator &rng)
{
    if (rng.bounded(3) == 0) {
        // a score as a program prints it
        const double d = (rng.generateDouble() - 0.2) * std::pow(10.0, int(rng.bounded(12)) - 6);
        return QByteArray::number(d, 'g', 1 + int(rng.bounded(17)));
    }
    return numberForms[rng.bounded(int(std::size(numberForms)))];
}

/// A random valid tree file as its top-level fields and cells (each a field
/// list), so that a defect can be put in before it is written.
struct Document
{
    QList<Field> top;
    QList<QList<Field>> cells;
    Spacing spacing;

    QByteArray text(QRandomGenerator &rng) const
    {
        QByteArray cellsText = "[" + spacing.open;
        for (qsizetype i = 0; i < cells.size(); ++i)
            cellsText += (i ? spacing.comma : QByteArray()) + objectText(cells.at(i), spacing, rng);
        cellsText += spacing.close + "]";
        QList<Field> fields = top;
        fields.append(Field{"cells", cellsText});
        return objectText(fields, spacing, rng);
    }
};

Document randomDocument(QRandomGenerator &rng)
{
    Document doc;
    doc.spacing = randomSpacing(rng);
    const Spacing &sp = doc.spacing;
    auto maybe = [&rng](int percent) { return int(rng.bounded(100)) < percent; };
    doc.top.append(Field{"format", "\"dreamrsi-tree/1\""});
    if (maybe(60))
        doc.top.append(Field{"task", maybe(15) ? QByteArray("null") : stringText(randomText(rng, 3), rng)});
    if (maybe(50))
        doc.top.append(Field{"iteration", maybe(15) ? QByteArray("null") : integerText(qint64(rng.bounded(50)), rng)});
    if (maybe(60))
        doc.top.append(Field{"baseline_score", maybe(15) ? QByteArray("null") : numberText(rng)});
    if (maybe(50))
        doc.top.append(Field{"max_parallelism", maybe(15) ? QByteArray("null") : integerText(1 + qint64(rng.bounded(16)), rng)});
    if (maybe(50)) {
        QList<Field> grid{{"branches", integerText(qint64(rng.bounded(20)), rng)},
                          {"refinements", integerText(qint64(rng.bounded(20)), rng)}};
        if (maybe(30))
            grid.append(Field{"note", payloadValue(rng, sp, 1)});
        doc.top.append(Field{"grid", maybe(15) ? QByteArray("null") : objectText(grid, sp, rng)});
    }
    for (int i = int(rng.bounded(3)); i > 0; --i)
        doc.top.append(Field{"meta_" + QByteArray::number(i) + (maybe(50) ? "✓" : ""), payloadValue(rng, sp, 0)});

    // Branches with sparse ids, each attempts 0..L-1; unique ids and seqs.
    const int branches = maybe(5) ? 0 : 1 + int(rng.bounded(8));
    QSet<qint64> branchIds;
    while (branchIds.size() < branches)
        branchIds.insert(maybe(10) ? 2147483647 - qint64(rng.bounded(3)) : qint64(rng.bounded(maybe(50) ? 12 : 5000)));
    QSet<qint64> seqs;
    const qint64 seqBase = maybe(20) ? -9007199254740992 + qint64(rng.bounded(10)) : qint64(rng.bounded(100));
    int serial = 0;
    for (const qint64 branch : std::as_const(branchIds)) {
        const int length = 1 + int(rng.bounded(6));
        for (int attempt = 0; attempt < length; ++attempt) {
            qint64 seq = 0;
            do
                seq = seqBase + qint64(rng.bounded(maybe(10) ? 1000000 : 200));
            while (seqs.contains(seq));
            seqs.insert(seq);
            QList<Field> c;
            c.append(Field{"id", stringText(randomText(rng, 2) + QLatin1Char('#') + QString::number(serial++), rng)});
            c.append(Field{"branch", integerText(branch, rng)});
            c.append(Field{"attempt", integerText(attempt, rng)});
            c.append(Field{"seq", integerText(seq, rng)});
            if (maybe(80))
                c.append(Field{"score", maybe(15) ? QByteArray("null") : numberText(rng)});
            if (maybe(50))
                c.append(Field{"evaluated", maybe(50) ? "true" : "false"});
            if (maybe(50))
                c.append(Field{"valid", maybe(30) ? "null" : maybe(50) ? "true" : "false"});
            if (maybe(50)) {
                static const char *const classes[] = {"ok", "compile", "runtime", "timeout", "correctness",
                                                      "resource", "env", "agent"};
                c.append(Field{"fail_class", maybe(10) ? stringText(randomText(rng, 2), rng)
                                                  : stringText(QString::fromLatin1(classes[rng.bounded(8)]), rng)});
            }
            if (maybe(50))
                c.append(Field{"error", maybe(40) ? QByteArray("null") : stringText(randomText(rng, 8), rng)});
            for (const char *key : {"n_valid", "n_total"}) {
                if (maybe(50))
                    c.append(Field{key, maybe(20) ? QByteArray("null") : integerText(qint64(rng.bounded(10)) - 1, rng)});
            }
            if (maybe(60)) {
                QByteArray tags = "[";
                for (int t = int(rng.bounded(4)); t > 0; --t)
                    tags += stringText(randomText(rng, 3), rng) + (t > 1 ? sp.comma : QByteArray());
                c.append(Field{"tags", tags + "]"});
            }
            for (int p = int(rng.bounded(4)); p > 0; --p)
                c.append(Field{(maybe(50) ? "proposal_" : "métrique_") + QByteArray::number(p), payloadValue(rng, sp, 0)});
            doc.cells.append(c);
        }
    }
    for (qsizetype i = doc.cells.size() - 1; i > 0; --i) // cells in any order
        doc.cells.swapItemsAt(i, qsizetype(rng.bounded(int(i + 1))));
    return doc;
}

quint64 bits(double d)
{
    return std::bit_cast<quint64>(d);
}

bool sameBits(const std::optional<double> &a, const std::optional<double> &b)
{
    return a.has_value() == b.has_value() && (!a || bits(*a) == bits(*b));
}

/// QJsonValue's == takes 1 and 1.0 stored differently as equal; this does not.
bool sameJson(const QJsonValue &a, const QJsonValue &b)
{
    if (a.type() != b.type())
        return false;
    if (a.isDouble())
        return a.toVariant().metaType() == b.toVariant().metaType() && bits(a.toDouble()) == bits(b.toDouble());
    if (a.isArray()) {
        const QJsonArray x = a.toArray(), y = b.toArray();
        if (x.size() != y.size())
            return false;
        for (qsizetype i = 0; i < x.size(); ++i) {
            if (!sameJson(x.at(i), y.at(i)))
                return false;
        }
        return true;
    }
    if (a.isObject()) {
        const QJsonObject x = a.toObject(), y = b.toObject();
        if (x.keys() != y.keys())
            return false;
        for (auto it = x.begin(); it != x.end(); ++it) {
            if (!sameJson(it.value(), y.value(it.key())))
                return false;
        }
        return true;
    }
    return a == b;
}

/// Empty when `fast` holds exactly the reference's tree, else what differs.
QString treeDifference(const DiscoveryTree &fast, const DiscoveryTree &ref)
{
    if (!(fast.meta() == ref.meta()) || !(fast.cells() == ref.cells()))
        return QStringLiteral("trees differ");
    if (!sameBits(fast.meta().baselineScore, ref.meta().baselineScore))
        return QStringLiteral("baseline scores differ in their bits");
    if (!sameJson(fast.meta().payload, ref.meta().payload))
        return QStringLiteral("top-level payloads differ in their number types");
    for (qsizetype i = 0; i < ref.cells().size(); ++i) {
        const Cell &x = fast.cells().at(i), &y = ref.cells().at(i);
        if (!sameBits(x.score, y.score))
            return QStringLiteral("cell %1: scores differ in their bits").arg(i);
        if (!sameJson(x.payload, y.payload))
            return QStringLiteral("cell %1: payloads differ in their number types").arg(i);
    }
    if (TreeJson::serialize(fast) != TreeJson::serialize(ref))
        return QStringLiteral("serialized trees differ");
    return QString();
}

/// `tree` with no payload, at the top or in any cell.
DiscoveryTree withoutPayload(const DiscoveryTree &tree)
{
    TreeMeta meta = tree.meta();
    meta.payload = QJsonObject();
    QList<Cell> cells = tree.cells();
    for (Cell &c : cells)
        c.payload = QJsonObject();
    return *DiscoveryTree::build(meta, cells);
}

QString compactDifference(const CompactTree &compact, const CompactTree &ref)
{
    if (!(compact == ref))
        return QStringLiteral("compact trees differ");
    for (size_t i = 0; i < ref.cells.size(); ++i) {
        if (bits(compact.cells[i].score) != bits(ref.cells[i].score)
            || bits(compact.cells[i].effective) != bits(ref.cells[i].effective))
            return QStringLiteral("compact cell %1: scores differ in their bits").arg(i);
    }
    return QString();
}

QByteArray padded(const QByteArray &bytes)
{
    return bytes + QByteArray(TreeJson::detail::paddingBytes(), '\0');
}

/// Puts one defect (or one oddity a reader may trip on) into `doc`.
QString putDefect(Document &doc, QRandomGenerator &rng)
{
    static const char *const badNumbers[] = {"1e-400", "-2e-324", "1e400", "NaN", "-Infinity", "1.", ".5", "01", "+1",
                                             "0.00000000000000000000000000000000000000001e-300"};
    auto anyCell = [&]() -> QList<Field> & { return doc.cells[qsizetype(rng.bounded(int(doc.cells.size())))]; };
    auto set = [](QList<Field> &fields, const QByteArray &key, const QByteArray &value) {
        for (Field &f : fields) {
            if (f.first == key) {
                f.second = value;
                return;
            }
        }
        fields.append(Field{key, value});
    };
    const int kind = doc.cells.isEmpty() ? 0 : int(rng.bounded(12));
    switch (kind) {
    case 0: {
        const QByteArray bad = badNumbers[rng.bounded(int(std::size(badNumbers)))];
        doc.top.append(Field{"extra", "[" + bad + "]"});
        return QStringLiteral("top-level payload number %1").arg(QString::fromLatin1(bad));
    }
    case 1: {
        const QByteArray bad = badNumbers[rng.bounded(int(std::size(badNumbers)))];
        set(anyCell(), "score", bad);
        return QStringLiteral("score %1").arg(QString::fromLatin1(bad));
    }
    case 2: {
        const QByteArray bad = badNumbers[rng.bounded(3)];
        set(anyCell(), "payload", "{\"x\":" + bad + "}");
        set(doc.top, "grid", "{\"branches\":1,\"refinements\":1,\"x\":" + bad + "}");
        return QStringLiteral("payload and grid number %1").arg(QString::fromLatin1(bad));
    }
    case 3: {
        static const char *const required[] = {"id", "branch", "attempt", "seq"};
        QList<Field> &c = anyCell();
        const QByteArray key = required[rng.bounded(4)];
        c.removeIf([&key](const Field &f) { return f.first == key; });
        return QStringLiteral("no %1").arg(QString::fromLatin1(key));
    }
    case 4: {
        static const char *const keys[] = {"id", "seq"};
        const QByteArray key = keys[rng.bounded(2)];
        const QList<Field> &from = doc.cells.at(qsizetype(rng.bounded(int(doc.cells.size()))));
        for (const Field &f : from) {
            if (f.first == key)
                set(anyCell(), key, f.second);
        }
        return QStringLiteral("a repeated %1 (or none)").arg(QString::fromLatin1(key));
    }
    case 5: set(anyCell(), "attempt", QByteArray::number(rng.bounded(3) + 5)); return QStringLiteral("an attempt gap");
    case 6: {
        static const std::pair<const char *, const char *> wrong[] = {
            {"branch", "1.5"},  {"branch", "-1"},  {"attempt", "2147483648"}, {"id", "\"\""}, {"id", "7"},
            {"tags", "[1]"},    {"tags", "\"a\""}, {"evaluated", "\"yes\""},  {"valid", "1"}, {"fail_class", "null"},
            {"error", "5"},     {"n_valid", "1.5"}, {"n_total", "1e300"},     {"score", "\"1.0\""},
            {"seq", "9007199254740993"}};
        const auto &[key, value] = wrong[rng.bounded(int(std::size(wrong)))];
        set(anyCell(), key, value);
        return QStringLiteral("%1 = %2").arg(QString::fromLatin1(key), QString::fromLatin1(value));
    }
    case 7: {
        static const std::pair<const char *, const char *> wrong[] = {
            {"format", "\"dreamrsi-tree/2\""}, {"baseline_score", "\"x\""}, {"iteration", "1.5"},
            {"max_parallelism", "0"},          {"grid", "[]"},              {"grid", "{\"branches\":1}"},
            {"task", "3"}};
        const auto &[key, value] = wrong[rng.bounded(int(std::size(wrong)))];
        set(doc.top, key, value);
        return QStringLiteral("top-level %1 = %2").arg(QString::fromLatin1(key), QString::fromLatin1(value));
    }
    case 8: { // a repeated key: valid JSON, which the fast reading leaves to the reference
        QList<Field> &c = anyCell();
        c.append(c.at(qsizetype(rng.bounded(int(c.size())))));
        return QStringLiteral("a repeated key");
    }
    case 9: doc.cells[0] = {{"id", "\"lonely\""}, {"branch", "0"}, {"attempt", "0"}}; return QStringLiteral("no seq");
    case 10: set(anyCell(), "payload", "\"\xC3\x28\""); return QStringLiteral("invalid UTF-8");
    default: set(anyCell(), "payload", "\"\\ud800\""); return QStringLiteral("a lone surrogate");
    }
}

} // namespace

class TestTreeJsonProperty : public QObject
{
    Q_OBJECT
private slots:
    void validTreesTakeTheFastPath();
    void defectsGetTheReferenceVerdict();
    void zeroScoresAreCountedFast();
};

void TestTreeJsonProperty::validTreesTakeTheFastPath()
{
    QRandomGenerator rng(20261202);
    const TreeJson::ReadCounts before = TreeJson::readCounts();
    int cells = 0, zeros = 0;
    constexpr int documents = 1500;
    for (int round = 0; round < documents; ++round) {
        const Document doc = randomDocument(rng);
        const QByteArray bytes = doc.text(rng);
        const auto context = [&](const QString &what) {
            return QStringLiteral("round %1: %2\n%3").arg(round).arg(what, QString::fromUtf8(bytes.left(3000))).toUtf8();
        };
        const TreeJson::ParseResult ref = TreeJson::parseReference(bytes);
        QVERIFY2(ref.ok(), context(QStringLiteral("the reference rejects a valid file: ") + ref.error.message).constData());

        const std::optional<TreeJson::ParseResult> fast = TreeJson::detail::parseFast(bytes);
        QVERIFY2(fast.has_value(), context(QStringLiteral("the fast reading fell back")).constData());
        QVERIFY2(fast->ok(), context(fast->error.message).constData());
        QString difference = treeDifference(*fast->tree, *ref.tree);
        QVERIFY2(difference.isEmpty(), context(difference).constData());

        const QByteArray withPadding = padded(bytes);
        const std::optional<TreeJson::ParseResult> fromFile =
            TreeJson::detail::parseFastPadded(withPadding.constData(), bytes.size());
        QVERIFY2(fromFile && fromFile->ok(), context(QStringLiteral("the padded fast reading fell back")).constData());
        difference = treeDifference(*fromFile->tree, *ref.tree);
        QVERIFY2(difference.isEmpty(), context(difference).constData());

        // Without payload (Payload::Skip): the reference's tree with its payload left out.
        const std::optional<TreeJson::ParseResult> bare =
            TreeJson::detail::parseFastPadded(withPadding.constData(), bytes.size(), false);
        QVERIFY2(bare && bare->ok(), context(QStringLiteral("the reading without payload fell back")).constData());
        difference = treeDifference(*bare->tree, withoutPayload(*ref.tree));
        QVERIFY2(difference.isEmpty(), context(QStringLiteral("without payload: ") + difference).constData());

        const std::optional<CompactTree> compact =
            TreeJson::detail::parseCompactPadded(withPadding.constData(), bytes.size());
        QVERIFY2(compact.has_value(), context(QStringLiteral("the compact reading fell back")).constData());
        difference = compactDifference(*compact, CompactTree::fromTree(*ref.tree));
        QVERIFY2(difference.isEmpty(), context(difference).constData());

        // validate's summary from the compact reading: the reference tree's, line for line.
        const std::optional<TreeFacts> facts = TreeJson::detail::parseFactsPadded(withPadding.constData(), bytes.size());
        QVERIFY2(facts.has_value(), context(QStringLiteral("the summary's reading fell back")).constData());
        QCOMPARE(summarizeTree(*facts), summarizeTree(*ref.tree));

        // Through the public entry point: counted as read fast.
        QVERIFY(TreeJson::parse(bytes).ok());
        cells += int(ref.tree->cells().size());
        for (const Cell &c : ref.tree->cells())
            zeros += c.score && *c.score == 0.0 ? 1 : 0;
    }
    const TreeJson::ReadCounts after = TreeJson::readCounts();
    QCOMPARE(after.fast - before.fast, qint64(documents));
    QCOMPARE(after.fallback - before.fallback, qint64(0));
    qInfo("%d valid trees, %d cells, %d zero scores: all read by the fast path", documents, cells, zeros);
    QVERIFY(zeros > 500); // the generator exercises what the issue was about
}

void TestTreeJsonProperty::defectsGetTheReferenceVerdict()
{
    QRandomGenerator rng(77);
    int rejected = 0, fastDecided = 0;
    constexpr int documents = 1500;
    for (int round = 0; round < documents; ++round) {
        Document doc = randomDocument(rng);
        const QString defect = putDefect(doc, rng);
        const QByteArray bytes = doc.text(rng);
        const auto context = [&](const QString &what) {
            return QStringLiteral("round %1 (%2): %3\n%4")
                .arg(round)
                .arg(defect, what, QString::fromUtf8(bytes.left(3000)))
                .toUtf8();
        };
        const TreeJson::ParseResult ref = TreeJson::parseReference(bytes);
        const TreeJson::ParseResult parsed = TreeJson::parse(bytes);
        QVERIFY2(parsed.ok() == ref.ok(), context(QStringLiteral("verdicts differ")).constData());
        QVERIFY2(parsed.error.message == ref.error.message, context(parsed.error.message + QStringLiteral(" vs ") + ref.error.message).constData());
        if (const std::optional<TreeJson::ParseResult> fast = TreeJson::detail::parseFast(bytes)) {
            // What the fast reading decides itself, it decides as the reference does.
            ++fastDecided;
            QVERIFY2(fast->ok() == ref.ok(), context(QStringLiteral("the fast reading's verdict differs")).constData());
            QVERIFY2(fast->error.message == ref.error.message, context(fast->error.message).constData());
            if (ref.ok()) {
                const QString difference = treeDifference(*fast->tree, *ref.tree);
                QVERIFY2(difference.isEmpty(), context(difference).constData());
            }
        }
        const QByteArray withPadding = padded(bytes);
        if (const std::optional<TreeJson::ParseResult> bare =
                TreeJson::detail::parseFastPadded(withPadding.constData(), bytes.size(), false)) {
            QVERIFY2(bare->ok() == ref.ok() && bare->error.message == ref.error.message,
                     context(QStringLiteral("the verdict without payload differs")).constData());
        }
        if (const std::optional<CompactTree> compact =
                TreeJson::detail::parseCompactPadded(withPadding.constData(), bytes.size())) {
            QVERIFY2(ref.ok(), context(QStringLiteral("the compact reading accepts what the reference rejects")).constData());
            const QString difference = compactDifference(*compact, CompactTree::fromTree(*ref.tree));
            QVERIFY2(difference.isEmpty(), context(difference).constData());
        }
        if (const std::optional<TreeFacts> facts =
                TreeJson::detail::parseFactsPadded(withPadding.constData(), bytes.size())) {
            QVERIFY2(ref.ok(), context(QStringLiteral("the summary's reading accepts what the reference rejects")).constData());
            QCOMPARE(summarizeTree(*facts), summarizeTree(*ref.tree));
        }
        rejected += ref.ok() ? 0 : 1;
    }
    qInfo("%d files with a defect: %d rejected, %d decided by the fast reading itself", documents, rejected, fastDecided);
    QVERIFY(rejected > documents * 3 / 4);
    QVERIFY(fastDecided > 100); // structural defects (repeats, gaps) are found after the fast reading
}

void TestTreeJsonProperty::zeroScoresAreCountedFast()
{
    // The case of the issue: zero written as Python writes it, read from a file.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("zeros.json"));
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(R"({"format": "dreamrsi-tree/1", "baseline_score": 0.0, "cells": [)"
            R"({"seq": 1, "id": "b0a1", "branch": 0, "attempt": 1, "score": -0.0, "error": "tolerance not met"}, )"
            R"({"seq": 0, "id": "b0a0", "branch": 0, "attempt": 0, "score": 0.0, "m": {"t": 0.0, "n": 100.0}}]})");
    f.close();
    const TreeJson::ReadCounts before = TreeJson::readCounts();
    const TreeJson::ParseResult r = TreeJson::readFile(path);
    QVERIFY2(r.ok(), qPrintable(r.error.message));
    const Result<CompactTree> compact = TreeJson::readCompactFile(path);
    QVERIFY2(compact.ok(), qPrintable(compact.error));
    const TreeJson::ReadCounts after = TreeJson::readCounts();
    QCOMPARE(after.fast - before.fast, qint64(1));
    QCOMPARE(after.fallback - before.fallback, qint64(0));
    QCOMPARE(after.compactFast - before.compactFast, qint64(1));
    QCOMPARE(after.compactFallback - before.compactFallback, qint64(0));
    const auto cell = [&r](const char *id) { return r.tree->cells().at(r.tree->indexOfId(QString::fromLatin1(id))); };
    QCOMPARE(bits(*cell("b0a1").score), bits(0.0)); // -0.0 reads as 0, as QJsonDocument reads it
    QCOMPARE(cell("b0a0").payload.value(QLatin1String("m")).toObject().value(QLatin1String("n")).toInteger(), 100);
    QVERIFY(!compact.value->isScorable());

    // An underflow anywhere still goes to the reference, which rejects it.
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write(R"({"format": "dreamrsi-tree/1", "x": 1e-400, "cells": [{"seq": 0, "id": "a", "branch": 0, "attempt": 0, "score": 0.0}]})");
    f.close();
    const TreeJson::ParseResult bad = TreeJson::readFile(path);
    QVERIFY(!bad.ok());
    QVERIFY2(bad.error.message.contains(QStringLiteral("not valid JSON")), qPrintable(bad.error.message));
    QCOMPARE(TreeJson::readCounts().fallback - after.fallback, qint64(1));
}

QTEST_GUILESS_MAIN(TestTreeJsonProperty)
#include "tst_treejson_property.moc"
