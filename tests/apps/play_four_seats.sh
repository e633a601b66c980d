#!/bin/bash
# `fairyzero play` with four seats: a person takes one seat and a bot the others; undo goes back
# to the person's previous turn; four random movers play a game to its end, and the result shows
# the team score and the individual ranking. Usage: play_four_seats.sh path/to/fairyzero
set -euo pipefail
bin=$1
fail() {
  echo "FAIL: $1"
  echo "$out" | tail -40
  exit 1
}

out=$(printf 'd2d3\nmoves\nundo\nfen\nquit\n' |
  "$bin" play irwell --human white-low --bot material --visits 20 --seed 3 2>&1)
grep -q "white-low is played by you" <<<"$out" || fail "the person's seat is not announced"
grep -q "black-high is played by material" <<<"$out" || fail "the bot's seats are not announced"
grep -q "white-high plays" <<<"$out" || fail "the bot did not play white-high"
grep -q "black-low plays" <<<"$out" || fail "the bot did not play black-low"
grep -q "side of white-low, black-low" <<<"$out" || fail "the board does not show the sides"
grep -q "MM1bo1IS/XMm1q1XS/PPbpppPP/8/8/8/8/ppBPPPpp/xmM1Q1xs/mm1BO1is wl - - 0 1$" <<<"$out" ||
  fail "undo did not go back to the person's previous turn"

out=$("$bin" play avon --random white-low,black-high,white-high,black-low --seed 5 </dev/null 2>&1)
grep -q "Game over: .*white-low .*individual ranking: white-low [1-4]" <<<"$out" ||
  fail "a game of random movers did not end with team and individual results"

out=$("$bin" play avon --human nobody 2>&1) && fail "an unknown seat was accepted"
grep -q "'nobody' is not a seat of avon" <<<"$out" || fail "the unknown seat is not named"
echo "play with four seats: OK"
