// NetworkEvaluator: rows encoded by the callers, a staging per server thread (pinned buffers and
// a stream on CUDA), one forward pass of the prepared network, logits of the legal moves and
// values out.
#include "nn/network_evaluator.h"

#include <c10/core/StreamGuard.h>
#include <c10/core/impl/DeviceGuardImplInterface.h>

#include <algorithm>
#include <cstring>
#include <mutex>
#include <optional>
#include <stdexcept>

#include "core/errors.h"
#include "nn/checkpoint.h"
#include "nn/network.h"
#include "nn/packed_planes.h"
#include "nn/prepared_network.h"

namespace fairyzero {
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
    if (!device.has_index()) device.set_index(0);
  } else if (!device.is_cpu()) {
    throw SettingError("device '" + text + "' is not supported (use cpu or cuda)");
  }
  return device;
}

// One server thread's buffers, reused batch after batch.
class NetworkStaging : public StagedEvaluator::Staging {
 public:
  NetworkStaging(int max_rows, size_t row_bytes, const torch::Device& device)
      : pinned_(device.is_cuda()) {
    input_ = torch::empty({max_rows, static_cast<int64_t>(row_bytes)}, host(torch::kUInt8));
    // Streams come through c10's device-generic interface, so a CPU-only LibTorch links too.
    if (device.is_cuda())
      stream_ = c10::impl::getDeviceGuardImpl(device.type())->getStreamFromGlobalPool(device);
  }
  std::byte* rows() override { return reinterpret_cast<std::byte*>(input_.data_ptr<uint8_t>()); }

  torch::Tensor input(int64_t n) const { return input_.narrow(0, 0, n); }
  // Host buffers of at least `size` elements, grown when a batch needs more.
  torch::Tensor& indices(int64_t size) { return grown(indices_, size, torch::kLong); }
  torch::Tensor& logits(int64_t size) { return grown(logits_, size, torch::kFloat); }
  torch::Tensor& wdl(int64_t size) { return grown(wdl_, size, torch::kFloat); }
  torch::Tensor& moves_left(int64_t size) { return grown(moves_left_, size, torch::kFloat); }
  const std::optional<c10::Stream>& stream() const { return stream_; }

 private:
  torch::TensorOptions host(torch::ScalarType type) const {
    return torch::TensorOptions().dtype(type).pinned_memory(pinned_);
  }
  torch::Tensor& grown(torch::Tensor& buffer, int64_t size, torch::ScalarType type) {
    if (!buffer.defined() || buffer.numel() < size) buffer = torch::empty({size * 2}, host(type));
    return buffer;
  }

  bool pinned_;
  torch::Tensor input_, indices_, logits_, wdl_, moves_left_;
  std::optional<c10::Stream> stream_;
};

}  // namespace

struct NetworkEvaluator::Impl {
  Encoder encoder;
  torch::Device device{torch::kCPU};
  bool packed = false;  // rows as bits (CUDA) or floats (CPU)
  std::unique_ptr<PreparedNetwork> network;
  std::unique_ptr<PlaneUnpacker> unpacker;
  std::mutex cpu_forward_mutex;

  explicit Impl(VariantPtr variant) : encoder(std::move(variant)) {}

  void run(std::span<const EvalRequest> batch, NetworkStaging& staging, std::span<Evaluation> out);
};

NetworkEvaluator::NetworkEvaluator(VariantPtr variant, const std::shared_ptr<NetworkImpl>& network,
                                   const NetworkEvaluatorOptions& options)
    : impl_(std::make_unique<Impl>(std::move(variant))) {
  if (!network) throw std::invalid_argument("NetworkEvaluator: no network");
  if (network->shape() != impl_->encoder.network_shape())
    throw std::invalid_argument(
        "NetworkEvaluator: the network was built for another shape than "
        "variant '" +
        impl_->encoder.variant().name + "' needs");
  Impl& impl = *impl_;
  impl.device = parse_device(options.device);
  const bool cuda = impl.device.is_cuda();
  const Precision precision = precision_on_device(impl.device.str(), options.precision);
  if (cuda) at::globalContext().setBenchmarkCuDNN(true);  // batch sizes repeat: autotune once
  impl.network = std::make_unique<PreparedNetwork>(
      *network, PreparedNetworkOptions{.device = impl.device,
                                       .precision = precision,
                                       .channels_last = cuda && precision != Precision::kFloat32});
  impl.packed = cuda;
  if (impl.packed) impl.unpacker = std::make_unique<PlaneUnpacker>(impl.encoder, impl.device);
}

std::unique_ptr<NetworkEvaluator> NetworkEvaluator::from_checkpoint(
    const std::string& path, VariantPtr variant, const NetworkEvaluatorOptions& options) {
  std::shared_ptr<NetworkImpl> network = load_checkpoint(path, variant);
  return std::make_unique<NetworkEvaluator>(std::move(variant), network, options);
}

NetworkEvaluator::~NetworkEvaluator() = default;

const Encoder& NetworkEvaluator::encoder() const { return impl_->encoder; }

std::string NetworkEvaluator::name() const {
  const PreparedNetworkOptions& o = impl_->network->options();
  return "network " + describe(impl_->network->config()) + " on " + impl_->device.str() + " (" +
         precision_name(o.precision) + (o.channels_last ? ", channels_last" : "") + ")";
}

size_t NetworkEvaluator::row_bytes() const {
  return impl_->packed ? impl_->encoder.packed_row_bytes()
                       : sizeof(float) * impl_->encoder.plane_floats();
}

