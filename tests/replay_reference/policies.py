"""Python twins of the JavaScript policies in this folder (same rules, line for line)."""


def is_success(o):
    return o["evaluated"] and o["error"] is None and o["failClass"] == "ok"


def greedy(state, world):
    W = state["maxParallelism"]
    if state["round"] >= 1 + int(state["beta"] * 6):
        return []
    last = {}
    for o in state["observed"]:
        last[o["branch"]] = o
    batch = []
    for i in state["legal"]:
        if len(batch) >= W:
            break
        c = world.by_id[i]
        if c["attempt"] == 0:
            continue
        o = last[c["branch"]]
        if is_success(o) and (o["deltaVsParent"] is None or o["deltaVsParent"] >= 0):
            batch.append(i)
    roots = max(1, round_half_up(W * (1 - state["beta"]) / 2))
    for r in state["legalRoots"]:
        if roots <= 0 or len(batch) >= W:
            break
        batch.append(r)
        roots -= 1
    return batch


def round_half_up(x):
    import math
    return int(math.floor(x + 0.5))  # JavaScript's Math.round


def reverse(state, world):
    W = state["maxParallelism"]
    legal = list(reversed(state["legal"]))
    size = 1 + (state["round"] % max(1, W))
    good = sum(1 for o in state["observed"]
               if o["deltaVsBaseline"] is not None and o["deltaVsBaseline"] > 0)
    if good >= 3 and state["beta"] < 0.5:
        return []
    return legal[:min(size, W)]


def js_number(x):
    """typeof x === "number" for a value of the reference's state (bool is not one)."""
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def js_or(a, b):
    """JavaScript's a || b for numbers: b when a is 0 or NaN."""
    return b if a == 0 or a != a else a


def observed_greedy(state, world):
    import functools, math
    meta = lambda i: world.by_id[i]  # only its branch is read
    opened = len(state["openedBranches"])
    want = math.ceil(2 + state["beta"] * 2)
    patience = 2 + math.floor(state["beta"] * 3)
    groups = {}
    for o in state["observed"]:
        groups.setdefault(o["branch"], []).append(o)
    top, top_branch = -math.inf, -1
    for o in state["observed"]:
        if o["failClass"] == "ok" and js_number(o["score"]) and o["score"] > top:
            top, top_branch = o["score"], o["branch"]
    # sorted() is stable, as Array.prototype.sort is (docs/policy-api.md#the-sandbox).
    fresh = sorted(state["legalRoots"],
                   key=functools.cmp_to_key(lambda a, b: meta(a)["branch"] - meta(b)["branch"]))
    picks = []
    for i in state["legal"]:
        if i in state["legalRoots"]:
            continue
        m = meta(i)
        g = groups.get(m["branch"], [])
        stale = 0
        k = len(g) - 1
        # !(deltaVsParent > 0): null > 0 is false in JavaScript.
        while k >= 0 and not (g[k]["deltaVsParent"] is not None and g[k]["deltaVsParent"] > 0):
            stale += 1
            k -= 1
        if stale > patience and m["branch"] != top_branch:
            continue
        best_here = -math.inf
        for o in g:
            if js_number(o["score"]):
                best_here = max(best_here, o["score"])
        picks.append({"id": i, "key": best_here, "branch": m["branch"]})
    # (y.key - x.key) || (x.branch - y.branch): -Infinity - -Infinity is NaN, so the branch decides.
    picks.sort(key=functools.cmp_to_key(lambda x, y: js_or(y["key"] - x["key"], x["branch"] - y["branch"])))
    batch = [p["id"] for p in picks]
    while opened < want and fresh:
        batch.append(fresh.pop(0))
        opened += 1
    return batch[:state["maxParallelism"]]


# name -> (python function, grid plan (branches, refinements) or None)
POLICIES = {"greedy": (greedy, None), "reverse_planned": (reverse, (3, 2)),
            "observed_greedy": (observed_greedy, None)}
