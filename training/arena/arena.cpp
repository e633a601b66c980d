// The arena's match: players built once, openings shared by each pair of games, statistics and
// the SPRT after every game, records as games finish. Internal players meet in the game runner
// (the games searched in one batch); a match with an engine plays one game per thread.
#include "training/arena/arena.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <memory>
#include <mutex>
#include <random>
#include <thread>

#include "core/errors.h"
#include "mcts/inference_server.h"
#include "mcts/search.h"
#include "training/arena/arena_openings.h"
#include "training/arena/arena_records.h"
#include "training/play/game_runner.h"
#include "training/players/internal_player.h"

namespace fairyzero {
namespace {
namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

// A player losing a game by its own fault; `reason` is one line, what() the whole story.
class PlayerFault : public std::runtime_error {
 public:
  PlayerFault(const std::string& reason, const std::string& detail)
      : std::runtime_error(detail), reason_(reason) {}
  const std::string& reason() const { return reason_; }

 private:
  std::string reason_;
};

// One player's side of the games of one thread.
class SeatPlayer {
 public:
  virtual ~SeatPlayer() = default;
  // `start` is the position after the opening; `start_fen` and `moves` how it was reached.
  virtual void new_game(const Position& start, const std::string& start_fen) = 0;
  // The move for the side to move (the game is not over), with the game's clocks. Throws
  // PlayerFault.
  virtual Move choose(const Position& position, const std::vector<std::string>& moves,
                      const EngineClocks& clocks) = 0;
  // Every move played in the game, by either side.
  virtual void observe(Move) {}
};

// What internal players share across threads: the evaluator and the search settings.
struct SearchBackend {
  std::shared_ptr<Evaluator> evaluator;
  int visits = 0;
  SearchParams params;
};

class SearchPlayer : public SeatPlayer {
 public:
  SearchPlayer(const SearchBackend& backend, uint64_t seed)
      : backend_(backend), random_(seed), seed_(seed) {}

  void new_game(const Position& start, const std::string&) override {
    SearchParams params = backend_.params;
    params.seed = ++seed_;
    search_ = std::make_unique<Search>(start, *backend_.evaluator, params);
  }
  Move choose(const Position&, const std::vector<std::string>&, const EngineClocks&) override {
    search_->run({.playouts = backend_.visits});
    return search_->choose_move(0.0f, random_);
  }
  void observe(Move move) override { search_->play(move); }

 private:
  const SearchBackend& backend_;
  std::unique_ptr<Search> search_;
  std::mt19937_64 random_;
  uint64_t seed_;
};

const char* failure_text(EngineFailure failure) {
  switch (failure) {
    case EngineFailure::kCrashed: return "crashed";
    case EngineFailure::kTimedOut: return "timed out";
    case EngineFailure::kProtocol: return "broke the protocol";
  }
  return "failed";
}

// An engine process for one thread's games; after a failure it is closed and started afresh
// for the next game.
class EnginePlayer : public SeatPlayer {
 public:
  EnginePlayer(const EngineSettings& settings, const VariantPtr& variant)
      : settings_(settings), variant_(variant), engine_(ExternalEngine::start(settings, variant)) {}

  void new_game(const Position&, const std::string& start_fen) override {
    guarded([&] {
      if (!engine_) engine_ = ExternalEngine::start(settings_, variant_);
      engine_->new_game(start_fen);
    });
  }
  Move choose(const Position& position, const std::vector<std::string>& moves,
              const EngineClocks& clocks) override {
    EngineAnswer answer;
    guarded([&] { answer = engine_->think(moves, position.seat_to_move(), clocks); });
    if (answer.resigned) throw PlayerFault("resigned", "resigned or claimed: " + answer.note);
    try {
      return position.parse_move(answer.move);
    } catch (const MoveError& error) {
      throw PlayerFault(
          "illegal move '" + answer.move + "'",
          "illegal move '" + answer.move + "' in " + position.fen() + ": " + error.what());
    }
  }

 private:
  template <typename Action>
  void guarded(Action action) {
    try {
      action();
    } catch (const EngineError& error) {
      engine_.reset();
      throw PlayerFault(failure_text(error.failure()), error.what());
    }
  }

