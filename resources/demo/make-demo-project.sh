#!/bin/sh
# Builds the demo project resources/demo/demo.dreamrsi from the demo worlds of
# this folder: the three trees as iterations, the two built-in policy
# versions, and their replay results over the default sweep (replay.md §3).
#
#   resources/demo/make-demo-project.sh path/to/dreamrsi [OUT.dreamrsi]
#
# Deterministic apart from timestamps. An existing OUT is replaced.
set -eu
dreamrsi=${1:?usage: make-demo-project.sh path/to/dreamrsi [OUT.dreamrsi]}
here=$(cd "$(dirname "$0")" && pwd)
out=${2:-$here/demo.dreamrsi}

rm -rf "$out" "$out-wal" "$out-shm" "$out.lock" "$out-artifacts"
"$dreamrsi" project new "$out" --name "Dream-RSI demo" --task circle_packing_26
"$dreamrsi" import "$out" "$here/c3-iter1.json" "$here/circle-packing-iter1.json" "$here/circle-packing-iter2.json"
for policy in parallel_refine portfolio; do
    "$dreamrsi" project replay "$out" --policy "builtin:$policy" --threads 1 > /dev/null
done
"$dreamrsi" ls "$out" policies
"$dreamrsi" ls "$out" iterations
# The artifact folder is empty for these imported trees; it is re-made on open.
rmdir "$out-artifacts" 2>/dev/null || true
