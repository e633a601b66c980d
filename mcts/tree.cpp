// PUCT selection, expansion, backup and proof propagation over the node arena.
#include "mcts/tree.h"

#include <algorithm>
#include <cmath>
#include <deque>

namespace fairyzero {

SearchTree::SearchTree(const SearchParams& params, int seats)
    : params_(params), seats_(seats), rng_(params.seed) {}

void SearchTree::reset(const Position& root) {
  nodes_.clear();
  nodes_.emplace_back();
  nodes_[0].seat = static_cast<uint8_t>(root.seat_to_move());
  noise_added_ = false;
  moves_left_known_ = false;
}

float SearchTree::value_of(const Node& n, int seat) const {
  if (n.proven) return n.exact[seat];
  return n.visits > 0 ? n.value_sum[seat] / n.visits : 0.5f;
}

float SearchTree::moves_left_of(const Node& n) const {
  if (n.proven) return static_cast<float>(n.proof_plies);
  return n.visits > 0 ? n.moves_left_sum / n.visits : 0.0f;
}

float SearchTree::moves_left_utility(const Node& parent, const Node& child, float q) const {
  if (!moves_left_known_ || params_.moves_left_slope <= 0) return 0;
  float shorter = moves_left_of(parent) - moves_left_of(child);
  float effect = std::clamp(params_.moves_left_slope * shorter, -params_.moves_left_max_effect,
                            params_.moves_left_max_effect);
  return effect * (2 * q - 1);
}

int32_t SearchTree::select_child(int32_t parent) const {
  const Node& p = nodes_[parent];
  int seat = p.seat;
  float parent_visits = static_cast<float>(p.visits + p.in_flight);
  float cpuct =
      params_.cpuct_init + std::log((parent_visits + params_.cpuct_base + 1) / params_.cpuct_base);
  float explore = cpuct * std::sqrt(std::max(parent_visits, 1.0f));
  float visited_policy = 0;
  for (int k = 0; k < p.child_count; ++k) {
    const Node& c = nodes_[p.first_child + k];
    if (c.visits + c.in_flight > 0) visited_policy += c.prior;
  }
  float reduction = parent == 0 ? params_.fpu_reduction_root : params_.fpu_reduction;
  float fpu = value_of(p, seat) - reduction * std::sqrt(visited_policy);
  int32_t best = -1;
  float best_score = -1e30f;
  const bool forcing = parent == 0 && params_.root_noise && params_.forced_playouts > 0;
  for (int k = 0; k < p.child_count; ++k) {
    int32_t ci = p.first_child + k;
    const Node& c = nodes_[ci];
    int n = c.visits + c.in_flight;
    float q;
    if (c.proven)
      q = c.exact[seat];
    else
      q = n > 0 ? c.value_sum[seat] / n : fpu;  // in-flight visits count as losses
    if (c.proven || c.visits > 0) q += moves_left_utility(p, c, q);
    float score = q + explore * c.prior / (1 + n);
    // A child short of its forced playouts goes first (a proven loss never: nothing to learn).
    if (forcing && !(c.proven && c.exact[seat] <= kWorstScore) &&
        static_cast<float>(n) < forced_playouts(params_, c.prior, parent_visits))
      score = 1e29f + c.prior;
    if (score > best_score) {
      best_score = score;
      best = ci;
    }
  }
  return best;
}

bool SearchTree::select(PendingLeaf& leaf) {
  leaf.path.clear();
  leaf.moves.clear();
  int32_t index = 0;
  leaf.path.push_back(0);
  while (true) {
    const Node& n = nodes_[index];
    if (n.proven || n.state == Node::kTerminal || n.state == Node::kUnexpanded) break;
    if (n.state == Node::kPending) return false;
    index = select_child(index);
    leaf.moves.push_back(nodes_[index].move);
    leaf.path.push_back(index);
  }
  for (int32_t i : leaf.path) nodes_[i].in_flight += params_.virtual_loss;
  Node& n = nodes_[index];
  leaf.known = n.proven || n.state == Node::kTerminal;
  if (!leaf.known) n.state = Node::kPending;
  leaf.node = index;
  return true;
}

void SearchTree::abandon(const PendingLeaf& leaf) {
  for (int32_t i : leaf.path) nodes_[i].in_flight -= params_.virtual_loss;
  if (nodes_[leaf.node].state == Node::kPending) nodes_[leaf.node].state = Node::kUnexpanded;
}

void SearchTree::complete(PendingLeaf& leaf, const Evaluation* eval) {
  int32_t index = leaf.node;
  std::array<float, kMaxSeats> value{};
  float moves_left = 0;
  bool newly_proven = false;
  if (nodes_[index].proven || nodes_[index].state == Node::kTerminal) {
    value = nodes_[index].exact;
    moves_left = static_cast<float>(nodes_[index].proof_plies);
  } else if (!eval) {  // the leaf is a finished game
    Node& n = nodes_[index];
    n.state = Node::kTerminal;
    n.proven = true;
    n.seat = static_cast<uint8_t>(leaf.position.seat_to_move());
    // Team result or individual ranking, as the variant scores (four-player river games).
    const auto& score = leaf.outcome.scored(leaf.position.variant().scoring);
    for (int s = 0; s < seats_; ++s) n.exact[s] = static_cast<float>(score[s]);
    n.proof_plies = 0;
    value = n.exact;
    newly_proven = true;
  } else {
    const MoveList& legal = leaf.legal;
    int count = legal.size();
    float top = -1e30f;
    for (float l : eval->policy_logits) top = std::max(top, l);
    float temperature = std::max(params_.policy_temperature, 1e-3f);
    std::vector<float> priors(count);
    float sum = 0;
    for (int k = 0; k < count; ++k)
      sum += priors[k] = std::exp((eval->policy_logits[k] - top) / temperature);
    int32_t first = static_cast<int32_t>(nodes_.size());
    for (int k = 0; k < count; ++k) {
      Node c;
      c.move = legal[k];
      c.prior = priors[k] / sum;
      c.parent = index;
      nodes_.push_back(c);
    }
    Node& n = nodes_[index];
    n.first_child = first;
    n.child_count = static_cast<uint16_t>(count);
    n.seat = static_cast<uint8_t>(leaf.position.seat_to_move());
    n.state = Node::kExpanded;
    value = eval->value;
    if (eval->moves_left >= 0) {
      moves_left = eval->moves_left;
      moves_left_known_ = true;
    }
    if (index == 0 && params_.root_noise && !noise_added_) add_root_noise(rng_);
  }
  backup(leaf.path, value, moves_left);
  if (newly_proven) propagate_proof(leaf.path);
}

// Each node on the path is `moves_left` plus its distance to the leaf plies from the end.
void SearchTree::backup(const std::vector<int32_t>& path, const std::array<float, kMaxSeats>& value,
                        float moves_left) {
  float plies = moves_left + static_cast<float>(path.size()) - 1;
  for (int32_t i : path) {
    Node& n = nodes_[i];
    n.in_flight -= params_.virtual_loss;
    ++n.visits;
    for (int s = 0; s < seats_; ++s) n.value_sum[s] += value[s];
    n.moves_left_sum += plies--;
  }
}

// A node is proven when a child gives the seat to move there the best score there is, or when
// every child is proven (then it is worth its best child). Of equal children the proof takes
// the quickest win and the slowest loss, so proof_plies is the distance to the end under it.
void SearchTree::propagate_proof(const std::vector<int32_t>& path) {
  for (size_t i = path.size() - 1; i-- > 0;) {
    Node& p = nodes_[path[i]];
    if (p.state != Node::kExpanded || p.proven) return;
    int seat = p.seat;
    bool all_proven = true;
    int32_t best = -1;
    for (int k = 0; k < p.child_count; ++k) {
      const Node& c = nodes_[p.first_child + k];
      if (!c.proven) {
        all_proven = false;
        continue;
      }
      if (best < 0) {
        best = p.first_child + k;
        continue;
      }
      const Node& b = nodes_[best];
      bool ahead = c.exact[seat] >= 0.5f;
      if (c.exact[seat] > b.exact[seat] ||
          (c.exact[seat] == b.exact[seat] &&
           (ahead ? c.proof_plies < b.proof_plies : c.proof_plies > b.proof_plies)))
        best = p.first_child + k;
    }
    if (best < 0) return;
    bool wins = nodes_[best].exact[seat] >= kBestScore;
    if (!wins && !all_proven) return;
    p.proven = true;
    p.exact = nodes_[best].exact;
    p.proof_plies = nodes_[best].proof_plies + 1;
  }
}

void SearchTree::add_root_noise(std::mt19937_64& rng) {
  Node& root = nodes_[0];
  if (root.state != Node::kExpanded || root.child_count == 0) return;
  std::gamma_distribution<float> gamma(root_noise_alpha(params_, root.child_count), 1.0f);
  std::vector<float> noise(root.child_count);
  float sum = 0;
  for (float& x : noise) sum += x = gamma(rng);
  if (sum <= 0) return;
  for (int k = 0; k < root.child_count; ++k) {
    Node& c = nodes_[root.first_child + k];
    c.prior =
        (1 - params_.dirichlet_epsilon) * c.prior + params_.dirichlet_epsilon * noise[k] / sum;
  }
  noise_added_ = true;
}

int32_t SearchTree::best_child(int32_t parent) const {
  const Node& p = nodes_[parent];
  int seat = p.seat;
  // Proven outcomes are compared by what they are worth to the mover, not by visits: under
  // individual scoring a proven tied first (5/6 of four seats) must beat a proven draw (1/2)
  // however the visits fell, and a proven node is played out by the child that proves it.
  auto rank = [&](const Node& c) {
    return c.proven ? (c.exact[seat] >= kBestScore ? 2 : c.exact[seat] <= kWorstScore ? 0 : 1) : 1;
  };
  auto better = [&](const Node& c, const Node& b) {
    if (rank(c) != rank(b)) return rank(c) > rank(b);
    if (c.proven && b.proven) {
      if (c.exact[seat] != b.exact[seat]) return c.exact[seat] > b.exact[seat];
      if (c.proof_plies != b.proof_plies)  // the quicker win, the slower loss
        return c.exact[seat] >= 0.5f ? c.proof_plies < b.proof_plies
                                     : c.proof_plies > b.proof_plies;
    }
    if (c.visits != b.visits) return c.visits > b.visits;
    return value_of(c, seat) > value_of(b, seat);
  };
  int32_t best = -1;
  for (int k = 0; k < p.child_count; ++k) {
    int32_t ci = p.first_child + k;
    if (best < 0 || better(nodes_[ci], nodes_[best])) best = ci;
  }
  return best;
}

void SearchTree::advance(const Position& new_root, Move m) {
  const Node& root = nodes_.empty() ? Node{} : nodes_[0];
  int32_t kept = -1;
  for (int k = 0; k < root.child_count; ++k)
    if (nodes_[root.first_child + k].move == m) kept = root.first_child + k;
  if (kept < 0 || nodes_[kept].state != Node::kExpanded) {
    reset(new_root);
    return;
  }
  std::vector<Node> old;
  old.swap(nodes_);
  copy_subtree(old, kept);
  noise_added_ = false;
  if (params_.root_noise) add_root_noise(rng_);
}

// Copies the subtree under `root` breadth-first so that each node's children stay contiguous.
void SearchTree::copy_subtree(const std::vector<Node>& from, int32_t root) {
  nodes_.clear();
  nodes_.push_back(from[root]);
  nodes_[0].parent = -1;
  nodes_[0].move = Move();
  std::deque<std::pair<int32_t, int32_t>> queue{{root, 0}};
  while (!queue.empty()) {
    auto [old_index, new_index] = queue.front();
    queue.pop_front();
    const Node& o = from[old_index];
    if (o.child_count == 0 || o.first_child < 0) continue;
    int32_t first = static_cast<int32_t>(nodes_.size());
    for (int k = 0; k < o.child_count; ++k) {
      Node c = from[o.first_child + k];
      c.parent = new_index;
      nodes_.push_back(c);
      queue.emplace_back(o.first_child + k, first + k);
    }
    nodes_[new_index].first_child = first;
  }
}

}  // namespace fairyzero
