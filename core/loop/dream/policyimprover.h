#pragma once

#include "policydeveloper.h"

namespace dreamrsi {

/// The built-in policy improver: dreaming without a key (docs/online.md#dreaming).
///
/// Hill climbing over a script's tunables (see PolicyTunables): it starts
/// from the best clean version seen so far in this dream (version m when
/// nothing better exists) and first rewrites what the script learns from the
/// history (the context's worldStats): its DIRECTION_PRIORITY table and its
/// `learned` floors of the stopping rules, and its DIRECTION_DEEPEST_GAIN,
/// DIRECTION_STALL and DEPTH_EVIDENCE tables. It then writes `candidates`
/// variants: the learned script itself when it is new, the versions the
/// history asks for (at most half the candidates: opening only the directions
/// that paid when the priorities show a clear gap, probing past patience when
/// the history shows late gains; resources/policies/README.md), and others
/// that each change one or two tunables of it (numbers step within their
/// range, a `choice` takes another alternative; `learned` lines are never mutated),
/// replays every variant through the context's `evaluate`, and returns the
/// best-scoring variant. Variants already tried in this dream are not written
/// again. Deterministic for a seed: the same context and seed give the same
/// script.
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
