#include "treejson.h"

#include "compactcache.h"
#include "treejsonfast.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonParseError>
#include <QSaveFile>
#include <QSet>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <limits>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace dreamrsi::TreeJson {

namespace {

constexpr double MaxExactInteger = 9007199254740992.0; // 2^53

QString typeName(const QJsonValue &v)
{
    switch (v.type()) {
    case QJsonValue::Null: return QStringLiteral("null");
    case QJsonValue::Bool: return QStringLiteral("a boolean");
    case QJsonValue::Double: return QStringLiteral("the number %1").arg(v.toDouble());
    case QJsonValue::String: return QStringLiteral("a string");
    case QJsonValue::Array: return QStringLiteral("an array");
    case QJsonValue::Object: return QStringLiteral("an object");
    case QJsonValue::Undefined: break;
    }
    return QStringLiteral("nothing");
}

/// Collects the location of the value being read so that every message names it.
struct Reader
{
    int cellIndex = -1;
    QString cellId;
    std::optional<TreeError> error;

    bool fail(const QString &field, const QString &what)
    {
        if (error)
            return false;
        TreeError e;
        e.cellIndex = cellIndex;
        e.cellId = cellId;
        e.field = field;
        if (cellIndex >= 0) {
            const QString at = field.isEmpty() ? what : QStringLiteral("%1: %2").arg(field, what);
            e.message = cellId.isEmpty() ? QStringLiteral("cell %1: %2").arg(cellIndex).arg(at)
                                         : QStringLiteral("cell %1 (id \"%2\"): %3").arg(cellIndex).arg(cellId, at);
        } else {
            e.message = field.isEmpty() ? what : QStringLiteral("%1: %2").arg(field, what);
        }
        error = std::move(e);
        return false;
    }

    bool integer(const QJsonObject &o, const QString &key, double min, double max, qint64 *out, bool required)
    {
        const QJsonValue v = o.value(key);
        if (v.isUndefined()) {
            if (required)
                return fail(key, QStringLiteral("is required but missing"));
            return true;
        }
        const QString want = min > -MaxExactInteger
                                 ? QStringLiteral("expected an integer >= %1, got %2").arg(qint64(min)).arg(QStringLiteral("%1"))
                                 : QStringLiteral("expected an integer, got %1");
        if (!v.isDouble())
            return fail(key, want.arg(typeName(v)));
        const double d = v.toDouble();
        if (!std::isfinite(d))
            return fail(key, QStringLiteral("is not a finite number"));
        if (d != std::floor(d))
            return fail(key, want.arg(typeName(v)));
        if (d < min)
            return fail(key, want.arg(typeName(v)));
        if (d > max)
            return fail(key, QStringLiteral("%1 is out of range (at most %2)").arg(d).arg(qint64(max)));
        *out = qint64(d);
        return true;
    }

    /// Number or null; absent leaves *out untouched.
    bool optionalNumber(const QJsonObject &o, const QString &key, std::optional<double> *out)
    {
        const QJsonValue v = o.value(key);
        if (v.isUndefined() || v.isNull())
            return true;
        if (!v.isDouble())
            return fail(key, QStringLiteral("expected a number or null, got %1").arg(typeName(v)));
        const double d = v.toDouble();
        if (!std::isfinite(d))
            return fail(key, QStringLiteral("is not a finite number"));
        *out = d;
        return true;
    }

    bool optionalInteger(const QJsonObject &o, const QString &key, std::optional<qint64> *out)
    {
        const QJsonValue v = o.value(key);
        if (v.isUndefined() || v.isNull())
            return true;
        qint64 n = 0;
        if (!integer(o, key, -MaxExactInteger, MaxExactInteger, &n, true))
            return false;
        *out = n;
        return true;
    }

