#!/usr/bin/env bash
# The GPU check (issue 14): on a machine with a CUDA GPU and PyTorch but no network and no Debian
# -dev packages, builds FairyZero against PyTorch's CUDA LibTorch, runs the CUDA tests (fp16
# against fp32 outputs, a mixed-precision training step, the server on the GPU), the throughput
# benchmarks for 10x128 and 20x256 networks at batch 256, 512 and 1024, and a short gpu-preset
# training run, and prints one summary (also written to $OUT/gpu-check.txt).
#
# The libraries the build needs come along from a Debian 12 machine, in two steps:
#   1. there, with network (no root needed):   scripts/gpu-check.sh prepare
#      `apt-get download`s the packages below and the shared libraries libhdf5 loads, unpacks
#      them with `dpkg -x`, and keeps only headers, CMake files and the shared libraries in
#      .gpu-deps/ (git-ignored, about 35 MiB; a device run may carry 64 MiB in all);
#   2. on the GPU machine, with .gpu-deps/ carried along (device tool: carry [".gpu-deps"]):
#      scripts/gpu-check.sh run
# Settings (environment): GPU_CHECK_TRAIN_SECONDS (the training run, default 300), OUT (results,
# default build-gpu/results), GPU_CHECK_JOBS (build jobs, default the CPU count).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DEPS="$ROOT/.gpu-deps"
ARCH_LIB="usr/lib/x86_64-linux-gnu"
PACKAGES=(
  libtomlplusplus-dev libtomlplusplus3 libcli11-dev nlohmann-json3-dev libeigen3-dev
  libhdf5-dev libhdf5-103-1 libgtest-dev libgmock-dev libgloo-dev
)

log() { echo "[gpu-check] $*"; }

