// InferenceServer: the same results as direct calls, batching across threads, large requests
// split, backend errors passed on, shutdown. No torch: the backend is a fake evaluator.
#include "mcts/inference_server.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <thread>

#include "tests/support/evaluation_batch.h"

namespace fairyzero {
namespace {

using testing::Batch;
using testing::run_clients;
using testing::variant;

// A backend whose answer depends only on the position, that records its batch sizes and can be
// slowed down or made to fail.
class FakeEvaluator : public Evaluator {
 public:
  std::atomic<int> calls{0}, largest{0};
  std::atomic<bool> fail{false};
  int delay_ms = 0;
  void evaluate(std::span<const EvalRequest> batch, std::span<Evaluation> out) override {
    ++calls;
    largest = std::max<int>(largest, static_cast<int>(batch.size()));
    if (delay_ms) std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms));
    if (fail) throw std::runtime_error("backend failed");
    for (size_t i = 0; i < batch.size(); ++i) {
      const uint64_t h = batch[i].position->hash();
      out[i].policy_logits.assign(batch[i].legal->size(), static_cast<float>(h % 1000));
      out[i].value = {static_cast<float>(h % 7) / 7, 0, 0, 0};
    }
  }
  std::string name() const override { return "fake"; }
};

TEST(InferenceServer, FourClientsGetDirectResultsInBatches) {
  VariantPtr v = variant("chess");
  Batch batch(v, 4, 50);
  auto backend = std::make_shared<FakeEvaluator>();
  InferenceServer server(backend, {.max_batch = 4, .max_wait_us = 200000, .threads = 1});
  FakeEvaluator direct;
  run_clients(server, direct, batch, 4, 0);
  const InferenceServerStats stats = server.stats();
  EXPECT_EQ(stats.positions, static_cast<int64_t>(batch.requests.size()));
  EXPECT_GT(stats.mean_batch(), 2.0);
  EXPECT_LE(backend->largest, 4);
}

TEST(InferenceServer, SplitsLargeRequestsAndZeroWaitRunsAtOnce) {
  VariantPtr v = variant("chess");
  Batch batch(v, 1, 10);
  auto backend = std::make_shared<FakeEvaluator>();
  InferenceServer server(backend, {.max_batch = 4, .max_wait_us = 0});
  std::vector<Evaluation> out(batch.requests.size()), expected(batch.requests.size());
  server.evaluate(batch.requests, out);
  FakeEvaluator().evaluate(batch.requests, expected);
  for (size_t i = 0; i < out.size(); ++i) EXPECT_EQ(out[i].value[0], expected[i].value[0]);
  EXPECT_EQ(server.stats().batches, 3);  // 10 positions in batches of at most 4
}

TEST(InferenceServer, BackendErrorsReachTheCallers) {
  VariantPtr v = variant("chess");
  Batch batch(v, 1, 2);
  auto backend = std::make_shared<FakeEvaluator>();
  backend->fail = true;
  InferenceServer server(backend, {.max_batch = 8, .max_wait_us = 100});
  std::vector<Evaluation> out(1);
  EXPECT_THROW(server.evaluate(std::span(batch.requests).subspan(0, 1), out), std::runtime_error);
  backend->fail = false;
  server.evaluate(std::span(batch.requests).subspan(0, 1), out);  // still serving
}

TEST(InferenceServer, ShutdownCompletesWaitingCallersThenRefuses) {
  VariantPtr v = variant("chess");
  Batch batch(v, 1, 6);
  auto backend = std::make_shared<FakeEvaluator>();
  backend->delay_ms = 50;
  InferenceServer server(backend, {.max_batch = 2, .max_wait_us = 10000});
  std::atomic<int> completed{0}, refused{0};
  std::vector<std::thread> clients;
  for (int t = 0; t < 5; ++t) {
    clients.emplace_back([&, t] {
      Evaluation e;
      try {
        server.evaluate(std::span(batch.requests).subspan(t, 1), std::span(&e, 1));
        ++completed;
      } catch (const std::runtime_error&) {
        ++refused;  // a client the scheduler started only after shutdown
      }
    });
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  server.shutdown();
  for (std::thread& c : clients) c.join();
  EXPECT_EQ(completed + refused, 5);
  EXPECT_GE(completed, 1);
  std::vector<Evaluation> out(1);
  EXPECT_THROW(server.evaluate(std::span(batch.requests).subspan(0, 1), out), std::runtime_error);
}

// With every client's request queued no more can come: the batch goes at once, not after the
// deadline (a minute here, which the test would otherwise wait out).
TEST(InferenceServer, ABatchClosesWhenEveryClientHasQueued) {
  VariantPtr v = variant("chess");
  Batch batch(v, 1, 3);
  auto backend = std::make_shared<FakeEvaluator>();
  InferenceServer server(backend, {.max_batch = 1000, .max_wait_us = 60'000'000, .clients = 3});
  const auto start = std::chrono::steady_clock::now();
  std::vector<std::thread> clients;
  for (int t = 0; t < 3; ++t)
    clients.emplace_back([&, t] {
      Evaluation e;
      server.evaluate(std::span(batch.requests).subspan(t, 1), std::span(&e, 1));
    });
  for (std::thread& c : clients) c.join();
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(30));
  EXPECT_EQ(server.stats().positions, 3);
  EXPECT_EQ(server.stats().batches, 1) << "the three requests in one batch";
}

}  // namespace
}  // namespace fairyzero
