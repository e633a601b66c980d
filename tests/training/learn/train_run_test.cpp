// `train` end to end: one generation of the tiny preset on minichess, the run folder's files, and
// resuming an interrupted run without losing or duplicating anything.
#include "training/learn/train_run.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>

#include "core/errors.h"
#include "core/variant_loader.h"
#include "nn/checkpoint.h"
#include "training/data/sample_store.h"

namespace fairyzero {
namespace {
namespace fs = std::filesystem;

class TempDir {
 public:
  TempDir() {
    path_ = fs::temp_directory_path() / ("fairyzero-run-" + std::to_string(std::random_device{}()));
    fs::create_directories(path_);
  }
  ~TempDir() { fs::remove_all(path_); }
  std::string operator/(const std::string& name) const { return (path_ / name).string(); }
  std::string str() const { return path_.string(); }

 private:
  fs::path path_;
};

int lines_of(const std::string& path) {
  std::ifstream in(path);
  int n = 0;
  for (std::string line; std::getline(in, line);) ++n;
  return n;
}

// The tiny preset with fewer games and steps, so a generation takes seconds.
TrainConfig quick_config(int generations) {
  TrainConfig c = load_train_config("configs/train/tiny.toml");
  c.run.variant = "minichess";
  c.run.generations = generations;
  c.selfplay.games = 8;
  c.selfplay.games_per_worker = 4;
  c.window.steps_per_generation = 20;
  c.trainer.metrics_every = 10;
  return c;
}

void quiet(const std::string&) {}

TEST(TrainRun, OneGenerationOfTheTinyPresetEndToEnd) {
  TempDir dir;
  TrainConfig config = load_train_config("configs/train/tiny.toml");
  config.run.variant = "minichess";
  config.run.generations = 1;
  std::vector<std::string> log;
  TrainingRun run(dir.str(), config, find_variant("minichess"));
  run.run([&](const std::string& line) { log.push_back(line); });
  EXPECT_EQ(run.finished_generations(), 1);
  EXPECT_TRUE(fs::exists(dir / "config.toml"));
  EXPECT_TRUE(fs::exists(dir / "checkpoints/gen-0000.pt"));
  EXPECT_TRUE(fs::exists(dir / "checkpoints/gen-0001.pt"));
  // The preset's steps follow its new samples (reuse).
  const int64_t new_samples = read_sample_file_info(dir / "samples/gen-0000.h5").samples;
  const int steps = steps_for_generation(config, new_samples);
  EXPECT_EQ(config.window.steps_per_generation, 0);
  EXPECT_EQ(read_checkpoint_info(dir / "checkpoints/gen-0001.pt").step, steps);
  SampleFileInfo info;
  std::vector<Sample> samples = read_sample_file(dir / "samples/gen-0000.h5", &info);
  EXPECT_EQ(info.variant, "minichess");
  EXPECT_EQ(info.network, "gen-0000");
  EXPECT_GT(samples.size(), 0u);
  // Every game is recorded once: trained on, or held out for validation. With carry-over a
  // generation ends once `games` have finished, a few more when several end in the last round.
  const int recorded =
      lines_of(dir / "games/gen-0000.txt") + lines_of(dir / "validation/gen-0000.txt");
  EXPECT_GE(recorded, config.selfplay.games);
  EXPECT_LE(recorded,
            config.selfplay.games + config.selfplay.workers * config.selfplay.games_per_worker);
  EXPECT_EQ(lines_of(dir / "validation.csv"), 2);
  EXPECT_EQ(lines_of(dir / "selfplay.csv"), 2);
  EXPECT_EQ(lines_of(dir / "training.csv"),
            1 + (steps + config.trainer.metrics_every - 1) / config.trainer.metrics_every);
  bool progress = false;
  for (const std::string& line : log) progress = progress || line.find("ETA") != std::string::npos;
  EXPECT_TRUE(progress) << "progress lines show an ETA";
}

TEST(TrainRun, ResumesAnInterruptedRunKeepingEveryFinishedFile) {
  TempDir dir;
  TrainingRun(dir.str(), quick_config(2), find_variant("minichess")).run(quiet);
  ASSERT_TRUE(fs::exists(dir / "checkpoints/gen-0002.pt"));
  const auto samples0 = fs::last_write_time(dir / "samples/gen-0000.h5");
  const auto samples1 = fs::last_write_time(dir / "samples/gen-0001.h5");
  const int training_rows = lines_of(dir / "training.csv");

  // Interrupted while training generation 1: its checkpoint is missing, a half-written sample
  // file of a later attempt lies around, and some metrics rows were already appended.
  fs::remove(dir / "checkpoints/gen-0002.pt");
  { std::ofstream(dir / "samples/gen-0002.h5.tmp-999") << "half a file"; }
  TrainingRun resumed(dir.str());  // the stored config.toml and variant.toml
  EXPECT_EQ(resumed.finished_generations(), 1);
  resumed.run(quiet);
  EXPECT_TRUE(fs::exists(dir / "checkpoints/gen-0002.pt"));
  EXPECT_EQ(fs::last_write_time(dir / "samples/gen-0000.h5"), samples0) << "kept, not redone";
  EXPECT_EQ(fs::last_write_time(dir / "samples/gen-0001.h5"), samples1) << "kept, not redone";
  EXPECT_EQ(lines_of(dir / "training.csv"), training_rows) << "no duplicated metrics rows";
  EXPECT_EQ(lines_of(dir / "selfplay.csv"), 3);

  // Interrupted during self-play of generation 1: no sample file yet; it is played again.
  fs::remove(dir / "checkpoints/gen-0002.pt");
  fs::remove(dir / "samples/gen-0001.h5");
  TrainingRun(dir.str()).run(quiet);
  EXPECT_TRUE(fs::exists(dir / "samples/gen-0001.h5"));
  EXPECT_TRUE(fs::exists(dir / "checkpoints/gen-0002.pt"));
  EXPECT_EQ(lines_of(dir / "selfplay.csv"), 3);
  EXPECT_EQ(lines_of(dir / "training.csv"), training_rows);
}

// A run from before the moves-left head: its config.toml has no `moves_left`, so it reads as
// the default (a head) while its checkpoints have none. Resuming stops with what to change and
// sets no checkpoint aside as damaged; with `moves_left = false` it goes on.
TEST(TrainRun, ARunFromBeforeTheMovesLeftHeadStopsAndGoesOnWhenToldNotToUseIt) {
  TempDir dir;
  TrainConfig old = quick_config(1);
  old.network.moves_left = false;
  TrainingRun(dir.str(), old, find_variant("minichess")).run(quiet);
  // config.toml as an old build wrote it (no moves_left), asking for a second generation.
  const std::string config_path = dir / "config.toml";
  auto rewrite = [&](const std::string& moves_left_line) {
    std::ifstream in(config_path);
    std::string text;
    for (std::string line; std::getline(in, line);) {
      if (line.rfind("moves_left =", 0) == 0) continue;
      if (line.rfind("generations =", 0) == 0) line = "generations = 2";
      text += line + "\n";
      if (line == "[network]" && !moves_left_line.empty()) text += moves_left_line + "\n";
    }
    in.close();
    std::ofstream(config_path) << text;
  };
  rewrite("");
  ASSERT_TRUE(load_train_config(config_path).network.moves_left) << "the default: a head";
  try {
    TrainingRun(dir.str()).run(quiet);
    ADD_FAILURE() << "no error";
  } catch (const UserError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("gen-0001.pt"), std::string::npos) << message;
    EXPECT_NE(message.find("moves_left = false"), std::string::npos) << message;
  }
  EXPECT_TRUE(fs::exists(dir / "checkpoints/gen-0001.pt")) << "not set aside";
  EXPECT_FALSE(fs::exists(dir / "checkpoints/gen-0001.pt.damaged"));
  rewrite("moves_left = false");
  TrainingRun(dir.str()).run(quiet);
  EXPECT_TRUE(fs::exists(dir / "checkpoints/gen-0002.pt"));
}

// On a GPU the next generation's games are played while training; it works on the CPU too.
TEST(TrainRun, OverlappedSelfPlayUsesThePreviousNetwork) {
  TempDir dir;
  TrainConfig config = quick_config(3);
  config.run.overlap = true;
  TrainingRun(dir.str(), config, find_variant("minichess")).run(quiet);
  EXPECT_TRUE(fs::exists(dir / "checkpoints/gen-0003.pt"));
  SampleFileInfo info = read_sample_file_info(dir / "samples/gen-0000.h5");
  EXPECT_EQ(info.network, "gen-0000");
  EXPECT_EQ(read_sample_file_info(dir / "samples/gen-0001.h5").network, "gen-0000");
  EXPECT_EQ(read_sample_file_info(dir / "samples/gen-0002.h5").network, "gen-0001");
  EXPECT_EQ(lines_of(dir / "selfplay.csv"), 4);
}

TEST(TrainRun, BadConfigsNameTheKey) {
  TempDir dir;
  std::ofstream(dir / "bad.toml") << "[selfplay]\ngames = 0\n";
  try {
    load_train_config(dir / "bad.toml");
    FAIL() << "games = 0 accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("bad.toml:2: selfplay.games"), std::string::npos)
        << e.what();
  }
  std::ofstream(dir / "bad2.toml") << "[training]\noptimiser = \"sgd\"\n";
  EXPECT_THROW(load_train_config(dir / "bad2.toml"), std::runtime_error);
  // A setting renamed since: the error says what replaced it.
  std::ofstream(dir / "old.toml") << "[inference]\nhalf = true\n";
  try {
    load_train_config(dir / "old.toml");
    FAIL() << "inference.half accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("old.toml:2: inference.half"), std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("precision = \"fp16\""), std::string::npos) << e.what();
  }
  std::ofstream(dir / "precision.toml") << "[inference]\nprecision = \"fp8\"\n";
  EXPECT_THROW(load_train_config(dir / "precision.toml"), std::runtime_error);
}

}  // namespace
}  // namespace fairyzero
