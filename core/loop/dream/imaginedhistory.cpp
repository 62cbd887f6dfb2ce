#include "imaginedhistory.h"

#include "loop/round/roundtask.h"

#include <QHash>
#include <QMutex>

namespace dreamrsi {

QStringList ImaginedHistories::taskDirections(const QString &task)
{
    static QMutex mutex;
    static QHash<QString, QStringList> known;
    {
        QMutexLocker lock(&mutex);
        if (const auto it = known.constFind(task); it != known.cend())
            return *it;
    }
    QStringList directions;
    if (const Result<RoundTask> resolved = RoundTask::resolve(task)) {
        for (const RoundTask::Direction &d : resolved.value->directions)
            directions.append(d.name);
    }
    QMutexLocker lock(&mutex);
    known.insert(task, directions);
    return directions;
}

Result<ImaginedHistory> ImaginedHistories::imagine(const QList<ReplayWorld> &history, quint64 seed, int count,
                                                   ImaginationOptions options, int threads)
{
    return Imagination::imagine(history, seed, count, std::move(options), threads, &taskDirections);
}

} // namespace dreamrsi
