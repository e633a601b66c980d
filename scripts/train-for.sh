#!/usr/bin/env bash
# Trains a run for a wall-clock budget on this machine, using every core: an external trainer
# and WORKERS `selfplay` processes beside it (docs/DISTRIBUTED.md; on the CPU one process keeps
# about one core busy in self-play), or one `train` process when WORKERS is 0. The trainer
# stops itself once the run has trained MINUTES in all (`train --minutes`: the learning rate
# anneals over them); a run folder that exists is resumed up to that total.
# Used by bench/strength.sh and scripts/study.sh.
#
#   scripts/train-for.sh MINUTES VARIANT CONFIG RUN_DIR [TRAIN OPTIONS...]   (e.g. --set K=V)
#
# Environment: WORKERS (default 2), FAIRYZERO (default build/apps/fairyzero). Logs go to
# RUN_DIR.log and RUN_DIR.worker-N.log.
set -euo pipefail
(($# >= 4)) || { sed -n 2,12p "$0"; exit 2; }
minutes=$1 variant=$2 config=$3 run=$4
shift 4
fairyzero=${FAIRYZERO:-build/apps/fairyzero}
workers=${WORKERS:-2}
train=("$fairyzero" train "$variant" --config "$config" --out "$run" --generations 100000
  --minutes "$minutes" "$@")
if ((workers == 0)); then
  "${train[@]}" >"$run.log" 2>&1
  exit 0
fi
"${train[@]}" --selfplay external >"$run.log" 2>&1 &
trainer=$!
pids=()
for ((w = 0; w < workers; w++)); do
  "$fairyzero" selfplay "$run" --worker "$w" >"$run.worker-$w.log" 2>&1 &
  pids+=($!)
done
trap 'kill -TERM "$trainer" "${pids[@]}" 2>/dev/null || true' EXIT
status=0
wait "$trainer" || status=$?
kill -TERM "${pids[@]}" 2>/dev/null || true
wait "${pids[@]}" 2>/dev/null || true
trap - EXIT
((status == 0)) || { echo "the trainer failed (exit $status): see $run.log" >&2; exit "$status"; }
