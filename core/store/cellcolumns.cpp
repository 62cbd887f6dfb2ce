#include "cellcolumns.h"

#include "sqlitestatement.h"

#include "model/attemptpayload.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTimeZone>

namespace dreamrsi {

namespace {

QLatin1String key(const char *k)
{
    return QLatin1String(k);
}

std::optional<QString> takeString(QJsonObject &o, const char *k)
{
    const auto it = o.find(key(k));
    if (it == o.end() || !it->isString())
        return std::nullopt;
    QString s = it->toString();
    o.erase(it);
    return s;
}

std::optional<double> number(const QJsonObject &o, const char *k)
{
    const QJsonValue v = o.value(key(k));
    if (!v.isDouble())
        return std::nullopt;
    return v.toDouble();
}

std::optional<qint64> integer(const QJsonObject &o, const char *k)
{
    const QJsonValue v = o.value(key(k));
    if (!v.isDouble())
        return std::nullopt;
    return v.toInteger(qint64(v.toDouble()));
}

std::optional<QString> string(const QJsonObject &o, const char *k)
{
    const QJsonValue v = o.value(key(k));
    if (!v.isString())
        return std::nullopt;
    return v.toString();
}

} // namespace

QByteArray compactJson(const QJsonObject &o)
{
    if (o.isEmpty())
        return QByteArrayLiteral("{}");
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

QJsonObject parseObject(const QByteArray &json)
{
    if (json.isEmpty() || json == "{}")
        return {};
    return QJsonDocument::fromJson(json).object();
}

QString storeTimestamp(const QDateTime &t)
{
    return t.toUTC().toString(Qt::ISODateWithMs);
}

QDateTime parseStoreTimestamp(const QString &text)
{
    if (text.isEmpty())
        return {};
    QDateTime t = QDateTime::fromString(text, Qt::ISODateWithMs);
    t.setTimeSpec(Qt::UTC);
    return t;
}

CellColumns CellColumns::split(const QJsonObject &payload)
{
    // The long texts get their own columns; everything else (metrics, agent,
    // timing included) stays in the payload JSON, so that reading a cell
    // parses one document. metrics/agent/timing are also copied into their
    // own columns, with the scalar fields derived from them, for queries.
    CellColumns c;
    QJsonObject rest = payload;
    c.proposal = takeString(rest, AttemptPayload::Key::proposal);
    c.program = takeString(rest, AttemptPayload::Key::program);
    c.stdoutText = takeString(rest, AttemptPayload::Key::stdoutText);
    c.stderrText = takeString(rest, AttemptPayload::Key::stderrText);
    const QJsonValue metrics = rest.value(key(AttemptPayload::Key::metrics));
    if (metrics.isObject()) {
        c.metrics = compactJson(metrics.toObject());
        c.wall = number(metrics.toObject(), AttemptPayload::Timing::wallKey);
    }
    const QJsonValue agent = rest.value(key(AttemptPayload::Key::agent));
    if (agent.isObject()) {
        const QJsonObject a = agent.toObject();
        c.agent = compactJson(a);
        c.agentName = string(a, AttemptPayload::Agent::nameKey);
        c.model = string(a, AttemptPayload::Agent::modelKey);
        c.tokensIn = integer(a, AttemptPayload::Agent::tokensInKey);
        c.tokensOut = integer(a, AttemptPayload::Agent::tokensOutKey);
        c.cost = number(a, AttemptPayload::Agent::costKey);
    }
    const QJsonValue timing = rest.value(key(AttemptPayload::Key::timing));
    if (timing.isObject()) {
        const QJsonObject t = timing.toObject();
        c.timing = compactJson(t);
        c.agentWall = number(t, AttemptPayload::Timing::agentKey);
        c.evalWall = number(t, AttemptPayload::Timing::evalKey);
        if (const std::optional<double> wall = number(t, AttemptPayload::Timing::wallKey))
            c.wall = wall;
    }
    c.payload = compactJson(rest);
    return c;
}

QJsonObject CellColumns::join(const std::optional<QString> &proposal, const std::optional<QString> &program,
                              const std::optional<QString> &stdoutText, const std::optional<QString> &stderrText,
                              const QByteArray &metrics, const QByteArray &agent, const QByteArray &timing,
                              const QByteArray &payload)
{
    QJsonObject o = parseObject(payload);
    if (proposal)
        o.insert(key(AttemptPayload::Key::proposal), *proposal);
    if (program)
        o.insert(key(AttemptPayload::Key::program), *program);
    if (stdoutText)
        o.insert(key(AttemptPayload::Key::stdoutText), *stdoutText);
    if (stderrText)
        o.insert(key(AttemptPayload::Key::stderrText), *stderrText);
    // Rows written before the payload kept these objects have them only in
    // their own columns.
    if (!metrics.isEmpty() && !o.contains(key(AttemptPayload::Key::metrics)))
        o.insert(key(AttemptPayload::Key::metrics), parseObject(metrics));
    if (!agent.isEmpty() && !o.contains(key(AttemptPayload::Key::agent)))
        o.insert(key(AttemptPayload::Key::agent), parseObject(agent));
    if (!timing.isEmpty() && !o.contains(key(AttemptPayload::Key::timing)))
        o.insert(key(AttemptPayload::Key::timing), parseObject(timing));
    return o;
}

namespace {

/// Tags are stored as a JSON array of strings. Without a backslash in the
/// text no string contains an escaped quote, so `","` separates elements
/// exactly and the JSON parser is not needed.
QStringList parseTags(const QByteArray &json)
{
    QStringList tags;
    if (json == "[]")
        return tags;
    if (json.startsWith("[\"") && json.endsWith("\"]") && !json.contains('\\')) {
        const QByteArrayView inner = QByteArrayView(json).sliced(2, json.size() - 4);
        qsizetype from = 0;
        for (;;) {
            const qsizetype at = inner.indexOf(QByteArrayView("\",\""), from);
            if (at < 0) {
                tags.append(QString::fromUtf8(inner.sliced(from)));
                return tags;
            }
            tags.append(QString::fromUtf8(inner.sliced(from, at - from)));
            from = at + 3;
        }
    }
    const QJsonArray arr = QJsonDocument::fromJson(json).array();
    tags.reserve(arr.size());
    for (const QJsonValue &t : arr)
        tags.append(t.toString());
    return tags;
}

} // namespace

Cell cellFromRow(const SqliteStatement &r, int f)
{
    Cell c;
    c.id = r.text(f + 0);
    c.branch = int(r.int64(f + 1));
    c.attempt = int(r.int64(f + 2));
    c.seq = r.int64(f + 3);
    c.score = r.optReal(f + 4);
    c.evaluated = r.int64(f + 5) != 0;
    if (!r.isNull(f + 6))
        c.valid = r.int64(f + 6) != 0;
    c.failClass = r.text(f + 7);
    c.error = r.optText(f + 8);
    c.nValid = r.optInt(f + 9);
    c.nTotal = r.optInt(f + 10);
    c.tags = parseTags(r.textUtf8(f + 11));
    c.payload = CellColumns::join(r.optText(f + 12), r.optText(f + 13), r.optText(f + 14), r.optText(f + 15),
                                  r.isNull(f + 16) ? QByteArray() : r.textUtf8(f + 16),
                                  r.isNull(f + 17) ? QByteArray() : r.textUtf8(f + 17),
                                  r.isNull(f + 18) ? QByteArray() : r.textUtf8(f + 18), r.textUtf8(f + 19));
    return c;
}

IterationInfo iterationFromRow(const SqliteStatement &r)
{
    IterationInfo it;
    it.id = r.int64(0);
    it.number = r.optInt(1);
    it.task = r.optText(2);
    it.baselineScore = r.optReal(3);
    if (!r.isNull(4))
        it.maxParallelism = int(r.int64(4));
    if (!r.isNull(5) && !r.isNull(6))
        it.grid = GridShape{int(r.int64(5)), int(r.int64(6))};
    it.gridReason = r.text(7);
    it.beta = r.optReal(8);
    it.policyVersion = r.optInt(9).value_or(0);
    it.status = iterationStatusFromName(r.text(10)).value_or(IterationStatus::Interrupted);
    it.started = parseStoreTimestamp(r.text(11));
    it.finished = parseStoreTimestamp(r.text(12));
    it.bestScore = r.optReal(13);
    it.cellCount = r.int64(14);
    it.source = r.text(15);
    it.payload = parseObject(r.textUtf8(16));
    if (!r.isNull(17))
        it.roundLimit = int(r.int64(17));
    it.callLimit = r.optInt(18);
    return it;
}

} // namespace dreamrsi
