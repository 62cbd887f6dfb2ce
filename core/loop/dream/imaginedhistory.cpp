#include "imaginedhistory.h"

#include "task/task.h"

namespace dreamrsi {

Result<ImaginedHistory> ImaginedHistories::imagine(const QList<ReplayWorld> &history, quint64 seed, int count,
                                                   ImaginationOptions options, int threads)
{
    return Imagination::imagine(history, seed, count, std::move(options), threads, &Task::directionNamesOf);
}

} // namespace dreamrsi