    bool optionalString(const QJsonObject &o, const QString &key, std::optional<QString> *out, bool nullable)
    {
        const QJsonValue v = o.value(key);
        if (v.isUndefined() || (nullable && v.isNull()))
            return true;
        if (!v.isString())
            return fail(key, (nullable ? QStringLiteral("expected a string or null, got %1")
                                       : QStringLiteral("expected a string, got %1"))
                                 .arg(typeName(v)));
        *out = v.toString();
        return true;
    }
};

const QSet<QString> &cellKeys()
{
    static const QSet<QString> keys = {
        QStringLiteral("id"),         QStringLiteral("branch"), QStringLiteral("attempt"), QStringLiteral("seq"),
        QStringLiteral("score"),      QStringLiteral("evaluated"), QStringLiteral("valid"),
        QStringLiteral("fail_class"), QStringLiteral("error"),  QStringLiteral("n_valid"), QStringLiteral("n_total"),
        QStringLiteral("tags")};
    return keys;
}

const QSet<QString> &topKeys()
{
    static const QSet<QString> keys = {QStringLiteral("format"),          QStringLiteral("task"),
                                       QStringLiteral("iteration"),       QStringLiteral("baseline_score"),
                                       QStringLiteral("max_parallelism"), QStringLiteral("grid"),
                                       QStringLiteral("approximate"), QStringLiteral("cells")};
    return keys;
}

std::optional<Cell> readCell(Reader &r, const QJsonValue &value)
{
    if (!value.isObject()) {
        r.fail(QString(), QStringLiteral("is %1, expected an object").arg(typeName(value)));
        return std::nullopt;
    }
    const QJsonObject o = value.toObject();
    Cell c;
    const QJsonValue id = o.value(QLatin1String("id"));
    if (id.isUndefined()) {
        r.fail(QStringLiteral("id"), QStringLiteral("is required but missing"));
        return std::nullopt;
    }
    if (!id.isString() || id.toString().isEmpty()) {
        r.fail(QStringLiteral("id"), QStringLiteral("expected a non-empty string, got %1")
                                         .arg(id.isString() ? QStringLiteral("an empty string") : typeName(id)));
        return std::nullopt;
    }
    c.id = id.toString();
    r.cellId = c.id;

    qint64 branch = 0, attempt = 0, seq = 0;
    if (!r.integer(o, QStringLiteral("branch"), 0, 2147483647.0, &branch, true)
        || !r.integer(o, QStringLiteral("attempt"), 0, 2147483647.0, &attempt, true)
        || !r.integer(o, QStringLiteral("seq"), -MaxExactInteger, MaxExactInteger, &seq, true))
        return std::nullopt;
    c.branch = int(branch);
    c.attempt = int(attempt);
    c.seq = seq;

    if (!r.optionalNumber(o, QStringLiteral("score"), &c.score))
        return std::nullopt;

    const QJsonValue evaluated = o.value(QLatin1String("evaluated"));
    if (evaluated.isUndefined()) {
        c.evaluated = c.score.has_value();
    } else if (evaluated.isBool()) {
        c.evaluated = evaluated.toBool();
    } else {
        r.fail(QStringLiteral("evaluated"), QStringLiteral("expected a boolean, got %1").arg(typeName(evaluated)));
        return std::nullopt;
    }

    const QJsonValue valid = o.value(QLatin1String("valid"));
    if (valid.isBool()) {
        c.valid = valid.toBool();
    } else if (!valid.isUndefined() && !valid.isNull()) {
        r.fail(QStringLiteral("valid"), QStringLiteral("expected a boolean or null, got %1").arg(typeName(valid)));
        return std::nullopt;
    }

    if (!r.optionalString(o, QStringLiteral("error"), &c.error, true))
        return std::nullopt;

    std::optional<QString> failClass;
    if (!r.optionalString(o, QStringLiteral("fail_class"), &failClass, false))
        return std::nullopt;
    c.failClass = failClass ? *failClass
                            : QString::fromLatin1(c.evaluated && !c.error ? FailClass::Ok : FailClass::Agent);

    if (!r.optionalInteger(o, QStringLiteral("n_valid"), &c.nValid)
        || !r.optionalInteger(o, QStringLiteral("n_total"), &c.nTotal))
        return std::nullopt;

    const QJsonValue tags = o.value(QLatin1String("tags"));
    if (!tags.isUndefined()) {
        if (!tags.isArray()) {
            r.fail(QStringLiteral("tags"), QStringLiteral("expected an array of strings, got %1").arg(typeName(tags)));
            return std::nullopt;
        }
        const QJsonArray arr = tags.toArray();
        for (qsizetype i = 0; i < arr.size(); ++i) {
            if (!arr.at(i).isString()) {
                r.fail(QStringLiteral("tags"), QStringLiteral("element %1 is %2, expected a string")
                                                   .arg(i)
                                                   .arg(typeName(arr.at(i))));
                return std::nullopt;
            }
            c.tags.append(arr.at(i).toString());
        }
    }

    for (auto it = o.constBegin(); it != o.constEnd(); ++it) {
        if (!cellKeys().contains(it.key()))
            c.payload.insert(it.key(), it.value());
    }
    return c;
}

} // namespace

