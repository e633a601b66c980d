#!/usr/bin/env bash
# Published samples per second of external self-play with 1, 2, ... worker processes (each
# beside a `train --selfplay external` trainer, as on a cluster), and of the single-process
# `fairyzero train` on the same settings, each for the same wall time on this machine. The
# figures go to docs/BENCHMARKS.md.
#
#   bench/cluster_throughput.sh [SECONDS] [WORKERS...]      (default: 150 s, workers 1 2)
#
# Environment: FAIRYZERO (default build/apps/fairyzero), VARIANT (default minichess), CONFIG
# (default configs/train/tiny.toml), GAMES_PER_FILE (default 8).
set -euo pipefail
seconds=${1:-150}
shift || true
counts=("$@")
[[ ${#counts[@]} -gt 0 ]] || counts=(1 2)
fairyzero=${FAIRYZERO:-build/apps/fairyzero}
variant=${VARIANT:-minichess}
config=${CONFIG:-configs/train/tiny.toml}
per_file=${GAMES_PER_FILE:-8}
python=/usr/bin/python3
[[ -x $python ]] || python=python3
work=$(mktemp -d)
trap 'pkill -P $$ 2>/dev/null || true; rm -rf "$work"' EXIT

# Samples in the run's sample files written within `seconds` of `start` (epoch seconds).
count_samples() {
  "$python" - "$1" "$2" "$3" <<'PY'
import glob, os, sys, h5py
run, start, seconds = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
total = 0
for path in glob.glob(os.path.join(run, "samples", "*.h5")):
    if os.path.getmtime(path) <= start + seconds:
        with h5py.File(path, "r") as f:
            total += int(f.attrs["samples"])
print(total)
PY
}

echo "variant $variant, config $config, $seconds s per measurement, $(nproc) cores"
# The single process: its own self-play and training, generation after generation.
run="$work/single"
start=$(date +%s.%N)
timeout "$seconds" "$fairyzero" train "$variant" --config "$config" --out "$run" \
  --generations 1000 >"$work/single.log" 2>&1 || true
single=$(count_samples "$run" "$start" "$seconds")
# Its rate while it plays (selfplay.csv: samples and seconds of each finished generation).
playing=$(awk -F, 'NR > 1 { n += $4; s += $5 } END { printf "%.1f", (s > 0 ? n / s : 0) }' \
  "$run/selfplay.csv" 2>/dev/null || echo 0)
printf "single-process train: %6d samples in %d s = %7.1f samples/s (%s/s while it plays)\n" \
  "$single" "$seconds" "$(awk "BEGIN { print $single / $seconds }")" "$playing"

for n in "${counts[@]}"; do
  run="$work/external-$n"
  "$fairyzero" train "$variant" --config "$config" --out "$run" --selfplay external \
    --generations 1000 >"$work/trainer-$n.log" 2>&1 &
  trainer=$!
  while [[ ! -f "$run/checkpoints/gen-0000.pt" ]]; do sleep 0.2; done
  start=$(date +%s.%N)
  pids=()
  for ((w = 0; w < n; w++)); do
    timeout "$seconds" "$fairyzero" selfplay "$run" --worker "$w" --games-per-file "$per_file" \
      >"$work/worker-$n-$w.log" 2>&1 &
    pids+=($!)
  done
  for pid in "${pids[@]}"; do wait "$pid" || true; done
  kill "$trainer" 2>/dev/null || true
  wait "$trainer" 2>/dev/null || true
  published=$(count_samples "$run" "$start" "$seconds")
  generations=$(ls "$run/checkpoints" | grep -cE '^gen-[0-9]+\.pt$')
  printf "%d worker process(es):  %6d samples in %d s = %7.1f samples/s (trainer reached gen %d)\n" \
    "$n" "$published" "$seconds" "$(awk "BEGIN { print $published / $seconds }")" \
    "$((generations - 1))"
done
