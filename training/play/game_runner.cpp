// The game runner: worker threads that each keep a group of games going, one evaluator call
// per evaluator per round, a move in every game whose search is done; finished games go to the
// hooks.
#include "training/play/game_runner.h"

#include <algorithm>
#include <chrono>
#include <exception>
#include <future>
#include <mutex>
#include <random>
#include <span>
#include <stdexcept>
#include <thread>

#include "core/errors.h"

namespace fairyzero {
namespace {
using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// One game in progress. Its randomness comes from its index alone, so a game is the same
// whichever thread or batch plays it.
struct GameSlot {
  int index = -1;  // -1: idle
  std::optional<Position> position;
  std::vector<std::unique_ptr<Search>> searches;  // one per distinct agent
  std::vector<const SeatAgent*> agents;           // the agent of each search
  std::vector<int> search_of_seat;
  std::unique_ptr<GameObserver> observer;
  std::mt19937_64 rng;
  PlayedGame record;
  bool full = true;     // this move gets the full playouts
  SearchLimits limits;  // of the mover's current search
  std::vector<PendingLeaf> leaves;
  std::vector<Evaluation> evaluations;  // of the leaves, filled from the lane's calls
  int pending = 0;                      // leaves gathered this round
  std::array<int, kMaxSeats> low_streak{};
  Clock::time_point started;

  Search& mover() { return *searches[search_of_seat[position->seat_to_move()]]; }
  const SeatAgent& mover_agent() { return *agents[search_of_seat[position->seat_to_move()]]; }
};

// Hands out game indices and passes finished games to the hook; shared by the threads. Either
// games [first, first + total) are played out, or (a quota) new games start until `total` have
// finished, and the games still going are left for the next run.
class GameLedger {
 public:
  GameLedger(int first, int total, bool quota, const GameHooks& hooks)
      : first_(first), total_(total), quota_(quota), hooks_(hooks), next_(first) {
    stopped_ = total <= 0;
  }

  int claim() {
    std::lock_guard lock(mutex_);
    if (stopped_ || (!quota_ && next_ >= first_ + total_)) return -1;
    return next_++;
  }
  void finish(PlayedGame& game, GameObserver* observer) {
    std::lock_guard lock(mutex_);
    ++games_;
    if (hooks_.finished && !hooks_.finished(game, observer)) stopped_ = true;
    if (quota_ && games_ >= total_) stopped_ = true;
  }
  // No more games after a thread failed; the others finish the games they hold.
  void abort() {
    std::lock_guard lock(mutex_);
    stopped_ = true;
  }
  // With a quota: it is reached (or the run stopped), so the games in progress wait for the
  // next run instead of being played on.
  bool leave_games() {
    std::lock_guard lock(mutex_);
    return quota_ && stopped_;
  }
  int next_index() {
    std::lock_guard lock(mutex_);
    return next_;
  }
  void add_work(long long moves, long long evaluated) {
    std::lock_guard lock(mutex_);
    moves_ += moves;
    evaluated_ += evaluated;
  }
  GameRunnerStats stats() {
    std::lock_guard lock(mutex_);
    return {games_, moves_, evaluated_, 0};
  }

 private:
  std::mutex mutex_;
  const int first_, total_;
  const bool quota_;
  const GameHooks& hooks_;
  int next_, games_ = 0;
  bool stopped_ = false;
  long long moves_ = 0, evaluated_ = 0;
};

bool same_agent(const SeatAgent& a, const SeatAgent& b) {
  return a.evaluator == b.evaluator && a.playouts == b.playouts;
}

void check_setup(const Variant& variant, const GameSetup& setup, int index) {
  const std::string game = "game " + std::to_string(index) + ": ";
  if (static_cast<int>(setup.seats.size()) != variant.seat_count())
    throw UserError(game + std::to_string(setup.seats.size()) + " seat agents for the " +
                    std::to_string(variant.seat_count()) + " seats of " + variant.name);
  for (const SeatAgent& seat : setup.seats) {
    if (!seat.evaluator) throw UserError(game + "a seat has no evaluator");
    if (seat.playouts < 1)
      throw UserError(game + "playouts must be at least 1 (" + seat.label + ")");
  }
}

class Worker {
 public:
  Worker(const VariantPtr& variant, const GameRunnerConfig& config, const GameHooks& hooks,
         GameLedger& ledger)
      : variant_(variant), config_(config), hooks_(hooks), ledger_(ledger) {}

