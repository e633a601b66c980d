// Balance games through the game runner, and the record of every game (moves, result,
// material snapshots).
#include "training/balance/balance_games.h"

#include <chrono>
#include <cstdio>
#include <memory>
#include <stdexcept>

#include "core/errors.h"

namespace fairyzero {
namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Material snapshots of one game: at the start and every `every` plies.
class MaterialRecorder : public GameObserver {
 public:
  MaterialRecorder(const Position& start, int every) : every_(every) {
    snapshots.push_back(material_of(start));
  }
  void played(const Position& position) override {
    if (every_ > 0 && position.plies_played() % every_ == 0)
      snapshots.push_back(material_of(position));
  }
  std::vector<MaterialSnapshot> snapshots;

 private:
  int every_;
};

BalanceGame balance_record(const Variant& variant, const PlayedGame& game,
                           const std::string& strength, std::vector<MaterialSnapshot> material) {
  const int seats = variant.seat_count();
  BalanceGame record;
  record.variant = variant.name;
  record.strength = strength;
  for (const SeatAgent& seat : game.setup.seats) record.seat_agent.push_back(seat.label);
  record.moves = game.moves;
  record.termination = game.termination;
  const Outcome& o = game.outcome;
  record.team_score.assign(o.score.begin(), o.score.begin() + seats);
  record.individual.assign(o.individual.begin(), o.individual.begin() + seats);
  record.rank.assign(o.rank.begin(), o.rank.begin() + seats);
  record.dropout_order = game.dropout_order;
  record.plies = static_cast<int>(game.moves.size());
  record.material = std::move(material);
  return record;
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

BalanceGame balance_game_from_record(const VariantPtr& variant, const SelfPlayRecord& record,
                                     const std::string& strength, int material_every) {
  const int seats = variant->seat_count();
  if (static_cast<int>(record.scores.size()) != seats)
    throw std::invalid_argument("the record has " + std::to_string(record.scores.size()) +
                                " seat scores; " + variant->name + " has " + std::to_string(seats) +
                                " seats");
  BalanceGame game;
  game.variant = variant->name;
  game.strength = strength;
  game.moves = record.moves;
  game.termination = record.termination;
  game.plies = static_cast<int>(record.moves.size());
  for (int s = 0; s < seats; ++s) {
    if (record.scores[s].first != variant->seats[s].name)
      throw std::invalid_argument("the record's seat " + std::to_string(s + 1) + " is '" +
                                  record.scores[s].first + "', not " + variant->name + "'s '" +
                                  variant->seats[s].name + "'");
    game.team_score.push_back(record.scores[s].second);
  }
  game.individual = game.team_score;
  Position position(variant);
  MaterialRecorder recorder(position, material_every);
  for (size_t ply = 0; ply < record.moves.size(); ++ply) {
    Move move;
    try {
      move = position.parse_move(record.moves[ply]);
    } catch (const MoveError& e) {
      throw MoveError("ply " + std::to_string(ply + 1) + ": " + e.what());
    }
    position.play(move);
    recorder.played(position);
  }
  game.material = std::move(recorder.snapshots);
  return game;
}

std::vector<BalanceGame> play_balance_games(
    const VariantPtr& variant, const std::vector<SeatAgent>& seats, const std::string& strength,
    const BalanceConfig& config, const std::function<void(const BalanceProgress&)>& progress) {
  if (config.games < 1) throw UserError("balance: games must be at least 1");
  if (config.max_plies < 1) throw UserError("balance: max_plies must be at least 1");
  if (static_cast<int>(seats.size()) != variant->seat_count())
    throw UserError("balance: " + std::to_string(seats.size()) + " seat agents for " +
                    std::to_string(variant->seat_count()) + " seats");
  for (const SeatAgent& seat : seats) {
    if (!seat.evaluator) throw UserError("balance: a seat has no evaluator");
    if (seat.playouts < 1) throw UserError("balance: playouts must be at least 1");
  }
  GameRunnerConfig runner;
  runner.games = config.games;
  runner.threads = config.threads;
  runner.games_per_thread = config.games_at_once;
  runner.temperature_start = 1.0;
  runner.temperature_plies = config.opening_plies;
  runner.temperature_end = 0.0;
  runner.max_plies = config.max_plies;
  runner.length_cap_termination = kLengthCapTermination;
  runner.seed = config.seed;
  std::vector<BalanceGame> games(config.games);
  const auto start = std::chrono::steady_clock::now();
  int done = 0;
  GameHooks hooks;
  hooks.setup = [&](int) {
    GameSetup setup;
    setup.seats = seats;
    return setup;
  };
  hooks.observe = [&](int, const Position& position) {
    return std::make_unique<MaterialRecorder>(position, config.material_every);
  };
  hooks.finished = [&](PlayedGame& game, GameObserver* observer) {
    auto& material = static_cast<MaterialRecorder&>(*observer);
    games[game.index] = balance_record(*variant, game, strength, std::move(material.snapshots));
    ++done;
    if (progress) progress({done, config.games, seconds_since(start)});
    return true;
  };
  run_games(variant, runner, hooks);
  return games;
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
