// The residual trunk and the policy and value heads (shapes documented in network.h).
#include "nn/network.h"

#include <cmath>
#include <stdexcept>

namespace fairyzero {

namespace nn = torch::nn;

namespace {

nn::Conv2d conv(int in, int out, int kernel, bool bias) {
  return nn::Conv2d(nn::Conv2dOptions(in, out, kernel).padding(kernel / 2).bias(bias));
}

}  // namespace

ResidualBlockImpl::ResidualBlockImpl(int filters) : filters_(filters) { reset(); }

void ResidualBlockImpl::reset() {
  conv1_ = register_module("conv1", conv(filters_, filters_, 3, false));
  bn1_ = register_module("bn1", nn::BatchNorm2d(filters_));
  conv2_ = register_module("conv2", conv(filters_, filters_, 3, false));
  bn2_ = register_module("bn2", nn::BatchNorm2d(filters_));
}

torch::Tensor ResidualBlockImpl::forward(const torch::Tensor& x) {
  torch::Tensor y = torch::relu(bn1_(conv1_(x)));
  y = bn2_(conv2_(y));
  return torch::relu(y + x);
}

NetworkImpl::NetworkImpl(const NetworkConfig& config, const NetworkShape& shape)
    : config_(config), shape_(shape) {
  if (config.blocks < 0 || config.filters < 1 || config.policy_dim < 1 || config.value_hidden < 1)
    throw std::invalid_argument("network config " + describe(config) +
                                ": blocks must be >= 0, the other sizes >= 1");
  if (shape.planes < 1 || shape.cells() < 1 || shape.piece_types < 1 || shape.value_heads < 1)
    throw std::invalid_argument(
        "network shape: planes, board, piece types and value heads "
        "must be positive (build it from Encoder::network_shape())");
  reset();
}

void NetworkImpl::reset() {
  const int f = config_.filters;
  const int cells = shape_.cells();
  input_conv_ = register_module("input_conv", conv(shape_.planes, f, 3, false));
  input_bn_ = register_module("input_bn", nn::BatchNorm2d(f));
  blocks_ = register_module("blocks", nn::ModuleList());
  for (int b = 0; b < config_.blocks; ++b) blocks_->push_back(ResidualBlock(f));

  policy_embed_ = register_module("policy_embed", conv(f, f, 1, true));
  query_ = register_module("query", nn::Linear(f, config_.policy_dim));
  key_ = register_module("key", nn::Linear(f, config_.policy_dim));
  promotion_ = nn::Linear(nullptr);
  if (shape_.promotion_choices > 0)
    promotion_ = register_module("promotion", nn::Linear(f, shape_.promotion_choices));
  drop_ = register_module("drop", nn::Linear(f, shape_.piece_types));

  value_conv_ = register_module("value_conv", conv(f, 32, 1, false));
  value_bn_ = register_module("value_bn", nn::BatchNorm2d(32));
  value_fc1_ = register_module("value_fc1", nn::Linear(32 * cells, config_.value_hidden));
  value_fc2_ =
      register_module("value_fc2", nn::Linear(config_.value_hidden, 3 * shape_.value_heads));
  moves_left_hidden_ = nn::Linear(nullptr);
  moves_left_ = nn::Linear(nullptr);
  if (config_.moves_left) {
    // Its own hidden layer: on the value's, the value loss (which a network drives to zero
    // first) pushed the output into a dead zone in tests.
    moves_left_hidden_ =
        register_module("moves_left_hidden", nn::Linear(32 * cells, config_.value_hidden));
    moves_left_ = register_module("moves_left", nn::Linear(config_.value_hidden, 1));
  }
  soft_ = PolicyLayers{};
  if (config_.soft_policy) {
    soft_.query = register_module("soft_query", nn::Linear(f, config_.policy_dim));
    soft_.key = register_module("soft_key", nn::Linear(f, config_.policy_dim));
    if (shape_.promotion_choices > 0)
      soft_.promotion = register_module("soft_promotion", nn::Linear(f, shape_.promotion_choices));
    soft_.drop = register_module("soft_drop", nn::Linear(f, shape_.piece_types));
  }
}

NetworkOutput NetworkImpl::forward(torch::Tensor x) {
  const int64_t batch = x.size(0);
  const int cells = shape_.cells();
  x = torch::relu(input_bn_(input_conv_(x)));
  for (const auto& block : *blocks_) x = block->as<ResidualBlock>()->forward(x);

  NetworkOutput out;
  // [B, F, R, C] -> [B, cells, F]: one embedding per cell, cells in index order (rank * files
  // + file), the order of the encoder's cell indices.
  torch::Tensor embed = torch::relu(policy_embed_(x)).flatten(2).transpose(1, 2);
  const double scale = std::sqrt(static_cast<double>(config_.policy_dim));
  out.pair = torch::matmul(query_(embed), key_(embed).transpose(1, 2)) / scale;
  out.promotion = promotion_ ? promotion_(embed).transpose(1, 2)
                             : torch::zeros({batch, 0, cells}, embed.options());
  out.drop = drop_(embed).transpose(1, 2);
  if (soft_.query) {
    out.soft_pair = torch::matmul(soft_.query(embed), soft_.key(embed).transpose(1, 2)) / scale;
    out.soft_promotion = soft_.promotion ? soft_.promotion(embed).transpose(1, 2)
                                         : torch::zeros({batch, 0, cells}, embed.options());
    out.soft_drop = soft_.drop(embed).transpose(1, 2);
  }

  torch::Tensor v = torch::relu(value_bn_(value_conv_(x))).flatten(1);
  out.value = value_fc2_(torch::relu(value_fc1_(v))).view({batch, shape_.value_heads, 3});
  if (moves_left_) out.moves_left = moves_left_(torch::relu(moves_left_hidden_(v))).view({batch});
  return out;
}

std::shared_ptr<NetworkImpl> make_network(const NetworkConfig& config, const NetworkShape& shape) {
  return std::make_shared<NetworkImpl>(config, shape);
}

namespace {

torch::Tensor logits_at(const torch::Tensor& pair, const torch::Tensor& promotion,
                        const torch::Tensor& drop, const torch::Tensor& indices) {
  const int64_t batch = pair.size(0), cells = pair.size(1);
  const int64_t promotions = promotion.size(1), types = drop.size(1);
  const int64_t cells2 = cells * cells;
  const int64_t drop_base = (1 + promotions) * cells2;
  // All head outputs side by side, then one zero column for "no second term".
  torch::Tensor flat =
      torch::cat({pair.reshape({batch, cells2}), promotion.reshape({batch, promotions * cells}),
                  drop.reshape({batch, types * cells}), torch::zeros({batch, 1}, pair.options())},
                 1);
  const int64_t zero_slot = flat.size(1) - 1;
  torch::Tensor idx = indices.to(torch::kLong);
  torch::Tensor is_drop = idx >= drop_base;
  torch::Tensor is_promotion = (idx >= cells2).logical_and(is_drop.logical_not());
  torch::Tensor from_to = idx.remainder(cells2);
  torch::Tensor first =
      torch::where(is_drop, idx - drop_base + cells2 + promotions * cells, from_to);
  torch::Tensor slot = (idx.div(cells2, "floor") - 1).clamp_min(0);
  torch::Tensor second = torch::where(is_promotion, cells2 + slot * cells + idx.remainder(cells),
                                      torch::full_like(idx, zero_slot));
  return flat.gather(1, first) + flat.gather(1, second);
}

}  // namespace

torch::Tensor policy_logits_at(const NetworkOutput& out, const torch::Tensor& indices) {
  return logits_at(out.pair, out.promotion, out.drop, indices);
}

torch::Tensor soft_policy_logits_at(const NetworkOutput& out, const torch::Tensor& indices) {
  if (!out.soft_pair.defined())
    throw std::logic_error("soft_policy_logits_at: the network has no soft policy head");
  return logits_at(out.soft_pair, out.soft_promotion, out.soft_drop, indices);
}

torch::Tensor soft_policy_target(const torch::Tensor& weight) {
  torch::Tensor soft = weight.clamp_min(0).pow(0.25);
  return soft / soft.sum(1, /*keepdim=*/true).clamp_min(1e-12);
}

}  // namespace fairyzero