namespace {

struct Counters
{
    std::atomic<qint64> fast{0}, fallback{0}, compactFast{0}, compactFallback{0};
};

Counters &counters()
{
    static Counters c;
    return c;
}

void count(std::atomic<qint64> &counter)
{
    counter.fetch_add(1, std::memory_order_relaxed);
}

} // namespace

ReadCounts readCounts()
{
    const Counters &c = counters();
    return ReadCounts{c.fast.load(std::memory_order_relaxed), c.fallback.load(std::memory_order_relaxed),
                      c.compactFast.load(std::memory_order_relaxed), c.compactFallback.load(std::memory_order_relaxed)};
}

ParseResult parse(const QByteArray &json)
{
    if (std::optional<ParseResult> fast = detail::parseFast(json)) {
        count(counters().fast);
        return std::move(*fast);
    }
    count(counters().fallback);
    return parseReference(json);
}

namespace {

/// The number token around `offset`, where the JSON reader stopped at an
/// illegal number (Qt reports the token's start, a byte inside it or its
/// end): [start, end), or an empty range.
std::pair<qsizetype, qsizetype> numberTokenAround(const QByteArray &json, qsizetype offset)
{
    const auto delimiter = [](char c) { return c == ',' || c == ':' || c == '[' || c == '{' || c == '}' || c == ']'; };
    const auto space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
    qsizetype start = std::clamp<qsizetype>(offset, 0, json.size());
    // From the end of a token, step back into it.
    if (start > 0 && (start == json.size() || delimiter(json.at(start)) || space(json.at(start))))
        --start;
    while (start > 0 && !delimiter(json.at(start - 1)) && !space(json.at(start - 1)))
        --start;
    qsizetype end = start;
    while (end < json.size() && !delimiter(json.at(end)) && !space(json.at(end)))
        ++end;
    return {start, end};
}

/// Whether `token` is a number no double holds: NaN and Infinity as
/// Python's json.dump writes them, or a literal past the largest double (1e999).
bool nonFiniteToken(const QByteArray &token)
{
    static const QByteArrayList words = {"NaN", "-NaN", "Infinity", "-Infinity", "+Infinity", "inf", "-inf", "nan"};
    if (words.contains(token))
        return true;
    if (token.isEmpty() || !(std::isdigit(uchar(token.front())) || token.front() == '-'))
        return false;
    const std::string text = token.toStdString();
    char *end = nullptr;
    errno = 0;
    const double v = std::strtod(text.c_str(), &end);
    return end == text.c_str() + text.size() && std::isinf(v);
}

/// Where `marker` sits in `v`: "score", "metrics.x", "tags[2]"; empty when not there.
QString pathOf(const QJsonValue &v, const QString &marker)
{
    if (v.isString())
        return v.toString() == marker ? QStringLiteral(".") : QString();
    if (v.isObject()) {
        const QJsonObject o = v.toObject();
        for (auto it = o.begin(); it != o.end(); ++it) {
            const QString inner = pathOf(it.value(), marker);
            if (!inner.isEmpty())
                return inner == QLatin1String(".") ? it.key() : it.key() + (inner.startsWith(u'[') ? QString() : QStringLiteral(".")) + inner;
        }
    } else if (v.isArray()) {
        const QJsonArray a = v.toArray();
        for (qsizetype i = 0; i < a.size(); ++i) {
            const QString inner = pathOf(a.at(i), marker);
            if (!inner.isEmpty())
                return QStringLiteral("[%1]").arg(i) + (inner == QLatin1String(".") ? QString()
                                                        : inner.startsWith(u'[')    ? inner
                                                                                    : QStringLiteral(".") + inner);
        }
    }
    return {};
}

/// The cell and field of a number that is NaN or infinite, where the JSON
/// reader stopped at `offset` (docs/tree-format.md: a file is rejected with
/// the cell and the field named): `cell 1 (id "b0a1"): score: NaN is not a
/// finite number`; nothing when the token there is not such a number or the
/// file is not valid JSON for another reason as well.
std::optional<TreeError> nonFiniteNumberAt(const QByteArray &json, qsizetype offset)
{
    const auto [start, end] = numberTokenAround(json, offset);
    const QByteArray token = json.mid(start, end - start);
    if (!nonFiniteToken(token))
        return std::nullopt;
    // The token becomes a marker string, every later non-finite number null,
    // until the file reads; then the marker says where the first one was.
    const QString marker = QStringLiteral("\u0001dreamrsi-non-finite\u0001");
    QByteArray doc = json.left(start) + "\"\\u0001dreamrsi-non-finite\\u0001\"" + json.mid(end);
    QJsonDocument parsed;
    for (int tries = 0; tries < 64; ++tries) {
        QJsonParseError error;
        parsed = QJsonDocument::fromJson(doc, &error);
        if (error.error == QJsonParseError::NoError)
            break;
        const auto [s, e] = numberTokenAround(doc, error.offset);
        if (error.error != QJsonParseError::IllegalNumber || !nonFiniteToken(doc.mid(s, e - s)))
            return std::nullopt;
        doc = doc.left(s) + "null" + doc.mid(e);
    }
    if (!parsed.isObject())
        return std::nullopt;
    const QJsonObject top = parsed.object();
    const QString what = QStringLiteral("%1 is not a finite number").arg(QString::fromUtf8(token));
    Reader r;
    const QJsonArray cells = top.value(QLatin1String("cells")).toArray();
    for (qsizetype i = 0; i < cells.size(); ++i) {
        const QString field = pathOf(cells.at(i), marker);
        if (field.isEmpty())
            continue;
        r.cellIndex = int(i);
        r.cellId = cells.at(i).toObject().value(QLatin1String("id")).toString();
        r.fail(field, what);
        return r.error;
    }
    const QString field = pathOf(QJsonValue(top), marker);
    if (field.isEmpty())
        return std::nullopt;
    r.fail(field, what);
    return r.error;
}

} // namespace

