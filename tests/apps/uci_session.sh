#!/bin/bash
# `fairyzero uci` through a pipe, as a GUI drives it: handshake, position + go → a legal bestmove,
# go infinite answered only after stop, a mate found and scored, malformed and unknown commands
# answered without a crash, an illegal move reported, a bot exported from a tiny untrained network
# playing, and a four-player variant refused. Usage: uci_session.sh path/to/fairyzero
set -euo pipefail
bin=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
out=""
fail() {
  echo "FAIL: $1"
  echo "$out" | tail -40
  exit 1
}
# Prints each argument as a line for the engine; "sleep S" pauses instead.
feed() {
  for line in "$@"; do
    case $line in
      "sleep "*) sleep "${line#sleep }" ;;
      *) printf '%s\n' "$line" ;;
    esac
  done
}
bestmove() { grep '^bestmove ' <<<"$out" | tail -1 | cut -d' ' -f2; }
# legal VARIANT FEN MOVE: is MOVE a legal move there?
legal() { "$bin" perft "$1" --fen "$2" 1 --divide | grep -q "^$3: "; }

out=$(feed uci isready | timeout 10 "$bin" uci uniform --variant chess 2>&1)
grep -q "^id name FairyZero uniform$" <<<"$out" || fail "no id name"
grep -q "^option name UCI_Variant type combo default chess var chess$" <<<"$out" ||
  fail "no UCI_Variant option"
grep -q "^option name Threads type spin" <<<"$out" || fail "no Threads option"
grep -q "^option name Hash type spin" <<<"$out" || fail "no Hash option"
grep -q "^option name Playouts type spin default 800" <<<"$out" || fail "no Playouts option"
grep -q "^option name cpuct_init type string default 1.25$" <<<"$out" ||
  fail "no search parameter options (mcts/search_settings.h)"
options=$(feed uci "setoption name cpuct_init value 2.5" "setoption name cpuct_init value 500" \
  "setoption name leaves_per_batch value 2.5" "position startpos" "go nodes 20" "sleep 1" |
  timeout 10 "$bin" uci uniform --variant chess 2>&1) || fail "the engine died on search options"
grep -q "^info string error: cpuct_init must be between 0 and 100$" <<<"$options" ||
  fail "an out-of-range search parameter is not refused"
grep -q "^info string error: leaves_per_batch must be a whole number$" <<<"$options" ||
  fail "a fraction of a whole-number parameter is not refused"
[[ $(grep -c "^info string error" <<<"$options") -eq 2 ]] || fail "a valid cpuct_init was refused"
grep -q '^bestmove ' <<<"$options" || fail "no bestmove after setting search options"
grep -q "^option name TimeManager type check default true$" <<<"$out" || fail "no TimeManager option"
timed=$(feed uci "setoption name TimeManager value maybe" "setoption name TimeManager value false" \
  "position startpos" "go wtime 3000 btime 3000" "sleep 1" |
  timeout 10 "$bin" uci uniform --variant chess 2>&1) || fail "the engine died on TimeManager"
grep -q "^info string error: TimeManager must be true or false, not 'maybe'$" <<<"$timed" ||
  fail "a bad TimeManager value is not refused"
grep -q '^bestmove ' <<<"$timed" || fail "no bestmove under a clock without the time manager"
grep -q "^uciok$" <<<"$out" || fail "no uciok"
grep -q "^readyok$" <<<"$out" || fail "no readyok"

fen="r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"
out=$(feed uci "position fen $fen" "go nodes 200" | timeout 10 "$bin" uci material --variant chess)
info='^info depth [0-9]* seldepth [0-9]* nodes [0-9]* nps [0-9]* time [0-9]* hashfull [0-9]*'
grep -q "$info score cp -\?[0-9]* pv " <<<"$out" ||
  fail "no info line before bestmove"
legal chess "$fen" "$(bestmove)" || fail "bestmove $(bestmove) is not legal"

out=$(feed uci "position startpos moves e2e4 e7e5" "go movetime 200" |
  timeout 10 "$bin" uci material --variant chess)
legal chess "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2" "$(bestmove)" ||
  fail "bestmove $(bestmove) after e2e4 e7e5 is not legal"

out=$(feed uci "position startpos" "go infinite" "sleep 0.6" isready "sleep 0.2" stop "sleep 0.2" |
  timeout 10 "$bin" uci uniform --variant chess)
grep -q "^bestmove " <<<"$out" || fail "no bestmove after go infinite and stop"
line_of() { grep -n -m1 "$1" <<<"$out" | cut -d: -f1; }
[[ $(line_of "^readyok") -lt $(line_of "^bestmove") ]] ||
  fail "go infinite answered before stop"

out=$(feed uci "position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1" "go wtime 2000 btime 2000 winc 0 binc 0" |
  timeout 10 "$bin" uci uniform --variant chess)
[[ $(bestmove) == a1a8 ]] || fail "the mate in one was not played"
grep -q "score mate 1 " <<<"$out" || fail "the mate is not scored as mate 1"

out=$(feed uci "position fen not a fen" "go nodes x" "setoption name Threads value -3" \
  "setoption name Warp value 9" "setoption name UCI_Variant value shogi" "frobnicate now" \
  "position startpos moves e2e4 e2e4" "go nodes 50" isready |
  timeout 10 "$bin" uci uniform --variant chess 2>&1) || fail "the engine died on bad input"
grep -q "^info string error: position: bad FEN" <<<"$out" || fail "a bad FEN is not reported"
grep -q "^info string error: go nodes: 'x' is not a whole number" <<<"$out" ||
  fail "a bad number is not reported"
grep -q "^info string error: Threads must be a whole number from 1" <<<"$out" ||
  fail "a bad option value is not reported"
