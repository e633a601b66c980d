// A lease file: one holder at a time for a role in a run folder (its trainer, worker 7), safe on
// a networked file system. Taken with link(2), which is atomic over NFS too; kept fresh by a
// heartbeat; broken only when its holder is provably gone (same host, no such process) or has
// not refreshed it for `stale_after` seconds (another host, crashed or cut off).
#pragma once

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

#include "core/errors.h"

namespace fairyzero {

// The lease is held by someone else; the message says who, since when, and what to do.
class LeaseHeldError : public UserError {
 public:
  using UserError::UserError;
};

class Lease {
 public:
  // Takes the lease at `path` for `role` ("the trainer of runs/isis"), or throws LeaseHeldError.
  Lease(std::string path, std::string role, double stale_after_seconds = 120);
  ~Lease();
  Lease(const Lease&) = delete;
  Lease& operator=(const Lease&) = delete;

  // Still ours? False once another process broke it (this one stalled past stale_after).
  bool held() const;
  const std::string& path() const { return path_; }

 private:
  void heartbeat();

  std::string path_, role_, content_;
  double stale_after_;
  std::atomic<bool> lost_{false};
  std::mutex mutex_;
  std::condition_variable stop_signal_;
  bool stopping_ = false;
  std::thread heartbeat_;
};

}  // namespace fairyzero