ParseResult parseReference(const QByteArray &json)
{
    ParseResult result;
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        if (parseError.error == QJsonParseError::IllegalNumber) {
            if (std::optional<TreeError> where = nonFiniteNumberAt(json, parseError.offset)) {
                result.error = std::move(*where);
                return result;
            }
        }
        const QByteArray before = json.left(parseError.offset);
        const qsizetype line = before.count('\n') + 1;
        const qsizetype column = parseError.offset - (before.lastIndexOf('\n') + 1) + 1;
        result.error.message = QStringLiteral("not valid JSON: %1 at line %2, column %3 (byte %4)")
                                   .arg(parseError.errorString())
                                   .arg(line)
                                   .arg(column)
                                   .arg(parseError.offset);
        return result;
    }
    if (!doc.isObject()) {
        result.error.message = QStringLiteral("not a dreamrsi tree: the top level is not a JSON object");
        return result;
    }
    const QJsonObject top = doc.object();
    Reader r;
    const QJsonValue format = top.value(QLatin1String("format"));
    if (format.toString() != QLatin1String(FormatTag)) {
        r.fail(QStringLiteral("format"),
               format.isUndefined()
                   ? QStringLiteral("is missing (expected \"%1\")").arg(QLatin1String(FormatTag))
                   : QStringLiteral("expected \"%1\", got %2")
                         .arg(QLatin1String(FormatTag),
                              format.isString() ? QLatin1Char('"') + format.toString() + QLatin1Char('"')
                                                : typeName(format)));
        result.error = *r.error;
        return result;
    }

    TreeMeta meta;
    std::optional<double> baseline;
    std::optional<qint64> iteration;
    std::optional<qint64> maxParallelism;
    bool ok = r.optionalString(top, QStringLiteral("task"), &meta.task, true)
              && r.optionalInteger(top, QStringLiteral("iteration"), &iteration)
              && r.optionalNumber(top, QStringLiteral("baseline_score"), &baseline);
    if (ok && top.contains(QLatin1String("max_parallelism")) && !top.value(QLatin1String("max_parallelism")).isNull()) {
        qint64 w = 0;
        ok = r.integer(top, QStringLiteral("max_parallelism"), 1, 1000000, &w, true);
        maxParallelism = w;
    }
    if (ok && top.contains(QLatin1String("grid")) && !top.value(QLatin1String("grid")).isNull()) {
        const QJsonValue g = top.value(QLatin1String("grid"));
        if (!g.isObject()) {
            ok = r.fail(QStringLiteral("grid"), QStringLiteral("expected an object, got %1").arg(typeName(g)));
        } else {
            qint64 branches = 0, refinements = 0;
            Reader gr;
            if (gr.integer(g.toObject(), QStringLiteral("branches"), 0, 1000000, &branches, true)
                && gr.integer(g.toObject(), QStringLiteral("refinements"), 0, 1000000, &refinements, true)) {
                meta.grid = GridShape{int(branches), int(refinements)};
            } else {
                ok = r.fail(QStringLiteral("grid.") + gr.error->field, gr.error->message.section(QStringLiteral(": "), 1));
            }
        }
    }
    if (ok && top.contains(QLatin1String("approximate"))) {
        const QJsonValue a = top.value(QLatin1String("approximate"));
        if (a.isBool())
            meta.approximate = a.toBool();
        else if (!a.isNull())
            ok = r.fail(QStringLiteral("approximate"), QStringLiteral("expected a boolean or null, got %1").arg(typeName(a)));
    }
    if (!ok) {
        result.error = *r.error;
        return result;
    }
    meta.iteration = iteration;
    meta.baselineScore = baseline;
    if (maxParallelism)
        meta.maxParallelism = int(*maxParallelism);
    for (auto it = top.constBegin(); it != top.constEnd(); ++it) {
        if (!topKeys().contains(it.key()))
            meta.payload.insert(it.key(), it.value());
    }

    const QJsonValue cellsValue = top.value(QLatin1String("cells"));
    if (!cellsValue.isArray()) {
        r.fail(QStringLiteral("cells"), cellsValue.isUndefined()
                                            ? QStringLiteral("is required but missing")
                                            : QStringLiteral("expected an array, got %1").arg(typeName(cellsValue)));
        result.error = *r.error;
        return result;
    }
    const QJsonArray arr = cellsValue.toArray();
    QList<Cell> cells;
    cells.reserve(arr.size());
    for (qsizetype i = 0; i < arr.size(); ++i) {
        r.cellIndex = int(i);
        r.cellId.clear();
        std::optional<Cell> c = readCell(r, arr.at(i));
        if (!c) {
            result.error = *r.error;
            return result;
        }
        cells.append(std::move(*c));
    }
    result.tree = DiscoveryTree::build(std::move(meta), std::move(cells), &result.error);
    return result;
}

