// Playing the games of a balance report through the game runner: one bot (an evaluator behind
// MCTS) on every seat, or one per seat, a few opening plies at temperature for variety and then
// the best move; each game recorded as a BalanceGame.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "mcts/evaluator.h"
#include "training/balance/balance.h"
#include "training/play/game_runner.h"
#include "training/play/self_play_record.h"

namespace fairyzero {

struct BalanceConfig {
  int games = 100;
  int playouts = 64;        // new playouts per move (the tree is kept between moves)
  int opening_plies = 4;    // plies chosen at temperature 1, then the most visited move
  int max_plies = 400;      // a game still going is stopped and scored a draw
  int games_at_once = 32;   // games searched together by each thread (one evaluator batch)
  int threads = 1;          // threads, each driving its own games; the evaluator is shared
  int material_every = 10;  // plies between material snapshots
  uint64_t seed = 1;
};

struct BalanceProgress {
  int done = 0, total = 0;
  double seconds = 0;  // since the start
};

// Plays config.games games of `variant` with `seats[s]` playing seat s (one per seat; the
// label is recorded in BalanceGame::seat_agent). Seats with the same evaluator and playouts
// share one search tree per game; each distinct agent has its own.
std::vector<BalanceGame> play_balance_games(
    const VariantPtr& variant, const std::vector<SeatAgent>& seats, const std::string& strength,
    const BalanceConfig& config, const std::function<void(const BalanceProgress&)>& progress = {});

// The same bot, `evaluator` at config.playouts, on every seat.
// Plays config.games games of `variant` (any number of seats). Game i depends only on the seed
// and i, not on threads or batching (with a deterministic evaluator). `progress` is called after
// each game, never by two threads at once. The games come back in index order.
std::vector<BalanceGame> play_balance_games(
    const VariantPtr& variant, Evaluator& evaluator, const std::string& strength,
    const BalanceConfig& config, const std::function<void(const BalanceProgress&)>& progress = {});

// Every army's count of every piece type, on the board and in hand.
MaterialSnapshot material_of(const Position& position);

// A recorded self-play game replayed from the start for its material snapshots (every
// `material_every` plies), as a BalanceGame of `strength`. Records keep team scores only, so
// the individual scores repeat them and ranks and drop-outs are not recorded. Throws MoveError
// naming the ply of a move the variant does not allow there, and std::invalid_argument when the
// record's seats are not the variant's.
BalanceGame balance_game_from_record(const VariantPtr& variant, const SelfPlayRecord& record,
                                     const std::string& strength, int material_every);

// "12/100 games, 3.4 games/s, ETA 26 s".
std::string describe_progress(const BalanceProgress& progress);

}  // namespace fairyzero
