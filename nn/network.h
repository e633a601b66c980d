// The network: a residual trunk, an attention-style policy head over (from, to) cell pairs with
// promotion and drop logits, and a WDL value head. Includes torch: only nn/ and training/ use it.
#pragma once

#include <torch/torch.h>

#include "nn/network_config.h"

namespace fairyzero {

// Outputs of one forward pass for a batch of B positions, all in the encoder's frame (see
// nn/encoder.h). Logits, not probabilities.
struct NetworkOutput {
  torch::Tensor pair;       // [B, cells, cells]: logit of the move from cell i to cell j
  torch::Tensor promotion;  // [B, P, cells]: added to the pair logit of a promotion to slot k
  torch::Tensor drop;       // [B, T, cells]: logit of dropping type t on a cell
  torch::Tensor value;      // [B, value_heads, 3]: W, D, L logits per team (encoder.h, Value)
  // [B]: plies left to the game's end over kMovesLeftScale, unbounded (a linear output keeps
  // its gradient; read it clamped at 0); undefined without the head.
  torch::Tensor moves_left;
  // The soft policy head's logits, shaped as pair, promotion and drop; undefined without it.
  torch::Tensor soft_pair, soft_promotion, soft_drop;
};

// The moves-left head predicts plies / kMovesLeftScale, so its target is about 1 in a typical
// game rather than in the hundreds.
inline constexpr double kMovesLeftScale = 32.0;

// Conv3x3-BN-ReLU-Conv3x3-BN, plus the input, then ReLU.
class ResidualBlockImpl : public torch::nn::Cloneable<ResidualBlockImpl> {
 public:
  explicit ResidualBlockImpl(int filters = 1);
  void reset() override;
  torch::Tensor forward(const torch::Tensor& x);

 private:
  int filters_;
  torch::nn::Conv2d conv1_{nullptr}, conv2_{nullptr};
  torch::nn::BatchNorm2d bn1_{nullptr}, bn2_{nullptr};
};
TORCH_MODULE(ResidualBlock);

// Input [B, planes, ranks, files] (float or, after .to(kHalf), half). The policy head follows
// lc0's attention policy: a 1x1 conv gives each cell an embedding e (filters wide); queries
// q = Wq e and keys k = Wk e (policy_dim wide) give pair logits q_from . k_to / sqrt(policy_dim);
// per-cell linear layers on e give the promotion and drop logits of the target cell. The value
// head is 1x1 conv to 32 channels, BN, ReLU, a hidden layer of value_hidden, and value_heads*3
// logits; the moves-left head (when configured) has its own hidden layer of value_hidden on
// the value head's 32 channels and one linear output; the soft policy head (when configured)
// has its own query, key, promotion and drop layers on the same cell embeddings. Clone
// (Cloneable) to copy it to another device without touching the original.
class NetworkImpl : public torch::nn::Cloneable<NetworkImpl> {
 public:
  NetworkImpl(const NetworkConfig& config, const NetworkShape& shape);
  void reset() override;
  NetworkOutput forward(torch::Tensor planes);

  const NetworkConfig& config() const { return config_; }
  const NetworkShape& shape() const { return shape_; }

 private:
  NetworkConfig config_;
  NetworkShape shape_;
  torch::nn::Conv2d input_conv_{nullptr};
  torch::nn::BatchNorm2d input_bn_{nullptr};
  torch::nn::ModuleList blocks_{nullptr};
  torch::nn::Conv2d policy_embed_{nullptr};
  torch::nn::Linear query_{nullptr}, key_{nullptr};
  torch::nn::Linear promotion_{nullptr}, drop_{nullptr};  // promotion_ is null when P = 0
  torch::nn::Conv2d value_conv_{nullptr};
  torch::nn::BatchNorm2d value_bn_{nullptr};
  torch::nn::Linear value_fc1_{nullptr}, value_fc2_{nullptr};
  torch::nn::Linear moves_left_hidden_{nullptr}, moves_left_{nullptr};  // null without the head
  struct PolicyLayers {
    torch::nn::Linear query{nullptr}, key{nullptr}, promotion{nullptr}, drop{nullptr};
  };
  PolicyLayers soft_;  // null without the soft policy head
};
TORCH_MODULE(Network);

// Logits of the moves with policy indices `indices` ([B, K], int64, on the output's device,
// each in [0, policy_size)): pair logit for normal moves, pair + promotion logit for
// promotions, drop logit for drops. Returns [B, K] in the outputs' dtype. Differentiable, so
// the trainer's policy loss can use it too.
torch::Tensor policy_logits_at(const NetworkOutput& out, const torch::Tensor& indices);

// The same for the soft policy head (the output must have one).
torch::Tensor soft_policy_logits_at(const NetworkOutput& out, const torch::Tensor& indices);

// What the soft policy head learns from a policy target ([B, K] weights, rows summing to 1 or
// all zero): each weight to the power 1/4, renormalised per row (KataGo's soft policy). Zero
// weights stay zero; an all-zero row stays zero.
torch::Tensor soft_policy_target(const torch::Tensor& weight);

}  // namespace fairyzero
