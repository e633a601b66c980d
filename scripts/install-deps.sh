#!/usr/bin/env bash
# Installs FairyZero's Debian 12 build, test and plotting dependencies with apt-get; idempotent,
# and when everything is already installed it does not touch apt at all (fast, works offline).
set -euo pipefail

PACKAGES=(
  build-essential cmake ninja-build pkg-config clang-format git
  libtomlplusplus-dev libcli11-dev nlohmann-json3-dev libgtest-dev libgmock-dev libtorch-dev
  libeigen3-dev libhdf5-dev libgloo-dev libcpp-httplib-dev
  fairy-stockfish
  python3 python3-matplotlib python3-h5py python3-numpy
  chromium chromium-driver python3-selenium
)

log() { echo "[install-deps] $*"; }

if [[ "${FAIRYZERO_SKIP_DEPS:-0}" == "1" ]]; then
  log "FAIRYZERO_SKIP_DEPS=1: not checking or installing packages"
  exit 0
fi

is_installed() {
  local status
  status="$(dpkg-query -W -f='${db:Status-Status}' "$1" 2>/dev/null || true)"
  [[ "$status" == "installed" ]]
}

missing=()
for package in "${PACKAGES[@]}"; do
  is_installed "$package" || missing+=("$package")
done

if [[ ${#missing[@]} -eq 0 ]]; then
  log "all ${#PACKAGES[@]} packages already installed; nothing to do"
  exit 0
fi
log "missing packages: ${missing[*]}"

if [[ "$(id -u)" -eq 0 ]]; then
  as_root=()
elif command -v sudo >/dev/null 2>&1; then
  as_root=(sudo)
  log "not root: using sudo"
else
  log "error: not root and sudo is not available; install as root: ${missing[*]}" >&2
  exit 1
fi

apt_get() {
  log "running: apt-get $*"
  "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get "$@"
}

# Refresh the package lists only when some missing package has no install candidate (lists
# absent or too old); if installing from the existing lists fails anyway, refresh and retry once.
needs_update=0
for package in "${missing[@]}"; do
  candidate="$(apt-cache policy "$package" 2>/dev/null | awk '/Candidate:/ {print $2}')"
  if [[ -z "$candidate" || "$candidate" == "(none)" ]]; then
    needs_update=1
    break
  fi
done

install_args=(install -y --no-install-recommends "${missing[@]}")
if [[ $needs_update -eq 1 ]]; then
  apt_get update
  apt_get "${install_args[@]}"
elif ! apt_get "${install_args[@]}"; then
  log "install from current package lists failed; refreshing them and retrying"
  apt_get update
  apt_get "${install_args[@]}"
fi

still_missing=()
for package in "${missing[@]}"; do
  is_installed "$package" || still_missing+=("$package")
done
if [[ ${#still_missing[@]} -ne 0 ]]; then
  log "error: still not installed: ${still_missing[*]}" >&2
  exit 1
fi
log "installed: ${missing[*]}"