  // The worker's games are split into lanes, each with its own evaluator calls in flight: while
  // one lane's batch is evaluated (on another thread), the worker backs up the previous batch of
  // the next lane and gathers its next one. In a lane's round every game still searching gathers
  // leaves (one call per evaluator); then every game whose search is done plays its move and
  // starts its next search, or its slot the next game, at once: no game waits for the slowest.
  // `slots` may hold games left by an earlier run: they go on with this run's seat agents.
  void run(std::vector<GameSlot>& slots) {
    const int lane_count = std::clamp(config_.batches_in_flight, 1, static_cast<int>(slots.size()));
    std::vector<Lane> lanes(lane_count);
    for (size_t i = 0; i < slots.size(); ++i) {
      if (slots[i].index >= 0)
        reseat(slots[i]);
      else
        start_next(slots[i]);
      lanes[i % lane_count].slots.push_back(&slots[i]);
    }
    try {
      for (Lane& lane : lanes) submit(lane);
      // Lanes are backed up in the order their results come (the oldest when none is back), so
      // a lane whose shares are on several servers does not hold up one that is ready.
      while (Lane* lane = next_lane(lanes)) {
        complete(*lane);
        if (!ledger_.leave_games()) submit(*lane);
      }
    } catch (...) {
      for (Lane& lane : lanes) wait_quietly(lane);  // no call may outlive the slots
      throw;
    }
    ledger_.add_work(played_, evaluated_);
  }

 private:
  // One evaluator's share of a lane's round: its leaves (game, leaf), requests and results.
  struct Call {
    Evaluator* evaluator = nullptr;
    std::vector<std::pair<GameSlot*, int>> leaves;
    std::vector<EvalRequest> requests;
    std::vector<Evaluation> results;
    std::future<void> done;
    bool ready() const {
      return done.wait_for(std::chrono::seconds(0)) == std::future_status::ready;
    }
  };
  struct Lane {
    std::vector<GameSlot*> slots;
    std::vector<Call> calls;  // in flight
    long long submitted = 0;  // when, in submissions of this worker
  };

  // A lane whose calls are all back, else the one submitted first; none when nothing is in
  // flight.
  Lane* next_lane(std::vector<Lane>& lanes) {
    Lane* oldest = nullptr;
    for (Lane& lane : lanes) {
      if (lane.calls.empty()) continue;
      if (std::all_of(lane.calls.begin(), lane.calls.end(),
                      [](const Call& c) { return c.ready(); }))
        return &lane;
      if (!oldest || lane.submitted < oldest->submitted) oldest = &lane;
    }
    return oldest;
  }

  // Gathers leaves from every game of the lane that is still searching and submits them, one
  // call per evaluator. A lane with nothing to evaluate is completed and gathered again at once
  // (its searches finish without the evaluator).
  void submit(Lane& lane) {
    while (true) {
      lane.calls.clear();
      bool active = false;
      for (GameSlot* slot : lane.slots) {
        if (slot->index < 0) continue;
        active = true;
        Search& search = slot->mover();
        if (search.done(slot->limits)) continue;
        slot->pending = search.gather(config_.leaves_per_game, slot->leaves);
        slot->evaluations.resize(slot->pending);
        // Each leaf straight to the evaluator that will evaluate it (a seat router's network).
        Evaluator* agent = slot->mover_agent().evaluator;
        for (int i = 0; i < slot->pending; ++i) {
          Evaluator* evaluator = &agent->evaluator_for(slot->leaves[i].position);
          auto call = std::find_if(lane.calls.begin(), lane.calls.end(),
                                   [&](const Call& c) { return c.evaluator == evaluator; });
          if (call == lane.calls.end()) {
            lane.calls.emplace_back();
            call = lane.calls.end() - 1;
            call->evaluator = evaluator;
          }
          call->leaves.emplace_back(slot, i);
          call->requests.push_back({&slot->leaves[i].position, &slot->leaves[i].legal});
        }
      }
      if (!active) return;
      if (lane.calls.empty()) {
        advance_finished_searches(lane);
        continue;
      }
      // Each call is queued (an InferenceServer) before the worker goes on to the next lane;
      // an evaluator that cannot queue evaluates here.
      for (Call& call : lane.calls) {
        call.results.resize(call.requests.size());
        call.done = call.evaluator->evaluate_async(call.requests, call.results);
      }
      lane.submitted = ++submissions_;
      return;
    }
  }

