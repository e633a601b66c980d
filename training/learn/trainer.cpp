// The trainer: one optimizer step per batch, policy cross-entropy over each sample's target
// moves plus WDL cross-entropy per value head, a learning-rate schedule, CUDA autocast with a
// dynamic loss scale, and save/load of the weights with the optimizer's state beside them.
#include "training/learn/trainer.h"

#include <ATen/autocast_mode.h>
#include <c10/core/impl/LocalDispatchKeySet.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <numbers>
#include <stdexcept>

#include "core/errors.h"
#include "core/temporary_file.h"
#include "nn/checkpoint.h"
#include "nn/encoder.h"
#include "nn/network.h"

namespace fairyzero {

namespace {

constexpr const char* kOptimizerFormat = "fairyzero-optimizer-1";

// Logit given to padding entries of the policy target so that they drop out of the softmax.
// Finite rather than -inf: a row of padding only (no real move) then gives zeros, not NaN.
constexpr double kPaddingLogit = -1e9;

// The first line of a torch error: the rest is a C++ backtrace nobody acting on it needs.
std::string first_line(const std::exception& e) {
  std::string text = e.what();
  return text.substr(0, text.find('\n'));
}

torch::Device parse_device(const std::string& text) {
  torch::Device device(torch::kCPU);
  try {
    device = torch::Device(text);
  } catch (const std::exception&) {
    throw SettingError("trainer: unknown device '" + text + "' (use cpu, cuda or cuda:N)");
  }
  if (device.is_cuda()) {
    if (!torch::cuda::is_available())
      throw SettingError("trainer: device '" + text +
                         "' asked for, but this LibTorch sees no CUDA device");
    if (device.has_index() && device.index() >= static_cast<int>(torch::cuda::device_count()))
      throw SettingError("trainer: device '" + text + "' does not exist (" +
                         std::to_string(torch::cuda::device_count()) + " CUDA devices)");
  } else if (!device.is_cpu()) {
    throw SettingError("trainer: device '" + text + "' is not supported (use cpu or cuda)");
  }
  return device;
}

void check_config(const TrainerConfig& c) {
  auto fail = [](const std::string& what) { throw SettingError("trainer: " + what); };
  if (c.optimizer != "sgd" && c.optimizer != "adamw")
    fail("unknown optimizer '" + c.optimizer + "' (use sgd or adamw)");
  if (c.schedule != "constant" && c.schedule != "cosine" && c.schedule != "step")
    fail("unknown schedule '" + c.schedule + "' (use constant, cosine or step)");
  if (c.schedule == "cosine" && c.total_steps <= 0)
    fail("the cosine schedule needs total_steps > 0");
  if (c.schedule == "step" && c.milestones.empty())
    fail("the step schedule needs milestones (training.milestones)");
  if (!(c.learning_rate > 0)) fail("learning_rate must be positive");
  if (c.batch_size < 1) fail("batch_size must be at least 1");
  if (c.metrics_every < 1) fail("metrics_every must be at least 1");
}

// The learning rate of the step taken after `step` earlier steps.
double learning_rate_at(const TrainerConfig& c, int64_t step) {
  if (c.schedule == "cosine") {
    const double t = static_cast<double>(std::min(step, c.total_steps)) / c.total_steps;
    const double f = c.final_fraction;
    return c.learning_rate * (f + (1 - f) * 0.5 * (1 + std::cos(std::numbers::pi * t)));
  }
  double rate = c.learning_rate;
  if (c.schedule == "step")
    for (int64_t milestone : c.milestones)
      if (step >= milestone) rate *= 0.1;
  return rate;
}

// Turns CUDA autocast on for its lifetime (when `on`), then drops the cached half-precision
// copies of the weights, which the next optimizer step makes stale. This is what
// at::autocast::set_enabled(bool) does in LibTorch 1.13 and what set_autocast_enabled(kCUDA,
// bool) does in 2.x; we call the dispatch-key function both use because set_enabled is
// deprecated since 2.4 and prints a warning at every call. Backward runs outside the guard,
// as PyTorch advises.
class CudaAutocast {
 public:
  explicit CudaAutocast(bool on) : on_(on) {
    if (!on_) return;
    was_excluded_ = c10::impl::tls_is_dispatch_key_excluded(c10::DispatchKey::AutocastCUDA);
    c10::impl::tls_set_dispatch_key_excluded(c10::DispatchKey::AutocastCUDA, false);
  }
  ~CudaAutocast() {
    if (!on_) return;
    c10::impl::tls_set_dispatch_key_excluded(c10::DispatchKey::AutocastCUDA, was_excluded_);
    at::autocast::clear_cache();
  }
  CudaAutocast(const CudaAutocast&) = delete;
  CudaAutocast& operator=(const CudaAutocast&) = delete;

