// `fairyzero selfplay RUN_DIR --worker ID`: a self-play worker of a run whose trainer runs
// elsewhere (`train --selfplay external`). It plays with the newest checkpoint, switches when a
// newer one is published, and publishes each K games atomically as samples/gen-NNNN-wID-SEQ.h5
// with games/gen-NNNN-wID-SEQ.txt; SEQ numbers on across restarts (docs/DISTRIBUTED.md).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>

namespace fairyzero {

struct TrainConfig;

// Whether the run's workers together have played generation `generation`'s bootstrap games
// (agents.bootstrap_generations): the run's selfplay.games and at least the samples its external
// trainer waits for. The material search plays far faster than a network trains, so without this
// quota its games would fill the window on their own.
bool bootstrap_generation_played(const std::string& run_dir, const TrainConfig& config,
                                 int generation);

struct WorkerOptions {
  int worker = 0;                     // ID: unique among the run's workers (a lease enforces it)
  std::string device;                 // empty: the run's run.device
  int games_per_file = 0;             // 0: the games it plays at once (workers x games_per_worker)
  double poll_seconds = 2;            // how often it looks for a newer checkpoint while waiting
  double sweep_after_seconds = 3600;  // temporaries older than this are removed at the start
};

class SelfPlayWorker {
 public:
  // Reads the run's settings and rules; throws RunError when RUN_DIR holds no run, and
  // LeaseHeldError when another worker with this ID is running.
  SelfPlayWorker(std::string run_dir, const WorkerOptions& options);
  ~SelfPlayWorker();

  // Plays and publishes until the run has its last generation (returns true), or until stop()
  // was asked, when it finishes the file in progress first (returns false). `log` receives
  // progress lines.
  bool run(const std::function<void(const std::string&)>& log);
  // Asks run() to end after the file in progress (thread and signal-thread safe).
  void stop() { stop_requested_ = true; }
  // Held, no file is being written: a caller that ends the process now discards only games in
  // memory, never a half-written file.
  std::unique_lock<std::mutex> hold_publishing() { return std::unique_lock(publish_mutex_); }
  // Gives the worker's ID back at once (before a quick exit).
  void release_lease();
  // The next file's sequence number.
  int64_t next_sequence() const { return sequence_; }

 private:
  std::string run_dir_;
  WorkerOptions options_;
  std::unique_ptr<class TrainingRun> run_;
  std::unique_ptr<class Lease> lease_;
  std::atomic<bool> stop_requested_{false};
  std::mutex publish_mutex_;
  int64_t sequence_ = 0;
};

}  // namespace fairyzero
