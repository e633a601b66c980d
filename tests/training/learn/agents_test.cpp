// Agents per seat: the [agents] settings, checkpoints that record their seat, short Irwell runs
// with one network per seat and league play against earlier generations, and the material
// search playing a run's bootstrap generations.
#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <random>

#include "core/variant_loader.h"
#include "mcts/basic_evaluators.h"
#include "nn/checkpoint.h"
#include "nn/encoder.h"
#include "training/data/sample_store.h"
#include "training/learn/generation_player.h"
#include "training/learn/selfplay_worker.h"
#include "training/learn/train_run.h"
#include "training/learn/trainer.h"

namespace fairyzero {
namespace {
namespace fs = std::filesystem;

class TempDir {
 public:
  TempDir() {
    path_ =
        fs::temp_directory_path() / ("fairyzero-agents-" + std::to_string(std::random_device{}()));
    fs::create_directories(path_);
  }
  ~TempDir() { fs::remove_all(path_); }
  std::string operator/(const std::string& name) const { return (path_ / name).string(); }
  std::string str() const { return path_.string(); }

 private:
  fs::path path_;
};

std::string error_of(const std::string& file) {
  try {
    load_train_config(file);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

TEST(Agents, ConfigReadsWritesAndValidatesTheAgentsTable) {
  TempDir dir;
  std::ofstream(dir / "ok.toml") << "[agents]\nnetworks = \"per-seat\"\nleague_probability = 0.25\n"
                                    "bootstrap_generations = 3\n";
  TrainConfig config = load_train_config(dir / "ok.toml");
  EXPECT_TRUE(config.agents.per_seat());
  EXPECT_EQ(config.agents.bootstrap_generations, 3);
  EXPECT_DOUBLE_EQ(config.agents.league_probability, 0.25);
  std::ofstream(dir / "round.toml") << train_config_to_toml(config);
  EXPECT_EQ(load_train_config(dir / "round.toml").agents.networks, "per-seat");
  EXPECT_EQ(load_train_config(dir / "round.toml").agents.bootstrap_generations, 3);
  EXPECT_EQ(TrainConfig{}.agents.bootstrap_generations, 0) << "the networks play from the start";
  EXPECT_EQ(TrainConfig{}.agents.networks, "shared") << "the default is today's behaviour";
  EXPECT_EQ(TrainConfig{}.agents.league_probability, 0);

  std::ofstream(dir / "bad.toml") << "[agents]\nnetworks = \"per-team\"\n";
  EXPECT_NE(
      error_of(dir / "bad.toml").find("bad.toml:2: agents.networks: 'per-team' is not one of"),
      std::string::npos)
      << error_of(dir / "bad.toml");
  std::ofstream(dir / "p.toml") << "[agents]\nleague_probability = 1.5\n";
  EXPECT_NE(error_of(dir / "p.toml").find("p.toml:2: agents.league_probability"), std::string::npos)
      << error_of(dir / "p.toml");
  std::ofstream(dir / "overlap.toml")
      << "[run]\noverlap = true\n[agents]\nnetworks = \"per-seat\"\n";
  EXPECT_NE(error_of(dir / "overlap.toml").find("run.overlap"), std::string::npos)
      << error_of(dir / "overlap.toml");
  // Configs built in code are checked when the run starts.
  TrainConfig in_code;
  in_code.run.variant = "irwell";
  in_code.agents.networks = "per-army";
  EXPECT_THROW(TrainingRun(dir / "run", in_code, find_variant("irwell")), std::runtime_error);
}

// Answers as the uniform evaluator does and counts the positions it was asked for.
class CountingEvaluator : public Evaluator {
 public:
  void evaluate(std::span<const EvalRequest> batch, std::span<Evaluation> out) override {
    positions += static_cast<int>(batch.size());
    UniformEvaluator().evaluate(batch, out);
  }
  std::string name() const override { return "counting"; }
  std::atomic<int> positions{0};
};

TEST(Agents, TheMaterialSearchPlaysTheBootstrapGenerationsAndTheirFilesSaySo) {
  TempDir dir;
  TrainConfig config = load_train_config("configs/train/tiny.toml");
  config.run.variant = "minichess";
  config.selfplay.games = 4;
  config.selfplay.games_per_worker = 2;
  config.agents.bootstrap_generations = 1;
  const VariantPtr variant = find_variant("minichess");
  GenerationPlayer player(
      variant, config, {""}, [](int, const std::string&) { return std::string(); }, 7);
  const auto network = std::make_shared<CountingEvaluator>();
  const auto quiet = [](const std::string&) {};
  const PlayedGames bootstrap = player.play({network}, 0, "gen-0000", quiet);
  EXPECT_EQ(network->positions, 0) << "the network sat out generation 0";
  EXPECT_EQ(bootstrap.teacher, "material");
  EXPECT_GE(bootstrap.games.size(), 4u);
  EXPECT_GT(bootstrap.samples.size(), 0u);
  const PlayedGames after = player.play({network}, 1, "gen-0001", quiet);
  EXPECT_GT(network->positions, 0) << "the network plays generation 1";
  EXPECT_EQ(after.teacher, "");

  // Published as a self-play worker's files: the sample file names the teacher, and the
  // workers' bootstrap quota (the generation's games and the samples the trainer waits for)
  // counts them.
  for (const char* folder : {"samples", "games", "validation"})
    fs::create_directories(dir / folder);
  config.window.steps_per_generation = 1;
  config.trainer.batch_size = 8;
  config.window.reuse = 4;
  EXPECT_FALSE(bootstrap_generation_played(dir.str(), config, 0));
  publish_played_games(variant, bootstrap, config, "gen-0000", dir.str(), "gen-0000-w0-000000");
  publish_played_games(variant, after, config, "gen-0001", dir.str(), "gen-0001-w0-000001");
  EXPECT_EQ(read_sample_file_info(dir / "samples/gen-0000-w0-000000.h5").network, "material");
  EXPECT_EQ(read_sample_file_info(dir / "samples/gen-0001-w0-000001.h5").network, "gen-0001");
  EXPECT_TRUE(bootstrap_generation_played(dir.str(), config, 0));
  EXPECT_FALSE(bootstrap_generation_played(dir.str(), config, 2)) << "nothing of generation 2";
  config.selfplay.games = 1000;
  EXPECT_FALSE(bootstrap_generation_played(dir.str(), config, 0)) << "too few games";
  config.selfplay.games = 4;
  config.trainer.batch_size = 100000;
  EXPECT_FALSE(bootstrap_generation_played(dir.str(), config, 0))
      << "fewer samples than the trainer waits for";
}

TEST(Agents, CheckpointsRecordTheirSeatAndRefuseAnotherSeat) {
  TempDir dir;
  VariantPtr variant = find_variant("irwell");
  Encoder encoder(variant);
  Trainer trainer(encoder, NetworkConfig{.blocks = 1, .filters = 8}, TrainerConfig{});
  trainer.save(dir / "seat.pt", "", "black-high");
  trainer.save(dir / "shared.pt", "");
  EXPECT_EQ(read_checkpoint_info(dir / "seat.pt").seat, "black-high");
  EXPECT_EQ(read_checkpoint_info(dir / "shared.pt").seat, "");
  EXPECT_NO_THROW(load_checkpoint(dir / "seat.pt", variant, "black-high"));
  EXPECT_NO_THROW(load_checkpoint(dir / "seat.pt", variant)) << "no seat asked: any network";
  try {
    trainer.load(dir / "seat.pt", "", "white-low");
    FAIL() << "a black-high network loaded for white-low";
  } catch (const CheckpointError& e) {
    EXPECT_NE(std::string(e.what()).find("seat 'black-high', not one of seat 'white-low'"),
              std::string::npos)
        << e.what();
  }
  EXPECT_THROW(load_checkpoint(dir / "shared.pt", variant, "white-low"), CheckpointError);
}

// Irwell with one tiny network per seat: every move a (small) full search, so each seat has
// samples; two generations, the second played by generation 0 throughout (league 1).
TrainConfig per_seat_config(int generations, double league) {
  TrainConfig c = load_train_config("configs/train/tiny.toml");
  c.run.variant = "irwell";
  c.run.generations = generations;
  c.agents.networks = "per-seat";
  c.agents.league_probability = league;
  c.network = NetworkConfig{.blocks = 1, .filters = 8, .policy_dim = 8, .value_hidden = 8};
  c.selfplay.games = 4;
  c.window.validation_fraction = 0;  // all four games in games/, as counted below
  c.selfplay.workers = 1;
  c.selfplay.games_per_worker = 4;
  c.selfplay.full_playouts = 6;
  c.selfplay.fast_playouts = 4;
  c.selfplay.full_search_probability = 1;
  c.selfplay.max_plies = 40;
  c.selfplay.resign_threshold = -1;
  c.window.steps_per_generation = 1;
  c.trainer.batch_size = 8;
  c.trainer.metrics_every = 1;
  return c;
}

int lines_of(const std::string& path) {
  std::ifstream in(path);
  int n = 0;
  for (std::string line; std::getline(in, line);) ++n;
  return n;
}

void quiet(const std::string&) {}

TEST(Agents, PerSeatNetworksTrainPlayInALeagueAndResume) {
  TempDir dir;
  const std::vector<std::string> seats = {"white-low", "black-high", "white-high", "black-low"};
  {
    TrainingRun run(dir.str(), per_seat_config(2, 1.0), find_variant("irwell"));
    EXPECT_EQ(run.agents(), seats);
    run.run(quiet);
    EXPECT_EQ(run.finished_generations(), 2);
    // Generation 1 drew a lineup for each game it started and each game carried into it.
    EXPECT_GE(run.league_games(), 4) << "generation 1's games all had earlier networks";
  }
  for (int g = 0; g <= 2; ++g)
    for (const std::string& seat : seats) {
      const std::string file =
          dir / ("checkpoints/gen-000" + std::to_string(g) + "-" + seat + ".pt");
      ASSERT_TRUE(fs::exists(file)) << file;
      EXPECT_EQ(read_checkpoint_info(file).seat, seat) << file;
      EXPECT_EQ(read_checkpoint_info(file).step, g) << "one step per generation: " << file;
    }
  EXPECT_FALSE(fs::exists(dir / "checkpoints/gen-0001.pt")) << "no shared network";
  // Generation 0 had nothing earlier; in generation 1 every seat played generation 0.
  std::ifstream games0(dir / "games/gen-0000.txt"), games1(dir / "games/gen-0001.txt");
  std::string line;
  ASSERT_TRUE(std::getline(games0, line));
  EXPECT_NE(line.find("white-low=gen-0000 black-high=gen-0000"), std::string::npos) << line;
  int league_lines = 0, lines = 0;
  while (std::getline(games1, line)) {
    ++lines;
    league_lines += line.find(
                        "white-low=gen-0000 black-high=gen-0000 white-high=gen-0000 "
                        "black-low=gen-0000") != std::string::npos;
  }
  EXPECT_GE(lines, 4);
  EXPECT_EQ(league_lines, lines);
  // training.csv: a row per seat per metrics chunk, with the seat named.
  std::ifstream csv(dir / "training.csv");
  std::getline(csv, line);
  EXPECT_NE(line.find(",seat"), std::string::npos) << line;
  EXPECT_EQ(lines_of(dir / "training.csv"), 1 + 2 * 4);

  // Interrupted after writing two of generation 2's four checkpoints: generation 1 is the last
  // finished one, and a resumed run finds every seat's checkpoint again.
  fs::remove(dir / "checkpoints/gen-0002-white-high.pt");
  fs::remove(dir / "checkpoints/gen-0002-black-low.pt");
  TrainingRun resumed(dir.str());
  EXPECT_TRUE(resumed.config().agents.per_seat()) << "read back from config.toml";
  EXPECT_EQ(resumed.finished_generations(), 1);
  resumed.run(quiet);
  EXPECT_EQ(resumed.finished_generations(), 2);
  EXPECT_EQ(read_checkpoint_info(dir / "checkpoints/gen-0002-black-low.pt").seat, "black-low");
  EXPECT_EQ(lines_of(dir / "training.csv"), 1 + 2 * 4) << "generation 1's rows redone, not doubled";
}

}  // namespace
}  // namespace fairyzero
