#include "cellcolumns.h"

#include "sqlitestatement.h"

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

QByteArray takeObject(QJsonObject &o, const char *k, QJsonObject *out)
{
    const auto it = o.find(key(k));
    if (it == o.end() || !it->isObject())
        return {};
    *out = it->toObject();
    o.erase(it);
    return compactJson(*out);
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
    CellColumns c;
    QJsonObject rest = payload;
    c.proposal = takeString(rest, "proposal");
    c.program = takeString(rest, "program");
    c.stdoutText = takeString(rest, "stdout");
    c.stderrText = takeString(rest, "stderr");
    QJsonObject metrics, agent, timing;
    c.metrics = takeObject(rest, "metrics", &metrics);
    c.agent = takeObject(rest, "agent", &agent);
    c.timing = takeObject(rest, "timing", &timing);
    if (!c.agent.isEmpty()) {
        c.agentName = string(agent, "name");
        c.model = string(agent, "model");
        c.tokensIn = integer(agent, "tokens_in");
        c.tokensOut = integer(agent, "tokens_out");
        c.cost = number(agent, "cost");
    }
    if (!c.timing.isEmpty()) {
        c.agentWall = number(timing, "agent_s");
        c.evalWall = number(timing, "eval_s");
        c.wall = number(timing, "wall_s");
    }
    if (!c.wall && !c.metrics.isEmpty())
        c.wall = number(metrics, "wall_s");
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
        o.insert(key("proposal"), *proposal);
    if (program)
        o.insert(key("program"), *program);
    if (stdoutText)
        o.insert(key("stdout"), *stdoutText);
    if (stderrText)
        o.insert(key("stderr"), *stderrText);
    if (!metrics.isEmpty())
        o.insert(key("metrics"), parseObject(metrics));
    if (!agent.isEmpty())
        o.insert(key("agent"), parseObject(agent));
    if (!timing.isEmpty())
        o.insert(key("timing"), parseObject(timing));
    return o;
}

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
    const QByteArray tags = r.textUtf8(f + 11);
    if (tags != "[]") {
        const QJsonArray arr = QJsonDocument::fromJson(tags).array();
        c.tags.reserve(arr.size());
        for (const QJsonValue &t : arr)
            c.tags.append(t.toString());
    }
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
    return it;
}

} // namespace dreamrsi
