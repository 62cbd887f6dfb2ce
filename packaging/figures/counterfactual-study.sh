#!/usr/bin/env bash
# The counterfactual study of the frugality trap (docs/online.md, "Probes",
# "Imagination rules", "A proposal must beat the noise"): over recorded worlds
# of every study regime `dreamrsi synth` makes (a few directions carry the task;
# gains arrive late; nothing improves after the first attempt; gains only from
# attempt 4 on), T iterations, R repeats (repeat r > 0 draws its T worlds in a
# shuffle seeded by S + r; every arm sees the same world orders), these arms:
#   dream          Dream-RSI, imagined valuation (C 8, capped) with probes (auto)
#   dream_noprobe  the same without probes
#   dream_widened  the same with probes and the widened imagination rule
#   dream_oracle   valued over the complete recorded worlds, no probes (an upper arm no live loop has)
#   fixed          fixed exploration (the starting policy throughout)
#   fixed_probe    fixed exploration followed by the same probes
# Usage: [STUDY_WIDENED=0] [STUDY_MAIN_ONLY=1] [STUDY_REGIMES="late deep"] [STUDY_OUT=DIR]
#        packaging/figures/counterfactual-study.sh [BUILD_DIR] [REPEATS] [ITERATIONS] [WORLD_SEED] [JOBS]
# STUDY_MAIN_ONLY=1 runs only the default, fixed and fixed+probes arms (a
# check of a change to the default arm); STUDY_OUT writes the files there
# instead of next to this script.
# The worlds are `synth --seed WORLD_SEED` (default 200: the report set; the
# defaults of probes and rules were fixed before any run on it). JOBS regimes
# run at once (default 2). Writes counterfactual-REGIME.{json,png,csv,table.tex}
# next to this script and counterfactual-summary.md, the README's table.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
build="${1:-$here/../../build}"
repeats="${2:-20}"
iterations="${3:-10}"
worldSeed="${4:-200}"
jobs="${5:-2}"
# STUDY_WIDENED=0 leaves out the widened arm (a quarter of the study's time).
widened="${STUDY_WIDENED:-1}"
mainOnly="${STUDY_MAIN_ONLY:-0}"
regimes="${STUDY_REGIMES:-late deep directions flat}"
out="${STUDY_OUT:-$here}"
mkdir -p "$out"
dreamrsi="$build/bin/dreamrsi"
[ -x "$dreamrsi" ] || dreamrsi="$build/app/dreamrsi"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

study_regime() {
  local regime="$1"
  "$dreamrsi" synth --out "$work/$regime" --worlds 30 --seed "$worldSeed" --regime "$regime" \
      --width 10 --depth 11 --fail-rate 0.2 --workers 4 >/dev/null
  local common=(loop --world-dir "$work/$regime" --iterations "$iterations" --versions 4 --workers 4
                --repeats "$repeats" --seed 1 --json --valuation imagined --completions 8)
  "$dreamrsi" "${common[@]}" --compare --fixed-probe --probe auto \
      > "$work/$regime-probe.json" 2> "$work/$regime-probe.log"
  local none='{"runs": [], "summary": {"dream": null}}'
  if [ "$mainOnly" = 1 ]; then
    echo "$none" > "$work/$regime-noprobe.json"; : > "$work/$regime-noprobe.log"
  else
    "$dreamrsi" "${common[@]}" --probe off > "$work/$regime-noprobe.json" 2> "$work/$regime-noprobe.log"
  fi
  if [ "$widened" = 1 ] && [ "$mainOnly" != 1 ]; then
    "$dreamrsi" "${common[@]}" --probe auto --rule widened > "$work/$regime-widened.json" 2> "$work/$regime-widened.log"
  else
    echo "$none" > "$work/$regime-widened.json"; : > "$work/$regime-widened.log"
  fi
  if [ "$mainOnly" = 1 ]; then
    echo "$none" > "$work/$regime-oracle.json"; : > "$work/$regime-oracle.log"
  else
    "$dreamrsi" loop --world-dir "$work/$regime" --iterations "$iterations" --versions 4 --workers 4 \
        --repeats "$repeats" --seed 1 --json --valuation oracle --probe off \
        > "$work/$regime-oracle.json" 2> "$work/$regime-oracle.log"
  fi
  tail -n 3 "$work/$regime-probe.log"
  tail -n 1 "$work/$regime-noprobe.log" "$work/$regime-widened.log" "$work/$regime-oracle.log"
  # One file with every arm: the other runs' Dream-RSI arms are renamed.
  python3 - "$work/$regime-probe.json" "$work/$regime-noprobe.json" "$work/$regime-widened.json" \
      "$work/$regime-oracle.json" "$out/counterfactual-$regime.json" <<'PY'
import json, sys
main, noprobe, widened, oracle = (json.load(open(p)) for p in sys.argv[1:5])
for other, arm in ((noprobe, "dream_noprobe"), (widened, "dream_widened"), (oracle, "dream_oracle")):
    for run in other["runs"]:
        if run["arm"] == "dream":
            run["arm"] = arm
            main["runs"].append(run)
    if other["summary"]["dream"] is not None:
        main["summary"][arm] = other["summary"]["dream"]
main["config"]["arms"] = {"dream": "imagined valuation (C 8, capped) with probes (auto)",
                          "dream_noprobe": "imagined valuation (C 8, capped), no probes",
                          "dream_widened": "imagined valuation (C 8, widened) with probes (auto)",
                          "dream_oracle": "oracle valuation (the complete recorded worlds), no probes",
                          "fixed": "the starting policy throughout",
                          "fixed_probe": "the starting policy, then the same probes"}
json.dump(main, open(sys.argv[5], "w"), indent=1)
PY
  "$dreamrsi" plot progress --simulation "$out/counterfactual-$regime.json" \
      --width-mm 120 --height-mm 90 --data "$out/counterfactual-$regime.csv" \
      --out "$out/counterfactual-$regime.png" >/dev/null
}
export -f study_regime
export dreamrsi work worldSeed iterations repeats here widened mainOnly out
printf '%s\n' $regimes | xargs -P "$jobs" -I{} bash -c 'study_regime {}'