void NetworkEvaluator::encode_row(const EvalRequest& request, std::byte* row) const {
  if (impl_->packed)
    impl_->encoder.encode_packed(*request.position, row);
  else
    impl_->encoder.encode(*request.position, reinterpret_cast<float*>(row));
}

std::unique_ptr<StagedEvaluator::Staging> NetworkEvaluator::make_staging(int max_rows) {
  return std::make_unique<NetworkStaging>(max_rows, row_bytes(), impl_->device);
}

void NetworkEvaluator::evaluate_staged(std::span<const EvalRequest> batch, Staging& staging,
                                       std::span<Evaluation> out) {
  if (out.size() != batch.size())
    throw std::invalid_argument("NetworkEvaluator::evaluate: out and batch differ in size");
  impl_->run(batch, static_cast<NetworkStaging&>(staging), out);
}

void NetworkEvaluator::evaluate(std::span<const EvalRequest> batch, std::span<Evaluation> out) {
  if (out.size() != batch.size())
    throw std::invalid_argument("NetworkEvaluator::evaluate: out and batch differ in size");
  if (batch.empty()) return;
  // Called directly (no server): a staging for this call, encoded here.
  NetworkStaging staging(static_cast<int>(batch.size()), row_bytes(), impl_->device);
  for (size_t i = 0; i < batch.size(); ++i) encode_row(batch[i], staging.rows() + i * row_bytes());
  impl_->run(batch, staging, out);
}

void NetworkEvaluator::Impl::run(std::span<const EvalRequest> batch, NetworkStaging& staging,
                                 std::span<Evaluation> out) {
  const int64_t n = static_cast<int64_t>(batch.size());
  if (n == 0) return;
  // The policy index of every legal move, row by row, padded to the widest row.
  int64_t widest = 1;
  for (const EvalRequest& r : batch) widest = std::max<int64_t>(widest, r.legal->size());
  torch::Tensor indices = staging.indices(n * widest).narrow(0, 0, n * widest).view({n, widest});
  int64_t* index_data = indices.data_ptr<int64_t>();
  std::fill(index_data, index_data + n * widest, 0);
  for (int64_t i = 0; i < n; ++i) {
    const bool flip = encoder.mirrored(*batch[i].position);
    int k = 0;
    for (Move m : *batch[i].legal) index_data[i * widest + k++] = encoder.policy_index(m, flip);
  }
  const int64_t wdl_width = 3 * encoder.value_heads();
  torch::Tensor logits = staging.logits(n * widest).narrow(0, 0, n * widest).view({n, widest});
  torch::Tensor wdl = staging.wdl(n * wdl_width).narrow(0, 0, n * wdl_width).view({n, wdl_width});
  const bool has_moves_left = network->config().moves_left;
  torch::Tensor plies_left = staging.moves_left(n).narrow(0, 0, n);

  {
    std::unique_lock<std::mutex> cpu_turn(cpu_forward_mutex, std::defer_lock);
    if (!device.is_cuda()) cpu_turn.lock();
    std::optional<c10::StreamGuard> on_stream;
    if (staging.stream()) on_stream.emplace(*staging.stream());
    torch::Tensor device_logits, device_wdl, device_plies_left;
    {
      c10::InferenceMode inference;
      const bool async = device.is_cuda();
      torch::Tensor rows = staging.input(n).to(device, /*non_blocking=*/async);
      torch::Tensor planes =
          packed ? unpacker->unpack(rows, network->dtype())
                 : rows.view(torch::kFloat)
                       .view({n, encoder.plane_count(), encoder.ranks(), encoder.files()});
      NetworkOutput result = network->forward(network->prepare_input(planes));
      device_logits =
          policy_logits_at(result, indices.to(device, /*non_blocking=*/async)).to(torch::kFloat);
      device_wdl = torch::softmax(result.value.to(torch::kFloat), -1).reshape({n, wdl_width});
      if (has_moves_left)
        device_plies_left = result.moves_left.to(torch::kFloat).clamp_min(0) * kMovesLeftScale;
    }
    // Back into this thread's pinned buffers, then wait for this stream only.
    logits.copy_(device_logits, /*non_blocking=*/device.is_cuda());
    wdl.copy_(device_wdl, /*non_blocking=*/device.is_cuda());
    if (has_moves_left) plies_left.copy_(device_plies_left, /*non_blocking=*/device.is_cuda());
    if (staging.stream()) staging.stream()->synchronize();
  }

  const float* logit_data = logits.data_ptr<float>();
  const float* wdl_data = wdl.data_ptr<float>();
  for (int64_t i = 0; i < n; ++i) {
    Evaluation& e = out[i];
    const int moves = batch[i].legal->size();
    e.policy_logits.assign(logit_data + i * widest, logit_data + i * widest + moves);
    const float* w = wdl_data + i * wdl_width;
    e.value = encoder.seat_values(*batch[i].position, w);
    e.wdl = {w[0], w[1], w[2]};
    e.moves_left = has_moves_left ? plies_left.data_ptr<float>()[i] : -1.0f;
  }
}

bool cpu_has_native_bfloat16() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx512bf16");
#else
  return false;
#endif
}

Precision precision_on_device(const std::string& device, Precision asked) {
  if (parse_device(device).is_cuda() || asked == Precision::kFloat32) return asked;
  return asked == Precision::kBFloat16 && cpu_has_native_bfloat16() ? asked : Precision::kFloat32;
}

void set_cpu_forward_threads(int threads) { at::set_num_threads(std::max(1, threads)); }

}  // namespace fairyzero
