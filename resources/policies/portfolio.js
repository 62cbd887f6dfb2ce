// portfolio: a hand-designed starting policy (Dream-RSI Appendix D.2 in spirit).
// Twin of the C++ built-in core/policy/portfoliopolicy.cpp: same rule, same batches.
//
// Thresholds, all routed through beta (W = maxParallelism, T = opened branches
// + legal roots, i.e. every branch the policy may ever open); with the
// tunables below at their defaults:
//   R  = 1 + floor(beta*(T - 1) + 0.5)   root budget: branches opened in total
//   w0 = min(R, 1 + floor(beta*(W - 1) + 0.5))   roots opened in the first round
//   P  = 1 + floor(3*beta)   non-improving successes in a row before a branch closes
//   F  = 1 + floor(2*beta)   failures in a row a branch may try to repair
//   G  = W*(1 + floor(2*beta))   reveals without a new portfolio best before stopping
//
// Per-branch trajectory (revealed attempts in order): the anchor (best score of
// a successful evaluation with a numeric score), the stall count (trailing
// successes that did not beat the anchor before them; a success without a
// score counts as not improving), the failure run (trailing unsuccessful
// attempts) and whether the last attempt failed hard (failClass "env").
//
// Each round, the frontier of every opened branch is
//   exploitation: last attempt succeeded and stall < P;
//   recovery:     last attempt failed, not hard, failure run <= F;
//   closed:       otherwise,
// and the batch is built as:
//   0. portfolio stop: if something was revealed and the last G reveals did not
//      raise the best successful score, return [] (also when the batch below
//      comes out empty);
//   1. first round: the first w0 legal roots (ascending branch);
//   2. exploration: one legal root (lowest branch id) if fewer than R branches
//      are opened;
//   3. exploitation, best anchor first (ties: lower branch id), into the
//      remaining slots; the best recovery candidate (anchored before
//      unanchored, higher anchor, shorter failure run, lower branch id) is added
//      only when every exploitation candidate fits and a slot is left;
//   4. remaining slots: more legal roots while the root budget allows.

var defaultBeta = 0.5;

// Tunables. Each is a top-level `const NAME = number;` with its range or its
// alternatives in a comment: the built-in policy improver (dreaming without a
// key) mutates exactly these lines. The defaults give the rule above, batch
// for batch identical to the C++ built-in.
const ROOT_ROUNDING = 0.5;   // range [0, 1]: rounding of the root budget R and the first-round width w0
const STALL_BASE = 1;        // range [0, 6]: P = STALL_BASE + floor(STALL_SLOPE*beta)
const STALL_SLOPE = 3;       // range [0, 8]
const REPAIR_BASE = 1;       // range [0, 4]: F = REPAIR_BASE + floor(REPAIR_SLOPE*beta)
const REPAIR_SLOPE = 2;      // range [0, 6]
const PATIENCE_BASE = 1;     // range [1, 6]: G = W*(PATIENCE_BASE + floor(PATIENCE_SLOPE*beta))
const PATIENCE_SLOPE = 2;    // range [0, 6]
const RECOVERY_MODE = 1;     // choice 0|1|2: 0 never repairs; 1 adds the best recovery when every
                             // exploitation candidate fits and a slot is left; 2 fills every slot
                             // left after exploitation with recoveries, best first

function before(a, b) {
    if (a.hasAnchor !== b.hasAnchor)
        return a.hasAnchor ? -1 : 1;
    if (a.hasAnchor && a.anchor !== b.anchor)
        return a.anchor > b.anchor ? -1 : 1;
    if (a.failRun !== b.failRun)
        return a.failRun < b.failRun ? -1 : 1;
    return a.branch < b.branch ? -1 : (a.branch > b.branch ? 1 : 0);
}

function selectBatch(state) {
    var beta = state.beta;
    var W = state.maxParallelism;
    var roots = state.legalRoots;
    var opened = state.openedBranches.length;
    var T = opened + roots.length;
    var R = 1 + Math.floor(beta * (T - 1) + ROOT_ROUNDING);
    var w0 = Math.min(R, 1 + Math.floor(beta * (W - 1) + ROOT_ROUNDING));
    var P = STALL_BASE + Math.floor(STALL_SLOPE * beta);
    var F = REPAIR_BASE + Math.floor(REPAIR_SLOPE * beta);
    var G = W * (PATIENCE_BASE + Math.floor(PATIENCE_SLOPE * beta));
    var batch = [];
    var observed = state.observed;
    var i;

    if (observed.length === 0) {
        for (i = 0; i < roots.length && i < w0 && i < W; ++i)
            batch.push(roots[i]);
        return batch;
    }

    // Trajectories and the portfolio best.
    var traj = {};
    var hasBest = false, best = 0, sinceBest = 0;
    for (i = 0; i < observed.length; ++i) {
        var o = observed[i];
        var t = traj[o.branch];
        if (t === undefined) {
            t = { hasAnchor: false, anchor: 0, stall: 0, failRun: 0, lastSuccess: false, lastHard: false };
            traj[o.branch] = t;
        }
        sinceBest += 1;
        var scored = typeof o.score === "number";
        if (isSuccess(o)) {
            if (scored && (!t.hasAnchor || o.score > t.anchor)) {
                t.hasAnchor = true;
                t.anchor = o.score;
                t.stall = 0;
            } else {
                t.stall += 1;
            }
            t.failRun = 0;
            t.lastSuccess = true;
            t.lastHard = false;
            if (scored && (!hasBest || o.score > best)) {
                hasBest = true;
                best = o.score;
                sinceBest = 0;
            }
        } else {
            t.failRun += 1;
            t.lastSuccess = false;
            t.lastHard = failedHard(o);
        }
    }
    if (sinceBest >= G)
        return batch;

    // Classify the frontiers.
    var exploit = [], recovery = [];
    var legal = state.legal;
    for (i = 0; i < legal.length; ++i) {
        var m = state.meta(legal[i]);
        if (m.attempt === 0)
            continue;
        var tr = traj[m.branch];
        var c = { id: m.id, branch: m.branch, hasAnchor: tr.hasAnchor, anchor: tr.anchor, failRun: tr.failRun };
        if (tr.lastSuccess) {
            if (tr.stall < P)
                exploit.push(c);
        } else if (!tr.lastHard && tr.failRun <= F) {
            recovery.push(c);
        }
    }
    exploit.sort(before);
    recovery.sort(before);

    var rootsLeft = R - opened;
    var nextRoot = 0;
    if (rootsLeft > 0 && nextRoot < roots.length && batch.length < W) {
        batch.push(roots[nextRoot++]);
        rootsLeft -= 1;
    }
    var space = W - batch.length;
    if (RECOVERY_MODE === 2) {
        for (i = 0; i < exploit.length && batch.length < W; ++i)
            batch.push(exploit[i].id);
        for (i = 0; i < recovery.length && batch.length < W; ++i)
            batch.push(recovery[i].id);
    } else if (RECOVERY_MODE === 1 && recovery.length > 0 && exploit.length < space) {
        for (i = 0; i < exploit.length; ++i)
            batch.push(exploit[i].id);
        batch.push(recovery[0].id);
    } else {
        for (i = 0; i < exploit.length && i < space; ++i)
            batch.push(exploit[i].id);
    }
    while (batch.length < W && rootsLeft > 0 && nextRoot < roots.length) {
        batch.push(roots[nextRoot++]);
        rootsLeft -= 1;
    }
    return batch;
}
