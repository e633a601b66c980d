// Self-play workers: groups of games searched together, moves chosen with a temperature
// schedule, samples for fully searched moves, resignation with a no-resign check.
#include "training/self_play.h"

#include <tbb/global_control.h>
#include <tbb/task_arena.h>
#include <tbb/task_group.h>

#include <algorithm>
#include <chrono>
#include <mutex>

#include "mcts/batched_search.h"

namespace fairyzero {
namespace {

double now_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// One game in progress in a worker's group.
struct GameSlot {
  Position position;
  std::unique_ptr<Search> search;
  GameLineup lineup;            // who plays this game
  std::vector<Sample> pending;  // samples waiting for the game's result
  std::string moves;
  bool active = false;
  bool full = false;       // this move gets a full search and becomes a sample
  bool no_resign = false;  // this game is played out to check resignations
  std::array<int, kMaxSeats> low_streak{};
  std::array<bool, kMaxSeats> would_resign{};
  explicit GameSlot(const Position& start) : position(start) {}
};

}  // namespace

SelfPlay::SelfPlay(VariantPtr variant, Evaluator& evaluator, const SelfPlayConfig& config,
                   Matchmaker matchmaker)
    : variant_(std::move(variant)),
      evaluator_(evaluator),
      config_(config),
      matchmaker_(std::move(matchmaker)),
      encoder_(variant_) {}

SelfPlayStats SelfPlay::run(std::vector<Sample>& samples, std::vector<GameRecord>& games,
                            const std::function<void(const SelfPlayStats&)>& progress) {
  const Variant& v = *variant_;
  const SelfPlayConfig& c = config_;
  std::mutex mutex;  // guards everything below that workers share
  int started = 0;
  SelfPlayStats stats;
  const double start_time = now_seconds();

  auto claim_game = [&] {
    std::lock_guard lock(mutex);
    if (started >= c.games) return false;
    ++started;
    return true;
  };

  auto finish_game = [&](GameSlot& slot, const Outcome& outcome, const std::string& termination) {
    std::vector<float> target(encoder_.value_heads() * 3);
    for (Sample& s : slot.pending) {
      encoder_.value_target(s.seat, outcome, target.data());
      s.value_target = target;
      for (int seat = 0; seat < v.seat_count(); ++seat)
        s.outcome[seat] = static_cast<float>(outcome.scored(v.scoring)[seat]);
    }
    GameRecord record{slot.moves, termination, outcome.score, slot.position.plies_played(),
                      slot.lineup.networks};
    std::lock_guard lock(mutex);
    ++stats.games;
    stats.moves += record.plies;
    stats.samples += static_cast<int64_t>(slot.pending.size());
    ++stats.terminations[termination];
    for (int seat = 0; seat < v.seat_count(); ++seat) stats.score_sum[seat] += outcome.score[seat];
    if (termination == "resignation") ++stats.resignations;
    if (slot.no_resign) {
      bool checked = false, wrong = false;
      for (int seat = 0; seat < v.seat_count(); ++seat) {
        if (!slot.would_resign[seat]) continue;
        checked = true;
        wrong = wrong || outcome.score[seat] > 0;
      }
      stats.resign_checks += checked;
      stats.false_resigns += wrong;
    }
    samples.insert(samples.end(), std::make_move_iterator(slot.pending.begin()),
                   std::make_move_iterator(slot.pending.end()));
    games.push_back(std::move(record));
    stats.seconds = now_seconds() - start_time;
    if (progress) progress(stats);
  };

  auto worker = [&](int index) {
    std::mt19937_64 rng(c.seed * 1000003 + static_cast<uint64_t>(index));
    std::uniform_real_distribution<double> uniform(0, 1);
    SearchParams params = c.search;
    params.dirichlet_alpha = static_cast<float>(c.dirichlet_alpha);
    params.dirichlet_epsilon = static_cast<float>(c.dirichlet_epsilon);
    std::vector<GameSlot> slots;
    slots.reserve(c.games_per_worker);
    for (int g = 0; g < c.games_per_worker; ++g) slots.emplace_back(Position(variant_));
    std::vector<float> planes(encoder_.plane_floats());

    auto choose_search = [&](GameSlot& slot) {
      slot.full = uniform(rng) < c.full_search_probability;
      slot.search->set_root_noise(slot.full);
    };
    auto start_game = [&](GameSlot& slot) {
      slot.active = claim_game();
      if (!slot.active) return;
      slot.position = Position(variant_);
      params.seed = rng();
      slot.lineup = matchmaker_ ? matchmaker_(rng) : GameLineup{&evaluator_, ""};
      slot.search = std::make_unique<Search>(slot.position, *slot.lineup.evaluator, params);
      slot.pending.clear();
      slot.moves.clear();
      slot.no_resign = uniform(rng) < c.no_resign_fraction;
      slot.low_streak.fill(0);
      slot.would_resign.fill(false);
      choose_search(slot);
    };
    for (GameSlot& slot : slots) start_game(slot);

    std::vector<Search*> searches;
    std::vector<SearchLimits> limits;
    std::vector<GameSlot*> active;
    std::vector<Evaluator*> lineups;
    while (true) {
      active.clear();
      lineups.clear();
      for (GameSlot& slot : slots) {
        if (!slot.active) continue;
        active.push_back(&slot);
        if (std::find(lineups.begin(), lineups.end(), slot.lineup.evaluator) == lineups.end())
          lineups.push_back(slot.lineup.evaluator);
      }
      if (active.empty()) break;
      // One batched search per lineup: a batch goes to one evaluator.
      for (Evaluator* lineup : lineups) {
        searches.clear();
        limits.clear();
        for (GameSlot* slot : active) {
          if (slot->lineup.evaluator != lineup) continue;
          searches.push_back(slot->search.get());
          limits.push_back({.playouts = slot->full ? c.full_playouts : c.fast_playouts});
        }
        BatchedSearchStats round = run_batched(searches, limits, *lineup, c.leaves_per_game);
        std::lock_guard lock(mutex);
        stats.evaluated += round.evaluated;
      }
      for (GameSlot* slot : active) {
        Position& pos = slot->position;
        const int seat = pos.seat_to_move();
        SearchResult result = slot->search->result();
        if (slot->full) {
          Sample sample;
          encoder_.encode(pos, planes.data());
          pack_planes(planes.data(), encoder_.plane_count(), encoder_.cells(), sample);
          int visits = 0;
          for (const ChildStats& child : result.children) visits += child.visits;
          for (const ChildStats& child : result.children) {
            if (child.visits == 0) continue;
            sample.policy_indices.push_back(encoder_.policy_index(pos, child.move));
            sample.policy_weights.push_back(static_cast<float>(child.visits) / visits);
          }
          sample.root_value = result.value;
          sample.ply = pos.plies_played();
          sample.seat = seat;
          slot->pending.push_back(std::move(sample));
        }
        if (c.resign_threshold >= 0 && !result.proven) {
          slot->low_streak[seat] =
              result.value[seat] < c.resign_threshold ? slot->low_streak[seat] + 1 : 0;
        }
        if (c.resign_threshold >= 0 && slot->low_streak[seat] >= c.resign_consecutive) {
          if (slot->no_resign) {
            slot->would_resign[seat] = true;
          } else {
            Outcome resigned;
            const int team = v.team_of_army[v.seats[seat].army];
            for (int s = 0; s < v.seat_count(); ++s)
              resigned.score[s] = v.team_of_army[v.seats[s].army] == team ? 0.0 : 1.0;
            // The sources rank no resignation: under individual scoring the team result stands.
            resigned.individual = resigned.score;
            finish_game(*slot, resigned, "resignation");
            start_game(*slot);
            continue;
          }
        }
        const double temperature =
            pos.plies_played() < c.temperature_plies ? c.temperature_start : c.temperature_end;
        Move move = slot->search->choose_move(static_cast<float>(temperature), rng);
        slot->moves += (slot->moves.empty() ? "" : " ") + pos.move_text(move);
        pos.play(move);
        LegalMoves legal(pos);
        Outcome outcome = pos.outcome(legal);
        std::string termination = termination_name(outcome.termination);
        if (!outcome.over() && c.max_plies > 0 && pos.plies_played() >= c.max_plies) {
          outcome.termination = Termination::kMaxPlies;
          outcome.score.fill(0.5);
          outcome.individual.fill(0.5);
          termination = "self-play length cap";
        }
        if (outcome.over()) {
          finish_game(*slot, outcome, termination);
          start_game(*slot);
          continue;
        }
        choose_search(*slot);
        slot->search->play(move);
      }
    }
  };

  // Workers block on the evaluator, so allow one thread per worker (plus the caller's).
  tbb::global_control threads(tbb::global_control::max_allowed_parallelism, c.workers + 1);
  tbb::task_arena arena(c.workers);
  arena.execute([&] {
    tbb::task_group group;
    for (int w = 0; w < c.workers; ++w) group.run([&, w] { worker(w); });
    group.wait();
  });
  stats.seconds = now_seconds() - start_time;
  return stats;
}

}  // namespace fairyzero
