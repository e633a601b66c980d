// The files that processes sharing a run folder publish to each other (docs/DISTRIBUTED.md):
// workers' sample files samples/gen-NNNN-wID-SEQ.h5 (and games/ records of the same stem), the
// trainer's lease, a worker's lease.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace fairyzero {

// One published file of a worker: played by the network of `generation`, the worker's
// `sequence`-th file (numbered on across restarts).
struct WorkerFile {
  int generation = 0;
  int worker = 0;
  int64_t sequence = 0;
};

// "gen-0003-w2-000017".
std::string worker_file_stem(const WorkerFile& file);
// The parts of such a name (with any extension); nullopt for other names.
std::optional<WorkerFile> parse_worker_file(const std::string& file_name);
// The highest sequence among `worker`'s *.h5 files in `folder`; -1 when it has none.
int64_t highest_worker_sequence(const std::string& folder, int worker);

// Games published by all workers under `generation`: the lines of their records in
// RUN_DIR/games/ and RUN_DIR/validation/ (one line a game).
int64_t worker_games_of_generation(const std::string& run_dir, int generation);

// RUN_DIR/trainer.lease and RUN_DIR/workers/wID.lease.
std::string trainer_lease_path(const std::string& run_dir);
std::string worker_lease_path(const std::string& run_dir, int worker);

// Tells HDF5 not to lock files (HDF5_USE_FILE_LOCKING=FALSE, unless the user set it): published
// sample files are immutable and written under a temporary name, so locks protect nothing, and
// on NFS and Lustre they fail or hang (docs/DISTRIBUTED.md). Call before the first HDF5 call.
void disable_hdf5_file_locking();

}  // namespace fairyzero
