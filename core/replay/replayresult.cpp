#include "replayresult.h"

namespace dreamrsi {

bool ReplayResult::ok() const
{
    for (const SweepResult &w : worlds) {
        if (!w.ok())
            return false;
    }
    return true;
}

QString ReplayResult::firstError() const
{
    for (const SweepResult &w : worlds) {
        if (!w.ok())
            return w.world + QStringLiteral(": ") + w.error;
    }
    return {};
}

const SweepResult *ReplayResult::sweepOf(const QString &world) const
{
    for (const SweepResult &w : worlds) {
        if (w.world == world)
            return &w;
    }
    return nullptr;
}

} // namespace dreamrsi
