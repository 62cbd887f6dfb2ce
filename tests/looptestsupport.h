#pragma once

// The recursive loop on the toy task, for the loop's approval tests.

#include "roundtestsupport.h"

#include "loop/recursiveloop.h"

namespace dreamrsi::test {

/// A small loop on the toy task: W 2, a 3×1 fallback grid, two dreamed
/// versions replayed at β {0, 1}, waiting for approval after each dream.
inline LoopSettings toyLoopSettings(int iterations)
{
    LoopSettings s;
    s.round.task = toyTaskDir();
    s.round.agent.kind = QStringLiteral("fake");
    s.round.workers = 2;
    s.round.evaluateBaseline = false;
    s.round.fallbackGrid = GridPlan{3, 1, QStringLiteral("toy fallback")};
    s.round.seed = 3;
    s.dream.versions = 2;
    s.dream.replay.workers = 2;
    s.dream.replay.betas = QList<double>{0.0, 1.0};
    s.dream.limits.memoryBytes = qint64(2048) << 20;
    s.dream.limits.wallMs = 120000;
    s.iterations = iterations;
    s.awaitApproval = true;
    return s;
}

} // namespace dreamrsi::test
