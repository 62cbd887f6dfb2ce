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
//   2. exploration: one legal root (the first, ascending branch) if fewer
//      than R branches are opened;
//   3. exploitation, best anchor first (ties: lower branch id), into the
//      remaining slots; the best recovery candidate (anchored before
//      unanchored, higher anchor, shorter failure run, lower branch id) is added
//      only when every exploitation candidate fits and a slot is left;
//   4. remaining slots: more legal roots while the root budget allows.
//
// What the built-in policy improver adds (all neutral at the defaults, so the
// rule above holds as written):
//   - DIRECTION_PRIORITY: learned from the history's per-direction statistics.
//     Legal roots are taken in decreasing priority of their `direction:NAME`
//     tag (ties: ascending branch); "*" is the priority of a direction the
//     table does not list. Empty = ascending branch, as above.
//   - WEAK_SHARE, WEAK_DEPTH: a listed direction whose priority is below
//     WEAK_SHARE times the best listed priority is weak; its branches are not
//     refined past attempt WEAK_DEPTH, nor past the deepest attempt at which
//     the direction gained in the history (DIRECTION_DEEPEST_GAIN, learned).
//     A direction the table does not list is never weak: what the history
//     never tried is not known to be bad.
//   - ROOT_BASE, FIRST_BASE, ROOT_SHARE, FIRST_SHARE:
//     R = ROOT_BASE + floor(ROOT_SHARE*beta*(T - ROOT_BASE) + r),
//     w0 = min(R, FIRST_BASE + floor(FIRST_SHARE*beta*(W - FIRST_BASE) + r)):
//     with ROOT_SHARE 0 the root budget is ROOT_BASE (down to 1) at every beta.
//   - PATIENCE_FLOOR, STALL_FLOOR: G and P never drop below them. Ordinary
//     tunables that move both ways; the improver offers the history's values
//     (the longest drought before a new best, the longest stall before a
//     branch improved again, plus one) as one candidate among others, kept
//     only when it wins. PATIENCE_BASE 0 with PATIENCE_SLOPE 0 (and no floor)
//     ends an episode right after its first round; STALL_BASE 0 with
//     STALL_SLOPE 0 refines no branch (the frugal end of the family).
//   - SKIP_WEAK_ROOTS: 1 never opens a legal root of a weak direction (the
//     root budget R is unchanged; it is spent on the other directions) --
//     except in an episode's first round when every legal root is weak: then
//     the first round opens them as with 0 (by priority), since a version
//     that opens nothing would end the episode without a single call.
//   - STALL_BY_DIRECTION, DIRECTION_STALL (learned): patience per direction.
//     With 1, a branch's floor of P is its direction's entry in
//     DIRECTION_STALL (one more than the longest stall before a gain that
//     direction showed; "*" for a direction the table does not list) instead
//     of STALL_FLOOR.
//   - PROBE_CALLS, PROBE_EVIDENCE, DEPTH_EVIDENCE (learned): probing. When the
//     rule above would stop (the portfolio stop, or an empty batch), the
//     episode goes on with its best branch past that branch's patience, one
//     call a round (by the exploitation order: best anchor first; a branch
//     whose last attempt failed hard, or that has no legal next attempt, is
//     passed over for the next), until PROBE_CALLS probe calls were made in
//     the episode. A probe that raises the best hands the episode back to the
//     rule. DEPTH_EVIDENCE holds, per attempt, how many cells of the history
//     show what a successful attempt there scores; a probe is made only while
//     one of the attempts it could still reach (its branch's next attempt and
//     the ones after it, up to the probe calls left) holds fewer than
//     PROBE_EVIDENCE of them, so the probe decays once the history has its
//     own evidence at the depths it would reach. (The count of probe calls
//     lives in the episode; a live round resumed from its journal starts it
//     again.)

var defaultBeta = 0.5;