  EngineSettings settings_;
  VariantPtr variant_;
  std::unique_ptr<ExternalEngine> engine_;
};

bool is_engine(const PlayerSpec& spec) {
  return spec.kind == PlayerKind::kUci || spec.kind == PlayerKind::kXboard;
}

// Networks get an InferenceServer in front when several threads search at once, so their
// leaves share forward passes.
std::shared_ptr<Evaluator> serve_network(std::shared_ptr<Evaluator> network, int concurrency) {
  if (concurrency <= 1) return network;
  InferenceServerConfig server;
  server.max_batch = 8 * concurrency;
  server.max_wait_us = 500;
  return std::make_shared<InferenceServer>(std::move(network), server);
}

// `threads`: how many threads will call the evaluator at once.
SearchBackend make_backend(const PlayerSpec& spec, const ArenaConfig& config, int threads) {
  SearchBackend backend;
  backend.visits = spec.visits > 0 ? spec.visits : config.default_visits;
  const VariantPtr& variant = config.variant;
  switch (spec.kind) {
    case PlayerKind::kUniform:
    case PlayerKind::kMaterial:
    case PlayerKind::kCheckpoint:
    case PlayerKind::kBot: {
      InternalPlayer player = make_internal_player(spec, variant, config.device);
      if (player.bot_search) {
        if (spec.visits <= 0) backend.visits = player.bot_search->playouts;
        backend.params = player.bot_search->params;
      }
      std::shared_ptr<Evaluator> evaluator(std::move(player.evaluator));
      // Networks get a server in front; the basic evaluators are cheap enough alone.
      backend.evaluator = spec.kind == PlayerKind::kCheckpoint || spec.kind == PlayerKind::kBot
                              ? serve_network(std::move(evaluator), threads)
                              : std::move(evaluator);
      break;
    }
    default: break;
  }
  backend.params.root_noise = false;
  backend.params.threads = 1;  // concurrency comes from games played at once
  return backend;
}

EngineSettings engine_settings(const PlayerSpec& spec, const ArenaConfig& config) {
  EngineSettings settings;
  settings.protocol =
      spec.kind == PlayerKind::kUci ? EngineProtocol::kUci : EngineProtocol::kXboard;
  settings.command = spec.target;
  settings.limits = spec.engine_limits;
  const EngineLimits& l = settings.limits;
  if (l.nodes <= 0 && l.depth <= 0 && l.movetime_ms <= 0 && !l.has_clock())
    settings.limits.movetime_ms = 100;
  settings.options = config.engine_options;
  settings.options.insert(settings.options.end(), spec.engine_options.begin(),
                          spec.engine_options.end());
  settings.startup_seconds = config.engine_startup_seconds;
  settings.move_timeout_seconds = config.engine_move_timeout_seconds;
  return settings;
}

// The players of one thread. Engines start here, so a bad command fails before any game.
struct GameSlot {
  std::array<std::unique_ptr<SeatPlayer>, 2> players;
};

GameSlot make_slot(const ArenaConfig& config, const std::array<SearchBackend, 2>& backends,
                   int slot_index) {
  GameSlot slot;
  for (int p = 0; p < 2; ++p) {
    const PlayerSpec& spec = config.players[p];
    if (is_engine(spec))
      slot.players[p] =
          std::make_unique<EnginePlayer>(engine_settings(spec, config), config.variant);
    else
      slot.players[p] = std::make_unique<SearchPlayer>(
          backends[p], config.seed * 1000003 + static_cast<uint64_t>(slot_index * 2 + p) * 7919);
  }
  return slot;
}

// The game clocks of the players given one (engines under --clock): time used is charged
// after each move, the increment added; a player past its time loses.
class GameClocks {
 public:
  GameClocks(const ArenaConfig& config, int side_of_first) : side_of_first_(side_of_first) {
    for (int p = 0; p < 2; ++p) {
      const EngineLimits& limits = config.players[p].engine_limits;
      clocked_[p] = is_engine(config.players[p]) && limits.has_clock();
      remaining_[p] = limits.clock_seconds;
      increment_[p] = limits.increment_seconds;
    }
  }
  // By seat, for the engine of `player`; a seat without a clock shows the mover's.
  EngineClocks for_move(int player) const {
    EngineClocks clocks;
    for (int p = 0; p < 2; ++p) {
      const int shown = clocked_[p] ? p : player;
      const int seat = p == 0 ? side_of_first_ : 1 - side_of_first_;
      clocks.remaining[seat] = remaining_[shown];
      clocks.increment[seat] = increment_[shown];
    }
    return clocks;
  }
  void charge(int player, double seconds) {
    if (!clocked_[player]) return;
    remaining_[player] -= seconds;
    if (remaining_[player] < 0) {
      char text[96];
      std::snprintf(text, sizeof text, "used %.3f s with %.3f s left on its clock", seconds,
                    remaining_[player] + seconds);
      throw PlayerFault("lost on time", text);
    }
    remaining_[player] += increment_[player];
  }

