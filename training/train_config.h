// The settings of a training run, read from configs/train/NAME.toml and written back resolved to
// RUN_DIR/config.toml. Every setting is declared once (section, key, range, help) in
// train_config.cpp; unknown keys and out-of-range values are errors naming file, line and key.
#pragma once

#include <string>
#include <vector>

#include "nn/network_config.h"
#include "training/self_play.h"
#include "training/trainer.h"

namespace fairyzero {

struct RunSettings {
  std::string variant;  // set by the command line on a new run; read back on resume
  // The command line's --set overrides of variant options, joined by "; " (read back on resume).
  std::string variant_options;
  int generations = 5;  // self-play + training rounds
  uint64_t seed = 1;
  std::string device = "cpu";  // "cpu", "cuda", "cuda:N" for the evaluator and the trainer
  // Play the next generation's games while training (worth it on a GPU; see train_run.cpp).
  bool overlap = false;
};

struct InferenceSettings {
  int max_batch = 128;
  int max_wait_us = 1000;
  bool half = true;  // fp16 inference on CUDA
};

struct TrainingWindow {
  int64_t samples = 50000;  // the newest samples trained on
  int steps_per_generation = 200;
};

struct TrainConfig {
  RunSettings run;
  NetworkConfig network;
  SelfPlayConfig selfplay;
  InferenceSettings inference;
  TrainerConfig trainer;
  TrainingWindow window;
};

// The variant options of a run as a list (split at "; ").
std::vector<std::string> variant_overrides(const RunSettings& run);

// Throws std::runtime_error naming the file, line and key of the first problem.
TrainConfig load_train_config(const std::string& path);
// TOML text of every setting, with its help as a comment (written to RUN_DIR/config.toml).
std::string train_config_to_toml(const TrainConfig& config);

}  // namespace fairyzero
