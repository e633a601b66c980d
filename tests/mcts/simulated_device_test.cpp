// The simulated accelerator: its settings read from a device string, its latency per call and
// largest batch, cheap outputs of the right shape, and its busy time.
#include "mcts/simulated_device.h"

#include <gtest/gtest.h>

#include "core/errors.h"
#include "tests/support/evaluation_batch.h"

namespace fairyzero {
namespace {

using testing::Batch;
using testing::variant;

TEST(SimulatedDevice, ReadsItsSettingsAndRefusesBadOnes) {
  const SimulatedDeviceConfig config =
      parse_simulated_device("simulated:latency_ms=2.5,max_batch=64");
  EXPECT_DOUBLE_EQ(config.latency_ms, 2.5);
  EXPECT_EQ(config.max_batch, 64);
  EXPECT_EQ(parse_simulated_device("simulated").max_batch, SimulatedDeviceConfig{}.max_batch);
  EXPECT_TRUE(is_simulated_device("simulated:max_batch=8"));
  EXPECT_FALSE(is_simulated_device("cuda"));
  for (const char* bad : {"simulated:latency=3", "simulated:max_batch=0", "simulated:max_batch=2.5",
                          "simulated:latency_ms=fast", "cpu"})
    EXPECT_THROW(parse_simulated_device(bad), SettingError) << bad;
}

TEST(SimulatedDevice, EachCallTakesItsLatencyAndLargerBatchesAreRefused) {
  VariantPtr v = variant("chess");
  Batch batch(v, 2, 8);
  ASSERT_GT(batch.requests.size(), 8u);
  const std::span<const EvalRequest> eight = std::span(batch.requests).first(8);
  SimulatedDevice device({.latency_ms = 20, .max_batch = 8});
  std::vector<Evaluation> out(8);
  const auto start = std::chrono::steady_clock::now();
  device.evaluate(eight, out);
  device.evaluate(std::span(batch.requests).first(2), std::span(out).first(2));
  EXPECT_GE(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(40))
      << "two calls, 20 ms each, whatever their size";
  for (size_t i = 0; i < out.size(); ++i) {
    EXPECT_EQ(out[i].policy_logits.size(), static_cast<size_t>(batch.legal[i].size()));
    EXPECT_FLOAT_EQ(out[i].value[0], 0.5f);
  }
  const SimulatedDeviceStats stats = device.stats();
  EXPECT_EQ(stats.calls, 2);
  EXPECT_EQ(stats.positions, 10);
  EXPECT_GE(stats.busy_seconds, 0.040);
  EXPECT_LE(stats.busy_fraction(), 1.0);

  std::vector<Evaluation> many(batch.requests.size());
  EXPECT_THROW(device.evaluate(batch.requests, many), std::invalid_argument);
  device.reset();
  EXPECT_EQ(device.stats().calls, 0);
}

}  // namespace
}  // namespace fairyzero
