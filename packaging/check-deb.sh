#!/usr/bin/env bash
# Checks the Debian package on a system that has nothing but what it declares:
#   1. builds the package from a configured build folder (cpack -G DEB);
#   2. makes a fresh Debian 12 root (debootstrap --variant=minbase bookworm);
#   3. installs the package there with apt, which pulls in its dependencies;
#   4. runs one built-in round there (circle_packing_26, the built-in agent)
#      and requires a score;
#      then replays its tree with a built-in policy and with its script twin;
#   5. opens the bundled demo project offscreen and requires it to stay up.
# Prints the package's size and the round's result. Needs root (debootstrap,
# namespaces, pivot_root) and network access to a Debian mirror. Not part of .ci/run.
#
# usage: packaging/check-deb.sh [BUILD_DIR]      (default: ./build)
# environment:
#   MIRROR     Debian mirror for debootstrap (default: the first Debian URI of
#              apt's sources on this machine, else http://deb.debian.org/debian)
#   KEEP_ROOT  1 keeps the Debian root afterwards (its path is printed)
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
build="$(cd "${1:-$here/../build}" && pwd)"

fail() { echo "check-deb: $*" >&2; exit 1; }

[ "$(id -u)" -eq 0 ] || fail "run as root (debootstrap, namespaces and mounts need it)"
command -v debootstrap >/dev/null || fail "debootstrap is not installed (apt-get install debootstrap)"
[ -f "$build/CPackConfig.cmake" ] || fail "$build is not a configured build folder (no CPackConfig.cmake)"

if [ -z "${MIRROR:-}" ]; then
  MIRROR="$(grep -hs -E '^(URIs:|deb )' /etc/apt/sources.list /etc/apt/sources.list.d/*.sources /etc/apt/sources.list.d/*.list \
            | grep -o -E 'https?://[^ ]*/debian/?' | grep -v security | head -n1 || true)"
  MIRROR="${MIRROR:-http://deb.debian.org/debian}"
fi

# 1. The package.
echo "check-deb: building the package in $build"
# cpack builds what is out of date first, then installs the build into the package.
(cd "$build" && cpack -G DEB >/dev/null) || fail "cpack -G DEB failed in $build"
deb="$(ls -t "$build"/dreamrsi-workbench_*.deb | head -n1)"
[ -f "$deb" ] || fail "cpack wrote no dreamrsi-workbench_*.deb"
size=$(stat -c %s "$deb")
installed_kb=$(dpkg-deb -f "$deb" Installed-Size)
echo "check-deb: $(basename "$deb"): $((size / 1024)) KiB, $((installed_kb / 1024)) MiB installed"
# Before and after stripping, from this build: the binaries as built and as packaged.
built=$(stat -c %s "$build"/bin/dreamrsi "$build"/bin/dreamrsi-workbench "$build"/bin/dreamrsi-render \
  "$build"/lib/dreamrsi/dreamrsi-commands.so | awk '{s += $1} END {print s}')
packed=$(dpkg-deb -c "$deb" | awk '$6 ~ /^\.\/usr\/(bin\/|lib\/dreamrsi\/)/ {s += $3} END {print s}')
echo "check-deb: the three binaries and the commands' module: $((built / 1048576)) MiB as built, $((packed / 1048576)) MiB in the package"
echo "check-deb: Depends: $(dpkg-deb -f "$deb" Depends)"
echo "check-deb: Suggests: $(dpkg-deb -f "$deb" Suggests)"
# `dreamrsi serve` (docs/remote.md) needs the Qt HTTP Server library.
grep -q "libqt6httpserver6" <<<"$(dpkg-deb -f "$deb" Depends)" || fail "the package does not depend on libqt6httpserver6 (dreamrsi serve)"
# File ▸ Connect to Server… (views/remote) remembers tokens through QtKeychain.
grep -q "libqt6keychain1" <<<"$(dpkg-deb -f "$deb" Depends)" || fail "the package does not depend on libqt6keychain1 (Connect to Server…)"
for bin in bin/dreamrsi bin/dreamrsi-workbench bin/dreamrsi-render lib/dreamrsi/dreamrsi-commands.so; do
  dpkg-deb --fsys-tarfile "$deb" | tar -xO "./usr/$bin" > "/tmp/check-deb-$$-${bin##*/}" || fail "the package has no usr/$bin"
  if file "/tmp/check-deb-$$-${bin##*/}" | grep -q "not stripped"; then
    rm -f "/tmp/check-deb-$$-"*
    fail "usr/$bin is not stripped"
  fi
done
rm -f "/tmp/check-deb-$$-"*
# (The listing is read whole first: with pipefail, grep -q stopping early
# would make dpkg-deb's broken pipe fail the check.)
listing="$(dpkg-deb -c "$deb")"
grep -q "usr/share/icons/hicolor/.*/dreamrsi-workbench\." <<<"$listing" || fail "the package has no icon"
# The benchmarks are dreamrsi-bench's, built beside dreamrsi and never
# installed (docs/architecture.md): neither it nor a benchmark's usage is in
# the package.
! grep -q "dreamrsi-bench" <<<"$listing" || fail "the package holds dreamrsi-bench"
for bin in bin/dreamrsi bin/dreamrsi-render lib/dreamrsi/dreamrsi-commands.so; do
  if dpkg-deb --fsys-tarfile "$deb" | tar -xO "./usr/$bin" | grep -a -q "usage: dreamrsi bench "; then
    fail "usr/$bin holds a benchmark"
  fi
