#pragma once

#include "policy.h"

#include "base/result.h"

#include <QString>

#include <memory>

namespace dreamrsi {

/// A policy written in JavaScript (docs/policy-api.md), run on its own QJSEngine.
///
/// Sandbox: only the ECMAScript built-ins exist (no Qt, console, file,
/// network or process API). `Date` is replaced by a function that throws
/// (no clock). `Math.random` is a xorshift32 generator (shifts 13, 17, 5 on
/// a 32-bit state, result state/2^32) whose state is set to the seed (0 is
/// replaced by 0x9E3779B9) at every beginEpisode(), so every episode draws
/// the same sequence.
///
/// The script's top level runs afresh for each episode inside a closure, so
/// its variables start over; globals it creates by assignment are deleted at
/// the next episode start.
///
/// Prefix-only by construction: the interpreter receives a revealed cell's
/// data when it is revealed, and a legal cell's metadata when it becomes
/// legal, and nothing else. Each round gets a fresh state object whose
/// arrays are copies; observations and metadata are frozen.
///
/// Each call is interrupted after the time limit by a watchdog thread.
/// Thread affinity: create, use and destroy it on one thread.
class ScriptedPolicy final : public Policy
{
public:
    ~ScriptedPolicy() override;

    /// Compiles `source`; a failure on a syntax error, a missing
    /// selectBatch, or a top level that throws or runs past the limit.
    static Result<std::unique_ptr<ScriptedPolicy>> create(const QString &source, const QString &label, int timeLimitMs,
                                                          quint32 seed);

    QString name() const override;
    std::optional<double> defaultBeta() const override;
    bool hasGridPlanner() const override;
    GridPlanResult planGrid(const GridContext &context) override;
    void beginEpisode(double beta, int maxParallelism) override;
    PolicyDecision selectBatch(const PolicyState &state) override;

private:
    ScriptedPolicy();
    class Private;
    std::unique_ptr<Private> d;
};

} // namespace dreamrsi
