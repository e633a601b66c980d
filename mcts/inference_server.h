// Batching across threads: many search threads call evaluate() with a few positions each; server
// threads gather them into batches and run one backend evaluation per batch. No torch here.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "mcts/evaluator.h"

namespace fairyzero {

struct InferenceServerConfig {
  // Most positions in one backend call. A caller's request larger than this is split.
  int max_batch = 256;
  // How long a server thread waits for a batch to fill, counted from the arrival of the oldest
  // queued request (KataGo waitPopUpToN, OpenSpiel's 1 ms deadline). 0: run what is there.
  int max_wait_us = 1000;
  // Callers that each keep one request waiting at a time (self-play's workers): once that many
  // requests are queued no more can come, so the batch closes at once instead of sleeping out
  // the deadline. 0: unknown, the deadline decides.
  int clients = 0;
  // Server threads. One gathers at a time (OpenSpiel: one popper under a mutex); with two, one
  // gathers the next batch while the other evaluates (useful with a GPU).
  int threads = 1;
};

struct InferenceServerStats {
  int64_t batches = 0;         // backend calls
  int64_t positions = 0;       // positions evaluated
  double backend_seconds = 0;  // wall time inside the backend (busy fraction = this / elapsed)
  double mean_batch() const { return batches ? static_cast<double>(positions) / batches : 0; }
};

// Results are exactly the backend's for each position, whatever batch it lands in (up to the
// backend's own batch-size effects on rounding).
//
// Thread safety: evaluate() and stats() may be called from any number of threads; each call
// blocks until its positions are evaluated and rethrows the backend's exception, if any.
// shutdown() (also run by the destructor) lets the server threads finish every queued request,
// then stops them; evaluate() after it throws std::runtime_error. Callers must not be inside
// evaluate() when the destructor runs (call shutdown() first to drain them).
class InferenceServer : public Evaluator {
 public:
  // The backend is called from the server threads only (one call at a time per server thread).
  InferenceServer(std::shared_ptr<Evaluator> backend, const InferenceServerConfig& config = {});
  ~InferenceServer() override;
  InferenceServer(const InferenceServer&) = delete;
  InferenceServer& operator=(const InferenceServer&) = delete;

  void evaluate(std::span<const EvalRequest> batch, std::span<Evaluation> out) override;
  std::string name() const override { return "server(" + backend_->name() + ")"; }

  void shutdown();
  InferenceServerStats stats() const;
  const InferenceServerConfig& config() const { return config_; }

 private:
  // One caller's request, on the caller's stack while it waits.
  struct Pending {
    std::span<const EvalRequest> requests;
    std::span<Evaluation> out;
    std::chrono::steady_clock::time_point arrival;
    bool done = false;
    std::exception_ptr error;
    std::condition_variable cv;
  };

  void submit_and_wait(Pending& pending);
  void serve();
  // A full batch, or every client's request queued (under mutex_).
  bool batch_ready() const;
  // Pops the next batch (blocks); empty when the server is stopping and the queue is drained.
  void gather(std::vector<Pending*>& taken);

  std::shared_ptr<Evaluator> backend_;
  InferenceServerConfig config_;
  std::mutex join_mutex_;    // shutdown() may be called from several threads
  std::mutex gather_mutex_;  // held by the one server thread that is gathering
  std::mutex mutex_;         // guards everything below and every Pending's done/error
  std::condition_variable work_cv_;
  std::deque<Pending*> queue_;
  int queued_positions_ = 0;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
  std::atomic<int64_t> batches_{0}, positions_{0}, backend_ns_{0};
};

}  // namespace fairyzero
