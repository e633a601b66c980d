// PUCT selection, expansion, backup and proof propagation over the node arena, safe for many
// threads at once: statistics are atomic, and each step publishes what it wrote with a
// release store (a node's edges with its kExpanded state, a child with its edge, an exact
// value with its proven flag) that readers load with acquire.
#include "mcts/tree.h"

#include <algorithm>
#include <cmath>
#include <deque>

namespace fairyzero {
namespace {

constexpr auto kRelaxed = std::memory_order_relaxed;
constexpr auto kAcquire = std::memory_order_acquire;
constexpr auto kRelease = std::memory_order_release;

// A node's fields into a fresh slot, for tree reuse (one thread, nothing in flight).
void copy_node(const Node& from, Node& to, Move move, int32_t parent) {
  to.reset(move, parent);
  to.seat.store(from.seat.load(kRelaxed), kRelaxed);
  const Node::State state = from.state.load(kRelaxed);
  to.state.store(state == Node::kPending ? Node::kUnexpanded : state, kRelaxed);
  to.proven.store(from.proven.load(kRelaxed), kRelaxed);
  to.visits.store(from.visits.load(kRelaxed), kRelaxed);
  for (int s = 0; s < kMaxSeats; ++s) to.value_sum[s].store(from.value_sum[s].load(kRelaxed));
  to.moves_left_sum.store(from.moves_left_sum.load(kRelaxed), kRelaxed);
  to.exact = from.exact;
  to.proof_plies = from.proof_plies;
}

}  // namespace

void Node::reset(Move from_parent, int32_t parent_index) {
  move = from_parent;
  parent = parent_index;
  first_edge = -1;
  edge_count = 0;
  seat.store(0, kRelaxed);
  state.store(kUnexpanded, kRelaxed);
  proven.store(false, kRelaxed);
  visits.store(0, kRelaxed);
  in_flight.store(0, kRelaxed);
  for (auto& v : value_sum) v.store(0, kRelaxed);
  moves_left_sum.store(0, kRelaxed);
  exact = {};
  proof_plies = 0;
  proof_lock.clear();
}

SearchTree::SearchTree(const SearchParams& params, int seats)
    : params_(params),
      seats_(seats),
      nodes_(std::make_unique<ChunkedArena<Node>>()),
      edges_(std::make_unique<ChunkedArena<Edge>>()),
      rng_(params.seed) {}

void SearchTree::reset(const Position& root) {
  nodes_->clear();
  edges_->clear();
  const int32_t index = nodes_->allocate(1);
  mutable_node(index).reset(Move(), -1);
  mutable_node(index).seat.store(static_cast<uint8_t>(root.seat_to_move()), kRelaxed);
  noise_added_ = false;
  moves_left_known_.store(false, kRelaxed);
}

int SearchTree::edge_count(int32_t node) const {
  const Node& n = this->node(node);
  return n.expanded() ? n.edge_count : 0;
}

int32_t SearchTree::make_child(int32_t node, int k) {
  Edge& e = mutable_edge(node, k);
  int32_t existing = e.child.load(kAcquire);
  if (existing >= 0) return existing;
  const int32_t fresh = nodes_->allocate(1);
  mutable_node(fresh).reset(e.move, node);
  if (e.child.compare_exchange_strong(existing, fresh, std::memory_order_acq_rel, kAcquire))
    return fresh;
  return existing;  // another thread made it first; `fresh` stays unused
}

float SearchTree::value_of(const Node& n, int seat) const {
  if (n.proven.load(kAcquire)) return n.exact[seat];
  const int visits = n.visits.load(kRelaxed);
  return visits > 0 ? n.value_sum[seat].load(kRelaxed) / visits : 0.5f;
}

float SearchTree::value_of_child(int32_t parent, int k, int seat) const {
  const int32_t c = child(parent, k);
  return c < 0 ? 0.5f : value_of(node(c), seat);
}

float SearchTree::moves_left_of(const Node& n) const {
  if (n.proven.load(kAcquire)) return static_cast<float>(n.proof_plies);
  const int visits = n.visits.load(kRelaxed);
  return visits > 0 ? n.moves_left_sum.load(kRelaxed) / visits : 0.0f;
}

float SearchTree::moves_left_utility(const Node& parent, const Node& child, float q) const {
  if (!moves_left_known_.load(kRelaxed) || params_.moves_left_slope <= 0) return 0;
  float shorter = moves_left_of(parent) - moves_left_of(child);
  float effect = std::clamp(params_.moves_left_slope * shorter, -params_.moves_left_max_effect,
                            params_.moves_left_max_effect);
  return effect * (2 * q - 1);
}

// The parent is expanded (its edges are published).
int SearchTree::select_edge(int32_t parent) const {
  const Node& p = node(parent);
  const int seat = p.seat.load(kRelaxed);
  const int count = p.edge_count;
  float parent_visits = static_cast<float>(p.visits.load(kRelaxed) + p.in_flight.load(kRelaxed));
  float cpuct =
      params_.cpuct_init + std::log((parent_visits + params_.cpuct_base + 1) / params_.cpuct_base);
  float explore = cpuct * std::sqrt(std::max(parent_visits, 1.0f));
  // A node's edges are one run within a chunk (chunked_arena.h): indexed from the first, not
  // looked up through the arena for every child.
  const Edge* edges = count > 0 ? &edge(parent, 0) : nullptr;
  float visited_policy = 0;
  for (int k = 0; k < count; ++k) {
    const int32_t c = edges[k].child.load(kAcquire);
    if (c >= 0 && node(c).visits.load(kRelaxed) + node(c).in_flight.load(kRelaxed) > 0)
      visited_policy += edges[k].prior;
  }
  float reduction = parent == 0 ? params_.fpu_reduction_root : params_.fpu_reduction;
  float fpu = value_of(p, seat) - reduction * std::sqrt(visited_policy);
  int best = -1;
  float best_score = -1e30f;
  const bool forcing = parent == 0 && params_.root_noise && params_.forced_playouts > 0;
  const bool restricted = parent == 0 && !root_moves_.empty();
  for (int k = 0; k < count; ++k) {
    if (restricted && !allowed(parent, k)) continue;
    const Edge& e = edges[k];
    const int32_t ci = e.child.load(kAcquire);
    int n = 0;
    float q = fpu;
    bool lost = false;
    if (ci >= 0) {
      const Node& c = node(ci);
      const bool proven = c.proven.load(kAcquire);
      const int visits = c.visits.load(kRelaxed);
      n = visits + c.in_flight.load(kRelaxed);
      if (proven)
        q = c.exact[seat];
      else if (n > 0)
        q = c.value_sum[seat].load(kRelaxed) / n;  // in-flight visits count as losses
      lost = proven && c.exact[seat] <= kWorstScore;
      if (proven || visits > 0) q += moves_left_utility(p, c, q);
    }
    float score = q + explore * e.prior / (1 + n);
    // A child short of its forced playouts goes first (a proven loss never: nothing to learn).
    if (forcing && !lost &&
        static_cast<float>(n) < forced_playouts(params_, e.prior, parent_visits))
      score = 1e29f + e.prior;
    if (score > best_score) {
      best_score = score;
      best = k;
    }
  }
  return best;
}

bool SearchTree::select(PendingLeaf& leaf) {
  leaf.path.clear();
  leaf.moves.clear();
  int32_t index = 0;
  leaf.path.push_back(0);
  mutable_node(0).in_flight.fetch_add(params_.virtual_loss, kRelaxed);
  auto collide = [&] {
    for (int32_t i : leaf.path) mutable_node(i).in_flight.fetch_sub(params_.virtual_loss, kRelaxed);
    return false;
  };
  while (true) {
    Node& n = mutable_node(index);
    if (n.proven.load(kAcquire)) break;
    Node::State state = n.state.load(kAcquire);
    if (state == Node::kTerminal) break;
    if (state == Node::kUnexpanded) {
      // Claim it for evaluation; another thread may claim (or finish) it first.
      if (n.state.compare_exchange_strong(state, Node::kPending, std::memory_order_acq_rel)) break;
      continue;
    }
    if (state == Node::kPending) return collide();  // being evaluated by another caller
    const int k = select_edge(index);
    if (k < 0) return collide();
    leaf.moves.push_back(edge(index, k).move);
    index = make_child(index, k);
    leaf.path.push_back(index);
    mutable_node(index).in_flight.fetch_add(params_.virtual_loss, kRelaxed);
  }
  const Node& n = node(index);
  leaf.known = n.proven.load(kAcquire) || n.state.load(kAcquire) == Node::kTerminal;
  leaf.node = index;
  return true;
}

void SearchTree::abandon(const PendingLeaf& leaf) {
  for (int32_t i : leaf.path) mutable_node(i).in_flight.fetch_sub(params_.virtual_loss, kRelaxed);
  Node& n = mutable_node(leaf.node);
  Node::State pending = Node::kPending;
  if (!leaf.known) n.state.compare_exchange_strong(pending, Node::kUnexpanded);
}

void SearchTree::complete(PendingLeaf& leaf, const Evaluation* eval) {
  Node& n = mutable_node(leaf.node);
  std::array<float, kMaxSeats> value{};
  float moves_left = 0;
  bool newly_proven = false;
  if (n.proven.load(kAcquire) || n.state.load(kAcquire) == Node::kTerminal) {
    value = n.exact;
    moves_left = static_cast<float>(n.proof_plies);
  } else if (!eval) {  // the leaf is a finished game
    n.seat.store(static_cast<uint8_t>(leaf.position.seat_to_move()), kRelaxed);
    // Team result or individual ranking, as the variant scores (four-player river games).
    const auto& score = leaf.outcome.scored(leaf.position.variant().scoring);
    for (int s = 0; s < seats_; ++s) n.exact[s] = static_cast<float>(score[s]);
    n.proof_plies = 0;
    value = n.exact;
    n.proven.store(true, kRelease);
    n.state.store(Node::kTerminal, kRelease);
    newly_proven = true;
  } else {
    expand(leaf, *eval);
    value = eval->value;
    if (eval->moves_left >= 0) {
      moves_left = eval->moves_left;
      moves_left_known_.store(true, kRelaxed);
    }
  }
  backup(leaf.path, value, moves_left);
  if (newly_proven) propagate_proof(leaf.path);
}

// Writes the leaf's edges and then publishes them with its kExpanded state.
void SearchTree::expand(PendingLeaf& leaf, const Evaluation& eval) {
  const MoveList& legal = leaf.legal;
  const int count = legal.size();
  float top = -1e30f;
  for (float l : eval.policy_logits) top = std::max(top, l);
  const float temperature = std::max(params_.policy_temperature, 1e-3f);
  std::vector<float> priors(count);
  float sum = 0;
  for (int k = 0; k < count; ++k)
    sum += priors[k] = std::exp((eval.policy_logits[k] - top) / temperature);
  Node& n = mutable_node(leaf.node);
  n.first_edge = count > 0 ? edges_->allocate(count) : -1;
  n.edge_count = static_cast<uint16_t>(count);
  for (int k = 0; k < count; ++k) {
    Edge& e = mutable_edge(leaf.node, k);
    e.move = legal[k];
    e.prior = priors[k] / sum;
    e.child.store(-1, kRelaxed);
  }
  n.seat.store(static_cast<uint8_t>(leaf.position.seat_to_move()), kRelaxed);
  if (leaf.node == 0 && params_.root_noise && !noise_added_) add_root_noise(rng_);
  n.state.store(Node::kExpanded, kRelease);
}

// Each node on the path is `moves_left` plus its distance to the leaf plies from the end.
void SearchTree::backup(const std::vector<int32_t>& path, const std::array<float, kMaxSeats>& value,
                        float moves_left) {
  float plies = moves_left + static_cast<float>(path.size()) - 1;
  for (int32_t i : path) {
    Node& n = mutable_node(i);
    n.visits.fetch_add(1, kRelaxed);
    for (int s = 0; s < seats_; ++s) n.value_sum[s].fetch_add(value[s], kRelaxed);
    n.moves_left_sum.fetch_add(plies--, kRelaxed);
    n.in_flight.fetch_sub(params_.virtual_loss, kRelaxed);
  }
}

// A node is proven when a child gives the seat to move there the best score there is, or when
// every child is proven (then it is worth its best child). Of equal children the proof takes
// the quickest win and the slowest loss, so proof_plies is the distance to the end under it.
void SearchTree::propagate_proof(const std::vector<int32_t>& path) {
  for (size_t i = path.size() - 1; i-- > 0;) {
    const int32_t parent = path[i];
    Node& p = mutable_node(parent);
    if (!p.expanded() || p.proven.load(kAcquire)) return;
    const int seat = p.seat.load(kRelaxed);
    bool all_proven = true;
    const Node* best = nullptr;
    for (int k = 0; k < p.edge_count; ++k) {
      if (!allowed(parent, k)) continue;
      const int32_t ci = child(parent, k);
      if (ci < 0 || !node(ci).proven.load(kAcquire)) {
        all_proven = false;
        continue;
      }
      const Node& c = node(ci);
      if (!best) {
        best = &c;
        continue;
      }
      bool ahead = c.exact[seat] >= 0.5f;
      if (c.exact[seat] > best->exact[seat] ||
          (c.exact[seat] == best->exact[seat] &&
           (ahead ? c.proof_plies < best->proof_plies : c.proof_plies > best->proof_plies)))
        best = &c;
    }
    if (!best) return;
    bool wins = best->exact[seat] >= kBestScore;
    if (!wins && !all_proven) return;
    // Two threads may prove the same node at once: the first writes, under a lock held for
    // a few stores.
    while (p.proof_lock.test_and_set(kAcquire)) {
    }
    if (!p.proven.load(kRelaxed)) {
      p.exact = best->exact;
      p.proof_plies = best->proof_plies + 1;
      p.proven.store(true, kRelease);
    }
    p.proof_lock.clear(kRelease);
  }
}

void SearchTree::add_root_noise(std::mt19937_64& rng) {
  const Node& root = this->root();
  if (root.first_edge < 0 || root.edge_count == 0) return;
  std::gamma_distribution<float> gamma(root_noise_alpha(params_, root.edge_count), 1.0f);
  std::vector<float> noise(root.edge_count);
  float sum = 0;
  for (float& x : noise) sum += x = gamma(rng);
  if (sum <= 0) return;
  for (int k = 0; k < root.edge_count; ++k) {
    Edge& e = mutable_edge(0, k);
    e.prior =
        (1 - params_.dirichlet_epsilon) * e.prior + params_.dirichlet_epsilon * noise[k] / sum;
  }
  noise_added_ = true;
}

bool SearchTree::allowed(int32_t parent, int k) const {
  if (parent != 0 || root_moves_.empty()) return true;
  const Move m = edge(0, k).move;
  return std::find(root_moves_.begin(), root_moves_.end(), m) != root_moves_.end();
}

SearchTree::Candidate SearchTree::candidate(int32_t parent, int k, int seat) const {
  Candidate c;
  const int32_t ci = child(parent, k);
  if (ci < 0) return c;
  const Node& n = node(ci);
  c.proven = n.proven.load(kAcquire);
  if (c.proven) c.exact = n.exact[seat], c.plies = n.proof_plies;
  c.visits = n.visits.load(kRelaxed);
  c.value = value_of(n, seat);
  return c;
}

// Proven outcomes are compared by what they are worth to the mover, not by visits: under
// individual scoring a proven tied first (5/6 of four seats) must beat a proven draw (1/2)
// however the visits fell, and a proven node is played out by the child that proves it.
bool SearchTree::better(const Candidate& c, const Candidate& b) {
  auto rank = [](const Candidate& x) {
    return x.proven ? (x.exact >= kBestScore ? 2 : x.exact <= kWorstScore ? 0 : 1) : 1;
  };
  if (rank(c) != rank(b)) return rank(c) > rank(b);
  if (c.proven && b.proven) {
    if (c.exact != b.exact) return c.exact > b.exact;
    if (c.plies != b.plies)  // the quicker win, the slower loss
      return c.exact >= 0.5f ? c.plies < b.plies : c.plies > b.plies;
  }
  if (c.visits != b.visits) return c.visits > b.visits;
  return c.value > b.value;
}

int SearchTree::best_edge(int32_t parent) const {
  const int seat = node(parent).seat.load(kRelaxed);
  int best = -1;
  Candidate best_candidate;
  for (int k = 0; k < edge_count(parent); ++k) {
    if (!allowed(parent, k)) continue;
    Candidate c = candidate(parent, k, seat);
    if (best < 0 || better(c, best_candidate)) best = k, best_candidate = c;
  }
  return best;
}

std::vector<int> SearchTree::ranked_edges(int32_t parent) const {
  const int seat = node(parent).seat.load(kRelaxed);
  std::vector<std::pair<Candidate, int>> all;
  for (int k = 0; k < edge_count(parent); ++k)
    if (allowed(parent, k)) all.push_back({candidate(parent, k, seat), k});
  std::stable_sort(all.begin(), all.end(),
                   [](const auto& a, const auto& b) { return better(a.first, b.first); });
  std::vector<int> ranked;
  for (const auto& [c, k] : all) ranked.push_back(k);
  return ranked;
}

void SearchTree::advance(const Position& new_root, Move m) {
  int32_t kept = -1;
  for (int k = 0; k < edge_count(0); ++k)
    if (edge(0, k).move == m) kept = child(0, k);
  if (kept < 0 || !node(kept).expanded()) {
    reset(new_root);
    return;
  }
  std::unique_ptr<ChunkedArena<Node>> old_nodes = std::move(nodes_);
  std::unique_ptr<ChunkedArena<Edge>> old_edges = std::move(edges_);
  nodes_ = std::make_unique<ChunkedArena<Node>>();
  edges_ = std::make_unique<ChunkedArena<Edge>>();
  copy_subtree(*old_nodes, *old_edges, kept);
  noise_added_ = false;
  if (params_.root_noise) add_root_noise(rng_);
}

// Copies breadth-first, each node's edges as one run, and only the children that were made.
void SearchTree::copy_subtree(const ChunkedArena<Node>& nodes, const ChunkedArena<Edge>& edges,
                              int32_t from_root) {
  const int32_t root = nodes_->allocate(1);
  copy_node(nodes[from_root], mutable_node(root), Move(), -1);
  std::deque<std::pair<int32_t, int32_t>> queue{{from_root, root}};
  while (!queue.empty()) {
    auto [old_index, new_index] = queue.front();
    queue.pop_front();
    const Node& o = nodes[old_index];
    if (o.state.load(kRelaxed) != Node::kExpanded || o.edge_count == 0) continue;
    const int32_t first = edges_->allocate(o.edge_count);
    mutable_node(new_index).first_edge = first;
    mutable_node(new_index).edge_count = o.edge_count;
    for (int k = 0; k < o.edge_count; ++k) {
      const Edge& from = edges[o.first_edge + k];
      Edge& to = (*edges_)[first + k];
      to.move = from.move;
      to.prior = from.prior;
      const int32_t old_child = from.child.load(kRelaxed);
      int32_t new_child = -1;
      if (old_child >= 0) {
        new_child = nodes_->allocate(1);
        copy_node(nodes[old_child], mutable_node(new_child), from.move, new_index);
        queue.emplace_back(old_child, new_child);
      }
      to.child.store(new_child, kRelaxed);
    }
  }
}

}  // namespace fairyzero
