#!/usr/bin/env bash
# Starts a one-node Slurm on this machine (Debian's slurm-wlm and munge), submits the two launch
# files as a cluster user would (scripts/slurm/train.sbatch, scripts/slurm/selfplay.sbatch as an
# array of 2), and checks that the run advances: generations trained from samples that the
# array's workers published. Then it cancels what is left and stops the daemons. Needs root
# (it starts munged, slurmctld and slurmd); not part of CI. docs/DISTRIBUTED.md records a run.
#
#   sudo scripts/slurm/local-slurm-check.sh [GENERATIONS]
set -euo pipefail
generations=${1:-3}
repo=$(cd "$(dirname "$0")/../.." && pwd)
fairyzero=${FAIRYZERO:-$repo/build/apps/fairyzero}
work=${WORK:-/tmp/fairyzero-slurm}
log() { echo "[local-slurm $(date +%H:%M:%S)] $*"; }

[[ -x "$fairyzero" ]] || { echo "no $fairyzero: build first"; exit 1; }
if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
  apt-get install -y slurm-wlm munge
fi
rm -rf "$work"
mkdir -p "$work"/{state,spool,log,jobs}
host=$(hostname -s)
cpus=$(nproc)
memory=$(( $(awk '/MemTotal/ {print $2}' /proc/meminfo) / 1024 - 1024 ))

# munge: a key if the package left none, then the daemon (its own user, as packaged).
[[ -f /etc/munge/munge.key ]] || mungekey --create
mkdir -p /run/munge && chown munge:munge /run/munge
pgrep -x munged >/dev/null || su -s /bin/sh munge -c /usr/sbin/munged

cat >"$work/slurm.conf" <<CONF
ClusterName=fairyzero-check
SlurmctldHost=$host
AuthType=auth/munge
SlurmUser=root
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
ReturnToService=2
MpiDefault=none
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/log/slurmctld.log
SlurmdLogFile=$work/log/slurmd.log
NodeName=$host CPUs=$cpus RealMemory=$memory State=UNKNOWN
PartitionName=check Nodes=$host Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE:4
CONF
export SLURM_CONF=$work/slurm.conf
stop_daemons() {
  scancel --user=root 2>/dev/null || true
  sleep 1
  [[ -f $work/slurmd.pid ]] && kill "$(cat "$work/slurmd.pid")" 2>/dev/null || true
  [[ -f $work/slurmctld.pid ]] && kill "$(cat "$work/slurmctld.pid")" 2>/dev/null || true
}
trap stop_daemons EXIT
slurmctld -f "$SLURM_CONF"
slurmd -f "$SLURM_CONF"
for _ in $(seq 60); do
  sinfo -h -o %T 2>/dev/null | grep -qE "idle|mixed" && break
  sleep 1
done
log "slurm up: $(sinfo -h -o '%P %D %T %C')"

# A tiny run, so that generations come in minutes on a laptop CPU.
cat >"$work/check.toml" <<CONF
[run]
generations = $generations
seed = 3
[network]
blocks = 1
filters = 16
policy_dim = 8
value_hidden = 32
[selfplay]
games = 4
workers = 1
games_per_worker = 4
full_playouts = 24
fast_playouts = 8
max_plies = 80
[training]
window = 5000
steps_per_generation = 60
batch_size = 64
reuse = 2
CONF
run_dir=$work/run
# This node has no GPU: the trainer's launch file as shipped, less its GPU request.
grep -v -- "--gpus-per-task" "$repo/scripts/slurm/train.sbatch" >"$work/train-cpu.sbatch"
cd "$work/jobs"
export FAIRYZERO=$fairyzero
trainer=$(VARIANT=minichess CONFIG=$work/check.toml DEVICE=cpu \
  sbatch --parsable --cpus-per-task=1 --mem=2G "$work/train-cpu.sbatch" "$run_dir")
workers=$(DEVICE=cpu GAMES_PER_FILE=2 sbatch --parsable --array=0-1 --cpus-per-task=1 --mem=2G \
  "$repo/scripts/slurm/selfplay.sbatch" "$run_dir")
log "submitted trainer job $trainer and worker array $workers"

deadline=$((SECONDS + ${TIMEOUT:-900}))
interrupted=0
while squeue -h -j "$trainer" 2>/dev/null | grep -q .; do
  (( SECONDS < deadline )) || { log "timed out"; break; }
  sleep 10
  files=$(find "$run_dir/samples" -name 'gen-*-w*.h5' 2>/dev/null | wc -l)
  newest=$(ls "$run_dir/checkpoints" 2>/dev/null | grep -E '^gen-[0-9]+\.pt$' | tail -n 1 || true)
  log "queue: $(squeue -h -o '%i:%T' | tr '\n' ' ')| $files files published, newest ${newest:-none}"
  # Once the run has a trained generation, stop worker 0 as a time limit or preemption would
  # (SIGTERM to its step): it finishes its file, exits 75, and its task is requeued.
  if [[ $interrupted == 0 && "$newest" > "gen-0000.pt" ]]; then
    log "SIGTERM to worker task ${workers}_0"
    scancel --signal=TERM "${workers}_0" || true
    interrupted=1
  fi
  # A requeued job waits (Slurm sets its begin time ahead); let it start now.
  if [[ $interrupted == 1 ]] && squeue -h -j "${workers}_0" -o %T | grep -q PENDING; then
    scontrol update JobId="${workers}_0" StartTime=now || true
  fi
done
sleep 15  # the workers see the last generation and end
log "trainer job: $(sacct -n -j "$trainer" -o State 2>/dev/null | head -n 1 || true)"
log "jobs left: $(squeue -h -o '%i:%T' | tr '\n' ' ')"
echo "--- trainer output"
tail -n 8 "$work/jobs/fairyzero-train-$trainer.out" || true
for w in 0 1; do
  echo "--- worker $w output"
  grep -E "^worker|SIGTERM|stopped|requeueing|from file" "$work/jobs/fairyzero-selfplay-${workers}_$w.out" || true
  tail -n 2 "$work/jobs/fairyzero-selfplay-${workers}_$w.out" || true
done
ok=1
grep -q "requeueing" "$work/jobs/fairyzero-selfplay-${workers}_0.out" || { log "worker 0 was not requeued"; ok=0; }
grep -qE "from file [1-9][0-9]* on" "$work/jobs/fairyzero-selfplay-${workers}_0.out" ||
  { log "the requeued worker 0 did not go on from its own files"; ok=0; }
[[ -f "$run_dir/checkpoints/$(printf 'gen-%04d.pt' "$generations")" ]] || ok=0
for w in 0 1; do
  ls "$run_dir/samples"/gen-*-w$w-*.h5 >/dev/null 2>&1 || ok=0
done
if [[ $ok == 1 ]]; then
  log "PASS: the run reached generation $generations on samples from workers 0 and 1"
else
  log "FAIL: the run did not advance as expected (logs in $work)"
  exit 1
fi
