#pragma once

#include "builtinstrategy.h"

namespace dreamrsi {

/// lasso_path: C++17 coordinate-descent variants (strong-rule screening,
/// active-set inner loops, covariance updates, compiler flags), each stopped
/// by a duality-gap certificate. See builtinagent.h.
class BuiltinLasso final : public BuiltinStrategy
{
public:
    QString task() const override;
    QStringList directions() const override;
    QString describe(const QString &direction) const override;
    bool usesParentOutput() const override { return false; }
    BuiltinDraft draft(const BuiltinStep &step, BuiltinRandom &random) const override;
};

} // namespace dreamrsi
