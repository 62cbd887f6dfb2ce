#!/usr/bin/env bash
# Checks that a refactoring changed no number: runs the same replays, project
# replays, dreams and a counterfactual loop with two builds of `dreamrsi` and
# compares their JSON (and the project commands' logs) byte for byte,
# temporary paths and timestamps masked.
# Usage: packaging/byte-identity.sh BEFORE_BIN_DIR AFTER_BIN_DIR
# (each BIN_DIR holds a `dreamrsi` with its ../lib/dreamrsi beside it, e.g. a
# copy of build/bin and build/lib made before the change).
set -uo pipefail
src="$(cd "$(dirname "$0")/.." && pwd)"
run() { # BIN_DIR OUT_DIR
  local bin="$1/dreamrsi" out="$2" work
  work=$(mktemp -d); mkdir -p "$out"
  "$bin" synth --out "$work/late" --worlds 8 --seed 100 --regime late --width 10 --depth 11 --fail-rate 0.2 --workers 4 >/dev/null
  "$bin" synth --out "$work/dir" --worlds 40 --seed 3 --regime directions --workers 10 >/dev/null
  local wargs=(); for f in "$work"/dir/*.json; do wargs+=(--world "$f"); done
  for p in builtin:parallel_refine builtin:portfolio "$src"/tests/replay_reference/observed_greedy.js \
           "$src"/tests/replay_reference/reverse_planned.js; do
    local n; n=$(basename "$p" | tr ':' '_')
    "$bin" replay "${wargs[@]}" --policy "$p" --json > "$out/replay-$n.json" 2> "$out/replay-$n.err"
  done
  cp "$src/resources/demo/demo.dreamrsi" "$work/p.dreamrsi"
  "$bin" replay --project "$work/p.dreamrsi" --policy builtin:parallel_refine --json > "$out/project-pr.json" 2> "$out/project-pr.err"
  "$bin" replay --project "$work/p.dreamrsi" --policy "$src"/tests/replay_reference/observed_greedy.js --json \
      > "$out/project-og.json" 2> "$out/project-og.err"
  "$bin" project config "$work/p.dreamrsi" --valuation imagined --completions 4 >/dev/null 2>&1
  "$bin" replay --project "$work/p.dreamrsi" --policy "$src"/tests/replay_reference/observed_greedy.js --json \
      > "$out/project-og-imagined.json" 2> "$out/project-og-imagined.err"
  cp "$src/resources/demo/demo.dreamrsi" "$work/d.dreamrsi"
  "$bin" dream --project "$work/d.dreamrsi" --versions 3 --agent builtin --seed 7 --json > "$out/dream.json" 2> "$out/dream.err"
  cp "$src/resources/demo/demo.dreamrsi" "$work/d2.dreamrsi"
  "$bin" dream --project "$work/d2.dreamrsi" --versions 3 --agent builtin --seed 7 --valuation imagined --completions 4 \
      --json > "$out/dream-imagined.json" 2> "$out/dream-imagined.err"
  "$bin" loop --world-dir "$work/late" --iterations 4 --versions 3 --workers 4 --repeats 2 --seed 1 --json --compare \
      --valuation imagined --completions 4 > "$out/counterfactual.json" 2> /dev/null
  for f in "$out"/*; do
    sed -i -E "s#$work#WORK#g; s/\"created\": *\"[^\"]*\"/\"created\":X/g; s/[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:.]+Z?/TS/g" "$f"
  done
  rm -rf "$work"
}
[ $# -eq 2 ] || { echo "usage: $0 BEFORE_BIN_DIR AFTER_BIN_DIR" >&2; exit 2; }
outs=$(mktemp -d)
export QT_QPA_PLATFORM=offscreen
run "$1" "$outs/before"; run "$2" "$outs/after"
status=0
for f in "$outs"/before/*; do
  b=$(basename "$f")
  if cmp -s "$f" "$outs/after/$b"; then echo "same      $b"; else echo "DIFFERENT $b"; status=1; fi
done
rm -rf "$outs"
exit $status
