// Folding batch norm into convolutions, casting, and the functional forward pass of the prepared
// network (the same computation as NetworkImpl::forward in eval mode).
#include "nn/prepared_network.h"

#include <cmath>
#include <stdexcept>

namespace fairyzero {

torch::ScalarType scalar_type(Precision precision) {
  switch (precision) {
    case Precision::kFloat16: return torch::kHalf;
    case Precision::kBFloat16: return torch::kBFloat16;
    case Precision::kFloat32: break;
  }
  return torch::kFloat;
}

namespace {

// The network's parameters and buffers by name ("blocks.3.conv1.weight").
class NamedState {
 public:
  explicit NamedState(NetworkImpl& network) : network_(network) {
    for (const auto& item : network.named_parameters()) tensors_[item.key()] = item.value();
    for (const auto& item : network.named_buffers()) tensors_[item.key()] = item.value();
  }
  torch::Tensor get(const std::string& name) const {
    auto it = tensors_.find(name);
    if (it == tensors_.end())
      throw std::invalid_argument("PreparedNetwork: the network has no '" + name + "'");
    return it->second.detach().to(torch::kCPU, torch::kDouble);
  }
  double batch_norm_eps(const std::string& name) const {
    for (const auto& item : network_.named_modules())
      if (item.key() == name)
        if (auto* bn = item.value()->as<torch::nn::BatchNorm2d>()) return bn->options.eps();
    throw std::invalid_argument("PreparedNetwork: the network has no batch norm '" + name + "'");
  }

 private:
  NetworkImpl& network_;
  std::map<std::string, torch::Tensor> tensors_;
};

}  // namespace

PreparedNetwork::PreparedNetwork(NetworkImpl& network, const PreparedNetworkOptions& options)
    : options_(options), config_(network.config()), shape_(network.shape()) {
  const NamedState state(network);
  const torch::ScalarType trunk_dtype = scalar_type(options.precision);
  head_dtype_ =
      options.device.is_cpu() && trunk_dtype == torch::kBFloat16 ? torch::kFloat : trunk_dtype;
  const auto memory =
      options.channels_last ? torch::MemoryFormat::ChannelsLast : torch::MemoryFormat::Contiguous;
  torch::ScalarType dtype = trunk_dtype;  // of what `place` makes: the trunk's, then the heads'
  auto place = [&](const torch::Tensor& t) { return t.to(options.device, dtype); };
  // Conv (no bias) then batch norm, as one conv: w * s and beta - mean * s, s = gamma / sd.
  auto folded = [&](const std::string& conv, const std::string& bn, int padding) {
    const torch::Tensor scale =
        state.get(bn + ".weight") /
        torch::sqrt(state.get(bn + ".running_var") + state.batch_norm_eps(bn));
    const torch::Tensor weight = state.get(conv + ".weight") * scale.view({-1, 1, 1, 1});
    const torch::Tensor bias = state.get(bn + ".bias") - state.get(bn + ".running_mean") * scale;
    return Conv{place(weight).contiguous(memory), place(bias), padding};
  };
  auto linear = [&](const std::string& name) {
    return Linear{place(state.get(name + ".weight")), place(state.get(name + ".bias"))};
  };
  input_ = folded("input_conv", "input_bn", 1);
  for (int b = 0; b < config_.blocks; ++b) {
    const std::string block = "blocks." + std::to_string(b);
    blocks_.push_back(folded(block + ".conv1", block + ".bn1", 1));
    blocks_.push_back(folded(block + ".conv2", block + ".bn2", 1));
  }
  dtype = head_dtype_;
  policy_embed_ = Conv{place(state.get("policy_embed.weight")).contiguous(memory),
                       place(state.get("policy_embed.bias")), 0};
  query_ = linear("query");
  key_ = linear("key");
  has_promotion_ = shape_.promotion_choices > 0;
  if (has_promotion_) promotion_ = linear("promotion");
  drop_ = linear("drop");
  value_conv_ = folded("value_conv", "value_bn", 0);
  value_fc1_ = linear("value_fc1");
  value_fc2_ = linear("value_fc2");
  if (config_.moves_left) {
    moves_left_hidden_ = linear("moves_left_hidden");
    moves_left_ = linear("moves_left");
  }
}

torch::Tensor PreparedNetwork::apply(const Conv& conv, const torch::Tensor& x) const {
  return torch::conv2d(x, conv.weight, conv.bias, /*stride=*/1, conv.padding);
}

torch::Tensor PreparedNetwork::prepare_input(const torch::Tensor& planes) const {
  torch::Tensor x = planes.to(options_.device, dtype());
  return options_.channels_last ? x.contiguous(torch::MemoryFormat::ChannelsLast) : x;
}

NetworkOutput PreparedNetwork::forward(const torch::Tensor& planes) const {
  const int64_t batch = planes.size(0);
  const int cells = shape_.cells();
  torch::Tensor x = torch::relu(apply(input_, planes));
  for (size_t b = 0; b < blocks_.size(); b += 2) {
    torch::Tensor y = torch::relu(apply(blocks_[b], x));
    x = torch::relu(apply(blocks_[b + 1], y) + x);
  }
  x = x.to(head_dtype_);
  NetworkOutput out;
  const torch::Tensor embed = torch::relu(apply(policy_embed_, x)).flatten(2).transpose(1, 2);
  const torch::Tensor q = torch::linear(embed, query_.weight, query_.bias);
  const torch::Tensor k = torch::linear(embed, key_.weight, key_.bias);
  out.pair =
      torch::matmul(q, k.transpose(1, 2)) / std::sqrt(static_cast<double>(config_.policy_dim));
  out.promotion = has_promotion_
                      ? torch::linear(embed, promotion_.weight, promotion_.bias).transpose(1, 2)
                      : torch::zeros({batch, 0, cells}, embed.options());
  out.drop = torch::linear(embed, drop_.weight, drop_.bias).transpose(1, 2);
  torch::Tensor v = torch::relu(apply(value_conv_, x)).flatten(1);
  const torch::Tensor hidden = torch::relu(torch::linear(v, value_fc1_.weight, value_fc1_.bias));
  out.value = torch::linear(hidden, value_fc2_.weight, value_fc2_.bias)
                  .view({batch, shape_.value_heads, 3});
  if (config_.moves_left) {
    const torch::Tensor m =
        torch::relu(torch::linear(v, moves_left_hidden_.weight, moves_left_hidden_.bias));
    out.moves_left = torch::linear(m, moves_left_.weight, moves_left_.bias).view({batch});
  }
  return out;
}

}  // namespace fairyzero
