// The parallel-refine baseline. Rule (kept identical in
// resources/policies/parallel_refine.js):
//   w = 1 + floor(β·(W − 1) + 0.5)            target width (1 at β = 0, W at β = 1)
//   batch = frontiers of the opened branches   (legal non-roots, ascending branch)
//         + legal roots, ascending branch, while opened + roots taken < w and |batch| < W
//   the frontiers are capped at W as well; an empty batch stops the episode.
#include "parallelrefinepolicy.h"

#include <QVarLengthArray>

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
    const QList<CellMeta> &legal = state.legal();
    QVarLengthArray<BuiltinRules::LegalCell, 32> cells;
    for (const CellMeta &m : legal)
        cells.append(BuiltinRules::LegalCell{m.branch, m.attempt, -1});
    BuiltinRules::Batch places;
    BuiltinRules::parallelRefine(state.beta(), state.maxParallelism(), int(state.openedBranches().size()),
                                 cells.constData(), int(cells.size()), &places);
    PolicyDecision decision;
    decision.batch.reserve(places.size());
    for (const int place : places)
        decision.batch.append(legal.at(place).id);
    return decision;
}

void BuiltinRules::parallelRefine(double beta, int W, int opened, const LegalCell *legal, int legalCount, Batch *batch)
{
    const int width = 1 + int(std::floor(beta * double(W - 1) + 0.5));
    for (int i = 0; i < legalCount; ++i) {
        if (legal[i].attempt > 0 && batch->size() < W)
            batch->append(i);
    }
    for (int i = 0; i < legalCount; ++i) {
        if (legal[i].attempt != 0)
            continue;
        if (opened >= width || batch->size() >= W)
            break;
        batch->append(i);
        ++opened;
    }
}

} // namespace dreamrsi
