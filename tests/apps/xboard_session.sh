#!/bin/bash
# `fairyzero xboard` through a pipe, as XBoard drives it: protover features, new + usermove →
# a legal engine move, ping/pong, setboard + go, `?` moving at once, thinking output, a mate
# claimed, an illegal move and an unknown command answered, the setup and piece lines of a fairy
# variant, XBoard's 0-based ranks on ten-rank boards, and an exported bot.
# Usage: xboard_session.sh path/to/fairyzero
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
engine_move() { grep '^move ' <<<"$out" | tail -1 | cut -d' ' -f2; }
# legal VARIANT FEN MOVE: is MOVE a legal move there (in the variant's own coordinates)?
legal() { "$bin" perft "$1" --fen "$2" 1 --divide | grep -q "^$3: "; }

out=$(feed xboard "protover 2" new "usermove e2e4" "ping 5" |
  timeout 10 "$bin" xboard material --variant chess --playouts 200 2>&1)
features=$(grep '^feature ' <<<"$out") || fail "no features"
for f in ping=1 setboard=1 usermove=1 san=0 time=1 sigint=0 sigterm=0 colors=0 analyze=1 exclude=1 \
  'myname="FairyZero material"' 'variants="normal"'; do
  grep -qF " $f " <<<"$features " || fail "feature $f missing"
done
grep -q " done=1$" <<<"$features" || fail "features do not end with done=1"
grep -qF 'feature option="cpuct_init -string 1.25"' <<<"$features" ||
  fail "no search parameter options (mcts/search_settings.h)"
grep -qF 'feature option="TimeManager -check 1"' <<<"$features" || fail "no TimeManager option"
options=$(feed xboard "protover 2" "option cpuct_init=2" "option cpuct_init=999" "option warp=1" \
  "option TimeManager=2" "option TimeManager=0" \
  "ping 3" | timeout 10 "$bin" xboard material --variant chess 2>&1)
grep -q "^Error (bad option value): cpuct_init must be between 0 and 100$" <<<"$options" ||
  fail "an out-of-range option is not refused"
grep -q "^Error (unknown option): warp=1$" <<<"$options" || fail "an unknown option is accepted"
grep -q "^Error (bad option value): TimeManager must be 0 or 1, not 2$" <<<"$options" ||
  fail "a bad TimeManager value is not refused"
[[ $(grep -c "^Error" <<<"$options") -eq 3 ]] || fail "a valid option was refused"
legal chess "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1" "$(engine_move)" ||
  fail "the engine's reply $(engine_move) is not legal"
grep -q "^pong 5$" <<<"$out" || fail "no pong"

fen="r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"
out=$(feed xboard "protover 2" post "sd 6" "setboard $fen" go |
  timeout 10 "$bin" xboard material --variant chess)
legal chess "$fen" "$(engine_move)" || fail "the move $(engine_move) after setboard is not legal"
grep -q "^6 -\?[0-9]* [0-9]* [0-9]* [a-h][1-8]" <<<"$out" ||
  fail "no thinking output (ply score time nodes pv)"

out=$(feed xboard "protover 2" new "st 30" go "sleep 0.5" "?" |
  timeout 8 "$bin" xboard uniform --variant chess) ||
  fail "? did not make the engine move at once"
grep -q "^move " <<<"$out" || fail "no move after ?"

out=$(feed xboard "protover 2" "setboard 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1" go |
  timeout 10 "$bin" xboard uniform --variant chess)
[[ $(engine_move) == a1a8 ]] || fail "the mate in one was not played"
grep -q "^1-0 {checkmate}$" <<<"$out" || fail "the mate is not claimed"

out=$(feed xboard "protover 2" new force "usermove e2e5" "usermove e2e4" frobnicate "variant shogi" \
  "setboard not a fen" "level x y z" "ping 9" |
  timeout 10 "$bin" xboard uniform --variant chess 2>&1) || fail "the engine died on bad input"
grep -q "^Illegal move: e2e5$" <<<"$out" || fail "the illegal move is not reported"
grep -q "^move " <<<"$out" && fail "the engine moved in force mode"
grep -q "^Error (unknown command): frobnicate$" <<<"$out" || fail "an unknown command is not reported"
grep -q "^Error (unsupported variant): shogi$" <<<"$out" || fail "another variant is not refused"
grep -q "^tellusererror Illegal position: " <<<"$out" || fail "a bad FEN is not reported"
grep -q "^Error (bad argument): level x y z" <<<"$out" || fail "a bad level is not reported"
grep -q "^pong 9$" <<<"$out" || fail "no pong after bad input"

