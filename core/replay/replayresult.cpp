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

void ReplayResult::computeValue()
{
    double sum = 0.0;
    int scorable = 0;
    bool anyError = false;
    for (const SweepResult &s : worlds) {
        if (!s.ok())
            anyError = true;
        else if (s.scorable && s.value) {
            sum += *s.value;
            ++scorable;
        }
    }
    scorableWorlds = scorable;
    value.reset();
    if (!anyError && scorable > 0)
        value = sum / double(scorable);
}

} // namespace dreamrsi
