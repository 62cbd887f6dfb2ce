#!/bin/sh
# Every user-visible string of the workbench has its zh_CN translation and,
# for the %n strings, its English plural forms: lupdate is run over today's
# sources into copies of translations/*.ts (the files themselves untouched)
# and no message may come out unfinished. Fails naming each one.
# Usage: check-translations.sh LUPDATE GENERATE_PROJECT_CMAKE PROJECT_CMAKE SOURCE_DIR
# (tests/gui.cmake passes Qt's lupdate, Qt's GenerateLUpdateProject.cmake and
# the lupdate project the build wrote for the workbench).
set -eu
lupdate=$1 generate=$2 project_in=$3 src=$4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake -DIN_FILE="$project_in" -DOUT_FILE="$tmp/project.json" -P "$generate"
cp "$src/translations/dreamrsi_zh_CN.ts" "$tmp/zh_CN.ts"
cp "$src/translations/dreamrsi_en.ts" "$tmp/en.ts"
"$lupdate" -project "$tmp/project.json" -no-obsolete -locations none -ts "$tmp/zh_CN.ts" >"$tmp/log" 2>&1 || { cat "$tmp/log"; exit 1; }
"$lupdate" -project "$tmp/project.json" -no-obsolete -locations none -pluralonly -ts "$tmp/en.ts" >"$tmp/log" 2>&1 || { cat "$tmp/log"; exit 1; }
status=0
for ts in zh_CN en; do
  if grep -q 'type="unfinished"' "$tmp/$ts.ts"; then
    if [ "$ts" = en ]; then
      how="lupdate -project <the build's lupdate project> -no-obsolete -locations none -pluralonly -ts translations/dreamrsi_en.ts: only the %n strings; the update_translations target would add every string to it"
    else
      how="cmake --build --preset dev --target update_translations, then restore translations/dreamrsi_en.ts with git and translate"
    fi
    echo "translations/dreamrsi_$ts.ts lacks these ($how):"
    grep -B3 'type="unfinished"' "$tmp/$ts.ts" | sed -n 's/.*<source>\(.*\)<\/source>.*/  \1/p'
    status=1
  fi
done
[ $status -eq 0 ] && echo "every string of the workbench is translated (zh_CN) and every %n string has its English plural forms"
exit $status
