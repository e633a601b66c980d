// The sliding window of the newest samples of a folder of sample files (sample_store.h): what
// the trainer draws its batches from, and what a validation pass reads in order.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "training/data/sample.h"
#include "training/data/sample_store.h"

namespace fairyzero {

// The newest `capacity` samples of the *.h5 files in a folder (file names sort by age: the
// trainer names them gen-0000.h5, gen-0001.h5, ...). Files of other rules (fingerprint), encoder
// version or shape than `expected` are skipped, as are unreadable ones; each skip is reported
// in warnings() (and printed to stderr once), never thrown.
class SampleWindow {
 public:
  SampleWindow(std::string folder, const SampleFileInfo& expected, int64_t capacity);
  // Rescans the folder, loading new files and dropping samples beyond the capacity. Returns the
  // number of samples now held. A file published late (an older name) is simply read now.
  int64_t refresh();
  // As refresh(), from exactly these files (paths as files() gives them): the ranks of a
  // data-parallel trainer train on the window that rank 0 chose.
  int64_t refresh_from(const std::vector<std::string>& files);
  // The files whose samples are held, oldest first.
  std::vector<std::string> files() const;
  // Samples in every usable file of the folder seen so far, held or not (external self-play
  // counts new samples by it), and the number of those files.
  int64_t published() const;
  int64_t published_files() const { return static_cast<int64_t>(published_.size()); }
  int64_t size() const;
  // A new capacity for the next refresh (a growing window).
  void set_capacity(int64_t capacity);
  int64_t capacity() const { return capacity_; }
  // Samples held whose seat to move is `seat`.
  int64_t seat_size(int seat) const;
  // A batch of `batch_size` samples drawn uniformly with replacement from the window; with
  // `seat` >= 0, from its samples of that seat to move only (per-seat networks).
  TrainingBatch sample_batch(int batch_size, std::mt19937_64& rng, int seat = -1) const;
  // Every sample held (of `seat` only, when >= 0), in order, as batches of at most
  // `batch_size`: a validation pass.
  std::vector<TrainingBatch> ordered_batches(int batch_size, int seat = -1) const;
  const std::vector<std::string>& warnings() const { return warnings_; }

 private:
  std::string folder_;
  SampleFileInfo expected_;
  int64_t capacity_;
  std::vector<std::pair<std::string, std::vector<Sample>>> files_;  // oldest first
  std::vector<std::string> warnings_;
  std::vector<std::string> skipped_;                        // files already reported
  std::vector<std::pair<std::string, int64_t>> published_;  // usable files and their samples

  int64_t refresh_names(std::vector<std::string> names);
  TrainingBatch make_batch(const std::vector<const Sample*>& drawn) const;
  // The samples in `name` when it is usable; -1 (and a warning) when it is skipped.
  int64_t check_file(const std::string& name);
};

}  // namespace fairyzero
