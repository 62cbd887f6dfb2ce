#include "roundtask.h"

#include "eval/taskregistry.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

namespace dreamrsi {

QString RoundTask::programFileNameFor(const QString &initialFileName)
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

std::optional<RoundTask> RoundTask::resolve(const QString &task, QString *error)
{
    RoundTask t;
    if (task.trimmed().isEmpty()) {
        *error = QStringLiteral("no task given (a built-in task: %1, or a task folder)")
                     .arg(TaskRegistry::names().join(QStringLiteral(", ")));
        return std::nullopt;
    }
    const bool builtin = TaskRegistry::names().contains(task) && !task.contains(QLatin1Char('/'));
    if (builtin) {
        t.name = task;
        t.directory = TaskRegistry::taskDirectory(task);
        t.initialProgram = TaskRegistry::initialProgram(task);
        if (t.directory.isEmpty() || t.initialProgram.isEmpty()) {
            *error = QStringLiteral("task '%1': its folder or initial program is not installed (looked in '%2')")
                         .arg(task, TaskRegistry::evaluatorsRoot());
            return std::nullopt;
        }
    } else {
        const QFileInfo dir(task);
        if (!dir.isDir()) {
            *error = QStringLiteral("unknown task '%1': not a built-in task (%2) nor a task folder")
                         .arg(task, TaskRegistry::names().join(QStringLiteral(", ")));
            return std::nullopt;
        }
        t.directory = dir.absoluteFilePath();
        t.name = t.directory;
        if (!QFileInfo::exists(t.directory + QStringLiteral("/task.json"))) {
            *error = QStringLiteral("task folder '%1' has no task.json").arg(t.directory);
            return std::nullopt;
        }
        const QStringList initials =
            QDir(t.directory).entryList({QStringLiteral("initial.*")}, QDir::Files, QDir::Name);
        if (initials.isEmpty()) {
            *error = QStringLiteral("task folder '%1' has no initial program (initial.*)").arg(t.directory);
            return std::nullopt;
        }
        t.initialProgram = t.directory + QLatin1Char('/') + initials.first();
    }
    QFile problem(t.directory + QStringLiteral("/problem.md"));
    if (problem.exists()) {
        if (!problem.open(QIODevice::ReadOnly)) {
            *error = QStringLiteral("cannot read '%1': %2").arg(problem.fileName(), problem.errorString());
            return std::nullopt;
        }
        t.statement = QString::fromUtf8(problem.readAll());
    }
    t.programFileName = programFileNameFor(QFileInfo(t.initialProgram).fileName());
    return t;
}

} // namespace dreamrsi
