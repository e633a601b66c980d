// A run owns its rules (RUN_DIR/variant.toml and the rules fingerprint on every artifact), can be
// extended, falls back past a damaged checkpoint, and reads the step schedule's milestones.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "core/errors.h"
#include "core/rules_fingerprint.h"
#include "core/variant_loader.h"
#include "nn/checkpoint.h"
#include "tests/support/files.h"
#include "training/data/sample_store.h"
#include "training/data/sample_window.h"
#include "training/learn/bot_export.h"
#include "training/learn/train_run.h"
#include "training/learn/trainer.h"

namespace fairyzero {
namespace {
namespace fs = std::filesystem;
using testing::read_text;

// A temporary folder for one test.
class TempDir : public testing::TempDir {
 public:
  TempDir() : testing::TempDir("fairyzero-rules-") {}
};

// minichess's file with `from` replaced by `to`, written to `path`.
std::string edited_minichess(const std::string& path, const std::string& from,
                             const std::string& to) {
  std::string text = read_text("configs/variants/minichess.toml");
  const size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  text.replace(at, from.size(), to);
  std::ofstream(path) << text;
  return path;
}

TrainConfig quick_config(int generations) {
  TrainConfig c = load_train_config("configs/train/tiny.toml");
  c.run.generations = generations;
  c.selfplay.games = 4;
  c.selfplay.games_per_worker = 4;
  c.selfplay.full_playouts = 8;
  c.selfplay.fast_playouts = 4;
  c.window.steps_per_generation = 4;
  c.trainer.metrics_every = 2;
  return c;
}

void quiet(const std::string&) {}

// A variant under a new name, from a folder outside configs/, trains, resumes and exports.
TEST(RunRules, ANewNameFromAnotherFolderTrainsResumesAndExports) {
  TempDir dir;
  fs::create_directories(dir / "mine");
  const std::string file =
      edited_minichess(dir / "mine/my-variant.toml", "name = \"minichess\"", "name = \"my-mini\"");
  TrainingRun(dir / "run", quick_config(1), find_variant(file)).run(quiet);
  fs::remove_all(dir / "mine");  // the run needs the file no more
  TrainingRun resumed(dir / "run");
  EXPECT_EQ(resumed.variant()->name, "my-mini");
  TrainConfig longer = resumed.config();
  longer.run.generations = 2;
  resumed.update_settings(longer);
  resumed.run(quiet);
  EXPECT_EQ(resumed.finished_generations(), 2);
  BotBundle bot = export_bot(dir / "run", dir / "bot");
  EXPECT_EQ(bot.variant->name, "my-mini");
  EXPECT_EQ(bot.manifest.generation, 2);
  EXPECT_EQ(read_sample_file_info(dir / "run/samples/gen-0001.h5").rules_fingerprint,
            rules_fingerprint(*bot.variant));
}

// An edited copy that keeps the stock name trains the edited rules, not the stock file's.
TEST(RunRules, AnEditedCopyTrainsTheEditedRules) {
  TempDir dir;
  const std::string file =
      edited_minichess(dir / "minichess.toml", "move_rule = 25", "move_rule = 9");
  TrainingRun run(dir / "run", quick_config(1), find_variant(file));
  EXPECT_EQ(load_run_variant(dir / "run")->rules.move_rule, 9);
  run.run(quiet);
  EXPECT_EQ(TrainingRun(dir / "run").variant()->rules.move_rule, 9);
  EXPECT_EQ(read_checkpoint_info(dir / "run/checkpoints/gen-0001.pt").rules_fingerprint,
            rules_fingerprint(*load_run_variant(dir / "run")));
}

TEST(RunRules, ACheckpointUnderOtherRulesIsRefusedNamingTheField) {
  TempDir dir;
  TrainingRun(dir / "run", quick_config(1), find_variant("minichess", {"rules.move_rule=9"}))
      .run(quiet);
  try {
    load_checkpoint(dir / "run/checkpoints/gen-0001.pt", find_variant("minichess"));
    FAIL() << "a checkpoint of other rules was loaded";
  } catch (const CheckpointError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("other rules"), std::string::npos) << what;
    EXPECT_NE(what.find(rules_fingerprint(*find_variant("minichess"))), std::string::npos) << what;
    EXPECT_NE(what.find("first difference: rules.move_rule: '25' here, '9' there"),
              std::string::npos)
        << what;
  }
  // The sample window of a run of the stock rules skips the file and says why.
  Encoder encoder(find_variant("minichess"));
  SampleFileInfo expected = read_sample_file_info(dir / "run/samples/gen-0000.h5");
  const RulesFields stock = rules_fields(*find_variant("minichess"));
  expected.rules_fingerprint = rules_fingerprint(stock);
  expected.rules = rules_fields_text(stock);
  SampleWindow window(dir / "run/samples", expected, 1000);
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(window.refresh(), 0);
  ::testing::internal::GetCapturedStderr();
  ASSERT_EQ(window.warnings().size(), 1u);
  EXPECT_NE(window.warnings()[0].find("rules.move_rule"), std::string::npos)
      << window.warnings()[0];
}

TEST(RunRules, ARunIsExtendedAndRefusesChangesToItsGames) {
  TempDir dir;
  TrainingRun(dir / "run", quick_config(1), find_variant("minichess")).run(quiet);
  TrainingRun run(dir / "run");
  TrainConfig changed = run.config();
  changed.selfplay.games = 99;
  changed.network.filters = 64;
  try {
    run.update_settings(changed);
    FAIL() << "a change of the games was accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("selfplay.games: 4 in the run, 99 asked"),
              std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("network.filters"), std::string::npos) << e.what();
  }
  TrainConfig longer = run.config();
  longer.run.generations = 3;
  longer.selfplay.workers = 1;  // speed settings may change
  run.update_settings(longer);
  EXPECT_EQ(TrainingRun(dir / "run").config().run.generations, 3) << "written to config.toml";
  run.run(quiet);
  EXPECT_EQ(run.finished_generations(), 3);
  TrainConfig shorter = run.config();
  shorter.run.generations = 2;
  EXPECT_THROW(run.update_settings(shorter), std::runtime_error) << "would undo generation 3";
  EXPECT_THROW(TrainingRun(dir / "run", quick_config(1), find_variant("minichess")),
               std::runtime_error)
      << "a second run in the same folder";
}

