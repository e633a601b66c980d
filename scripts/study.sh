#!/usr/bin/env bash
# The variant study (docs/STUDY.md): for each entry, train a network with the study preset for a
# fixed budget, export it as a bot under bots/, measure it in the arena (against the material
# bot and the uniform search at the same playouts, and against Fairy-Stockfish where its Debian
# build plays the variant), record that in the bot's manifest, play the balance report at two
# strengths into docs/study/ENTRY/ (and the piece values over the run's recorded self-play
# games, records.json, and the material bot's own balance, material.json), and regenerate
# docs/STUDY.md from every kept report. Each
# step is skipped when its output exists, so the study resumes where it stopped (a balance report
# from the columns it finished: balance --resume). A run folder
# that exists trains on up to MINUTES in all (train --minutes; a spent budget returns at once):
# when that brings new generations, the bot is exported again and its matches and report are
# played again.
#
#   scripts/study.sh [ENTRY...]          (default: every entry of the study, in the order below)
#   scripts/study.sh --material [ENTRY...]   only the material bot's balance (no training)
#
# An entry is a variant, or VARIANT:SECTION.KEY=VALUE[,...] for one played under options, named
# VARIANT-VALUE (commedia:rules.odd_rule=stepping is commedia-stepping).
# Environment: MINUTES (training budget an entry, default 30), RUNS (run folders, outside the
# repository; default ~/fairyzero-study), VISITS (arena playouts, default 200), GAMES (arena
# games a match, default 100), BALANCE_VISITS (the two strengths, default "32,128"),
# BALANCE_GAMES (default 200), MATERIAL_VISITS (the material bot's balance, default VISITS and
# four times VISITS), WORKERS (self-play processes, default 2), FAIRYZERO, STOCKFISH.
set -euo pipefail
cd "$(dirname "$0")/.."
material_only=false
if [[ ${1:-} == --material ]]; then
  material_only=true
  shift
fi
minutes=${MINUTES:-30}
runs=${RUNS:-$HOME/fairyzero-study}
visits=${VISITS:-200}
games=${GAMES:-100}
balance_visits=${BALANCE_VISITS:-32,128}
balance_games=${BALANCE_GAMES:-200}
material_visits=${MATERIAL_VISITS:-$visits,$((visits * 4))}
fairyzero=${FAIRYZERO:-build/apps/fairyzero}
stockfish=${STOCKFISH:-/usr/games/fairy-stockfish}
preset=configs/train/study.toml
python=/usr/bin/python3
[[ -x $python ]] || python=python3
[[ -x $fairyzero ]] || { echo "study: build $fairyzero first"; exit 1; }
mkdir -p "$runs" bots docs/study
runs=$(realpath "$runs")  # as the manifests record a run: absolute

# The checkpoint written nearest half-way (by write time, as the manifest counts minutes)
# between RUN's first checkpoint and its newest; nothing when there is none between them.
half_budget_checkpoint() {
  local dir=$1/checkpoints first newest target best="" best_gap="" f t gap
  first=$(stat -c %Y "$dir/gen-0000.pt" 2>/dev/null) || return 0
  newest=$(find "$dir" -name 'gen-*.pt' | sort | tail -n 1)
  target=$(((first + $(stat -c %Y "$newest")) / 2))
  for f in "$dir"/gen-*.pt; do
    [[ $f == "$newest" || $f == "$dir/gen-0000.pt" ]] && continue
    t=$(stat -c %Y "$f")
    gap=$((t > target ? t - target : target - t))
    if [[ -z $best_gap ]] || ((gap < best_gap)); then best=$f best_gap=$gap; fi
  done
  echo "$best"
}

odd_rules="stepping even-leaping odd-leaping alternate-leaping flexi-leaping maxi-leaping"
default_entries="chess very-heavy-chess"
for river in isis cam wey coblache great-stour irwell avon aire; do
  default_entries+=" $river $river-deans"
done
for rule in $odd_rules; do default_entries+=" commedia:rules.odd_rule=$rule"; done
default_entries+=" commedia-filled commedia-chessgi commedia-double"
# Double scored by the individual ranking as well: under team scoring a four-army draw gives each
# army still playing a draw's half point, twice the points of a decided game; the ranking shares
# the same points however the game ends (docs/RULES.md: self-play draws nearly every game under
# either).
default_entries+=" commedia-double:rules.scoring=individual"
# Variants that Debian's Fairy-Stockfish plays by the same rules.
stockfish_plays=" chess "

# A second opinion on each balance report: the material bot, the arena's yardstick at the same
# playouts (stronger than most study bots), plays the variant on every seat, and again at four
# times them to show whether its own figures hold as it searches deeper; its report (one column
# a strength) is kept as ENTRY/material.json, played again (--resume: the finished columns kept)
# while it lacks a column. It needs no trained network, so it also runs alone (--material).
play_material_balance() {
  local variant=$1 name=$2 out=$runs/$2-material-balance kept=docs/study/$2/material.json
  shift 2
  local strengths
  IFS=, read -r -a strengths <<<"$material_visits"
  [[ -f $kept ]] && "$python" -c 'import json, sys
sys.exit(len(json.load(open(sys.argv[1])).get("columns", [])) < int(sys.argv[2]))' \
    "$kept" "${#strengths[@]}" && return 0
  "$fairyzero" balance "$variant" "$@" --bot material --visits "$material_visits" \
    --games "$balance_games" --threads 1 --concurrency 2 --no-plots --out "$out" --resume |
    tail -n 3 | sed 's/^/   /'
  mkdir -p "docs/study/$name"
  cp "$out/balance.json" "$kept"
}

