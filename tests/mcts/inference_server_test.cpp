// InferenceServer: the same results as direct calls, batching across threads, large requests
// split, backend errors passed on, shutdown. No torch: the backend is a fake evaluator.
#include "mcts/inference_server.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <future>
#include <mutex>
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
  std::vector<int> sizes() {
    std::lock_guard lock(mutex_);
    return sizes_;
  }
  void evaluate(std::span<const EvalRequest> batch, std::span<Evaluation> out) override {
    ++calls;
    {
      std::lock_guard lock(mutex_);
      sizes_.push_back(static_cast<int>(batch.size()));
    }
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

 private:
  std::mutex mutex_;
  std::vector<int> sizes_;
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

// Requests are cut across batches, so with enough waiting every batch is full: two requests of
// six queued at once go as three batches of four, and each caller gets its own results.
TEST(InferenceServer, RequestsAreSplitAcrossBatchesSoBatchesAreFull) {
  VariantPtr v = variant("chess");
  Batch batch(v, 1, 12);
  ASSERT_GE(batch.requests.size(), 12u);
  auto backend = std::make_shared<FakeEvaluator>();
  InferenceServer server(backend, {.max_batch = 4, .max_wait_us = 60'000'000});
  std::vector<Evaluation> first(6), second(6), expected(12);
  std::future<void> a = server.evaluate_async(std::span(batch.requests).subspan(0, 6), first);
  std::future<void> b = server.evaluate_async(std::span(batch.requests).subspan(6, 6), second);
  a.get();
  b.get();
  EXPECT_EQ(backend->sizes(), (std::vector<int>{4, 4, 4}));
  FakeEvaluator().evaluate(std::span(batch.requests).first(12), expected);
  for (size_t i = 0; i < 6; ++i) {
    EXPECT_EQ(first[i].value[0], expected[i].value[0]);
    EXPECT_EQ(second[i].value[0], expected[6 + i].value[0]);
  }
}

// A client whose request is being evaluated cannot send another: with the other client's
// request queued, every client is waiting on the server, so that batch goes at once (not after
// the minute's deadline) while the first is still on the device.
TEST(InferenceServer, ARequestInFlightCountsAsItsClientsTurn) {
  VariantPtr v = variant("chess");
  Batch batch(v, 1, 3);
  auto backend = std::make_shared<FakeEvaluator>();
  backend->delay_ms = 300;
  InferenceServer server(backend,
                         {.max_batch = 2, .max_wait_us = 60'000'000, .clients = 2, .threads = 2});
  std::vector<Evaluation> first(2), second(1);
  const auto start = std::chrono::steady_clock::now();
  std::future<void> full = server.evaluate_async(std::span(batch.requests).first(2), first);
  std::this_thread::sleep_for(std::chrono::milliseconds(50));  // on the device now
  std::future<void> alone = server.evaluate_async(std::span(batch.requests).subspan(2, 1), second);
  alone.get();
  full.get();
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(30));
  EXPECT_EQ(backend->sizes(), (std::vector<int>{2, 1}));
}

// Servers sharing one device take turns; a batch that waited for its turn takes the rows that
// arrived meanwhile instead of leaving them for a later batch.
TEST(InferenceServer, ABatchThatWaitedForTheDeviceTakesWhatArrivedMeanwhile) {
  VariantPtr v = variant("chess");
  Batch batch(v, 1, 3);
  auto gate = std::make_shared<DeviceGate>(1);
  auto busy = std::make_shared<FakeEvaluator>();
  busy->delay_ms = 600;
  auto backend = std::make_shared<FakeEvaluator>();
  InferenceServer holder(busy, {.max_batch = 8, .max_wait_us = 0, .gate = gate});
  InferenceServer server(backend, {.max_batch = 8, .max_wait_us = 0, .gate = gate});
  std::vector<Evaluation> held(1), early(1), late(1);
  std::future<void> device_busy = holder.evaluate_async(std::span(batch.requests).first(1), held);
  std::this_thread::sleep_for(std::chrono::milliseconds(100));  // the holder has the device
  std::future<void> a = server.evaluate_async(std::span(batch.requests).subspan(1, 1), early);
  std::this_thread::sleep_for(std::chrono::milliseconds(100));  // gathered, waiting its turn
  std::future<void> b = server.evaluate_async(std::span(batch.requests).subspan(2, 1), late);
  a.get();
  b.get();
  device_busy.get();
  EXPECT_EQ(backend->sizes(), (std::vector<int>{2})) << "the late row waited for another batch";
}

// Shutdown with requests still queued (a batch not full, its deadline a minute away): every
// future completes with its results at once.
TEST(InferenceServer, ShutdownFinishesEveryQueuedRequest) {
  VariantPtr v = variant("chess");
  Batch batch(v, 1, 8);
  auto backend = std::make_shared<FakeEvaluator>();
  InferenceServer server(backend, {.max_batch = 8, .max_wait_us = 60'000'000});
  std::vector<std::vector<Evaluation>> outs(4, std::vector<Evaluation>(1));
  std::vector<std::future<void>> futures;
  for (size_t i = 0; i < outs.size(); ++i)
    futures.push_back(server.evaluate_async(std::span(batch.requests).subspan(i, 1), outs[i]));
  server.shutdown();
  for (size_t i = 0; i < futures.size(); ++i) {
    futures[i].get();
    EXPECT_EQ(outs[i][0].policy_logits.size(), static_cast<size_t>(batch.legal[i].size()));
  }
  EXPECT_EQ(backend->sizes(), (std::vector<int>{4}));
}

}  // namespace
}  // namespace fairyzero
