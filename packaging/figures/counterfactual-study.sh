#!/usr/bin/env bash
# The counterfactual study: Dream-RSI with the imagined valuation, Dream-RSI
# with the revealed valuation and fixed exploration, over recorded worlds of
# every study regime `dreamrsi synth` makes (a few directions carry the task;
# gains arrive late; nothing improves after the first attempt), T = 10,
# 20 repeats each (repeat r > 0 draws its T worlds in a shuffle seeded by
# S + r; both Dream-RSI runs and the fixed arm see the same world orders).
# Usage: packaging/figures/counterfactual-study.sh [BUILD_DIR] [REPEATS] [ITERATIONS]
# Writes counterfactual-REGIME.{json,png,csv,table.tex} next to this script:
# arm "dream" is the imagined valuation (C 8), "dream_revealed" the revealed one.
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
  tail -2 "$work/$regime-imagined.log"
  tail -1 "$work/$regime-revealed.log"
  # One file with the three arms: the revealed run's Dream-RSI arm becomes "dream_revealed".
  python3 - "$work/$regime-imagined.json" "$work/$regime-revealed.json" "$here/counterfactual-$regime.json" <<'PY'
import json, sys
imagined, revealed = (json.load(open(p)) for p in sys.argv[1:3])
for run in revealed["runs"]:
    if run["arm"] == "dream":
        run["arm"] = "dream_revealed"
        imagined["runs"].append(run)
imagined["summary"]["dream_revealed"] = revealed["summary"]["dream"]
imagined["config"]["arms"] = {"dream": "imagined valuation, C 8", "dream_revealed": "revealed valuation",
                              "fixed": "the starting policy throughout"}
json.dump(imagined, open(sys.argv[3], "w"), indent=1)
PY
  "$dreamrsi" plot progress --simulation "$here/counterfactual-$regime.json" \
      --width-mm 120 --height-mm 90 --data "$here/counterfactual-$regime.csv" \
      --out "$here/counterfactual-$regime.png"
done
