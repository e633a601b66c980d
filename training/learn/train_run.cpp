// A training run's folder: its settings and rules, checkpoints, a generation's self-play and the
// learning-curve plot; run() hands the generations to GenerationLoop.
#include "training/learn/train_run.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iomanip>
#include <sstream>

#include "core/temporary_file.h"
#include "core/variant_loader.h"
#include "nn/encoder.h"
#include "training/cluster/run_files.h"
#include "training/data/sample_store.h"
#include "training/learn/generation_loop.h"
#include "training/learn/generation_player.h"
#include "training/learn/run_csv.h"
#include "training/learn/trainer_group.h"
#include "training/play/run_program.h"

namespace fairyzero {
namespace fs = std::filesystem;

namespace {

// Writes a whole text file atomically; a failure is a RunError naming it.
void write_file_atomically(const std::string& path, const std::string& text) {
  try {
    write_text_atomically(path, text);
  } catch (const std::runtime_error& e) {
    throw RunError(e.what());
  }
}

}  // namespace

std::string generation_name(int generation) {
  char name[32];
  std::snprintf(name, sizeof name, "gen-%04d", generation);
  return name;
}

VariantPtr load_run_variant(const std::string& run_dir) {
  const std::string file = (fs::path(run_dir) / "variant.toml").string();
  if (!fs::exists(file))
    throw VariantError(run_dir +
                       " has no variant.toml: it is not a run, or was made before runs "
                       "kept their rules (start it again with fairyzero train)");
  return load_variant_file(file);
}

bool is_training_run(const std::string& run_dir) {
  return fs::exists(fs::path(run_dir) / "config.toml");
}

TrainingRun::TrainingRun(std::string run_dir, const TrainConfig& config, VariantPtr variant)
    : dir_(std::move(run_dir)), config_(config), variant_(std::move(variant)) {
  if (is_training_run(dir_))
    throw RunError(dir_ + " already holds a run; continue it with fairyzero train " + dir_);
  if (!variant_) throw std::invalid_argument("a new training run needs a variant");
  config_.run.variant = variant_->name;
  validate_agents(config_, path("config.toml"));
  validate_for_variant(config_, *variant_, path("config.toml"));
  fs::create_directories(dir_);
  write_file_atomically(path("variant.toml"), variant_->resolved_toml);
  write_file_atomically(path("config.toml"), train_config_to_toml(config_));
}

TrainingRun::TrainingRun(std::string run_dir) : dir_(std::move(run_dir)) {
  if (!is_training_run(dir_)) throw RunError(dir_ + " holds no run (no config.toml)");
  config_ = load_train_config(path("config.toml"));
  variant_ = load_run_variant(dir_);
  validate_agents(config_, path("config.toml"));
  validate_for_variant(config_, *variant_, path("config.toml"));
}

TrainingRun::~TrainingRun() = default;

void TrainingRun::update_settings(const TrainConfig& config) {
  std::string refused;
  for (const SettingChange& c : changed_settings(config_, config))
    if (!c.allowed_mid_run)
      refused += "\n  " + c.key + ": " + c.before + " in the run, " + c.after + " asked";
  if (!refused.empty())
    throw RunError(
        "cannot change these settings of " + dir_ +
        " mid-run (they define its games, network or training; start a new run instead):" +
        refused);
  if (config.run.generations < finished_generations())
    throw RunError(dir_ + " has already finished " + std::to_string(finished_generations()) +
                   " generations; --generations " + std::to_string(config.run.generations) +
                   " would undo them");
  validate_agents(config, path("config.toml"));
  validate_for_variant(config, *variant_, path("config.toml"));
  config_ = config;
  write_file_atomically(path("config.toml"), train_config_to_toml(config_));
}

std::vector<std::string> TrainingRun::agents() const {
  if (!config_.agents.per_seat()) return {""};
  std::vector<std::string> names;
  for (const Seat& seat : variant_->seats) names.push_back(seat.name);
  return names;
}

std::string TrainingRun::checkpoint_path(int generation, const std::string& agent) const {
  return path("checkpoints/" + generation_name(generation) + (agent.empty() ? "" : "-" + agent) +
              ".pt");
}

std::string TrainingRun::path(const std::string& name) const {
  return (fs::path(dir_) / name).string();
}

void TrainingRun::plot() const {
  fs::path script = "scripts/plot_learning.py";
#ifdef FAIRYZERO_SOURCE_DIR
  if (!fs::exists(script)) script = fs::path(FAIRYZERO_SOURCE_DIR) / "scripts" / "plot_learning.py";
#endif
  const char* python = fs::exists("/usr/bin/python3") ? "/usr/bin/python3" : "python3";
  if (run_program({python, script.string(), dir_}, path("plot.log")) != 0)
    std::fprintf(stderr, "note: no learning-curve plot (see %s)\n", path("plot.log").c_str());
}

int TrainingRun::finished_generations() const {
  int newest = -1;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(path("checkpoints"), ec)) {
    std::string name = entry.path().filename().string();
    int g = -1;
    if (std::sscanf(name.c_str(), "gen-%d", &g) == 1 && entry.path().extension() == ".pt")
      newest = std::max(newest, g);
  }
  // A generation counts once every agent's checkpoint of it is written.
  const std::vector<std::string> names = agents();
  for (; newest >= 0; --newest) {
    bool complete = true;
    for (const std::string& agent : names)
      complete = complete && fs::exists(checkpoint_path(newest, agent));
    if (complete) break;
  }
  return newest;
}

int TrainingRun::league_games() const { return player_ ? player_->league_games() : 0; }

void TrainingRun::self_play_generation(int generation,
                                       const std::vector<std::shared_ptr<Evaluator>>& networks,
                                       int network_generation,
                                       const std::function<void(const std::string&)>& log) {
  // The first generation of this process makes the games' slots; later ones hand their new
  // players to the games carried over.
  if (!player_)
    player_ = std::make_unique<GenerationPlayer>(
        variant_, config_, agents(),
        [this](int g, const std::string& agent) { return checkpoint_path(g, agent); },
        config_.run.seed * 1000 + static_cast<uint64_t>(generation));
  const std::string name = generation_name(generation);
  const PlayedGames played = player_->play(networks, network_generation, name, log);
  publish_played_games(variant_, played, config_, generation_name(network_generation), dir_, name);
  append_csv(path("selfplay.csv"), selfplay_csv_header(*variant_),
             selfplay_csv_row(*variant_, generation, played));
  const SelfPlayStats& stats = played.stats;
  std::ostringstream done;
  done << std::fixed << std::setprecision(1) << "  " << name << " self-play done: " << stats.games
       << " games in " << format_seconds(stats.seconds) << ", " << stats.moves_per_second()
       << " positions/s, " << std::setprecision(0)
       << (stats.seconds > 0 ? stats.evaluated / stats.seconds : 0) << " evaluations/s, "
       << std::setprecision(1) << stats.samples << " samples, mean length " << stats.mean_plies()
       << " plies, draws " << 100 * draw_rate(played) << "%";
  log(done.str());
}

void TrainingRun::run(const std::function<void(const std::string&)>& log,
                      const TrainingOptions& options) {
  GenerationLoop loop(*this, options, log);
  const int generation = loop.run();
  if (options.group && options.group->rank() != 0) return;
  log("finished: " + checkpoint_path(generation, agents().front()) +
      (config_.agents.per_seat() ? " (and the other seats')" : ""));
}

}  // namespace fairyzero
