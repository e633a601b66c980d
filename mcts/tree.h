// The search tree: PUCT selection over per-seat value vectors, expansion, backup with virtual
// loss, and proof of won and lost positions (an MCTS-solver). Threads select, complete and
// back up at once without a lock (KataGo's design): node statistics are atomic, a node is
// expanded by the one thread that claimed it, and nodes never move (a chunked arena).
#pragma once

#include <array>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <memory>
#include <random>
#include <vector>

#include "core/position.h"
#include "mcts/chunked_arena.h"
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

// A move from an expanded node: compact, with the child node made on its first visit (lc0).
struct Edge {
  Move move;
  float prior = 0;                 // after softmax (and noise at the root)
  std::atomic<int32_t> child{-1};  // the node below, -1 while unvisited
};

struct Node {
  enum State : uint8_t { kUnexpanded, kPending, kExpanded, kTerminal };
  Move move;  // the move from the parent
  int32_t parent = -1;
  // The node's edges, set by the thread that expanded it before it publishes kExpanded.
  int32_t first_edge = -1;
  uint16_t edge_count = 0;
  std::atomic<uint8_t> seat{0};  // seat to move in this node's position (once expanded)
  std::atomic<State> state{kUnexpanded};
  std::atomic<bool> proven{false};  // exact below is set (a finished game, or proven)
  std::atomic<int32_t> visits{0};
  std::atomic<int32_t> in_flight{0};
  std::array<std::atomic<float>, kMaxSeats> value_sum{};
  // Plies left to the game's end: the sum of the backed-up predictions (over `visits`), and
  // when proven the exact count along the proof (the quickest win, the slowest loss).
  std::atomic<float> moves_left_sum{0};
  std::array<float, kMaxSeats> exact{};  // the exact value, once proven
  int32_t proof_plies = 0;
  std::atomic_flag proof_lock;  // taken to prove the node, so it is proven once

  // A fresh node (arena slots are reused after a reset).
  void reset(Move from_parent, int32_t parent_index);
  bool expanded() const { return state.load(std::memory_order_acquire) == kExpanded; }
};

// A leaf chosen for evaluation. `position` is the leaf's position; `path` runs from the root.
struct PendingLeaf {
  int32_t node = -1;
  bool known = false;  // a finished or proven node: complete it without evaluation
  std::vector<int32_t> path;
  std::vector<Move> moves;  // the moves from the root, replayed outside the tree
  Position position;
  MoveList legal;
  Outcome outcome;
  explicit PendingLeaf(const Position& root) : position(root) {}
};

class SearchTree {
 public:
  SearchTree(const SearchParams& params, int seats);

  // Starts over from a position (drops the tree). These two, with set_root_noise, only while no
  // other thread uses the tree.
  void reset(const Position& root);
  // Keeps the subtree below `m` as the new tree when `m` was a root child; else starts over.
  void advance(const Position& new_root, Move m);
  // Root noise on or off from the next root expansion (or reuse) on.
  void set_root_noise(bool on) { params_.root_noise = on; }
  // Only these root moves are searched, chosen and proven by (UCI searchmoves, XBoard
  // exclude); empty: all. A proof under a restriction holds for it alone: start over after.
  void set_root_moves(std::vector<Move> moves) { root_moves_ = std::move(moves); }

  // Walks from the root to a leaf, applying virtual loss, and records the path and its moves in
  // `leaf` (the caller plays them on leaf.position). Returns false on a collision (the leaf is
  // already pending evaluation by another caller); then no virtual loss remains. Any thread.
  bool select(PendingLeaf& leaf);
  // Finishes a selected leaf: expands it with the evaluation (or as a finished game when `eval`
  // is null), backs its value up the path and proves what it can. Any thread.
  void complete(PendingLeaf& leaf, const Evaluation* eval);
  // Takes back the virtual loss of a selected leaf that will not be completed.
  void abandon(const PendingLeaf& leaf);

  const Node& node(int32_t i) const { return (*nodes_)[i]; }
  const Node& root() const { return (*nodes_)[0]; }
  // The edges of a node: none until it is expanded.
  int edge_count(int32_t node) const;
  const Edge& edge(int32_t node, int k) const { return (*edges_)[(*nodes_)[node].first_edge + k]; }
  // The node below edge k, or -1 while that move is unvisited; make_child makes it if needed.
  int32_t child(int32_t node, int k) const {
    return edge(node, k).child.load(std::memory_order_acquire);
  }
  int32_t make_child(int32_t node, int k);
  // Nodes made, and the memory the tree holds.
  size_t size() const { return static_cast<size_t>(nodes_->size()); }
  size_t bytes() const { return nodes_->bytes() + edges_->bytes(); }

  // The edge of `parent` the search would rather play: proven wins first, then visits, then
  // value; -1 when there is none. ranked_edges: all of them in that order.
  int best_edge(int32_t parent) const;
  std::vector<int> ranked_edges(int32_t parent) const;
  // Mean value of a node for a seat, or its exact value when proven.
  float value_of(const Node& n, int seat) const;
  // The same for the node below an edge: 1/2 while unvisited.
  float value_of_child(int32_t parent, int k, int seat) const;
  // Plies the node's position has left to the game's end: exact when proven, else the mean
  // prediction (0 when the evaluator predicts none).
  float moves_left_of(const Node& n) const;

 private:
  // What best_edge compares of an edge's child.
  struct Candidate {
    bool proven = false;
    float exact = 0.5f;  // for the mover, when proven
    int32_t plies = 0;
    int visits = 0;
    float value = 0.5f;
  };
  Candidate candidate(int32_t parent, int k, int seat) const;
  static bool better(const Candidate& c, const Candidate& b);
  bool allowed(int32_t parent, int k) const;
  Node& mutable_node(int32_t i) { return (*nodes_)[i]; }
  Edge& mutable_edge(int32_t node, int k) { return (*edges_)[(*nodes_)[node].first_edge + k]; }
  int select_edge(int32_t parent) const;
  void expand(PendingLeaf& leaf, const Evaluation& eval);
  void backup(const std::vector<int32_t>& path, const std::array<float, kMaxSeats>& value,
              float moves_left);
  // The moves-left utility of a child whose value for the mover is q (moves_left_slope).
  float moves_left_utility(const Node& parent, const Node& child, float q) const;
  void propagate_proof(const std::vector<int32_t>& path);
  // Copies the subtree under `from_root` of the given arenas into this tree's (empty) ones.
  void copy_subtree(const ChunkedArena<Node>& nodes, const ChunkedArena<Edge>& edges,
                    int32_t from_root);
  // Mixes Dirichlet noise into the root priors (once per root, when it is expanded).
  void add_root_noise(std::mt19937_64& rng);

  SearchParams params_;
  int seats_;
  // Behind pointers so that tree reuse copies a subtree into new arenas and drops the old.
  std::unique_ptr<ChunkedArena<Node>> nodes_;
  std::unique_ptr<ChunkedArena<Edge>> edges_;
  bool noise_added_ = false;
  std::vector<Move> root_moves_;
  std::atomic<bool> moves_left_known_{false};  // an evaluation has predicted plies left
  std::mt19937_64 rng_;
};

}  // namespace fairyzero