 private:
  int side_of_first_;
  std::array<bool, 2> clocked_{};
  std::array<double, 2> remaining_{}, increment_{};
};

ArenaGame play_game(const ArenaConfig& config, GameSlot& slot, const Opening& opening, int index) {
  auto started = Clock::now();
  ArenaGame game;
  game.index = index;
  game.pair = index / 2;
  game.side_of_first = index % 2;
  game.opening = opening.description;
  game.start_fen = opening.start_fen;
  game.moves = opening.moves;
  Position position = opening_position(config.variant, opening);
  auto finish = [&](std::array<double, 2> side_score, std::string termination) {
    game.side_score = side_score;
    game.first_score = side_score[game.side_of_first];
    game.termination = std::move(termination);
    game.seconds = std::chrono::duration<double>(Clock::now() - started).count();
    return game;
  };
  int player = 0;  // the one acting, for faults
  GameClocks clocks(config, game.side_of_first);
  try {
    for (player = 0; player < 2; ++player) slot.players[player]->new_game(position, game.start_fen);
    for (;;) {
      Outcome outcome = position.outcome();
      if (outcome.over())
        return finish({outcome.score[0], outcome.score[1]}, termination_name(outcome.termination));
      if (static_cast<int>(game.moves.size()) >= config.max_plies)
        return finish({0.5, 0.5}, "arena move limit");
      player = position.seat_to_move() == game.side_of_first ? 0 : 1;
      const auto asked = Clock::now();
      auto used = [&] { return std::chrono::duration<double>(Clock::now() - asked).count(); };
      Move move;
      try {
        move = slot.players[player]->choose(position, game.moves, clocks.for_move(player));
      } catch (const PlayerFault&) {
        clocks.charge(player, used());  // an answer past the clock loses on time, whatever it was
        throw;
      }
      clocks.charge(player, used());
      game.moves.push_back(position.move_text(move));
      position.play(move);
      for (auto& p : slot.players) p->observe(move);
    }
  } catch (const PlayerFault& fault) {
    game.detail = fault.what();
    int loser_seat = player == 0 ? game.side_of_first : 1 - game.side_of_first;
    std::array<double, 2> score{1.0, 1.0};
    score[loser_seat] = 0.0;
    return finish(score, config.players[player].name + " " + fault.reason());
  }
}

// Shared by the game threads: which game is next, the results so far, and the records.
class MatchState {
 public:
  MatchState(const ArenaConfig& config, int total, const ArenaProgress& progress)
      : config_(config), progress_(progress), started_(Clock::now()) {
    result_.status.games_total = total;
    if (!config.out_dir.empty()) recorder_ = std::make_unique<ArenaRecorder>(config);
  }

  // The next game to play, or -1 when every game is given out or the match is stopping.
  int next_game() {
    std::lock_guard lock(mutex_);
    if (stopping_ || next_ >= result_.status.games_total) return -1;
    return next_++;
  }

  void add(ArenaGame game) {
    std::lock_guard lock(mutex_);
    ArenaStatus& s = result_.status;
    ++s.games_done;
    if (game.first_score > 0.75)
      ++s.counts.wins;
    else if (game.first_score < 0.25)
      ++s.counts.losses;
    else
      ++s.counts.draws;
    s.elo = estimate_elo(s.counts);
    s.los = likelihood_of_superiority(s.counts);
    if (config_.sprt) {
      s.llr = sprt_llr(s.counts, *config_.sprt);
      if (s.decision == SprtDecision::kContinue) s.decision = sprt_decision(s.llr, *config_.sprt);
      if (s.decision != SprtDecision::kContinue) stopping_ = true;
    }
    s.seconds = std::chrono::duration<double>(Clock::now() - started_).count();
    s.games_per_second = s.seconds > 0 ? s.games_done / s.seconds : 0;
    int left = std::max(0, (stopping_ ? next_ : s.games_total) - s.games_done);
    s.eta_seconds = s.games_per_second > 0 ? left / s.games_per_second : 0;
    if (recorder_) recorder_->record(game);
    if (progress_) progress_(s, game);
    result_.games.push_back(std::move(game));
  }

  bool stopping() {
    std::lock_guard lock(mutex_);
    return stopping_;
  }

