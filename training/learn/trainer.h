// The trainer: a network and its optimizer, trained on batches of samples with policy
// cross-entropy plus WDL value loss (and weight decay through the optimizer), with a learning
// rate schedule and mixed precision on CUDA. No torch in this header.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "nn/network_config.h"
#include "training/data/sample.h"

namespace fairyzero {

class Encoder;

struct TrainerConfig {
  std::string optimizer = "sgd";  // "sgd" (with Nesterov momentum) or "adamw"
  double learning_rate = 0.02;
  double momentum = 0.9;  // SGD only
  double weight_decay = 1e-4;
  // "constant", "cosine" (from learning_rate down to learning_rate * final_fraction over
  // total_steps, then flat) or "step" (times 0.1 at each of `milestones`).
  std::string schedule = "constant";
  int64_t total_steps = 0;
  double final_fraction = 0.1;
  std::vector<int64_t> milestones;
  int batch_size = 256;
  double value_loss_weight = 1.0;
  // Weight of the moves-left head's loss (Huber, in units of kMovesLeftScale plies), where the
  // network has the head and the samples a target.
  double moves_left_loss_weight = 0.25;
  // Weight of the soft policy head's cross-entropy, where the network has the head. Not
  // KataGo's 8: with SGD at our presets' rate (0.05) that weight diverged in the trainer's test.
  double soft_policy_loss_weight = 1.0;
  bool mixed_precision = true;  // on CUDA only; the CPU always trains in float
  std::string device = "cpu";   // "cpu", "cuda", "cuda:N"
  int metrics_every = 50;       // steps per metrics row
};

// One row of the metrics CSV: means over the steps since the previous row.
struct TrainingMetrics {
  int64_t step = 0;  // optimizer steps so far (all generations)
  double learning_rate = 0;
  double policy_loss = 0;       // cross-entropy against the visit distribution
  double value_loss = 0;        // cross-entropy of the WDL heads against the game result
  double moves_left_loss = 0;   // Huber loss of the plies-left prediction (0 without the head)
  double soft_policy_loss = 0;  // cross-entropy of the soft policy head (0 without the head)
  double total_loss = 0;        // the losses, each times its weight (policy's is 1)
  double policy_entropy = 0;    // of the network's policy over the target's moves
  double value_accuracy = 0;    // share of samples whose most likely W/D/L is the target's
  double samples_per_second = 0;
};

// A batch measured without training (validation): mean losses, and per sample the expected
// score (W + D/2) that the first value head predicts and the one its target holds.
struct BatchEvaluation {
  double policy_loss = 0, value_loss = 0, moves_left_loss = 0, soft_policy_loss = 0;
  std::vector<float> predicted_score, target_score;
};

// The other ranks of a data-parallel trainer (training/learn/trainer_group.h does it with c10d):
// buffers of floats, so that this header stays free of torch.
class GradientSync {
 public:
  virtual ~GradientSync() = default;
  virtual int world_size() const = 0;
  // Replaces `data` on every rank by its mean over the ranks.
  virtual void average(float* data, size_t count) = 0;
  // Replaces `data` on every rank by rank 0's.
  virtual void broadcast(float* data, size_t count) = 0;
};

class Trainer {
 public:
  // A fresh network of `config` for the encoder's variant.
  Trainer(const Encoder& encoder, const NetworkConfig& config, const TrainerConfig& training);
  ~Trainer();

  // Restores the network (and its step) from a checkpoint, and the optimizer from its state
  // file when that file exists. Throws CheckpointError on a mismatched checkpoint, or one not
  // written for `seat` when that is given (per-seat networks).
  void load(const std::string& checkpoint, const std::string& optimizer_state,
            const std::string& seat = "");
  // Writes both atomically; the checkpoint records `seat` (empty: a shared network).
  void save(const std::string& checkpoint, const std::string& optimizer_state,
            const std::string& seat = "") const;

  // Runs `steps` optimizer steps on batches from `next_batch(batch_size)`; returns one metrics
  // row per `metrics_every` steps (and one for a final partial chunk).
  std::vector<TrainingMetrics> train(const std::function<TrainingBatch(int)>& next_batch,
                                     int steps);

  // Trains as one rank of a data-parallel trainer from now on: takes rank 0's weights, then each
  // step draws batch_size / world_size samples, and averages the gradients over the ranks
  // (and, after each train(), the normalisation statistics), so all ranks stay one network.
  // Throws std::invalid_argument when batch_size does not divide by the ranks. `sync` must
  // outlive the trainer's training.
  void set_gradient_sync(GradientSync* sync);

  // The network as it plays (normalisation with its running statistics), no gradients.
  BatchEvaluation evaluate(const TrainingBatch& batch);

  // The schedule's length, when it is known only as the run goes (steps from reuse).
  void set_total_steps(int64_t total_steps);

  int64_t step() const;
  // The network being trained (on its device). Evaluators copy it.
  std::shared_ptr<NetworkImpl> network() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace fairyzero
