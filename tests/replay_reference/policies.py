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


# name -> (python function, grid plan (branches, refinements) or None)
POLICIES = {"greedy": (greedy, None), "reverse_planned": (reverse, (3, 2))}
