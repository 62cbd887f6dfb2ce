#!/usr/bin/env python3
"""Which repeats of a counterfactual study learn depth, and what their probes saw.

For every repeat of one arm of `dreamrsi loop --world-dir ... --json` (the
study's JSON, packaging/figures/counterfactual-REGIME.json) it prints the
arm's attainment and calls over the last five iterations against fixed
exploration on the same world order, and, for each probe call the arm made in
iterations 1-5, whether the recorded world shows a gain there (the probed
cell scores above the attempt before it on its branch). It then counts
repeats that *learnt* (attainment at least --learnt above fixed exploration)
against repeats whose probes revealed a gain in iterations 1-2, with a
one-sided Fisher exact test.

The worlds are the study's: `dreamrsi synth --out DIR --worlds 30 --seed S
--regime R --width 10 --depth 11 --fail-rate 0.2 --workers 4`.

Usage: frugal-repeats.py STUDY.json WORLD_DIR [--arm dream] [--learnt 0.08] [--early 2]
"""
import argparse
import json
import os
import statistics
from math import comb


def fisher_one_sided(a, b, c, d):
    """P(X >= a) for the 2x2 table [[a, b], [c, d]] with fixed margins."""
    n, row, col = a + b + c + d, a + b, a + c
    return sum(comb(col, x) * comb(n - col, row - x) / comb(n, row) for x in range(a, min(row, col) + 1))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("study")
    ap.add_argument("worlds")
    ap.add_argument("--arm", default="dream")
    ap.add_argument("--learnt", type=float, default=0.08)
    ap.add_argument("--early", type=int, default=2, help="iterations whose probes count as early")
    args = ap.parse_args()

    study = json.load(open(args.study))
    cache = {}

    def cells(world_path):
        name = os.path.basename(world_path)
        if name not in cache:
            tree = json.load(open(os.path.join(args.worlds, name)))
            cache[name] = {c["id"]: c for c in tree["cells"]}
        return cache[name]

    def gain(world_path, cell_id):
        branch, attempt = cell_id[1:].split("a")
        here = cells(world_path).get(cell_id)
        before = cells(world_path).get(f"b{branch}a{int(attempt) - 1}")
        if not here or not before or here.get("score") is None or before.get("score") is None:
            return None  # a failed attempt, or a root
        return here["score"] - before["score"]

    runs = {}
    for r in study["runs"]:
        runs.setdefault(r["arm"], {})[r["repeat"]] = r
    table = [[0, 0], [0, 0]]  # [early gain seen][learnt]
    deployments = hits = 0
    rows = []
    for repeat in sorted(runs[args.arm]):
        arm, fixed = runs[args.arm][repeat], runs["fixed"][repeat]
        last = lambda run, key: statistics.mean(it[key] for it in run["iterations"][5:])
        d_att = last(arm, "attainment") - last(fixed, "attainment")
        ratio = last(arm, "calls") / last(fixed, "calls")
        seen_at, marks = [], []
        for i, it in enumerate(arm["iterations"][:5], start=1):
            shown = False
            for reason in it.get("probes", []):
                cell = reason.split(":")[0]
                g = gain(it["world"], cell)
                marks.append(f"{i}:{cell}{'+' if g and g > 0 else ('0' if g is not None else 'x')}")
                if g and g > 0:
                    seen_at.append(i)
                    shown = True
            if i <= args.early and it.get("probes"):
                deployments += 1
                hits += shown
        early = any(i <= args.early for i in seen_at)
        learnt = d_att >= args.learnt
        table[early][learnt] += 1
        deployed = [it["calls"] - it.get("probe_calls", 0) for it in arm["iterations"]]
        rows.append((d_att, ratio, early, seen_at, deployed, marks))
    for d_att, ratio, early, seen_at, deployed, marks in sorted(rows, key=lambda r: -r[0]):
        print(f"{d_att:+.3f} at {ratio:.2f}x  gains seen by probes in iterations {seen_at or '-'}  "
              f"calls deployed {deployed}")
    (no_early_no, no_early_yes), (early_no, early_yes) = table
    print(f"\nlearnt (>= {args.learnt:+.2f}): {early_yes} of {early_yes + early_no} repeats whose probes showed a gain "
          f"in iterations 1-{args.early}, {no_early_yes} of {no_early_yes + no_early_no} of the others; "
          f"one-sided Fisher p = {fisher_one_sided(early_yes, early_no, no_early_yes, no_early_no):.4f}")
    print(f"deployments in iterations 1-{args.early} with probes: {deployments}, "
          f"{hits} of them revealed a gain ({hits / max(deployments, 1):.2f})")


if __name__ == "__main__":
    main()
