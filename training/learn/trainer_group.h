// The ranks of one data-parallel trainer: where each process stands (from the launcher's
// environment: torchrun-style RANK/WORLD_SIZE, srun's SLURM_PROCID, mpirun's OMPI_COMM_WORLD_*),
// and LibTorch's c10d between them: a TCPStore at MASTER_ADDR:MASTER_PORT for small messages,
// ProcessGroupGloo for the gradients. No torch in this header.
#pragma once

#include <cstdlib>
#include <functional>
#include <memory>
#include <string>

#include "core/errors.h"
#include "training/learn/trainer.h"

namespace fairyzero {

struct RankInfo {
  int rank = 0;
  int world_size = 1;
  std::string master_address = "127.0.0.1";
  int master_port = 29500;
  std::string source;  // which variables said so: "RANK/WORLD_SIZE", "SLURM", "OMPI", ""
};

// Reads the rank from `lookup` (std::getenv by default). Throws UserError on malformed values,
// naming the variable. One process (rank 0 of 1) when no launcher set anything.
RankInfo rank_from_environment(const std::function<const char*(const char*)>& lookup =
                                   [](const char* name) {
                                     return static_cast<const char*>(std::getenv(name));
                                   });

class TrainerGroup : public GradientSync {
 public:
  // Joins the group (rank 0 serves the store); waits up to `timeout_seconds` for the others.
  // Throws UserError naming the address when the group cannot form.
  explicit TrainerGroup(const RankInfo& info, double timeout_seconds = 600);
  ~TrainerGroup() override;

  int rank() const { return info_.rank; }
  int world_size() const override { return info_.world_size; }
  void average(float* data, size_t count) override;
  void broadcast(float* data, size_t count) override;
  // A value every rank can read by its key (set once, by rank 0).
  void publish(const std::string& key, const std::string& value);
  // Waits, without a deadline, until `key` is published, and returns its value; throws when the
  // store's server (rank 0) is gone.
  std::string await(const std::string& key);
  // Every rank waits here until all have come.
  void barrier();

 private:
  struct Impl;
  RankInfo info_;
  std::unique_ptr<Impl> impl_;
};

}  // namespace fairyzero
