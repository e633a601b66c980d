// `train` end to end: one generation of the tiny preset on minichess, the run folder's files, and
// resuming an interrupted run without losing or duplicating anything.
#include "training/learn/train_run.h"

#include <gtest/gtest.h>

#include <cmath>
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
  // Games are held out by a hash of their moves: at the preset's 5% a generation of 64 games
  // holds out none in about 4% of runs (0.95^64), and then writes no validation row.
  config.window.validation_fraction = 0.25;
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

// Resumes the run in `dir` to `generations` with a budget of `minutes` (0: none); returns the
// generations it has finished then.
int resume_with_budget(const std::string& dir, int generations, double minutes) {
  TrainingRun run(dir);
  TrainConfig config = run.config();
  config.run.generations = generations;
  config.run.minutes = minutes;
  run.update_settings(config);
  run.run(quiet);
  return run.finished_generations();
}

// run.minutes: the run stops at the first generation boundary past its budget, counted over
// all its sessions (clock.csv), and a resumed run with the budget spent trains nothing more.
TEST(TrainRun, ATimeBudgetStopsTheRunAtAGenerationBoundaryOverItsSessions) {
  TempDir dir;
  TrainConfig config = quick_config(5);
  config.run.minutes = 1e-7;  // spent by the first generation
  std::vector<std::string> log;
  auto keep = [&](const std::string& line) { log.push_back(line); };
  TrainingRun(dir.str(), config, find_variant("minichess")).run(keep);
  EXPECT_EQ(TrainingRun(dir.str()).finished_generations(), 1);
  EXPECT_EQ(lines_of(dir / "clock.csv"), 2);
  auto said = [&](const std::string& text) {
    for (const std::string& line : log)
      if (line.find(text) != std::string::npos) return true;
    return false;
  };
  EXPECT_TRUE(said("time budget spent")) << "the log says why the run stopped";
  EXPECT_TRUE(said("finished: " + (dir / "checkpoints/gen-0001.pt")));

  log.clear();
  TrainingRun resumed(dir.str());
  resumed.run(keep);
  EXPECT_EQ(resumed.finished_generations(), 1) << "a spent budget trains nothing more";
  EXPECT_TRUE(said("time budget spent"));
  // Without the budget (a setting that may change mid-run) it goes on.
  EXPECT_EQ(resume_with_budget(dir.str(), 2, 0), 2);
  EXPECT_EQ(lines_of(dir / "clock.csv"), 3);
}

// The cosine schedule of a budgeted run follows the clock: resumed with two thirds of the budget
// spent in 20 steps, the schedule is 30 steps long (the generations would make it 40).
TEST(TrainRun, ABudgetedRunsCosineScheduleFollowsTheClock) {
  TempDir dir;
  TrainConfig config = quick_config(1);
  config.trainer.schedule = "cosine";
  config.trainer.final_fraction = 0.1;
  TrainingRun(dir.str(), config, find_variant("minichess")).run(quiet);
  std::ofstream(dir / "clock.csv") << "generation,seconds\n0,40\n";
  ASSERT_EQ(resume_with_budget(dir.str(), 2, 1), 2);
  // training.csv: the rate of each row's last step; generation 1's first row ends at step 30.
  std::ifstream in(dir / "training.csv");
  std::string line;
  double rate = -1;
  while (std::getline(in, line))
    if (line.rfind("1,30,", 0) == 0) rate = std::stod(line.substr(5));
  ASSERT_GE(rate, 0) << "no row of generation 1 at step 30";
  const double t = 29.0 / 30.0, f = 0.1;
  const double expected =
      config.trainer.learning_rate * (f + (1 - f) * 0.5 * (1 + std::cos(3.141592653589793 * t)));
  EXPECT_NEAR(rate, expected, 1e-4 * config.trainer.learning_rate);
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
