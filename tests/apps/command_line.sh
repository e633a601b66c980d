#!/bin/bash
# The declared command line: `COMMAND --help` (also after positionals) is generated and exits 0,
# `--opt=value` equals `--opt value`, values out of range or of the wrong type are refused with
# the option named and exit status 2, unknown options and a doubled single option are refused,
# and a command's own usage error names the command. Usage: command_line.sh path/to/fairyzero
set -euo pipefail
bin=$1
out=""
fail() {
  echo "FAIL: $1"
  echo "$out" | tail -20
  exit 1
}
expect_status() {  # STATUS COMMAND...: runs it, keeps its output in $out
  local want=$1
  shift
  local got=0
  out=$("$@" 2>&1) || got=$?
  [[ $got -eq $want ]] || fail "exit $got, not $want: $*"
}

expect_status 0 "$bin" play chess --help
grep -q -- "--human SEATS" <<<"$out" || fail "play --help lacks --human"
grep -q -- "--seed N" <<<"$out" || fail "play --help lacks --seed"
expect_status 0 "$bin" uci --help
grep -q -- "--set SECTION.KEY=VALUE" <<<"$out" || fail "uci --help lacks --set"
expect_status 0 "$bin" balance --help
grep -q -- "--material-every N" <<<"$out" || fail "balance --help lacks --material-every"

# analyse: the best moves of one search, the mate first and proven; four seats too.
expect_status 0 "$bin" analyse chess --fen "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1" --visits 500 \
  --lines 3
grep -q "^   1 a1a8 .*(proven)$" <<<"$out" || fail "analyse: the mate is not the first line, proven"
[[ $(grep -c "^ *[0-9]* [a-h][1-8][a-h][1-8] " <<<"$out") -eq 3 ]] || fail "analyse --lines 3"
expect_status 0 "$bin" analyse chess --moves "e2e4 e7e5" --visits 100 --lines 1
grep -q "^rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2, white to move" <<<"$out" ||
  fail "analyse --moves did not play the moves"
expect_status 2 "$bin" analyse chess --moves "e2e5"
grep -q "e2e5" <<<"$out" || fail "an illegal analyse move is not named"
expect_status 0 "$bin" analyse irwell --visits 200 --lines 2
grep -q "to move" <<<"$out" || fail "analyse does not say who moves in irwell"
[[ $(grep -c "^ *[0-9]* [a-z0-9]* *[0-9]* *[0-9.]*%" <<<"$out") -eq 2 ]] ||
  fail "analyse irwell --lines 2"
expect_status 2 "$bin" analyse chess --lines 0

expect_status 0 "$bin" perft chess 3 --fen "8/8/8/8/8/8/8/K6k w - - 0 1"
spaced=$(grep "Nodes searched" <<<"$out")
expect_status 0 "$bin" perft chess 3 "--fen=8/8/8/8/8/8/8/K6k w - - 0 1"
[[ "$(grep "Nodes searched" <<<"$out")" == "$spaced" ]] || fail "--fen=FEN differs from --fen FEN"

expect_status 2 "$bin" random-game chess --max-plies=0
grep -q -- "--max-plies" <<<"$out" || fail "the range error does not name the option"
expect_status 2 "$bin" random-game chess --seed 12x
grep -q -- "--seed" <<<"$out" || fail "a malformed number is not refused by name"
expect_status 2 "$bin" random-game chess --max-plies 99999999999
expect_status 2 "$bin" perft chess 2 --bogus
grep -q -- "--bogus" <<<"$out" || fail "an unknown option is not named"
expect_status 2 "$bin" perft chess 2 --fen a --fen b
expect_status 2 "$bin" perft chess 99
grep -q "fairyzero perft" <<<"$out" || fail "a usage error does not name the command"
expect_status 2 "$bin" no-such-command
expect_status 0 "$bin" random-game chess --seed=3 --max-plies=4 --quiet
# balance --resume: the columns games.jsonl holds in full are kept, not played again; a column
# with fewer games than asked is played again.
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
expect_status 0 "$bin" balance minichess --bot uniform --visits 2,3 --games 2 --max-plies 20 \
  --no-plots --out "$scratch/b"
[[ $(wc -l <"$scratch/b/games.jsonl") -eq 4 ]] || fail "balance wrote no 4 games"
head -n 3 "$scratch/b/games.jsonl" >"$scratch/three" && mv "$scratch/three" "$scratch/b/games.jsonl"
expect_status 0 "$bin" balance minichess --bot uniform --visits 2,3 --games 2 --max-plies 20 \
  --no-plots --out "$scratch/b" --resume
grep -q "keeping the 2 games of minichess uniform@2" <<<"$out" || fail "--resume kept no column"
grep -q "uniform@3: .*games" <<<"$out" || fail "--resume did not play the short column again"
[[ $(wc -l <"$scratch/b/games.jsonl") -eq 4 ]] || fail "--resume left no 4 games"
grep -q '"games": 2' "$scratch/b/balance.json" || fail "--resume: the report lacks the columns"
grep -q "Column minichess uniform@2: games an earlier" "$scratch/b/report.md" ||
  fail "--resume: the report does not say which column was kept"
echo "not json" >>"$scratch/b/games.jsonl"
expect_status 1 "$bin" balance minichess --bot uniform --visits 2 --games 2 --no-plots \
  --out "$scratch/b" --resume
grep -q "games.jsonl line 5" <<<"$out" || fail "--resume: a damaged record is not named"
echo "command_line: all checks passed"
