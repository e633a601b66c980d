// Self-play: games finish, samples are well formed and match the game records, resignation and
// the no-resign check behave as configured.
#include "training/learn/self_play.h"

#include <gtest/gtest.h>

#include <map>
#include <sstream>

#include "core/variant_loader.h"
#include "mcts/basic_evaluators.h"
#include "nn/encoder.h"

namespace fairyzero {
namespace {

SelfPlayConfig small_config() {
  SelfPlayConfig c;
  c.games = 6;
  c.workers = 2;
  c.games_per_worker = 2;
  c.full_playouts = 24;
  c.fast_playouts = 8;
  c.full_search_probability = 0.5;
  c.max_plies = 60;
  c.resign_threshold = -1;
  return c;
}

// Replays a record's moves and returns the final position.
Position replay(const VariantPtr& v, const std::string& moves) {
  Position pos(v);
  std::istringstream in(moves);
  std::string text;
  while (in >> text) pos.play(pos.parse_move(text));
  return pos;
}

TEST(SelfPlay, ValueTargetsMixTheResultAndTheRootValueAsSet) {
  VariantPtr v = find_variant("minichess");
  MaterialEvaluator material(*v);
  const Encoder encoder(v);
  std::map<double, std::vector<Sample>> by_weight;
  for (double w : {0.0, 0.5, 1.0}) {
    SelfPlayConfig config = small_config();
    config.games = 2;
    config.workers = 1;  // one thread: the same games in the same order for every weight
    config.full_search_probability = 1;
    config.root_value_weight = w;
    SelfPlay play(v, material, config);
    std::vector<GameRecord> games;
    play.run(by_weight[w], games);
  }
  // Same seed, same games: compare each sample's target with the two pure ones.
  ASSERT_EQ(by_weight[0].size(), by_weight[1].size());
  ASSERT_FALSE(by_weight[0].empty());
  std::vector<float> root(encoder.value_heads() * 3);
  for (size_t i = 0; i < by_weight[1].size(); ++i) {
    const Sample& s = by_weight[1][i];
    Outcome o;
    for (int seat = 0; seat < kMaxSeats; ++seat)
      o.score[seat] = o.individual[seat] = s.root_value[seat];
    encoder.value_target(s.seat, o, root.data());
    for (size_t k = 0; k < root.size(); ++k) {
      EXPECT_NEAR(s.value_target[k], root[k], 1e-6);
      EXPECT_NEAR(by_weight[0.5][i].value_target[k],
                  0.5f * by_weight[0][i].value_target[k] + 0.5f * root[k], 1e-6);
    }
  }
}

TEST(SelfPlay, GamesFinishAndSamplesAreWellFormed) {
  VariantPtr v = find_variant("minichess");
  MaterialEvaluator material(*v);
  SelfPlayConfig config = small_config();
  SelfPlay play(v, material, config);
  std::vector<Sample> samples;
  std::vector<GameRecord> games;
  int progress_calls = 0;
  SelfPlayStats stats = play.run(samples, games, [&](const SelfPlayStats&) { ++progress_calls; });
  EXPECT_EQ(stats.games, config.games);
  EXPECT_EQ(static_cast<int>(games.size()), config.games);
  EXPECT_EQ(progress_calls, config.games);
  EXPECT_EQ(static_cast<int64_t>(samples.size()), stats.samples);
  EXPECT_GT(stats.samples, 0);
  EXPECT_GT(stats.evaluated, 0);
  int64_t plies = 0;
  for (const GameRecord& g : games) {
    Position end = replay(v, g.moves);
    EXPECT_EQ(end.plies_played(), g.plies);
    plies += g.plies;
    Outcome o = end.outcome();
    if (g.termination != "self-play length cap") {
      EXPECT_TRUE(o.over()) << g.moves;
      EXPECT_EQ(o.score[0], g.score[0]) << g.moves;
    } else {
      EXPECT_EQ(g.plies, config.max_plies);
    }
    EXPECT_DOUBLE_EQ(g.score[0] + g.score[1], 1.0);
  }
  EXPECT_EQ(plies, stats.moves);
  for (const Sample& s : samples) {
    float sum = 0;
    for (float w : s.policy_weights) sum += w;
    EXPECT_NEAR(sum, 1.0f, 1e-4);
    ASSERT_EQ(s.value_target.size(), 3u);  // one head: two teams
    EXPECT_NEAR(s.value_target[0] + s.value_target[1] + s.value_target[2], 1.0f, 1e-6);
    // The target is the game's result for the team to move there.
    float mover = s.outcome[s.seat];
    EXPECT_FLOAT_EQ(s.value_target[0], std::max(0.0f, 2 * mover - 1));
    EXPECT_FALSE(s.plane_bits.empty());
  }
}

// The moves-left target of each sample is the plies from its position to its game's end: checkmate
// or the length cap's draw alike.
TEST(SelfPlay, MovesLeftTargetsArePliesToTheGamesEnd) {
  VariantPtr v = find_variant("minichess");
  MaterialEvaluator material(*v);
  for (int cap : {60, 6}) {
    SCOPED_TRACE("max_plies " + std::to_string(cap));
    SelfPlayConfig config = small_config();
    config.games = 1;
    config.workers = 1;
    config.games_per_worker = 1;
    config.full_search_probability = 1;
    config.max_plies = cap;
    SelfPlay play(v, material, config);
    std::vector<Sample> samples;
    std::vector<GameRecord> games;
    play.run(samples, games);
    ASSERT_EQ(games.size(), 1u);
    ASSERT_FALSE(samples.empty());
    if (cap == 6) {
      EXPECT_EQ(games[0].plies, 6);
    }
    for (const Sample& s : samples) {
      EXPECT_EQ(s.plies_left, games[0].plies - s.ply) << "ply " << s.ply;
      EXPECT_GT(s.plies_left, 0) << "a sample is a position with a move still to play";
    }
  }
}

// Carry-over: two generations over the same slots. The games still going after the first run
// finish in the second, with its evaluator, and every finished game's samples are counted once,
// in the run it finishes in: each sample's ply lies within its game, each game's samples are as
// many as its fully searched moves (all of them here).
TEST(SelfPlay, CarriedGamesFinishInTheNextRunWithTheirSamplesCountedOnce) {
  VariantPtr v = find_variant("minichess");
  MaterialEvaluator material(*v);
  UniformEvaluator uniform;
  SelfPlayConfig config = small_config();
  config.carry_over = true;
  config.full_search_probability = 1;  // every move a sample
  SelfPlay play(v, material, config);
  std::vector<Sample> first_samples, second_samples;
  std::vector<GameRecord> first_games, second_games;
  const SelfPlayStats first = play.run(first_samples, first_games);
  EXPECT_GE(first.games, config.games);
  EXPECT_GT(play.carried(), 0);
  play.set_players(uniform);
  const SelfPlayStats second = play.run(second_samples, second_games);
  EXPECT_GE(second.games, config.games);
  for (const auto& [samples, games, stats] : {std::tie(first_samples, first_games, first),
                                              std::tie(second_samples, second_games, second)}) {
    int64_t plies = 0;
    for (const GameRecord& g : games) plies += g.plies;
    EXPECT_EQ(static_cast<int64_t>(samples.size()), plies) << "one sample per move, once";
    EXPECT_EQ(stats.samples, plies);
  }
  EXPECT_GT(second.played, 0);
}

// Always reports White as lost, whatever the position: White wants to resign at once.
class HopelessEvaluator : public Evaluator {
 public:
  void evaluate(std::span<const EvalRequest> batch, std::span<Evaluation> out) override {
    for (size_t i = 0; i < batch.size(); ++i) {
      out[i].policy_logits.assign(batch[i].legal->size(), 0.0f);
      out[i].value.fill(0.0f);
      out[i].value[1] = 1.0f;
    }
  }
  std::string name() const override { return "hopeless"; }
};

TEST(SelfPlay, ResignationAndTheNoResignCheck) {
  VariantPtr v = find_variant("minichess");
  HopelessEvaluator hopeless;
  SelfPlayConfig config = small_config();
  config.resign_threshold = 0.3;
  config.resign_consecutive = 1;
  config.no_resign_fraction = 0.0;
  std::vector<Sample> samples;
  std::vector<GameRecord> games;
  SelfPlayStats stats = SelfPlay(v, hopeless, config).run(samples, games);
  EXPECT_EQ(stats.resignations, config.games);
  for (const GameRecord& g : games) {
    EXPECT_EQ(g.termination, "resignation");
    EXPECT_EQ(g.plies, 0) << "White resigns at once";
    EXPECT_EQ(g.score[0], 0.0);
  }
  // Every game played out: nobody resigns, and each would-be resignation is checked.
  config.no_resign_fraction = 1.0;
  samples.clear();
  games.clear();
  stats = SelfPlay(v, hopeless, config).run(samples, games);
  EXPECT_EQ(stats.resignations, 0);
  EXPECT_EQ(stats.resign_checks, config.games);
  EXPECT_GE(stats.false_resigns, 0);
  EXPECT_LE(stats.false_resigns, stats.resign_checks);
}

}  // namespace
}  // namespace fairyzero
