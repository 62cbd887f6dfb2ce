// Test policy (twin of policies.reverse): legal cells in reverse order, a batch
// size cycling with the round, a stop once three cells beat the baseline at
// low beta; its grid plan restricts the world to 3 branches, attempts 0..2.
function planGrid(context) {
    return {branches: 3, refinements: 2, reason: "test restriction"};
}
function selectBatch(state) {
    var W = state.maxParallelism;
    var legal = state.legal.slice().reverse();
    var size = 1 + (state.round % Math.max(1, W));
    var good = 0;
    for (var i = 0; i < state.observed.length; ++i)
        if (improvedVsBaseline(state.observed[i]))
            ++good;
    if (good >= 3 && state.beta < 0.5)
        return [];
    return legal.slice(0, Math.min(size, W));
}
