#pragma once

#include "builtinstrategy.h"

namespace dreamrsi {

/// circle_packing_26: a Python packing optimiser (penalty L-BFGS-B, then an
/// SLSQP polish, then an exact repair so the output is strictly valid). See
/// builtinagent.h for the directions.
class BuiltinCirclePacking final : public BuiltinStrategy
{
public:
    QString task() const override;
    QStringList directions() const override;
    QString describe(const QString &direction) const override;
    bool usesParentOutput() const override { return true; }
    BuiltinDraft draft(const BuiltinStep &step, BuiltinRandom &random) const override;
    std::optional<BuiltinScale> scale() const override;
    BuiltinProfile profile(const QString &direction) const override;
    QList<BuiltinDefect> defects() const override;
};

} // namespace dreamrsi
