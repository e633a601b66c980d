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
# The main job: a short training run (the tiny preset) on minichess, the default variant for
# learning checks. It finishes in a few minutes on a laptop CPU; rerunning it resumes (or, when
# finished, says so). Then it describes the final checkpoint.
run build/apps/fairyzero train minichess --config configs/train/tiny.toml --out runs/tiny
run build/apps/fairyzero network-info runs/tiny/checkpoints/gen-0006.pt
echo "[run-main] learning curves: runs/tiny/learning_curves.png; play it with:"
echo "[run-main]   build/apps/fairyzero play minichess --bot runs/tiny/checkpoints/gen-0006.pt"
