#!/usr/bin/env python3
"""An independent reading of docs/replay.md (episodes, scoring, the command) and docs/policy-api.md, in Python, used to check the C++
engine and the `dreamrsi replay` command result for result.

It makes seeded synthetic worlds (sparse branch ids, failures, negative and
null scores, S = 0 worlds), replays each policy of policies.py both here and
through `dreamrsi replay --json` (the JavaScript twin in this folder), and
compares reveal order, calls, rounds and the scores to 1e-12.

usage: reference.py DREAMRSI_BINARY [--worlds N] [--seed S]
"""
import json, math, os, random, subprocess, sys, tempfile

import policies

HERE = os.path.dirname(os.path.abspath(__file__))


def effective(c):
    s = c.get("score")
    return max(s, 0.0) if isinstance(s, (int, float)) and math.isfinite(s) else 0.0


class World:
    def __init__(self, doc):
        self.doc = doc
        self.cells = doc["cells"]
        self.by_id = {c["id"]: c for c in self.cells}
        self.by_pos = {(c["branch"], c["attempt"]): c for c in self.cells}
        self.branch_ids = sorted({c["branch"] for c in self.cells})
        self.length = {b: sum(1 for c in self.cells if c["branch"] == b) for b in self.branch_ids}
        self.B = len(self.cells)
        self.S = max([effective(c) for c in self.cells], default=0.0)
        self.baseline = doc.get("baseline_score")


def observation(world, c):
    num = lambda v: isinstance(v, (int, float))
    score = c.get("score")
    base = world.baseline
    if c["attempt"] == 0:
        parent_id, dpar = None, (score - base if num(score) and num(base) else None)
    else:
        p = world.by_pos[(c["branch"], c["attempt"] - 1)]
        parent_id = p["id"]
        dpar = score - p["score"] if num(score) and num(p.get("score")) else None
    evaluated = c.get("evaluated", num(score))
    error = c.get("error")
    fail = c.get("fail_class", "ok" if evaluated and error is None else "agent")
    return {"id": c["id"], "branch": c["branch"], "attempt": c["attempt"], "parentId": parent_id,
            "seq": c["seq"], "tags": c.get("tags", []), "score": score, "evaluated": evaluated,
            "valid": c.get("valid"), "failClass": fail, "error": error,
            "nValid": c.get("n_valid"), "nTotal": c.get("n_total"),
            "deltaVsBaseline": score - base if num(score) and num(base) else None,
            "deltaVsParent": dpar}


def episode(world, policy, beta, W, K, plan):
    allowed_branches = set(world.branch_ids[:plan[0]]) if plan else set(world.branch_ids)
    max_attempt = plan[1] if plan else None
    revealed, order, top = set(), [], {}
    k = 0
    while True:
        legal = []
        for b in world.branch_ids:
            if b not in allowed_branches:
                continue
            a = top[b] + 1 if b in top else 0
            if a < world.length[b] and (max_attempt is None or a <= max_attempt):
                legal.append(world.by_pos[(b, a)]["id"])
        if not legal or (K is not None and k == K):
            break
        roots = [i for i in legal if world.by_id[i]["attempt"] == 0]
        state = {"round": k, "beta": beta, "maxParallelism": W, "baselineScore": world.baseline,
                 "observed": [observation(world, world.by_id[i]) for i in order],
                 "legal": legal, "legalRoots": roots, "openedBranches": sorted(top)}
        batch = policy(state, world)
        if not batch:
            break
        if len(batch) > W or len(set(batch)) != len(batch) or any(i not in legal for i in batch):
            raise ValueError("illegal batch in round %d" % (k + 1))
        for i in batch:
            c = world.by_id[i]
            revealed.add(i)
            order.append(i)
            top[c["branch"]] = c["attempt"]
        k += 1
    s = max([effective(world.by_id[i]) for i in order], default=0.0)
    a = min(max(s / world.S, 0.0), 1.0) if world.S > 0 else None
    return {"calls": len(order), "rounds": k, "best": s, "attainment": a, "revealed": order}


def score(world, points, lam, nbetas):
    pts = [(p["calls"], p["attainment"]) for p in points]
    nd = sorted({p for p in pts if not any(q[0] <= p[0] and q[1] >= p[1] and q != p for q in pts)})
    hv, prev = 0.0, 0.0
    for n, a in nd:
        hv += (a - prev) * (world.B - n)
        prev = a
    hv = hv / world.B
    pen = sum(p["rounds"] / p["calls"] for p in points if p["calls"] > 0) / nbetas
    return hv, pen, hv - lam * pen


