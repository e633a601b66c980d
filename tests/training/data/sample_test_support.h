// Helpers of the sample file and sample window tests: a temporary folder, and sample files of
// random contents whose rows say which sample they are.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "tests/support/files.h"
#include "training/data/sample_store.h"

namespace fairyzero::sample_test {

// A temporary folder (removed after the test) that names its files and lists them.
class SampleDir : public testing::TempDir {
 public:
  SampleDir() : TempDir("fairyzero-samples-") {}
  std::string file(const std::string& name) const { return *this / name; }
  std::vector<std::string> names() const {
    std::vector<std::string> names;
    for (const auto& entry : std::filesystem::directory_iterator(path()))
      names.push_back(entry.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
  }
};

inline SampleFileInfo test_info(const std::string& variant = "testvariant") {
  SampleFileInfo info;
  info.variant = variant;
  // Rules fields as core/rules_fingerprint.h writes them; another variant differs in a field.
  info.rules = "board.size = 5x2\nrules.move_rule = " + std::to_string(variant.size()) + "\n";
  info.rules_fingerprint = "fp-" + variant;
  info.encoder_version = 1;
  info.planes = 7;
  info.cells = 10;  // not a multiple of 8: each plane's last byte is partly padding
  info.value_heads = 2;
  info.seats = 3;
  info.network = "gen-0001";
  return info;
}

// A sample of random contents; its first policy index is `ply`, so that a batch row tells
// which sample it came from.
inline Sample random_sample(std::mt19937_64& rng, const SampleFileInfo& info, int32_t ply) {
  std::uniform_real_distribution<float> real(-1.0f, 2.0f);
  Sample s;
  const int bpp = (info.cells + 7) / 8;
  for (int i = 0; i < info.planes * bpp; ++i) s.plane_bits.push_back(rng() & 0xff);
  for (int p = 0; p < info.planes; ++p) s.plane_scale.push_back(p % 3 ? 1.0f : real(rng));
  const int moves = 1 + static_cast<int>(rng() % 40);
  float total = 0;
  for (int k = 0; k < moves; ++k) {
    s.policy_indices.push_back(k == 0 ? ply : static_cast<int32_t>(rng() % 50000));
    s.policy_weights.push_back(0.01f + std::abs(real(rng)));
    total += s.policy_weights.back();
  }
  for (float& w : s.policy_weights) w /= total;
  for (int k = 0; k < info.value_heads * 3; ++k) s.value_target.push_back(real(rng));
  for (int seat = 0; seat < info.seats; ++seat) {
    s.outcome[seat] = 0.5f * static_cast<float>(rng() % 3);
    s.root_value[seat] = real(rng);
  }
  s.ply = ply;
  s.seat = static_cast<int32_t>(rng() % info.seats);
  s.plies_left = static_cast<int32_t>(rng() % 200);
  return s;
}

inline std::vector<Sample> random_samples(const SampleFileInfo& info, int count, int32_t first_ply,
                                          uint64_t seed = 1) {
  std::mt19937_64 rng(seed);
  std::vector<Sample> samples;
  for (int i = 0; i < count; ++i) samples.push_back(random_sample(rng, info, first_ply + i));
  return samples;
}

inline void write_bytes(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

}  // namespace fairyzero::sample_test
