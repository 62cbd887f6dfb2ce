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
#include <vector>

#include <pwd.h>
#include <unistd.h>

namespace dreamrsi {

namespace {

const QStringList &knownActions()
{
    static const QStringList actions = {QStringLiteral("close"),   QStringLiteral("refine"),  QStringLiteral("hint"),
                                        QStringLiteral("pause"),   QStringLiteral("continue"), QStringLiteral("approve"),
                                        QStringLiteral("decline"), QStringLiteral("batch"),   QStringLiteral("kill")};
    return actions;
}

/// Writes `object` to `path` atomically (QSaveFile: a temporary file renamed into place).
Result<Done> writeJson(const QString &path, const QJsonObject &object)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QSaveFile file(path);
    const QByteArray bytes = QJsonDocument(object).toJson(QJsonDocument::Compact);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit())
        return Result<Done>::failure(QStringLiteral("cannot write '%1': %2").arg(path, file.errorString()));
    return Result<Done>::success({});
}

Result<QJsonObject> readJson(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return Result<QJsonObject>::failure(
            QStringLiteral("cannot read '%1': %2").arg(path, file.errorString()));
    QJsonParseError parse{};
    const QJsonDocument doc = QJsonDocument::fromJson(file.readAll(), &parse);
    if (!doc.isObject())
        return Result<QJsonObject>::failure(
            QStringLiteral("'%1' is not a JSON object (%2)").arg(path, parse.errorString()));
    return Result<QJsonObject>::success(doc.object());
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
    if (!attempt.isEmpty())
        o.insert(QStringLiteral("attempt"), attempt);
    return o;
}

Result<SteeringRequest> SteeringRequest::fromJson(const QJsonObject &o)
{
    SteeringRequest r;
    r.id = o.value(QStringLiteral("id")).toString();
    r.action = o.value(QStringLiteral("action")).toString();
    if (!knownActions().contains(r.action))
        return Result<SteeringRequest>::failure(
            QStringLiteral("unknown action '%1' (known: %2)")
                .arg(r.action, knownActions().join(QStringLiteral(", "))));
    const QJsonValue branch = o.value(QStringLiteral("branch"));
    if (branch.isString() && branch.toString() == QLatin1String("new")) {
        r.newBranch = true;
    } else if (branch.isDouble()) {
        const double b = branch.toDouble();
        if (b != double(int(b)) || b < 0)
            return Result<SteeringRequest>::failure(
                QStringLiteral("branch %1 is not a branch number").arg(b));
        r.branch = int(b);
    } else if (!branch.isUndefined() && !branch.isNull()) {
        return Result<SteeringRequest>::failure(QStringLiteral("branch must be a number or \"new\""));
    }
    r.text = o.value(QStringLiteral("text")).toString();
    r.why = o.value(QStringLiteral("why")).toString();
    r.by = o.value(QStringLiteral("by")).toString();
    r.time = QDateTime::fromString(o.value(QStringLiteral("time")).toString(), Qt::ISODateWithMs);
    r.version = o.value(QStringLiteral("version")).toVariant().toString();
    r.best = o.value(QStringLiteral("best")).toBool();
    r.attempt = o.value(QStringLiteral("attempt")).toString();
    if (r.action == QLatin1String("kill") && r.attempt.isEmpty())
        return Result<SteeringRequest>::failure(QStringLiteral("kill needs the attempt's id"));
    return Result<SteeringRequest>::success(std::move(r));
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
    if (action == QLatin1String("kill"))
        s += QLatin1Char(' ') + attempt;
    if (action == QLatin1String("approve"))
        s += best ? QStringLiteral(" --best") : QStringLiteral(" version %1").arg(version);
    return s;
}

namespace SteeringInbox {

QString folderFor(const QString &projectPath)
{
    return QFileInfo(projectPath).absoluteFilePath() + QStringLiteral(".inbox");
}

Result<Done> submit(const QString &projectPath, SteeringRequest *request)
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
    if (!safeId(request->id))
        return Result<Done>::failure(QStringLiteral("request id '%1' is not a plain name").arg(request->id));
    return writeJson(requestsDir(projectPath) + QLatin1Char('/') + request->id + QStringLiteral(".json"),
                     request->toJson());
}

