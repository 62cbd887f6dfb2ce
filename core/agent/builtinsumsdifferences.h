#pragma once

#include "builtinstrategy.h"

namespace dreamrsi {

/// sums_differences: a Python simulated annealing over integer sets with
/// add, remove and shift moves and incrementally kept sum/difference counts.
/// See builtinagent.h.
class BuiltinSumsDifferences final : public BuiltinStrategy
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
