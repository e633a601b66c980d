// Exported bots: export from a (fake) training run, load back and play exactly as the checkpoint
// does; loading refuses a bundle with a missing, malformed or mismatched part, naming it.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "core/rules_fingerprint.h"
#include "core/variant_loader.h"
#include "mcts/search.h"
#include "nn/checkpoint.h"
#include "nn/encoder.h"
#include "nn/network_evaluator.h"
#include "training/learn/bot_export.h"
#include "training/learn/train_config.h"

namespace fairyzero {
namespace {
namespace fs = std::filesystem;

class TempDir {
 public:
  TempDir() {
    path_ = fs::temp_directory_path() / ("fairyzero-bot-" + std::to_string(std::random_device{}()));
    fs::create_directories(path_);
  }
  ~TempDir() { fs::remove_all(path_); }
  std::string operator/(const std::string& name) const { return (path_ / name).string(); }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

constexpr NetworkConfig kTiny{.blocks = 1, .filters = 8, .policy_dim = 8, .value_hidden = 16};

void write_checkpoint(const std::string& path, const VariantPtr& v, int64_t step) {
  Encoder encoder(v);
  save_checkpoint(path, *make_network(kTiny, encoder.network_shape()), encoder, step);
}

void write_checkpoint(const std::string& path, const std::string& variant_name, int64_t step) {
  write_checkpoint(path, find_variant(variant_name), step);
}

// A run folder as TrainingRun leaves it, minus samples: config.toml, variant.toml (minichess
// with `options`) and two checkpoints.
std::string make_run(const TempDir& dir, const std::vector<std::string>& options = {}) {
  std::string run = dir / "run";
  fs::create_directories(run + "/checkpoints");
  VariantPtr variant = find_variant("minichess", options);
  TrainConfig config;
  config.run.variant = "minichess";
  for (const std::string& o : options)
    config.run.variant_options += (config.run.variant_options.empty() ? "" : "; ") + o;
  std::ofstream(run + "/config.toml") << train_config_to_toml(config);
  std::ofstream(run + "/variant.toml") << variant->resolved_toml;
  write_checkpoint(run + "/checkpoints/gen-0000.pt", variant, 0);
  write_checkpoint(run + "/checkpoints/gen-0002.pt", variant, 40);
  return run;
}

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The moves a search plays in a short game from the start, with a fixed seed.
std::vector<Move> play_game(const VariantPtr& variant, Evaluator& evaluator, int plies) {
  SearchParams params;
  params.seed = 11;
  Position pos(variant);
  Search search(pos, evaluator, params);
  std::vector<Move> moves;
  for (int ply = 0; ply < plies && !pos.outcome().over(); ++ply) {
    SearchResult r = search.run({.playouts = 48});
    moves.push_back(r.best);
    pos.play(r.best);
    search.play(r.best);
  }
  return moves;
}

// Expects load_bot to throw BotBundleError whose message holds each of `parts`.
void expect_refused(const std::string& bot, std::initializer_list<std::string> parts) {
  try {
    load_bot(bot);
    ADD_FAILURE() << "load_bot accepted " << bot;
  } catch (const BotBundleError& e) {
    for (const std::string& part : parts)
      EXPECT_NE(std::string(e.what()).find(part), std::string::npos)
          << "'" << part << "' not in: " << e.what();
  }
}

TEST(BotBundle, ExportWritesEveryPartFromTheNewestCheckpoint) {
  TempDir dir;
  std::string run = make_run(dir);
  BotBundle bot = export_bot(run, dir / "bot");
  for (const char* part :
       {"manifest.toml", "variant.toml", "network.pt", "network.toml", "search.toml"})
    EXPECT_TRUE(fs::exists(dir / (std::string("bot/") + part))) << part;
  EXPECT_TRUE(is_bot_bundle(dir / "bot"));
  EXPECT_EQ(bot.manifest.variant, "minichess");
  EXPECT_EQ(bot.manifest.generation, 2);
  EXPECT_EQ(bot.manifest.training_steps, 40);
  EXPECT_EQ(bot.manifest.source_run, fs::absolute(run).lexically_normal().string());
  EXPECT_FALSE(bot.manifest.exported.empty());
  EXPECT_EQ(bot.variant->name, "minichess");
  EXPECT_EQ(read_checkpoint_info(bot.checkpoint).step, 40);
  EXPECT_FALSE(bot.search.params.root_noise);
  EXPECT_NE(read_text(dir / "bot/network.toml").find("blocks = 1"), std::string::npos);

  BotBundle older = export_bot(run, dir / "bot", "gen-0000.pt");  // replaces the bot
  EXPECT_EQ(older.manifest.generation, 0);
  EXPECT_EQ(load_bot(dir / "bot").manifest.training_steps, 0);
  for (const auto& entry : fs::directory_iterator(dir.path()))
    EXPECT_EQ(entry.path().filename().string().rfind(".bot", 0), std::string::npos)
        << "a temporary folder was left: " << entry.path();
}

// An arena folder's summary.json as the arena writes it (training/arena/arena_records.h).
void write_summary(const std::string& dir, const std::string& first, int wins, int draws,
                   int losses) {
  fs::create_directories(dir);
  std::ofstream(dir + "/summary.json")
      << "{\"format\": 1, \"variant\": \"minichess\", \"players\": [{\"name\": \"" << first
      << "\", \"spec\": \"" << first << "\", \"visits\": 200}, {\"name\": \"material\", "
      << "\"spec\": \"material\", \"description\": \"MCTS over material, 200 playouts per "
      << "move\", \"visits\": 200}], \"games\": " << wins + draws + losses << ", \"wins\": " << wins
      << ", \"draws\": " << draws << ", \"losses\": " << losses
      << ", \"score\": 0.6, \"elo\": 70.4, \"elo_low\": 9.3, \"elo_high\": 136.2}\n";
}

// The manifest records the run's training (games from games/, samples from the CSV, minutes
// between the first and the exported checkpoint, the machine) and measured matches, which load
// back; a match of another player is refused, naming the file.
TEST(BotBundle, TheManifestRecordsTrainingAndMeasuredStrength) {
  TempDir dir;
  std::string run = make_run(dir);
  fs::create_directories(run + "/games");
  std::ofstream(run + "/games/gen-0000-w0-000000.txt") << "checkmate | a\ncheckmate | b\n";
  std::ofstream(run + "/games/gen-0001-w1-000000.txt") << "repetition | c\n";
  std::ofstream(run + "/games/gen-0002-w0-000000.txt") << "played after the checkpoint\n";
  std::ofstream(run + "/external.csv")
      << "generation,published_samples,new_samples,files,waited_seconds\n0,120,120,1,5\n"
         "1,250,130,2,4\n2,400,150,3,4\n";
  fs::last_write_time(
      run + "/checkpoints/gen-0002.pt",
      fs::last_write_time(run + "/checkpoints/gen-0000.pt") + std::chrono::minutes(12));

  BotExportRecords rig;
  rig.machine = "a test rig";
  BotBundle first = export_bot(run, dir / "bot", std::nullopt, rig);
  ASSERT_TRUE(first.manifest.training.has_value());
  EXPECT_EQ(first.manifest.training->games, 3) << "games of generations 0 and 1 only";
  EXPECT_EQ(first.manifest.training->samples, 250);
  EXPECT_NEAR(first.manifest.training->minutes, 12.0, 0.01);
  EXPECT_EQ(first.manifest.training->machine, "a test rig");
  EXPECT_TRUE(first.manifest.strength.empty());

  write_summary(dir / "match", dir / "bot", 51, 18, 31);
  BotExportRecords match;
  match.strength_dirs = {dir / "match"};
  BotBundle measured = export_bot(run, dir / "bot", std::nullopt, match);
  ASSERT_EQ(measured.manifest.strength.size(), 1u);
  const BotStrength x = load_bot(dir / "bot").manifest.strength.at(0);
  EXPECT_EQ(x.opponent, "material");
  EXPECT_EQ(x.visits, 200);
  EXPECT_EQ(x.games, 100);
  EXPECT_EQ(x.wins, 51);
  EXPECT_DOUBLE_EQ(x.elo_low, 9.3);
  EXPECT_NE(load_bot(dir / "bot").manifest.training->machine.find("core"), std::string::npos)
      << "this machine by default";

  write_summary(dir / "other", "uniform", 1, 0, 1);
  try {
    BotExportRecords other;
    other.strength_dirs = {dir / "other"};
    export_bot(run, dir / "bot", std::nullopt, other);
    ADD_FAILURE() << "a match of another player was taken";
  } catch (const BotBundleError& e) {
    EXPECT_NE(std::string(e.what()).find(dir / "other/summary.json"), std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("not this bot"), std::string::npos) << e.what();
  }
  EXPECT_EQ(load_bot(dir / "bot").manifest.strength.size(), 1u) << "the bot was left as it was";
  fs::create_directories(dir / "bad");
  std::ofstream(dir / "bad/summary.json") << "{\"players\": [";
  EXPECT_THROW(read_match_strength(dir / "bad"), BotBundleError);

  // A manifest whose counts do not add up is refused with the field.
  std::string manifest = read_text(dir / "bot/manifest.toml");
  const size_t at = manifest.find("wins = 51");
  ASSERT_NE(at, std::string::npos) << manifest;
  manifest.replace(at, 9, "wins = 52");
  std::ofstream(dir / "bot/manifest.toml") << manifest;
  expect_refused(dir / "bot", {"manifest.toml", "strength", "adding up to games"});
}

TEST(BotBundle, TheLoadedBotPlaysLikeItsCheckpoint) {
  TempDir dir;
  std::string run = make_run(dir);
  export_bot(run, dir / "bot");
  BotBundle bot = load_bot(dir / "bot");
  std::unique_ptr<Evaluator> exported = make_bot_evaluator(bot, "cpu");
  VariantPtr variant = find_variant("minichess");
  auto original = NetworkEvaluator::from_checkpoint(run + "/checkpoints/gen-0002.pt", variant);
  std::vector<Move> from_bundle = play_game(bot.variant, *exported, 8);
  std::vector<Move> from_checkpoint = play_game(variant, *original, 8);
  // The run's self-play is multithreaded, so its network and the game's length vary from run
  // to run (a mate within 8 plies happens); what must hold is that both play the same game.
  ASSERT_FALSE(from_bundle.empty());
  EXPECT_EQ(from_bundle, from_checkpoint);
}

TEST(BotBundle, KeepsTheRunsVariantOptions) {
  TempDir dir;
  std::string run = make_run(dir, {"rules.move_rule=10", "rules.repetition=2"});
  BotBundle bot = export_bot(run, dir / "bot");
  EXPECT_EQ(bot.manifest.variant_options,
            (std::vector<std::string>{"rules.move_rule=10", "rules.repetition=2"}));
  EXPECT_EQ(load_bot(dir / "bot").variant->rules.move_rule, 10);
  EXPECT_EQ(load_bot(dir / "bot").variant->rules.repetition, 2);
}

// The bot plays the run's own rules: a later edit of the stock file changes nothing.
TEST(BotBundle, ExportsTheRunsOwnRulesNotTheStockFile) {
  TempDir dir;
  std::string run = make_run(dir, {"rules.move_rule=7"});
  BotBundle bot = export_bot(run, dir / "bot");
  EXPECT_EQ(bot.variant->rules.move_rule, 7);
  EXPECT_EQ(bot.manifest.rules_fingerprint, rules_fingerprint(*find_variant(run)));
  EXPECT_NE(bot.manifest.rules_fingerprint, rules_fingerprint(*find_variant("minichess")));
}

// search.toml holds every bot parameter that mcts/search_settings.h declares, read back as set.
TEST(BotBundle, SearchSettingsRoundTripAndRefuseValuesOutOfRange) {
  TempDir dir;
  export_bot(make_run(dir), dir / "bot");
  std::string text = read_text(dir / "bot/search.toml");
  for (const char* key : {"cpuct_init", "cpuct_base", "fpu_reduction", "fpu_reduction_root",
                          "policy_temperature", "leaves_per_batch"})
    EXPECT_NE(text.find(std::string(key) + " = "), std::string::npos) << key << " in " << text;
  // Floats are written as typed, not widened to double's digits (0.017000000923871994).
  EXPECT_NE(text.find("moves_left_max_effect = 0.017\n"), std::string::npos) << text;
  text.replace(text.find("cpuct_init = "), 13, "cpuct_init = 2.5 #");
  std::ofstream(dir / "bot/search.toml") << text;
  EXPECT_FLOAT_EQ(load_bot(dir / "bot").search.params.cpuct_init, 2.5f);
  std::ofstream(dir / "bot/search.toml") << "leaves_per_batch = 2.5\n";
  expect_refused(dir / "bot", {"search.toml", "leaves_per_batch", "whole number"});
  std::ofstream(dir / "bot/search.toml") << "cpuct_init = 1000\n";
  expect_refused(dir / "bot", {"search.toml", "cpuct_init", "between"});
}

TEST(BotBundle, RefusesAnEditedVariantFile) {
  TempDir dir;
  export_bot(make_run(dir), dir / "bot");
  std::string text = read_text(dir / "bot/variant.toml");
  text.replace(text.find("move_rule = 25"), 14, "move_rule = 24");
  std::ofstream(dir / "bot/variant.toml") << text;
  expect_refused(dir / "bot", {"manifest.toml", "rules_fingerprint", "variant.toml was edited"});
}

TEST(BotBundle, RefusesAMissingNetwork) {
  TempDir dir;
  export_bot(make_run(dir), dir / "bot");
  fs::remove(dir / "bot/network.pt");
  expect_refused(dir / "bot", {"network.pt", "missing"});
}

TEST(BotBundle, RefusesAManifestForAnotherVariant) {
  TempDir dir;
  export_bot(make_run(dir), dir / "bot");
  std::string manifest = read_text(dir / "bot/manifest.toml");
  manifest.replace(manifest.find("'minichess'"), 11, "'chess'");
  std::ofstream(dir / "bot/manifest.toml") << manifest;
  expect_refused(dir / "bot", {"manifest.toml", "'chess'", "'minichess'"});
}

TEST(BotBundle, RefusesACheckpointForAnotherVariant) {
  TempDir dir;
  export_bot(make_run(dir), dir / "bot");
  write_checkpoint(dir / "bot/network.pt", "chess", 0);
  expect_refused(dir / "bot", {"network.pt", "other rules", "first difference: board.size"});
}

TEST(BotBundle, RefusesATruncatedManifest) {
  TempDir dir;
  export_bot(make_run(dir), dir / "bot");
  std::string manifest = read_text(dir / "bot/manifest.toml");
  std::ofstream(dir / "bot/manifest.toml") << manifest.substr(0, manifest.find("variant ="));
  expect_refused(dir / "bot", {"manifest.toml", "variant", "missing"});
  std::ofstream(dir / "bot/manifest.toml") << manifest.substr(0, manifest.find("variant =") + 12);
  expect_refused(dir / "bot", {"manifest.toml", "malformed TOML"});
}

TEST(BotBundle, RefusesANetworkDescriptionThatDisagrees) {
  TempDir dir;
  export_bot(make_run(dir), dir / "bot");
  std::string text = read_text(dir / "bot/network.toml");
  text.replace(text.find("filters = 8"), 11, "filters = 9");
  std::ofstream(dir / "bot/network.toml") << text;
  expect_refused(dir / "bot", {"network.toml", "network.filters"});
}

TEST(BotBundle, AFailedExportLeavesNothingBehind) {
  TempDir dir;
  std::string run = make_run(dir);
  write_checkpoint(run + "/checkpoints/gen-0003.pt", "chess", 60);  // the wrong variant
  EXPECT_THROW(export_bot(run, dir / "bot"), BotBundleError);
  EXPECT_FALSE(fs::exists(dir / "bot"));
  for (const auto& entry : fs::directory_iterator(dir.path()))
    EXPECT_EQ(entry.path().filename().string(), "run") << "left behind: " << entry.path();
}

TEST(BotBundle, ExportRefusesToOverwriteAFolderThatIsNotABot) {
  TempDir dir;
  std::string run = make_run(dir);
  fs::create_directories(dir / "precious");
  std::ofstream(dir / "precious/notes.txt") << "keep me";
  EXPECT_THROW(export_bot(run, dir / "precious"), BotBundleError);
  EXPECT_EQ(read_text(dir / "precious/notes.txt"), "keep me");
  EXPECT_THROW(export_bot(dir / "nowhere", dir / "bot"), BotBundleError);
}

}  // namespace
}  // namespace fairyzero
