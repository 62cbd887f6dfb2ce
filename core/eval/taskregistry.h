#pragma once

#include <QString>
#include <QStringList>

#include <memory>

namespace dreamrsi {

class TaskEvaluator;

/// The built-in tasks and their folders (evaluators/<task>/: problem.md, an
/// initial program, data the evaluator needs).
class TaskRegistry
{
public:
    /// Built-in task names, sorted.
    static QStringList names();
    /// The evaluator of a built-in task; null for an unknown name.
    static std::unique_ptr<TaskEvaluator> create(const QString &name);
    /// The folder holding the built-in tasks: $DREAMRSI_EVALUATORS_DIR, else
    /// <prefix>/share/dreamrsi/evaluators next to the executable, else the
    /// source tree. Empty when none exists.
    static QString evaluatorsRoot();
    /// evaluatorsRoot()/<name>, or empty when it does not exist.
    static QString taskDirectory(const QString &name);
    /// The task's initial program (first file named initial.*), or empty.
    static QString initialProgram(const QString &name);
};

} // namespace dreamrsi
