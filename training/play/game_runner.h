// The one loop that plays games, for self-play, balance studies, the arena between internal
// players and the benchmarks: many games per thread searched in one evaluator batch, openings,
// a temperature schedule, a ply cap, resignation, and hooks for samples and records.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/position.h"
#include "mcts/evaluator.h"
#include "mcts/search.h"

namespace fairyzero {

// The player of one seat: an evaluator behind MCTS. Seats of one game with the same evaluator,
// playouts and parameters share one search tree; every distinct agent has its own.
struct SeatAgent {
  SeatAgent() = default;
  SeatAgent(Evaluator* evaluator, int playouts, std::string label, SearchParams params = {})
      : evaluator(evaluator), playouts(playouts), label(std::move(label)), params(params) {}

  Evaluator* evaluator = nullptr;  // must outlive the games and take calls from several threads
  int playouts = 64;               // new playouts per full search (the tree is kept)
  std::string label;               // recorded, e.g. "uniform@8" or "gen-0003"
  SearchParams params;             // root_noise: Dirichlet noise on full searches
};

// How game `index` starts and who plays it.
struct GameSetup {
  std::vector<SeatAgent> seats;      // one per seat
  std::optional<Position> start;     // none: the variant's start position
  std::vector<std::string> opening;  // moves played from `start` before any search
  std::string label;                 // who plays, for records ("white=gen-3 black=gen-1")
};

struct GameRunnerConfig {
  int games = 1;
  int threads = 1;  // each drives `games_per_thread` games; evaluators are shared
  int games_per_thread = 16;
  int leaves_per_game = 4;  // leaves per game in each batched round
  // Evaluator calls each thread keeps in flight: its games are split into this many lanes, and
  // while one lane's batch is evaluated (on another thread) the worker prepares the next lane's.
  int batches_in_flight = 2;
  // Playout cap randomization (KataGo): a move gets the agent's full playouts with this
  // probability, otherwise `fast_playouts` (no noise); the hooks learn which.
  double full_search_probability = 1.0;
  int fast_playouts = 0;
  // Move choice: `temperature_start` while fewer than `temperature_plies` plies were played
  // (the opening's included), then `temperature_end` (0: the most visited move).
  double temperature_start = 0;
  int temperature_plies = 0;
  double temperature_end = 0;
  // The seat to move resigns when its expected score stays below the threshold for
  // `resign_consecutive` of its moves (negative: never). A `no_resign_fraction` of games is
  // played out to measure how often that would have been wrong.
  double resign_threshold = -1;
  int resign_consecutive = 3;
  double no_resign_fraction = 0;
  // A game that reaches this many moves (the opening's included) is a draw (0: no cap).
  int max_plies = 400;
  std::string length_cap_termination = "maximum game length";
  uint64_t seed = 1;  // game i's randomness depends only on this and i
};

struct PlayedGame {
  int index = 0;
  GameSetup setup;
  std::vector<std::string> moves;  // every move, the opening's first
  Outcome outcome;                 // team scores, individual scores and ranks per seat
  std::string termination;         // termination_name(), "resignation" or the length cap's
  std::vector<int> dropout_order;  // per seat (four-player river games)
  bool no_resign = false;          // played out to check resignations
  std::array<bool, kMaxSeats> would_resign{};  // seats that would have resigned
  double seconds = 0;
};

// Watches one game from the thread that plays it.
class GameObserver {
 public:
  virtual ~GameObserver() = default;
  // A move was searched in `position` (before it is played); `full` says whether it had the
  // full playouts.
  virtual void searched(const Position& position, const SearchResult& result, bool full) {
    (void)position, (void)result, (void)full;
  }
  // A move was played; `position` is the position after it.
  virtual void played(const Position& position) { (void)position; }
};

struct GameHooks {
  // Required. Called from the worker threads, possibly at once.
  std::function<GameSetup(int index)> setup;
  // Optional: an observer for game `index`, given its start position (after the opening).
  std::function<std::unique_ptr<GameObserver>(int index, const Position& start)> observe;
  // Optional: each finished game with its observer, never two at once. Return false to start
  // no more games (the games in progress are still finished and reported).
  std::function<bool(PlayedGame& game, GameObserver* observer)> finished;
};

struct GameRunnerStats {
  int games = 0;
  long long moves = 0;      // moves searched and played in this run, in every game (carried
                            // games' included; openings excluded)
  long long evaluated = 0;  // positions sent to evaluators
  double seconds = 0;
};

// Plays games 0 .. config.games - 1 to their end (fewer when `finished` stops it). A thread that
// throws stops the others from starting games and the first error is rethrown.
GameRunnerStats run_games(const VariantPtr& variant, const GameRunnerConfig& config,
                          const GameHooks& hooks);

// Slots that outlive one run, for self-play's generations: run(games) returns as soon as `games`
// games have finished, and the games still going stay in their slots instead of running on
// while the slots around them empty (no tail of small batches at the end of a generation). The
// next run() continues them with the seat agents its setup hook gives for their index (the new
// network), with fresh trees; games are numbered on from run to run. config.games is unused.
class GameRunner {
 public:
  GameRunner(VariantPtr variant, const GameRunnerConfig& config);
  ~GameRunner();
  GameRunner(const GameRunner&) = delete;
  GameRunner& operator=(const GameRunner&) = delete;

  // At least `games` games finish and are reported (a few more when several end in the last
  // round). After an error the slots are emptied.
  GameRunnerStats run(int games, const GameHooks& hooks);
  // Games waiting in the slots for the next run().
  int carried() const;

 private:
  struct Pool;
  VariantPtr variant_;
  GameRunnerConfig config_;
  std::unique_ptr<Pool> pool_;
};

// The outcome given to a game stopped by the ply cap: core's length_cap_outcome().
// The outcome of a resignation by `seat`: its team loses, every other team wins.
Outcome resignation_outcome(const Variant& variant, int seat);

}  // namespace fairyzero
