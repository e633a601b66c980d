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
  std::lock_guard lock(mutex_);
  root_ = root;
  tree_.reset(root_);
}

void Search::play(Move m) {
  std::lock_guard lock(mutex_);
  root_.play(m);
  tree_.advance(root_, m);
}

void Search::set_root_noise(bool on) {
  std::lock_guard lock(mutex_);
  tree_.set_root_noise(on);
}

void Search::begin(const SearchLimits&) {
  std::lock_guard lock(mutex_);
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
  if (limits.seconds > 0 && now_seconds() - start_time_ >= limits.seconds) return true;
  return false;
}

int Search::gather_locked(int max_leaves, std::vector<PendingLeaf>& leaves) {
  int count = 0;
  for (int attempt = 0; attempt < max_leaves; ++attempt) {
    if (static_cast<int>(leaves.size()) <= count) leaves.emplace_back(root_);
    PendingLeaf& leaf = leaves[count];
    if (!tree_.select(leaf)) break;  // collision: evaluate what we have first
    if (leaf.known) {
      tree_.complete(leaf, nullptr);
      ++playouts_;
      if (tree_.root().proven) break;
      continue;
    }
    ++count;
  }
  return count;
}

int Search::gather(int max_leaves, std::vector<PendingLeaf>& leaves) {
  int count;
  {
    std::lock_guard lock(mutex_);
    count = gather_locked(max_leaves, leaves);
  }
  // Finished games need no evaluation: complete them now and keep the rest at the front.
  int kept = 0;
  for (int i = 0; i < count; ++i) {
    prepare(root_, leaves[i], params_.max_plies);
    if (leaves[i].outcome.over()) {
      std::lock_guard lock(mutex_);
      tree_.complete(leaves[i], nullptr);
      ++playouts_;
    } else {
      if (kept != i) std::swap(leaves[kept], leaves[i]);
      ++kept;
    }
  }
  return kept;
}

void Search::finish(std::span<PendingLeaf> leaves, std::span<const Evaluation> evaluations) {
  std::lock_guard lock(mutex_);
  for (size_t i = 0; i < leaves.size(); ++i) {
    tree_.complete(leaves[i], &evaluations[i]);
    ++playouts_;
  }
}

void Search::worker(const SearchLimits& limits,
                    const std::function<void(const SearchResult&)>& progress,
                    double progress_seconds) {
  std::vector<PendingLeaf> leaves;
  std::vector<EvalRequest> requests;
  std::vector<Evaluation> evaluations;
  std::vector<int> evaluated;
  int batch = std::max(1, params_.leaves_per_batch);
  while (true) {
    int count;
    {
      std::lock_guard lock(mutex_);
      if (done(limits)) break;
      int budget = batch;
      if (limits.playouts > 0)
        budget = std::min(budget, limits.playouts - playouts_ -
                                      tree_.root().in_flight / std::max(1, params_.virtual_loss));
      count = gather_locked(std::max(1, budget), leaves);
    }
    requests.clear();
    evaluated.clear();
    for (int i = 0; i < count; ++i) {
      prepare(root_, leaves[i], params_.max_plies);
      if (!leaves[i].outcome.over()) {
        requests.push_back({&leaves[i].position, &leaves[i].legal});
        evaluated.push_back(i);
      }
    }
    if (evaluations.size() < requests.size()) evaluations.resize(requests.size());
    if (!requests.empty())
      evaluator_.evaluate(requests, std::span(evaluations).first(requests.size()));
    {
      std::lock_guard lock(mutex_);
      size_t next = 0;
      for (int i = 0; i < count; ++i) {
        bool has_eval = next < evaluated.size() && evaluated[next] == i;
        tree_.complete(leaves[i], has_eval ? &evaluations[next++] : nullptr);
        ++playouts_;
      }
    }
    if (count == 0) std::this_thread::yield();  // another thread is evaluating what we need
    if (progress) report(progress, progress_seconds);
  }
}

