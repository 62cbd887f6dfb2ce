// parallel_refine: the baseline every other policy has to beat.
//
// Rule (identical to the C++ built-in, core/policy/parallelrefinepolicy.cpp):
//   w = 1 + floor(beta * (W - 1) + 0.5)     target width: 1 branch at beta = 0, W at beta = 1
//   each round the batch is
//     1. the frontier of every opened branch that still has one, ascending branch,
//     2. then legal roots, ascending branch, while fewer than w branches are
//        opened (counting the roots just taken) and the batch holds fewer than W ids.
//   An empty batch (no frontier left, width reached) ends the episode.

// Tunables (top-level `const NAME = number;`, range in the comment; the
// built-in policy improver mutates these lines). The defaults give the rule above.
const MIN_WIDTH = 1;         // range [1, 10]: branches opened at beta = 0
const WIDTH_ROUNDING = 0.5;  // range [0, 1]

function selectBatch(state) {
    var W = state.maxParallelism;
    var width = MIN_WIDTH + Math.floor(state.beta * (W - MIN_WIDTH) + WIDTH_ROUNDING);
    var batch = [];
    var legal = state.legal;
    for (var i = 0; i < legal.length; ++i) {
        var m = state.meta(legal[i]);
        if (m.attempt > 0 && batch.length < W)
            batch.push(m.id);
    }
    var opened = state.openedBranches.length;
    var roots = state.legalRoots;
    for (var j = 0; j < roots.length; ++j) {
        if (opened >= width || batch.length >= W)
            break;
        batch.push(roots[j]);
        opened += 1;
    }
    return batch;
}
