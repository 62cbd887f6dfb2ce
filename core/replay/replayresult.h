#pragma once

#include "sweepresult.h"

#include "model/imaginationrule.h"

#include <QList>
#include <QString>

#include <memory>
#include <optional>

namespace dreamrsi {

/// One policy over many worlds: the per-world sweeps and the policy's value,
/// the mean of `value` over the scorable worlds (empty when there is none, or
/// when any world's sweep ended in an error).
struct ReplayResult
{
    QString policy;
    double lambda = 0.1;
    int workers = 10;
    std::optional<int> maxRounds;
    QList<double> betas;
    /// Imagined valuation: the worlds are C = `completions` completions of
    /// each history world (world-major); 0 = the worlds as revealed.
    int completions = 0;
    /// Imagined valuation: the rule the completions were drawn under.
    ImaginationRule rule = ImaginationRule::Capped;
    QList<SweepResult> worlds;
    std::optional<double> value;
    int scorableWorlds = 0;

    /// True when no world had an error.
    bool ok() const;
    /// The first error, prefixed by the world's name; empty when ok().
    QString firstError() const;
    /// The sweep of the world named `world`, or null.
    const SweepResult *sweepOf(const QString &world) const;
    /// Sets `value` and `scorableWorlds` from `worlds` by the one rule of a
    /// policy's value (docs/replay.md#a-policys-value): the mean of the sweep values of the
    /// scorable worlds; no value when any world has an error or none is
    /// scorable. The engine, stored results and the project layer all use it.
    void computeValue();
};

using ReplayResultPtr = std::shared_ptr<const ReplayResult>;

} // namespace dreamrsi
