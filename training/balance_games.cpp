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

// The distinct agents of a game and which one plays each seat.
struct AgentPlan {
  std::vector<SeatAgent> agents;  // distinct (evaluator, playouts)
  std::vector<int> of_seat;       // index into agents
  std::vector<std::string> labels;
};

AgentPlan plan_agents(const std::vector<SeatAgent>& seats) {
  AgentPlan plan;
  for (const SeatAgent& seat : seats) {
    int found = -1;
    for (size_t a = 0; a < plan.agents.size(); ++a)
      if (plan.agents[a].evaluator == seat.evaluator && plan.agents[a].playouts == seat.playouts)
        found = static_cast<int>(a);
    if (found < 0) {
      found = static_cast<int>(plan.agents.size());
      plan.agents.push_back(seat);
    }
    plan.of_seat.push_back(found);
    plan.labels.push_back(seat.label);
  }
  return plan;
}

// One game in progress. Its randomness comes from its index alone, so a game is the same
// whichever thread or batch plays it.
struct BalanceSlot {
  int index = -1;  // -1: idle
  Position position;
  std::vector<std::unique_ptr<Search>> searches;  // one per distinct agent
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

void start_game(BalanceSlot& slot, int index, const VariantPtr& variant, const AgentPlan& plan,
                const std::string& strength, const BalanceConfig& config) {
  slot.index = index;
  if (index < 0) return;
  const uint64_t seed = config.seed * 1000003 + static_cast<uint64_t>(index);
  slot.position = Position(variant);
  slot.searches.clear();
  for (size_t a = 0; a < plan.agents.size(); ++a) {
    SearchParams params;
    params.seed = seed + 7919 * a;  // agent 0 keeps the seed of a one-agent game
    slot.searches.push_back(
        std::make_unique<Search>(slot.position, *plan.agents[a].evaluator, params));
  }
  slot.rng.seed(seed ^ 0x9e3779b97f4a7c15ull);
  slot.record = BalanceGame{};
  slot.record.variant = variant->name;
  slot.record.strength = strength;
  slot.record.seat_agent = plan.labels;
  slot.record.material.push_back(material_of(slot.position));
}

// Plays the chosen move; returns whether the game is over (then the record is complete).
bool advance(BalanceSlot& slot, const AgentPlan& plan, const BalanceConfig& config) {
  Position& pos = slot.position;
  const float temperature = pos.plies_played() < config.opening_plies ? 1.0f : 0.0f;
  Search& mover = *slot.searches[plan.of_seat[pos.seat_to_move()]];
  const Move move = mover.choose_move(temperature, slot.rng);
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
    outcome.rank.fill(1);
    termination = kLengthCapTermination;
  }
  if (!outcome.over()) {
    for (auto& search : slot.searches) search->play(move);
    return false;
  }
  const int seats = pos.variant().seat_count();
  slot.record.termination = termination;
  slot.record.team_score.assign(outcome.score.begin(), outcome.score.begin() + seats);
  slot.record.individual.assign(outcome.individual.begin(), outcome.individual.begin() + seats);
  slot.record.rank.assign(outcome.rank.begin(), outcome.rank.begin() + seats);
  for (int s = 0; s < seats; ++s) slot.record.dropout_order.push_back(pos.dropout_order(s));
  slot.record.plies = ply;
  return true;
}

void play_games(const VariantPtr& variant, const AgentPlan& plan, const std::string& strength,
                const BalanceConfig& config, GameLedger& ledger) {
  std::vector<BalanceSlot> slots;
  for (int i = 0; i < std::max(1, config.games_at_once); ++i) slots.emplace_back(variant);
  for (BalanceSlot& slot : slots) start_game(slot, ledger.claim(), variant, plan, strength, config);
  std::vector<Search*> searches;
  while (true) {
    bool any = false;
    // One batch per agent: the games where one of its seats is to move.
    for (size_t a = 0; a < plan.agents.size(); ++a) {
      searches.clear();
      for (BalanceSlot& slot : slots)
        if (slot.index >= 0 && plan.of_seat[slot.position.seat_to_move()] == static_cast<int>(a))
          searches.push_back(slot.searches[a].get());
      if (searches.empty()) continue;
      any = true;
      run_batched(searches, {.playouts = plan.agents[a].playouts}, *plan.agents[a].evaluator, 4);
    }
    if (!any) return;
    for (BalanceSlot& slot : slots) {
      if (slot.index < 0 || !advance(slot, plan, config)) continue;
      ledger.finish(slot.index, std::move(slot.record));
      start_game(slot, ledger.claim(), variant, plan, strength, config);
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
    const VariantPtr& variant, const std::vector<SeatAgent>& seats, const std::string& strength,
    const BalanceConfig& config, const std::function<void(const BalanceProgress&)>& progress) {
  if (config.games < 1) throw std::invalid_argument("balance: games must be at least 1");
  if (config.max_plies < 1) throw std::invalid_argument("balance: max_plies must be at least 1");
  if (static_cast<int>(seats.size()) != variant->seat_count())
    throw std::invalid_argument("balance: " + std::to_string(seats.size()) + " seat agents for " +
                                std::to_string(variant->seat_count()) + " seats");
  for (const SeatAgent& seat : seats) {
    if (!seat.evaluator) throw std::invalid_argument("balance: a seat has no evaluator");
    if (seat.playouts < 1) throw std::invalid_argument("balance: playouts must be at least 1");
  }
  const AgentPlan plan = plan_agents(seats);
  GameLedger ledger(config.games, progress);
  const int threads = std::clamp(config.threads, 1, config.games);
  std::vector<std::thread> workers;
  std::exception_ptr failure;
  std::mutex failure_mutex;
  for (int t = 0; t < threads; ++t)
    workers.emplace_back([&] {
      try {
        play_games(variant, plan, strength, config, ledger);
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

std::vector<BalanceGame> play_balance_games(
    const VariantPtr& variant, Evaluator& evaluator, const std::string& strength,
    const BalanceConfig& config, const std::function<void(const BalanceProgress&)>& progress) {
  const std::vector<SeatAgent> seats(variant->seat_count(),
                                     SeatAgent{&evaluator, config.playouts, strength});
  return play_balance_games(variant, seats, strength, config, progress);
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
