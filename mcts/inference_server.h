// Batching across threads: many search threads call evaluate() with a few positions each; server
// threads gather them into batches and run one backend evaluation per batch. No torch here.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <future>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "mcts/evaluator.h"

namespace fairyzero {

// Shared by the servers in front of one device (per-seat networks, league lineups): at most
// `capacity` batches run on it at once. A server's batch that waited for its turn first takes
// the rows that arrived meanwhile, so servers that each see a share of the traffic still send
// full batches.
class DeviceGate {
 public:
  explicit DeviceGate(int capacity);
  void acquire();
  void release();

 private:
  std::mutex mutex_;
  std::condition_variable cv_;
  int free_;
  // Turns go in the order asked for, so no server's callers wait behind the others' twice.
  uint64_t next_ticket_ = 0, serving_ = 0;
};

struct InferenceServerConfig {
  // Most positions in one backend call. A caller's request may be split across batches.
  int max_batch = 256;
  // How long a server thread waits for a batch to fill, counted from the arrival of the oldest
  // queued request (KataGo waitPopUpToN, OpenSpiel's 1 ms deadline). 0: run what is there.
  int max_wait_us = 1000;
  // Callers that each keep at most one request outstanding (a self-play worker's lanes): once
  // that many requests are queued or being evaluated no more can come, so the batch closes at
  // once instead of sleeping out the deadline. 0: unknown, the deadline decides.
  int clients = 0;
  // Server threads, each with its own staging (and on a GPU its own stream). One gathers at a
  // time (OpenSpiel: one popper under a mutex); with two or more, one gathers and copies the
  // next batch while another waits on the device.
  int threads = 1;
  // The device's turn, when servers share it; none: every server thread runs when its batch is
  // ready.
  std::shared_ptr<DeviceGate> gate = nullptr;
};

struct InferenceServerStats {
  int64_t batches = 0;         // backend calls
  int64_t positions = 0;       // positions evaluated
  double backend_seconds = 0;  // wall time inside the backend, summed over server threads
  double mean_batch() const { return batches ? static_cast<double>(positions) / batches : 0; }
};

// Results are exactly the backend's for each position, whatever batch it lands in (up to the
// backend's own batch-size effects on rounding). A batch closes when it holds max_batch
// positions, when every client's request is in (config.clients), or at the deadline; requests
// are split across batches, so batches are full whenever max_batch positions are waiting.
// With a StagedEvaluator backend the callers encode their rows in their own threads.
//
// Thread safety: evaluate(), evaluate_async() and stats() may be called from any number of
// threads; a request's future rethrows the backend's exception, if any. shutdown() (also run by
// the destructor) lets the server threads finish every queued request, then stops them;
// evaluate() after it throws std::runtime_error. Every future must be ready before the
// destructor runs (call shutdown() first to drain them).
class InferenceServer : public Evaluator {
 public:
  // The backend is called from the server threads only (one call at a time per server thread).
  InferenceServer(std::shared_ptr<Evaluator> backend, const InferenceServerConfig& config = {});
  ~InferenceServer() override;
  InferenceServer(const InferenceServer&) = delete;
  InferenceServer& operator=(const InferenceServer&) = delete;

  void evaluate(std::span<const EvalRequest> batch, std::span<Evaluation> out) override;
  std::future<void> evaluate_async(std::span<const EvalRequest> batch,
                                   std::span<Evaluation> out) override;
  std::string name() const override { return "server(" + backend_->name() + ")"; }

  void shutdown();
  InferenceServerStats stats() const;
  const InferenceServerConfig& config() const { return config_; }

 private:
  using Clock = std::chrono::steady_clock;
  // One caller's request, kept by the server until its last row is evaluated.
  struct Request {
    std::span<const EvalRequest> positions;
    std::span<Evaluation> out;
    std::vector<std::byte> rows;  // encoded by the caller, for a StagedEvaluator backend
    Clock::time_point arrival;
    size_t next_row = 0;   // rows handed to batches so far
    size_t rows_left = 0;  // rows not evaluated yet
    std::exception_ptr error;
    std::promise<void> done;
  };
  // Rows [begin, begin + count) of a request, in one batch.
  struct Segment {
    std::shared_ptr<Request> request;
    size_t begin = 0, count = 0;
  };

  void serve();
  // A full batch, or every client's request in (under mutex_).
  bool batch_ready() const;
  // Pops the next batch (blocks); empty when the server is stopping and the queue is drained.
  void gather(std::vector<Segment>& taken);
  // Adds queued rows to `taken` up to max_batch.
  void take_rows(std::vector<Segment>& taken);
  // Marks the segments evaluated (or failed) and completes the requests that are done.
  void complete(const std::vector<Segment>& taken, const std::exception_ptr& error);

  std::shared_ptr<Evaluator> backend_;
  StagedEvaluator* staged_ = nullptr;  // backend_, when it takes rows encoded by the callers
  InferenceServerConfig config_;
  std::mutex join_mutex_;    // shutdown() may be called from several threads
  std::mutex gather_mutex_;  // held by the one server thread that is gathering
  std::mutex mutex_;         // guards everything below and every Request's progress
  std::condition_variable work_cv_;
  std::deque<std::shared_ptr<Request>> queue_;  // requests with rows not yet in a batch
  int queued_positions_ = 0;                    // rows not yet in a batch
  int outstanding_ = 0;                         // requests not yet complete
  bool stopping_ = false;
  std::vector<std::thread> threads_;
  std::atomic<int64_t> batches_{0}, positions_{0}, backend_ns_{0};
};

}  // namespace fairyzero
