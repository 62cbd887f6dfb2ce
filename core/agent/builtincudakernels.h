#pragma once

#include "builtinstrategy.h"

namespace dreamrsi {

/// cuda_kernels: launch-parameter and memory-access variants of the two
/// starting kernels (LayerNorm, ConvDiv). See builtinagent.h.
class BuiltinCudaKernels final : public BuiltinStrategy
{
public:
    QString task() const override;
    QStringList directions() const override;
    QString describe(const QString &direction) const override;
    bool usesParentOutput() const override { return false; }
    BuiltinDraft draft(const BuiltinStep &step, BuiltinRandom &random) const override;
};

} // namespace dreamrsi
