#pragma once

#include "episoderesult.h"
#include "replayoptions.h"
#include "replayresult.h"
#include "replayworld.h"
#include "sweepresult.h"

#include "base/result.h"
#include "policy/policy.h"
#include "policy/policyspec.h"

#include <QList>

#include <atomic>
#include <functional>
#include <memory>
#include <optional>

namespace dreamrsi {

/// Replays policies inside frozen worlds (docs/replay.md#an-episode, #scoring, #grid-plans-in-replay).
///
/// Every function is reentrant and deterministic: the same world, policy and
/// options give bit-identical results on any thread count.
class ReplayEngine
{
public:
    /// Progress callback: (episodes done, episodes total); may be called from
    /// worker threads.
    using Progress = std::function<void(int done, int total)>;

    /// One episode at budget preference `beta`. Calls policy.beginEpisode(),
    /// then policy.planGrid() when the policy has one and options.useGridPlan,
    /// then rounds until a stop. A policy error ends the episode with
    /// `error = "round N: reason"` (N counts from 1) and keeps what was
    /// revealed before it.
    ///
    /// `steering`, when given, is applied as the live round applied it
    /// (RoundRunner): a closed branch's cells are never legal from the
    /// closing's round on; a pinned cell, when legal and not closed, goes
    /// first in its round's batch, and the policy gets the legal list
    /// without the pins and closed branches, W less the pins, and
    /// state.steering; an empty policy batch with pins runs the pins.
    static EpisodeResult runEpisode(const DiscoveryTree &world, Policy &policy, double beta,
                                    const ReplayOptions &options, const WorldSteering *steering = nullptr);

    /// One episode per β of options.betas, in order, then the scores.
    static SweepResult runSweep(const ReplayWorld &world, Policy &policy, const ReplayOptions &options);

    /// All worlds × all β, spread over options.threads threads (each thread
    /// creates its own policy from `spec`), then per-world scores and the mean
    /// value. `cancel`, when given and set, stops handing out episodes; the
    /// result then reports "cancelled" errors for the worlds not finished.
    /// `made`, when given, is a policy already made from `spec` on the
    /// calling thread (say, to check that the script compiles): that thread
    /// replays with it instead of making another.
    static ReplayResult runWorlds(const QList<ReplayWorld> &worlds, const PolicySpec &spec,
                                  const ReplayOptions &options, const Progress &progress = {},
                                  const std::atomic<bool> *cancel = nullptr, std::unique_ptr<Policy> made = {});
    /// Called with each world's finished sweep (its index among the paths),
    /// on the thread that ran it and in no particular order: for writing a
    /// world's output while the other threads still replay.
    using SweepDone = std::function<void(qsizetype world, const SweepResult &sweep)>;
    /// runWorlds() over tree files, the worlds named by their paths: each
    /// thread reads the next file, replays it over every β, scores it, hands
    /// the sweep to `done` and frees the tree before it takes the next, so
    /// reading overlaps replaying and only one tree per thread is held. With
    /// fewer files than about four per thread, the files are read first and
    /// the (world, β) episodes spread instead. The result is the same as
    /// runWorlds() gives for those trees, except that the sweep of a world
    /// whose tree is approximate says so (SweepResult::approximate), before
    /// `done` sees it: the reading that replays a file answers that
    /// question, so no caller reads the files once more to ask it. When a
    /// file cannot be read, nothing past it is replayed and the failure is
    /// the message of the first such file in path order. `made`: as for
    /// runWorlds().
    static Result<ReplayResult> runFiles(const QStringList &paths, const PolicySpec &spec, const ReplayOptions &options,
                                         const SweepDone &done = {}, const Progress &progress = {},
                                         std::unique_ptr<Policy> made = {});

    /// The grid context shown to planGrid in replay (docs/replay.md#grid-plans-in-replay).
    static GridContext gridContextFor(const DiscoveryTree &world, const ReplayOptions &options);

    /// Scores the episodes of one world (fills frontier, hypervolume,
    /// penalty, value of `sweep` from its episodes, cells, best and lambda).
    static void score(SweepResult &sweep, int gridSize);
};

} // namespace dreamrsi
