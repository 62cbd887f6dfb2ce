#pragma once

#include "roundtypes.h"

#include "model/cell.h"

#include <QList>
#include <QString>

namespace dreamrsi {

/// When a live round must stop before calling the agent again
/// (docs/online.md#a-live-round): a budget cap reached, or a first round
/// that could not score anything here.
namespace RoundBudget {

/// Which of `config`'s caps (agent calls, tokens, US dollars) `counters`
/// has reached, as the round's stop reason ("budget: 24 agent calls
/// reached"); empty when none.
QString reached(const RoundConfig &config, const RoundCounters &counters);

/// When every one of `cells` (the first round's) failed `env` (the
/// evaluator's runtime is missing, the cluster refuses the job, no GPU for a
/// CUDA task), why, naming up to three causes; else empty. Each further
/// attempt of such a round would be a paid call that cannot score.
QString environmentFailure(const QList<Cell> &cells);

} // namespace RoundBudget

} // namespace dreamrsi
