#!/usr/bin/env bash
# The functions of core/ longer than a limit (default 120 lines), longest
# first, for the closing notes of docs/architecture.md's rule "no function in
# core longer than 120 lines". A function is what the sources write at the
# left margin (the house style: namespaces are not indented): its signature's
# first line, down to the `}` alone at the margin that closes it; lambdas and
# local classes count with the function around them.
# Usage: packaging/long-functions.sh [LIMIT] [DIR...]   (default: 120 core)
set -euo pipefail
cd "$(dirname "$0")/.."
limit=${1:-120}
shift $(( $# > 0 ? 1 : 0 ))
dirs=("${@:-core}")
find "${dirs[@]}" -name '*.cpp' -print0 | sort -z | xargs -0 awk -v limit="$limit" '
  # ind: the margin functions are written at: none, or four spaces inside a
  # class or struct defined at the margin (its methods defined in place).
  function start(line) { return substr(line, 1, length(ind)) == ind && substr(line, length(ind) + 1) ~ /^[A-Za-z_~]/ }
  function rest(line) { return substr(line, length(ind) + 1) }
  FNR == 1 { sig = 0; body = 0; ind = "" }
  !body && ind == "" && /^(class|struct|union)[^;]*$/ { ind = "    "; sig = 0; next }
  !body && ind != "" && /^\};/ { ind = ""; sig = 0; next }
  # A signature: not a comment, a preprocessor line, a namespace, a type, an
  # access label or a declaration.
  !body && start($0) && rest($0) !~ /^(namespace|using|typedef|template|struct|class|enum|union|extern|static_assert|Q_|public|private|protected|friend)/ && $0 !~ /;[[:space:]]*$/ {
    if (!sig) { sig = FNR; name = rest($0) }
  }
  !body && sig && start($0) && $0 ~ /;[[:space:]]*$/ { sig = 0 }
  !body && sig == FNR && /\{.*\}[[:space:]]*$/ { sig = 0; next } # a body on the signature line
  !body && sig && /\{[[:space:]]*(\}[[:space:]]*)?$/ {
    if ($0 ~ /\}[[:space:]]*$/) { sig = 0; next } # a one-line body
    body = 1; next
  }
  body && substr($0, 1, length(ind) + 1) == ind "}" {
    n = FNR - sig + 1
    if (n > limit) {
      sub(/[[:space:]]*\{?[[:space:]]*$/, "", name)
      printf "%5d %s:%d %s\n", n, FILENAME, sig, name
    }
    body = 0; sig = 0
  }
' | sort -rn
