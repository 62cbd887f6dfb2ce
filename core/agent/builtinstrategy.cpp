#include "builtinstrategy.h"

#include "builtinrandom.h"

namespace dreamrsi {

BuiltinStrategy::~BuiltinStrategy() = default;

BuiltinProfile BuiltinStrategy::profile(const QString &) const
{
    return {};
}

bool BuiltinStrategy::parentFailed(const BuiltinStep &step)
{
    const AttemptContext &c = *step.context;
    if (c.attempt == 0 && c.parentError.isEmpty())
        return false;
    return !c.parentScore.has_value() || !c.parentError.isEmpty();
}

void BuiltinStrategy::stamp(BuiltinParams &params, const BuiltinStep &step, BuiltinRandom &random) const
{
    params.set(QStringLiteral("task"), task());
    params.set(QStringLiteral("direction"), step.direction);
    const int generation =
        step.parentParams ? step.parentParams->integer(QStringLiteral("generation"), 0) + 1 : 0;
    params.setInteger(QStringLiteral("generation"), generation);
    params.setInteger(QStringLiteral("seed"), random.programSeed());
}

QString BuiltinStrategy::exact(double value)
{
    return QString::number(value, 'g', 17);
}

} // namespace dreamrsi
