#!/usr/bin/env bash
# The sizes docs/architecture.md gives for the rooms of views/ and core/:
# files (.h and .cpp) and lines per room, counted from the sources so the
# table is never written by hand. Usage: packaging/room-sizes.sh [views|core]
set -euo pipefail
cd "$(dirname "$0")/.."
for top in ${@:-views core}; do
  for room in "$top"/*/; do
    room=${room%/}
    files=$(find "$room" -maxdepth 1 \( -name '*.h' -o -name '*.cpp' \) | wc -l)
    [ "$files" -eq 0 ] && continue
    lines=$(find "$room" -maxdepth 1 \( -name '*.h' -o -name '*.cpp' \) -exec cat {} + | wc -l)
    printf '%-28s %4d files %7d lines (~%.1fk)\n' "$room/" "$files" "$lines" "$(echo "$lines / 1000" | bc -l)"
  done
done
