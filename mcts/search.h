// Search: PUCT Monte-Carlo tree search of one game, multithreaded with virtual loss (threads
// share the tree without a lock), gathering leaves into batches for the evaluator; or driven
// from outside, many games in one batch (gather/finish), which is how self-play keeps the
// evaluator's batches large.
#pragma once

#include <atomic>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <random>
#include <shared_mutex>
#include <span>
#include <vector>

#include "mcts/evaluator.h"
#include "mcts/tree.h"

namespace fairyzero {

// When to stop. Zero means no limit; at least one limit should be set.
struct SearchLimits {
  int playouts = 0;    // new playouts in this search
  int visits = 0;      // root visits, counting those kept from the previous move
  double seconds = 0;  // wall time
  // Only these root moves (UCI searchmoves); empty: all. Such a search starts from a new tree
  // and leaves none behind for the next.
  std::vector<Move> root_moves = {};
  int lines = 1;  // root moves reported with their lines (MultiPV)
  // Stops as soon as the most visited root move cannot be overtaken in the playouts left (at
  // the rate so far, under a time limit): lc0's smart pruning, for a clock's searches.
  bool stop_when_decided = false;
  // Under a time limit, a search still unclear at `seconds` goes on up to `max_seconds` (0: it
  // stops at `seconds`). Unclear: another root move with at least half the visits of the most
  // visited one has the better value, so the choice may yet change.
  double max_seconds = 0;
};

// A root move's line, for analysis (MultiPV): the first is the move the search plays.
struct SearchLine {
  Move move;
  int visits = 0;
  float value = 0.5f;          // for the seat to move at the root
  std::array<float, 3> wdl{};  // of the team to move at the root, from `value`
  bool proven = false;
  float moves_left = 0;  // plies to the game's end from the root through this move
  std::vector<Move> pv;  // starting with `move`
};

struct ChildStats {
  Move move;
  int visits = 0;
  float value = 0.5f;  // for the seat to move at the root
  float prior = 0;
  bool proven = false;
};

struct SearchResult {
  Move best;                         // none when the root has no legal move
  std::vector<ChildStats> children;  // root children, most visited first
  std::vector<Move> principal_variation;
  std::vector<SearchLine> lines;         // the best limits.lines root moves, best first
  std::array<float, kMaxSeats> value{};  // root value per seat
  std::array<float, 3> wdl{};            // of the team to move, from the root value
  bool proven = false;                   // the root value is exact (a forced result was found)
  // Plies to the game's end: when proven, exact along the best move's proof (the quickest win
  // or the slowest loss proven); else the mean prediction (0 without a moves-left head).
  float moves_left = 0;
  int root_visits = 0;
  int playouts = 0;  // in this search
  double seconds = 0;
  size_t tree_nodes = 0;  // nodes made (visited positions)
  size_t tree_bytes = 0;  // memory the tree holds
};

// A self-play policy target from a search's root: visits per child of `result.children`.
// Children proven lost for the mover get none (unless every child is), and with forced
// playouts, KataGo's policy target pruning takes out of each child but the most visited the
// forced visits that PUCT alone would not have given it (and a child left with one visit goes).
// Never more than a child's visits.
std::vector<int> policy_target_visits(const SearchResult& result, const SearchParams& params);

class Search {
 public:
  // The evaluator must outlive the search. `root` is copied (with its history, for repetitions).
  Search(const Position& root, Evaluator& evaluator, const SearchParams& params = {});

  const Position& position() const { return root_; }
  // Starts over from another position.
  void set_position(const Position& root);
  // Plays a move at the root and keeps its subtree (tree reuse).
  void play(Move m);
  // Whether root Dirichlet noise is mixed in (self-play turns it off for fast searches). Takes
  // effect when the root is next expanded or reused.
  void set_root_noise(bool on);

  // Searches with params.threads threads until a limit is reached, stop() is called, or the root
  // is proven. `progress`, if given, is called about every `progress_seconds`, by one worker
  // thread at a time (not necessarily the caller's).
  SearchResult run(const SearchLimits& limits,
                   const std::function<void(const SearchResult&)>& progress = {},
                   double progress_seconds = 1.0);
  // Asks a running run() to return soon; safe from any thread.
  void stop() { stop_requested_ = true; }

  SearchResult result() const;
  // The move to play: the best child at temperature 0, else sampled with probability
  // proportional to visits^(1/temperature). Proven wins are always taken, proven losses avoided.
  Move choose_move(float temperature, std::mt19937_64& rng) const;

  // For a caller that batches many games (one thread): gathers up to `max_leaves` leaves that
  // need evaluation into `leaves` (resized as needed; returns how many), completing finished
  // games and proven nodes on the way, and stopping at the first collision. Then finish()
  // with their evaluations.
  int gather(int max_leaves, std::vector<PendingLeaf>& leaves);
  void finish(std::span<PendingLeaf> leaves, std::span<const Evaluation> evaluations);
  bool done(const SearchLimits& limits) const;
  void begin(const SearchLimits& limits);

 private:
  // Selects up to `max_leaves` leaves (completing known ones at once), giving up after
  // `max_collisions` collisions; returns how many need evaluation, their positions prepared.
  int gather_leaves(int max_leaves, int max_collisions, std::vector<PendingLeaf>& leaves);
  void worker(const SearchLimits& limits, const std::function<void(const SearchResult&)>& progress,
              double progress_seconds);
  void report(const std::function<void(const SearchResult&)>& progress, double every);
  // A thread that found every leaf it wanted pending elsewhere sleeps until a leaf is
  // completed (or the search stops) instead of spinning.
  void wait_for_completion(uint64_t seen);
  void count_completions(int count);
  // stop_when_decided: the lead of the most visited root move over the next is more than the
  // playouts the limits leave.
  bool decided(const SearchLimits& limits) const;
  // Another root move with at least half the most visited one's visits has a better value.
  bool unclear() const;
  // `seconds`, or `max_seconds` while the search is unclear.
  double time_limit(const SearchLimits& limits) const;
  SearchResult result_unlocked() const;
  // The moves from `node` through its edge k and then the best edges, while visited.
  std::vector<Move> line_from(int32_t node, int k) const;

  Position root_;
  Evaluator& evaluator_;
  SearchParams params_;
  SearchTree tree_;
  // Workers hold it shared for a whole run; play(), set_position() and set_root_noise() change
  // the tree alone, so they wait for a running search to end.
  mutable std::shared_mutex tree_mutex_;
  std::atomic<bool> stop_requested_{false};
  int start_visits_ = 0;
  int lines_ = 1;
  bool restricted_ = false;  // the tree was searched under root_moves
  std::atomic<int> playouts_{0};
  double start_time_ = 0;
  std::mutex report_mutex_;
  double next_report_ = 0;  // guarded by report_mutex_
  std::atomic<uint64_t> completions_{0};
  std::atomic<int> waiting_{0};
  std::mutex wait_mutex_;
  std::condition_variable completed_;
};

}  // namespace fairyzero
