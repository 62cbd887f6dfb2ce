// Test policy (twin of policies.greedy): refine branches whose newest attempt
// succeeded without getting worse, then open a few roots; stop after a number
// of rounds that grows with beta.
function selectBatch(state) {
    var W = state.maxParallelism;
    if (state.round >= 1 + Math.floor(state.beta * 6))
        return [];
    var last = {};
    for (var i = 0; i < state.observed.length; ++i)
        last[state.observed[i].branch] = state.observed[i];
    var batch = [];
    for (var j = 0; j < state.legal.length && batch.length < W; ++j) {
        var m = state.meta(state.legal[j]);
        if (m.attempt === 0)
            continue;
        var o = last[m.branch];
        if (isSuccess(o) && (o.deltaVsParent === null || o.deltaVsParent >= 0))
            batch.push(m.id);
    }
    var roots = Math.max(1, Math.round(W * (1 - state.beta) / 2));
    for (var r = 0; r < state.legalRoots.length && roots > 0 && batch.length < W; ++r, --roots)
        batch.push(state.legalRoots[r]);
    return batch;
}
