// The arena with network players: a checkpoint against an exported bot, batched in the game
// runner, every game recorded; a network or bot of other rules refused naming the difference.
#include <gtest/gtest.h>

#include "nn/checkpoint.h"
#include "nn/encoder.h"
#include "nn/network_config.h"
#include "tests/training/arena/arena_test_support.h"
#include "training/learn/bot_export.h"
#include "training/learn/train_config.h"

namespace fairyzero {
namespace {
using namespace arena_testing;

constexpr NetworkConfig kTiny{.blocks = 1, .filters = 8, .policy_dim = 8, .value_hidden = 16};

// A run folder `run` in `dir` whose one checkpoint, gen-0001.pt, is an untrained tiny network
// for `variant`; returns the checkpoint's path.
std::string untrained_run(const TempDir& dir, const std::string& variant) {
  VariantPtr rules = find_variant(variant);
  Encoder encoder(rules);
  std::string run = dir / "run";
  fs::create_directories(run + "/checkpoints");
  TrainConfig train;
  train.run.variant = variant;
  std::ofstream(run + "/config.toml") << train_config_to_toml(train);
  std::ofstream(run + "/variant.toml") << rules->resolved_toml;
  std::string checkpoint = run + "/checkpoints/gen-0001.pt";
  save_checkpoint(checkpoint, *make_network(kTiny, encoder.network_shape()), encoder, 10);
  return checkpoint;
}

TEST(Arena, CheckpointAndBotPlayersAndAWrongVariantRefused) {
  TempDir dir;
  const std::string checkpoint = untrained_run(dir, "minichess");
  export_bot(dir / "run", dir / "bot");

  ArenaConfig config = config_for("minichess", dir / "bot", checkpoint, 2);
  EXPECT_EQ(config.players[0].kind, PlayerKind::kBot);
  EXPECT_EQ(config.players[1].kind, PlayerKind::kCheckpoint);
  config.players[0].visits = 4;
  config.default_visits = 4;
  config.concurrency = 2;  // both networks batched in the game runner
  config.max_plies = 30;
  config.out_dir = dir / "out";
  ArenaResult result = run_arena(config);
  ASSERT_EQ(result.games.size(), 2u);
  expect_recorded(config, result);

  std::string message = error_of([&] { run_arena(config_for("chess", "uniform", checkpoint, 2)); });
  EXPECT_NE(message.find("other rules"), std::string::npos) << message;
  EXPECT_NE(message.find("first difference: board.size"), std::string::npos) << message;
  message = error_of([&] { run_arena(config_for("chess", dir / "bot", "uniform", 2)); });
  EXPECT_NE(message.find("plays minichess, not chess"), std::string::npos) << message;
}

// What the study does with a four-seat team bot: the exported Irwell bot plays one team against
// the material search on the other, and the match goes into the bot's manifest.
TEST(Arena, AFourSeatBotPlaysATeamAndItsMatchEntersTheManifest) {
  TempDir dir;
  untrained_run(dir, "irwell");
  const std::string run = dir / "run";
  export_bot(run, dir / "bot");

  ArenaConfig config = config_for("irwell", dir / "bot", "material", 2);
  config.players[0].visits = 4;
  config.default_visits = 4;
  config.concurrency = 2;
  config.max_plies = 40;
  config.out_dir = dir / "match";
  const ArenaResult result = run_arena(config);
  ASSERT_EQ(result.games.size(), 2u);
  expect_recorded(config, result);

  const BotBundle bot =
      export_bot(run, dir / "bot", std::nullopt, {.strength_dirs = {dir / "match"}, .machine = ""});
  ASSERT_EQ(bot.manifest.strength.size(), 1u);
  const BotStrength& match = bot.manifest.strength[0];
  EXPECT_EQ(match.opponent, "material");
  EXPECT_EQ(match.games, 2);
  EXPECT_EQ(match.wins, result.status.counts.wins);
  EXPECT_EQ(match.losses, result.status.counts.losses);
}

}  // namespace
}  // namespace fairyzero
