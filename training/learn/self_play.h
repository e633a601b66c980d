// Self-play: the game runner's workers, each playing a group of games at once through batched
// search and one shared evaluator (an InferenceServer in training), writing a training sample
// for every move that got a full search, and a text record of every game.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "mcts/evaluator.h"
#include "mcts/search.h"
#include "nn/encoder.h"
#include "training/data/sample.h"

namespace fairyzero {

struct SelfPlayConfig {
  int games = 64;   // games per generation
  int workers = 2;  // threads; each plays `games_per_worker` games at a time
  int games_per_worker = 16;
  int batches_in_flight = 2;  // evaluator calls each worker keeps in flight (game runner lanes)
  int leaves_per_game = 4;    // leaves per game in each batched round
  // Playout cap randomization (KataGo): a move gets a full search with this probability and
  // becomes a training target; other moves get a fast search and are not recorded.
  int full_playouts = 200;
  int fast_playouts = 40;
  double full_search_probability = 0.25;
  // Move choice: temperature `temperature_start` for the first `temperature_plies` plies of a
  // game, then `temperature_end` (0 = most visited).
  double temperature_start = 1.0;
  int temperature_plies = 20;
  double temperature_end = 0.0;
  // PUCT exploration, first-play urgency and the root noise of full searches: the parameters
  // that mcts/search_settings.h marks for self-play (the rest of `search` is set per search).
  SearchParams search;
  // Resignation: the seat to move resigns when its expected score stays below the threshold
  // for `resign_consecutive` of its moves (negative threshold: never). In a `no_resign_fraction`
  // of games nobody resigns, to measure how often a resignation would have been wrong.
  double resign_threshold = 0.03;
  int resign_consecutive = 3;
  double no_resign_fraction = 0.2;
  // Games still running at this many plies are scored as draws (0: the variant's rules only).
  int max_plies = 400;
  // Value targets: (1 - w) x the game's result + w x the full search's root value (0: the result
  // only, AlphaZero's z; some reproductions mix in the search's q to lower the targets' noise).
  double root_value_weight = 0;
  // Games still going when a generation's quota has finished wait in their slots and continue
  // in the next run() with its network, so a generation ends without a tail of idle slots and
  // small batches (KataGo plays on across network changes too). Off: every game started is
  // played out, and only `games` are started.
  bool carry_over = false;
  uint64_t seed = 1;
};

struct GameRecord {
  std::string moves;        // in the variant's coordinates, space-separated
  std::string termination;  // "checkmate", "resignation", "maximum game length", ...
  std::array<double, kMaxSeats> score{};
  int plies = 0;
  std::string networks;  // who played each seat, from the game's lineup (empty: one network)
  int samples = 0;       // its samples, which follow those of the games before it in run()'s
};

// Who plays one game: the evaluator of all its positions (for example a SeatRoutingEvaluator
// over the networks drawn for each seat) and a label for its GameRecord.
struct GameLineup {
  Evaluator* evaluator = nullptr;  // must outlive the run and be thread safe
  std::string networks;            // e.g. "white=gen-0003 black=gen-0001"
};
// Draws the lineup of each new game (league play). Called from several workers at once.
using Matchmaker = std::function<GameLineup(std::mt19937_64& rng)>;

struct SelfPlayStats {
  int games = 0;
  int64_t moves = 0;      // positions searched and played
  int64_t samples = 0;    // of which became training targets
  int64_t evaluated = 0;  // positions sent to the evaluator
  // Moves searched and played during the run in every game, those of games still going (carry
  // over) included: the steady rate, where `moves` counts the finished games'.
  int64_t played = 0;
  double seconds = 0;
  std::map<std::string, int> terminations;
  std::array<double, kMaxSeats> score_sum{};  // per seat, over the games
  int resignations = 0;
  int resign_checks = 0;  // no-resign games in which some seat would have resigned
  int false_resigns = 0;  // ... and whose team did not lose after all
  // Moves played per second: of every game once the run is over (`played`), of the finished
  // games while it runs.
  double moves_per_second() const {
    return seconds > 0 ? static_cast<double>(played > 0 ? played : moves) / seconds : 0;
  }
  double mean_plies() const { return games > 0 ? static_cast<double>(moves) / games : 0; }
};

class SelfPlay {
 public:
  // The evaluator must be safe to call from several threads (an InferenceServer is).
  // With a `matchmaker`, each game is played by the lineup it draws instead of `evaluator`;
  // games of the same lineup are searched in one batch.
  SelfPlay(VariantPtr variant, Evaluator& evaluator, const SelfPlayConfig& config,
           Matchmaker matchmaker = {});

  ~SelfPlay();

  // Plays config.games games (with carry_over: until that many have finished, a few more when
  // several end at once; the games a previous run left are among them). Samples and records
  // are appended in completion order. `progress` is called after each finished game (from one
  // thread at a time).
  SelfPlayStats run(std::vector<Sample>& samples, std::vector<GameRecord>& games,
                    const std::function<void(const SelfPlayStats&)>& progress = {});
  // Who plays from the next run() on, games carried over included (a new generation).
  void set_players(Evaluator& evaluator, Matchmaker matchmaker = {});
  // Games waiting for the next run() (carry_over).
  int carried() const;

 private:
  VariantPtr variant_;
  Evaluator* evaluator_;
  SelfPlayConfig config_;
  Matchmaker matchmaker_;
  Encoder encoder_;
  std::unique_ptr<class GameRunner> runner_;  // with carry_over
};

}  // namespace fairyzero