entries=("$@")
((${#entries[@]})) || read -r -a entries <<<"$default_entries"

for entry in "${entries[@]}"; do
  variant=${entry%%:*}
  name=$variant sets=()
  if [[ $entry == *:* ]]; then
    IFS=, read -r -a options <<<"${entry#*:}"
    for option in "${options[@]}"; do
      sets+=(--set "$option")
      name+="-${option#*=}"
    done
  fi
  run=$runs/$name bot=bots/$name report=docs/study/$name
  echo "== $name: $variant ${sets[*]:-}"
  if $material_only; then
    play_material_balance "$variant" "$name" "${sets[@]}"
    continue
  fi
  echo "   training up to $minutes min in all -> $run"
  FAIRYZERO=$fairyzero scripts/train-for.sh "$minutes" "$variant" "$preset" "$run" "${sets[@]}"
  newest=$(find "$run/checkpoints" -name 'gen-*.pt' | sed 's/.*gen-0*\([0-9][0-9]*\)\.pt/\1/' |
    sort -n | tail -n 1)
  # A bot of another run (a fresh run folder whose generation happens to match) or of an older
  # network of this one is exported and measured again.
  if [[ -f $bot/manifest.toml ]] && ! { grep -qx "generation = $newest" "$bot/manifest.toml" &&
    grep -qxF "source_run = '$run'" "$bot/manifest.toml"; }; then
    echo "   $bot is not $run's newest network: exporting and measuring it again"
    rm -rf "$bot" "$run"-vs-* "$run"-half* "$run-balance" "$run-records" "$report"
  fi
  [[ -f $bot/manifest.toml ]] || "$fairyzero" export "$run" --out "$bot" >/dev/null
  matches=()
  for opponent in material uniform; do
    match=$run-vs-$opponent
    [[ -f $match/summary.json ]] ||
      "$fairyzero" arena "$variant" "${sets[@]}" "$bot" "$opponent" --games "$games" --visits "$visits" \
        --concurrency 8 --out "$match" >"$match.log" 2>&1
    matches+=(--strength "$match")
  done
  if [[ $stockfish_plays == *" $name "* && -x $stockfish ]]; then
    match=$run-vs-fairy-stockfish
    [[ -f $match/summary.json ]] ||
      "$fairyzero" arena "$variant" "${sets[@]}" "$bot" "uci:$stockfish" --nodes 1000 --games "$games" \
        --visits "$visits" --concurrency 4 --out "$match" >"$match.log" 2>&1
    matches+=(--strength "$match")
  fi
  "$fairyzero" export "$run" --out "$bot" "${matches[@]}" | sed 's/^/   /'
  # What the second half of the budget bought: the half-way checkpoint against the material bot
  # in the same match, its manifest (minutes, generation, strength) kept beside the reports.
  half=$(half_budget_checkpoint "$run")
  if [[ ! -f $report/half-budget.toml && -n $half ]]; then
    "$fairyzero" export "$run" --checkpoint "$half" --out "$run-half" >/dev/null
    [[ -f $run-half-vs-material/summary.json ]] ||
      "$fairyzero" arena "$variant" "${sets[@]}" "$run-half" material --games "$games" \
        --visits "$visits" --concurrency 8 --out "$run-half-vs-material" \
        >"$run-half-vs-material.log" 2>&1
    "$fairyzero" export "$run" --checkpoint "$half" --out "$run-half" \
      --strength "$run-half-vs-material" >/dev/null
    mkdir -p "$report"
    cp "$run-half/manifest.toml" "$report/half-budget.toml"
    echo "   half the budget: $(basename "$half"), against material in $run-half-vs-material"
  fi
  # Piece values over the games the run recorded, from its second half's networks on.
  if [[ ! -f $report/records.json ]]; then
    mkdir -p "$report"
    "$fairyzero" balance --records "$run" --from-generation $((newest / 2)) --no-plots \
      --out "$run-records" | tail -n 1
    cp "$run-records/balance.json" "$report/records.json"
  fi
  if [[ ! -f $report/balance.json ]]; then
    "$fairyzero" balance "$variant" "${sets[@]}" --bot "$bot" --visits "$balance_visits" \
      --games "$balance_games" --threads 2 --out "$run-balance" --resume | tail -n 4
    mkdir -p "$report"
    cp "$run-balance"/{report.md,balance.json} "$report"/
    cp "$run-balance"/*.png "$report"/ 2>/dev/null || true
  fi
  play_material_balance "$variant" "$name" "${sets[@]}"
done
"$python" scripts/study_tables.py docs/study bots >docs/STUDY.md
echo "wrote docs/STUDY.md"
