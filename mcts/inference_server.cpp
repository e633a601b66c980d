// InferenceServer: a queue of callers' requests, server threads that cut it into batches (full,
// every client in, or at a deadline), each with its own staging for encoded rows.
#include "mcts/inference_server.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <utility>

namespace fairyzero {

DeviceGate::DeviceGate(int capacity) : free_(capacity) {
  if (capacity < 1) throw std::invalid_argument("DeviceGate: capacity must be >= 1");
}

void DeviceGate::acquire() {
  std::unique_lock lock(mutex_);
  const uint64_t ticket = next_ticket_++;
  cv_.wait(lock, [&] { return free_ > 0 && serving_ == ticket; });
  --free_;
  ++serving_;
  cv_.notify_all();  // the next ticket may go too, if a turn is free
}

void DeviceGate::release() {
  {
    std::lock_guard lock(mutex_);
    ++free_;
  }
  cv_.notify_all();
}

InferenceServer::InferenceServer(std::shared_ptr<Evaluator> backend,
                                 const InferenceServerConfig& config)
    : backend_(std::move(backend)), config_(config) {
  if (!backend_) throw std::invalid_argument("InferenceServer: no backend evaluator");
  if (config.max_batch < 1 || config.max_wait_us < 0 || config.threads < 1 || config.clients < 0)
    throw std::invalid_argument(
        "InferenceServer: max_batch and threads must be >= 1, max_wait_us and clients >= 0");
  staged_ = dynamic_cast<StagedEvaluator*>(backend_.get());
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
  evaluate_async(batch, out).get();
}

std::future<void> InferenceServer::evaluate_async(std::span<const EvalRequest> batch,
                                                  std::span<Evaluation> out) {
  if (out.size() != batch.size())
    throw std::invalid_argument("InferenceServer::evaluate: out and batch differ in size");
  auto request = std::make_shared<Request>();
  request->positions = batch;
  request->out = out;
  request->rows_left = batch.size();
  std::future<void> future = request->done.get_future();
  if (batch.empty()) {
    request->done.set_value();
    return future;
  }
  // The caller's thread encodes, so the server threads only copy rows and run the device.
  if (staged_) {
    const size_t row_bytes = staged_->row_bytes();
    request->rows.resize(batch.size() * row_bytes);
    for (size_t i = 0; i < batch.size(); ++i)
      staged_->encode_row(batch[i], request->rows.data() + i * row_bytes);
  }
  std::lock_guard<std::mutex> lock(mutex_);
  if (stopping_) throw std::runtime_error("InferenceServer: evaluate() after shutdown");
  const bool was_empty = queue_.empty();
  request->arrival = Clock::now();
  queue_.push_back(request);
  queued_positions_ += static_cast<int>(batch.size());
  ++outstanding_;
  // The gatherer sleeps until work arrives or its deadline passes: wake it only when it must
  // start a deadline or when the batch is ready, not for every arrival.
  if (was_empty || batch_ready()) work_cv_.notify_one();
  return future;
}

bool InferenceServer::batch_ready() const {
  return queued_positions_ >= config_.max_batch ||
         (config_.clients > 0 && outstanding_ >= config_.clients);
}

void InferenceServer::gather(std::vector<Segment>& taken) {
  taken.clear();
  std::lock_guard<std::mutex> gathering(gather_mutex_);
  std::unique_lock<std::mutex> lock(mutex_);
  work_cv_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
  if (queue_.empty()) return;  // stopping, nothing left
  const auto deadline = queue_.front()->arrival + std::chrono::microseconds(config_.max_wait_us);
  while (!stopping_ && !batch_ready()) {
    if (work_cv_.wait_until(lock, deadline) == std::cv_status::timeout) break;
  }
  take_rows(taken);
}

void InferenceServer::take_rows(std::vector<Segment>& taken) {
  size_t positions = 0;
  for (const Segment& segment : taken) positions += segment.count;
  const size_t before = positions;
  const size_t capacity = static_cast<size_t>(config_.max_batch);
  while (!queue_.empty() && positions < capacity) {
    Request& front = *queue_.front();
    const size_t count = std::min(front.positions.size() - front.next_row, capacity - positions);
    taken.push_back({queue_.front(), front.next_row, count});
    front.next_row += count;
    positions += count;
    if (front.next_row == front.positions.size()) queue_.pop_front();
  }
  queued_positions_ -= static_cast<int>(positions - before);
}

void InferenceServer::complete(const std::vector<Segment>& taken, const std::exception_ptr& error) {
  std::vector<Request*> finished;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    for (const Segment& segment : taken) {
      Request& request = *segment.request;
      if (error && !request.error) request.error = error;
      request.rows_left -= segment.count;
      if (request.rows_left == 0) {
        finished.push_back(&request);
        --outstanding_;
      }
    }
  }
  // `taken` keeps the finished requests alive while their callers are woken.
  for (Request* request : finished) {
    if (request->error)
      request->done.set_exception(request->error);
    else
      request->done.set_value();
  }
}

void InferenceServer::serve() {
  std::vector<Segment> taken;
  std::vector<EvalRequest> positions;
  std::vector<Evaluation> results;  // reused: evaluations swap their buffers with the callers'
  std::unique_ptr<StagedEvaluator::Staging> staging;
  std::exception_ptr staging_error;
  if (staged_) {
    try {
      staging = staged_->make_staging(config_.max_batch);
    } catch (...) {
      staging_error = std::current_exception();  // every request this thread takes fails
    }
  }
  for (;;) {
    gather(taken);
    if (taken.empty()) return;
    // The device's turn, held until the batch is back, released on every path.
    std::unique_ptr<DeviceGate, void (*)(DeviceGate*)> turn(nullptr,
                                                            [](DeviceGate* g) { g->release(); });
    if (config_.gate) {
      config_.gate->acquire();
      turn.reset(config_.gate.get());
      std::lock_guard<std::mutex> lock(mutex_);
      take_rows(taken);  // what arrived while the device was busy
    }
    positions.clear();
    for (const Segment& segment : taken)
      positions.insert(positions.end(), segment.request->positions.begin() + segment.begin,
                       segment.request->positions.begin() + segment.begin + segment.count);
    results.resize(positions.size());
    std::exception_ptr error = staging_error;
    const auto start = Clock::now();
    if (!error) {
      try {
        if (staged_) {
          const size_t row_bytes = staged_->row_bytes();
          std::byte* row = staging->rows();
          for (const Segment& segment : taken) {
            std::memcpy(row, segment.request->rows.data() + segment.begin * row_bytes,
                        segment.count * row_bytes);
            row += segment.count * row_bytes;
          }
          staged_->evaluate_staged(positions, *staging, results);
        } else {
          backend_->evaluate(positions, results);
        }
      } catch (...) {
        error = std::current_exception();
      }
    }
    backend_ns_.fetch_add(
        std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - start).count(),
        std::memory_order_relaxed);
    if (!error) {
      size_t k = 0;
      for (const Segment& segment : taken)
        for (size_t i = 0; i < segment.count; ++i)
          std::swap(segment.request->out[segment.begin + i], results[k++]);
    }
    batches_.fetch_add(1, std::memory_order_relaxed);
    positions_.fetch_add(static_cast<int64_t>(positions.size()), std::memory_order_relaxed);
    turn.reset();
    complete(taken, error);
    taken.clear();
  }
}

}  // namespace fairyzero
