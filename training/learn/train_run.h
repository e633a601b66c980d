// `fairyzero train`: generations of self-play and training in a run folder, resumable after an
// interruption without losing finished samples or checkpoints.
//
// RUN_DIR/config.toml          the resolved settings (read back on resume)
// RUN_DIR/variant.toml         the resolved variant (its file plus every --set): the run's rules
// RUN_DIR/checkpoints/gen-NNNN.pt, optimizer.pt   network after NNNN generations; its optimizer
//   (per-seat networks: gen-NNNN-SEAT.pt and optimizer-SEAT.pt for each seat)
// RUN_DIR/samples/gen-NNNN.h5  samples of the games played by gen-NNNN (docs/FORMAT.md)
// RUN_DIR/games/gen-NNNN.txt   those games as text, one per line
// RUN_DIR/selfplay.csv, training.csv   one row per generation / per metrics chunk
// RUN_DIR/learning_curves.png  plotted by scripts/plot_learning.py after each generation
#pragma once

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "mcts/evaluator.h"
#include "training/learn/train_config.h"

namespace fairyzero {

// A run folder that cannot be used as asked: not a run, already a run, finished, a refused
// change of settings, a file that cannot be written. The message names the folder or file.
class RunError : public UserError {
 public:
  using UserError::UserError;
};

// RUN_DIR/variant.toml, the rules a run was created with. Throws VariantError when it is
// missing (a run made before runs kept their rules) or does not load.
VariantPtr load_run_variant(const std::string& run_dir);

// Does RUN_DIR hold a run (a config.toml)?
bool is_training_run(const std::string& run_dir);

class TrainingRun {
 public:
  // A new run of `variant` (already resolved with its --set overrides) under `config`; RUN_DIR
  // must not hold a run yet. Writes RUN_DIR/config.toml and RUN_DIR/variant.toml.
  TrainingRun(std::string run_dir, const TrainConfig& config, VariantPtr variant);
  // The run in RUN_DIR, with its own config.toml and variant.toml.
  explicit TrainingRun(std::string run_dir);
  ~TrainingRun();

  const TrainConfig& config() const { return config_; }
  const VariantPtr& variant() const { return variant_; }
  // Replaces the run's settings (RUN_DIR/config.toml, rewritten atomically) with `config`, which
  // may differ from the stored one only in settings that can change mid-run (see
  // settings_changed_mid_run); otherwise throws RunError naming each refused key and
  // why. --generations above the stored count extends the run.
  void update_settings(const TrainConfig& config);
  // Generations finished so far (the newest checkpoint's number; per-seat: the newest with a
  // checkpoint for every seat).
  int finished_generations() const;
  // Who has a network: {""} for a shared one, else the seat names (gen-NNNN-SEAT.pt).
  std::vector<std::string> agents() const;
  // checkpoints/gen-NNNN.pt, or gen-NNNN-SEAT.pt for a seat's network.
  std::string checkpoint_path(int generation, const std::string& agent) const;
  // Self-play lineups with at least one seat played by an earlier generation, in this process:
  // one per game started and per game carried into a generation.
  int league_games() const { return league_games_; }
  // Runs the remaining generations. `log` receives progress lines.
  void run(const std::function<void(const std::string&)>& log);

 private:
  std::string path(const std::string& name) const;
  // Draws RUN_DIR/learning_curves.png with scripts/plot_learning.py; a failure is only reported.
  void plot() const;
  // A copy of the trainer's network as an evaluator on the run's device.
  std::shared_ptr<Evaluator> snapshot(const class Trainer& trainer) const;
  // Plays a generation's games with `networks` (one per agent) of generation
  // `network_generation` and, with league play, earlier ones; writes its samples (which name the
  // newest network), games and selfplay.csv row.
  void self_play_generation(int generation, const std::vector<std::shared_ptr<Evaluator>>& networks,
                            int network_generation,
                            const std::function<void(const std::string&)>& log);
  // Agent `agent`'s network of an earlier generation, loaded once and kept.
  std::shared_ptr<Evaluator> earlier_network(int generation, int agent);

  // Loads every agent's newest good checkpoint into `trainers`; a damaged one is renamed
  // gen-NNNN*.pt.damaged with a warning and the generation before it used. Returns the
  // generation loaded, or -1 when none is left (a new start).
  int load_newest_good(const std::vector<std::unique_ptr<class Trainer>>& trainers,
                       const std::function<void(const std::string&)>& log);

  std::string dir_;
  TrainConfig config_;
  VariantPtr variant_;
  std::mutex earlier_mutex_;  // overlapped self-play loads from another thread
  std::map<std::pair<int, int>, std::shared_ptr<Evaluator>> earlier_;  // (generation, agent)
  std::atomic<int> league_games_{0};
  // Kept from generation to generation: its slots carry games over ([selfplay] carry_over).
  std::unique_ptr<class SelfPlay> self_play_;
};

// gen-0007 style names.
std::string generation_name(int generation);

}  // namespace fairyzero