std::optional<SteeringAck> takeAck(const QString &projectPath, const QString &id)
{
    const QString path = acksDir(projectPath) + QLatin1Char('/') + id + QStringLiteral(".json");
    if (!QFileInfo::exists(path))
        return std::nullopt;
    const Result<QJsonObject> read = readJson(path);
    SteeringAck ack;
    ack.id = id;
    if (!read.ok()) {
        ack.message = read.error;
    } else {
        const QJsonObject &o = *read.value;
        ack.applied = o.value(QStringLiteral("applied")).toBool();
        ack.message = o.value(QStringLiteral("message")).toString();
        ack.eventId = o.value(QStringLiteral("event")).toInteger();
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
        const Result<QJsonObject> read = readJson(requestsDir(projectPath) + QLatin1Char('/') + f);
        const Result<SteeringRequest> request =
            read.ok() ? SteeringRequest::fromJson(*read.value) : read.failureAs<SteeringRequest>();
        QString problem = request.error;
        std::optional<SteeringRequest> r = request.value;
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

Result<Done> acknowledge(const QString &projectPath, const SteeringAck &ack)
{
    if (!safeId(ack.id))
        return Result<Done>::failure(QStringLiteral("request id '%1' is not a plain name").arg(ack.id));
    QJsonObject o;
    o.insert(QStringLiteral("id"), ack.id);
    o.insert(QStringLiteral("applied"), ack.applied);
    o.insert(QStringLiteral("message"), ack.message);
    if (ack.eventId != 0)
        o.insert(QStringLiteral("event"), ack.eventId);
    if (Result<Done> written =
            writeJson(acksDir(projectPath) + QLatin1Char('/') + ack.id + QStringLiteral(".json"), o);
        !written.ok())
        return written;
    QFile::remove(requestsDir(projectPath) + QLatin1Char('/') + ack.id + QStringLiteral(".json"));
    return Result<Done>::success({});
}

Result<Done> publish(const QString &projectPath, const SteeringLive &live)
{
    QJsonObject o;
    o.insert(QStringLiteral("pid"), live.pid != 0 ? live.pid : QCoreApplication::applicationPid());
    o.insert(QStringLiteral("kind"), live.kind);
    if (live.iteration != 0)
        o.insert(QStringLiteral("iteration"), live.iteration);
    if (!live.proposal.isEmpty())
        o.insert(QStringLiteral("proposal"), live.proposal);
    return writeJson(folderFor(projectPath) + QStringLiteral("/live.json"), o);
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
    const Result<QJsonObject> read = readJson(folderFor(projectPath) + QStringLiteral("/live.json"));
    if (!read.ok())
        return std::nullopt;
    const std::optional<QJsonObject> &o = read.value;
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
        // The asking process itself holds the project (a window whose followed
        // round ended and which reopened it): there is no round, not a refusal.
        if (writer->pid == QCoreApplication::applicationPid())
            return QStringLiteral("no round is running in %1 (this process has it open and runs none)").arg(projectPath);
        return QStringLiteral("%1 has %2 open but does not accept steering now: it runs no round, or its round was "
                              "started without --accept-steering")
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

QString accountName()
{
    if (const QString user = qEnvironmentVariable("USER").trimmed(); !user.isEmpty())
        return user;
    // $USER is unset in many containers and CI jobs; the account still has a name.
    const long size = std::max(sysconf(_SC_GETPW_R_SIZE_MAX), 16384L);
    std::vector<char> buffer(std::size_t(size), '\0');
    passwd entry{};
    passwd *found = nullptr;
    if (getpwuid_r(geteuid(), &entry, buffer.data(), buffer.size(), &found) == 0 && found && found->pw_name
        && *found->pw_name)
        return QString::fromLocal8Bit(found->pw_name);
    for (const char *name : {"LOGNAME", "USERNAME"}) {
        if (const QString v = qEnvironmentVariable(name).trimmed(); !v.isEmpty())
            return v;
    }
    return {};
}

QString loginName()
{
    const QString name = accountName();
    return name.isEmpty() ? QStringLiteral("unknown") : name;
}

} // namespace SteeringInbox

} // namespace dreamrsi
