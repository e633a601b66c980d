// The simulated accelerator: a latency per call under one lock, and its counts.
#include "mcts/simulated_device.h"

#include <cstdio>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "core/errors.h"

namespace fairyzero {

bool is_simulated_device(const std::string& device) {
  return device == "simulated" || device.rfind("simulated:", 0) == 0;
}

SimulatedDeviceConfig parse_simulated_device(const std::string& spec) {
  if (!is_simulated_device(spec))
    throw SettingError("device '" + spec + "' is not simulated:latency_ms=L,max_batch=B");
  SimulatedDeviceConfig config;
  const size_t colon = spec.find(':');
  std::istringstream parts(colon == std::string::npos ? "" : spec.substr(colon + 1));
  for (std::string part; std::getline(parts, part, ',');) {
    const size_t eq = part.find('=');
    const std::string key = part.substr(0, eq);
    const std::string text = eq == std::string::npos ? "" : part.substr(eq + 1);
    size_t used = 0;
    double value = 0;
    try {
      value = std::stod(text, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0 || used != text.size())
      throw SettingError("device '" + spec + "': '" + part + "' must be KEY=NUMBER");
    if (key == "latency_ms" && value >= 0 && value <= 10000) {
      config.latency_ms = value;
    } else if (key == "max_batch" && value >= 1 && value <= 1 << 20 &&
               value == static_cast<int>(value)) {
      config.max_batch = static_cast<int>(value);
    } else {
      throw SettingError("device '" + spec + "': '" + part +
                         "': expected latency_ms (0 to 10000) or max_batch (a whole number, 1 to "
                         "1048576)");
    }
  }
  return config;
}

SimulatedDevice::SimulatedDevice(const SimulatedDeviceConfig& config)
    : config_(config), started_(Clock::now()) {}

void SimulatedDevice::evaluate(std::span<const EvalRequest> batch, std::span<Evaluation> out) {
  if (static_cast<int>(batch.size()) > config_.max_batch)
    throw std::invalid_argument("simulated device: a batch of " + std::to_string(batch.size()) +
                                " is above its max_batch " + std::to_string(config_.max_batch));
  double busy = 0;
  {
    std::lock_guard device(device_mutex_);
    const auto start = Clock::now();
    for (size_t i = 0; i < batch.size(); ++i) {
      out[i].policy_logits.assign(batch[i].legal->size(), 0.0f);
      out[i].value.fill(0.5f);
      out[i].wdl = wdl_from_score(0.5f);
    }
    std::this_thread::sleep_until(
        start + std::chrono::duration_cast<Clock::duration>(
                    std::chrono::duration<double, std::milli>(config_.latency_ms)));
    busy = std::chrono::duration<double>(Clock::now() - start).count();
  }
  std::lock_guard lock(stats_mutex_);
  ++stats_.calls;
  stats_.positions += static_cast<int64_t>(batch.size());
  stats_.busy_seconds += busy;
}

std::string SimulatedDevice::name() const {
  char text[96];
  std::snprintf(text, sizeof text, "simulated(%g ms, max batch %d)", config_.latency_ms,
                config_.max_batch);
  return text;
}

SimulatedDeviceStats SimulatedDevice::stats() const {
  std::lock_guard lock(stats_mutex_);
  SimulatedDeviceStats s = stats_;
  s.elapsed_seconds = std::chrono::duration<double>(Clock::now() - started_).count();
  return s;
}

void SimulatedDevice::reset() {
  std::lock_guard lock(stats_mutex_);
  stats_ = {};
  started_ = Clock::now();
}

}  // namespace fairyzero
