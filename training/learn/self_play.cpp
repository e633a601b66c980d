// Self-play through the game runner: samples for fully searched moves, given their targets
// when the game ends, and the statistics of a generation.
#include "training/learn/self_play.h"

#include <algorithm>
#include <chrono>
#include <mutex>

#include "training/play/game_runner.h"

namespace fairyzero {
namespace {

// Collects one game's samples until its result is known.
class SampleCollector : public GameObserver {
 public:
  SampleCollector(const Encoder& encoder, const SearchParams& params, double root_value_weight)
      : encoder_(encoder),
        params_(params),
        root_value_weight_(static_cast<float>(root_value_weight)),
        planes_(encoder.plane_floats()) {}

  void searched(const Position& pos, const SearchResult& result, bool full) override {
    if (!full) return;
    // Visits that are no evidence of a good move (forced playouts, proven losses) left out.
    const std::vector<int> target = policy_target_visits(result, params_);
    int visits = 0;
    for (int v : target) visits += v;
    if (visits == 0) return;  // nothing to learn from (every move proven lost, say)
    Sample sample;
    encoder_.encode(pos, planes_.data());
    pack_planes(planes_.data(), encoder_.plane_count(), encoder_.cells(), sample);
    for (size_t i = 0; i < result.children.size(); ++i) {
      if (target[i] == 0) continue;
      sample.policy_indices.push_back(encoder_.policy_index(pos, result.children[i].move));
      sample.policy_weights.push_back(static_cast<float>(target[i]) / visits);
    }
    sample.root_value = result.value;
    sample.ply = pos.plies_played();
    sample.seat = pos.seat_to_move();
    pending.push_back(std::move(sample));
  }

  void played(const Position& position) override { last_ply_ = position.plies_played(); }

  // Gives every sample its value target and outcome.
  // With root_value_weight w, the target is (1 - w) x the game's result + w x the search's
  // root value, each as W/D/L the same way.
  void settle(const Variant& variant, const Outcome& outcome) {
    std::vector<float> target(encoder_.value_heads() * 3), searched(target.size());
    for (Sample& s : pending) {
      encoder_.value_target(s.seat, outcome, target.data());
      if (root_value_weight_ > 0) {
        Outcome root;
        for (int seat = 0; seat < kMaxSeats; ++seat)
          root.score[seat] = root.individual[seat] = s.root_value[seat];
        encoder_.value_target(s.seat, root, searched.data());
        for (size_t k = 0; k < target.size(); ++k)
          target[k] = (1 - root_value_weight_) * target[k] + root_value_weight_ * searched[k];
      }
      s.value_target = target;
      s.plies_left = std::max(0, last_ply_ - s.ply);  // to the end, resignations included
      for (int seat = 0; seat < variant.seat_count(); ++seat)
        s.outcome[seat] = static_cast<float>(outcome.scored(variant.scoring)[seat]);
    }
  }

  std::vector<Sample> pending;

 private:
  const Encoder& encoder_;
  SearchParams params_;
  float root_value_weight_;
  std::vector<float> planes_;
  int last_ply_ = 0;  // plies_played() after the last move
};

GameRunnerConfig runner_config(const SelfPlayConfig& c) {
  GameRunnerConfig r;
  r.games = c.games;
  r.threads = c.workers;
  r.games_per_thread = c.games_per_worker;
  r.batches_in_flight = c.batches_in_flight;
  r.leaves_per_game = c.leaves_per_game;
  r.full_search_probability = c.full_search_probability;
  r.fast_playouts = c.fast_playouts;
  r.temperature_start = c.temperature_start;
  r.temperature_plies = c.temperature_plies;
  r.temperature_end = c.temperature_end;
  r.resign_threshold = c.resign_threshold;
  r.resign_consecutive = c.resign_consecutive;
  r.no_resign_fraction = c.no_resign_fraction;
  r.max_plies = c.max_plies;
  r.length_cap_termination = "self-play length cap";
  r.seed = c.seed;
  return r;
}

}  // namespace

SelfPlay::SelfPlay(VariantPtr variant, Evaluator& evaluator, const SelfPlayConfig& config,
                   Matchmaker matchmaker)
    : variant_(std::move(variant)),
      evaluator_(&evaluator),
      config_(config),
      matchmaker_(std::move(matchmaker)),
      encoder_(variant_) {
  if (config_.carry_over) runner_ = std::make_unique<GameRunner>(variant_, runner_config(config_));
}

SelfPlay::~SelfPlay() = default;

void SelfPlay::set_players(Evaluator& evaluator, Matchmaker matchmaker) {
  evaluator_ = &evaluator;
  matchmaker_ = std::move(matchmaker);
}

int SelfPlay::carried() const { return runner_ ? runner_->carried() : 0; }

SelfPlayStats SelfPlay::run(std::vector<Sample>& samples, std::vector<GameRecord>& games,
                            const std::function<void(const SelfPlayStats&)>& progress) {
  const Variant& v = *variant_;
  SelfPlayStats stats;
  SearchParams params = config_.search;
  params.root_noise = true;  // on full searches
  std::mutex matchmaker_mutex;
  const auto start = std::chrono::steady_clock::now();

  GameHooks hooks;
  hooks.setup = [&](int index) {
    GameSetup setup;
    GameLineup lineup{evaluator_, ""};
    if (matchmaker_) {
      std::mt19937_64 rng(config_.seed * 7368787 + static_cast<uint64_t>(index));
      std::lock_guard lock(matchmaker_mutex);
      lineup = matchmaker_(rng);
    }
    setup.seats.assign(v.seat_count(),
                       SeatAgent{lineup.evaluator, config_.full_playouts, lineup.networks, params});
    setup.label = lineup.networks;
    return setup;
  };
  hooks.observe = [&](int, const Position&) {
    return std::make_unique<SampleCollector>(encoder_, params, config_.root_value_weight);
  };
  hooks.finished = [&](PlayedGame& game, GameObserver* observer) {
    auto& collector = static_cast<SampleCollector&>(*observer);
    collector.settle(v, game.outcome);
    GameRecord record;
    for (const std::string& move : game.moves)
      record.moves += (record.moves.empty() ? "" : " ") + move;
    record.termination = game.termination;
    record.score = game.outcome.score;
    record.plies = static_cast<int>(game.moves.size());
    record.networks = game.setup.label;
    record.samples = static_cast<int>(collector.pending.size());
    ++stats.games;
    stats.moves += record.plies;
    stats.samples += static_cast<int64_t>(collector.pending.size());
    ++stats.terminations[game.termination];
    for (int seat = 0; seat < v.seat_count(); ++seat)
      stats.score_sum[seat] += game.outcome.score[seat];
    if (game.termination == "resignation") ++stats.resignations;
    if (game.no_resign) {
      bool checked = false, wrong = false;
      for (int seat = 0; seat < v.seat_count(); ++seat) {
        if (!game.would_resign[seat]) continue;
        checked = true;
        wrong = wrong || game.outcome.score[seat] > 0;
      }
      stats.resign_checks += checked;
      stats.false_resigns += wrong;
    }
    samples.insert(samples.end(), std::make_move_iterator(collector.pending.begin()),
                   std::make_move_iterator(collector.pending.end()));
    games.push_back(std::move(record));
    stats.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (progress) progress(stats);
    return true;
  };
  const GameRunnerStats run = runner_ ? runner_->run(config_.games, hooks)
                                      : run_games(variant_, runner_config(config_), hooks);
  stats.evaluated = run.evaluated;
  stats.played = run.moves;
  stats.seconds = run.seconds;
  return stats;
}

}  // namespace fairyzero
