#!/usr/bin/env bash
# Screenshots of the workbench, one PNG per tab, taken under Xvfb on the demo
# data: the bundled demo project (or one built from resources/demo with the
# dreamrsi CLI), else the demo tree files.
#
#   packaging/screenshot.sh [OUT_DIR] [BIN_DIR]
#
# OUT_DIR defaults to packaging/screenshots, BIN_DIR to build/bin.
# SCREENSHOT_LIVE_TASK=circle_packing_26 also grabs a live round of the
# built-in agent in progress (it runs real evaluations: a minute or two).
# SCREENSHOT_STEERING_TASK=sums_differences grabs a manual round being picked
# and a branch closed by hand (real evaluations too). Needs
# xvfb-run and xauth (packaging/install-deps.sh installs them).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$root/packaging/screenshots}
bin=${2:-${DREAMRSI_BIN_DIR:-$root/build/bin}}
size=${SCREENSHOT_SIZE:-1600x1000}

# The tour (replay, compare, inspect, grab each tab) is the dreamrsi-screenshot
# tool: a MainWindow driven from outside, not an option of the production GUI.
shooter=$bin/dreamrsi-screenshot
[ -x "$shooter" ] || { echo "screenshot.sh: $shooter not found; build first (cmake --build build --target dreamrsi-screenshot)" >&2; exit 1; }
command -v xvfb-run > /dev/null || { echo "screenshot.sh: xvfb-run not found (apt-get install xvfb xauth)" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# A fresh settings folder: no saved layout, recent files or theme leak in.
export XDG_CONFIG_HOME=$tmp/config
export QT_SCALE_FACTOR=1

inputs=("$root"/resources/demo/*.json)
if [ -f "$root/resources/demo/demo.dreamrsi" ]; then
    # The bundled demo project, copied: the workbench opens projects for writing.
    cp "$root/resources/demo/demo.dreamrsi" "$tmp/demo.dreamrsi"
    if [ -d "$root/resources/demo/demo.dreamrsi-artifacts" ]; then
        cp -r "$root/resources/demo/demo.dreamrsi-artifacts" "$tmp/demo.dreamrsi-artifacts"
    fi
    inputs=("$tmp/demo.dreamrsi")
elif [ -x "$bin/dreamrsi" ] && [ -x "$root/resources/demo/make-demo-project.sh" ]; then
    if ! "$root/resources/demo/make-demo-project.sh" "$bin/dreamrsi" "$tmp/demo.dreamrsi" > "$tmp/make-demo.log" 2>&1; then
        echo "screenshot.sh: the demo project script stopped early (below); the workbench replays what is missing" >&2
        cat "$tmp/make-demo.log" >&2
    fi
    # A project with its iterations is enough: the workbench seeds the
    # built-in policies and replays versions that have no stored results.
    if [ -f "$tmp/demo.dreamrsi" ]; then
        inputs=("$tmp/demo.dreamrsi")
    fi
fi

mkdir -p "$out"
# Remove what this tour makes; 17, 19 and 28 are taken by their GUI tests
# (tst_gui_runs, tst_gui_reevaluate, tst_gui_remote with DREAMRSI_SCREENSHOT_DIR set) and stay.
for f in "$out"/[0-9][0-9]-*.png; do
    case "$(basename "$f")" in 17-*|19-*|28-*) ;; *) rm -f "$f" ;; esac
done
xvfb-run -a -s "-screen 0 1920x1200x24" \
    "$shooter" --size "$size" ${SCREENSHOT_LIVE_TASK:+--live-round "$SCREENSHOT_LIVE_TASK"} \
    ${SCREENSHOT_STEERING_TASK:+--steering-round "$SCREENSHOT_STEERING_TASK"} "$out" "${inputs[@]}"
# An imported run (a synthetic OpenEvolve run): its islands and behaviour grid, 26 and 27.
xvfb-run -a -s "-screen 0 1920x1200x24" "$shooter" --size "$size" --islands "$out"
ls -l "$out"/*.png
