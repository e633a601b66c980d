#!/usr/bin/env python3
"""A run across processes on localhost, as on a cluster: a trainer (`train --selfplay external`)
and three `selfplay` workers for three generations; one worker is killed with SIGKILL in the
middle of a file and restarted, the trainer is killed once and restarted, a worker is stopped
with SIGTERM. Checks: every (worker, SEQ) is published once and no file repeats another's games,
every game a worker logged as published is in exactly one file, temporaries are never read (old
ones are swept), the run ends at its last generation, and a second trainer, a duplicate worker
ID and a worker for other rules are refused.

Usage: cluster_run.py path/to/fairyzero
"""
import glob
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

import h5py

BIN = os.path.abspath(sys.argv[1])
WORK = tempfile.mkdtemp(prefix="fairyzero_cluster_run_")
RUN = os.path.join(WORK, "run")
CONFIG = os.path.join(WORK, "cluster.toml")
GENERATIONS = 3
processes = []


def fail(message, *logs):
    print("FAIL: " + message)
    for log in logs:
        print("--- " + log)
        with open(log) as f:
            print("".join(f.readlines()[-25:]))
    for p in processes:
        if p.poll() is None:
            p.kill()
    sys.exit(1)


def start(name, *args):
    log = os.path.join(WORK, name + ".log")
    out = open(log, "a")
    p = subprocess.Popen([BIN, *args], stdout=out, stderr=subprocess.STDOUT)
    p.log = log
    processes.append(p)
    return p


def text(log):
    with open(log) as f:
        return f.read()


def wait_for(condition, what, seconds=240, *logs):
    deadline = time.time() + seconds
    while time.time() < deadline:
        if condition():
            return
        time.sleep(0.1)
    fail("timed out waiting for " + what, *logs)


def refused(args, expected):
    result = subprocess.run([BIN, *args], capture_output=True, text=True, timeout=60)
    output = result.stdout + result.stderr
    if result.returncode == 0 or expected not in output:
        print(output)
        fail("not refused as expected ('%s'): %s" % (expected, " ".join(args)))


with open(CONFIG, "w") as f:
    f.write("""[run]
generations = %d
seed = 5
[network]
blocks = 1
filters = 8
policy_dim = 8
value_hidden = 16
[selfplay]
games = 2
workers = 1
games_per_worker = 2
full_playouts = 16
fast_playouts = 8
max_plies = 60
[training]
window = 4000
steps_per_generation = 10
batch_size = 32
reuse = 2
metrics_every = 5
""" % GENERATIONS)

