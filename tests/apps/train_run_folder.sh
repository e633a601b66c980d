#!/bin/bash
# `fairyzero train` as a new user runs it: a variant file under a new name in another folder
# trains, the run keeps its rules after the file is gone, `train RUN --generations N` extends it,
# changes to its games and rules are refused, a time budget stops it, its recorded games make a
# balance report, and the run exports to a bot that plays.
# Usage: train_run_folder.sh path/to/fairyzero
set -euo pipefail
bin=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
out=""
fail() {
  echo "FAIL: $1"
  echo "$out" | tail -30
  exit 1
}
mkdir -p "$work/my variants"
sed -e 's/^name = "minichess"/name = "my-mini"/' -e 's/^move_rule = 25/move_rule = 12/' \
  configs/variants/minichess.toml > "$work/my variants/mine.toml"
run="$work/it's a run"

out=$("$bin" train "$work/my variants/mine.toml" --config tests/data/quick-train.toml \
  --out "$run" 2>&1) || fail "a new-name variant from another folder does not train"
grep -q "generation 1/1" <<<"$out" || fail "no generation line"
grep -q '^name = "my-mini"\|^name = .my-mini.' "$run/variant.toml" || fail "variant.toml lacks the name"
grep -q "move_rule = 12" "$run/variant.toml" || fail "variant.toml lacks the edited rule"
rm -rf "$work/my variants"

out=$("$bin" train "$run" --generations 2 2>&1) || fail "the run is not extended"
grep -q "generation 2/2" <<<"$out" || fail "--generations 2 ignored"
grep -q "run.generations changed from 1 to 2" <<<"$out" || fail "no note of the change"
[[ -f "$run/checkpoints/gen-0002.pt" ]] || fail "no gen-0002.pt"

sed 's/^games = 4/games = 6/' tests/data/quick-train.toml > "$work/more-games.toml"
if out=$("$bin" train "$run" --config "$work/more-games.toml" 2>&1); then
  fail "a change of selfplay.games was accepted"
fi
grep -q "selfplay.games: 4 in the run, 6 asked" <<<"$out" || fail "the refusal does not name the key"
if out=$("$bin" train "$run" --set rules.move_rule=20 2>&1); then fail "--set accepted on a run"; fi
grep -q "cannot change the rules" <<<"$out" || fail "the --set refusal is unclear"
if out=$("$bin" train minichess --out "$run" 2>&1); then fail "other rules accepted for the run"; fi
grep -q "first difference: rules.move_rule" <<<"$out" || fail "the rules refusal names no field"

# A time budget counts every session's generations (clock.csv): this run's two are past it.
out=$("$bin" train "$run" --generations 6 --minutes 0.0001 2>&1) || fail "--minutes failed"
grep -q "time budget spent" <<<"$out" || fail "--minutes did not stop the run"
[[ ! -f "$run/checkpoints/gen-0003.pt" ]] || fail "a spent budget trained on"
[[ $(wc -l <"$run/clock.csv") -eq 3 ]] || fail "clock.csv does not hold both generations"

# The balance of the run's recorded self-play games: every record is a game of the column.
records() { cat "$@" 2>/dev/null || true; }
recorded=$(records "$run"/games/*.txt "$run"/validation/*.txt | wc -l)
out=$("$bin" balance --records "$run" --out "$work/records" --no-plots 2>&1) ||
  fail "balance --records failed"
grep -q "^$run: $recorded recorded games" <<<"$out" || fail "balance --records read other games"
grep -q '"games": '"$recorded" "$work/records/balance.json" || fail "the column lacks games"
grep -q "self-play games that training run" "$work/records/report.md" || fail "no source line"
later=$(records "$run"/games/gen-0001*.txt "$run"/validation/gen-0001*.txt | wc -l)
out=$("$bin" balance --records "$run" --from-generation 1 --out "$work/records2" --no-plots 2>&1) ||
  fail "balance --records --from-generation failed"
grep -q "^$run: $later recorded games of generations 1 to 1" <<<"$out" ||
  fail "--from-generation 1 read other games"
echo "white=1 | 3 plies | e2e3" >>"$run/games/gen-0001.txt"
if out=$("$bin" balance --records "$run" --out "$work/records3" --no-plots 2>&1); then
  fail "a broken record was read"
fi
grep -q "gen-0001.txt line" <<<"$out" || fail "the broken record's error names no file and line"

out=$("$bin" export "$run" --out "$work/bot" 2>&1) || fail "export failed"
out=$(printf 'uci\nisready\nposition startpos\ngo nodes 8\n' |
  timeout 60 "$bin" uci "$work/bot" 2>&1) || fail "the exported bot does not run"
grep -q '^bestmove ' <<<"$out" || fail "the exported bot gave no bestmove"
out=$("$bin" perft "$run" 2 2>&1) || fail "perft on the run's rules"
echo "train_run_folder: all checks passed"
