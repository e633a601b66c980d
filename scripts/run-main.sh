#!/usr/bin/env bash
# Installs dependencies, builds FairyZero (Release) in build/, then runs a couple of the
# fairyzero app's subcommands as a smoke demonstration.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
jobs="$(nproc)"

bash scripts/install-deps.sh

generator=(-G Ninja)
if ! command -v ninja >/dev/null 2>&1; then
  generator=(-G "Unix Makefiles")
fi
if [[ -f build/CMakeCache.txt ]]; then
  generator=()
fi
cmake -S . -B build "${generator[@]}" -DCMAKE_BUILD_TYPE=Release
cmake --build build -j "${jobs}"

run() {
  echo "[run-main] $*"
  "$@"
}
# The main job until the training loop lands: prove the rules core on the default variant
# (chess) and on Very Heavy Chess, then play one game of random legal moves.
run build/apps/fairyzero perft chess 5
run build/apps/fairyzero perft very-heavy-chess 4
run build/apps/fairyzero random-game chess --seed 1
