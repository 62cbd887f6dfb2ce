// Takes the first 1 + floor(2·beta) legal cells for two rounds, then stops.
function selectBatch(state) {
    if (state.round >= 2)
        return [];
    return state.legal.slice(0, 1 + Math.floor(state.beta * 2));
}
