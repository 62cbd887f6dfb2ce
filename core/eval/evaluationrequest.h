#pragma once

#include "sandboxrequest.h"

#include <QJsonObject>
#include <QString>

namespace dreamrsi {

/// One evaluation to run: a candidate program for a task, or a custom command.
struct EvaluationRequest
{
    /// Built-in task name (TaskRegistry::names()), "custom", or the path of a
    /// task folder: a directory with problem.md, an initial program and
    /// task.json = {"evaluator": "<built-in name>" | {"command": "…"},
    /// "options": {…}}. A folder's command sees the folder as $DREAMRSI_TASK_DIR;
    /// its options are defaults under `options`.
    QString task;
    /// The candidate program file (built-in tasks). For "custom", optional:
    /// passed to the command as its last argument when set.
    QString candidatePath;
    /// For "custom": a shell command (run with /bin/sh -c in the sandbox, in
    /// a fresh work directory) whose last stdout line is the score JSON.
    QString command;
    /// Task options (tolerance, suite, …); each task documents its keys.
    QJsonObject options;
    /// Directory under which the evaluation makes its work directory; empty =
    /// the system temporary directory. The work directory is removed afterwards
    /// unless `keepWorkDir`.
    QString workRoot;
    bool keepWorkDir = false;
    SandboxMode sandboxMode = SandboxMode::Auto;
};

} // namespace dreamrsi