namespace {

/// The file's bytes in `buffer` (reused from file to file on a thread, so
/// reading many files allocates and faults in its memory once), with the
/// parser's padding readable after them; false when it cannot be read.
bool readPadded(QFile &file, QByteArray &buffer, qsizetype *size)
{
    const qint64 expected = file.size();
    const qsizetype padding = detail::paddingBytes();
    if (file.isSequential() || expected <= 0 || expected > qint64(std::numeric_limits<int>::max()) - padding) {
        buffer = file.readAll();
        *size = buffer.size();
        buffer.append(QByteArray(padding, '\0'));
        return file.error() == QFileDevice::NoError;
    }
    buffer.resize(qsizetype(expected) + padding);
    qsizetype got = 0;
    while (got < expected) {
        const qint64 n = file.read(buffer.data() + got, expected - got);
        if (n < 0)
            return false;
        if (n == 0)
            break; // the file shrank since its size was read
        got += qsizetype(n);
    }
    // A file that grew since: the rest is read as well.
    const QByteArray rest = file.readAll();
    if (!rest.isEmpty()) {
        buffer.resize(got);
        buffer.append(rest);
        got = buffer.size();
        buffer.append(QByteArray(padding, '\0'));
    }
    *size = got;
    return file.error() == QFileDevice::NoError;
}

} // namespace

