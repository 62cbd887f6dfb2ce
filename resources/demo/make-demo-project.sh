#!/bin/sh
# Builds the demo project resources/demo/demo.dreamrsi from real online rounds
# of the built-in agent (offline and seeded, so no key is needed): every cell
# is a program that the built-in agent wrote and the real, sandboxed
# evaluator scored.
#
#   resources/demo/make-demo-project.sh path/to/dreamrsi [OUT.dreamrsi]
#
# What it runs:
# - circle packing: the recursive loop, two iterations (round → dream with the
#   built-in policy improver → automatic approval → round);
# - the first autocorrelation inequality: one round;
# - both built-in policies replayed over the three worlds, so the Frontiers
#   and Policies tabs have results to show;
# - the finished iterations exported next to this script as tree files
#   (demo worlds for `dreamrsi replay --world`).
#
# Every value is computed under the project's one replay configuration, whose W
# the first round sets (4); its dreams and the replays of the built-ins use it,
# so the Policies table and the approval compare like with like.
#
# Scores and programs depend only on the seeds; timings and timestamps vary.
# An existing OUT (with its artifact folder) is replaced.
set -eu
dreamrsi=${1:?usage: make-demo-project.sh path/to/dreamrsi [OUT.dreamrsi]}
here=$(cd "$(dirname "$0")" && pwd)
out=${2:-$here/demo.dreamrsi}

rm -rf "$out" "$out-wal" "$out-shm" "$out.lock" "$out-artifacts"
"$dreamrsi" project new "$out" --name "Dream-RSI demo" --task circle_packing_26
"$dreamrsi" loop --project "$out" --task circle_packing_26 --agent builtin --iterations 2 --versions 3 \
    --workers 4 --rounds 4 --max-calls 16 --seed 1 --auto-approve
"$dreamrsi" round --project "$out" --task c3_autocorrelation --agent builtin \
    --workers 4 --rounds 3 --max-calls 12 --seed 7
for policy in parallel_refine portfolio; do
    "$dreamrsi" project replay "$out" --policy "builtin:$policy" --threads 1 > /dev/null
done
rm -f "$here"/*.json
tmp=$(mktemp -d)
"$dreamrsi" export "$out" --all --dir "$tmp"
for f in "$tmp"/*.json; do
    [ -e "$f" ] && cp "$f" "$here/"
done
rm -rf "$tmp"
# Workspaces are only needed to resume a round; the finished demo keeps the
# content-addressed artifacts (proposals, programs, scores, agent logs).
rm -rf "$out-artifacts/attempts"
"$dreamrsi" ls "$out" iterations
"$dreamrsi" ls "$out" policies
