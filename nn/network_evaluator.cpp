// NetworkEvaluator: planes in, one forward pass, logits of the legal moves and values out.
#include "nn/network_evaluator.h"

#include <algorithm>
#include <mutex>
#include <stdexcept>

#include "core/errors.h"
#include "nn/checkpoint.h"
#include "nn/network.h"

namespace fairyzero {

struct NetworkEvaluator::Impl {
  Encoder encoder;
  std::shared_ptr<NetworkImpl> network;
  torch::Device device{torch::kCPU};
  torch::ScalarType dtype = torch::kFloat;
  std::mutex forward_mutex;

  explicit Impl(VariantPtr variant) : encoder(std::move(variant)) {}
};

namespace {

torch::Device parse_device(const std::string& text) {
  torch::Device device(torch::kCPU);
  try {
    device = torch::Device(text);
  } catch (const std::exception&) {
    throw SettingError("unknown device '" + text + "' (use cpu, cuda or cuda:N)");
  }
  if (device.is_cuda()) {
    if (!torch::cuda::is_available())
      throw SettingError("device '" + text + "' asked for, but this LibTorch sees no CUDA device");
    if (device.has_index() && device.index() >= static_cast<int>(torch::cuda::device_count()))
      throw SettingError("device '" + text + "' does not exist (" +
                         std::to_string(torch::cuda::device_count()) + " CUDA devices)");
  } else if (!device.is_cpu()) {
    throw SettingError("device '" + text + "' is not supported (use cpu or cuda)");
  }
  return device;
}

}  // namespace

NetworkEvaluator::NetworkEvaluator(VariantPtr variant, const std::shared_ptr<NetworkImpl>& network,
                                   const NetworkEvaluatorOptions& options)
    : impl_(std::make_unique<Impl>(std::move(variant))) {
  if (!network) throw std::invalid_argument("NetworkEvaluator: no network");
  if (network->shape() != impl_->encoder.network_shape())
    throw std::invalid_argument(
        "NetworkEvaluator: the network was built for another shape than "
        "variant '" +
        impl_->encoder.variant().name + "' needs");
  impl_->device = parse_device(options.device);
  impl_->dtype = impl_->device.is_cuda() && options.half ? torch::kHalf : torch::kFloat;
  impl_->network = std::dynamic_pointer_cast<NetworkImpl>(network->clone(impl_->device));
  impl_->network->to(impl_->device, impl_->dtype);
  impl_->network->eval();
}

std::unique_ptr<NetworkEvaluator> NetworkEvaluator::from_checkpoint(
    const std::string& path, VariantPtr variant, const NetworkEvaluatorOptions& options) {
  std::shared_ptr<NetworkImpl> network = load_checkpoint(path, variant);
  return std::make_unique<NetworkEvaluator>(std::move(variant), network, options);
}

NetworkEvaluator::~NetworkEvaluator() = default;

const Encoder& NetworkEvaluator::encoder() const { return impl_->encoder; }

std::string NetworkEvaluator::name() const {
  return "network " + describe(impl_->network->config()) + " on " + impl_->device.str() +
         (impl_->dtype == torch::kHalf ? " (half)" : "");
}

void NetworkEvaluator::evaluate(std::span<const EvalRequest> batch, std::span<Evaluation> out) {
  if (out.size() != batch.size())
    throw std::invalid_argument("NetworkEvaluator::evaluate: out and batch differ in size");
  const int64_t n = static_cast<int64_t>(batch.size());
  if (n == 0) return;
  const Encoder& enc = impl_->encoder;

  // 1. Encode in the caller's thread: planes and the policy index of every legal move.
  int64_t widest = 1;
  for (const EvalRequest& r : batch) widest = std::max<int64_t>(widest, r.legal->size());
  const bool pin = impl_->device.is_cuda();
  torch::Tensor planes = torch::empty({n, enc.plane_count(), enc.ranks(), enc.files()},
                                      torch::TensorOptions().pinned_memory(pin));
  torch::Tensor indices =
      torch::zeros({n, widest}, torch::TensorOptions().dtype(torch::kLong).pinned_memory(pin));
  float* plane_data = planes.data_ptr<float>();
  int64_t* index_data = indices.data_ptr<int64_t>();
  for (int64_t i = 0; i < n; ++i) {
    const Position& pos = *batch[i].position;
    enc.encode(pos, plane_data + i * enc.plane_floats());
    const bool flip = enc.mirrored(pos);
    int k = 0;
    for (Move m : *batch[i].legal) index_data[i * widest + k++] = enc.policy_index(m, flip);
  }

  // 2. One forward pass, with the logits of the legal moves gathered on the device.
  torch::Tensor logits, wdl;
  {
    std::lock_guard<std::mutex> lock(impl_->forward_mutex);
    torch::NoGradGuard no_grad;
    torch::Tensor input = planes.to(impl_->device, impl_->dtype, /*non_blocking=*/pin);
    NetworkOutput result = impl_->network->forward(input);
    logits = policy_logits_at(result, indices.to(impl_->device, torch::kLong, /*non_blocking=*/pin))
                 .to(torch::kCPU, torch::kFloat)
                 .contiguous();
    wdl = torch::softmax(result.value.to(torch::kFloat), -1).to(torch::kCPU).contiguous();
  }

  // 3. Back to the search's terms.
  const float* logit_data = logits.data_ptr<float>();
  const float* wdl_data = wdl.data_ptr<float>();
  const int64_t wdl_stride = 3 * enc.value_heads();
  for (int64_t i = 0; i < n; ++i) {
    Evaluation& e = out[i];
    const int moves = batch[i].legal->size();
    e.policy_logits.assign(logit_data + i * widest, logit_data + i * widest + moves);
    const float* w = wdl_data + i * wdl_stride;
    e.value = enc.seat_values(*batch[i].position, w);
    e.wdl = {w[0], w[1], w[2]};
  }
}

}  // namespace fairyzero