TEST(RunRules, ADamagedNewestCheckpointFallsBackAndRedoesOnlyItsTraining) {
  TempDir dir;
  TrainingRun(dir / "run", quick_config(2), find_variant("minichess")).run(quiet);
  const std::string newest = dir / "run/checkpoints/gen-0002.pt";
  const std::string damaged = read_text(newest).substr(0, 200);
  std::ofstream(newest, std::ios::trunc) << damaged;
  const auto samples1 = fs::last_write_time(dir / "run/samples/gen-0001.h5");
  std::vector<std::string> log;
  TrainingRun run(dir / "run");
  run.run([&](const std::string& line) { log.push_back(line); });
  bool warned = false;
  for (const std::string& line : log)
    warned = warned || (line.find("warning") != std::string::npos &&
                        line.find("gen-0002.pt") != std::string::npos);
  EXPECT_TRUE(warned);
  EXPECT_TRUE(fs::exists(newest + ".damaged")) << "kept for inspection";
  EXPECT_EQ(read_text(newest + ".damaged"), damaged);
  EXPECT_EQ(read_checkpoint_info(newest).step, 2 * quick_config(2).window.steps_per_generation);
  EXPECT_EQ(fs::last_write_time(dir / "run/samples/gen-0001.h5"), samples1) << "not replayed";
}

TEST(RunRules, TheStepScheduleReadsItsMilestones) {
  TempDir dir;
  std::ofstream(dir / "no-milestones.toml") << "[training]\nschedule = \"step\"\n";
  try {
    load_train_config(dir / "no-milestones.toml");
    FAIL() << "a step schedule without milestones was accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("training.milestones"), std::string::npos) << e.what();
  }
  std::ofstream(dir / "search.toml") << "[selfplay]\ncpuct_init = 2.5\nfpu_reduction = 0.5\n";
  const TrainConfig search = load_train_config(dir / "search.toml");
  EXPECT_FLOAT_EQ(search.selfplay.search.cpuct_init, 2.5f);
  EXPECT_FLOAT_EQ(search.selfplay.search.fpu_reduction, 0.5f);
  std::ofstream(dir / "bad-search.toml") << "[selfplay]\ncpuct_init = 500\n";
  EXPECT_THROW(load_train_config(dir / "bad-search.toml"), std::runtime_error);
  std::ofstream(dir / "falling.toml") << "[training]\nmilestones = [5, 3]\n";
  EXPECT_THROW(load_train_config(dir / "falling.toml"), std::runtime_error);
  std::ofstream(dir / "step.toml") << "[training]\nschedule = \"step\"\nmilestones = [2, 4]\n"
                                      "learning_rate = 0.1\nmetrics_every = 1\nbatch_size = 4\n";
  TrainConfig config = load_train_config(dir / "step.toml");
  EXPECT_EQ(config.trainer.milestones, (std::vector<int64_t>{2, 4}));
  EXPECT_NE(train_config_to_toml(config).find("milestones = [2, 4]"), std::string::npos);
  // (trainer_test's SchedulesGiveTheDocumentedRates checks the rates themselves.) A config
  // built in code without milestones is refused by the trainer too.
  TrainerConfig no_milestones;
  no_milestones.schedule = "step";
  EXPECT_THROW(Trainer(Encoder(find_variant("minichess")),
                       NetworkConfig{.blocks = 1, .filters = 8, .policy_dim = 8, .value_hidden = 8},
                       no_milestones),
               SettingError);
}

}  // namespace
}  // namespace fairyzero
