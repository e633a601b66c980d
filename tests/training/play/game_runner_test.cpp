// The game runner: games finish by the rules or the cap, a game depends on its index alone,
// openings and seat agents are honoured, the hooks see every move, resignation, stopping early,
// and bad setups are refused.
#include "training/play/game_runner.h"

#include <gtest/gtest.h>

#include <atomic>
#include <map>
#include <mutex>

#include "core/errors.h"
#include "core/variant_loader.h"
#include "mcts/basic_evaluators.h"

namespace fairyzero {
namespace {

GameHooks same_agent_everywhere(const Variant& variant, SeatAgent agent,
                                std::map<int, PlayedGame>& games) {
  GameHooks hooks;
  hooks.setup = [&variant, agent](int) {
    GameSetup setup;
    setup.seats.assign(variant.seat_count(), agent);
    return setup;
  };
  hooks.finished = [&games](PlayedGame& game, GameObserver*) {
    games[game.index] = game;
    return true;
  };
  return hooks;
}

Position replay(const VariantPtr& v, const PlayedGame& game) {
  Position pos = game.setup.start ? *game.setup.start : Position(v);
  for (const std::string& m : game.moves) pos.play(pos.parse_move(m));
  return pos;
}

TEST(GameRunner, GamesEndByTheRulesOrTheCapAndDependOnTheirIndexOnly) {
  VariantPtr v = find_variant("minichess");
  UniformEvaluator uniform;
  GameRunnerConfig config;
  config.games = 6;
  config.games_per_thread = 3;
  config.max_plies = 40;
  config.temperature_start = 1.0;
  config.temperature_plies = 6;
  config.length_cap_termination = "cap";
  std::map<int, PlayedGame> games;
  GameRunnerStats stats =
      run_games(v, config, same_agent_everywhere(*v, {&uniform, 8, "uniform@8"}, games));
  ASSERT_EQ(games.size(), 6u);
  EXPECT_EQ(stats.games, 6);
  EXPECT_GT(stats.evaluated, 0);
  long long moves = 0;
  for (const auto& [index, game] : games) {
    EXPECT_EQ(game.index, index);
    moves += static_cast<long long>(game.moves.size());
    const Position end = replay(v, game);
    if (game.termination == "cap") {
      EXPECT_EQ(game.moves.size(), 40u);
      EXPECT_DOUBLE_EQ(game.outcome.score[0], 0.5);
    } else {
      const Outcome o = end.outcome();
      ASSERT_TRUE(o.over()) << index;
      EXPECT_EQ(game.termination, termination_name(o.termination));
      EXPECT_EQ(game.outcome.score[0], o.score[0]);
    }
    ASSERT_EQ(game.dropout_order.size(), 2u);
  }
  EXPECT_EQ(stats.moves, moves);

  // Other threads and batch sizes play the same games.
  config.threads = 2;
  config.games_per_thread = 1;
  std::map<int, PlayedGame> again;
  run_games(v, config, same_agent_everywhere(*v, {&uniform, 8, "uniform@8"}, again));
  for (const auto& [index, game] : games) EXPECT_EQ(again[index].moves, game.moves) << index;
}

TEST(GameRunner, OpeningsAndSeatAgentsAreHonoured) {
  VariantPtr v = find_variant("chess");
  UniformEvaluator uniform;
  MaterialEvaluator material(*v);
  GameRunnerConfig config;
  config.games = 2;
  config.max_plies = 12;
  std::map<int, PlayedGame> games;
  std::mutex mutex;
  std::map<std::string, int> searches_by_evaluator;
  GameHooks hooks;
  hooks.setup = [&](int index) {
    GameSetup setup;
    setup.start = Position::from_fen(v, "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
    setup.opening = {"e2e4", "e8d7"};
    const SeatAgent strong{&material, 16, "material@16"}, weak{&uniform, 4, "uniform@4"};
    setup.seats = index == 0 ? std::vector{strong, weak} : std::vector{weak, strong};
    return setup;
  };
  struct Counter : GameObserver {
    int searched_moves = 0, played_moves = 0;
    void searched(const Position&, const SearchResult& result, bool full) override {
      EXPECT_TRUE(full);
      EXPECT_GT(result.playouts, 0);
      ++searched_moves;
    }
    void played(const Position&) override { ++played_moves; }
  };
  hooks.observe = [&](int, const Position& start) {
    EXPECT_EQ(start.plies_played(), 2);  // after the opening
    return std::make_unique<Counter>();
  };
  hooks.finished = [&](PlayedGame& game, GameObserver* observer) {
    auto* counter = static_cast<Counter*>(observer);
    EXPECT_EQ(counter->searched_moves, counter->played_moves);
    EXPECT_EQ(static_cast<int>(game.moves.size()), 2 + counter->played_moves);
    games[game.index] = game;
    return true;
  };
  run_games(v, config, hooks);
  ASSERT_EQ(games.size(), 2u);
  for (const auto& [index, game] : games) {
    EXPECT_EQ(game.moves[0], "e2e4");
    EXPECT_EQ(game.moves[1], "e8d7");
    EXPECT_LE(game.moves.size(), 12u) << "the cap counts the opening";
    EXPECT_EQ(game.setup.seats[index == 0 ? 0 : 1].label, "material@16");
    replay(v, game);  // every recorded move is legal from the start position
  }
}

// Always reports the first seat as lost.
class HopelessEvaluator : public Evaluator {
 public:
  void evaluate(std::span<const EvalRequest> batch, std::span<Evaluation> out) override {
    for (size_t i = 0; i < batch.size(); ++i) {
      out[i].policy_logits.assign(batch[i].legal->size(), 0.0f);
      out[i].value.fill(1.0f);
      out[i].value[0] = 0.0f;
    }
  }
  std::string name() const override { return "hopeless"; }
};

TEST(GameRunner, ResignationLosesForTheWholeTeam) {
  VariantPtr v = find_variant("irwell");
  ASSERT_EQ(v->seat_count(), 4);
  HopelessEvaluator hopeless;
  GameRunnerConfig config;
  config.games = 2;
  config.resign_threshold = 0.2;
  config.resign_consecutive = 1;
  std::map<int, PlayedGame> games;
  run_games(v, config, same_agent_everywhere(*v, {&hopeless, 4, "hopeless"}, games));
  const Outcome expected = resignation_outcome(*v, 0);
  for (const auto& [index, game] : games) {
    EXPECT_EQ(game.termination, "resignation");
    EXPECT_TRUE(game.moves.empty());
    for (int s = 0; s < 4; ++s) EXPECT_EQ(game.outcome.score[s], expected.score[s]);
  }
  const int team = v->team_of_army[v->seats[0].army];
  for (int s = 0; s < 4; ++s)
    EXPECT_EQ(expected.score[s], v->team_of_army[v->seats[s].army] == team ? 0.0 : 1.0);

  // Played out instead: the would-be resignation is noted.
  config.no_resign_fraction = 1.0;
  config.max_plies = 8;
  games.clear();
  run_games(v, config, same_agent_everywhere(*v, {&hopeless, 4, "hopeless"}, games));
  for (const auto& [index, game] : games) {
    EXPECT_NE(game.termination, "resignation");
    EXPECT_TRUE(game.no_resign);
    EXPECT_TRUE(game.would_resign[0]);
  }
}

TEST(GameRunner, FastSearchesAndStoppingEarly) {
  VariantPtr v = find_variant("minichess");
  UniformEvaluator uniform;
  GameRunnerConfig config;
  config.games = 50;
  config.games_per_thread = 2;
  config.max_plies = 10;
  config.full_search_probability = 0.0;
  config.fast_playouts = 2;
  config.leaves_per_game = 1;  // a round of several leaves may overshoot the playouts
  int finished = 0;
  GameHooks hooks;
  hooks.setup = [&](int) {
    GameSetup setup;
    setup.seats.assign(2, SeatAgent{&uniform, 50, "uniform"});
    return setup;
  };
  struct NoFull : GameObserver {
    void searched(const Position&, const SearchResult& result, bool full) override {
      EXPECT_FALSE(full);
      EXPECT_LE(result.playouts, 2);
    }
  };
  hooks.observe = [](int, const Position&) { return std::make_unique<NoFull>(); };
  hooks.finished = [&](PlayedGame&, GameObserver*) { return ++finished < 3; };
  GameRunnerStats stats = run_games(v, config, hooks);
  // The third game stops new ones; the one still in progress is finished.
  EXPECT_GE(finished, 3);
  EXPECT_LE(finished, 4);
  EXPECT_EQ(stats.games, finished);
}

TEST(GameRunner, BadSetupsAreRefusedWithTheGameNamed) {
  VariantPtr v = find_variant("minichess");
  UniformEvaluator uniform;
  GameRunnerConfig config;
  config.games = 1;
  GameHooks hooks;
  hooks.setup = [&](int) {
    GameSetup setup;
    setup.seats.assign(3, SeatAgent{&uniform, 8, "uniform"});
    return setup;
  };
  EXPECT_THROW(
      {
        try {
          run_games(v, config, hooks);
        } catch (const UserError& e) {
          EXPECT_NE(std::string(e.what()).find("game 0: 3 seat agents"), std::string::npos)
              << e.what();
          throw;
        }
      },
      UserError);
  hooks.setup = [&](int) {
    GameSetup setup;
    setup.seats.assign(2, SeatAgent{&uniform, 8, "uniform"});
    setup.opening = {"a1a8"};
    return setup;
  };
  EXPECT_THROW(run_games(v, config, hooks), MoveError);
}

// Pipelined games: many slots and threads, fast and full searches of different lengths, games
// of different lengths; every game is reported once, and the moves counted once.
TEST(GameRunner, EveryGameFinishesExactlyOnce) {
  VariantPtr v = find_variant("minichess");
  UniformEvaluator uniform;
  GameRunnerConfig config;
  config.games = 40;
  config.threads = 2;
  config.games_per_thread = 7;
  config.full_search_probability = 0.3;
  config.fast_playouts = 3;
  config.max_plies = 30;
  config.temperature_start = 1.0;
  config.temperature_plies = 30;
  std::vector<int> reported(config.games, 0);
  long long moves = 0;
  GameHooks hooks;
  hooks.setup = [&](int) {
    GameSetup setup;
    setup.seats.assign(2, SeatAgent{&uniform, 12, "uniform"});
    return setup;
  };
  hooks.finished = [&](PlayedGame& game, GameObserver*) {
    ++reported.at(game.index);
    moves += static_cast<long long>(game.moves.size());
    return true;
  };
  const GameRunnerStats stats = run_games(v, config, hooks);
  for (int i = 0; i < config.games; ++i) EXPECT_EQ(reported[i], 1) << "game " << i;
  EXPECT_EQ(stats.games, config.games);
  EXPECT_EQ(stats.moves, moves);
}

// An evaluator that counts the positions it was sent.
class CountingEvaluator : public Evaluator {
 public:
  std::atomic<long long> positions{0};
  void evaluate(std::span<const EvalRequest> batch, std::span<Evaluation> out) override {
    positions += static_cast<long long>(batch.size());
    uniform_.evaluate(batch, out);
  }
  std::string name() const override { return "counting"; }

 private:
  UniformEvaluator uniform_;
};

// Generations without a tail: a run returns once its quota has finished, the games still going
// wait in their slots and go on in the next run with that run's agents; over the runs every
// game is reported exactly once, and games are numbered on.
TEST(GameRunner, GamesStillGoingAtTheQuotaContinueInTheNextRunWithItsAgents) {
  VariantPtr v = find_variant("minichess");
  GameRunnerConfig config;
  config.threads = 2;
  config.games_per_thread = 5;
  config.max_plies = 40;
  config.temperature_start = 1.0;
  config.temperature_plies = 40;
  GameRunner runner(v, config);
  std::map<int, int> reported;
  std::vector<int> set_up;
  std::mutex mutex;
  auto hooks_for = [&](Evaluator& evaluator, std::string label) {
    GameHooks hooks;
    hooks.setup = [&, label](int index) {
      std::lock_guard lock(mutex);
      set_up.push_back(index);
      GameSetup setup;
      setup.seats.assign(2, SeatAgent{&evaluator, 8, label});
      setup.label = label;
      return setup;
    };
    hooks.finished = [&](PlayedGame& game, GameObserver*) {
      ++reported[game.index];
      return true;
    };
    return hooks;
  };
  CountingEvaluator first, second;
  const GameRunnerStats one = runner.run(6, hooks_for(first, "first"));
  EXPECT_GE(one.games, 6);
  const int carried = runner.carried();
  EXPECT_GT(carried, 0) << "the run should stop with games in progress";
  const long long first_before = first.positions;
  set_up.clear();
  const GameRunnerStats two = runner.run(8, hooks_for(second, "second"));
  EXPECT_GE(two.games, 8);
  EXPECT_EQ(first.positions, first_before) << "a carried game used the old agent";
  EXPECT_GT(second.positions, 0);
  // The carried games were set up again.
  EXPECT_GE(static_cast<int>(set_up.size()), carried);
  for (const auto& [index, count] : reported) EXPECT_EQ(count, 1) << "game " << index;
  EXPECT_EQ(static_cast<int>(reported.size()), one.games + two.games);
}

}  // namespace
}  // namespace fairyzero
