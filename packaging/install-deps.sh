#!/usr/bin/env bash
# Installs the Debian 12 packages the workbench needs to build, test and run.
# Idempotent: packages already present are skipped, apt is only touched when
# something is missing. Run as root or with sudo available.
set -euo pipefail

PACKAGES=(
  build-essential cmake ninja-build ccache pkg-config git lld
  qt6-base-dev qt6-base-dev-tools qt6-charts-dev qt6-declarative-dev qt6-svg-dev
  qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools libqt6sql6-sqlite
  libgl-dev libvulkan-dev
  libqcustomplot-dev libsqlite3-dev sqlite3 libeigen3-dev libdtl-dev
  bubblewrap xvfb xauth x11-apps imagemagick
  python3 python3-numpy python3-scipy
  python3-sklearn
  qt6-qpa-plugins fonts-dejavu-core fonts-noto-cjk
  libsimdjson-dev
  qt6-httpserver-dev libqt6httpserver6 qt6-websockets-dev
  qtkeychain-qt6-dev libqt6keychain1
  slurm-wlm munge
)

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#PACKAGES[@]} packages present"
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
