#pragma once

#include "replay/worldmodel.h"

namespace dreamrsi {

/// Where imagined valuation meets the tasks (docs/online.md#valuation).
namespace ImaginedHistories {

/// The directions of a task by name: a built-in task's, or a task folder's
/// task.json (RoundTask::resolve); empty for an unknown task. Answers are
/// kept per name (a counterfactual loop asks once per dream). Thread-safe.
QStringList taskDirections(const QString &task);

/// Imagination::imagine() with the tasks' directions.
Result<ImaginedHistory> imagine(const QList<ReplayWorld> &history, quint64 seed, int count, ImaginationOptions options,
                                int threads = 0);

} // namespace ImaginedHistories
} // namespace dreamrsi
