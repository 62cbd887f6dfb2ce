// The parallel-refine baseline. Rule (kept identical in
// resources/policies/parallel_refine.js):
//   w = 1 + floor(β·(W − 1) + 0.5)            target width (1 at β = 0, W at β = 1)
//   batch = frontiers of the opened branches   (legal non-roots, ascending branch)
//         + legal roots, ascending branch, while opened + roots taken < w and |batch| < W
//   the frontiers are capped at W as well; an empty batch stops the episode.
#include "parallelrefinepolicy.h"

#include <cmath>

namespace dreamrsi {

QString ParallelRefinePolicy::name() const
{
    return QStringLiteral("builtin:parallel_refine");
}

void ParallelRefinePolicy::beginEpisode(double, int)
{
}

PolicyDecision ParallelRefinePolicy::selectBatch(const PolicyState &state)
{
    const int W = state.maxParallelism();
    const int width = 1 + int(std::floor(state.beta() * double(W - 1) + 0.5));
    PolicyDecision decision;
    for (const CellMeta &m : state.legal()) {
        if (m.attempt > 0 && decision.batch.size() < W)
            decision.batch.append(m.id);
    }
    int opened = int(state.openedBranches().size());
    for (const CellMeta &m : state.legal()) {
        if (m.attempt != 0)
            continue;
        if (opened >= width || decision.batch.size() >= W)
            break;
        decision.batch.append(m.id);
        ++opened;
    }
    return decision;
}

} // namespace dreamrsi
