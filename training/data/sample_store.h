// Samples in HDF5 files (schema version 2, docs/FORMAT.md): a writer that publishes a file only
// once it is complete (written to a temporary name, flushed, renamed), and a sliding-window
// reader over the newest samples of a folder that skips corrupt files with a warning.
#pragma once

#include <cstdint>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/errors.h"
#include "training/data/sample.h"

namespace fairyzero {

// What a sample file says about itself (HDF5 attributes on the root group).
struct SampleFileInfo {
  int schema_version = 0;
  std::string variant;            // Variant::name (informative: the fingerprint decides)
  std::string rules_fingerprint;  // core/rules_fingerprint.h
  std::string rules;              // the rules fields, to name the first difference
  int encoder_version = 0;
  int planes = 0;  // input planes per sample
  int cells = 0;   // files x ranks
  int value_heads = 0;
  int seats = 0;
  std::string network;  // the network that played the games, e.g. "gen-0003"
  int64_t samples = 0;
};

// A file that cannot be used: unreadable, truncated, another schema, variant or shape. The
// message names the file and the problem.
class SampleFileError : public UserError {
 public:
  using UserError::UserError;
};

// Version 2 added the rules fingerprint and fields. The plies_left dataset came later, as an
// addition old readers ignore (docs/FORMAT.md, Versioning): files without it read with no
// moves-left target.
inline constexpr int kSampleSchemaVersion = 2;

// Writes `samples` to `path` atomically. `info.samples` is ignored (taken from the vector).
// Throws SampleFileError when writing fails; then `path` is untouched and no temporary remains.
void write_sample_file(const std::string& path, const SampleFileInfo& info,
                       const std::vector<Sample>& samples);

// Reads a whole file. Throws SampleFileError.
SampleFileInfo read_sample_file_info(const std::string& path);
std::vector<Sample> read_sample_file(const std::string& path, SampleFileInfo* info = nullptr);

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