  // Waits for the lane's calls, backs up their results, and plays the moves of every game whose
  // search is done.
  void complete(Lane& lane) {
    for (Call& call : lane.calls) {
      call.done.get();  // rethrows the evaluator's error
      for (size_t k = 0; k < call.leaves.size(); ++k)
        std::swap(call.leaves[k].first->evaluations[call.leaves[k].second], call.results[k]);
      evaluated_ += static_cast<long long>(call.requests.size());
    }
    lane.calls.clear();
    for (GameSlot* slot : lane.slots) {
      if (slot->index < 0 || slot->pending == 0) continue;
      slot->mover().finish(std::span(slot->leaves).first(slot->pending),
                           std::span<const Evaluation>(slot->evaluations).first(slot->pending));
      slot->pending = 0;
    }
    advance_finished_searches(lane);
  }

  void advance_finished_searches(Lane& lane) {
    // Every round makes playouts: nothing is in flight when a search gathers, so its first leaf
    // is either evaluated or (a finished game, a proven node) completed on the spot.
    for (GameSlot* slot : lane.slots)
      if (slot->index >= 0 && slot->mover().done(slot->limits) && advance(*slot)) start_next(*slot);
  }

  static void wait_quietly(Lane& lane) {
    for (Call& call : lane.calls)
      if (call.done.valid()) call.done.wait();
  }

  // Starts the next game in `slot` (or leaves it idle); games already over after their
  // opening are reported at once.
  void start_next(GameSlot& slot) {
    while ((slot.index = ledger_.claim()) >= 0) {
      begin(slot);
      Outcome outcome = slot.position->outcome();
      if (!outcome.over()) return;
      finish(slot, outcome, termination_name(outcome.termination));
    }
  }

  void begin(GameSlot& slot) {
    const uint64_t seed = config_.seed * 1000003 + static_cast<uint64_t>(slot.index);
    slot.rng.seed(seed ^ 0x9e3779b97f4a7c15ull);
    slot.record = PlayedGame{};
    slot.record.index = slot.index;
    slot.record.setup = hooks_.setup(slot.index);
    const GameSetup& setup = slot.record.setup;
    check_setup(*variant_, setup, slot.index);
    slot.position = setup.start ? *setup.start : Position(variant_);
    for (const std::string& text : setup.opening) {
      slot.position->play(slot.position->parse_move(text));
      slot.record.moves.push_back(text);
    }
    build_searches(slot);
    std::uniform_real_distribution<double> uniform(0, 1);
    slot.record.no_resign = uniform(slot.rng) < config_.no_resign_fraction;
    slot.low_streak.fill(0);
    slot.started = Clock::now();
    slot.observer = hooks_.observe ? hooks_.observe(slot.index, *slot.position) : nullptr;
    choose_search(slot);
  }