# A fairy variant: setup and piece lines, and XBoard's ranks 0-9 on a ten-rank board.
out=$(feed xboard "protover 2" new "variant very-heavy-chess" "usermove a2a3" |
  timeout 20 "$bin" xboard material --variant very-heavy-chess --playouts 50 2>&1)
grep -q 'variants="very-heavy-chess,fairy"' <<<"$out" || fail "the fairy variant is not offered"
grep -qF "setup (PNBRQY.AC.MOH.J.D....Kpnbrqy.ac.moh.j.d....k) 12x10+0_fairy omcdqyyqdcmo/" <<<"$out" ||
  fail "no setup line"
grep -q "^piece K& KO2$" <<<"$out" || fail "the King's piece line lacks castling"
grep -q "^piece H& RFN$" <<<"$out" || fail "no piece line for the Heavy pieces"
grep -q "^Illegal move" <<<"$out" && fail "XBoard's a2a3 (0-based ranks) was refused"
grep -q "^move [a-l][0-9][a-l][0-9]$" <<<"$out" || fail "the engine's move is not in XBoard's coordinates"

# Analysis mode: thinking output without moves, restarted after a move; exclusions obeyed.
out=$(feed xboard "protover 2" new force analyze "sleep 0.5" "usermove e2e4" "sleep 0.5" \
  "exclude all" "include d7d5" "sleep 0.5" exit "ping 9" "sleep 0.2" |
  timeout 10 "$bin" xboard material --variant chess 2>&1)
grep -q "^move " <<<"$out" && fail "the engine moved in analysis mode"
grep -q "^pong 9$" <<<"$out" || fail "no pong after leaving analysis mode"
grep -q "^[0-9]* -\?[0-9]* [0-9]* [0-9]* [a-h][1-8][a-h][1-8]" <<<"$out" || fail "no thinking output"
tail_after=$(grep -n "telluser every move" <<<"$out" | tail -1 | cut -d: -f1)
[[ -n $tail_after ]] || fail "excluding every move was not reported"
last_pv=$(grep "^[0-9]* -\?[0-9]* [0-9]* [0-9]* " <<<"$out" | tail -1 | cut -d' ' -f5)
[[ $last_pv == d7d5 ]] || fail "with all but d7d5 excluded the analysis shows $last_pv"
out=$(feed xboard "protover 2" new "usermove e2e4" "sleep 0.5" |
  timeout 10 "$bin" xboard material --variant chess --playouts 100 2>&1)
reply=$(engine_move)
out=$(feed xboard "protover 2" new force "usermove e2e4" "exclude $reply" go "sleep 0.5" |
  timeout 10 "$bin" xboard material --variant chess --playouts 100 2>&1)
[[ $(engine_move) != "$reply" && -n $(engine_move) ]] || fail "the engine played the excluded $reply"

# An exported bot of a small fairy variant, selected as XBoard's catch-all "fairy".
mkdir -p "$work/run/checkpoints"
"$bin" new-network minichess --out "$work/run/checkpoints/gen-0002.pt" --blocks 1 --filters 8 \
  --policy-dim 8 --value-hidden 8 >/dev/null
printf '[run]\nvariant = "minichess"\n' >"$work/run/config.toml"
cp configs/variants/minichess.toml "$work/run/variant.toml"
"$bin" export "$work/run" --out "$work/bot" >/dev/null || fail "export failed"
out=$(feed xboard "protover 2" new "variant fairy" "usermove a2a3" |
  timeout 20 "$bin" xboard "$work/bot" --playouts 30 2>&1)
grep -q 'myname="FairyZero minichess gen 2"' <<<"$out" || fail "the bot does not name itself"
setup="setup (PNBRQ................Kpnbrq................k) 5x5+0_fairy"
grep -qF "$setup rnbqk/ppppp/5/PPPPP/RNBQK w - - 0 1" <<<"$out" ||
  fail "no setup line for minichess"
legal minichess "rnbqk/ppppp/5/PPPPP/RNBQK w - - 0 1" a2a3 # the fixture itself
legal minichess "rnbqk/ppppp/P4/1PPPP/RNBQK b - - 0 1" "$(engine_move)" ||
  fail "the bot's move $(engine_move) is not legal"

out=$("$bin" xboard material --variant avon </dev/null 2>&1) && fail "a four-player variant was accepted"
grep -q "XBoard (CECP) is a two-player protocol" <<<"$out" || fail "the four-player refusal does not say why"
echo "xboard session: OK"