 private:
  bool on_;
  bool was_excluded_ = true;
};

// A dynamic loss scale, as torch.cuda.amp.GradScaler: float16 gradients of small losses
// underflow, so the loss is multiplied by `scale` before backward and the gradients divided by
// it after. A step with an inf/nan gradient is skipped and halves the scale; kGrowthInterval
// good steps in a row double it.
struct LossScaler {
  static constexpr double kInitialScale = 65536.0;
  static constexpr int kGrowthInterval = 2000;
  double scale = kInitialScale;
  int good_steps = 0;

  // Divides the gradients by the scale; returns whether all are finite (the step may be taken)
  // and adjusts the scale.
  bool unscale(const std::vector<torch::Tensor>& parameters) {
    std::vector<torch::Tensor> finite;
    for (const torch::Tensor& p : parameters) {
      if (!p.grad().defined()) continue;
      p.grad().mul_(1.0 / scale);
      finite.push_back(torch::isfinite(p.grad()).all());
    }
    // One device-to-host copy per step, for the whole model.
    const bool ok = finite.empty() || torch::stack(finite).all().item<bool>();
    if (!ok) {
      scale *= 0.5;
      good_steps = 0;
    } else if (++good_steps == kGrowthInterval) {
      scale *= 2.0;
      good_steps = 0;
    }
    return ok;
  }
};

// The batch as tensors on `device`, after checking its sizes and policy indices.
struct BatchTensors {
  torch::Tensor planes, index, weight, value_target;
  torch::Tensor plies_left;  // [n], negative where a sample has no moves-left target
};

BatchTensors to_tensors(const TrainingBatch& b, const Encoder& encoder, torch::Device device) {
  const int64_t n = b.size, k = b.max_moves, heads = encoder.value_heads();
  auto fail = [](const std::string& what) {
    throw std::invalid_argument("trainer batch: " + what);
  };
  if (n < 1) fail("no samples");
  if (k < 1) fail("max_moves must be at least 1");
  if (b.planes.size() != static_cast<size_t>(n * encoder.plane_floats()))
    fail("planes hold " + std::to_string(b.planes.size()) + " floats, expected " +
         std::to_string(n * encoder.plane_floats()));
  if (b.policy_index.size() != static_cast<size_t>(n * k) ||
      b.policy_weight.size() != static_cast<size_t>(n * k))
    fail("policy_index and policy_weight must hold size x max_moves entries");
  if (b.value_target.size() != static_cast<size_t>(n * heads * 3))
    fail("value_target must hold size x " + std::to_string(heads) + " x 3 floats");
  if (!b.plies_left.empty() && b.plies_left.size() != static_cast<size_t>(n))
    fail("plies_left must be empty or hold one float per sample");
  // policy_logits_at gathers at these indices: out of range would be a torch error on the CPU
  // and a device-side assert on CUDA.
  for (int64_t index : b.policy_index)
    if (index < 0 || index >= encoder.policy_size())
      fail("policy index " + std::to_string(index) + " outside [0, " +
           std::to_string(encoder.policy_size()) + ")");
  // from_blob wraps the batch's vectors without copying; .to() copies them to a CUDA device and
  // is a no-op on the CPU, where the tensors live only while the batch does.
  auto wrap = [&](const auto& data, std::vector<int64_t> sizes, torch::ScalarType type) {
    return torch::from_blob(const_cast<void*>(static_cast<const void*>(data.data())), sizes,
                            torch::TensorOptions().dtype(type))
        .to(device);
  };
  return {
      wrap(b.planes, {n, encoder.plane_count(), encoder.ranks(), encoder.files()}, torch::kFloat),
      wrap(b.policy_index, {n, k}, torch::kLong), wrap(b.policy_weight, {n, k}, torch::kFloat),
      wrap(b.value_target, {n, heads, 3}, torch::kFloat),
      b.plies_left.empty() ? torch::full({n}, -1.0f, torch::TensorOptions().device(device))
                           : wrap(b.plies_left, {n}, torch::kFloat)};
}

// Means over the batch, as float scalars; policy and value carry gradients.
struct Losses {
  torch::Tensor policy, value, moves_left, soft_policy, entropy, accuracy;
};

Losses compute_losses(const NetworkOutput& out, const BatchTensors& batch) {
  Losses losses;
  // Policy: softmax over each row's target moves only. Padding is index 0, the move from cell
  // 0 to cell 0, which no move has; a real move with zero weight (no visits) stays in the
  // softmax, as it was a legal alternative. Float from here on, also under autocast.
  torch::Tensor logits = policy_logits_at(out, batch.index).to(torch::kFloat);
  torch::Tensor real = batch.index.ne(0).logical_or(batch.weight.gt(0));
  torch::Tensor log_p =
      torch::log_softmax(logits.masked_fill(real.logical_not(), kPaddingLogit), 1);
  losses.policy = -(batch.weight * log_p).sum(1).mean();

  // Soft policy (KataGo): the same moves, the target raised to 1/4 and renormalised.
  if (out.soft_pair.defined()) {
    torch::Tensor soft_logits = soft_policy_logits_at(out, batch.index).to(torch::kFloat);
    torch::Tensor log_soft =
        torch::log_softmax(soft_logits.masked_fill(real.logical_not(), kPaddingLogit), 1);
    losses.soft_policy = -(soft_policy_target(batch.weight) * log_soft).sum(1).mean();
  } else {
    losses.soft_policy = torch::zeros(std::vector<int64_t>{}, logits.options());
  }

  // Value: cross-entropy of each head's W/D/L, averaged over heads and samples.
  torch::Tensor value_logits = out.value.to(torch::kFloat);
  torch::Tensor log_q = torch::log_softmax(value_logits, 2);
  losses.value = -(batch.value_target * log_q).sum(2).mean();

  // Moves left: Huber on plies / kMovesLeftScale, over the samples that have a target.
  if (out.moves_left.defined()) {
    torch::Tensor known = batch.plies_left.ge(0).to(torch::kFloat);
    torch::Tensor target = batch.plies_left.clamp_min(0) / kMovesLeftScale;
    torch::Tensor huber =
        torch::smooth_l1_loss(out.moves_left.to(torch::kFloat), target, at::Reduction::None);
    losses.moves_left = (huber * known).sum() / known.sum().clamp_min(1);
  } else {
    losses.moves_left = torch::zeros(std::vector<int64_t>{}, value_logits.options());
  }

  torch::NoGradGuard no_grad;
  torch::Tensor p = log_p.exp().masked_fill(real.logical_not(), 0);
  losses.entropy = -(p * log_p).sum(1).mean();
  losses.accuracy = value_logits.select(1, 0)
                        .argmax(1)
                        .eq(batch.value_target.select(1, 0).argmax(1))
                        .to(torch::kFloat)
                        .mean();
  return losses;
}

}  // namespace

struct Trainer::Impl {
  Encoder encoder;
  TrainerConfig config;
  torch::Device device;
  bool autocast;  // CUDA with mixed precision
  std::shared_ptr<NetworkImpl> network;
  std::unique_ptr<torch::optim::Optimizer> optimizer;
  LossScaler scaler;
  int64_t step = 0;
  GradientSync* sync = nullptr;  // other ranks, when data parallel

