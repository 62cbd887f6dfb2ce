#!/bin/sh
# Builds the demo project resources/demo/demo.dreamrsi from real online rounds
# of the built-in agent (offline and seeded, so no key is needed): every cell
# is a program that the built-in agent wrote and the real, sandboxed
# evaluator scored.
#
#   resources/demo/make-demo-project.sh path/to/dreamrsi [OUT.dreamrsi]
#
# (the tree files of the finished iterations are written next to this script
# only when OUT is the bundled demo itself)
#
# What it runs:
# - circle packing: the recursive loop, two iterations (round → dream with the
#   built-in policy improver → automatic approval → round);
# - the first autocorrelation inequality: one round;
# - every stored policy version (the dreamed v1 and v2, both built-ins)
#   replayed over the three worlds, so each has a value under the project's
#   configuration and the Frontiers and Policies tabs show them all;
# - the finished iterations exported next to this script as tree files
#   (demo worlds for `dreamrsi replay --world`).
#
# Every value is computed under the project's one replay configuration (W 4,
# set by the first round; imagined valuation, C 8 completions per world); its
# dreams and the replays use it, so the Policies table and the approval
# compare like with like. tst_bundled_demo checks that every stored version
# has a value under it over every world.
#
# Re-runnable and seeded: every choice (agent, improver, policies, replays)
# is seeded, so two runs of the same build give the same cells (ids, scores,
# failures, programs) and the same policy versions. What is not fixed is the
# order in which the attempts of one batch finish (their seq: four run in
# parallel, each evaluation taking its own time), with the timings and
# timestamps; a replay value that depends on that order can differ in the
# last call (checked: two runs, every cell equal, one of 330 stored results one
# call apart; again once every version was replayed: two runs, every cell and
# all 490 stored results equal). The project is made in a temporary folder and moved into
# place at the end, so a run that fails half-way leaves the old demo as it
# was. An existing OUT (with its artifact folder) is replaced.
#
# One command remakes it with the dreamrsi of a build (after a change to a
# built-in policy or to the schema; tst_bundled_demo fails until then):
#
#   cmake --build --preset dev --target regenerate-demo
set -eu
dreamrsi=${1:?usage: make-demo-project.sh path/to/dreamrsi [OUT.dreamrsi]}
case $dreamrsi in /*) ;; *) dreamrsi=$(pwd)/$dreamrsi ;; esac
here=$(cd "$(dirname "$0")" && pwd)
out=${2:-$here/demo.dreamrsi}
export TZ=UTC LC_ALL=C

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
p=$work/demo.dreamrsi
"$dreamrsi" project new "$p" --name "Dream-RSI demo" --task circle_packing_26
"$dreamrsi" loop --project "$p" --task circle_packing_26 --agent builtin --iterations 2 --versions 3 \
    --workers 4 --rounds 4 --max-calls 16 --seed 1 --auto-approve
"$dreamrsi" round --project "$p" --task c3_autocorrelation --agent builtin \
    --workers 4 --rounds 3 --max-calls 12 --seed 7
# Every stored version, the dreamed vN and both built-ins, replayed over all
# three worlds under the project's configuration, so that each has a value
# under it. (A dream values its candidates over the worlds of its own time,
# here iteration 1 only, on completions drawn with the dream's seed: alone,
# those would leave v1 and v2 valued over 1 of 3 worlds, "stale under this
# configuration". These replays draw the same completions for every version,
# so the values compare like with like.) builtin:parallel_refine is stored by
# its first replay.
policies=$({ echo builtin:portfolio; echo builtin:parallel_refine; "$dreamrsi" ls "$p" policies | awk 'NR > 1 { print $2 }'; } | awk '!seen[$0]++')
for policy in $policies; do
    "$dreamrsi" project replay "$p" --policy "$policy" --threads 1 > /dev/null
done
mkdir "$work/trees"
"$dreamrsi" export "$p" --all --dir "$work/trees"
# Workspaces are only needed to resume a round; the finished demo keeps the
# content-addressed artifacts (proposals, programs, scores, agent logs).
rm -rf "$p-artifacts/attempts"
# One file, no WAL beside it: what is committed and compiled into the workbench.
"$dreamrsi" ls "$p" iterations
"$dreamrsi" ls "$p" policies
# (SQLite folds the WAL into the file when the last connection closes.)
if [ -s "$p-wal" ]; then
    echo "make-demo-project.sh: $p-wal still holds pages; not moving a half-written demo into place" >&2
    exit 1
fi
rm -f "$p-wal" "$p-shm" "$p.lock"

# Into place.
rm -rf "$out" "$out-wal" "$out-shm" "$out.lock" "$out-artifacts"
mv "$p" "$out"
mv "$p-artifacts" "$out-artifacts"
if [ -z "${2:-}" ]; then
    rm -f "$here"/*.json
    for f in "$work/trees"/*.json; do
        [ -e "$f" ] && cp "$f" "$here/"
    done
fi
echo "made $out"