try:
    trainer = start("trainer-1", "train", "minichess", "--config", CONFIG, "--out", RUN,
                    "--selfplay", "external")
    wait_for(lambda: os.path.exists(os.path.join(RUN, "checkpoints", "gen-0000.pt")),
             "the first checkpoint", 120, trainer.log)
    refused(["train", RUN, "--selfplay", "external"], "is held by process %d" % trainer.pid)

    # Temporaries as a killed writer leaves them: an old one (swept) and a fresh one (left, and
    # never read: its contents are not HDF5, so reading it would print a warning).
    samples = os.path.join(RUN, "samples")
    os.makedirs(samples, exist_ok=True)
    old = os.path.join(samples, "gen-0000-w9-000000.h5.tmp-gone-1-0")
    fresh = os.path.join(samples, "gen-0000-w9-000001.h5.tmp-busy-2-0")
    for path in (old, fresh):
        with open(path, "w") as f:
            f.write("half a file")
    os.utime(old, (time.time() - 7200, time.time() - 7200))

    workers = {w: start("worker-%d" % w, "selfplay", RUN, "--worker", str(w),
                        "--games-per-file", "2") for w in (1, 2, 3)}
    wait_for(lambda: "published" in text(workers[1].log), "worker 1's first file", 120,
             workers[1].log)
    refused(["selfplay", RUN, "--worker", "1"], "is held by process %d" % workers[1].pid)
    refused(["selfplay", RUN, "--worker", "7", "--variant", "chess"], "is a run of other rules")

    # Worker 2: SIGKILL while it plays a file (after its second), then a restart.
    wait_for(lambda: text(workers[2].log).count("published") >= 2, "worker 2's files", 120,
             workers[2].log)
    time.sleep(0.05)
    workers[2].send_signal(signal.SIGKILL)
    workers[2].wait()
    before = max(int(re.search(r"-w2-(\d+)\.h5", p).group(1))
                 for p in glob.glob(os.path.join(samples, "gen-*-w2-*.h5")))
    workers[2] = start("worker-2", "selfplay", RUN, "--worker", "2", "--games-per-file", "2")
    wait_for(lambda: "from file %d on" % (before + 1) in text(workers[2].log),
             "the restarted worker 2 to go on from file %d" % (before + 1), 60, workers[2].log)

    # The trainer: SIGKILL after its first generation, then a restart from its checkpoint.
    wait_for(lambda: "generation 1/%d" % GENERATIONS in text(trainer.log), "generation 1", 240,
             trainer.log)
    trainer.send_signal(signal.SIGKILL)
    trainer.wait()
    trainer = start("trainer-2", "train", RUN, "--selfplay", "external")

    # Worker 3: SIGTERM, a clean stop.
    workers[3].send_signal(signal.SIGTERM)
    # 75: stopped before the run's end, to be started again (not an error).
    if workers[3].wait(timeout=60) != 75 or "stopped as asked" not in text(workers[3].log):
        fail("worker 3 did not stop cleanly on SIGTERM", workers[3].log)

    if trainer.wait(timeout=300) != 0:
        fail("the restarted trainer failed", trainer.log)
    for w in (1, 2):
        if workers[w].wait(timeout=120) != 0:
            fail("worker %d did not end with the run" % w, workers[w].log)

    trainer_text = text(os.path.join(WORK, "trainer-1.log")) + text(trainer.log)
    if not re.search("resuming %s after generation [12] " % re.escape(RUN), trainer_text):
        fail("the trainer did not resume from its checkpoint", trainer.log)
    if "finished:" not in trainer_text:
        fail("the run did not finish", trainer.log)
    checkpoints = sorted(os.path.basename(p) for p in glob.glob(os.path.join(RUN, "checkpoints",
                                                                             "gen-*.pt")))
    if checkpoints[-1] != "gen-%04d.pt" % GENERATIONS:
        fail("the run ends at %s, not generation %d" % (checkpoints[-1], GENERATIONS))
    if ".tmp-" in trainer_text or "skipping" in trainer_text:
        fail("the trainer read a temporary or skipped a file", trainer.log)
    if os.path.exists(old) or not os.path.exists(fresh):
        fail("the old temporary was not swept, or the fresh one was")
    if os.path.exists(os.path.join(RUN, "trainer.lease")):
        fail("the trainer left its lease behind")

    # Every file is one (worker, SEQ), records the network of its name, and repeats no other.
    published = {}
    games_of = {}
    for path in sorted(glob.glob(os.path.join(samples, "gen-*-w*-*.h5"))):
        name = os.path.basename(path)
        m = re.fullmatch(r"gen-(\d{4})-w(\d+)-(\d+)\.h5", name)
        key = (int(m.group(2)), int(m.group(3)))
        if key in published:
            fail("worker %d published SEQ %d twice: %s and %s" % (key + (published[key], name)))
        published[key] = name
        with h5py.File(path, "r") as f:
            network = f.attrs["network"]
        if isinstance(network, bytes):
            network = network.decode()
        if network != "gen-" + m.group(1):
            fail("%s records %s, not gen-%s, as its network" % (name, network, m.group(1)))
        with open(os.path.join(RUN, "games", name[:-3] + ".txt")) as f:
            games = f.read().splitlines()
        # The held-out share of the same file's games (training.validation_fraction).
        held_out = os.path.join(RUN, "validation", name[:-3] + ".txt")
        if os.path.exists(held_out):
            with open(held_out) as f:
                games += f.read().splitlines()
        games_of[name] = games
    files_by_games = {}
    for name, games in games_of.items():
        other = files_by_games.setdefault(tuple(games), name)
        if other != name:
            fail("%s repeats the games of %s (a seed was reused)" % (name, other))

    # Every file a worker logged as published holds the games it said, once.
    for log in glob.glob(os.path.join(WORK, "worker-*.log")):
        for m in re.finditer(r"published samples/(\S+)\.h5: (\d+) games", text(log)):
            name = m.group(1) + ".h5"
            if name not in games_of:
                fail("%s was logged as published but is not in the run" % name, log)
            if len(games_of[name]) != int(m.group(2)):
                fail("%s holds %d games, %s were logged" % (name, len(games_of[name]),
                                                           m.group(2)), log)
    sequences = sorted(s for (w, s) in published if w == 2)
    if sequences != list(range(len(sequences))):
        fail("worker 2's files skip or repeat a SEQ: %s" % sequences)
    print("ok: %d files from 3 workers, %d games, run ended at %s" %
          (len(published), sum(len(g) for g in games_of.values()), checkpoints[-1]))
finally:
    for p in processes:
        if p.poll() is None:
            p.kill()
    shutil.rmtree(WORK, ignore_errors=True)
