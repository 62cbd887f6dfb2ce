#pragma once

#include "gridplan.h"
#include "policystate.h"

#include <QString>
#include <QStringList>

#include <optional>

namespace dreamrsi {

/// What a policy answers for one round: the batch (cell ids, revealed in the
/// order given; empty = stop) or an error (a script threw, timed out or
/// returned something that is not a list). The engine, not the policy,
/// checks legality, repeats and the W limit, and prefixes "round N: ".
struct PolicyDecision
{
    QStringList batch;
    QString error; ///< empty when the policy answered

    bool ok() const { return error.isEmpty(); }
    static PolicyDecision failure(QString message) { return {{}, std::move(message)}; }
};

/// The answer of planGrid: a plan, or an error explaining why there is none.
struct GridPlanResult
{
    std::optional<GridPlan> plan;
    QString error;
};

/// An exploration policy (docs/architecture.md#what-the-program-is-for): one interface for replay
/// and live rounds.
///
/// Contract:
/// - beginEpisode() is called before anything else of an episode and resets
///   every piece of per-episode state (scripted policies also reseed
///   Math.random), so an episode's result never depends on earlier ones.
/// - selectBatch() is called once per round with the revealed prefix only.
/// - A Policy object is used by one thread at a time; the engine creates one
///   per worker thread (see PolicySpec::create()).
class Policy
{
public:
    virtual ~Policy();

    /// Short name for reports ("builtin:portfolio", "P.js").
    virtual QString name() const = 0;
    /// The policy's preferred β for a live round, if it states one.
    virtual std::optional<double> defaultBeta() const { return std::nullopt; }
    /// True when the policy defines planGrid (docs/policy-api.md#plangrid).
    virtual bool hasGridPlanner() const { return false; }
    /// Plans the grid of a round; only called when hasGridPlanner().
    virtual GridPlanResult planGrid(const GridContext &context);
    /// Resets per-episode state.
    virtual void beginEpisode(double beta, int maxParallelism) = 0;
    /// Chooses the next batch.
    virtual PolicyDecision selectBatch(const PolicyState &state) = 0;
};

} // namespace dreamrsi