  // One search per distinct agent of the game's setup, from its current position.
  void build_searches(GameSlot& slot) {
    const uint64_t seed = config_.seed * 1000003 + static_cast<uint64_t>(slot.index);
    slot.searches.clear();
    slot.agents.clear();
    slot.search_of_seat.clear();
    for (const SeatAgent& seat : slot.record.setup.seats) {
      size_t a = 0;
      while (a < slot.agents.size() && !same_agent(*slot.agents[a], seat)) ++a;
      if (a == slot.agents.size()) {
        SearchParams params = seat.params;
        params.seed = seed + 7919 * a;  // agent 0 keeps the seed of a one-agent game
        // The search scores what lies beyond the length cap as the game will: a draw.
        if (config_.max_plies > 0) params.max_plies = config_.max_plies;
        slot.agents.push_back(&seat);
        slot.searches.push_back(std::make_unique<Search>(*slot.position, *seat.evaluator, params));
      }
      slot.search_of_seat.push_back(static_cast<int>(a));
    }
  }

  // A game left by the previous run goes on with this run's agents (a newer network): fresh
  // trees, the move in progress searched again.
  void reseat(GameSlot& slot) {
    GameSetup setup = hooks_.setup(slot.index);
    check_setup(*variant_, setup, slot.index);
    slot.record.setup.seats = std::move(setup.seats);
    slot.record.setup.label = std::move(setup.label);
    build_searches(slot);
    start_search(slot);
  }

  // Decides this move's search (full or fast) and begins it.
  void choose_search(GameSlot& slot) {
    std::uniform_real_distribution<double> uniform(0, 1);
    slot.full = config_.fast_playouts <= 0 || uniform(slot.rng) < config_.full_search_probability;
    start_search(slot);
  }

  void start_search(GameSlot& slot) {
    for (size_t a = 0; a < slot.searches.size(); ++a)
      slot.searches[a]->set_root_noise(slot.full && slot.agents[a]->params.root_noise);
    slot.limits = {.playouts = slot.full ? slot.mover_agent().playouts : config_.fast_playouts};
    slot.mover().begin(slot.limits);
  }

  // Plays the searched move; returns whether the game is over (and reported).
  bool advance(GameSlot& slot) {
    Position& pos = *slot.position;
    const int seat = pos.seat_to_move();
    Search& search = slot.mover();
    const SearchResult result = search.result();
    if (slot.observer) slot.observer->searched(pos, result, slot.full);
    if (config_.resign_threshold >= 0 && !result.proven)
      slot.low_streak[seat] =
          result.value[seat] < config_.resign_threshold ? slot.low_streak[seat] + 1 : 0;
    if (config_.resign_threshold >= 0 && slot.low_streak[seat] >= config_.resign_consecutive) {
      if (!slot.record.no_resign) {
        finish(slot, resignation_outcome(pos.variant(), seat), "resignation");
        return true;
      }
      slot.record.would_resign[seat] = true;
    }
    const int played = static_cast<int>(slot.record.moves.size());
    const double temperature =
        played < config_.temperature_plies ? config_.temperature_start : config_.temperature_end;
    const Move move = search.choose_move(static_cast<float>(temperature), slot.rng);
    slot.record.moves.push_back(pos.move_text(move));
    pos.play(move);
    ++played_;
    if (slot.observer) slot.observer->played(pos);
    Outcome outcome = pos.outcome();
    std::string termination = termination_name(outcome.termination);
    if (!outcome.over() && config_.max_plies > 0 && played + 1 >= config_.max_plies) {
      outcome = length_cap_outcome();
      termination = config_.length_cap_termination;
    }
    if (outcome.over()) {
      finish(slot, outcome, termination);
      return true;
    }
    for (auto& s : slot.searches) s->play(move);
    choose_search(slot);
    return false;
  }

  void finish(GameSlot& slot, const Outcome& outcome, const std::string& termination) {
    PlayedGame& record = slot.record;
    record.outcome = outcome;
    record.termination = termination;
    for (int s = 0; s < variant_->seat_count(); ++s)
      record.dropout_order.push_back(slot.position->dropout_order(s));
    record.seconds = seconds_since(slot.started);
    ledger_.finish(record, slot.observer.get());
    slot.observer.reset();
    slot.index = -1;
  }

