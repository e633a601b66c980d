// The network as an Evaluator: its callers encode positions (as packed bits for a GPU, floats
// for the CPU), a prepared network runs one forward pass per batch on the CPU or a CUDA device,
// and logits of the legal moves and values per seat come back. No torch in this header.
#pragma once

#include <memory>
#include <string>

#include "mcts/evaluator.h"
#include "nn/encoder.h"
#include "nn/network_config.h"

namespace fairyzero {

class NetworkImpl;  // nn/network.h

struct NetworkEvaluatorOptions {
  // "cpu", "cuda" or "cuda:N". Asking for CUDA where none is available throws.
  std::string device = "cpu";
  // As precision_on_device() says: on CUDA as asked; the CPU runs fp16 as fp32, bf16 as asked
  // where it has bf16 instructions.
  Precision precision = Precision::kFloat16;
};

// Whether this CPU computes bf16 in hardware (x86 AVX512-BF16: AMD Zen 4 on, Intel Cooper Lake
// and Sapphire Rapids on). Elsewhere oneDNN emulates bf16, slower than fp32.
bool cpu_has_native_bfloat16();

// The precision a network evaluator runs in when `asked` on `device` ("cpu", "cuda:0"): as asked
// on CUDA; on the CPU fp32, except bf16 where cpu_has_native_bfloat16() (1.4 times the
// self-play of fp32 on the Zen CPU of docs/BENCHMARKS.md). LibTorch's CPU kernels have no fast
// fp16.
Precision precision_on_device(const std::string& device, Precision asked);

// Evaluation fields: policy_logits[i] is the network's logit of legal move i (by its policy
// index, nn/encoder.h); value[s] is the expected score of seat s (W + D/2 of its team; the
// two teams of a two-team variant sum to 1); wdl is the team to move's W, D, L probabilities.
//
// As a StagedEvaluator behind an InferenceServer, each server thread gets its own staging:
// pinned input and output buffers and, on CUDA, its own stream, so one thread's copies and
// forward pass overlap another's. Thread safety: evaluate() may be called from several threads;
// on the CPU the forward passes take turns (they would only compete for the same cores).
class NetworkEvaluator : public StagedEvaluator {
 public:
  // Prepares a copy of `network` for the device (nn/prepared_network.h: batch norm folded,
  // precision, channels_last on CUDA), so the caller's network, e.g. the one being trained, is
  // untouched. Its shape must match the variant's encoder; throws std::invalid_argument
  // otherwise.
  NetworkEvaluator(VariantPtr variant, const std::shared_ptr<NetworkImpl>& network,
                   const NetworkEvaluatorOptions& options = {});
  // Loads a checkpoint (throws CheckpointError, nn/checkpoint.h).
  static std::unique_ptr<NetworkEvaluator> from_checkpoint(
      const std::string& path, VariantPtr variant, const NetworkEvaluatorOptions& options = {});
  ~NetworkEvaluator() override;

  void evaluate(std::span<const EvalRequest> batch, std::span<Evaluation> out) override;
  // "network 6x64 (policy 32, value 128) on cuda:0 (fp16, channels_last)"
  std::string name() const override;
  const Encoder& encoder() const;

  size_t row_bytes() const override;
  void encode_row(const EvalRequest& request, std::byte* row) const override;
  std::unique_ptr<Staging> make_staging(int max_rows) override;
  void evaluate_staged(std::span<const EvalRequest> batch, Staging& staging,
                       std::span<Evaluation> out) override;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Threads each CPU forward pass may use (LibTorch's intra-op threads; process-wide). Its default
// is every core, which oversubscribes the machine as soon as several searches or engines run at
// once: each parallel region then waits for a descheduled thread, and a forward pass that takes
// milliseconds alone takes a scheduler slice per layer (docs/BENCHMARKS.md, issue 17).
void set_cpu_forward_threads(int threads);

}  // namespace fairyzero
