// Names of the files that a run's processes publish, and HDF5's locking on shared folders.
#include "training/cluster/run_files.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "core/temporary_file.h"

namespace fairyzero {
namespace fs = std::filesystem;

std::string worker_file_stem(const WorkerFile& file) {
  char name[64];
  std::snprintf(name, sizeof name, "gen-%04d-w%d-%06lld", file.generation, file.worker,
                static_cast<long long>(file.sequence));
  return name;
}

std::optional<WorkerFile> parse_worker_file(const std::string& file_name) {
  if (is_temporary_name(file_name)) return std::nullopt;
  WorkerFile file;
  long long sequence = -1;
  int consumed = 0;
  if (std::sscanf(file_name.c_str(), "gen-%4d-w%d-%lld%n", &file.generation, &file.worker,
                  &sequence, &consumed) != 3)
    return std::nullopt;
  // Only an extension may follow: "gen-0001.h5" (the single-process trainer's) does not match.
  if (file_name[consumed] != '\0' && file_name[consumed] != '.') return std::nullopt;
  if (file.generation < 0 || file.worker < 0 || sequence < 0) return std::nullopt;
  file.sequence = sequence;
  return file;
}

int64_t highest_worker_sequence(const std::string& folder, int worker) {
  int64_t highest = -1;
  std::error_code ec;
  for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
    if (it->path().extension() != ".h5") continue;
    const auto file = parse_worker_file(it->path().filename().string());
    if (file && file->worker == worker) highest = std::max(highest, file->sequence);
  }
  return highest;
}

int64_t worker_games_of_generation(const std::string& run_dir, int generation) {
  int64_t games = 0;
  for (const char* folder : {"games", "validation"}) {
    std::error_code ec;
    for (fs::directory_iterator it(fs::path(run_dir) / folder, ec), end; !ec && it != end;
         it.increment(ec)) {
      if (it->path().extension() != ".txt") continue;
      const auto file = parse_worker_file(it->path().filename().string());
      if (!file || file->generation != generation) continue;
      std::ifstream records(it->path());
      for (std::string line; std::getline(records, line);) games += !line.empty();
    }
  }
  return games;
}

std::string trainer_lease_path(const std::string& run_dir) {
  return (fs::path(run_dir) / "trainer.lease").string();
}

std::string worker_lease_path(const std::string& run_dir, int worker) {
  return (fs::path(run_dir) / "workers" / ("w" + std::to_string(worker) + ".lease")).string();
}

void disable_hdf5_file_locking() { ::setenv("HDF5_USE_FILE_LOCKING", "FALSE", /*overwrite=*/0); }

}  // namespace fairyzero
