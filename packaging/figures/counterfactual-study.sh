#!/usr/bin/env bash
# The counterfactual study of issue 24: Dream-RSI against fixed exploration
# over recorded worlds of three regimes (a few directions carry the task;
# gains arrive late; nothing improves after the first attempt), 20 repeats
# each (repeat r > 0 draws its T worlds in a shuffle seeded by S + r).
# Usage: packaging/figures/counterfactual-study.sh [BUILD_DIR] [REPEATS]
# Writes counterfactual-REGIME.{json,png,csv,table.tex} next to this script.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
build="${1:-$here/../../build}"
repeats="${2:-20}"
dreamrsi="$build/bin/dreamrsi"
[ -x "$dreamrsi" ] || dreamrsi="$build/app/dreamrsi"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
for regime in directions late flat; do
  "$dreamrsi" synth --out "$work/$regime" --worlds 30 --seed 100 --regime "$regime" \
      --width 10 --depth 11 --fail-rate 0.2 --workers 4 >/dev/null
  "$dreamrsi" loop --world-dir "$work/$regime" --iterations 5 --versions 4 --workers 4 \
      --repeats "$repeats" --seed 1 --compare --guard --json > "$here/counterfactual-$regime.json" \
      2> "$work/$regime.log"
  tail -4 "$work/$regime.log"
  "$dreamrsi" plot progress --simulation "$here/counterfactual-$regime.json" \
      --width-mm 120 --height-mm 90 --data "$here/counterfactual-$regime.csv" \
      --out "$here/counterfactual-$regime.png"
done
