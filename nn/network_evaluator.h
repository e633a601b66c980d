// The network as an Evaluator: encodes a batch, runs one forward pass on the CPU or a CUDA
// device, and returns logits of the legal moves and values per seat. No torch in this header.
#pragma once

#include <memory>
#include <string>

#include "mcts/evaluator.h"
#include "nn/encoder.h"

namespace fairyzero {

class NetworkImpl;  // nn/network.h

struct NetworkEvaluatorOptions {
  // "cpu", "cuda" or "cuda:N". Asking for CUDA where none is available throws.
  std::string device = "cpu";
  // Half precision on CUDA devices (ignored on the CPU, which always runs float).
  bool half = true;
};

// Evaluation fields: policy_logits[i] is the network's logit of legal move i (by its policy
// index, nn/encoder.h); value[s] is the expected score of seat s (W + D/2 of its team; the
// two teams of a two-team variant sum to 1); wdl is the team to move's W, D, L probabilities.
//
// Thread safety: evaluate() may be called from several threads; encoding runs in the caller's
// thread, the forward passes are serialized by a mutex. For batching across threads put an
// InferenceServer in front.
class NetworkEvaluator : public Evaluator {
 public:
  // Uses a copy of `network` moved to the device (in eval mode, half on CUDA when asked), so
  // the caller's network, e.g. the one being trained, is untouched. Its shape must match the
  // variant's encoder; throws std::invalid_argument otherwise.
  NetworkEvaluator(VariantPtr variant, const std::shared_ptr<NetworkImpl>& network,
                   const NetworkEvaluatorOptions& options = {});
  // Loads a checkpoint (throws CheckpointError, nn/checkpoint.h).
  static std::unique_ptr<NetworkEvaluator> from_checkpoint(
      const std::string& path, VariantPtr variant, const NetworkEvaluatorOptions& options = {});
  ~NetworkEvaluator() override;

  void evaluate(std::span<const EvalRequest> batch, std::span<Evaluation> out) override;
  // "network 6x64 (policy 32, value 128) on cpu"
  std::string name() const override;
  const Encoder& encoder() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace fairyzero
