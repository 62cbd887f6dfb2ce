#pragma once

#include "policydeveloper.h"

namespace dreamrsi {

/// The built-in policy improver: dreaming without a key (docs/online.md#dreaming).
///
/// Hill climbing over a script's tunables (see PolicyTunables): it starts
/// from the best clean version seen so far in this dream (version m when
/// nothing better exists), rewrites the tables the script learns from the
/// history (DIRECTION_PRIORITY, DIRECTION_DEEPEST_GAIN, DIRECTION_STALL,
/// DEPTH_EVIDENCE) and then writes `candidates` new behaviours: the learned
/// script itself when it is new, what the history suggests (frugal, deep,
/// floor and direction proposals, each kind once per dream, at most half a
/// step's candidates; docs/online.md#what-the-history-suggests) and random
/// steps of one or two tunables that act at the deployed β. No number is a
/// one-way constraint: every tunable moves both ways. A candidate that
/// repeats a behaviour of the dream, or changes nothing at the deployed β,
/// is replaced (docs/online.md#no-wasted-candidates); the context's memory
/// keeps what the dream has seen from step to step. Returns the best-scoring
/// candidate. Deterministic for a seed: the same context and seed give the
/// same script.
class PolicyImprover final : public PolicyDeveloper
{
public:
    explicit PolicyImprover(int candidates = 4);

    QString kind() const override;
    DevelopmentOutcome develop(const DevelopmentContext &context, const std::atomic_bool &cancel) override;

private:
    int m_candidates;
};

} // namespace dreamrsi
