#pragma once

#include "store/storetypes.h"

#include <QList>
#include <QString>

#include <optional>

namespace dreamrsi {

/// One step of a progress curve: after `calls` agent calls of the run the
/// best score found so far is `best`.
struct ProgressPoint
{
    qint64 calls = 0;
    double best = 0.0;
    friend bool operator==(const ProgressPoint &, const ProgressPoint &) = default;
};

/// Where an iteration of a run starts on the calls axis.
struct IterationMark
{
    int index = 0;          ///< 1 … T within the run
    IterationId iteration = 0;
    qint64 startCalls = 0;  ///< calls made by the run before this iteration
    qint64 calls = 0;       ///< calls (cells) of this iteration
    std::optional<double> bestAfter; ///< best so far of the run when the iteration ends
    friend bool operator==(const IterationMark &, const IterationMark &) = default;
};

/// One run's progress (docs/online.md#the-recursive-loop): best score against cumulative agent
/// calls, marked by iteration.
struct ProgressCurve
{
    QString label;
    QList<ProgressPoint> points; ///< where the best improves, then (totalCalls, best); draw as left steps
    QList<IterationMark> marks;  ///< one per iteration, in run order
    qint64 totalCalls = 0;
    std::optional<double> best;  ///< none when no call produced a finite score
    QString task;                ///< the task of its iterations (curvesByTask), empty when not known
};

/// Progress of a run from its iterations, as the recursive loop makes it:
/// one agent call per cell, cells in seq order are call order, and the
/// calls add up across iterations in the order given. Only finite scores
/// count towards the best (errors and NaN never do). A pure function of its
/// input: the CLI and the workbench draw the same curve.
namespace ProjectProgress {

ProgressCurve curveOf(const QString &label, const QList<IterationData> &iterations);
/// One curve per task of the iterations (scores of different tasks are not
/// comparable), tasks in order of first appearance; an iteration without a
/// task joins the first task's curve. The curve is called `label` when
/// there is one task, else "label — task" (just the task when `label` is empty).
QList<ProgressCurve> curvesByTask(const QString &label, const QList<IterationData> &iterations);

} // namespace ProjectProgress
} // namespace dreamrsi
