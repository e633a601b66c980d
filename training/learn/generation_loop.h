// One trainer session of a run, from its newest good checkpoint to the run's or the budget's end:
// per generation, its samples (own self-play or the workers'), training of each agent on the
// window, the checkpoint, held-out validation, the clock and the progress line.
#pragma once

#include <cstdint>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "nn/encoder.h"
#include "training/cluster/lease.h"
#include "training/data/sample_window.h"
#include "training/learn/run_clock.h"
#include "training/learn/train_run.h"
#include "training/learn/trainer.h"

namespace fairyzero {

class GenerationLoop {
 public:
  using Log = std::function<void(const std::string&)>;
  // Takes the run's lease (rank 0), loads or starts the checkpoints, agrees on them with the
  // other ranks and cuts the CSV rows of an unfinished generation.
  GenerationLoop(TrainingRun& run, const TrainingOptions& options, Log raw_log);
  ~GenerationLoop();
  // Runs the generations left; returns the generation the newest checkpoint holds.
  int run();

 private:
  void log(const std::string& line);
  void make_trainers();
  int resume_or_start();
  // Loads every agent's newest good checkpoint; a damaged one is renamed gen-NNNN*.pt.damaged
  // with a warning and the generation before it used. Returns -1 when none is left.
  int load_newest_good();
  void join_ranks();
  void truncate_unfinished_rows();
  void save_all(int generation);
  std::vector<std::shared_ptr<Evaluator>> snapshots() const;
  std::string optimizer_path(const std::string& agent) const;
  // Rank 0's elapsed seconds of the run, agreed by all ranks under `key`.
  double synced_seconds(const std::string& key);
  // The schedule's length from the clock: the rate at each generation is where the budget's
  // elapsed share puts it, so it anneals by the budget's end however fast the steps come.
  void follow_the_clock();
  bool budget_spent(int generation);

  // Brings generation `generation`'s samples into the window; returns how many are new (0 when
  // the steps are fixed and own self-play did not count them).
  int64_t gather_samples(int generation);
  int64_t gather_external_samples(int generation);
  void play_own_games(int generation);
  // The power-law window grows with the samples published (window_exponent).
  void grow_window();
  int steps_for(int generation, int64_t new_samples);
  std::vector<TrainingMetrics> train_agents(int generation, int steps);
  // Checkpoint, validation, the clock; returns the validation summary for the progress line.
  std::string finish_generation(int generation, int steps, const std::vector<TrainingMetrics>& rows,
                                double generation_start);
  // External self-play: waits until the workers have published enough samples for the
  // generation (window.reuse); returns the row for external.csv and sets `new_samples`.
  std::string wait_for_samples(int generation, int64_t& new_samples);
  // Measures each agent on the held-out games, writes validation.csv rows beside the means of
  // the generation's training `rows`, and returns a summary for the log.
  std::string validate_generation(int generation, const std::vector<TrainingMetrics>& rows);

  TrainingRun& run_;
  const TrainConfig& config_;
  const TrainingOptions& options_;
  TrainerGroup* group_;
  bool leader_;  // the rank that writes files and logs
  Log raw_log_;
  Log log_;  // raw_log_ for rank 0 only, one line at a time (self-play may log from a thread)
  std::mutex log_mutex_;
  Encoder encoder_;
  std::vector<std::string> names_;
  bool per_seat_;
  std::vector<std::unique_ptr<Trainer>> trainers_;
  std::optional<Lease> lease_;
  int generation_ = -1;
  std::optional<SampleWindow> window_;
  std::mt19937_64 rng_;  // each rank draws its own share of every batch
  std::optional<RunClock> clock_;
  double budget_;     // seconds; 0: none
  double spent_ = 0;  // seconds of the budget spent, over all sessions of the run
  // With `overlap`, the games of generation g+1 are played by a snapshot of the network that
  // played generation g while the trainer turns it into g+1 (one generation of lag, as in
  // KataGo). Declared last: waited for before anything it uses goes.
  std::future<void> next_games_;
};

}  // namespace fairyzero