/// Reads the file at `path` into the thread's buffer (with the parser's
/// padding) and hands its bytes to `parse`; the message of a file that
/// cannot be opened or read otherwise.
/// The common case of reading a file, with as few system calls as it takes
/// (open, fstat, one read, close; QFile stats the path three times): a
/// regular file read whole into `buffer` with the parser's padding after it.
/// False for anything else (a file that cannot be opened, not a regular
/// file, a read error), which QFile then reads or explains.
bool readRegularFile(const QString &path, QByteArray &buffer, qsizetype *size)
{
    const int fd = ::open(QFile::encodeName(path).constData(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    struct stat info;
    bool ok = ::fstat(fd, &info) == 0 && S_ISREG(info.st_mode) && info.st_size > 0
        && info.st_size < qint64(std::numeric_limits<int>::max()) / 2;
    qsizetype got = 0;
    if (ok) {
        const qsizetype padding = detail::paddingBytes();
        // Room for one byte more than the size: a read that fills it means the file grew.
        qsizetype room = qsizetype(info.st_size) + 1;
        buffer.resize(room + padding);
        for (;;) {
            const ssize_t n = ::read(fd, buffer.data() + got, size_t(room - got));
            if (n < 0 && errno == EINTR)
                continue;
            if (n < 0) {
                ok = false;
                break;
            }
            got += qsizetype(n);
            if (n == 0 || got < room)
                break; // a short read of a regular file: its end
            room *= 2;
            if (room > std::numeric_limits<int>::max() / 2) {
                ok = false;
                break;
            }
            buffer.resize(room + padding);
        }
    }
    ::close(fd);
    if (!ok)
        return false;
    std::memset(buffer.data() + got, 0, size_t(detail::paddingBytes()));
    *size = got;
    return true;
}

/// `parse` of the file's bytes (padded for simdjson), or why they could not
/// be read.
template<typename Parse>
auto withFileBytes(const QString &path, Parse parse) -> Result<decltype(parse(nullptr, 0))>
{
    using Read = Result<decltype(parse(nullptr, 0))>;
    thread_local QByteArray buffer;
    qsizetype size = 0;
    const auto parseBuffer = [&] {
        Read parsed = Read::success(parse(buffer.constData(), size));
        // A thread keeps the buffer of ordinary files, not of a huge one.
        if (buffer.capacity() > 16 * 1024 * 1024)
            buffer = QByteArray();
        return parsed;
    };
    if (readRegularFile(path, buffer, &size))
        return parseBuffer();
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return Read::failure(QStringLiteral("%1: cannot open: %2").arg(path, file.errorString()));
    if (!readPadded(file, buffer, &size))
        return Read::failure(QStringLiteral("%1: cannot read: %2").arg(path, file.errorString()));
    return parseBuffer();
}

ParseResult readFile(const QString &path, Payload payload)
{
    Result<ParseResult> read = withFileBytes(path, [payload](const char *data, qsizetype size) {
        if (std::optional<ParseResult> fast = detail::parseFastPadded(data, size, payload == Payload::Keep)) {
            count(counters().fast);
            return std::move(*fast);
        }
        count(counters().fallback);
        return parseReference(QByteArray(data, size));
    });
    if (!read) {
        ParseResult unreadable;
        unreadable.error.message = read.error;
        return unreadable;
    }
    ParseResult &result = *read.value;
    if (!result.ok())
        result.error.message = path + QStringLiteral(": ") + result.error.message;
    return std::move(result);
}

Result<Cell> cellFromJson(const QJsonObject &object)
{
    Reader r;
    r.cellIndex = 0;
    r.cellId = object.value(QLatin1String("id")).toString();
    std::optional<Cell> cell = readCell(r, object);
    if (!cell)
        return Result<Cell>::failure(r.error ? r.error->message : QStringLiteral("not a cell"));
    return Result<Cell>::success(std::move(*cell));
}

Result<CompactTree> readCompactFile(const QString &path, bool useCache)
{
    using Read = Result<CompactTree>;
    // The cache is asked with the file's status before its bytes are read,
    // and filled only when the status is the same after they were.
    const QByteArray name = QFile::encodeName(path);
    struct stat before;
    const bool caching = useCache && !CompactCache::directory().isEmpty() && ::stat(name.constData(), &before) == 0
        && S_ISREG(before.st_mode);
    if (caching) {
        if (std::optional<CompactTree> cached = CompactCache::load(before))
            return Read::success(std::move(*cached));
    }
    const auto keep = [&](CompactTree &&tree) {
        struct stat after;
        if (caching && ::stat(name.constData(), &after) == 0 && after.st_ino == before.st_ino
            && after.st_dev == before.st_dev && after.st_size == before.st_size
            && after.st_mtim.tv_sec == before.st_mtim.tv_sec && after.st_mtim.tv_nsec == before.st_mtim.tv_nsec
            && after.st_ctim.tv_sec == before.st_ctim.tv_sec && after.st_ctim.tv_nsec == before.st_ctim.tv_nsec)
            CompactCache::store(before, tree);
        return Read::success(std::move(tree));
    };
    Result<std::optional<CompactTree>> compact = withFileBytes(path, detail::parseCompactPadded);
    if (!compact)
        return compact.failureAs<CompactTree>();
    if (*compact.value) {
        count(counters().compactFast);
        return keep(std::move(**compact.value));
    }
    count(counters().compactFallback);
    // Anything the compact reading declines is read in full, which decides.
    ParseResult full = readFile(path, Payload::Skip); // only its compact form is kept
    if (!full.ok())
        return Read::failure(full.error.message);
    return keep(CompactTree::fromTree(*full.tree));
}

Result<TreeFacts> readFactsFile(const QString &path)
{
    using Read = Result<TreeFacts>;
    Result<std::optional<TreeFacts>> facts = withFileBytes(path, detail::parseFactsPadded);
    if (!facts)
        return facts.failureAs<TreeFacts>();
    if (*facts.value) {
        count(counters().compactFast);
        return Read::success(std::move(**facts.value));
    }
    count(counters().compactFallback);
    ParseResult full = readFile(path, Payload::Skip);
    if (!full.ok())
        return Read::failure(full.error.message);
    return Read::success(treeFacts(*full.tree));
}

void readFactsFilesEach(const QStringList &paths, const std::function<void(qsizetype, Result<TreeFacts> &&)> &take,
                        int threads)
{
    if (threads <= 0)
        threads = int(std::max(1u, std::thread::hardware_concurrency()));
    threads = int(std::max<qsizetype>(1, std::min<qsizetype>(threads, paths.size())));
    std::atomic<qsizetype> next{0};
    auto work = [&] {
        for (qsizetype i = next++; i < paths.size(); i = next++)
            take(i, readFactsFile(paths.at(i)));
    };
    std::vector<std::thread> pool;
    pool.reserve(size_t(threads - 1));
    for (int t = 1; t < threads; ++t)
        pool.emplace_back(work);
    work();
    for (std::thread &t : pool)
        t.join();
}

bool isApproximateFile(const QString &path, bool useCache)
{
    struct stat info;
    if (useCache && !CompactCache::directory().isEmpty() && ::stat(QFile::encodeName(path).constData(), &info) == 0
        && S_ISREG(info.st_mode)) {
        if (const std::optional<CompactTree> cached = CompactCache::load(info))
            return cached->approximate;
    }
    const Result<bool> spelt = withFileBytes(path, [](const char *data, qsizetype size) {
        return QByteArrayView(data, size).contains(QByteArrayView("\"approximate\""));
    });
    if (!spelt || !*spelt.value)
        return false;
    const ParseResult full = readFile(path, Payload::Skip);
    return full.ok() && full.tree->meta().approximate;
}

void readFilesEach(const QStringList &paths, const std::function<void(qsizetype, ParseResult &&)> &take, int threads,
                   Payload payload)
{
    if (threads <= 0)
        threads = int(std::max(1u, std::thread::hardware_concurrency()));
    threads = int(std::min<qsizetype>(threads, paths.size()));
    if (threads <= 1) {
        for (qsizetype i = 0; i < paths.size(); ++i)
            take(i, readFile(paths.at(i), payload));
        return;
    }
    // Each worker takes the next unread path.
    std::atomic<qsizetype> next{0};
    auto work = [&] {
        for (qsizetype i = next++; i < paths.size(); i = next++)
            take(i, readFile(paths.at(i), payload));
    };
    std::vector<std::thread> pool;
    pool.reserve(size_t(threads - 1));
    for (int t = 1; t < threads; ++t)
        pool.emplace_back(work);
    work();
    for (std::thread &t : pool)
        t.join();
}

QList<ParseResult> readFiles(const QStringList &paths, int threads, Payload payload)
{
    QList<ParseResult> results(paths.size());
    ParseResult *into = results.data();
    readFilesEach(paths, [into](qsizetype i, ParseResult &&r) { into[i] = std::move(r); }, threads, payload);
    return results;
}

QJsonObject cellToJson(const Cell &c)
{
    QJsonObject o = c.payload;
    o.insert(QLatin1String("id"), c.id);
    o.insert(QLatin1String("branch"), c.branch);
    o.insert(QLatin1String("attempt"), c.attempt);
    o.insert(QLatin1String("seq"), c.seq);
    o.insert(QLatin1String("score"), c.score ? QJsonValue(*c.score) : QJsonValue(QJsonValue::Null));
    o.insert(QLatin1String("evaluated"), c.evaluated);
    o.insert(QLatin1String("valid"), c.valid ? QJsonValue(*c.valid) : QJsonValue(QJsonValue::Null));
    o.insert(QLatin1String("fail_class"), c.failClass);
    o.insert(QLatin1String("error"), c.error ? QJsonValue(*c.error) : QJsonValue(QJsonValue::Null));
    o.insert(QLatin1String("n_valid"), c.nValid ? QJsonValue(*c.nValid) : QJsonValue(QJsonValue::Null));
    o.insert(QLatin1String("n_total"), c.nTotal ? QJsonValue(*c.nTotal) : QJsonValue(QJsonValue::Null));
    o.insert(QLatin1String("tags"), QJsonArray::fromStringList(c.tags));
    return o;
}

QJsonObject toJson(const DiscoveryTree &tree)
{
    const TreeMeta &m = tree.meta();
    QJsonObject top = m.payload;
    top.insert(QLatin1String("format"), QLatin1String(FormatTag));
    if (m.task)
        top.insert(QLatin1String("task"), *m.task);
    if (m.iteration)
        top.insert(QLatin1String("iteration"), *m.iteration);
    if (m.baselineScore)
        top.insert(QLatin1String("baseline_score"), *m.baselineScore);
    if (m.maxParallelism)
        top.insert(QLatin1String("max_parallelism"), *m.maxParallelism);
    if (m.approximate)
        top.insert(QLatin1String("approximate"), true);
    if (m.grid)
        top.insert(QLatin1String("grid"), QJsonObject{{QLatin1String("branches"), m.grid->branches},
                                                      {QLatin1String("refinements"), m.grid->refinements}});
    QJsonArray cells;
    for (const Cell &c : tree.cells())
        cells.append(cellToJson(c));
    top.insert(QLatin1String("cells"), cells);
    return top;
}

QByteArray serialize(const DiscoveryTree &tree, QJsonDocument::JsonFormat format)
{
    return QJsonDocument(toJson(tree)).toJson(format);
}

Result<Done> writeFile(const DiscoveryTree &tree, const QString &path)
{
    QSaveFile file(path);
    if (file.open(QIODevice::WriteOnly)) {
        file.write(serialize(tree));
        if (file.commit())
            return Result<Done>::success({});
    }
    return Result<Done>::failure(QStringLiteral("%1: cannot write: %2").arg(path, file.errorString()));
}

} // namespace dreamrsi::TreeJson