grep -q "^info string unknown option: Warp" <<<"$out" || fail "an unknown option is not reported"
grep -q "^info string error: this bot plays only chess; UCI_Variant shogi" <<<"$out" ||
  fail "another variant is not refused"
grep -q "^info string unknown command: frobnicate now" <<<"$out" ||
  fail "an unknown command is not reported"
grep -q "^info string error: illegal move e2e4 .*position kept after 1 moves" <<<"$out" ||
  fail "the illegal move is not reported"
legal chess "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1" "$(bestmove)" ||
  fail "after an illegal move the position is not the last legal one"
grep -q "^readyok$" <<<"$out" || fail "no readyok after bad input"

# Pondering: no answer until ponderhit, then one, within the go's limits; stop answers too.
out=$(feed uci "setoption name Ponder value true" "position startpos moves e2e4" \
  "go ponder nodes 300" "sleep 0.6" isready "sleep 0.2" ponderhit "sleep 1" |
  timeout 10 "$bin" uci material --variant chess 2>&1)
[[ $(grep -c '^bestmove ' <<<"$out") -eq 1 ]] || fail "not one bestmove after go ponder + ponderhit"
[[ $(line_of "^readyok") -lt $(line_of "^bestmove") ]] || fail "go ponder answered before ponderhit"
legal chess "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1" "$(bestmove)" ||
  fail "the move after ponderhit is not legal"
out=$(feed uci "position startpos" "go ponder" "sleep 0.3" stop "sleep 0.3" |
  timeout 10 "$bin" uci material --variant chess 2>&1)
[[ $(grep -c '^bestmove ' <<<"$out") -eq 1 ]] || fail "stop during go ponder did not answer once"

# Analysis: MultiPV lines (distinct moves, best first), wdl summing to 1000, searchmoves.
out=$(feed uci "setoption name MultiPV value 3" "setoption name UCI_ShowWDL value true" \
  "position startpos" "go nodes 300" | timeout 10 "$bin" uci material --variant chess 2>&1)
last=$(grep -n '^info .* multipv 1 ' <<<"$out" | tail -1 | cut -d: -f1)
[[ -n $last ]] || fail "no multipv lines"
final=$(tail -n +"$last" <<<"$out" | grep '^info .* multipv ')
[[ $(wc -l <<<"$final") -eq 3 ]] || fail "MultiPV 3 did not report three lines"
firsts=$(sed -E 's/.* pv ([^ ]*).*/\1/' <<<"$final" | sort -u | wc -l)
[[ $firsts -eq 3 ]] || fail "the MultiPV lines do not start with three different moves"
[[ $(sed -E 's/.* pv ([^ ]*).*/\1/' <<<"$final" | head -1) == "$(bestmove)" ]] ||
  fail "the first MultiPV line is not the move played"
while read -r w d l; do
  (( w + d + l == 1000 )) || fail "wdl $w $d $l does not sum to 1000"
done < <(sed -E 's/.* wdl ([0-9]+) ([0-9]+) ([0-9]+) .*/\1 \2 \3/' <<<"$final")
out=$(feed uci "position startpos" "go nodes 300 searchmoves a2a3 h2h4 e2e5" |
  timeout 10 "$bin" uci material --variant chess 2>&1)
[[ $(bestmove) == a2a3 || $(bestmove) == h2h4 ]] || fail "searchmoves played $(bestmove)"
grep -q "^info string error: go searchmoves: e2e5 is not a legal move here" <<<"$out" ||
  fail "an illegal searchmoves move is not reported"
out=$(feed uci "setoption name MultiPV value 2" "position startpos" "go nodes 200 searchmoves a2a3" \
  "go nodes 200" | timeout 10 "$bin" uci material --variant chess 2>&1)
[[ $(grep -c '^bestmove ' <<<"$out") -eq 2 ]] || fail "no answer after a restricted search"
[[ $(grep '^bestmove ' <<<"$out" | head -1) == "bestmove a2a3" ]] || fail "searchmoves a2a3 not played"
second=$(grep -n '^bestmove ' <<<"$out" | head -1 | cut -d: -f1)
[[ $(tail -n +"$second" <<<"$out" | grep -c '^info .* multipv 2 ') -gt 0 ]] ||
  fail "the restriction outlived its search (one root move only)"

# An exported bot: a tiny untrained network in a fake run folder.
mkdir -p "$work/run/checkpoints"
"$bin" new-network chess --out "$work/run/checkpoints/gen-0001.pt" --blocks 1 --filters 8 \
  --policy-dim 8 --value-hidden 8 >/dev/null
printf '[run]\nvariant = "chess"\n' >"$work/run/config.toml"
cp configs/variants/chess.toml "$work/run/variant.toml"
out=$("$bin" export "$work/run" --out "$work/bot" 2>&1) || fail "export failed"
grep -q "chess bot, generation 1, 0 training steps" <<<"$out" || fail "export does not say what it wrote"
out=$(feed uci "position startpos moves d2d4" "go nodes 40" | timeout 20 "$bin" uci "$work/bot" 2>&1)
grep -q "^id name FairyZero chess gen 1$" <<<"$out" || fail "the bot does not name itself"
legal chess "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1" "$(bestmove)" ||
  fail "the exported bot's bestmove $(bestmove) is not legal"

out=$(feed uci "go infinite" "sleep 0.3" quit | timeout 5 "$bin" uci uniform --variant chess) ||
  fail "quit during a search did not end the engine"

out=$("$bin" uci material --variant irwell </dev/null 2>&1) && fail "a four-player variant was accepted"
grep -q "UCI is a two-player protocol, and irwell has 4 seats" <<<"$out" ||
  fail "the four-player refusal does not say why"
echo "uci session: OK"
