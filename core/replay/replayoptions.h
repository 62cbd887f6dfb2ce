#pragma once

#include <QList>

#include <functional>
#include <optional>

namespace dreamrsi {

/// Everything an episode, sweep or multi-world replay is run with besides the
/// world and the policy. Defaults are those of docs/replay.md.
struct ReplayOptions
{
    int workers = 10;                         ///< W ≥ 1
    std::optional<int> maxRounds;             ///< K; none = no limit
    double lambda = 0.1;                      ///< λ of the value
    QList<double> betas{0.0, 0.25, 0.5, 0.75, 1.0}; ///< the grid 𝓡
    /// Use the policy's planGrid (when it has one) to restrict the world (docs/replay.md#grid-plans-in-replay).
    bool useGridPlan = true;
    int hardMaxBranches = 64;                 ///< planGrid validation caps (raised to the world's size)
    int hardMaxRefinements = 64;
    /// Threads for runWorlds: 0 = QThread::idealThreadCount().
    int threads = 0;
    /// Record a RoundTrace per round in every EpisodeResult.
    bool trace = false;
    /// CompactReplay: read worlds from, and add them to, the compact world
    /// cache (CompactCache). `dreamrsi replay` turns it on unless --no-cache.
    bool worldCache = false;
    /// Replays of tree files a world at a time (ReplayEngine::runFiles,
    /// CompactReplay::runFiles): called once on each thread they replay on
    /// (the calling thread too) before that thread's first world, so that a
    /// process can prepare the thread's memory (dreamrsi's huge-page heap,
    /// app/cli/hugepageheap.h). Must be safe to call on several threads at once.
    std::function<void()> threadStart;
};

} // namespace dreamrsi
