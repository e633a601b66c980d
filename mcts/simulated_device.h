// A stand-in for an accelerator, to measure and test the self-play pipeline on a CPU: every call
// takes a set latency whatever its size (up to a maximum batch), calls run one at a time as on
// one device, the outputs are cheap and deterministic, and it counts how busy it was.
#pragma once

#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>

#include "mcts/evaluator.h"

namespace fairyzero {

struct SimulatedDeviceConfig {
  double latency_ms = 8;  // per call, for any batch size up to max_batch
  int max_batch = 1024;
};

// "simulated:latency_ms=8,max_batch=1024" (either key may be left out). Throws SettingError
// naming the part that is wrong.
SimulatedDeviceConfig parse_simulated_device(const std::string& spec);
bool is_simulated_device(const std::string& device);

struct SimulatedDeviceStats {
  int64_t calls = 0;
  int64_t positions = 0;
  double busy_seconds = 0;     // inside calls
  double elapsed_seconds = 0;  // since construction or reset()
  double busy_fraction() const { return elapsed_seconds > 0 ? busy_seconds / elapsed_seconds : 0; }
  double mean_batch() const { return calls ? static_cast<double>(positions) / calls : 0; }
};

class SimulatedDevice : public Evaluator {
 public:
  explicit SimulatedDevice(const SimulatedDeviceConfig& config);

  // Uniform priors and an even score for every seat, after the latency. A batch larger than
  // max_batch is refused (std::invalid_argument): a real device has a largest batch too.
  void evaluate(std::span<const EvalRequest> batch, std::span<Evaluation> out) override;
  std::string name() const override;

  const SimulatedDeviceConfig& config() const { return config_; }
  SimulatedDeviceStats stats() const;
  void reset();  // zero the counts and restart the clock

 private:
  using Clock = std::chrono::steady_clock;
  SimulatedDeviceConfig config_;
  mutable std::mutex device_mutex_;  // one call at a time
  mutable std::mutex stats_mutex_;
  SimulatedDeviceStats stats_;
  Clock::time_point started_;
};

}  // namespace fairyzero
