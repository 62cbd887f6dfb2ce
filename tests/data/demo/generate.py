#!/usr/bin/env python3
"""Writes the synthetic test fixtures (dreamrsi-tree/1) of this folder; the bundled demo is real rounds now.

Deterministic (fixed seeds). Each world imitates one online round of a task:
branches of refinements whose scores drift upward with noise, a mix of failure
classes, and a short proposal and program per cell so the inspector has text
and diffs to show. Run: python3 tests/data/demo/generate.py tests/data/demo
"""
import json, math, random, sys, os

FAILS = [("compile", "error: expected ';' before '}' token"),
         ("runtime", "Traceback (most recent call last): ZeroDivisionError"),
         ("timeout", "wall-clock limit of 60 s exceeded"),
         ("correctness", "circles 4 and 11 overlap by 2.1e-05"),
         ("resource", "address-space limit of 4 GiB exceeded"),
         ("env", "numpy not importable in the sandbox"),
         ("agent", "the agent returned no program")]
DIRECTIONS = ["hex-lattice seed", "greedy radius growth", "SLSQP polish", "simulated annealing",
              "boundary-first layout", "penalty continuation", "basin hopping", "symmetric ring"]

def program(direction, attempt, step):
    return (f"# {direction}, refinement {attempt}\n"
            "import numpy as np\n\n"
            f"def construct(n=26, steps={200 + 50 * attempt}, lr={step:.3g}):\n"
            "    rng = np.random.default_rng(0)\n"
            "    xy = rng.uniform(0.1, 0.9, size=(n, 2))\n"
            "    r = np.full(n, 0.05)\n"
            "    for _ in range(steps):\n"
            "        r = grow(xy, r, lr)\n"
            + ("        xy = polish(xy, r)\n" if attempt > 1 else "")
            + "    return xy, r\n")

def world(seed, task, iteration, branches, depth, base, ceiling, fail_rate):
    rng = random.Random(seed)
    cells, seq = [], 0
    order = []
    for b in range(branches):
        length = rng.randint(max(1, depth // 3), depth)
        order += [(b, a) for a in range(length)]
    # creation order: rounds of (branch, attempt) interleaved as a live round would
    order.sort(key=lambda ba: (ba[1] + rng.random() * 0.8, ba[0]))
    level = {b: base * (0.8 + 0.25 * rng.random()) for b in range(branches)}
    for b, a in order:
        direction = DIRECTIONS[(b + seed) % len(DIRECTIONS)]
        cell = {"id": f"b{b}a{a}", "branch": b, "attempt": a, "seq": seq,
                "tags": [f"direction:{direction}"] + (["restart"] if a == 0 else [])}
        seq += 1
        if rng.random() < fail_rate:
            fc, msg = rng.choice(FAILS)
            cell.update(score=None, evaluated=fc != "agent", valid=False if fc == "correctness" else None,
                        fail_class=fc, error=msg, n_valid=0, n_total=5)
        else:
            gain = (ceiling - level[b]) * rng.uniform(0.05, 0.35)
            level[b] += gain if rng.random() < 0.7 else -gain * 0.3
            cell.update(score=round(level[b], 6), evaluated=True, valid=True, fail_class="ok",
                        error=None, n_valid=5, n_total=5)
        cell["proposal"] = (f"**Direction:** {direction}.\n\nRefinement {a} of branch {b}: "
                            + ("start from the initial workspace." if a == 0 else
                               f"keep the parent's layout and tighten the step size to {0.5 ** a:.3g}."))
        cell["program"] = program(direction, a, 0.5 ** a)
        cell["metrics"] = {"sum_radii": cell.get("score"), "wall_s": round(rng.uniform(2, 40), 2)}
        cell["agent"] = {"name": "builtin", "tokens_in": rng.randint(2000, 9000), "tokens_out": rng.randint(300, 2500)}
        cells.append(cell)
    return {"format": "dreamrsi-tree/1", "task": task, "iteration": iteration, "baseline_score": base,
            "max_parallelism": 10, "grid": {"branches": branches, "refinements": depth - 1},
            "cells": cells, "source": "bundled demo data (resources/demo/generate.py)"}

def main(out):
    specs = [("circle_packing_26", 1, 10, 11, 2.2, 2.6359830849, 0.15, "circle-packing-iter1.json"),
             ("circle_packing_26", 2, 12, 9, 2.45, 2.6359830849, 0.12, "circle-packing-iter2.json"),
             ("c3_autocorrelation", 1, 8, 12, 0.62, 0.688, 0.25, "c3-iter1.json")]
    for i, (task, it, b, d, base, ceil, fr, name) in enumerate(specs):
        with open(os.path.join(out, name), "w") as f:
            json.dump(world(100 + i, task, it, b, d, base, ceil, fr), f, indent=1)
            f.write("\n")

if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__)))
