#!/usr/bin/env python3
"""Speed figures of issue 15, measured side by side in one run: whole processes,
from start to exit, of `dreamrsi` and of the independent Python reading of
replay.md in tests/replay_reference (which rebuilds its state every round).

Rows (best of --runs):
  scripted   dreamrsi replay --policy greedy.js  vs  reference.py's greedy twin
  builtin    dreamrsi replay --policy builtin:portfolio  vs  the same Python run
  parse      dreamrsi validate FILES  vs  python3 json.load of every file

usage: replay_compare.py DREAMRSI [--before OLD_DREAMRSI] [--worlds 1000] [--seed 1] [--runs 3]
                         [--threads T]

Speed goals are never asserted: this prints figures only.
"""
import os, subprocess, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))
REFERENCE = os.path.join(os.path.dirname(HERE), "replay_reference")

PYTHON_REPLAY = r"""
import json, sys
sys.path.insert(0, %r)
import reference, policies
fn, plan = policies.POLICIES["greedy"]
betas = [0, 0.25, 0.5, 0.75, 1]
total = 0.0
for path in sys.argv[1:]:
    with open(path) as f:
        world = reference.World(json.load(f))
    sweep = [reference.episode(world, fn, b, 10, None, plan) for b in betas]
    if world.S > 0:
        total += reference.score(world, sweep, 0.1, len(betas))[2]
print(total)
""" % REFERENCE

PYTHON_PARSE = r"""
import json, sys
n = 0
for path in sys.argv[1:]:
    with open(path) as f:
        n += len(json.load(f)["cells"])
print(n)
"""


def arg(name, default):
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else default


def timed(cmd, runs, env=None):
    best = None
    for _ in range(runs):
        start = time.perf_counter()
        proc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
        elapsed = time.perf_counter() - start
        if proc.returncode != 0:
            sys.exit("failed (%d): %s\n%s" % (proc.returncode, " ".join(cmd[:6]), proc.stderr.decode()[-2000:]))
        best = elapsed if best is None else min(best, elapsed)
    return best


def main():
    if len(sys.argv) < 2 or sys.argv[1].startswith("-"):
        sys.exit(__doc__)
    binary = sys.argv[1]
    before = arg("--before", None)
    worlds, seed, runs = int(arg("--worlds", "1000")), arg("--seed", "1"), int(arg("--runs", "3"))
    threads = arg("--threads", None)
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([binary, "synth", "--out", tmp, "--worlds", str(worlds), "--seed", seed], check=True,
                       stdout=subprocess.DEVNULL)
        paths = sorted(os.path.join(tmp, n) for n in os.listdir(tmp) if n.endswith(".json"))
        megabytes = sum(os.path.getsize(p) for p in paths) / 1e6
        cells = int(subprocess.run([sys.executable, "-c", PYTHON_PARSE] + paths, check=True,
                                   capture_output=True).stdout)
        print("%d worlds, %d cells (%.0f per world), %.1f MB of tree JSON; 5 betas, W = 10; best of %d runs"
              % (len(paths), cells, cells / len(paths), megabytes, runs))
        world_args = [a for p in paths for a in ("--world", p)]
        extra = ["--threads", threads] if threads else []

        def replay(exe, policy):
            return [exe, "replay", "--policy", policy, "--json"] + world_args + extra

        python_replay = timed([sys.executable, "-c", PYTHON_REPLAY] + paths, runs)
        python_parse = timed([sys.executable, "-c", PYTHON_PARSE] + paths, runs)
        rows = [("scripted (greedy.js)", python_replay,
                 lambda exe: replay(exe, os.path.join(REFERENCE, "greedy.js"))),
                ("built-in portfolio", python_replay, lambda exe: replay(exe, "builtin:portfolio")),
                ("parse (validate vs json.load)", python_parse, lambda exe: [exe, "validate"] + paths)]
        head = "%-32s %10s %10s %8s" % ("path", "Python", "dreamrsi", "ratio")
        if before:
            head += " %10s %8s" % ("before", "ratio")
        print(head)
        for name, python, cmd in rows:
            now = timed(cmd(binary), runs)
            line = "%-32s %9.2fs %9.2fs %7.1fx" % (name, python, now, python / now)
            if before:
                old = timed(cmd(before), runs)
                line += " %9.2fs %7.1fx" % (old, python / old)
            print(line, flush=True)


if __name__ == "__main__":
    main()
