#!/usr/bin/env bash
# The counterfactual study: Dream-RSI with the imagined valuation, Dream-RSI
# with the revealed valuation, Dream-RSI with the oracle valuation (the
# complete recorded worlds: an upper arm that no live loop has) and fixed
# exploration, over recorded worlds of
# every study regime `dreamrsi synth` makes (a few directions carry the task;
# gains arrive late; nothing improves after the first attempt), T = 10,
# 20 repeats each (repeat r > 0 draws its T worlds in a shuffle seeded by
# S + r; both Dream-RSI runs and the fixed arm see the same world orders).
# Usage: packaging/figures/counterfactual-study.sh [BUILD_DIR] [REPEATS] [ITERATIONS]
# Writes counterfactual-REGIME.{json,png,csv,table.tex} next to this script:
# arm "dream" is the imagined valuation (C 8), "dream_revealed" the revealed one,
# "dream_oracle" the oracle; and counterfactual-summary.md, the README's table.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
build="${1:-$here/../../build}"
repeats="${2:-20}"
iterations="${3:-10}"
dreamrsi="$build/bin/dreamrsi"
[ -x "$dreamrsi" ] || dreamrsi="$build/app/dreamrsi"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
for regime in directions late flat; do
  "$dreamrsi" synth --out "$work/$regime" --worlds 30 --seed 100 --regime "$regime" \
      --width 10 --depth 11 --fail-rate 0.2 --workers 4 >/dev/null
  common=(loop --world-dir "$work/$regime" --iterations "$iterations" --versions 4 --workers 4
          --repeats "$repeats" --seed 1 --json)
  "$dreamrsi" "${common[@]}" --compare --valuation imagined --completions 8 \
      > "$work/$regime-imagined.json" 2> "$work/$regime-imagined.log"
  "$dreamrsi" "${common[@]}" --valuation revealed > "$work/$regime-revealed.json" 2> "$work/$regime-revealed.log"
  "$dreamrsi" "${common[@]}" --valuation oracle > "$work/$regime-oracle.json" 2> "$work/$regime-oracle.log"
  tail -2 "$work/$regime-imagined.log"
  tail -1 "$work/$regime-revealed.log"
  tail -1 "$work/$regime-oracle.log"
  # One file with the four arms: the revealed and oracle runs' Dream-RSI arms
  # become "dream_revealed" and "dream_oracle".
  python3 - "$work/$regime-imagined.json" "$work/$regime-revealed.json" "$work/$regime-oracle.json" \
      "$here/counterfactual-$regime.json" <<'PY'
import json, sys
imagined, revealed, oracle = (json.load(open(p)) for p in sys.argv[1:4])
for other, arm in ((revealed, "dream_revealed"), (oracle, "dream_oracle")):
    for run in other["runs"]:
        if run["arm"] == "dream":
            run["arm"] = arm
            imagined["runs"].append(run)
    imagined["summary"][arm] = other["summary"]["dream"]
imagined["config"]["arms"] = {"dream": "imagined valuation, C 8", "dream_revealed": "revealed valuation",
                              "dream_oracle": "oracle valuation (the complete recorded worlds)",
                              "fixed": "the starting policy throughout"}
json.dump(imagined, open(sys.argv[4], "w"), indent=1)
PY
  "$dreamrsi" plot progress --simulation "$here/counterfactual-$regime.json" \
      --width-mm 120 --height-mm 90 --data "$here/counterfactual-$regime.csv" \
      --out "$here/counterfactual-$regime.png"
done

# The README's table: per regime and arm, calls per iteration and attainment
# (mean ± 95 % interval over the repeats), and against fixed exploration over
# all iterations and over the last five (the deployments after five dreams).
python3 - "$here" "$repeats" "$iterations" > "$here/counterfactual-summary.md" <<'PY'
import json, math, sys
here, repeats, iterations = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
names = {"directions": "a few directions carry the task", "late": "gains arrive late",
         "flat": "nothing improves after the first attempt"}
arms = [("dream", "Dream-RSI, imagined (C 8)"), ("dream_revealed", "Dream-RSI, revealed"),
        ("dream_oracle", "Dream-RSI, oracle"), ("fixed", "fixed exploration")]
def ci(values):
    if len(values) < 2:
        return float("nan")
    m = sum(values) / len(values)
    sd = math.sqrt(sum((v - m) ** 2 for v in values) / (len(values) - 1))
    return 1.96 * sd / math.sqrt(len(values))
def per_repeat(runs, arm, key, first):
    out = []
    for run in runs:
        if run["arm"] != arm:
            continue
        vals = [it[key] for it in run["iterations"] if it["iteration"] >= first and it[key] is not None]
        if vals:
            out.append(sum(vals) / len(vals))
    return out
last = max(1, iterations - 4)
print(f"| regime | arm | calls per iteration | attainment | vs fixed, all iterations | vs fixed, iterations {last}–{iterations} |")
print("| --- | --- | --- | --- | --- | --- |")
for regime in ("directions", "late", "flat"):
    data = json.load(open(f"{here}/counterfactual-{regime}.json"))
    runs = data["runs"]
    fc_all, fa_all = per_repeat(runs, "fixed", "calls", 1), per_repeat(runs, "fixed", "attainment", 1)
    fc_last, fa_last = per_repeat(runs, "fixed", "calls", last), per_repeat(runs, "fixed", "attainment", last)
    mean = lambda v: sum(v) / len(v) if v else float("nan")
    for i, (arm, label) in enumerate(arms):
        c, a = per_repeat(runs, arm, "calls", 1), per_repeat(runs, arm, "attainment", 1)
        if not c:
            continue
        cl, al = per_repeat(runs, arm, "calls", last), per_repeat(runs, arm, "attainment", last)
        vs = "–" if arm == "fixed" else f"{mean(c) / mean(fc_all):.2f}×, {mean(a) - mean(fa_all):+.3f}"
        vs_last = "–" if arm == "fixed" else f"{mean(cl) / mean(fc_last):.2f}×, {mean(al) - mean(fa_last):+.3f}"
        print(f"| {names[regime] if i == 0 else ''} | {label} | {mean(c):.1f} ± {ci(c):.1f} | {mean(a):.3f} ± {ci(a):.3f} | {vs} | {vs_last} |")
PY
cat "$here/counterfactual-summary.md"