  const VariantPtr& variant_;
  const GameRunnerConfig& config_;
  const GameHooks& hooks_;
  GameLedger& ledger_;
  long long evaluated_ = 0, played_ = 0;
  long long submissions_ = 0;
};

}  // namespace

Outcome resignation_outcome(const Variant& variant, int seat) {
  Outcome outcome;
  outcome.termination = Termination::kResignation;
  const int team = variant.team_of_army[variant.seats[seat].army];
  for (int s = 0; s < variant.seat_count(); ++s) {
    const bool lost = variant.team_of_army[variant.seats[s].army] == team;
    outcome.score[s] = lost ? 0.0 : 1.0;
    outcome.rank[s] = lost ? 2 : 1;
  }
  // The sources rank no resignation: under individual scoring the team result stands.
  outcome.individual = outcome.score;
  return outcome;
}

namespace {

// One worker thread per slot group; the first error stops the others from starting games.
GameRunnerStats play(const VariantPtr& variant, const GameRunnerConfig& config,
                     const GameHooks& hooks, GameLedger& ledger,
                     std::vector<std::vector<GameSlot>>& groups) {
  if (!hooks.setup) throw std::logic_error("run_games: no setup hook");
  const auto start = Clock::now();
  std::exception_ptr failure;
  std::mutex failure_mutex;
  auto work = [&](std::vector<GameSlot>& slots) {
    try {
      Worker(variant, config, hooks, ledger).run(slots);
    } catch (...) {
      std::lock_guard lock(failure_mutex);
      if (!failure) failure = std::current_exception();
      ledger.abort();
    }
  };
  std::vector<std::thread> workers;
  for (size_t t = 1; t < groups.size(); ++t) workers.emplace_back(work, std::ref(groups[t]));
  work(groups[0]);
  for (std::thread& worker : workers) worker.join();
  if (failure) std::rethrow_exception(failure);
  GameRunnerStats stats = ledger.stats();
  stats.seconds = seconds_since(start);
  return stats;
}

std::vector<std::vector<GameSlot>> slot_groups(int threads, int games_per_thread) {
  std::vector<std::vector<GameSlot>> groups(std::max(1, threads));
  for (auto& group : groups) group.resize(std::max(1, games_per_thread));
  return groups;
}

}  // namespace

GameRunnerStats run_games(const VariantPtr& variant, const GameRunnerConfig& config,
                          const GameHooks& hooks) {
  if (config.games < 0) throw UserError("games must not be negative");
  GameLedger ledger(0, config.games, /*quota=*/false, hooks);
  auto groups = slot_groups(std::clamp(config.threads, 1, std::max(1, config.games)),
                            config.games_per_thread);
  return play(variant, config, hooks, ledger, groups);
}

struct GameRunner::Pool {
  std::vector<std::vector<GameSlot>> groups;
  int next_index = 0;
};

GameRunner::GameRunner(VariantPtr variant, const GameRunnerConfig& config)
    : variant_(std::move(variant)), config_(config), pool_(std::make_unique<Pool>()) {
  pool_->groups = slot_groups(config.threads, config.games_per_thread);
}

GameRunner::~GameRunner() = default;

GameRunnerStats GameRunner::run(int games, const GameHooks& hooks) {
  if (games < 0) throw UserError("games must not be negative");
  GameLedger ledger(pool_->next_index, games, /*quota=*/true, hooks);
  try {
    GameRunnerStats stats = play(variant_, config_, hooks, ledger, pool_->groups);
    pool_->next_index = ledger.next_index();
    return stats;
  } catch (...) {
    // A failed run leaves no half-searched games behind.
    pool_->groups = slot_groups(config_.threads, config_.games_per_thread);
    pool_->next_index = ledger.next_index();
    throw;
  }
}

int GameRunner::carried() const {
  int count = 0;
  for (const auto& group : pool_->groups)
    for (const GameSlot& slot : group) count += slot.index >= 0;
  return count;
}

}  // namespace fairyzero
