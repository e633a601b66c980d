// Paired games between two evaluators, searched in batches per side.
#include "training/match.h"

#include <cmath>
#include <memory>
#include <random>
#include <stdexcept>
#include <vector>

#include "mcts/batched_search.h"
#include "mcts/search.h"

namespace fairyzero {
namespace {

struct MatchGame {
  Position position;
  std::unique_ptr<Search> searches[2];  // by player: 0 = first, 1 = second
  int first_seat = 0;                   // the seat the first player holds
  uint64_t opening_seed = 0;
  bool active = false;
};

}  // namespace

MatchResult play_match(const VariantPtr& variant, Evaluator& first, Evaluator& second,
                       const MatchConfig& config,
                       const std::function<void(const MatchResult&)>& progress) {
  if (variant->seat_count() != 2) throw std::invalid_argument("play_match: two-seat variants only");
  Evaluator* players[2] = {&first, &second};
  const int total = (config.games + 1) / 2 * 2;
  MatchResult result;
  std::vector<double> scores;
  int next_game = 0;
  std::vector<MatchGame> games;
  for (int g = 0; g < std::min(config.games_at_once, total); ++g)
    games.push_back({Position(variant), {}, 0, 0, false});

  auto start = [&](MatchGame& game) {
    if (next_game >= total) {
      game.active = false;
      return;
    }
    // Games 2k and 2k+1 share an opening seed and swap seats.
    game.first_seat = next_game % 2;
    game.opening_seed = config.seed * 7919 + next_game / 2;
    ++next_game;
    game.position = Position(variant);
    for (int p = 0; p < 2; ++p) {
      SearchParams params;
      params.seed = game.opening_seed + p;
      game.searches[p] = std::make_unique<Search>(game.position, *players[p], params);
    }
    game.active = true;
  };
  for (MatchGame& game : games) start(game);

  while (true) {
    bool any = false;
    for (int p = 0; p < 2; ++p) {
      std::vector<Search*> searches;
      for (MatchGame& game : games) {
        if (!game.active) continue;
        any = true;
        int player = game.position.seat_to_move() == game.first_seat ? 0 : 1;
        if (player == p) searches.push_back(game.searches[p].get());
      }
      if (!searches.empty()) run_batched(searches, {.playouts = config.playouts}, *players[p], 4);
    }
    if (!any) break;
    for (MatchGame& game : games) {
      if (!game.active) continue;
      Position& pos = game.position;
      int player = pos.seat_to_move() == game.first_seat ? 0 : 1;
      // The opening plies depend only on the pair's seed and the ply, so both games of a pair
      // start alike as long as the players agree on the position.
      std::mt19937_64 rng(game.opening_seed * 1315423911u +
                          static_cast<uint64_t>(pos.plies_played()));
      float temperature = pos.plies_played() < config.opening_plies ? 1.0f : 0.0f;
      Move move = game.searches[player]->choose_move(temperature, rng);
      pos.play(move);
      for (auto& s : game.searches) s->play(move);
      Outcome outcome = pos.outcome();
      bool capped = !outcome.over() && pos.plies_played() >= config.max_plies;
      if (!outcome.over() && !capped) continue;
      double score = capped ? 0.5 : outcome.score[game.first_seat];
      scores.push_back(score);
      ++result.games;
      if (score > 0.75)
        ++result.wins;
      else if (score < 0.25)
        ++result.losses;
      else
        ++result.draws;
      double mean = result.score(), variance = 0;
      for (double s : scores) variance += (s - mean) * (s - mean);
      variance /= std::max<size_t>(1, scores.size() - 1);
      result.interval95 = 1.96 * std::sqrt(variance / scores.size());
      if (progress) progress(result);
      start(game);
    }
  }
  return result;
}

}  // namespace fairyzero
