// `fairyzero train`: generations of self-play and training in a run folder, resumable after an
// interruption without losing finished samples or checkpoints.
//
// RUN_DIR/config.toml          the resolved settings (read back on resume)
// RUN_DIR/checkpoints/gen-NNNN.pt, optimizer.pt   network after NNNN generations; its optimizer
// RUN_DIR/samples/gen-NNNN.h5  samples of the games played by gen-NNNN (docs/FORMAT.md)
// RUN_DIR/games/gen-NNNN.txt   those games as text, one per line
// RUN_DIR/selfplay.csv, training.csv   one row per generation / per metrics chunk
// RUN_DIR/learning_curves.png  plotted by scripts/plot_learning.py after each generation
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "mcts/evaluator.h"
#include "training/train_config.h"

namespace fairyzero {

class TrainingRun {
 public:
  // A new run (`config` with run.variant set) or, when RUN_DIR/config.toml exists, the run
  // found there; then `config` is ignored and the stored one used.
  TrainingRun(std::string run_dir, const TrainConfig& config);

  const TrainConfig& config() const { return config_; }
  // Generations finished so far (the newest checkpoint's number).
  int finished_generations() const;
  // Runs the remaining generations. `log` receives progress lines.
  void run(const std::function<void(const std::string&)>& log);

 private:
  std::string path(const std::string& name) const;
  // Draws RUN_DIR/learning_curves.png with scripts/plot_learning.py; a failure is only reported.
  void plot() const;
  // A copy of the trainer's network as an evaluator on the run's device.
  std::shared_ptr<Evaluator> snapshot(const class Trainer& trainer) const;
  // Plays a generation's games with `network` (named `network_name` in the sample file) and
  // writes its samples, games and selfplay.csv row.
  void self_play_generation(int generation, const std::shared_ptr<Evaluator>& network,
                            const std::string& network_name,
                            const std::function<void(const std::string&)>& log);

  std::string dir_;
  TrainConfig config_;
  bool resumed_ = false;
};

// gen-0007 style names.
std::string generation_name(int generation);

}  // namespace fairyzero