// Whichever worker first notices that a report is due makes it; the others carry on.
void Search::report(const std::function<void(const SearchResult&)>& progress, double every) {
  std::unique_lock lock(report_mutex_, std::try_to_lock);
  if (!lock.owns_lock() || now_seconds() < next_report_) return;
  next_report_ = now_seconds() + every;
  progress(result());
}

SearchResult Search::run(const SearchLimits& limits,
                         const std::function<void(const SearchResult&)>& progress,
                         double progress_seconds) {
  begin(limits);
  next_report_ = start_time_ + progress_seconds;
  // An evaluator that throws (a failing device, a server shut down) stops every worker; the
  // first error is rethrown here and the tree, left with pending leaves, is started over.
  std::mutex error_mutex;
  std::exception_ptr error;
  auto guarded = [&] {
    try {
      worker(limits, progress, progress_seconds);
    } catch (...) {
      std::lock_guard lock(error_mutex);
      if (!error) error = std::current_exception();
      stop_requested_ = true;
    }
  };
  std::vector<std::thread> helpers;
  for (int t = 1; t < std::max(1, params_.threads); ++t) helpers.emplace_back(guarded);
  guarded();
  for (std::thread& t : helpers) t.join();
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

SearchResult Search::result() const {
  std::lock_guard lock(mutex_);
  return result_locked();
}

SearchResult Search::result_locked() const {
  SearchResult r;
  const Node& root = tree_.root();
  int seat = root.seat;
  for (int k = 0; k < root.child_count; ++k) {
    const Node& c = tree_.node(root.first_child + k);
    r.children.push_back({c.move, c.visits, tree_.value_of(c, seat), c.prior, c.proven});
  }
  std::stable_sort(r.children.begin(), r.children.end(),
                   [](const ChildStats& a, const ChildStats& b) { return a.visits > b.visits; });
  int32_t best = tree_.best_child(0);
  if (best >= 0) r.best = tree_.node(best).move;
  for (int32_t n = best; n >= 0 && (tree_.node(n).visits > 0 || tree_.node(n).proven);
       n = tree_.best_child(n))
    r.principal_variation.push_back(tree_.node(n).move);
  for (int s = 0; s < root_.variant().seat_count(); ++s) r.value[s] = tree_.value_of(root, s);
  r.wdl = wdl_from_score(r.value[seat]);
  r.proven = root.proven;
  r.moves_left = tree_.moves_left_of(root);
  // A proven root keeps the distance of its first proof; the move played may prove a quicker
  // win found since.
  if (root.proven && best >= 0 && tree_.node(best).proven)
    r.moves_left = static_cast<float>(tree_.node(best).proof_plies + 1);
  r.root_visits = root.visits;
  r.playouts = playouts_;
  r.seconds = now_seconds() - start_time_;
  r.tree_nodes = tree_.size();
  return r;
}

Move Search::choose_move(float temperature, std::mt19937_64& rng) const {
  std::lock_guard lock(mutex_);
  int32_t best = tree_.best_child(0);
  if (best < 0) return Move();
  const Node& b = tree_.node(best);
  int seat = tree_.root().seat;
  if (temperature <= 0 || (b.proven && b.exact[seat] >= kBestScore)) return b.move;
  const Node& root = tree_.root();
  std::vector<double> weights(root.child_count);
  double total = 0;
  for (int k = 0; k < root.child_count; ++k) {
    const Node& c = tree_.node(root.first_child + k);
    bool lost = c.proven && c.exact[seat] <= kWorstScore;
    if (!lost && c.visits > 0) total += weights[k] = std::pow(c.visits, 1.0 / temperature);
  }
  if (total <= 0) return b.move;
  std::uniform_real_distribution<double> pick(0, total);
  double x = pick(rng);
  for (int k = 0; k < root.child_count; ++k) {
    if ((x -= weights[k]) <= 0 && weights[k] > 0) return tree_.node(root.first_child + k).move;
  }
  return b.move;
}

}  // namespace fairyzero