// Tunables. Each is a top-level `const NAME = number;` with its range or its
// alternatives in a comment: the built-in policy improver (dreaming without a
// key) mutates these lines, except those marked `learned`, which it rewrites
// from the statistics of the history. The defaults give the rule above, batch
// for batch identical to the C++ built-in.
const ROOT_ROUNDING = 0.5;   // range [0, 1]: rounding of the root budget R and the first-round width w0
const ROOT_SHARE = 1.0;      // range [0, 1]: share of beta*(T - ROOT_BASE) added to the root budget
const FIRST_SHARE = 1.0;     // range [0, 1]: share of beta*(W - FIRST_BASE) added to the first round
const STALL_BASE = 1;        // range [0, 6]: P = STALL_BASE + floor(STALL_SLOPE*beta)
const STALL_SLOPE = 3;       // range [0, 8]
const REPAIR_BASE = 1;       // range [0, 4]: F = REPAIR_BASE + floor(REPAIR_SLOPE*beta)
const REPAIR_SLOPE = 2;      // range [0, 6]
const PATIENCE_BASE = 1;     // range [0, 6]: G = W*(PATIENCE_BASE + floor(PATIENCE_SLOPE*beta))
const PATIENCE_SLOPE = 2;    // range [0, 6]
const RECOVERY_MODE = 1;     // choice 0|1|2: 0 never repairs; 1 adds the best recovery when every
                             // exploitation candidate fits and a slot is left; 2 fills every slot
                             // left after exploitation with recoveries, best first
const ROOT_BASE = 1;         // range [1, 10]: branches opened at beta = 0
const FIRST_BASE = 1;        // range [1, 10]: roots of the first round at beta = 0 (at most R)
const WEAK_SHARE = 0.0;      // range [0, 1]: below this share of the best listed priority a direction is weak
const WEAK_DEPTH = 1;        // range [0, 8]: deepest attempt a weak direction's branch is refined to
const PATIENCE_FLOOR = 0;    // range [0, 60]: G is at least this (reveals without a new best)
const STALL_FLOOR = 0;       // range [0, 12]: P is at least this (non-improving successes in a row)
const DIRECTION_PRIORITY = {}; // learned: priority per direction, "*" for any other
const DIRECTION_DEEPEST_GAIN = {}; // learned: deepest attempt at which each direction gained
const SKIP_WEAK_ROOTS = 0;   // choice 0|1: 1 opens no root of a weak direction (while another can open)
const STALL_BY_DIRECTION = 0; // choice 0|1: 1 takes P's floor per direction from DIRECTION_STALL
const DIRECTION_STALL = {}; // learned: P's floor per direction, "*" for any other
const PROBE_CALLS = 0;       // range [0, 12]: calls past patience on the best branch once the rule would stop
const PROBE_EVIDENCE = 6;    // range [1, 30]: history cells an attempt needs before probes skip it
const DEPTH_EVIDENCE = {};   // learned: per attempt, history cells that show what a success there scores

var probesMade = 0; // probe calls so far in this episode

function directionOf(tags) {
    for (var i = 0; i < tags.length; ++i) {
        if (tags[i].indexOf("direction:") === 0)
            return tags[i].substring(10);
    }
    return "";
}

function hasPriorities() {
    for (var key in DIRECTION_PRIORITY) {
        if (Object.prototype.hasOwnProperty.call(DIRECTION_PRIORITY, key))
            return true;
    }
    return false;
}

// The priority of a cell's direction and whether the table lists it.
function priorityOf(state, id) {
    var d = directionOf(state.meta(id).tags);
    if (Object.prototype.hasOwnProperty.call(DIRECTION_PRIORITY, d) && d !== "*")
        return { listed: true, value: DIRECTION_PRIORITY[d] };
    if (Object.prototype.hasOwnProperty.call(DIRECTION_PRIORITY, "*"))
        return { listed: false, value: DIRECTION_PRIORITY["*"] };
    return { listed: false, value: 0 };
}

// Legal roots in decreasing priority (ties: ascending branch); without the
// roots of weak directions when SKIP_WEAK_ROOTS is 1, unless no branch is
// opened yet and every legal root is weak: then they all take part, so that
// an episode never ends without a call because the history found every
// direction of this world weak.
function orderedRoots(state) {
    var roots = state.legalRoots;
    if (!hasPriorities())
        return roots;
    var ranked = rankedRoots(state, roots, SKIP_WEAK_ROOTS === 1);
    if (ranked.length === 0 && state.openedBranches.length === 0)
        ranked = rankedRoots(state, roots, false);
    var out = [];
    for (var i = 0; i < ranked.length; ++i)
        out.push(ranked[i].id);
    return out;
}

function rankedRoots(state, roots, skipWeak) {
    var ranked = [];
    for (var i = 0; i < roots.length; ++i) {
        if (skipWeak && isWeak(state, roots[i]))
            continue;
        ranked.push({ id: roots[i], branch: state.meta(roots[i]).branch, p: priorityOf(state, roots[i]).value });
    }
    ranked.sort(function (a, b) {
        if (a.p !== b.p)
            return a.p > b.p ? -1 : 1;
        return a.branch < b.branch ? -1 : (a.branch > b.branch ? 1 : 0);
    });
    return ranked;
}

