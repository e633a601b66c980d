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
// RUN_DIR/validation/gen-NNNN.h5, .txt  the held-out games of gen-NNNN, never trained on
// RUN_DIR/validation.csv      the network on the newest held-out samples, per generation
// RUN_DIR/trainer.lease         held by the one trainer of the run (training/cluster/lease.h)
// RUN_DIR/clock.csv           the seconds each generation took (the run.minutes budget)
// With external self-play (docs/DISTRIBUTED.md): workers publish samples/gen-NNNN-wID-SEQ.h5
// and games/gen-NNNN-wID-SEQ.txt; RUN_DIR/external.csv has a row per trained generation.
#pragma once

#include <functional>
#include <memory>
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

// How `run` trains: with its own self-play, or on the samples that `fairyzero selfplay` workers
// publish, as one process or as one rank of several.
struct TrainingOptions {
  bool external_selfplay = false;
  class TrainerGroup* group = nullptr;  // the trainer's ranks; nullptr: one process
  double poll_seconds = 2;              // how often an external trainer looks for new samples
  // Temporaries older than this in samples/ and games/ are swept (their writer was killed).
  double sweep_after_seconds = 3600;
};

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
  const std::string& dir() const { return dir_; }
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
  int league_games() const;
  // Runs the remaining generations. `log` receives progress lines. Throws LeaseHeldError when
  // another trainer holds the run.
  void run(const std::function<void(const std::string&)>& log, const TrainingOptions& options = {});
  std::string path(const std::string& name) const;

 private:
  friend class GenerationLoop;  // the generation loop of run(), in its own file
  // Draws RUN_DIR/learning_curves.png with scripts/plot_learning.py; a failure is only reported.
  void plot() const;
  // Plays a generation's games with `networks` (one per agent) of generation
  // `network_generation` and, with league play, earlier ones; writes its samples (which name the
  // newest network), games and selfplay.csv row.
  void self_play_generation(int generation, const std::vector<std::shared_ptr<Evaluator>>& networks,
                            int network_generation,
                            const std::function<void(const std::string&)>& log);

  std::string dir_;
  TrainConfig config_;
  VariantPtr variant_;
  // Kept from generation to generation: its slots carry games over ([selfplay] carry_over).
  std::unique_ptr<class GenerationPlayer> player_;
};

// gen-0007 style names.
std::string generation_name(int generation);

}  // namespace fairyzero
