#include "storetypes.h"

namespace dreamrsi {

QString iterationStatusName(IterationStatus s)
{
    switch (s) {
    case IterationStatus::Running: return QStringLiteral("running");
    case IterationStatus::Finished: return QStringLiteral("finished");
    case IterationStatus::Interrupted: return QStringLiteral("interrupted");
    case IterationStatus::Stopped: return QStringLiteral("stopped");
    }
    return {};
}

std::optional<IterationStatus> iterationStatusFromName(const QString &name)
{
    for (IterationStatus s : {IterationStatus::Running, IterationStatus::Finished, IterationStatus::Interrupted,
                              IterationStatus::Stopped}) {
        if (iterationStatusName(s) == name)
            return s;
    }
    return std::nullopt;
}

QString policyOriginName(PolicyOrigin o)
{
    switch (o) {
    case PolicyOrigin::Builtin: return QStringLiteral("builtin");
    case PolicyOrigin::Human: return QStringLiteral("human");
    case PolicyOrigin::Agent: return QStringLiteral("agent");
    }
    return {};
}

std::optional<PolicyOrigin> policyOriginFromName(const QString &name)
{
    for (PolicyOrigin o : {PolicyOrigin::Builtin, PolicyOrigin::Human, PolicyOrigin::Agent}) {
        if (policyOriginName(o) == name)
            return o;
    }
    return std::nullopt;
}

TreeMeta IterationInfo::treeMeta() const
{
    TreeMeta m;
    m.task = task;
    m.iteration = number;
    m.baselineScore = baselineScore;
    m.maxParallelism = maxParallelism;
    m.grid = grid;
    m.payload = payload;
    return m;
}

} // namespace dreamrsi
