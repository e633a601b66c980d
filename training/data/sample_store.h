// Samples in HDF5 files (schema version 2, docs/FORMAT.md): a writer that publishes a file only
// once it is complete (written to a temporary name, flushed, renamed), and a strict reader that
// refuses a truncated, corrupt or foreign file with its name. The window over a folder of them
// is sample_window.h.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
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

}  // namespace fairyzero