prepare() {
  local work
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' RETURN
  local packages=("${PACKAGES[@]}")
  # libhdf5's own dependencies (libcurl, libsz, ...), found from the installed library; glibc
  # stays the GPU machine's.
  local hdf5="/$ARCH_LIB/libhdf5_serial.so"
  [[ -e "$hdf5" ]] || { log "error: $hdf5 missing; run scripts/install-deps.sh first" >&2; exit 1; }
  local lib package
  for lib in $(ldd "$hdf5" | awk '/=>/ {print $3}'); do
    package="$(dpkg -S "*/$(basename "$lib")" 2>/dev/null | head -1 | cut -d: -f1)"
    [[ -z "$package" || "$package" == libc6* ]] && continue
    packages+=("$package")
  done
  mapfile -t packages < <(printf '%s\n' "${packages[@]}" | sort -u)
  log "downloading ${#packages[@]} packages: ${packages[*]}"
  (cd "$work" && apt-get download "${packages[@]}" >/dev/null)
  rm -rf "$DEPS"
  mkdir -p "$DEPS"
  local deb
  for deb in "$work"/*.deb; do dpkg -x "$deb" "$work/root"; done
  # Headers, CMake and pkg-config files, libraries; no binaries (h5cc would name /usr paths),
  # no documentation.
  (cd "$work/root" && find usr/include usr/lib usr/share/cmake* usr/share/eigen3 \
    usr/share/pkgconfig \( -type f -o -type l \) 2>/dev/null |
    grep -v -e '/doc/' -e '/man/' -e '\.la$' -E -e 'fortran|hdf5_cpp|hdf5_serial_cpp|_hl|hl_' |
    grep -v -E '/lib[^/]*\.a$' | tar -cf - -T - | tar -xf - -C "$DEPS")
  # GoogleTest is static only: its archives come back.
  (cd "$work/root" && find usr/lib -name 'libg[tm]*.a' | tar -cf - -T - | tar -xf - -C "$DEPS")
  log "wrote $DEPS ($(du -sh "$DEPS" | cut -f1)); carry it to the GPU machine with the tree"
}

run() {
  [[ -d "$DEPS" ]] || { log "error: $DEPS missing: run 'scripts/gpu-check.sh prepare' on Debian and carry it" >&2; exit 1; }
  local out="${OUT:-$ROOT/build-gpu/results}" build="$ROOT/build-gpu"
  local jobs="${GPU_CHECK_JOBS:-$(nproc)}" train_seconds="${GPU_CHECK_TRAIN_SECONDS:-300}"
  mkdir -p "$out"
  local summary="$out/gpu-check.txt"
  : >"$summary"
  note() { echo "$*" | tee -a "$summary"; }

  command -v nvidia-smi >/dev/null && note "$(nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader)"
  local torch_prefix
  torch_prefix="$(python3 -c 'import torch; print(torch.utils.cmake_prefix_path)' 2>/dev/null)" ||
    { log "error: python3 cannot import torch: run this on the GPU machine, with PyTorch" >&2; exit 1; }
  note "torch $(python3 -c 'import torch; print(torch.__version__, "cuda", torch.version.cuda)')"
  export LD_LIBRARY_PATH="$DEPS/$ARCH_LIB:$DEPS/$ARCH_LIB/hdf5/serial:${LD_LIBRARY_PATH:-}"
  local generator=()
  command -v ninja >/dev/null && generator=(-G Ninja)

  log "configuring against $torch_prefix"
  cmake -S "$ROOT" -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_PREFIX_PATH="$torch_prefix;$DEPS/usr;$DEPS/$ARCH_LIB/cmake" \
    -DHDF5_NO_FIND_PACKAGE_CONFIG_FILE=ON \
    -DHDF5_C_INCLUDE_DIR="$DEPS/usr/include/hdf5/serial" \
    -DHDF5_C_LIBRARY_hdf5="$DEPS/$ARCH_LIB/hdf5/serial/libhdf5.so" \
    -DCMAKE_BUILD_RPATH="$DEPS/$ARCH_LIB;$DEPS/$ARCH_LIB/hdf5/serial" \
    -DEigen3_DIR="$DEPS/usr/share/eigen3/cmake" >"$out/configure.log" 2>&1 ||
    { tail -30 "$out/configure.log"; exit 1; }
  log "building with $jobs jobs"
  local started=$SECONDS
  cmake --build "$build" -j "$jobs" --target nn_tests mcts_tests learn_tests inference_bench \
    selfplay_bench fairyzero >"$out/build.log" 2>&1 || { tail -40 "$out/build.log"; exit 1; }
  note "build: $((SECONDS - started)) s"

  # CUDA tests: the prepared network in fp16/bf16 against fp32 and the packed path through a
  # server, a mixed-precision training step, the server on the GPU.
  local status=0
  "$build/tests/nn/nn_tests" --gtest_filter='*Cuda*:*Prepared*:*Staged*:InferenceServer.*' \
    >"$out/nn_tests.log" 2>&1 || status=1
  "$build/tests/training/learn_tests" --gtest_filter='*MixedPrecision*:*Learns*:DataParallel.*' \
    >"$out/learn_tests.log" 2>&1 || status=1
  "$build/tests/mcts/mcts_tests" >"$out/mcts_tests.log" 2>&1 || status=1
  note "tests: $(grep -h -E '^\[  (PASSED|FAILED|SKIPPED) ' "$out"/*_tests.log | sort | uniq -c | tr '\n' ';')"

  # Throughput: the prepared network's bare fp16 forward and self-play through the servers.
  local shape blocks filters batch
  for shape in 10x128 20x256; do
    blocks="${shape%x*}" filters="${shape#*x}"
    for batch in 256 512 1024; do
      "$build/bench/nn/inference_bench" --device cuda --precision fp16 --blocks "$blocks" \
        --filters "$filters" --batch "$batch" --seconds 3 >"$out/inference-$shape-$batch.txt" 2>&1 || true
      local forward
      forward="$(awk '/prepared network forward/ {print $(NF-2)}' "$out/inference-$shape-$batch.txt")"
      # About four batches of leaves in flight, a core left for the server threads.
      local workers=$(( $(nproc) > 4 ? $(nproc) - 2 : 2 ))
      "$build/bench/selfplay_bench" --device cuda --blocks "$blocks" --filters "$filters" \
        --max-batch "$batch" --workers "$workers" --games-per-worker $(( batch / workers + 1 )) \
        --games 256 --leaves 4 --playouts 100 \
        >"$out/selfplay-$shape-$batch.txt" 2>&1 || true
      note "$shape batch $batch: fp16 forward ${forward:-?}/s; self-play $(tail -1 "$out/selfplay-$shape-$batch.txt")"
    done
  done

  # A short run of the gpu preset: positions/s and samples/s from its progress lines.
  timeout "$train_seconds" "$build/apps/fairyzero" train chess --config "$ROOT/configs/train/gpu.toml" \
    --out "$out/gpu-run" >"$out/gpu-run.log" 2>&1 || true
  note "gpu preset, $train_seconds s: $(grep 'self-play' "$out/gpu-run.log" | tail -1)"
  note "summary in $summary"
  return $status
}

case "${1:-}" in
  prepare) prepare ;;
  run) run ;;
  *) echo "usage: scripts/gpu-check.sh prepare|run (see the comments at the top)" >&2; exit 2 ;;
esac
