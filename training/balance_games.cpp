// Balance self-play: threads that each drive a group of games through batched search, and the
// record of every game (moves, result, material snapshots).
#include "training/balance_games.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <memory>
#include <mutex>
#include <random>
#include <stdexcept>
#include <thread>

#include "mcts/batched_search.h"
#include "mcts/search.h"

namespace fairyzero {
namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// One game in progress. Its randomness comes from its index alone, so a game is the same
// whichever thread or batch plays it.
struct BalanceSlot {
  int index = -1;  // -1: idle
  Position position;
  std::unique_ptr<Search> search;
  std::mt19937_64 rng;
  BalanceGame record;
  explicit BalanceSlot(const VariantPtr& variant) : position(variant) {}
};

// Hands out game indices and collects finished games; shared by the threads.
class GameLedger {
 public:
  GameLedger(int total, const std::function<void(const BalanceProgress&)>& progress)
      : games_(total), progress_(progress), start_(std::chrono::steady_clock::now()) {}

  int claim() {
    std::lock_guard lock(mutex_);
    return next_ < static_cast<int>(games_.size()) ? next_++ : -1;
  }
  void finish(int index, BalanceGame&& game) {
    std::lock_guard lock(mutex_);
    games_[index] = std::move(game);
    ++done_;
    if (progress_) progress_({done_, static_cast<int>(games_.size()), seconds_since(start_)});
  }
  // No more games after a thread failed; the others finish the games they hold.
  void abort() {
    std::lock_guard lock(mutex_);
    next_ = static_cast<int>(games_.size());
  }
  std::vector<BalanceGame> take() { return std::move(games_); }

 private:
  std::mutex mutex_;
  std::vector<BalanceGame> games_;
  int next_ = 0, done_ = 0;
  const std::function<void(const BalanceProgress&)>& progress_;
  std::chrono::steady_clock::time_point start_;
};

void start_game(BalanceSlot& slot, int index, const VariantPtr& variant, Evaluator& evaluator,
                const std::string& strength, const BalanceConfig& config) {
  slot.index = index;
  if (index < 0) return;
  const uint64_t seed = config.seed * 1000003 + static_cast<uint64_t>(index);
  slot.position = Position(variant);
  SearchParams params;
  params.seed = seed;
  slot.search = std::make_unique<Search>(slot.position, evaluator, params);
  slot.rng.seed(seed ^ 0x9e3779b97f4a7c15ull);
  slot.record = BalanceGame{};
  slot.record.variant = variant->name;
  slot.record.strength = strength;
  slot.record.material.push_back(material_of(slot.position));
}

// Plays the chosen move; returns whether the game is over (then the record is complete).
bool advance(BalanceSlot& slot, const BalanceConfig& config) {
  Position& pos = slot.position;
  const float temperature = pos.plies_played() < config.opening_plies ? 1.0f : 0.0f;
  const Move move = slot.search->choose_move(temperature, slot.rng);
  slot.record.moves.push_back(pos.move_text(move));
  pos.play(move);
  const int ply = pos.plies_played();
  if (config.material_every > 0 && ply % config.material_every == 0)
    slot.record.material.push_back(material_of(pos));
  Outcome outcome = pos.outcome();
  std::string termination = termination_name(outcome.termination);
  if (!outcome.over() && ply >= config.max_plies) {
    outcome.termination = Termination::kMaxPlies;
    outcome.score.fill(0.5);
    outcome.individual.fill(0.5);
    termination = kLengthCapTermination;
  }
  if (!outcome.over()) {
    slot.search->play(move);
    return false;
  }
  const int seats = pos.variant().seat_count();
  slot.record.termination = termination;
  slot.record.team_score.assign(outcome.score.begin(), outcome.score.begin() + seats);
  slot.record.individual.assign(outcome.individual.begin(), outcome.individual.begin() + seats);
  slot.record.plies = ply;
  return true;
}

void play_games(const VariantPtr& variant, Evaluator& evaluator, const std::string& strength,
                const BalanceConfig& config, GameLedger& ledger) {
  std::vector<BalanceSlot> slots;
  for (int i = 0; i < std::max(1, config.games_at_once); ++i) slots.emplace_back(variant);
  for (BalanceSlot& slot : slots)
    start_game(slot, ledger.claim(), variant, evaluator, strength, config);
  std::vector<Search*> searches;
  while (true) {
    searches.clear();
    for (BalanceSlot& slot : slots)
      if (slot.index >= 0) searches.push_back(slot.search.get());
    if (searches.empty()) return;
    run_batched(searches, {.playouts = config.playouts}, evaluator, 4);
    for (BalanceSlot& slot : slots) {
      if (slot.index < 0 || !advance(slot, config)) continue;
      ledger.finish(slot.index, std::move(slot.record));
      start_game(slot, ledger.claim(), variant, evaluator, strength, config);
    }
  }
}

}  // namespace

MaterialSnapshot material_of(const Position& pos) {
  const Variant& v = pos.variant();
  MaterialSnapshot s;
  s.ply = pos.plies_played();
  s.count.assign(v.army_count(), std::vector<int>(v.piece_count(), 0));
  v.geometry.existing_cells().for_each([&](Cell c) {
    const PieceCode p = pos.piece_at(c);
    if (p != kEmpty) ++s.count[army_of(p)][type_of(p)];
  });
  for (int army = 0; army < v.army_count(); ++army)
    for (int type = 0; type < v.piece_count(); ++type)
      s.count[army][type] += pos.hand_count(army, type);
  return s;
}

std::vector<BalanceGame> play_balance_games(
    const VariantPtr& variant, Evaluator& evaluator, const std::string& strength,
    const BalanceConfig& config, const std::function<void(const BalanceProgress&)>& progress) {
  if (config.games < 1) throw std::invalid_argument("balance: games must be at least 1");
  if (config.playouts < 1) throw std::invalid_argument("balance: playouts must be at least 1");
  if (config.max_plies < 1) throw std::invalid_argument("balance: max_plies must be at least 1");
  GameLedger ledger(config.games, progress);
  const int threads = std::clamp(config.threads, 1, config.games);
  std::vector<std::thread> workers;
  std::exception_ptr failure;
  std::mutex failure_mutex;
  for (int t = 0; t < threads; ++t)
    workers.emplace_back([&] {
      try {
        play_games(variant, evaluator, strength, config, ledger);
      } catch (...) {
        std::lock_guard lock(failure_mutex);
        if (!failure) failure = std::current_exception();
        ledger.abort();
      }
    });
  for (std::thread& w : workers) w.join();
  if (failure) std::rethrow_exception(failure);
  return ledger.take();
}

std::string describe_progress(const BalanceProgress& p) {
  const double rate = p.seconds > 0 ? p.done / p.seconds : 0;
  char line[128];
  if (rate > 0 && p.done < p.total)
    std::snprintf(line, sizeof line, "%d/%d games, %.2f games/s, ETA %.0f s", p.done, p.total, rate,
                  (p.total - p.done) / rate);
  else
    std::snprintf(line, sizeof line, "%d/%d games, %.2f games/s, %.0f s", p.done, p.total, rate,
                  p.seconds);
  return line;
}

}  // namespace fairyzero
