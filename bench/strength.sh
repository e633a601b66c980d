#!/usr/bin/env bash
# Strength against an engine nobody here wrote: trains a preset on gardner (Fairy-Stockfish's own
# gardner rules) for a fixed wall-clock budget, then plays checkpoints along the run in the arena
# against Fairy-Stockfish at fixed nodes per move, and the last one against the material bot, each
# with score, Elo and a 95% interval; prints the curve of Elo against training minutes (and plots
# it), and, as an ablation, the same budget with each given setting changed in turn.
#
#   bench/strength.sh [MINUTES]                      (default 60)
#
# Environment: PRESET (default configs/train/hour.toml), VARIANT (default gardner), VISITS (our
# playouts per move, default 800), NODES (Fairy-Stockfish's nodes per move, the first for the
# curve; default "200 1000 5000"), GAMES (per match of the last checkpoint, default 100,
# paired), POINTS (checkpoints on the curve, default 4), CURVE_GAMES (games at the curve's
# earlier points, default GAMES), CONCURRENCY (games at once, default 4), WORKERS (self-play
# processes beside an external trainer, default 2; 0: one `train` process), ABLATE (settings to
# change one at a time, e.g. "none selfplay.forced_playouts=0": `none` trains the preset as it
# is; the first arm is the baseline, played against the material bot and Fairy-Stockfish at the
# first NODES, and every later arm plays it head to head), ABLATE_MINUTES (each arm's training,
# default MINUTES), ABLATE_GAMES (games a match there, default GAMES), OUT (default
# bench-strength-DATE), FAIRYZERO, STOCKFISH (default /usr/games/fairy-stockfish).
# MINUTES 0 skips the main run and its curve: only the ablation.
set -euo pipefail
minutes=${1:-60}
fairyzero=${FAIRYZERO:-build/apps/fairyzero}
stockfish=${STOCKFISH:-/usr/games/fairy-stockfish}
preset=${PRESET:-configs/train/hour.toml}
variant=${VARIANT:-gardner}
visits=${VISITS:-800}
read -r -a nodes <<<"${NODES:-200 1000 5000}"
games=${GAMES:-100}
points=${POINTS:-4}
concurrency=${CONCURRENCY:-4}
curve_games=${CURVE_GAMES:-$games}
workers=${WORKERS:-2}
ablate_minutes=${ABLATE_MINUTES:-$minutes}
ablate_games=${ABLATE_GAMES:-$games}
out=${OUT:-bench-strength-$(date +%Y%m%d-%H%M)}
python=/usr/bin/python3
[[ -x $python ]] || python=python3
[[ -x "$fairyzero" && -x "$stockfish" ]] || { echo "needs $fairyzero and $stockfish"; exit 1; }
mkdir -p "$out"

# A copy of the preset with SECTION.KEY=VALUE changed (the key must exist or is added).
config_with() {
  "$python" - "$preset" "$1" "$2" <<'PY'
import re, sys
text, change, path = open(sys.argv[1]).read(), sys.argv[2], sys.argv[3]
if change:
    key, value = change.split("=", 1)
    section, name = key.split(".", 1)
    lines, out, here, done = text.splitlines(), [], None, False
    for line in lines:
        m = re.match(r"\s*\[(\w+)\]", line)
        if m:
            if here == section and not done:
                out.append(f"{name} = {value}"); done = True
            here = m.group(1)
        elif here == section and re.match(rf"\s*{re.escape(name)}\s*=", line):
            line, done = f"{name} = {value}", True
        out.append(line)
    if not done:
        out += ([f"[{section}]"] if here != section else []) + [f"{name} = {value}"]
    text = "\n".join(out) + "\n"
open(path, "w").write(text)
PY
}

# Trains RUN for the budget (scripts/train-for.sh: an external trainer and WORKERS self-play
# processes, or one `train` process when WORKERS is 0).
train() {
  FAIRYZERO=$fairyzero WORKERS=$workers "$(dirname "$0")/../scripts/train-for.sh" "$minutes" \
    "$variant" "$2" "$1"
}

# Score, Elo and its 95% interval of the first player from an arena folder's results.csv, as
# docs/ARENA.md defines them.
elo_of() {
  "$python" - "$1/results.csv" <<'PY'
import csv, math, sys
rows = list(csv.DictReader(open(sys.argv[1])))
x = [float(r["first_score"]) for r in rows]
n = len(x)
W, D, L = sum(v == 1 for v in x), sum(v == 0.5 for v in x), sum(v == 0 for v in x)
if len(set(x)) <= 1:
    W, L, n = W + 0.5, L + 0.5, n + 1
s = (W + D / 2) / n
eps = 1 / (2 * n)
var = (W * (1 - s) ** 2 + D * (0.5 - s) ** 2 + L * s ** 2) / n
elo = lambda p: -400 * math.log10(1 / min(max(p, eps), 1 - eps) - 1)
half = 1.96 * math.sqrt(var / n)
print(f"{100 * s:5.1f}% ({W:g}+ {D:g}= {L:g}-)  Elo {elo(s):+6.0f} [{elo(s - half):+.0f}, {elo(s + half):+.0f}]")
PY
}

