// Learning that holds up: held-out games never reach training and measure the network each
// generation; steps follow the reuse setting; the power-law window grows as KataGo's.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <sstream>

#include "core/variant_loader.h"
#include "nn/checkpoint.h"
#include "training/data/sample_store.h"
#include "training/data/sample_window.h"
#include "training/learn/train_run.h"
#include "training/learn/validation.h"

namespace fairyzero {
namespace {
namespace fs = std::filesystem;

class TempDir {
 public:
  TempDir() {
    path_ = fs::temp_directory_path() /
            ("fairyzero-learning-" + std::to_string(std::random_device{}()));
    fs::create_directories(path_);
  }
  ~TempDir() { fs::remove_all(path_); }
  std::string operator/(const std::string& name) const { return (path_ / name).string(); }
  std::string str() const { return path_.string(); }

 private:
  fs::path path_;
};

std::vector<std::string> lines(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> out;
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

// The moves of each game record (the last field).
std::set<std::string> moves_of(const std::string& path) {
  std::set<std::string> out;
  for (const std::string& line : lines(path)) out.insert(line.substr(line.rfind(" | ") + 3));
  return out;
}

TrainConfig quick_config(int generations) {
  TrainConfig c = load_train_config("configs/train/tiny.toml");
  c.run.variant = "minichess";
  c.run.generations = generations;
  c.network = NetworkConfig{.blocks = 1, .filters = 8, .policy_dim = 8, .value_hidden = 16};
  c.selfplay.games = 16;
  c.selfplay.games_per_worker = 8;
  c.selfplay.full_playouts = 16;
  c.selfplay.fast_playouts = 8;
  c.window.steps_per_generation = 10;
  c.trainer.batch_size = 32;
  c.trainer.metrics_every = 5;
  return c;
}

TEST(Validation, HeldOutGamesNeverReachTrainingAndMeasureEachGeneration) {
  TempDir dir;
  TrainConfig config = quick_config(2);
  config.window.validation_fraction = 0.4;
  TrainingRun run(dir.str(), config, find_variant("minichess"));
  run.run([](const std::string&) {});
  for (const char* g : {"gen-0000", "gen-0001"}) {
    const std::string name = g;
    const std::set<std::string> trained = moves_of(dir / ("games/" + name + ".txt"));
    const std::set<std::string> held = moves_of(dir / ("validation/" + name + ".txt"));
    ASSERT_FALSE(held.empty()) << "40% of 16 games held out, none in " << name;
    for (const std::string& game : held) EXPECT_EQ(trained.count(game), 0u) << game;
    // Every game once, here or there (a few more than 16 may end in the last round).
    EXPECT_GE(lines(dir / ("games/" + name + ".txt")).size() +
                  lines(dir / ("validation/" + name + ".txt")).size(),
              16u);
    // The held-out samples are in validation/ only, and the window reads samples/ only.
    EXPECT_GT(read_sample_file_info(dir / ("validation/" + name + ".h5")).samples, 0);
  }
  SampleWindow window(dir / "samples", read_sample_file_info(dir / "samples/gen-0000.h5"), 1 << 20);
  window.refresh();
  for (const std::string& file : window.files())
    EXPECT_EQ(file.find("validation"), std::string::npos) << file;
  // One validation row per generation, with sane figures.
  const std::vector<std::string> rows = lines(dir / "validation.csv");
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].rfind("generation,samples,policy_loss,value_loss,calibration_error", 0), 0u);
  for (size_t r = 1; r < rows.size(); ++r) {
    std::stringstream fields(rows[r]);
    std::vector<double> v;
    for (std::string f; std::getline(fields, f, ',');) v.push_back(std::stod(f));
    EXPECT_EQ(v[0], static_cast<double>(r - 1));
    EXPECT_GT(v[1], 0);                   // samples
    EXPECT_GT(v[2], 0);                   // policy loss
    EXPECT_GT(v[3], 0);                   // value loss
    EXPECT_TRUE(v[4] >= 0 && v[4] <= 1);  // calibration error
    EXPECT_TRUE(v[5] >= 0 && v[5] <= 1);  // predicted score
  }
}

TEST(Validation, TheSplitIsDeterministicKeepsEachGamesSamplesAndHoldsTheShare) {
  PlayedGames played;
  std::mt19937 rng(4);
  for (int g = 0; g < 2000; ++g) {
    GameRecord record;
    record.moves = "game " + std::to_string(g) + " " + std::to_string(rng());
    record.samples = g % 3;
    for (int s = 0; s < record.samples; ++s) {
      Sample sample;
      sample.ply = g;  // which game it came from
      played.samples.push_back(sample);
    }
    played.games.push_back(record);
  }
  const auto [training, held] = split_validation(played, 0.1, 7);
  EXPECT_NEAR(static_cast<double>(held.games.size()) / 2000, 0.1, 0.025);
  EXPECT_EQ(training.games.size() + held.games.size(), 2000u);
  EXPECT_EQ(training.samples.size() + held.samples.size(), played.samples.size());
  // Each part's samples are its own games', in order.
  for (const PlayedGames* part : {&training, &held}) {
    size_t next = 0;
    for (const GameRecord& game : part->games) {
      const int index = std::stoi(game.moves.substr(5));
      for (int s = 0; s < game.samples; ++s) EXPECT_EQ(part->samples.at(next++).ply, index);
    }
    EXPECT_EQ(next, part->samples.size());
  }
  const auto again = split_validation(played, 0.1, 7);
  EXPECT_EQ(again.second.games.size(), held.games.size());
  EXPECT_TRUE(split_validation(played, 0, 7).second.games.empty());
}

TEST(Validation, CalibrationErrorIsZeroWhenPredictionsMatchResults) {
  EXPECT_DOUBLE_EQ(calibration_error({0.25f, 0.25f, 0.75f, 0.75f}, {0, 0.5f, 1, 0.5f}), 0);
  // Always 0.9 predicted, half the games won: off by 0.4.
  EXPECT_NEAR(calibration_error({0.9f, 0.9f, 0.9f, 0.9f}, {1, 0, 1, 0}), 0.4, 1e-6);
  EXPECT_DOUBLE_EQ(calibration_error({}, {}), 0);
}

TEST(LearningControls, StepsFollowTheReuseSetting) {
  TrainConfig config = quick_config(1);
  config.window.steps_per_generation = 0;
  config.window.reuse = 2;
  EXPECT_EQ(steps_for_generation(config, 160), 10);  // 2 x 160 / 32
  EXPECT_EQ(steps_for_generation(config, 161), 11);
  EXPECT_EQ(steps_for_generation(config, 0), 1);
  config.window.steps_per_generation = 7;
  EXPECT_EQ(steps_for_generation(config, 160), 7);

  // In a run: the generation's samples times reuse, in batches.
  TempDir dir;
  config.window.steps_per_generation = 0;
  config.window.validation_fraction = 0;
  TrainingRun run(dir.str(), config, find_variant("minichess"));
  run.run([](const std::string&) {});
  const int64_t samples = read_sample_file_info(dir / "samples/gen-0000.h5").samples;
  EXPECT_EQ(read_checkpoint_info(dir / "checkpoints/gen-0001.pt").step,
            static_cast<int64_t>(std::ceil(2.0 * samples / 32)));
}

TEST(LearningControls, ThePowerLawWindowGrowsAsKataGos) {
  TrainingWindow window;
  window.samples = 250000;
  EXPECT_EQ(window_capacity(window, 10'000'000), 250000) << "a fixed window by default";
  window.window_exponent = 0.75;
  window.window_growth = 0.4;
  EXPECT_EQ(window_capacity(window, 100000), 250000);
  // c (1 + b ((N/c)^a - 1) / a) at N = 4c: 250000 (1 + 0.4 (4^0.75 - 1) / 0.75).
  EXPECT_NEAR(static_cast<double>(window_capacity(window, 1000000)),
              250000 * (1 + 0.4 * (std::pow(4.0, 0.75) - 1) / 0.75), 1);
  EXPECT_LT(window_capacity(window, 1000000), 1000000);
  EXPECT_GT(window_capacity(window, 2000000), window_capacity(window, 1000000));
}

}  // namespace
}  // namespace fairyzero
