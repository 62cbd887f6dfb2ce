#pragma once

#include "builtinrules.h"
#include "policy.h"

namespace dreamrsi {

/// The parallel-refine baseline, "the floor to beat"
/// (twin: resources/policies/parallel_refine.js).
///
/// Rule: the width is w = 1 + floor(β·(W − 1) + 0.5) branches. Each round
/// the batch is, in ascending branch order, the frontier of every opened
/// branch that has one, then legal roots in ascending branch order while
/// fewer than w branches have been opened (opened + new roots ≤ w) and the
/// batch is smaller than W. It stops (empty batch) when nothing is left.
class ParallelRefinePolicy final : public Policy
{
public:
    QString name() const override;
    void beginEpisode(double beta, int maxParallelism) override;
    PolicyDecision selectBatch(const PolicyState &state) override;
};

} // namespace dreamrsi
