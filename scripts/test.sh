#!/usr/bin/env bash
# Installs dependencies, configures and builds FairyZero (Release) in build/ and runs ctest;
# then the torch-free tier twice more, under AddressSanitizer+UndefinedBehaviorSanitizer
# (build-asan/, every torch-free test) and ThreadSanitizer (build-tsan/, the threaded suites:
# search, inference server, game runner, arena, balance). FAIRYZERO_SANITIZER_PASSES=0 skips
# those two. Exits non-zero when any pass fails.
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

if [[ "${FAIRYZERO_SANITIZER_PASSES:-1}" == "1" ]]; then
  # -O1: sanitizer builds compile faster and still find what they find at -O2.
  tier=(-DFAIRYZERO_WITH_TORCH=OFF -DCMAKE_BUILD_TYPE=Release "-DCMAKE_CXX_FLAGS_RELEASE=-O1 -DNDEBUG")
  export FAIRYZERO_FUZZ_SCALE=0.25
  # Every torch-free suite under ASan+UBSan (format is checked once, above).
  echo "[test] torch-free tier with AddressSanitizer+UndefinedBehaviorSanitizer in build-asan/"
  [[ -f build-asan/CMakeCache.txt ]] || cmake -S . -B build-asan "${generator[@]}" "${tier[@]}" \
    -DFAIRYZERO_SANITIZE=ON
  cmake --build build-asan -j "${jobs}"
  ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
    ctest --test-dir build-asan --output-on-failure -j "${jobs}" -E '^format$' || status=$?
  echo "[test] after the ASan+UBSan pass: ${status}"

  # The threaded suites under TSan; core_tests is single-threaded and left out.
  echo "[test] torch-free tier with ThreadSanitizer in build-tsan/"
  [[ -f build-tsan/CMakeCache.txt ]] || cmake -S . -B build-tsan "${generator[@]}" "${tier[@]}" \
    -DFAIRYZERO_THREAD_SANITIZER=ON
  threaded=(mcts_tests play_tests arena_tests balance_tests)
  cmake --build build-tsan -j "${jobs}" --target "${threaded[@]}"
  for suite in mcts/mcts_tests training/play_tests training/arena_tests training/balance_tests; do
    TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1" "build-tsan/tests/${suite}" \
      --gtest_brief=1 || status=$?
  done
  echo "[test] after the TSan pass: ${status}"
fi
exit "${status}"
