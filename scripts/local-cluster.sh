#!/usr/bin/env bash
# A run's trainer and N self-play workers as separate processes on this machine, sharing the
# run folder exactly as a cluster's nodes do (docs/DISTRIBUTED.md): the same commands, without
# a scheduler. Ctrl-C stops them all (workers finish or discard the file in progress).
#
#   scripts/local-cluster.sh N [RUN_DIR] [VARIANT] [CONFIG]
#   scripts/local-cluster.sh 2 runs/mini-cluster minichess configs/train/tiny.toml
#
# Logs: RUN_DIR/logs/trainer.log and RUN_DIR/logs/worker-ID.log. Environment: FAIRYZERO (the
# binary, default build/apps/fairyzero), DEVICE (default cpu), RANKS (trainer ranks, default 1).
set -euo pipefail
workers=${1:?usage: scripts/local-cluster.sh N [RUN_DIR] [VARIANT] [CONFIG]}
run_dir=${2:-runs/local-cluster}
variant=${3:-minichess}
config=${4:-configs/train/tiny.toml}
fairyzero=${FAIRYZERO:-build/apps/fairyzero}
device=${DEVICE:-cpu}
ranks=${RANKS:-1}
[[ -x "$fairyzero" ]] || { echo "no $fairyzero: build first (README.md)"; exit 1; }

if [[ -f "$run_dir/config.toml" ]]; then
  train_args=(train "$run_dir")
else
  train_args=(train "$variant" --config "$config" --out "$run_dir")
fi
mkdir -p "$run_dir/logs"
pids=()
stop() {
  trap - INT TERM
  echo "stopping ${#pids[@]} processes"
  kill -TERM "${pids[@]}" 2>/dev/null || true
  wait || true
  exit 130
}
trap stop INT TERM

export MASTER_ADDR=127.0.0.1 MASTER_PORT=${MASTER_PORT:-$((29500 + RANDOM % 1000))}
for ((rank = 0; rank < ranks; rank++)); do
  log="$run_dir/logs/trainer.log"
  [[ $rank -gt 0 ]] && log="$run_dir/logs/trainer-rank$rank.log"
  RANK=$rank WORLD_SIZE=$ranks "$fairyzero" "${train_args[@]}" --selfplay external \
    --device "$device" >>"$log" 2>&1 &
  pids+=($!)
done
trainer=${pids[0]}
for ((w = 0; w < workers; w++)); do
  "$fairyzero" selfplay "$run_dir" --worker "$w" --device "$device" \
    >>"$run_dir/logs/worker-$w.log" 2>&1 &
  pids+=($!)
done
echo "trainer (pid $trainer, $ranks rank(s)) and $workers workers on $run_dir; logs in $run_dir/logs"

# Progress: the trainer's newest line every 10 s, until it ends.
while kill -0 "$trainer" 2>/dev/null; do
  sleep 10
  line=$(grep -E "^generation|waiting|resuming|new run" "$run_dir/logs/trainer.log" | tail -n 1 || true)
  files=$(find "$run_dir/samples" -name 'gen-*-w*.h5' 2>/dev/null | wc -l)
  echo "[$(date +%H:%M:%S)] $files files published; trainer: ${line:-starting}"
done
status=0
wait "$trainer" || status=$?
for pid in "${pids[@]:1}"; do wait "$pid" || true; done
tail -n 2 "$run_dir/logs/trainer.log"
exit $status
