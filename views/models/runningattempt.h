#pragma once

#include <optional>

namespace dreamrsi {

/// An attempt of a live round that runs now: drawn where its cell will be,
/// with its elapsed time against its limit, a stalled one marked. LiveTreeModel
/// gives them, the tree's renderer draws them.
struct RunningAttempt
{
    int branch = 0;
    int attempt = 0;
    double elapsedS = 0.0;
    std::optional<double> limitS; ///< the evaluation's time limit, when known
    bool stalled = false;         ///< named stalled by the round's liveness (docs/online.md#is-it-alive)
};

} // namespace dreamrsi