done

# 2. A fresh Debian 12 root.
root="$(mktemp -d /tmp/check-deb-root.XXXXXX)"
chmod 755 "$root" # it becomes /: mktemp's 0700 would keep every user but root out
cleanup() {
  if [ "${KEEP_ROOT:-0}" = 1 ]; then
    echo "check-deb: the root is kept in $root"
  else
    rm -rf --one-file-system "$root"
  fi
}
trap cleanup EXIT
echo "check-deb: debootstrap bookworm into $root from $MIRROR"
debootstrap --variant=minbase bookworm "$root" "$MIRROR" >"$root.log" 2>&1 || fail "debootstrap failed (see $root.log)"
rm -f "$root.log"
cp /etc/resolv.conf "$root/etc/resolv.conf"
# Runs a command with the root as / in new mount and pid namespaces. The root
# is pivoted to, not chrooted into: in a chroot the kernel refuses user
# namespaces, so bubblewrap (the evaluators' sandbox) would not work there
# as it does on a real system. The mounts end with the namespace.
in_root() {
  unshare --mount --pid --fork --propagation private /bin/sh -c '
    root="$1"; shift
    mount --rbind "$root" "$root" &&
    mount -t proc proc "$root/proc" &&
    mount --rbind /dev "$root/dev" &&
    mkdir -p "$root/.oldroot" && cd "$root" && pivot_root . .oldroot && umount -l /.oldroot &&
    exec /usr/sbin/chroot . /usr/bin/env -i HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 "$@"' \
    sh "$root" "$@"
}

# 3. The package and what it declares, nothing else.
cp "$deb" "$root/tmp/"
echo "check-deb: apt-get install ./$(basename "$deb")"
in_root /bin/sh -c "export DEBIAN_FRONTEND=noninteractive; apt-get update -qq && \
  apt-get install -y -qq --no-install-recommends /tmp/$(basename "$deb")" >"$root/tmp/apt.log" 2>&1 \
  || { tail -n 30 "$root/tmp/apt.log" >&2; fail "the package does not install"; }

# 4. One built-in round to a score, as a user (the sandbox drops root anyway).
in_root useradd -m checker
echo "check-deb: dreamrsi round --task circle_packing_26 --agent builtin --workers 2 --rounds 2"
set +e
in_root su checker -c "cd ~ && dreamrsi round --project round.dreamrsi --task circle_packing_26 --agent builtin \
  --workers 2 --rounds 2 --json" >"$root/tmp/round.json" 2>"$root/tmp/round.log"
rc=$?
set -e
echo "check-deb: round exit $rc: $(cat "$root/tmp/round.json")"
[ $rc -eq 0 ] || { tail -n 30 "$root/tmp/round.log" >&2; fail "the round failed"; }
grep -q '"best_score":[0-9-]' "$root/tmp/round.json" || { tail -n 30 "$root/tmp/round.log" >&2; fail "the round has no score"; }

# 4b. The round's tree replayed: with a built-in policy (run by the dreamrsi
# executable itself) and with the installed JavaScript twin of the same
# policy (run in /usr/lib/dreamrsi/dreamrsi-commands.so); both score it alike.
in_root su checker -c "cd ~ && dreamrsi export round.dreamrsi --iteration 1 -o tree.json" >"$root/tmp/export.log" 2>&1 \
  || { cat "$root/tmp/export.log" >&2; fail "the round's tree does not export"; }
for policy in builtin:portfolio /usr/share/dreamrsi/policies/portfolio.js; do
  in_root su checker -c "cd ~ && dreamrsi replay --world tree.json --policy $policy" >"$root/tmp/replay.txt" 2>&1 \
    || { cat "$root/tmp/replay.txt" >&2; fail "replay --policy $policy failed"; }
  echo "check-deb: replay --policy $policy: $(grep -E '^value' "$root/tmp/replay.txt")"
done

# 5. The demo, offscreen: it opens and stays up until it is stopped.
echo "check-deb: dreamrsi-workbench --demo (offscreen)"
set +e
in_root su checker -c "cd ~ && QT_QPA_PLATFORM=offscreen timeout 20 dreamrsi-workbench --demo" >"$root/tmp/demo.log" 2>&1
rc=$?
set -e
[ $rc -eq 124 ] || { cat "$root/tmp/demo.log" >&2; fail "the demo ended by itself (exit $rc)"; }
demo="$(ls "$root"/home/checker/.local/share/DreamRSI/dreamrsi-workbench/demo-*.dreamrsi 2>/dev/null | head -n1)"
[ -n "$demo" ] || { cat "$root/tmp/demo.log" >&2; fail "the demo project was not copied"; }
in_root su checker -c "dreamrsi ls '${demo#"$root"}'" >"$root/tmp/demo-ls.txt" 2>&1 \
  || { cat "$root/tmp/demo-ls.txt" >&2; fail "the demo project does not read back"; }
echo "check-deb: the demo opened (stayed up 20 s offscreen); dreamrsi ls reads it: $(head -n1 "$root/tmp/demo-ls.txt")"
echo "check-deb: OK"
