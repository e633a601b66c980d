#!/usr/bin/env bash
# Installs dependencies, configures and builds FairyZero (Release) in build/, and runs ctest;
# exits with ctest's status.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
jobs="$(nproc)"

bash scripts/install-deps.sh

generator=(-G Ninja)
if ! command -v ninja >/dev/null 2>&1; then
  echo "[test] ninja not found; using Unix Makefiles"
  generator=(-G "Unix Makefiles")
fi
# An existing build/ keeps its generator; CMake refuses to switch it.
if [[ -f build/CMakeCache.txt ]]; then
  generator=()
fi

echo "[test] configuring build/"
cmake -S . -B build "${generator[@]}" -DCMAKE_BUILD_TYPE=Release
echo "[test] building with ${jobs} jobs"
cmake --build build -j "${jobs}"

echo "[test] running ctest"
status=0
ctest --test-dir build --output-on-failure -j "${jobs}" || status=$?
echo "[test] ctest exit status: ${status}"
exit "${status}"
