#include "projectworlds.h"

#include "store/projectreader.h"

#include <QFileInfo>

namespace dreamrsi {

bool ProjectWorlds::isApproximate(const IterationInfo &info)
{
    return info.treeMeta().approximate;
}

bool ProjectWorlds::isReplayWorld(const IterationInfo &info)
{
    return info.status == IterationStatus::Finished;
}

QString ProjectWorlds::baseNameOf(const IterationInfo &info)
{
    if (!info.source.isEmpty())
        return QFileInfo(info.source).completeBaseName();
    return QStringLiteral("iteration %1").arg(info.number.value_or(info.id));
}

QList<IterationInfo> ProjectWorlds::replayWorldsOf(const QList<IterationInfo> &iterations)
{
    QList<IterationInfo> worlds;
    for (const IterationInfo &info : iterations) {
        if (isReplayWorld(info))
            worlds.append(info);
    }
    return worlds;
}

QStringList ProjectWorlds::namesOf(const QList<IterationInfo> &replayWorlds)
{
    QStringList names;
    for (const IterationInfo &info : replayWorlds) {
        const QString base = baseNameOf(info);
        QString name = base;
        for (int n = 2; names.contains(name); ++n)
            name = QStringLiteral("%1 (%2)").arg(base).arg(n);
        names.append(name);
    }
    return names;
}

Result<QList<ProjectWorld>> ProjectWorlds::load(ProjectReader &reader, int *skipped)
{
    const Result<QList<IterationInfo>> iterations = reader.iterations();
    if (!iterations.ok())
        return iterations.failureAs<QList<ProjectWorld>>();
    const QList<IterationInfo> infos = replayWorldsOf(*iterations.value);
    if (skipped)
        *skipped = int(iterations.value->size() - infos.size());
    const QStringList names = namesOf(infos);
    QList<ProjectWorld> worlds;
    for (qsizetype i = 0; i < infos.size(); ++i) {
        Result<DiscoveryTree> tree = reader.loadIteration(infos.at(i).id);
        if (!tree.ok())
            return tree.failureAs<QList<ProjectWorld>>();
        worlds.append({names.at(i), infos.at(i).id, std::make_shared<const DiscoveryTree>(std::move(*tree.value))});
    }
    return Result<QList<ProjectWorld>>::success(std::move(worlds));
}

} // namespace dreamrsi
