#!/usr/bin/env bash
# The anchored rule's figures on its report set (README, "Uncertain near the
# evidence only: the anchored rule"): per regime, the default arm and fixed
# exploration, the anchored arm and the oracle arm of `dreamrsi loop` over the
# same `dreamrsi synth --seed 1000` worlds, merged into one file and drawn.
#
#   anchored-figures.sh DREAMRSI DEFAULT_DIR ANCHORED_DIR ORACLE_DIR [OUT_DIR]
#
# Each *_DIR holds REGIME.json, the --json output of
#   dreamrsi loop --world-dir WORLDS/REGIME --iterations 10 --versions 4 --workers 4 \
#       --repeats 12 --seed 1 --json --compare ARM
# with ARM "--valuation imagined --completions 8 --probe auto" (default),
# the same and "--rule anchored" (anchored), "--valuation oracle --probe off"
# (oracle), for REGIME in late, deep, flat and directions; WORLDS/REGIME from
# `dreamrsi synth --out WORLDS/REGIME --worlds 30 --seed 1000 --regime REGIME
# --width 10 --depth 11 --fail-rate 0.2`. The fixed arm drawn is the default
# run's (the three runs' fixed arms are the same episodes).
set -euo pipefail
dreamrsi=$1; default=$2; anchored=$3; oracle=$4; out=${5:-$(cd "$(dirname "$0")" && pwd)}
for regime in late deep flat directions; do
  python3 - "$default/$regime.json" "$anchored/$regime.json" "$oracle/$regime.json" "$out/anchored-$regime.json" <<'PY'
import json, sys
main = json.load(open(sys.argv[1]))
for path, arm in ((sys.argv[2], "dream_anchored"), (sys.argv[3], "dream_oracle")):
    other = json.load(open(path))
    for run in other["runs"]:
        if run["arm"] == "dream":
            run["arm"] = arm
            main["runs"].append(run)
    if other["summary"].get("dream") is not None:
        main["summary"][arm] = other["summary"]["dream"]
main["config"]["arms"] = {"dream": "imagined valuation (C 8, capped: the default) with probes (auto)",
                          "dream_anchored": "imagined valuation (C 8, anchored) with probes (auto)",
                          "dream_oracle": "oracle valuation (the complete recorded worlds), no probes",
                          "fixed": "the starting policy throughout"}
json.dump(main, open(sys.argv[4], "w"), indent=1)
PY
  "$dreamrsi" plot progress --simulation "$out/anchored-$regime.json" \
      --width-mm 120 --height-mm 90 --data "$out/anchored-$regime.csv" --out "$out/anchored-$regime.png" > /dev/null
done