  Impl(const Encoder& enc, const NetworkConfig& net, const TrainerConfig& training)
      : encoder(enc),
        config(training),
        device(parse_device(training.device)),
        autocast(device.is_cuda() && training.mixed_precision) {
    check_config(config);
    network = make_network(net, encoder.network_shape());
    network->to(device, torch::kFloat);
    optimizer = make_optimizer();
  }

  std::unique_ptr<torch::optim::Optimizer> make_optimizer() const {
    const double lr = learning_rate_at(config, step);
    if (config.optimizer == "adamw")
      return std::make_unique<torch::optim::AdamW>(
          network->parameters(), torch::optim::AdamWOptions(lr).weight_decay(config.weight_decay));
    return std::make_unique<torch::optim::SGD>(network->parameters(),
                                               torch::optim::SGDOptions(lr)
                                                   .momentum(config.momentum)
                                                   .nesterov(config.momentum > 0)
                                                   .weight_decay(config.weight_decay));
  }

  // Optimizer::load brings back the options saved with the state; the config's win.
  void apply_config_options() {
    for (auto& group : optimizer->param_groups()) {
      if (config.optimizer == "adamw") {
        static_cast<torch::optim::AdamWOptions&>(group.options()).weight_decay(config.weight_decay);
      } else {
        static_cast<torch::optim::SGDOptions&>(group.options())
            .momentum(config.momentum)
            .nesterov(config.momentum > 0)
            .weight_decay(config.weight_decay);
      }
    }
  }

