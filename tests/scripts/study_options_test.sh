#!/bin/bash
# scripts/study.sh plays an entry's options (VARIANT:SECTION.KEY=VALUE,...) in every step that
# names the variant: training, each arena match and the balance reports (the trained bot's and
# the material bot's). Before 9fa42e8 only
# training had them, so the arena refused the entry's own bot as another rule set. The pipeline
# runs in a scratch copy of the scripts against a stand-in `fairyzero` that logs its arguments
# and writes the files each step leaves, so the test checks the calls, not the engine.
# Usage: study_options_test.sh (from the repository root)
set -euo pipefail
repo=$PWD
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() {
  echo "FAIL: $1"
  cat "$work/calls" 2>/dev/null || true
  exit 1
}

mkdir -p "$work/tree/scripts" "$work/tree/configs/train"
cp "$repo/scripts/study.sh" "$repo/scripts/train-for.sh" "$work/tree/scripts/"
cp "$repo/configs/train/study.toml" "$work/tree/configs/train/"
# The tables have their own test (study_tables_test.py); here the last step only has to run.
printf 'print("# study")\n' >"$work/tree/scripts/study_tables.py"

# The stand-in: one line per call in $work/calls, and the outputs study.sh looks for.
cat >"$work/fairyzero" <<'EOF'
#!/bin/bash
echo "$*" >>"$CALLS"
command=$1
shift
out="" run=""
args=("$@")
for ((i = 0; i < ${#args[@]}; i++)); do
  [[ ${args[i]} == --out ]] && out=${args[i + 1]}
done
case $command in
  train)  # four checkpoints, written 0, 5, 16 and 30 minutes into the run
    mkdir -p "$out/checkpoints"
    for g in 0:30 1:25 2:14 3:0; do
      touch -d "-${g#*:} minutes" "$out/checkpoints/gen-000${g%%:*}.pt"
    done ;;
  selfplay) ;;
  export)
    mkdir -p "$out"
    printf "generation = 3\nsource_run = '%s'\n" "$1" >"$out/manifest.toml"
    echo "exported $out" ;;
  arena) mkdir -p "$out" && echo '{}' >"$out/summary.json" ;;
  balance)  # a column for each strength of --visits
    visits=""
    for ((i = 0; i < ${#args[@]}; i++)); do
      [[ ${args[i]} == --visits ]] && visits=${args[i + 1]}
    done
    columns=$(sed 's/[^,][^,]*/{}/g' <<<"$visits")
    mkdir -p "$out" && echo "{\"columns\": [$columns]}" >"$out/balance.json"
    echo '# report' >"$out/report.md"
    echo "balance done" ;;
  *) echo "stand-in fairyzero: unexpected command $command" >&2; exit 2 ;;
esac
EOF
chmod +x "$work/fairyzero"

export CALLS=$work/calls FAIRYZERO=$work/fairyzero RUNS=$work/runs STOCKFISH=/bin/true
(cd "$work/tree" && bash scripts/study.sh 'commedia:rules.odd_rule=stepping,rules.drops=true' chess \
  >"$work/log" 2>&1) || { cat "$work/log"; fail "study.sh failed"; }

options='--set rules.odd_rule=stepping --set rules.drops=true'
# Every call naming the variant commedia carries both options, and each step is there.
for step in "train commedia" "arena commedia" "balance commedia"; do
  grep -q "^$step " "$work/calls" || fail "no '$step' call"
  while read -r call; do
    [[ $call == *"$options"* ]] || fail "'$call' does not play the entry's options"
  done < <(grep "^$step " "$work/calls")
done
(($(grep -c "^arena commedia " "$work/calls") == 3)) || fail "not three arena matches for commedia"
grep -q "^arena commedia .*bots/commedia-stepping-true material" "$work/calls" ||
  fail "the entry is not named VARIANT-VALUE..."
# The checkpoint nearest half the training time (16 of 30 minutes) meets the material bot, and
# its manifest is kept beside the reports.
half_run=$RUNS/commedia-stepping-true
grep -q "^export $half_run --checkpoint .*/gen-0002.pt --out $half_run-half" "$work/calls" || fail "the half-budget bot is not gen-0002"
grep -q "^arena commedia .*$RUNS/commedia-stepping-true-half material" "$work/calls" ||
  fail "no half-budget match against the material bot"
[[ -f $work/tree/docs/study/commedia-stepping-true/half-budget.toml ]] ||
  fail "the half-budget manifest is not kept in docs/study"
# A plain entry gets no options, and chess meets Fairy-Stockfish too.
if grep -E "^(train|arena|balance) chess " "$work/calls" | grep -q -- "--set"; then
  fail "a plain entry got options"
fi
grep -q "^arena chess bots/chess uci:/bin/true" "$work/calls" || fail "no Fairy-Stockfish match for chess"
grep -q "wrote docs/STUDY.md" "$work/log" || fail "STUDY.md was not regenerated"
# The material bot plays each entry's balance at the arena's playouts and four times them, kept
# as material.json.
grep -q "^balance commedia .*--bot material --visits 200,800 .*--resume" "$work/calls" ||
  fail "no balance played by the material bot"
[[ -f $work/tree/docs/study/commedia-stepping-true/material.json ]] ||
  fail "the material bot's balance is not kept in docs/study"
# --material plays only that, for an entry never trained, and skips one already played.
: >"$work/calls"
(cd "$work/tree" && bash scripts/study.sh --material wey chess >"$work/log" 2>&1) ||
  { cat "$work/log"; fail "study.sh --material failed"; }
[[ $(wc -l <"$work/calls") == 1 ]] && grep -q "^balance wey --bot material " "$work/calls" ||
  fail "--material did more than the material bot's balance of the entry not yet played"
# A material.json of fewer columns than the strengths asked for (kept before the four-times
# column) is played again, resuming: the finished column is kept, the missing one played.
echo '{"columns": [{}]}' >"$work/tree/docs/study/chess/material.json"
: >"$work/calls"
(cd "$work/tree" && bash scripts/study.sh --material wey chess >"$work/log" 2>&1) ||
  { cat "$work/log"; fail "study.sh --material failed"; }
[[ $(wc -l <"$work/calls") == 1 ]] &&
  grep -q "^balance chess --bot material --visits 200,800 .*--resume" "$work/calls" ||
  fail "a material.json lacking the four-times column was not played again (or wey was)"
echo "study.sh passes an entry's options to every step, measures the half-budget checkpoint and keeps the material bot's balance at two strengths"
