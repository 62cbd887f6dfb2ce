#pragma once

#include "replay/worldmodel.h"

namespace dreamrsi {

/// Where imagined valuation meets the tasks (docs/online.md#valuation).
namespace ImaginedHistories {

/// Imagination::imagine() with the tasks' directions (Task::directionNamesOf).
Result<ImaginedHistory> imagine(const QList<ReplayWorld> &history, quint64 seed, int count, ImaginationOptions options,
                                int threads = 0);

} // namespace ImaginedHistories
} // namespace dreamrsi
