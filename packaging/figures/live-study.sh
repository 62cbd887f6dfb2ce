#!/usr/bin/env bash
# The live loop of issue 24 §4: T = 5 iterations of round → dream → approve
# (M = 4 versions, the built-in agent and improver, W = 4, 24 calls a round)
# against fixed exploration with the same agent, seeds and budgets: sums and
# differences and circle packing with seeds 1–3. Real programs and real
# evaluations; not part of CI (about an hour on two cores). The projects are
# new, so their dreams use the imagined valuation (C 8), a new project's default.
# Usage: packaging/figures/live-study.sh [BUILD_DIR]
# Writes live-TASK-SEED.{png,csv,table.tex} and live-summary.csv here.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
build="${1:-$here/../../build}"
dreamrsi="$build/bin/dreamrsi"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
echo "task,seed,arm,iteration,policy_version,cells,best_score,cumulative_calls" > "$here/live-summary.csv"
run() { # task seed
  local task=$1 seed=$2
  for arm in dream fixed; do
    local flags=(--auto-approve)
    [ "$arm" = fixed ] && flags=(--fixed)
    "$dreamrsi" loop --project "$work/$arm-$task-$seed.dreamrsi" --task "$task" --agent builtin \
        --iterations 5 --versions 4 --workers 4 --max-calls 24 --seed "$seed" "${flags[@]}" --json \
        > "$work/$arm-$task-$seed.json" 2> "$work/$arm-$task-$seed.log"
    python3 - "$work/$arm-$task-$seed.json" "$task" "$seed" "$arm" >> "$here/live-summary.csv" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for it in d["runs"][0]["iterations"]:
    print(",".join(str(x) for x in [sys.argv[2], sys.argv[3], sys.argv[4], it["iteration"], it["policy_version"],
                                    it["cells"], it["best_score"], it["cumulative_calls"]]))
PY
  done
  "$dreamrsi" plot progress --project "$work/dream-$task-$seed.dreamrsi" --label "Dream-RSI" \
      --project "$work/fixed-$task-$seed.dreamrsi" --label "Fixed exploration" \
      --width-mm 85 --height-mm 60 --data "$here/live-$task-$seed.csv" --out "$here/live-$task-$seed.png"
}
run sums_differences 1
run sums_differences 2
run sums_differences 3
run circle_packing_26 1
run circle_packing_26 2
run circle_packing_26 3