  // After a thread failed: no new games, and the first error is rethrown by take_result.
  void fail(std::exception_ptr error) {
    std::lock_guard lock(mutex_);
    if (!error_) error_ = error;
    stopping_ = true;
  }

  ArenaResult take_result() {
    if (error_) std::rethrow_exception(error_);
    std::sort(result_.games.begin(), result_.games.end(),
              [](const ArenaGame& a, const ArenaGame& b) { return a.index < b.index; });
    if (recorder_) recorder_->write_summary(result_);
    return std::move(result_);
  }

 private:
  const ArenaConfig& config_;
  const ArenaProgress& progress_;
  Clock::time_point started_;
  std::unique_ptr<ArenaRecorder> recorder_;
  std::mutex mutex_;
  ArenaResult result_;  // guarded by mutex_
  int next_ = 0;
  bool stopping_ = false;
  std::exception_ptr error_;
};

Opening opening_of_pair(const ArenaConfig& config, const std::vector<Opening>& openings, int pair) {
  return openings.empty() ? random_opening(config.variant, config.opening_plies, config.seed, pair)
                          : openings[pair % openings.size()];
}

// Each side's share of the points of a game: its seats' scores over every seat's. A team's
// win is 1 (both its seats score 1), a draw 1/2; with four teams the side whose army is the last
// with a King scores 1.
std::array<double, 2> side_shares(const ArenaSides& sides, const Outcome& outcome) {
  std::array<double, 2> points{};
  for (size_t seat = 0; seat < sides.side_of_seat.size(); ++seat)
    points[sides.side_of_seat[seat]] += outcome.score[seat];
  const double total = points[0] + points[1];
  if (total <= 0) return {0.5, 0.5};
  return {points[0] / total, points[1] / total};
}

// Both players internal: every game of the match in the game runner, `concurrency` games
// searched in one batch per player. Each player moves every seat of its side.
void play_in_runner(const ArenaConfig& config, const std::array<SearchBackend, 2>& backends,
                    const std::vector<Opening>& openings, int total, MatchState& state) {
  const ArenaSides sides = arena_sides(*config.variant);
  std::array<SeatAgent, 2> agents;
  for (int p = 0; p < 2; ++p)
    agents[p] = {backends[p].evaluator.get(), backends[p].visits, config.players[p].name,
                 backends[p].params};
  GameRunnerConfig runner;
  runner.games = total;
  runner.threads = 1;
  runner.games_per_thread = config.concurrency;
  runner.max_plies = config.max_plies;
  runner.length_cap_termination = "arena move limit";
  runner.seed = config.seed;
  GameHooks hooks;
  hooks.setup = [&](int index) {
    const Opening opening = opening_of_pair(config, openings, index / 2);
    GameSetup setup;
    if (!opening.start_fen.empty())
      setup.start = Position::from_fen(config.variant, opening.start_fen);
    setup.opening = opening.moves;
    setup.label = opening.description;
    const int side_of_first = index % 2;
    for (int side : sides.side_of_seat)
      setup.seats.push_back(agents[side == side_of_first ? 0 : 1]);
    return setup;
  };
  hooks.finished = [&](PlayedGame& played, GameObserver*) {
    ArenaGame game;
    game.index = played.index;
    game.pair = played.index / 2;
    game.side_of_first = played.index % 2;
    const Opening opening = opening_of_pair(config, openings, game.pair);
    game.opening = opening.description;
    game.start_fen = opening.start_fen;
    game.moves = std::move(played.moves);
    game.side_score = side_shares(sides, played.outcome);
    game.first_score = game.side_score[game.side_of_first];
    game.termination = played.termination;
    game.seconds = played.seconds;
    state.add(std::move(game));
    return !state.stopping();
  };
  run_games(config.variant, runner, hooks);
}

}  // namespace

ArenaSides arena_sides(const Variant& variant) {
  // Teams take sides in turns, in the order they move from the first seat on: two teams face
  // each other, and with four (Double Commedia) each side holds every other army.
  const int seats = variant.seat_count();
  const std::vector<int>& order = variant.turn_order;
  const size_t offset =
      static_cast<size_t>(std::find(order.begin(), order.end(), 0) - order.begin()) % order.size();
  std::vector<int> side_of_team(variant.army_count(), -1);  // team ids index armies at most
  int teams = 0;
  for (size_t k = 0; k < order.size(); ++k) {
    const int seat = order[(offset + k) % order.size()];
    const int team = variant.team_of_army[variant.seats[seat].army];
    if (side_of_team.at(team) < 0) side_of_team[team] = teams++ % 2;
  }
  if (teams < 2 || teams % 2 != 0)
    throw UserError("arena: " + variant.name + " has " + std::to_string(teams) +
                    " teams; the arena plays two sides, so it needs two teams or an even number "
                    "of them to share out");
  ArenaSides sides;
  for (const Seat& seat : variant.seats)
    sides.side_of_seat.push_back(side_of_team[variant.team_of_army[seat.army]]);
  for (int seat = 0; seats == 2 && seat < 2; ++seat)
    sides.names[sides.side_of_seat[seat]] = variant.seats[seat].name;
  for (int army = 0; seats != 2 && army < variant.army_count(); ++army) {
    const int side = side_of_team[variant.team_of_army[army]];
    if (side < 0) continue;  // an army no seat moves
    sides.names[side] += (sides.names[side].empty() ? "" : "+") + variant.armies[army];
  }
  return sides;
}

ArenaResult run_arena(const ArenaConfig& config, const ArenaProgress& progress) {
  const Variant& variant = *config.variant;
  arena_sides(variant);  // two sides to share the seats, or a clear refusal
  if (variant.seat_count() != 2)
    for (const PlayerSpec& player : config.players)
      if (is_engine(player))
        throw UserError("arena: " + variant.name + " has " + std::to_string(variant.seat_count()) +
                        " seats; an engine (" + player.spec + ") plays a two-seat variant only");
  if (config.games < 1 || config.concurrency < 1)
    throw UserError("arena: games and concurrency must be at least 1");
  int total = (config.games + 1) / 2 * 2;
  std::vector<Opening> openings = config.openings_file.empty()
                                      ? std::vector<Opening>{}
                                      : read_openings_file(config.openings_file, config.variant);
  // Internal players alone meet in the game runner, in one thread: no server needed.
  const bool internal = !is_engine(config.players[0]) && !is_engine(config.players[1]);
  std::array<SearchBackend, 2> backends;
  for (int p = 0; p < 2; ++p)
    if (!is_engine(config.players[p]))
      backends[p] = make_backend(config.players[p], config, internal ? 1 : config.concurrency);
  if (internal) {
    MatchState state(config, total, progress);
    play_in_runner(config, backends, openings, total, state);
    return state.take_result();
  }
  int threads = std::min(config.concurrency, total);
  std::vector<GameSlot> slots;
  for (int t = 0; t < threads; ++t) slots.push_back(make_slot(config, backends, t));

  MatchState state(config, total, progress);
  auto work = [&](GameSlot& slot) {
    try {
      for (int index; (index = state.next_game()) >= 0;) {
        state.add(play_game(config, slot, opening_of_pair(config, openings, index / 2), index));
      }
    } catch (...) {
      state.fail(std::current_exception());
    }
  };
  std::vector<std::thread> workers;
  for (int t = 1; t < threads; ++t) workers.emplace_back(work, std::ref(slots[t]));
  work(slots[0]);
  for (std::thread& worker : workers) worker.join();
  slots.clear();  // engines quit before the summary is written
  return state.take_result();
}

std::string format_status(const ArenaConfig& config, const ArenaStatus& s) {
  const GameCounts& c = s.counts;
  char line[400];
  int width = static_cast<int>(std::to_string(s.games_total).size());
  int n = std::snprintf(
      line, sizeof line, "[%*d/%d] %s %.1f/%d (+%d =%d -%d)  Elo %+.0f [%+.0f, %+.0f]  LOS %.0f%%",
      width, s.games_done, s.games_total, config.players[0].name.c_str(), c.wins + 0.5 * c.draws,
      c.games(), c.wins, c.draws, c.losses, s.elo.elo, s.elo.elo_low, s.elo.elo_high, 100 * s.los);
  std::string text(line, std::min<size_t>(n, sizeof line - 1));
  if (config.sprt) {
    std::snprintf(line, sizeof line, "  LLR %.2f [%.2f, %.2f]", s.llr, config.sprt->lower_bound(),
                  config.sprt->upper_bound());
    text += line;
    if (s.decision != SprtDecision::kContinue)
      text += std::string(" ") + sprt_decision_name(s.decision);
  }
  std::snprintf(line, sizeof line, "  %.2f games/s  ETA %.0fs", s.games_per_second, s.eta_seconds);
  return text + line;
}

}  // namespace fairyzero