# match NAME GAMES PLAYER OPPONENT [arena options...]; a match already played under NAME (the
# curve's last point and the last checkpoint's first match) is read, not played again.
match() {
  local name=$1 count=$2 player=$3 opponent=$4
  shift 4
  [[ -f "$out/$name/results.csv" ]] ||
    "$fairyzero" arena "$variant" "$player" "$opponent" --games "$count" --visits "$visits" \
      --concurrency "$concurrency" --out "$out/$name" "$@" >"$out/$name.log" 2>&1
  elo_of "$out/$name"
}

echo "strength: $variant, preset $preset, $minutes min of training on $(nproc) cores;" \
  "$visits playouts against Fairy-Stockfish at ${nodes[*]} nodes, $games games a match"
# The main run: MINUTES of training, the curve and the last checkpoint's matches.
main_run() {
  run="$out/run"
  config_with "" "$out/preset.toml"
  start=$(date +%s)
  train "$run" "$out/preset.toml"
  mapfile -t checkpoints < <(ls "$run"/checkpoints/gen-*.pt | sort)
  last=${checkpoints[-1]}
  echo "trained $(( ${#checkpoints[@]} - 1 )) generations; curve against Fairy-Stockfish at ${nodes[0]} nodes:"
  echo "minutes,checkpoint,score,elo" >"$out/curve.csv"
  count=${#checkpoints[@]}
  for ((p = 1; p <= points; p++)); do
    checkpoint=${checkpoints[$(( (count - 1) * p / points ))]}
    at=$(( ($(stat -c %Y "$checkpoint") - start) ))
    count_here=$curve_games
    [[ $checkpoint == "$last" ]] && count_here=$games
    result=$(match "fs-${nodes[0]}-$(basename "$checkpoint" .pt)" "$count_here" "$checkpoint" \
      "uci:$stockfish" --nodes "${nodes[0]}")
    printf "  %5.1f min  %s  %s\n" "$(awk "BEGIN { print $at / 60 }")" "$(basename "$checkpoint")" "$result"
    elo=$(sed -E 's/.*Elo +([-+0-9]+).*/\1/' <<<"$result")
    echo "$(awk "BEGIN { print $at / 60 }"),$(basename "$checkpoint"),${result%%%*},$elo" >>"$out/curve.csv"
  done
  echo "the last checkpoint ($(basename "$last")):"
  echo "  against the material bot at $visits playouts: $(match "material-$(basename "$last" .pt)" "$games" "$last" material)"
  for n in "${nodes[@]}"; do
    echo "  against Fairy-Stockfish at $n nodes:        $(match "fs-$n-$(basename "$last" .pt)" "$games" "$last" "uci:$stockfish" --nodes "$n")"
  done
  "$python" - "$out/curve.csv" "$out/elo_curve.png" <<'PY' || echo "(no plot)"
import csv, sys
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
rows = list(csv.DictReader(open(sys.argv[1])))
plt.plot([float(r["minutes"]) for r in rows], [float(r["elo"]) for r in rows], marker="o")
plt.xlabel("training minutes"); plt.ylabel("Elo against Fairy-Stockfish"); plt.grid(True)
plt.savefig(sys.argv[2], dpi=90)
print("plot: " + sys.argv[2])
PY
}
((minutes > 0)) && main_run

# The ablation: each arm trained on ABLATE_MINUTES; the first (the baseline) against the material
# bot and Fairy-Stockfish, every later one head to head against it (its score is the arm's, so a
# negative Elo means the switched-off technique was helping).
minutes=$ablate_minutes
baseline=""
echo "ablation: $minutes min of training an arm, $ablate_games games a match" >"$out/ablation.txt"
for change in ${ABLATE:-}; do
  name="ablate-${change//[^a-zA-Z0-9_]/_}"
  [[ $change == none ]] && change=""
  config_with "$change" "$out/$name.toml"
  [[ -d "$out/$name/checkpoints" ]] || train "$out/$name" "$out/$name.toml"
  checkpoint=$(ls "$out/$name"/checkpoints/gen-*.pt | sort | tail -n 1)
  generations=$(basename "$checkpoint" .pt)
  if [[ -z $baseline ]]; then
    baseline=$checkpoint
    line="baseline ${change:-(the preset)}, $generations: against the material bot $(match "$name-material" "$ablate_games" "$checkpoint" material);"
    line+=" against Fairy-Stockfish at ${nodes[0]} nodes $(match "$name-fs" "$ablate_games" "$checkpoint" "uci:$stockfish" --nodes "${nodes[0]}")"
  else
    line="${change:-none}, $generations: against the baseline $(match "$name-baseline" "$ablate_games" "$checkpoint" "$baseline")"
  fi
  echo "$line" | tee -a "$out/ablation.txt"
done