  // Every float tensor of `tensors` averaged over the ranks (or set to rank 0's), through one
  // flattened host buffer: one collective per step, and no device-specific backend needed.
  void synchronise(const std::vector<torch::Tensor>& tensors, bool broadcast) {
    std::vector<torch::Tensor> flat;
    for (const torch::Tensor& t : tensors) flat.push_back(t.detach().to(torch::kCPU).reshape(-1));
    if (flat.empty()) return;
    torch::Tensor buffer = torch::cat(flat).to(torch::kFloat).contiguous();
    if (broadcast)
      sync->broadcast(buffer.data_ptr<float>(), static_cast<size_t>(buffer.numel()));
    else
      sync->average(buffer.data_ptr<float>(), static_cast<size_t>(buffer.numel()));
    int64_t offset = 0;
    torch::NoGradGuard no_grad;
    for (const torch::Tensor& t : tensors) {
      const int64_t n = t.numel();
      t.copy_(buffer.narrow(0, offset, n).view(t.sizes()));
      offset += n;
    }
  }

  void average_gradients() {
    if (!sync) return;
    std::vector<torch::Tensor> grads;
    for (torch::Tensor& p : network->parameters()) {
      // A parameter this batch did not reach still takes part, so every rank sends the same
      // buffer layout.
      if (!p.mutable_grad().defined()) p.mutable_grad() = torch::zeros_like(p);
      grads.push_back(p.mutable_grad());
    }
    synchronise(grads, false);
  }

  // Running statistics of the normalisation layers (floats only; counters stay per rank).
  std::vector<torch::Tensor> float_buffers() {
    std::vector<torch::Tensor> out;
    for (const torch::Tensor& b : network->buffers())
      if (b.is_floating_point()) out.push_back(b);
    return out;
  }

