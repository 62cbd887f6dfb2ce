#include "task.h"

#include "agent/builtinagent.h"
#include "eval/taskregistry.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMutex>

namespace dreamrsi {

namespace {

/// task.json "directions" (optional): an array of names, or of objects
/// {"name": …, "description": …}. A failure names the bad entry.
Result<QList<Task::Direction>> readDirections(const QString &taskJson)
{
    using Read = Result<QList<Task::Direction>>;
    QFile file(taskJson);
    if (!file.open(QIODevice::ReadOnly))
        return Read::failure(QStringLiteral("cannot read '%1': %2").arg(taskJson, file.errorString()));
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(file.readAll(), &parseError);
    if (!doc.isObject()) // the evaluator reports a malformed task.json in its own words
        return Read::success({});
    const QJsonValue directions = doc.object().value(QStringLiteral("directions"));
    if (directions.isUndefined() || directions.isNull())
        return Read::success({});
    const auto bad = [&](const QString &what) {
        return Read::failure(
            QStringLiteral("%1: \"directions\" %2 (give an array of names, or of {\"name\", \"description\"} objects)")
                .arg(taskJson, what));
    };
    QList<Task::Direction> out;
    if (!directions.isArray())
        return bad(QStringLiteral("is not an array"));
    const QJsonArray list = directions.toArray();
    for (qsizetype i = 0; i < list.size(); ++i) {
        const QJsonValue entry = list.at(i);
        Task::Direction d;
        if (entry.isString()) {
            d.name = entry.toString().trimmed();
        } else if (entry.isObject()) {
            d.name = entry.toObject().value(QStringLiteral("name")).toString().trimmed();
            const QJsonValue description = entry.toObject().value(QStringLiteral("description"));
            if (!description.isUndefined() && !description.isString())
                return bad(QStringLiteral("entry %1: \"description\" is not a string").arg(i));
            d.detail = description.toString().trimmed();
        } else {
            return bad(QStringLiteral("entry %1 is neither a name nor an object").arg(i));
        }
        if (d.name.isEmpty())
            return bad(QStringLiteral("entry %1 has no name").arg(i));
        out.append(d);
    }
    return Read::success(out);
}

/// task.json options "time_limit_s", when it is a positive number.
std::optional<double> readTimeLimit(const QString &taskJson)
{
    QFile file(taskJson);
    if (!file.open(QIODevice::ReadOnly))
        return std::nullopt;
    const QJsonValue limit = QJsonDocument::fromJson(file.readAll())
                                 .object()
                                 .value(QStringLiteral("options"))
                                 .toObject()
                                 .value(QStringLiteral("time_limit_s"));
    if (!limit.isDouble() || !(limit.toDouble() > 0))
        return std::nullopt;
    return limit.toDouble();
}

} // namespace

QString Task::programFileNameFor(const QString &initialFileName)
{
    const QString suffix = QFileInfo(initialFileName).suffix().toLower();
    if (suffix == QLatin1String("py"))
        return QStringLiteral("main.py");
    if (suffix == QLatin1String("cpp") || suffix == QLatin1String("cc"))
        return QStringLiteral("solver.cpp");
    if (suffix == QLatin1String("cu"))
        return QStringLiteral("kernel.cu");
    return suffix.isEmpty() ? QStringLiteral("program") : QStringLiteral("program.") + suffix;
}

Result<Task> Task::resolve(const QString &task)
{
    Task t;
    if (task.trimmed().isEmpty()) {
        return Result<Task>::failure(
            QStringLiteral("no task given (a built-in task: %1, or a task folder)")
                .arg(TaskRegistry::names().join(QStringLiteral(", "))));
    }
    const bool builtin = TaskRegistry::names().contains(task) && !task.contains(QLatin1Char('/'));
    if (builtin) {
        t.name = task;
        t.directory = TaskRegistry::taskDirectory(task);
        t.initialProgram = TaskRegistry::initialProgram(task);
        if (t.directory.isEmpty() || t.initialProgram.isEmpty()) {
            return Result<Task>::failure(
                QStringLiteral("task '%1': its folder or initial program is not installed (looked in '%2')")
                    .arg(task, TaskRegistry::evaluatorsRoot()));
        }
    } else {
        const QFileInfo dir(task);
        if (!dir.isDir()) {
            return Result<Task>::failure(
                QStringLiteral("unknown task '%1': not a built-in task (%2) nor a task folder")
                    .arg(task, TaskRegistry::names().join(QStringLiteral(", "))));
        }
        t.directory = dir.absoluteFilePath();
        t.name = t.directory;
        if (!QFileInfo::exists(t.directory + QStringLiteral("/task.json"))) {
            return Result<Task>::failure(
                QStringLiteral("task folder '%1' has no task.json").arg(t.directory));
        }
        const QStringList initials =
            QDir(t.directory).entryList({QStringLiteral("initial.*")}, QDir::Files, QDir::Name);
        if (initials.isEmpty()) {
            return Result<Task>::failure(
                QStringLiteral("task folder '%1' has no initial program (initial.*)").arg(t.directory));
        }
        t.initialProgram = t.directory + QLatin1Char('/') + initials.first();
    }
    QFile problem(t.directory + QStringLiteral("/problem.md"));
    if (problem.exists()) {
        if (!problem.open(QIODevice::ReadOnly)) {
            return Result<Task>::failure(
                QStringLiteral("cannot read '%1': %2").arg(problem.fileName(), problem.errorString()));
        }
        t.statement = QString::fromUtf8(problem.readAll());
    }
    t.programFileName = programFileNameFor(QFileInfo(t.initialProgram).fileName());
    if (!builtin) {
        Result<QList<Direction>> directions = readDirections(t.directory + QStringLiteral("/task.json"));
        if (!directions)
            return directions.failureAs<Task>();
        t.directions = std::move(*directions.value);
        t.timeLimitSeconds = readTimeLimit(t.directory + QStringLiteral("/task.json"));
    }
    if (t.directions.isEmpty()) {
        for (const auto &[name, detail] : builtinTaskDirections(t.name))
            t.directions.append({name, detail});
    }
    return Result<Task>::success(std::move(t));
}

QStringList Task::directionNames() const
{
    QStringList names;
    for (const Direction &d : directions)
        names.append(d.name);
    return names;
}

const Task::Direction *Task::directionFor(int branch) const
{
    if (directions.isEmpty() || branch < 0)
        return nullptr;
    return &directions.at(branch % directions.size());
}

QStringList Task::directionNamesOf(const QString &task)
{
    static QMutex mutex;
    static QHash<QString, QStringList> known;
    {
        QMutexLocker lock(&mutex);
        if (const auto it = known.constFind(task); it != known.cend())
            return *it;
    }
    QStringList names;
    if (const Result<Task> resolved = resolve(task))
        names = resolved.value->directionNames();
    QMutexLocker lock(&mutex);
    known.insert(task, names);
    return names;
}

} // namespace dreamrsi
