// The sliding window of the newest samples of a folder of sample files that the trainer draws
// batches from; corrupt and foreign files are skipped with a warning, never thrown.
#include "training/data/sample_window.h"

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <sstream>
#include <stdexcept>

#include "core/rules_fingerprint.h"
#include "core/temporary_file.h"

namespace fairyzero {

namespace fs = std::filesystem;

SampleWindow::SampleWindow(std::string folder, const SampleFileInfo& expected, int64_t capacity)
    : folder_(std::move(folder)), expected_(expected), capacity_(capacity) {
  if (capacity_ <= 0)
    throw std::invalid_argument("SampleWindow: capacity must be positive, not " +
                                std::to_string(capacity_));
}

int64_t SampleWindow::refresh() {
  std::vector<std::string> names;
  std::error_code ec;
  for (fs::directory_iterator it(folder_, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string file = it->path().filename().string();
    // Temporaries end in ".tmp-HOST-PID-N"; the second test only guards odd names.
    if (file.size() < 3 || file.compare(file.size() - 3, 3, ".h5") != 0 || is_temporary_name(file))
      continue;
    std::error_code type_ec;
    if (it->is_regular_file(type_ec)) names.push_back(it->path().string());
  }
  // Every usable file counts as published, also those too old for the window.
  for (const std::string& name : names) check_file(name);
  return refresh_names(std::move(names));
}

int64_t SampleWindow::refresh_from(const std::vector<std::string>& files) {
  std::vector<std::string> names;
  for (const auto& [name, samples] : files_)
    if (std::find(files.begin(), files.end(), name) != files.end()) names.push_back(name);
  for (const std::string& name : files) names.push_back(name);
  files_.erase(std::remove_if(files_.begin(), files_.end(),
                              [&](const auto& f) {
                                return std::find(files.begin(), files.end(), f.first) ==
                                       files.end();
                              }),
               files_.end());
  return refresh_names(std::move(names));
}

std::vector<std::string> SampleWindow::files() const {
  std::vector<std::string> names;
  for (const auto& [name, samples] : files_) names.push_back(name);
  return names;
}

int64_t SampleWindow::published() const {
  int64_t total = 0;
  for (const auto& [name, samples] : published_) total += samples;
  return total;
}

int64_t SampleWindow::check_file(const std::string& name) {
  for (const auto& [known, samples] : published_)
    if (known == name) return samples;
  if (std::find(skipped_.begin(), skipped_.end(), name) != skipped_.end()) return -1;
  const auto skip = [&](const std::string& reason) {
    skipped_.push_back(name);
    warnings_.push_back(reason);
    std::cerr << "warning: " << reason << "\n";
    return int64_t{-1};
  };
  try {
    const SampleFileInfo info = read_sample_file_info(name);
    std::string mismatch;
    const auto differs = [&](const char* what, const auto& got, const auto& want) {
      if (mismatch.empty() && got != want) {
        std::ostringstream text;
        text << what << " " << got << ", expected " << want;
        mismatch = text.str();
      }
    };
    if (info.rules_fingerprint != expected_.rules_fingerprint) {
      std::string first;
      try {
        first = first_rules_difference(parse_rules_fields(expected_.rules),
                                       parse_rules_fields(info.rules));
      } catch (const std::invalid_argument&) {
      }
      mismatch = "made under other rules (fingerprint " + info.rules_fingerprint + ", expected " +
                 expected_.rules_fingerprint + ")" +
                 (first.empty() ? "" : "; first difference: " + first);
    }
    differs("encoder version", info.encoder_version, expected_.encoder_version);
    differs("planes", info.planes, expected_.planes);
    differs("cells", info.cells, expected_.cells);
    differs("value heads", info.value_heads, expected_.value_heads);
    if (!mismatch.empty()) return skip("skipping sample file '" + name + "': " + mismatch);
    published_.emplace_back(name, info.samples);
    return info.samples;
  } catch (const SampleFileError& e) {
    return skip(std::string("skipping ") + e.what());
  }
}

int64_t SampleWindow::refresh_names(std::vector<std::string> names) {
  // Candidates: the given files plus the files held, whose samples stay even if the file has
  // been deleted since. Names sort by age.
  for (const auto& [name, samples] : files_) names.push_back(name);
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  const auto held = [&](const std::string& name) {
    return std::find_if(files_.begin(), files_.end(),
                        [&](const auto& f) { return f.first == name; });
  };

  // Newest first until the window is full; older files are neither loaded nor kept.
  std::vector<std::pair<std::string, std::vector<Sample>>> kept;
  int64_t total = 0;
  for (auto name = names.rbegin(); name != names.rend() && total < capacity_; ++name) {
    if (auto it = held(*name); it != files_.end()) {
      total += static_cast<int64_t>(it->second.size());
      kept.push_back(std::move(*it));
      continue;
    }
    if (check_file(*name) < 0) continue;
    try {
      std::vector<Sample> samples = read_sample_file(*name);
      total += static_cast<int64_t>(samples.size());
      kept.emplace_back(*name, std::move(samples));
    } catch (const SampleFileError& e) {
      // Its header read but its samples do not: not usable after all.
      published_.erase(std::remove_if(published_.begin(), published_.end(),
                                      [&](const auto& p) { return p.first == *name; }),
                       published_.end());
      skipped_.push_back(*name);
      warnings_.push_back(std::string("skipping ") + e.what());
      std::cerr << "warning: skipping " << e.what() << "\n";
    }
  }
  std::reverse(kept.begin(), kept.end());  // oldest first
  // The oldest file may be used in part: its oldest (first written) samples go.
  if (total > capacity_) {
    auto& oldest = kept.front().second;
    oldest.erase(oldest.begin(), oldest.begin() + (total - capacity_));
  }
  files_ = std::move(kept);
  return size();
}

void SampleWindow::set_capacity(int64_t capacity) {
  if (capacity <= 0)
    throw std::invalid_argument("SampleWindow: capacity must be positive, not " +
                                std::to_string(capacity));
  capacity_ = capacity;
}

int64_t SampleWindow::size() const {
  int64_t total = 0;
  for (const auto& [name, samples] : files_) total += static_cast<int64_t>(samples.size());
  return total;
}

int64_t SampleWindow::seat_size(int seat) const {
  int64_t total = 0;
  for (const auto& [name, samples] : files_)
    for (const Sample& s : samples) total += s.seat == seat;
  return total;
}

TrainingBatch SampleWindow::sample_batch(int batch_size, std::mt19937_64& rng, int seat) const {
  const int64_t held = size();
  if (held == 0) throw std::logic_error("SampleWindow::sample_batch: the window is empty");
  if (seat >= 0 && seat_size(seat) == 0)
    throw std::logic_error("SampleWindow::sample_batch: the window has no samples of seat " +
                           std::to_string(seat));
  if (batch_size <= 0)
    throw std::invalid_argument("SampleWindow::sample_batch: batch size " +
                                std::to_string(batch_size));
  // ends[f] = samples in files 0..f, to map a drawn index to its file.
  std::vector<int64_t> ends;
  for (const auto& [name, samples] : files_)
    ends.push_back((ends.empty() ? 0 : ends.back()) + static_cast<int64_t>(samples.size()));
  std::uniform_int_distribution<int64_t> pick(0, held - 1);
  std::vector<const Sample*> drawn(batch_size);
  for (const Sample*& s : drawn) {
    // One seat's samples: draw until one of that seat comes (uniform among them; as many tries
    // as there are seats on average).
    do {
      const int64_t index = pick(rng);
      const size_t f = std::upper_bound(ends.begin(), ends.end(), index) - ends.begin();
      s = &files_[f].second[index - (f ? ends[f - 1] : 0)];
    } while (seat >= 0 && s->seat != seat);
  }
  return make_batch(drawn);
}

std::vector<TrainingBatch> SampleWindow::ordered_batches(int batch_size, int seat) const {
  if (batch_size <= 0)
    throw std::invalid_argument("SampleWindow::ordered_batches: batch size " +
                                std::to_string(batch_size));
  std::vector<TrainingBatch> batches;
  std::vector<const Sample*> rows;
  for (const auto& [name, samples] : files_)
    for (const Sample& s : samples) {
      if (seat >= 0 && s.seat != seat) continue;
      rows.push_back(&s);
      if (static_cast<int>(rows.size()) == batch_size) {
        batches.push_back(make_batch(rows));
        rows.clear();
      }
    }
  if (!rows.empty()) batches.push_back(make_batch(rows));
  return batches;
}

TrainingBatch SampleWindow::make_batch(const std::vector<const Sample*>& drawn) const {
  const int batch_size = static_cast<int>(drawn.size());
  size_t max_moves = 0;
  for (const Sample* s : drawn) max_moves = std::max(max_moves, s->policy_indices.size());
  // At least one column: a zero-width policy tensor would break the loss's softmax.
  max_moves = std::max<size_t>(max_moves, 1);

  const size_t plane_floats = static_cast<size_t>(expected_.planes) * expected_.cells;
  const size_t heads = static_cast<size_t>(expected_.value_heads) * 3;
  TrainingBatch batch;
  batch.size = batch_size;
  batch.max_moves = static_cast<int>(max_moves);
  batch.planes.resize(batch_size * plane_floats);
  batch.policy_index.assign(batch_size * max_moves, 0);
  batch.policy_weight.assign(batch_size * max_moves, 0.0f);
  batch.value_target.resize(batch_size * heads);
  batch.plies_left.resize(batch_size);
  for (size_t b = 0; b < drawn.size(); ++b) {
    const Sample& s = *drawn[b];
    unpack_planes(s, expected_.planes, expected_.cells, batch.planes.data() + b * plane_floats);
    std::copy(s.policy_indices.begin(), s.policy_indices.end(),
              batch.policy_index.begin() + b * max_moves);
    std::copy(s.policy_weights.begin(), s.policy_weights.end(),
              batch.policy_weight.begin() + b * max_moves);
    std::copy(s.value_target.begin(), s.value_target.end(), batch.value_target.begin() + b * heads);
    batch.plies_left[b] = static_cast<float>(s.plies_left);
  }
  return batch;
}

}  // namespace fairyzero
