#include "steeringinbox.h"

#include "store/projectlock.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QSaveFile>
#include <QUuid>

#include <algorithm>
#include <atomic>

namespace dreamrsi {

namespace {

const QStringList &knownActions()
{
    static const QStringList actions = {QStringLiteral("close"),   QStringLiteral("refine"),  QStringLiteral("hint"),
                                        QStringLiteral("pause"),   QStringLiteral("continue"), QStringLiteral("approve"),
                                        QStringLiteral("decline"), QStringLiteral("batch")};
    return actions;
}

/// Writes `object` to `path` atomically (QSaveFile: a temporary file renamed into place).
bool writeJson(const QString &path, const QJsonObject &object, QString *error)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QSaveFile file(path);
    const QByteArray bytes = QJsonDocument(object).toJson(QJsonDocument::Compact);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit()) {
        if (error)
            *error = QStringLiteral("cannot write '%1': %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

std::optional<QJsonObject> readJson(const QString &path, QString *error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        if (error)
            *error = QStringLiteral("cannot read '%1': %2").arg(path, file.errorString());
        return std::nullopt;
    }
    QJsonParseError parse{};
    const QJsonDocument doc = QJsonDocument::fromJson(file.readAll(), &parse);
    if (!doc.isObject()) {
        if (error)
            *error = QStringLiteral("'%1' is not a JSON object (%2)").arg(path, parse.errorString());
        return std::nullopt;
    }
    return doc.object();
}

QString requestsDir(const QString &projectPath)
{
    return SteeringInbox::folderFor(projectPath) + QStringLiteral("/requests");
}

QString acksDir(const QString &projectPath)
{
    return SteeringInbox::folderFor(projectPath) + QStringLiteral("/acks");
}

/// Ids are file names: letters, digits, '-' and '_' only.
bool safeId(const QString &id)
{
    static const QRegularExpression re(QStringLiteral("^[A-Za-z0-9_-]{1,80}$"));
    return re.match(id).hasMatch();
}

} // namespace

QJsonObject SteeringRequest::toJson() const
{
    QJsonObject o;
    o.insert(QStringLiteral("id"), id);
    o.insert(QStringLiteral("action"), action);
    if (branch)
        o.insert(QStringLiteral("branch"), *branch);
    if (newBranch)
        o.insert(QStringLiteral("branch"), QStringLiteral("new"));
    if (!text.isEmpty())
        o.insert(QStringLiteral("text"), text);
    if (!why.isEmpty())
        o.insert(QStringLiteral("why"), why);
    o.insert(QStringLiteral("by"), by);
    o.insert(QStringLiteral("time"), time.toString(Qt::ISODateWithMs));
    if (!version.isEmpty())
        o.insert(QStringLiteral("version"), version);
    if (best)
        o.insert(QStringLiteral("best"), true);
    return o;
}

std::optional<SteeringRequest> SteeringRequest::fromJson(const QJsonObject &o, QString *error)
{
    SteeringRequest r;
    r.id = o.value(QStringLiteral("id")).toString();
    r.action = o.value(QStringLiteral("action")).toString();
    if (!knownActions().contains(r.action)) {
        *error = QStringLiteral("unknown action '%1' (known: %2)").arg(r.action, knownActions().join(QStringLiteral(", ")));
        return std::nullopt;
    }
    const QJsonValue branch = o.value(QStringLiteral("branch"));
    if (branch.isString() && branch.toString() == QLatin1String("new")) {
        r.newBranch = true;
    } else if (branch.isDouble()) {
        const double b = branch.toDouble();
        if (b != double(int(b)) || b < 0) {
            *error = QStringLiteral("branch %1 is not a branch number").arg(b);
            return std::nullopt;
        }
        r.branch = int(b);
    } else if (!branch.isUndefined() && !branch.isNull()) {
        *error = QStringLiteral("branch must be a number or \"new\"");
        return std::nullopt;
    }
    r.text = o.value(QStringLiteral("text")).toString();
    r.why = o.value(QStringLiteral("why")).toString();
    r.by = o.value(QStringLiteral("by")).toString();
    r.time = QDateTime::fromString(o.value(QStringLiteral("time")).toString(), Qt::ISODateWithMs);
    r.version = o.value(QStringLiteral("version")).toVariant().toString();
    r.best = o.value(QStringLiteral("best")).toBool();
    return r;
}

QString SteeringRequest::describe() const
{
    QString s = action;
    if (branch)
        s += QStringLiteral(" b%1").arg(*branch);
    else if (newBranch)
        s += QStringLiteral(" new");
    if (action == QLatin1String("hint"))
        s += QStringLiteral(": \"%1\"").arg(text);
    if (action == QLatin1String("approve"))
        s += best ? QStringLiteral(" --best") : QStringLiteral(" version %1").arg(version);
    return s;
}

namespace SteeringInbox {

QString folderFor(const QString &projectPath)
{
    return QFileInfo(projectPath).absoluteFilePath() + QStringLiteral(".inbox");
}

bool submit(const QString &projectPath, SteeringRequest *request, QString *error)
{
    if (!request->time.isValid())
        request->time = QDateTime::currentDateTimeUtc();
    if (request->id.isEmpty()) {
        // Time first, then a count of this process's requests, so that file
        // names sort in the order requests were made (within a millisecond too).
        static std::atomic_int made{0};
        request->id = request->time.toUTC().toString(QStringLiteral("yyyyMMdd'T'HHmmsszzz")) + QLatin1Char('-')
                      + QStringLiteral("%1").arg(made.fetch_add(1) % 1000000, 6, 10, QLatin1Char('0')) + QLatin1Char('-')
                      + QUuid::createUuid().toString(QUuid::Id128).left(12);
    }
    if (!safeId(request->id)) {
        *error = QStringLiteral("request id '%1' is not a plain name").arg(request->id);
        return false;
    }
    return writeJson(requestsDir(projectPath) + QLatin1Char('/') + request->id + QStringLiteral(".json"),
                     request->toJson(), error);
}

std::optional<SteeringAck> takeAck(const QString &projectPath, const QString &id)
{
    const QString path = acksDir(projectPath) + QLatin1Char('/') + id + QStringLiteral(".json");
    if (!QFileInfo::exists(path))
        return std::nullopt;
    QString problem;
    const std::optional<QJsonObject> o = readJson(path, &problem);
    SteeringAck ack;
    ack.id = id;
    if (!o) {
        ack.message = problem;
    } else {
        ack.applied = o->value(QStringLiteral("applied")).toBool();
        ack.message = o->value(QStringLiteral("message")).toString();
        ack.eventId = o->value(QStringLiteral("event")).toInteger();
    }
    QFile::remove(path);
    return ack;
}

bool withdraw(const QString &projectPath, const QString &id)
{
    return QFile::remove(requestsDir(projectPath) + QLatin1Char('/') + id + QStringLiteral(".json"));
}

QList<SteeringRequest> pending(const QString &projectPath, QList<SteeringAck> *unreadable)
{
    QList<SteeringRequest> out;
    QStringList files = QDir(requestsDir(projectPath)).entryList({QStringLiteral("*.json")}, QDir::Files);
    std::sort(files.begin(), files.end());
    for (const QString &f : std::as_const(files)) {
        const QString id = QFileInfo(f).completeBaseName();
        QString problem;
        std::optional<SteeringRequest> r;
        if (const std::optional<QJsonObject> o = readJson(requestsDir(projectPath) + QLatin1Char('/') + f, &problem))
            r = SteeringRequest::fromJson(*o, &problem);
        if (r && r->id != id) {
            problem = QStringLiteral("the request's id '%1' is not its file name").arg(r->id);
            r.reset();
        }
        if (r) {
            out.append(*r);
        } else if (unreadable && safeId(id)) {
            unreadable->append(SteeringAck{id, false, QStringLiteral("not a steering request: ") + problem, 0});
        }
    }
    return out;
}

bool acknowledge(const QString &projectPath, const SteeringAck &ack, QString *error)
{
    if (!safeId(ack.id)) {
        *error = QStringLiteral("request id '%1' is not a plain name").arg(ack.id);
        return false;
    }
    QJsonObject o;
    o.insert(QStringLiteral("id"), ack.id);
    o.insert(QStringLiteral("applied"), ack.applied);
    o.insert(QStringLiteral("message"), ack.message);
    if (ack.eventId != 0)
        o.insert(QStringLiteral("event"), ack.eventId);
    if (!writeJson(acksDir(projectPath) + QLatin1Char('/') + ack.id + QStringLiteral(".json"), o, error))
        return false;
    QFile::remove(requestsDir(projectPath) + QLatin1Char('/') + ack.id + QStringLiteral(".json"));
    return true;
}

bool publish(const QString &projectPath, const SteeringLive &live, QString *error)
{
    QJsonObject o;
    o.insert(QStringLiteral("pid"), live.pid != 0 ? live.pid : QCoreApplication::applicationPid());
    o.insert(QStringLiteral("kind"), live.kind);
    if (live.iteration != 0)
        o.insert(QStringLiteral("iteration"), live.iteration);
    if (!live.proposal.isEmpty())
        o.insert(QStringLiteral("proposal"), live.proposal);
    return writeJson(folderFor(projectPath) + QStringLiteral("/live.json"), o, error);
}

void unpublish(const QString &projectPath)
{
    const QString path = folderFor(projectPath) + QStringLiteral("/live.json");
    const std::optional<SteeringLive> live = readLive(projectPath);
    if (live && live->pid == QCoreApplication::applicationPid())
        QFile::remove(path);
}

std::optional<SteeringLive> readLive(const QString &projectPath)
{
    const std::optional<QJsonObject> o = readJson(folderFor(projectPath) + QStringLiteral("/live.json"), nullptr);
    if (!o)
        return std::nullopt;
    SteeringLive live;
    live.pid = o->value(QStringLiteral("pid")).toInteger();
    live.kind = o->value(QStringLiteral("kind")).toString();
    live.iteration = o->value(QStringLiteral("iteration")).toInteger();
    live.proposal = o->value(QStringLiteral("proposal")).toObject();
    return live;
}

std::optional<int> parseBranch(const QString &text)
{
    static const QRegularExpression re(QStringLiteral("^[bB]?(\\d{1,6})$"));
    const QRegularExpressionMatch m = re.match(text.trimmed());
    if (!m.hasMatch())
        return std::nullopt;
    return m.captured(1).toInt();
}

QString whyNotAccepting(const QString &projectPath, const QString &kind)
{
    const std::optional<WriterInfo> writer = ProjectLock::liveWriter(projectPath);
    if (!writer)
        return QStringLiteral("no round is running in %1 (no process has the project open)").arg(projectPath);
    const std::optional<SteeringLive> live = SteeringInbox::readLive(projectPath);
    const QString holder = writer->pid != 0 ? QStringLiteral("process %1 (%2)").arg(writer->pid).arg(writer->application)
                                            : QStringLiteral("the process that holds it");
    if (!live || (writer->pid != 0 && live->pid != writer->pid)) {
        return QStringLiteral("%1 has %2 open but does not accept steering (start the round with --accept-steering)")
            .arg(holder, projectPath);
    }
    if (live->kind != kind) {
        if (kind == QLatin1String("round"))
            return QStringLiteral("the loop in %1 is waiting for approval, not running a round; answer it with "
                                  "dreamrsi approve")
                .arg(holder);
        return QStringLiteral("no loop is waiting for approval in %1 (%2 is running round %3)")
            .arg(projectPath, holder)
            .arg(live->iteration);
    }
    return {};
}

QString loginName()
{
    for (const char *name : {"USER", "USERNAME", "LOGNAME"}) {
        const QString v = qEnvironmentVariable(name);
        if (!v.isEmpty())
            return v;
    }
    return QStringLiteral("unknown");
}

} // namespace SteeringInbox

} // namespace dreamrsi
