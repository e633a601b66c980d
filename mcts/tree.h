// The search tree: nodes in one arena, PUCT selection over per-seat value vectors, expansion,
// backup with virtual loss, and proof of won and lost positions (an MCTS-solver). Not
// thread-safe: Search guards it with a mutex.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "core/position.h"
#include "mcts/evaluator.h"

namespace fairyzero {

struct SearchParams {
  // PUCT exploration, growing slowly with visits as in AlphaZero: c = init + log((N+base+1)/base).
  float cpuct_init = 1.25f;
  float cpuct_base = 19652.0f;
  // First-play urgency: an unvisited child's value is the parent's minus this times the square
  // root of the prior mass already visited (lc0). Separate value at the root.
  float fpu_reduction = 0.25f;
  float fpu_reduction_root = 0.0f;
  // Root exploration noise for self-play (Dirichlet(alpha), mixed with weight epsilon).
  bool root_noise = false;
  float dirichlet_alpha = 0.3f;
  // When positive, the concentration is this total spread over the legal moves (KataGo's and
  // lc0's scaling): alpha = dirichlet_total_alpha / moves, so a position with few moves gets
  // as much exploration as one with many. 0: dirichlet_alpha for every position.
  float dirichlet_total_alpha = 0.0f;
  float dirichlet_epsilon = 0.25f;
  // KataGo's forced playouts: in searches with root noise (self-play's full searches), a root
  // child with fewer than sqrt(k x prior x root visits) visits is visited next, so the noise's
  // picks are tried; policy_target_pruning takes those visits back out of the policy target.
  // 0: off; KataGo uses k = 2.
  float forced_playouts = 0.0f;
  float policy_temperature = 1.0f;  // softmax temperature on the evaluator's logits
  int virtual_loss = 1;             // in-flight visits counted as losses for the mover
  int threads = 1;                  // search threads for one game
  int leaves_per_batch = 8;         // leaves a thread gathers per evaluator call
  // A leaf with this many plies played (from the game's start) is the length cap's draw, as the
  // game runner will score it (0: no cap): values near the cap agree with the draw targets.
  int max_plies = 0;
  // lc0's moves-left utility, where the evaluator predicts the plies left (a moves-left head):
  // a child's value for the mover gains slope x (parent's plies left - child's), capped at
  // +-moves_left_max_effect and signed by whether the mover is ahead (value above 1/2), so
  // the search hurries a win and drags out a loss. 0: off. In [0, 1] value units (lc0's
  // MovesLeftSlope 0.0027 and MaxEffect 0.0345 are in [-1, 1] units).
  float moves_left_slope = 0.0014f;
  float moves_left_max_effect = 0.017f;
  uint64_t seed = 1;
};

// The best and the worst score any scoring gives a seat: a team win or the sole first place,
// and a loss or the last place. Only the best proves a node by one child: under individual
// scoring a tied first (5/6 of four seats) may still be beaten by another move's sole first.
inline constexpr float kBestScore = 1.0f;
inline constexpr float kWorstScore = 0.0f;

// The forced playouts of a root child with `prior` after `root_visits` root visits.
inline float forced_playouts(const SearchParams& params, float prior, float root_visits) {
  return params.forced_playouts > 0 ? std::sqrt(params.forced_playouts * prior * root_visits)
                                    : 0.0f;
}

// The Dirichlet concentration of the root noise for a root with `moves` legal moves.
inline float root_noise_alpha(const SearchParams& params, int moves) {
  return params.dirichlet_total_alpha > 0 && moves > 0 ? params.dirichlet_total_alpha / moves
                                                       : params.dirichlet_alpha;
}

struct Node {
  Move move;        // the move from the parent
  float prior = 0;  // after softmax (and noise at the root)
  int32_t parent = -1;
  int32_t first_child = -1;
  uint16_t child_count = 0;
  uint8_t seat = 0;  // seat to move in this node's position
  enum State : uint8_t { kUnexpanded, kPending, kExpanded, kTerminal } state = kUnexpanded;
  bool proven = false;  // value is exact (a finished game, or proven by the children)
  int32_t visits = 0;
  int32_t in_flight = 0;
  std::array<float, kMaxSeats> value_sum{};
  std::array<float, kMaxSeats> exact{};  // the exact value when proven
  // Plies left to the game's end: the sum of the backed-up predictions (over `visits`), and
  // when proven the exact count along the proof (the quickest win, the slowest loss).
  float moves_left_sum = 0;
  int32_t proof_plies = 0;
};

// A leaf chosen for evaluation. `position` is the leaf's position; `path` runs from the root.
struct PendingLeaf {
  int32_t node = -1;
  bool known = false;  // a finished or proven node: complete it without evaluation
  std::vector<int32_t> path;
  std::vector<Move> moves;  // the moves from the root, for replaying outside the tree's lock
  Position position;
  MoveList legal;
  Outcome outcome;
  explicit PendingLeaf(const Position& root) : position(root) {}
};

class SearchTree {
 public:
  SearchTree(const SearchParams& params, int seats);

  // Starts over from a position (drops the tree).
  void reset(const Position& root);
  // Keeps the subtree below `m` as the new tree when `m` was a root child; else starts over.
  void advance(const Position& new_root, Move m);

  // Walks from the root to a leaf, applying virtual loss, and records the path and its moves in
  // `leaf` (the caller plays them on leaf.position). Returns false on a collision (the leaf is
  // already pending evaluation by someone else); then no virtual loss remains.
  bool select(PendingLeaf& leaf);
  // Finishes a leaf: expands it with the evaluation (or as a finished game when `eval` is null)
  // and backs its value up the path.
  void complete(PendingLeaf& leaf, const Evaluation* eval);
  // Takes back the virtual loss of a selected leaf that will not be completed.
  void abandon(const PendingLeaf& leaf);

  // Root noise on or off from the next root expansion (or reuse) on.
  void set_root_noise(bool on) { params_.root_noise = on; }

  const Node& node(int32_t i) const { return nodes_[i]; }
  const Node& root() const { return nodes_[0]; }
  size_t size() const { return nodes_.size(); }

  // The child of `parent` the search would rather play: proven wins first, then visits, then
  // value; -1 when there is none.
  int32_t best_child(int32_t parent) const;
  // Mean value of a node for a seat, or its exact value when proven.
  float value_of(const Node& n, int seat) const;
  // Plies the node's position has left to the game's end: exact when proven, else the mean
  // prediction (0 when the evaluator predicts none).
  float moves_left_of(const Node& n) const;

 private:
  int32_t select_child(int32_t parent) const;
  void backup(const std::vector<int32_t>& path, const std::array<float, kMaxSeats>& value,
              float moves_left);
  // The moves-left utility of `child` whose value for the mover is q (moves_left_slope).
  float moves_left_utility(const Node& parent, const Node& child, float q) const;
  void propagate_proof(const std::vector<int32_t>& path);
  void copy_subtree(const std::vector<Node>& from, int32_t root);
  // Mixes Dirichlet noise into the root priors (once per root, when it is expanded).
  void add_root_noise(std::mt19937_64& rng);

  SearchParams params_;
  int seats_;
  std::vector<Node> nodes_;
  bool noise_added_ = false;
  bool moves_left_known_ = false;  // an evaluation has predicted plies left
  std::mt19937_64 rng_;
};

}  // namespace fairyzero
