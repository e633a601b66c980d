// The settings of a training run, read from configs/train/NAME.toml and written back resolved to
// RUN_DIR/config.toml. Every setting is declared once (section, key, range, help) in
// train_config.cpp; unknown keys and out-of-range values are errors naming file, line and key.
#pragma once

#include <string>
#include <vector>

#include "core/errors.h"
#include "core/variant.h"
#include "nn/network_config.h"
#include "training/learn/self_play.h"
#include "training/learn/trainer.h"

namespace fairyzero {

// A training config that cannot be used: a malformed file, an unknown key, a value out of its
// range, settings that contradict each other. The message names the file, line and key.
class TrainConfigError : public UserError {
 public:
  using UserError::UserError;
};

struct RunSettings {
  std::string variant;  // set by the command line on a new run; read back on resume
  // The command line's --set overrides of variant options, joined by "; " (read back on resume).
  std::string variant_options;
  int generations = 5;  // self-play + training rounds
  // A time budget: the run stops at the first generation boundary past this many minutes of
  // training (summed over its sessions, RUN_DIR/clock.csv), and the cosine and step schedules
  // follow the clock, so a budgeted run anneals by its end. 0: no budget (generations alone).
  double minutes = 0;
  uint64_t seed = 1;
  std::string device = "cpu";  // "cpu", "cuda", "cuda:N" for the evaluator and the trainer
  // Play the next generation's games while training (worth it on a GPU; see train_run.cpp).
  bool overlap = false;
};

struct InferenceSettings {
  int max_batch = 128;
  int max_wait_us = 1000;
  std::string precision = "fp16";  // fp32, fp16 or bf16 (on the CPU fp16 runs as fp32)
  // Server threads, each with its own staging and (on CUDA) stream: batches of one thread are
  // copied and run while another's are on the device.
  int server_threads = 2;
};

struct TrainingWindow {
  int64_t samples = 50000;  // the newest samples trained on (the smallest, when it grows)
  // KataGo's power-law window (arXiv 1902.10565, appendix C): with window_exponent > 0 the
  // window holds c (1 + b ((N/c)^a - 1) / a) of the N samples published so far, c = samples,
  // a = window_exponent, b = window_growth: early, fast-changing data leaves quickly; later the
  // window keeps growing, slower than the data. 0: a fixed window of `samples`.
  double window_exponent = 0;
  double window_growth = 0.4;
  // Optimizer steps per generation; 0: ceil(reuse x new samples / batch_size), so that each new
  // sample is trained on `reuse` times on average however many the generation brought.
  int steps_per_generation = 200;
  // Samples trained per new sample: with steps_per_generation = 0 it sets the steps, and an
  // external trainer waits for steps_per_generation x batch_size / reuse new samples. KataGo
  // caps the same ratio (its max-train-bucket-per-new-data, 4 in its runs): it keeps the
  // network from memorising the newest games (docs/TRAINING.md).
  double reuse = 4;
  // Train each drawn sample mirrored left-right (files a <-> h) half the time: twice the
  // positions from the same games, where the variant's rules are symmetric (checked when the
  // run starts, core/file_mirror.h; positions holding a castling right are never mirrored).
  bool mirror_files = false;
  // Held-out validation: this share of each generation's games (whole games) goes to
  // RUN_DIR/validation/ and is never trained on; the newest validation_window of their samples
  // measure the network after each generation (validation.csv).
  double validation_fraction = 0.05;
  int64_t validation_window = 10000;
};

// Who plays the seats in self-play (docs/TRAINING.md, [agents]).
struct AgentSettings {
  // "shared": one network plays every seat; "per-seat": each seat has its own network, trainer
  // and checkpoints (checkpoints/gen-NNNN-SEAT.pt), trained on that seat's samples only.
  std::string networks = "shared";
  // In each game, each seat independently plays with a random earlier generation's network
  // (its own seat's, when per-seat) with this probability instead of the newest one, so agents
  // also learn against older opponents and partners. 0: always the newest.
  double league_probability = 0;
  // The first this-many generations' games are played by the material search (uniform search
  // over material, mcts/basic_evaluators.h) instead of the still-untrained networks: a teacher
  // from the rules for budgets too short to climb out of random play (docs/TRAINING.md). 0:
  // the networks play from the first generation, as in AlphaZero.
  int bootstrap_generations = 0;
  bool per_seat() const { return networks == "per-seat"; }
};

struct TrainConfig {
  RunSettings run;
  AgentSettings agents;
  NetworkConfig network;
  // Training carries games over from one generation to the next (no tail of idle slots).
  SelfPlayConfig selfplay = [] {
    SelfPlayConfig c;
    c.carry_over = true;
    return c;
  }();
  InferenceSettings inference;
  TrainerConfig trainer;
  TrainingWindow window;
};

// The window's capacity once `published` samples have been published (window_exponent).
int64_t window_capacity(const TrainingWindow& window, int64_t published);
// Optimizer steps for a generation that brought `new_samples`: steps_per_generation, or from
// reuse when that is 0 (at least 1).
int steps_for_generation(const TrainConfig& config, int64_t new_samples);

// New samples an external trainer (train --selfplay external) waits for before a generation:
// enough for steps_per_generation at the reuse rate, or with steps from reuse for at least 16
// steps (a generation of a handful of steps would mostly be overhead).
int64_t external_samples_per_generation(const TrainConfig& config);

// The variant options of a run as a list (split at "; ").
std::vector<std::string> variant_overrides(const RunSettings& run);

// Checks the settings that depend on each other; throws TrainConfigError naming `where` and
// the key. load_train_config runs it; TrainingRun runs it on configs built in code.
void validate_agents(const TrainConfig& config, const std::string& where);

// Checks the settings that depend on the variant's rules (training.mirror_files needs rules
// that are left-right symmetric); throws TrainConfigError naming `where`, the key and why.
void validate_for_variant(const TrainConfig& config, const Variant& variant,
                          const std::string& where);

// A setting whose value differs between two configs, as TOML text, and whether a run may take
// the new value between generations (speed and placement settings: run.generations, run.minutes,
// run.device, run.overlap, the inference settings, self-play workers and batching,
// metrics_every).
struct SettingChange {
  std::string key;  // "selfplay.games"
  std::string before, after;
  bool allowed_mid_run = false;
};
std::vector<SettingChange> changed_settings(const TrainConfig& before, const TrainConfig& after);

// Throws TrainConfigError naming the file, line and key of the first problem.
TrainConfig load_train_config(const std::string& path);
// TOML text of every setting, with its help as a comment (written to RUN_DIR/config.toml).
std::string train_config_to_toml(const TrainConfig& config);

}  // namespace fairyzero
