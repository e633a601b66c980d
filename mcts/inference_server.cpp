// InferenceServer: a queue of waiting callers, server threads that pop batches with a deadline.
#include "mcts/inference_server.h"

#include <stdexcept>
#include <utility>

namespace fairyzero {

InferenceServer::InferenceServer(std::shared_ptr<Evaluator> backend,
                                 const InferenceServerConfig& config)
    : backend_(std::move(backend)), config_(config) {
  if (!backend_) throw std::invalid_argument("InferenceServer: no backend evaluator");
  if (config.max_batch < 1 || config.max_wait_us < 0 || config.threads < 1 || config.clients < 0)
    throw std::invalid_argument(
        "InferenceServer: max_batch and threads must be >= 1, max_wait_us and clients >= 0");
  for (int i = 0; i < config.threads; ++i) threads_.emplace_back([this] { serve(); });
}

InferenceServer::~InferenceServer() { shutdown(); }

void InferenceServer::shutdown() {
  std::lock_guard<std::mutex> joining(join_mutex_);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  work_cv_.notify_all();
  for (std::thread& t : threads_)
    if (t.joinable()) t.join();
}

InferenceServerStats InferenceServer::stats() const {
  return InferenceServerStats{batches_.load(), positions_.load(), backend_ns_.load() * 1e-9};
}

void InferenceServer::evaluate(std::span<const EvalRequest> batch, std::span<Evaluation> out) {
  if (out.size() != batch.size())
    throw std::invalid_argument("InferenceServer::evaluate: out and batch differ in size");
  // A request larger than a batch goes in full batches, one after the other.
  const size_t step = static_cast<size_t>(config_.max_batch);
  for (size_t start = 0; start < batch.size(); start += step) {
    const size_t count = std::min(step, batch.size() - start);
    Pending pending;
    pending.requests = batch.subspan(start, count);
    pending.out = out.subspan(start, count);
    submit_and_wait(pending);
  }
}

void InferenceServer::submit_and_wait(Pending& pending) {
  std::unique_lock<std::mutex> lock(mutex_);
  if (stopping_) throw std::runtime_error("InferenceServer: evaluate() after shutdown");
  const bool was_empty = queue_.empty();
  pending.arrival = std::chrono::steady_clock::now();
  queue_.push_back(&pending);
  queued_positions_ += static_cast<int>(pending.requests.size());
  // The gatherer sleeps until work arrives or its deadline passes: wake it only when it must
  // start a deadline or when the batch is full, not for every arrival.
  if (was_empty || batch_ready()) work_cv_.notify_one();
  pending.cv.wait(lock, [&] { return pending.done; });
  if (pending.error) std::rethrow_exception(pending.error);
}

bool InferenceServer::batch_ready() const {
  return queued_positions_ >= config_.max_batch ||
         (config_.clients > 0 && static_cast<int>(queue_.size()) >= config_.clients);
}

void InferenceServer::gather(std::vector<Pending*>& taken) {
  taken.clear();
  std::lock_guard<std::mutex> gathering(gather_mutex_);
  std::unique_lock<std::mutex> lock(mutex_);
  work_cv_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
  if (queue_.empty()) return;  // stopping, nothing left
  const auto deadline = queue_.front()->arrival + std::chrono::microseconds(config_.max_wait_us);
  while (!stopping_ && !batch_ready()) {
    if (work_cv_.wait_until(lock, deadline) == std::cv_status::timeout) break;
  }
  int positions = 0;
  while (!queue_.empty()) {
    const int size = static_cast<int>(queue_.front()->requests.size());
    if (!taken.empty() && positions + size > config_.max_batch) break;
    taken.push_back(queue_.front());
    queue_.pop_front();
    positions += size;
  }
  queued_positions_ -= positions;
}

void InferenceServer::serve() {
  std::vector<Pending*> taken;
  std::vector<EvalRequest> requests;
  std::vector<Evaluation> results;  // reused: evaluations swap their buffers with the callers'
  for (;;) {
    gather(taken);
    if (taken.empty()) return;
    requests.clear();
    for (Pending* p : taken)
      requests.insert(requests.end(), p->requests.begin(), p->requests.end());
    results.resize(requests.size());
    std::exception_ptr error;
    const auto start = std::chrono::steady_clock::now();
    try {
      backend_->evaluate(requests, results);
    } catch (...) {
      error = std::current_exception();
    }
    backend_ns_.fetch_add(std::chrono::duration_cast<std::chrono::nanoseconds>(
                              std::chrono::steady_clock::now() - start)
                              .count(),
                          std::memory_order_relaxed);
    size_t k = 0;
    for (Pending* p : taken)
      for (Evaluation& e : p->out) std::swap(e, results[k++]);
    batches_.fetch_add(1, std::memory_order_relaxed);
    positions_.fetch_add(static_cast<int64_t>(requests.size()), std::memory_order_relaxed);
    // Notify under the lock: a caller frees its Pending as soon as it sees `done`.
    std::lock_guard<std::mutex> lock(mutex_);
    for (Pending* p : taken) {
      p->error = error;
      p->done = true;
      p->cv.notify_one();
    }
  }
}

}  // namespace fairyzero