// The floor of P for the branch of cell `id`.
function stallFloorOf(state, id) {
    if (STALL_BY_DIRECTION !== 1)
        return STALL_FLOOR;
    var d = directionOf(state.meta(id).tags);
    if (d !== "*" && Object.prototype.hasOwnProperty.call(DIRECTION_STALL, d))
        return DIRECTION_STALL[d];
    if (Object.prototype.hasOwnProperty.call(DIRECTION_STALL, "*"))
        return DIRECTION_STALL["*"];
    return STALL_FLOOR;
}

// Whether some attempt from `attempt` on, within `calls` calls, lacks evidence.
function needsProbe(attempt, calls) {
    for (var a = attempt; a < attempt + calls; ++a) {
        var key = String(a);
        var n = Object.prototype.hasOwnProperty.call(DEPTH_EVIDENCE, key) ? DEPTH_EVIDENCE[key] : 0;
        if (n < PROBE_EVIDENCE)
            return true;
    }
    return false;
}

// The probe of this round: [] when there is none to make.
function probe(state, traj) {
    var left = PROBE_CALLS - probesMade;
    if (left <= 0 || state.maxParallelism < 1)
        return [];
    var candidates = [];
    var legal = state.legal;
    for (var i = 0; i < legal.length; ++i) {
        var m = state.meta(legal[i]);
        var tr = m.attempt === 0 ? undefined : traj[m.branch];
        if (tr === undefined || tr.lastHard || !needsProbe(m.attempt, left))
            continue;
        candidates.push({ id: m.id, branch: m.branch, hasAnchor: tr.hasAnchor, anchor: tr.anchor, failRun: tr.failRun });
    }
    if (candidates.length === 0)
        return [];
    candidates.sort(before);
    probesMade += 1;
    return [candidates[0].id];
}

// Whether the branch of legal frontier `id` belongs to a weak direction.
function isWeak(state, id) {
    if (WEAK_SHARE <= 0 || !hasPriorities())
        return false;
    var top = null;
    for (var key in DIRECTION_PRIORITY) {
        if (key !== "*" && Object.prototype.hasOwnProperty.call(DIRECTION_PRIORITY, key)
            && (top === null || DIRECTION_PRIORITY[key] > top))
            top = DIRECTION_PRIORITY[key];
    }
    var p = priorityOf(state, id);
    return top !== null && p.listed && p.value < WEAK_SHARE * top;
}

// The deepest attempt a weak direction's branch is refined to.
function weakDepth(state, id) {
    var d = directionOf(state.meta(id).tags);
    var deepest = Object.prototype.hasOwnProperty.call(DIRECTION_DEEPEST_GAIN, d) ? DIRECTION_DEEPEST_GAIN[d] : 0;
    return Math.max(WEAK_DEPTH, deepest);
}

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
    var roots = orderedRoots(state);
    var opened = state.openedBranches.length;
    var T = opened + state.legalRoots.length;
    var R = ROOT_BASE + Math.floor(ROOT_SHARE * beta * Math.max(0, T - ROOT_BASE) + ROOT_ROUNDING);
    var w0 = Math.min(R, FIRST_BASE + Math.floor(FIRST_SHARE * beta * Math.max(0, W - FIRST_BASE) + ROOT_ROUNDING));
    var P0 = STALL_BASE + Math.floor(STALL_SLOPE * beta);
    var P = Math.max(STALL_FLOOR, P0);
    var F = REPAIR_BASE + Math.floor(REPAIR_SLOPE * beta);
    var G = Math.max(PATIENCE_FLOOR, W * (PATIENCE_BASE + Math.floor(PATIENCE_SLOPE * beta)));
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
        return PROBE_CALLS > 0 ? probe(state, traj) : batch;

    // Classify the frontiers.
    var exploit = [], recovery = [];
    var legal = state.legal;
    for (i = 0; i < legal.length; ++i) {
        var m = state.meta(legal[i]);
        if (m.attempt === 0 || (m.attempt > WEAK_DEPTH && isWeak(state, m.id) && m.attempt > weakDepth(state, m.id)))
            continue;
        var tr = traj[m.branch];
        var c = { id: m.id, branch: m.branch, hasAnchor: tr.hasAnchor, anchor: tr.anchor, failRun: tr.failRun };
        if (tr.lastSuccess) {
            if (tr.stall < (STALL_BY_DIRECTION === 1 ? Math.max(P0, stallFloorOf(state, m.id)) : P))
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
    if (batch.length === 0 && PROBE_CALLS > 0)
        return probe(state, traj);
    return batch;
}