# The README's table: per regime and arm, over the last five iterations (the
# deployments after five dreams): calls per iteration and attainment, each
# arm against fixed exploration as the ratio of calls and the attainment
# difference with 95 % intervals over the repeats (paired: the same world
# orders), and the collapses (a deployment after iteration 5 that reaches
# less attainment than fixed exploration's worst on that world order).
python3 - "$out" "$repeats" "$iterations" "$worldSeed" > "$out/counterfactual-summary.md" <<'PY'
import json, math, sys
here, repeats, iterations, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
names = {"directions": "a few directions carry the task", "late": "gains arrive late (attempts 3–5)",
         "flat": "nothing improves after the first attempt", "deep": "gains only from attempt 4–6 on"}
arms = [("dream", "Dream-RSI, imagined + probes"), ("dream_noprobe", "Dream-RSI, imagined, no probes"),
        ("dream_widened", "Dream-RSI, widened + probes"), ("dream_oracle", "Dream-RSI, oracle"),
        ("fixed_probe", "fixed + probes"), ("fixed", "fixed exploration")]
# Student t 97.5 % quantiles for small samples, then the normal's.
T = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306, 9: 2.262, 10: 2.228,
     11: 2.201, 12: 2.179, 13: 2.160, 14: 2.145, 15: 2.131, 16: 2.120, 17: 2.110, 18: 2.101, 19: 2.093}
def ci(values):
    n = len(values)
    if n < 2:
        return float("nan")
    m = sum(values) / n
    sd = math.sqrt(sum((v - m) ** 2 for v in values) / (n - 1))
    return T.get(n - 1, 1.96) * sd / math.sqrt(n)
mean = lambda v: sum(v) / len(v) if v else float("nan")
last = max(1, iterations - 4)
def runs_of(data, arm):
    return {r["repeat"]: r["iterations"] for r in data["runs"] if r["arm"] == arm}
def per_repeat(its, key, first):
    vals = [it[key] for it in its if it["iteration"] >= first and it[key] is not None]
    return mean(vals)
print(f"Worlds: `dreamrsi synth --seed {seed}` (30 per regime), T {iterations}, M 4, W 4, {repeats} repeats; "
      f"iterations {last}–{iterations}. Ratios and differences are against fixed exploration on the same world "
      f"orders, with 95 % Student-t intervals over the repeats.\n")
print("| regime | arm | calls per iteration | probe calls | attainment | calls vs fixed | attainment vs fixed | collapses |")
print("| --- | --- | --- | --- | --- | --- | --- | --- |")
for regime in ("directions", "late", "flat", "deep"):
    try:
        data = json.load(open(f"{here}/counterfactual-{regime}.json"))
    except FileNotFoundError:
        continue
    fixed = runs_of(data, "fixed")
    for i, (arm, label) in enumerate(arms):
        runs = runs_of(data, arm)
        if not runs:
            continue
        calls = [per_repeat(its, "calls", last) for its in runs.values()]
        att = [per_repeat(its, "attainment", last) for its in runs.values()]
        probes = [mean([it.get("probe_calls", 0) for it in its if it["iteration"] >= last]) for its in runs.values()]
        ratio, diff, collapses = "–", "–", "–"
        if arm != "fixed":
            ratios = [per_repeat(its, "calls", last) / per_repeat(fixed[r], "calls", last) for r, its in runs.items()]
            diffs = [per_repeat(its, "attainment", last) - per_repeat(fixed[r], "attainment", last) for r, its in runs.items()]
            ratio = f"{mean(ratios):.2f}× ± {ci(ratios):.2f}"
            diff = f"{mean(diffs):+.3f} ± {ci(diffs):.3f}"
            n = 0
            for r, its in runs.items():
                worst = min(it["attainment"] for it in fixed[r] if it["attainment"] is not None)
                n += sum(1 for it in its if it["iteration"] > 5 and it["attainment"] is not None and it["attainment"] < worst - 1e-12)
            collapses = str(n)
        print(f"| {names[regime] if i == 0 else ''} | {label} | {mean(calls):.1f} ± {ci(calls):.1f} | {mean(probes):.1f} "
              f"| {mean(att):.3f} ± {ci(att):.3f} | {ratio} | {diff} | {collapses} |")
PY
cat "$out/counterfactual-summary.md"
