// Search: threads that gather leaves under one lock, evaluate them outside it, and back up.
#include "mcts/search.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <exception>
#include <thread>

namespace fairyzero {
namespace {

double now_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// The leaf's position, legal moves and game state: work done outside the tree's lock.
void prepare(const Position& root, PendingLeaf& leaf, int max_plies) {
  leaf.position = root;
  for (Move m : leaf.moves) leaf.position.play(m);
  leaf.position.legal_moves(leaf.legal);
  leaf.outcome = leaf.position.outcome(leaf.legal);
  if (!leaf.outcome.over() && max_plies > 0 && leaf.position.plies_played() >= max_plies)
    leaf.outcome = length_cap_outcome();
}

}  // namespace

Search::Search(const Position& root, Evaluator& evaluator, const SearchParams& params)
    : root_(root),
      evaluator_(evaluator),
      params_(params),
      tree_(params, root.variant().seat_count()) {
  tree_.reset(root_);
}

void Search::set_position(const Position& root) {
  std::unique_lock lock(tree_mutex_);
  root_ = root;
  tree_.reset(root_);
}

void Search::play(Move m) {
  std::unique_lock lock(tree_mutex_);
  root_.play(m);
  tree_.advance(root_, m);
}

void Search::set_root_noise(bool on) {
  std::unique_lock lock(tree_mutex_);
  tree_.set_root_noise(on);
}

void Search::begin(const SearchLimits& limits) {
  // A tree searched under a restriction holds proofs and visits for it alone.
  if (restricted_ || !limits.root_moves.empty()) tree_.reset(root_);
  restricted_ = !limits.root_moves.empty();
  tree_.set_root_moves(limits.root_moves);
  lines_ = std::max(1, limits.lines);
  start_visits_ = tree_.root().visits;
  playouts_ = 0;
  start_time_ = now_seconds();
  stop_requested_ = false;
}

bool Search::done(const SearchLimits& limits) const {
  const Node& root = tree_.root();
  if (stop_requested_ || root.proven || root.state == Node::kTerminal) return true;
  int pending = root.in_flight / std::max(1, params_.virtual_loss);
  if (limits.playouts > 0 && playouts_ + pending >= limits.playouts) return true;
  if (limits.visits > 0 && root.visits + pending >= limits.visits) return true;
  if (limits.seconds > 0 && now_seconds() - start_time_ >= limits.seconds &&
      now_seconds() - start_time_ >= time_limit(limits))
    return true;
  return limits.stop_when_decided && decided(limits);
}

double Search::time_limit(const SearchLimits& limits) const {
  if (limits.max_seconds <= limits.seconds || !unclear()) return limits.seconds;
  return limits.max_seconds;
}

bool Search::unclear() const {
  const int seat = tree_.root().seat;
  int best = -1, best_visits = 0;
  for (int k = 0; k < tree_.edge_count(0); ++k) {
    const int32_t c = tree_.child(0, k);
    const int visits = c < 0 ? 0 : tree_.node(c).visits.load(std::memory_order_relaxed);
    if (visits > best_visits) best = k, best_visits = visits;
  }
  if (best < 0) return false;
  const float best_value = tree_.value_of_child(0, best, seat);
  for (int k = 0; k < tree_.edge_count(0); ++k) {
    const int32_t c = tree_.child(0, k);
    if (k == best || c < 0) continue;
    const int visits = tree_.node(c).visits.load(std::memory_order_relaxed);
    if (2 * visits >= best_visits && tree_.value_of_child(0, k, seat) > best_value) return true;
  }
  return false;
}

bool Search::decided(const SearchLimits& limits) const {
  double left = -1;
  if (limits.playouts > 0) left = limits.playouts - playouts_;
  if (limits.seconds > 0) {
    const double elapsed = now_seconds() - start_time_;
    // Too early for a rate to mean anything.
    if (playouts_ < 100 || elapsed < 0.02 * limits.seconds) return false;
    const double by_time = playouts_ / elapsed * std::max(0.0, time_limit(limits) - elapsed);
    left = left < 0 ? by_time : std::min(left, by_time);
  }
  if (left < 0) return false;
  int first = 0, second = 0;
  for (int k = 0; k < tree_.edge_count(0); ++k) {
    const int32_t c = tree_.child(0, k);
    const int visits = c < 0 ? 0 : tree_.node(c).visits.load(std::memory_order_relaxed);
    if (visits > first)
      second = first, first = visits;
    else if (visits > second)
      second = visits;
  }
  return first - second > left;
}

int Search::gather_leaves(int max_leaves, int max_collisions, std::vector<PendingLeaf>& leaves) {
  int count = 0, collisions = 0, known = 0;
  while (count + known < max_leaves) {
    if (static_cast<int>(leaves.size()) <= count) leaves.emplace_back(root_);
    PendingLeaf& leaf = leaves[count];
    if (!tree_.select(leaf)) {
      if (++collisions > max_collisions) break;
      continue;
    }
    if (leaf.known) {  // a finished game or a proven node: backed up at once
      tree_.complete(leaf, nullptr);
      ++known;
      if (tree_.root().proven) break;
      continue;
    }
    ++count;
  }
  // Finished games need no evaluation: complete them now and keep the rest at the front.
  int kept = 0;
  for (int i = 0; i < count; ++i) {
    prepare(root_, leaves[i], params_.max_plies);
    if (leaves[i].outcome.over()) {
      tree_.complete(leaves[i], nullptr);
      ++known;
    } else {
      if (kept != i) std::swap(leaves[kept], leaves[i]);
      ++kept;
    }
  }
  if (known > 0) count_completions(known);
  return kept;
}

int Search::gather(int max_leaves, std::vector<PendingLeaf>& leaves) {
  return gather_leaves(max_leaves, 0, leaves);
}

void Search::finish(std::span<PendingLeaf> leaves, std::span<const Evaluation> evaluations) {
  for (size_t i = 0; i < leaves.size(); ++i) tree_.complete(leaves[i], &evaluations[i]);
  count_completions(static_cast<int>(leaves.size()));
}

void Search::count_completions(int count) {
  playouts_.fetch_add(count);
  completions_.fetch_add(1);
  if (waiting_.load() > 0) {
    std::lock_guard lock(wait_mutex_);
    completed_.notify_all();
  }
}

void Search::wait_for_completion(uint64_t seen) {
  std::unique_lock lock(wait_mutex_);
  ++waiting_;
  // The timeout only bounds how late a time limit is noticed while every leaf is pending.
  completed_.wait_for(lock, std::chrono::milliseconds(5),
                      [&] { return completions_.load() != seen || stop_requested_; });
  --waiting_;
}

void Search::worker(const SearchLimits& limits,
                    const std::function<void(const SearchResult&)>& progress,
                    double progress_seconds) {
  std::vector<PendingLeaf> leaves;
  std::vector<EvalRequest> requests;
  std::vector<Evaluation> evaluations;
  const int batch = std::max(1, params_.leaves_per_batch);
  while (!done(limits)) {
    const uint64_t seen = completions_.load();
    int budget = batch;
    if (limits.playouts > 0)
      budget = std::min(budget, limits.playouts - playouts_ -
                                    tree_.root().in_flight / std::max(1, params_.virtual_loss));
    // lc0's collision budget: a collision (a leaf another thread is evaluating) costs a
    // selection, not the whole batch.
    const int count = gather_leaves(std::max(1, budget), batch, leaves);
    if (count == 0) {
      if (completions_.load() == seen) wait_for_completion(seen);
      continue;
    }
    requests.clear();
    for (int i = 0; i < count; ++i) requests.push_back({&leaves[i].position, &leaves[i].legal});
    if (evaluations.size() < requests.size()) evaluations.resize(requests.size());
    auto evaluated = std::span(evaluations).first(requests.size());
    try {
      evaluator_.evaluate(requests, evaluated);
    } catch (...) {
      for (int i = 0; i < count; ++i) tree_.abandon(leaves[i]);
      throw;
    }
    finish(std::span(leaves).first(count), evaluated);
    if (progress) report(progress, progress_seconds);
  }
}

// Whichever worker first notices that a report is due makes it; the others carry on.
void Search::report(const std::function<void(const SearchResult&)>& progress, double every) {
  std::unique_lock lock(report_mutex_, std::try_to_lock);
  if (!lock.owns_lock() || now_seconds() < next_report_) return;
  next_report_ = now_seconds() + every;
  progress(result_unlocked());
}

SearchResult Search::run(const SearchLimits& limits,
                         const std::function<void(const SearchResult&)>& progress,
                         double progress_seconds) {
  // An evaluator that throws (a failing device, a server shut down) stops every worker; the
  // first error is rethrown here and the tree is started over.
  std::mutex error_mutex;
  std::exception_ptr error;
  {
    std::shared_lock lock(tree_mutex_);
    begin(limits);
    next_report_ = start_time_ + progress_seconds;
    auto guarded = [&] {
      try {
        worker(limits, progress, progress_seconds);
      } catch (...) {
        std::lock_guard error_lock(error_mutex);
        if (!error) error = std::current_exception();
        stop_requested_ = true;
        std::lock_guard wait_lock(wait_mutex_);
        completed_.notify_all();
      }
    };
    std::vector<std::thread> helpers;
    for (int t = 1; t < std::max(1, params_.threads); ++t) helpers.emplace_back(guarded);
    guarded();
    for (std::thread& t : helpers) t.join();
  }
  if (error) {
    set_position(root_);
    std::rethrow_exception(error);
  }
  return result();
}

std::vector<int> policy_target_visits(const SearchResult& result, const SearchParams& params) {
  const std::vector<ChildStats>& children = result.children;
  std::vector<int> visits(children.size());
  bool any_alive = false;
  for (const ChildStats& c : children) any_alive = any_alive || !(c.proven && c.value <= 0);
  for (size_t i = 0; i < children.size(); ++i)
    visits[i] = any_alive && children[i].proven && children[i].value <= 0 ? 0 : children[i].visits;
  if (params.forced_playouts <= 0 || children.empty()) return visits;
  // The most visited child (children come most visited first) and its PUCT score, as the
  // search computed it at the root (the root's visits are the children's plus its own one).
  size_t best = 0;
  while (best < children.size() && visits[best] == 0) ++best;
  if (best == children.size()) return visits;
  const float root_visits = static_cast<float>(std::max(result.root_visits, 1));
  const float cpuct =
      params.cpuct_init + std::log((root_visits + params.cpuct_base + 1) / params.cpuct_base);
  const float explore = cpuct * std::sqrt(root_visits);
  const ChildStats& top = children[best];
  const float best_score = top.value + explore * top.prior / (1 + visits[best]);
  for (size_t i = 0; i < children.size(); ++i) {
    if (i == best || visits[i] == 0) continue;
    const ChildStats& c = children[i];
    const int forced = static_cast<int>(forced_playouts(params, c.prior, root_visits));
    // The fewest visits n at which PUCT would still rank it below the best:
    // value + explore x prior / (1 + n) < best_score.
    int needed = visits[i];
    if (best_score > c.value) {
      const float n = explore * c.prior / (best_score - c.value) - 1;
      needed = std::max(0, static_cast<int>(std::ceil(n)));
    }
    int pruned = std::max(visits[i] - forced, std::min(visits[i], needed));
    if (pruned <= 1) pruned = 0;
    visits[i] = pruned;
  }
  return visits;
}

SearchResult Search::result() const { return result_unlocked(); }

std::vector<Move> Search::line_from(int32_t node, int k) const {
  std::vector<Move> line;
  while (k >= 0) {
    const int32_t c = tree_.child(node, k);
    if (c < 0 || (tree_.node(c).visits == 0 && !tree_.node(c).proven)) break;
    line.push_back(tree_.edge(node, k).move);
    node = c;
    k = tree_.best_edge(node);
  }
  return line;
}

// Reads the tree's atomics as they stand: safe while threads search (the figures of a running
// search are a moment's), not while play() or set_position() change the tree.
SearchResult Search::result_unlocked() const {
  SearchResult r;
  const Node& root = tree_.root();
  const int seat = root.seat;
  for (int k = 0; k < tree_.edge_count(0); ++k) {
    const Edge& e = tree_.edge(0, k);
    const int32_t c = tree_.child(0, k);
    r.children.push_back({e.move, c < 0 ? 0 : tree_.node(c).visits.load(),
                          tree_.value_of_child(0, k, seat), e.prior,
                          c >= 0 && tree_.node(c).proven});
  }
  std::stable_sort(r.children.begin(), r.children.end(),
                   [](const ChildStats& a, const ChildStats& b) { return a.visits > b.visits; });
  const int best = tree_.best_edge(0);
  if (best >= 0) r.best = tree_.edge(0, best).move;
  r.principal_variation = line_from(0, best);
  const std::vector<int> ranked = tree_.ranked_edges(0);
  for (size_t i = 0; i < ranked.size() && static_cast<int>(i) < lines_; ++i) {
    const int k = ranked[i];
    const int32_t c = tree_.child(0, k);
    SearchLine line;
    line.move = tree_.edge(0, k).move;
    line.value = tree_.value_of_child(0, k, seat);
    line.wdl = wdl_from_score(line.value);
    if (c >= 0) {
      line.visits = tree_.node(c).visits;
      line.proven = tree_.node(c).proven;
      line.moves_left = tree_.moves_left_of(tree_.node(c)) + 1;
    }
    line.pv = line_from(0, k);
    if (line.pv.empty()) line.pv.push_back(line.move);
    r.lines.push_back(std::move(line));
  }
  for (int s = 0; s < root_.variant().seat_count(); ++s) r.value[s] = tree_.value_of(root, s);
  r.wdl = wdl_from_score(r.value[seat]);
  r.proven = root.proven;
  r.moves_left = tree_.moves_left_of(root);
  // A proven root keeps the distance of its first proof; the move played may prove a quicker
  // win found since.
  const int32_t best_node = best >= 0 ? tree_.child(0, best) : -1;
  if (root.proven && best_node >= 0 && tree_.node(best_node).proven)
    r.moves_left = static_cast<float>(tree_.node(best_node).proof_plies + 1);
  r.root_visits = root.visits;
  r.playouts = playouts_;
  r.seconds = now_seconds() - start_time_;
  r.tree_nodes = tree_.size();
  r.tree_bytes = tree_.bytes();
  return r;
}

Move Search::choose_move(float temperature, std::mt19937_64& rng) const {
  std::shared_lock lock(tree_mutex_);
  const int best = tree_.best_edge(0);
  if (best < 0) return Move();
  const Move best_move = tree_.edge(0, best).move;
  const int seat = tree_.root().seat;
  const int32_t best_node = tree_.child(0, best);
  if (temperature <= 0 || (best_node >= 0 && tree_.node(best_node).proven &&
                           tree_.node(best_node).exact[seat] >= kBestScore))
    return best_move;
  const int count = tree_.edge_count(0);
  std::vector<double> weights(count);
  double total = 0;
  for (int k = 0; k < count; ++k) {
    const int32_t c = tree_.child(0, k);
    if (c < 0) continue;
    const Node& n = tree_.node(c);
    bool lost = n.proven && n.exact[seat] <= kWorstScore;
    if (!lost && n.visits > 0) total += weights[k] = std::pow(n.visits, 1.0 / temperature);
  }
  if (total <= 0) return best_move;
  std::uniform_real_distribution<double> pick(0, total);
  double x = pick(rng);
  for (int k = 0; k < count; ++k) {
    if ((x -= weights[k]) <= 0 && weights[k] > 0) return tree_.edge(0, k).move;
  }
  return best_move;
}

}  // namespace fairyzero
