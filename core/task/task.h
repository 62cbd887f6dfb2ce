#pragma once

#include "base/result.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace dreamrsi {

/// A task, resolved once: a built-in task name (TaskRegistry) or a task
/// folder (docs/evaluators.md#custom-tasks: problem.md, an initial program
/// `initial.*`, task.json), with its directions. Below the project and the
/// loop (core/task): a live round runs one, a re-evaluation evaluates its
/// programs again, and imagined valuation groups history worlds by it and
/// reads its directions (directionNamesOf).
struct Task
{
    QString name;            ///< as stored with the iteration: built-in name or absolute folder path
    QString directory;       ///< folder holding problem.md and the initial program (the baseline_dir)
    QString statement;       ///< problem.md
    QString initialProgram;  ///< absolute path of the initial program
    /// File the program goes to in every workspace (docs/online.md#workspaces): `main.py`
    /// for Python, `solver.cpp` for C++, `kernel.cu` for CUDA, else
    /// `program.<ext>` after the initial program's extension.
    QString programFileName;

    /// A direction a branch is asked to explore (docs/online.md#a-live-round).
    struct Direction
    {
        QString name;   ///< short name; cells of its branches are tagged "direction:<name>"
        QString detail; ///< one sentence for the agent, may be empty
    };
    /// Per-branch directions: a task folder's task.json "directions", else
    /// the built-in agent's directions for the task (a built-in task, or a
    /// folder naming a built-in evaluator); empty when there are none.
    QList<Direction> directions;
    /// A task folder's evaluation time limit (task.json options
    /// "time_limit_s"), shown against a running attempt's time; nothing
    /// when the folder names none or the task is built in (its evaluator's
    /// default applies).
    std::optional<double> timeLimitSeconds;
    /// The direction of branch `branch` (directions[branch mod count]: the
    /// same for every attempt of the branch, whatever the agent), or null.
    const Direction *directionFor(int branch) const;
    /// The directions' names, in order (what a live round's legal cells are
    /// tagged with: RoundTree::setDirections).
    QStringList directionNames() const;

    /// Resolves `task`; a failure naming the problem (unknown task,
    /// folder without task.json or initial program, unreadable problem.md).
    static Result<Task> resolve(const QString &task);
    /// The directions' names of the task named `task` (resolve(), then
    /// directionNames()); empty for a task that does not resolve here.
    /// Answers are kept per name (a counterfactual loop asks once per
    /// dream). Thread-safe.
    static QStringList directionNamesOf(const QString &task);
    /// The workspace file name for an initial program's file name.
    static QString programFileNameFor(const QString &initialFileName);
};

} // namespace dreamrsi
