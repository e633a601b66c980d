#!/usr/bin/env bash
# Trains a run for a fixed wall-clock budget on this machine, using every core: an external
# trainer and WORKERS `selfplay` processes beside it (docs/DISTRIBUTED.md; on the CPU one
# process keeps about one core busy in self-play), or one `train` process when WORKERS is 0.
# A run folder that exists is resumed. Used by bench/strength.sh and scripts/study.sh.
#
#   scripts/train-for.sh MINUTES VARIANT CONFIG RUN_DIR [TRAIN OPTIONS...]   (e.g. --set K=V)
#
# Environment: WORKERS (default 2), FAIRYZERO (default build/apps/fairyzero). Logs go to
# RUN_DIR.log and RUN_DIR.worker-N.log.
set -euo pipefail
(($# >= 4)) || { sed -n 2,10p "$0"; exit 2; }
minutes=$1 variant=$2 config=$3 run=$4
shift 4
fairyzero=${FAIRYZERO:-build/apps/fairyzero}
workers=${WORKERS:-2}
if ((workers == 0)); then
  timeout "$((minutes * 60))" "$fairyzero" train "$variant" --config "$config" --out "$run" \
    --generations 100000 "$@" >"$run.log" 2>&1 || true
  exit 0
fi
pids=()
"$fairyzero" train "$variant" --config "$config" --out "$run" --generations 100000 \
  --selfplay external "$@" >"$run.log" 2>&1 &
pids+=($!)
for ((w = 0; w < workers; w++)); do
  "$fairyzero" selfplay "$run" --worker "$w" >"$run.worker-$w.log" 2>&1 &
  pids+=($!)
done
trap 'kill -TERM "${pids[@]}" 2>/dev/null || true' EXIT
sleep "$((minutes * 60))"
kill -TERM "${pids[@]}" 2>/dev/null || true
wait "${pids[@]}" 2>/dev/null || true
trap - EXIT
