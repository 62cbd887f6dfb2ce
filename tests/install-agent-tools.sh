#!/usr/bin/env bash
# Installs the coding-agent CLIs whose command-agent presets
# (core/agent/commandagentpresets.cpp) tst_agent_presets runs end to end, at
# exactly the releases the presets were checked with, into a cache folder:
#
#   tests/install-agent-tools.sh [DIR]
#
# DIR defaults to $DREAMRSI_AGENT_TOOLS, else ~/.cache/dreamrsi/agent-tools;
# the tools land in DIR/node_modules/.bin. Nothing is downloaded when the
# pinned releases are already there. Exit codes: 0 ok, 3 npm missing,
# 1 the install failed (npm's output is printed).
set -euo pipefail

dir="${1:-${DREAMRSI_AGENT_TOOLS:-$HOME/.cache/dreamrsi/agent-tools}}"
packages=(
  "@anthropic-ai/claude-code@2.1.332"
  "@openai/codex@0.169.0"
  "@google/gemini-cli@0.61.0"
)

if ! command -v npm >/dev/null || ! command -v node >/dev/null; then
  echo "install-agent-tools: npm and node are needed" >&2
  exit 3
fi

# A package is there when its package.json names the pinned version.
installed() {
  local name="${1%@*}" version="${1##*@}"
  DIR="$dir" NAME="$name" VERSION="$version" node -e '
    const p = require(process.env.DIR + "/node_modules/" + process.env.NAME + "/package.json");
    process.exit(p.version === process.env.VERSION ? 0 : 1);' 2>/dev/null
}

missing=()
for p in "${packages[@]}"; do
  installed "$p" || missing+=("$p")
done
if [ "${#missing[@]}" -eq 0 ]; then
  echo "install-agent-tools: ${packages[*]} already in $dir"
  exit 0
fi

mkdir -p "$dir"
[ -f "$dir/package.json" ] || echo '{"private": true}' >"$dir/package.json"
echo "install-agent-tools: installing ${missing[*]} into $dir"
if ! log="$(timeout 540 npm install --prefix "$dir" --save-exact --no-audit --no-fund --no-update-notifier \
            --fetch-timeout=120000 --fetch-retries=2 "${missing[@]}" 2>&1)"; then
  echo "$log" >&2
  echo "install-agent-tools: npm install failed" >&2
  exit 1
fi
for p in "${packages[@]}"; do
  installed "$p" || { echo "install-agent-tools: $p is not in $dir after npm install" >&2; exit 1; }
done
echo "install-agent-tools: done"
