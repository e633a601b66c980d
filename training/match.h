// Matches between two evaluators, each behind its own search with the same playouts: paired
// games with the seats swapped, a few opening plies at temperature for variety, and the score
// of the first with a 95% interval. (The arena of issue 8 builds on this.)
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "mcts/evaluator.h"

namespace fairyzero {

struct MatchConfig {
  int games = 40;  // rounded up to an even number: each opening is played both ways
  int playouts = 64;
  int opening_plies = 6;   // plies chosen at temperature 1, then the best move
  int max_plies = 300;     // draw beyond this
  int games_at_once = 20;  // games searched together (batched)
  uint64_t seed = 1;
};

struct MatchResult {
  int games = 0, wins = 0, draws = 0, losses = 0;  // from the first player's side
  double score() const { return games ? (wins + 0.5 * draws) / games : 0; }
  // Normal approximation over per-game scores; the half-width of the 95% interval.
  double interval95 = 0;
};

// Two-seat variants. `progress` is called after each game.
MatchResult play_match(const VariantPtr& variant, Evaluator& first, Evaluator& second,
                       const MatchConfig& config,
                       const std::function<void(const MatchResult&)>& progress = {});

}  // namespace fairyzero