def synth_world(rng, index):
    nb = rng.randint(1, 9)
    ids = sorted(rng.sample(range(0, 40), nb))
    cells, seq = [], list(range(200))
    rng.shuffle(seq)
    zero = index % 7 == 3  # an S = 0 world now and then
    for b in ids:
        for a in range(rng.randint(1, 8)):
            c = {"id": "w%dc%d_%d" % (index, b, a), "branch": b, "attempt": a, "seq": seq.pop()}
            r = rng.random()
            if r < 0.15:
                c.update(score=None, fail_class=rng.choice(["compile", "timeout", "env", "agent"]), error="failed")
            elif r < 0.2:
                c["score"] = -rng.random()
            else:
                c["score"] = 0.0 if zero else round(rng.uniform(0.1, 3.0), rng.randint(1, 9))
            if rng.random() < 0.3:
                c["tags"] = ["direction:%d" % rng.randint(0, 3)]
            cells.append(c)
    rng.shuffle(cells)
    doc = {"format": "dreamrsi-tree/1", "cells": cells}
    if rng.random() < 0.7:
        doc["baseline_score"] = round(rng.uniform(0.0, 1.5), 3)
    return doc


def main():
    binary = sys.argv[1]
    n_worlds = int(sys.argv[sys.argv.index("--worlds") + 1]) if "--worlds" in sys.argv else 40
    seed = int(sys.argv[sys.argv.index("--seed") + 1]) if "--seed" in sys.argv else 1
    rng = random.Random(seed)
    failures = checked = 0
    with tempfile.TemporaryDirectory() as tmp:
        paths, worlds = [], []
        for i in range(n_worlds):
            doc = synth_world(rng, i)
            path = os.path.join(tmp, "w%03d.json" % i)
            with open(path, "w") as f:
                json.dump(doc, f)
            paths.append(path)
            worlds.append(World(doc))
        configs = [(0.1, 10, None, [0, 0.25, 0.5, 0.75, 1]), (0.3, 3, 2, [0, 0.5, 1]), (0.0, 1, None, [0.2, 0.9]),
                   (0.1, 4, 0, [0, 1])]  # K = 0: no round at all
        for name, (pyfn, plan) in policies.POLICIES.items():
            for lam, W, K, betas in configs:
                args = [binary, "replay", "--policy", os.path.join(HERE, name + ".js"), "--json",
                        "--workers", str(W), "--lambda", repr(lam), "--betas", ",".join(repr(b) for b in betas)]
                if K is not None:
                    args += ["--rounds", str(K)]
                for p in paths:
                    args += ["--world", p]
                proc = subprocess.run(args, capture_output=True, text=True, timeout=300)
                if proc.returncode != 0:
                    print("FAIL %s: exit %d: %s" % (name, proc.returncode, proc.stderr[-2000:]))
                    failures += 1
                    continue
                got = json.loads(proc.stdout)
                values = []
                for w, world, gw in zip(paths, worlds, got["worlds"]):
                    sweep = [episode(world, lambda s, wd: pyfn(s, wd), b, W, K, plan) for b in betas]
                    where = "%s W=%d K=%s %s" % (name, W, K, os.path.basename(w))
                    checked += 1
                    if gw["cells"] != world.B:
                        print("FAIL %s: cells %s != %s" % (where, gw["cells"], world.B)); failures += 1
                    if gw["scorable"] != (world.S > 0):
                        print("FAIL %s: scorable" % where); failures += 1
                    for mine, theirs, b in zip(sweep, gw["sweep"], betas):
                        for key in ("calls", "rounds", "revealed"):
                            if mine[key] != theirs[key]:
                                print("FAIL %s beta=%s: %s %s != %s" % (where, b, key, theirs[key], mine[key]))
                                failures += 1
                        if abs(mine["best"] - theirs["best"]) > 1e-12:
                            print("FAIL %s beta=%s: best" % (where, b)); failures += 1
                        if world.S > 0 and abs(mine["attainment"] - theirs["attainment"]) > 1e-12:
                            print("FAIL %s beta=%s: attainment %r != %r" % (where, b, theirs["attainment"], mine["attainment"]))
                            failures += 1
                    if world.S > 0:
                        hv, pen, val = score(world, sweep, lam, len(betas))
                        values.append(val)
                        for key, mine in (("hypervolume", hv), ("penalty", pen), ("value", val)):
                            if abs(gw[key] - mine) > 1e-12:
                                print("FAIL %s: %s %r != %r" % (where, key, gw[key], mine)); failures += 1
                mean = sum(values) / len(values) if values else None
                if mean is not None and abs(got["value"] - mean) > 1e-12:
                    print("FAIL %s: mean value %r != %r" % (name, got["value"], mean)); failures += 1
    print("%d passed, %d failed" % (checked - min(failures, checked), failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