  // One optimizer step; returns (policy, value, entropy, accuracy, moves left, soft policy),
  // detached, on the device.
  torch::Tensor train_step(const TrainingBatch& batch, double learning_rate) {
    const BatchTensors tensors = to_tensors(batch, encoder, device);
    for (auto& group : optimizer->param_groups()) group.options().set_lr(learning_rate);
    optimizer->zero_grad();
    Losses losses;
    {
      CudaAutocast guard(autocast);
      losses = compute_losses(network->forward(tensors.planes), tensors);
    }
    torch::Tensor total = losses.policy + config.value_loss_weight * losses.value +
                          config.moves_left_loss_weight * losses.moves_left +
                          config.soft_policy_loss_weight * losses.soft_policy;
    if (autocast) {
      (total * scaler.scale).backward();
      average_gradients();
      if (scaler.unscale(network->parameters())) optimizer->step();
    } else {
      total.backward();
      average_gradients();
      optimizer->step();
    }
    return torch::stack({losses.policy.detach(), losses.value.detach(), losses.entropy,
                         losses.accuracy, losses.moves_left.detach(), losses.soft_policy.detach()});
  }
};

Trainer::Trainer(const Encoder& encoder, const NetworkConfig& config, const TrainerConfig& training)
    : impl_(std::make_unique<Impl>(encoder, config, training)) {}

Trainer::~Trainer() = default;

int64_t Trainer::step() const { return impl_->step; }

void Trainer::set_total_steps(int64_t total_steps) {
  impl_->config.total_steps = std::max<int64_t>(total_steps, 1);
}

std::shared_ptr<NetworkImpl> Trainer::network() const { return impl_->network; }

std::vector<TrainingMetrics> Trainer::train(const std::function<TrainingBatch(int)>& next_batch,
                                            int steps) {
  Impl& t = *impl_;
  std::vector<TrainingMetrics> rows;
  t.network->train();
  using Clock = std::chrono::steady_clock;
  torch::Tensor sums = torch::zeros({6}, torch::TensorOptions().device(t.device));
  int chunk_steps = 0;
  int64_t chunk_samples = 0;
  Clock::time_point chunk_start = Clock::now();
  const int batch_size = t.config.batch_size / (t.sync ? t.sync->world_size() : 1);
  for (int i = 0; i < steps; ++i) {
    const TrainingBatch batch = next_batch(batch_size);
    const double rate = learning_rate_at(t.config, t.step);
    sums += t.train_step(batch, rate);
    ++t.step;
    ++chunk_steps;
    chunk_samples += batch.size;
    if (chunk_steps < t.config.metrics_every && i + 1 < steps) continue;

    // Reading the sums waits for the device, so the wall time covers the chunk's work.
    torch::Tensor means = (sums / chunk_steps).to(torch::kCPU, torch::kDouble);
    const double seconds = std::chrono::duration<double>(Clock::now() - chunk_start).count();
    const double* m = means.data_ptr<double>();
    TrainingMetrics row;
    row.step = t.step;
    row.learning_rate = rate;  // of the chunk's last step
    row.policy_loss = m[0];
    row.value_loss = m[1];
    row.moves_left_loss = m[4];
    row.soft_policy_loss = m[5];
    row.total_loss = m[0] + t.config.value_loss_weight * m[1] +
                     t.config.moves_left_loss_weight * m[4] +
                     t.config.soft_policy_loss_weight * m[5];
    row.policy_entropy = m[2];
    row.value_accuracy = m[3];
    row.samples_per_second = seconds > 0 ? chunk_samples / seconds : 0;
    rows.push_back(row);

    sums.zero_();
    chunk_steps = 0;
    chunk_samples = 0;
    chunk_start = Clock::now();
  }
  if (t.sync) t.synchronise(t.float_buffers(), false);
  return rows;
}

BatchEvaluation Trainer::evaluate(const TrainingBatch& batch) {
  Impl& t = *impl_;
  t.network->eval();  // train() sets training mode again
  torch::NoGradGuard no_grad;
  const BatchTensors tensors = to_tensors(batch, t.encoder, t.device);
  Losses losses;
  torch::Tensor value_logits;
  {
    CudaAutocast guard(t.autocast);
    const NetworkOutput out = t.network->forward(tensors.planes);
    losses = compute_losses(out, tensors);
    value_logits = out.value.to(torch::kFloat);
  }
  // Expected score of the first head: W + D/2, predicted and targeted.
  const torch::Tensor weights = torch::tensor({1.0f, 0.5f, 0.0f}).to(t.device);
  const torch::Tensor predicted =
      (torch::softmax(value_logits.select(1, 0), 1) * weights).sum(1).to(torch::kCPU).contiguous();
  const torch::Tensor target =
      (tensors.value_target.select(1, 0) * weights).sum(1).to(torch::kCPU).contiguous();
  BatchEvaluation result;
  result.policy_loss = losses.policy.item<double>();
  result.value_loss = losses.value.item<double>();
  result.moves_left_loss = losses.moves_left.item<double>();
  result.soft_policy_loss = losses.soft_policy.item<double>();
  result.predicted_score.assign(predicted.data_ptr<float>(),
                                predicted.data_ptr<float>() + predicted.numel());
  result.target_score.assign(target.data_ptr<float>(), target.data_ptr<float>() + target.numel());
  return result;
}

void Trainer::set_gradient_sync(GradientSync* sync) {
  Impl& t = *impl_;
  if (sync && t.config.batch_size % sync->world_size() != 0)
    throw std::invalid_argument("trainer.batch_size " + std::to_string(t.config.batch_size) +
                                " does not divide by the " + std::to_string(sync->world_size()) +
                                " ranks of the trainer");
  t.sync = sync;
  if (!sync) return;
  std::vector<torch::Tensor> state = t.network->parameters();
  for (const torch::Tensor& b : t.float_buffers()) state.push_back(b);
  t.synchronise(state, true);
}

void Trainer::save(const std::string& checkpoint, const std::string& optimizer_state,
                   const std::string& seat) const {
  const Impl& t = *impl_;
  save_checkpoint(checkpoint, *t.network, t.encoder, t.step, seat);
  if (optimizer_state.empty()) return;

  torch::serialize::OutputArchive archive, state;
  t.optimizer->save(state);
  archive.write("optimizer", state);
  archive.write("fairyzero_format", c10::IValue(std::string(kOptimizerFormat)));
  archive.write("fairyzero_optimizer", c10::IValue(t.config.optimizer));
  archive.write("fairyzero_step", c10::IValue(t.step));
  archive.write("fairyzero_loss_scale", c10::IValue(t.scaler.scale));
  archive.write("fairyzero_good_steps", c10::IValue(static_cast<int64_t>(t.scaler.good_steps)));

  // As save_checkpoint: a private name in the same folder, renamed over the file when complete.
  const std::string temp = temporary_name(optimizer_state);
  std::error_code ec;
  try {
    archive.save_to(temp);
  } catch (const std::exception& e) {
    std::filesystem::remove(temp, ec);
    throw CheckpointError("cannot write optimizer state '" + optimizer_state + "' (via '" + temp +
                          "'): " + first_line(e));
  }
  std::filesystem::rename(temp, optimizer_state, ec);
  if (ec) {
    std::error_code ignored;
    std::filesystem::remove(temp, ignored);
    throw CheckpointError("cannot move '" + temp + "' to optimizer state '" + optimizer_state +
                          "': " + ec.message());
  }
}

void Trainer::load(const std::string& checkpoint, const std::string& optimizer_state,
                   const std::string& seat) {
  Impl& t = *impl_;
  // Checks the variant, encoder version, config and shape before touching the weights. The
  // parameters keep their identity, so the optimizer's references to them stay valid.
  load_checkpoint_into(checkpoint, t.encoder.variant_ptr(), *t.network, seat);
  t.step = read_checkpoint_info(checkpoint).step;
  // Momentum of other weights would be wrong for these: fresh unless the state file fits.
  t.optimizer = t.make_optimizer();
  t.scaler = LossScaler{};

  std::error_code ec;
  if (optimizer_state.empty() || !std::filesystem::exists(optimizer_state, ec)) return;
  torch::serialize::InputArchive archive;
  try {
    archive.load_from(optimizer_state, t.device);
  } catch (const std::exception& e) {
    throw CheckpointError("optimizer state '" + optimizer_state +
                          "' cannot be read (truncated or damaged?): " + first_line(e));
  }
  c10::IValue format, name, step, scale, good_steps;
  if (!archive.try_read("fairyzero_format", format) || !format.isString() ||
      format.toStringRef() != kOptimizerFormat || !archive.try_read("fairyzero_optimizer", name) ||
      !archive.try_read("fairyzero_step", step) ||
      !archive.try_read("fairyzero_loss_scale", scale) ||
      !archive.try_read("fairyzero_good_steps", good_steps))
    throw CheckpointError("'" + optimizer_state + "' is not a FairyZero optimizer state");
  // Another optimizer's state is of no use; a state of another step is left from a save that
  // was interrupted between the two files and belongs to other weights. Start afresh then.
  if (name.toStringRef() != t.config.optimizer || step.toInt() != t.step) return;
  try {
    torch::serialize::InputArchive state;
    archive.read("optimizer", state);
    t.optimizer->load(state);
  } catch (const std::exception& e) {
    t.optimizer = t.make_optimizer();
    throw CheckpointError("optimizer state '" + optimizer_state +
                          "' does not fit this network: " + first_line(e));
  }
  t.apply_config_options();
  t.scaler.scale = scale.toDouble();
  t.scaler.good_steps = static_cast<int>(good_steps.toInt());
}

}  // namespace fairyzero
