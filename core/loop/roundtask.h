#pragma once

#include <QString>

#include <optional>

namespace dreamrsi {

/// The task of a live round, resolved once before it starts: a built-in task
/// name (TaskRegistry) or a task folder (tasks.md "Custom tasks": problem.md,
/// an initial program `initial.*`, task.json).
struct RoundTask
{
    QString name;            ///< as stored with the iteration: built-in name or absolute folder path
    QString directory;       ///< folder holding problem.md and the initial program (the baseline_dir)
    QString statement;       ///< problem.md
    QString initialProgram;  ///< absolute path of the initial program
    /// File the program goes to in every workspace (online.md §2): `main.py`
    /// for Python, `solver.cpp` for C++, `kernel.cu` for CUDA, else
    /// `program.<ext>` after the initial program's extension.
    QString programFileName;

    /// Resolves `task`; nothing and *error naming the problem (unknown task,
    /// folder without task.json or initial program, unreadable problem.md).
    static std::optional<RoundTask> resolve(const QString &task, QString *error);
    /// The workspace file name for an initial program's file name.
    static QString programFileNameFor(const QString &initialFileName);
};

} // namespace dreamrsi
