#pragma once

#include "builtinstrategy.h"

namespace dreamrsi {

/// c3_autocorrelation: a Python search over step heights (smoothed p-norm
/// minimax with L-BFGS-B, then an exact local search). See builtinagent.h.
class BuiltinAutocorrelation final : public BuiltinStrategy
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
