// The sample window: the newest samples of a folder kept, files of other rules and unreadable
// files skipped with one warning each, batches drawn from exactly the samples held.
#include "training/data/sample_window.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "tests/training/data/sample_test_support.h"
#include "training/data/sample_store.h"

namespace fairyzero {
namespace {

namespace fs = std::filesystem;
using namespace sample_test;  // the helpers of tests/training/data/sample_test_support.h

// Generation g holds `count` samples with plies (and first policy indices) g * 1000 + i.
std::vector<Sample> write_generation(const SampleDir& dir, int g, int count,
                                     const SampleFileInfo& info = test_info()) {
  char name[32];
  std::snprintf(name, sizeof name, "gen-%04d.h5", g);
  std::vector<Sample> samples = random_samples(info, count, g * 1000, g + 1);
  write_sample_file(dir.file(name), info, samples);
  return samples;
}

std::set<int64_t> ids(int g, int from, int to) {
  std::set<int64_t> ids;
  for (int i = from; i < to; ++i) ids.insert(g * 1000 + i);
  return ids;
}

std::set<int64_t> operator+(std::set<int64_t> a, const std::set<int64_t>& b) {
  a.insert(b.begin(), b.end());
  return a;
}

// The ids of the samples a window draws, in enough draws to see every one of a few hundred.
std::set<int64_t> drawn_ids(const SampleWindow& window) {
  std::mt19937_64 rng(11);
  std::set<int64_t> ids;
  for (int k = 0; k < 40; ++k) {
    const TrainingBatch batch = window.sample_batch(500, rng);
    for (int b = 0; b < batch.size; ++b) ids.insert(batch.policy_index[b * batch.max_moves]);
  }
  return ids;
}

TEST(SampleWindow, SkipsOtherVariantsAndUnreadableFilesWithOneWarningEach) {
  SampleDir dir;
  write_generation(dir, 0, 50);
  write_generation(dir, 1, 50, test_info("othervariant"));
  write_generation(dir, 2, 50);
  SampleFileInfo wide = test_info();
  wide.planes = 8;
  write_generation(dir, 3, 50, wide);
  write_bytes(dir.file("gen-0004.h5"), "not a sample file");
  write_bytes(dir.file("gen-0005.h5.tmp-999-0"), "a writer's temporary");
  write_bytes(dir.file("notes.txt"), "not a sample file either");

  SampleWindow window(dir.path(), test_info(), 1000);
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(window.refresh(), 100);
  const std::string printed = ::testing::internal::GetCapturedStderr();
  ASSERT_EQ(window.warnings().size(), 3u);
  const auto warned = [&](const std::string& file, const std::string& reason) {
    for (const std::string& w : window.warnings())
      if (w.find(dir.file(file)) != std::string::npos && w.find(reason) != std::string::npos)
        return printed.find(w) != std::string::npos;
    return false;
  };
  EXPECT_TRUE(warned("gen-0001.h5",
                     "other rules (fingerprint fp-othervariant, expected fp-testvariant); first "
                     "difference: rules.move_rule: '11' here, '12' there"));
  EXPECT_TRUE(warned("gen-0003.h5", "planes 8, expected 7"));
  EXPECT_TRUE(warned("gen-0004.h5", "not a readable HDF5 file"));
  EXPECT_EQ(drawn_ids(window), ids(0, 0, 50) + ids(2, 0, 50));

  ::testing::internal::CaptureStderr();
  write_generation(dir, 6, 10);
  EXPECT_EQ(window.refresh(), 110);
  EXPECT_EQ(::testing::internal::GetCapturedStderr(), "");
  EXPECT_EQ(window.warnings().size(), 3u);
}

TEST(SampleWindow, KeepsTheNewestCapacitySamples) {
  SampleDir dir;
  SampleWindow window(dir.path(), test_info(), 250);
  write_generation(dir, 0, 100);
  write_generation(dir, 1, 100);
  EXPECT_EQ(window.refresh(), 200);
  EXPECT_EQ(drawn_ids(window), ids(0, 0, 100) + ids(1, 0, 100));

  write_generation(dir, 2, 100);
  EXPECT_EQ(window.refresh(), 250);
  EXPECT_EQ(drawn_ids(window), ids(0, 50, 100) + ids(1, 0, 100) + ids(2, 0, 100));

  write_generation(dir, 3, 100);
  EXPECT_EQ(window.refresh(), 250);
  EXPECT_EQ(drawn_ids(window), ids(1, 50, 100) + ids(2, 0, 100) + ids(3, 0, 100));

  // A new window over the same folder holds the same samples.
  SampleWindow fresh(dir.path(), test_info(), 250);
  EXPECT_EQ(fresh.refresh(), 250);
  EXPECT_EQ(drawn_ids(fresh), ids(1, 50, 100) + ids(2, 0, 100) + ids(3, 0, 100));

  // Samples held stay when their file is deleted; a big new file pushes them out.
  fs::remove(dir.file("gen-0002.h5"));
  EXPECT_EQ(window.refresh(), 250);
  write_generation(dir, 4, 300);
  EXPECT_EQ(window.refresh(), 250);
  EXPECT_EQ(drawn_ids(window), ids(4, 50, 300));
  EXPECT_TRUE(window.warnings().empty());
}

TEST(SampleWindow, CountsEveryPublishedSampleAndReadsLateFilesAndTemporariesNever) {
  SampleDir dir;
  SampleWindow window(dir.path(), test_info(), 150);
  write_generation(dir, 1, 100);
  write_generation(dir, 2, 100);
  EXPECT_EQ(window.refresh(), 150);
  EXPECT_EQ(window.published(), 200);  // also the samples too old for the window
  EXPECT_EQ(window.published_files(), 2);
  // A temporary (a writer still at work, or killed) is neither read nor counted.
  fs::copy_file(dir.file("gen-0002.h5"), dir.file("gen-0003.h5.tmp-node1-77-0"));
  // A file that arrives late, with an older name, is counted when it comes.
  write_generation(dir, 0, 40);
  EXPECT_EQ(window.refresh(), 150);
  EXPECT_EQ(window.published(), 240);
  EXPECT_EQ(window.published_files(), 3);
  EXPECT_EQ(drawn_ids(window), ids(1, 50, 100) + ids(2, 0, 100));
  EXPECT_EQ(window.files(),
            (std::vector<std::string>{dir.file("gen-0001.h5"), dir.file("gen-0002.h5")}));
}

TEST(SampleWindow, AnotherRankHoldsExactlyTheFilesItIsGiven) {
  SampleDir dir;
  write_generation(dir, 0, 100);
  write_generation(dir, 1, 100);
  SampleWindow leader(dir.path(), test_info(), 150);
  leader.refresh();
  write_generation(dir, 2, 100);  // published after the leader chose
  SampleWindow other(dir.path(), test_info(), 150);
  EXPECT_EQ(other.refresh_from(leader.files()), 150);
  EXPECT_EQ(drawn_ids(other), drawn_ids(leader));
  EXPECT_EQ(other.files(), leader.files());
}

TEST(SampleWindow, BatchesHaveTheRightShapesAndComeFromTheWindow) {
  SampleDir dir;
  const SampleFileInfo info = test_info();
  std::map<int64_t, Sample> by_id;
  for (int g = 0; g < 2; ++g)
    for (Sample& s : write_generation(dir, g, 40)) by_id[s.policy_indices[0]] = std::move(s);
  SampleWindow window(dir.path(), info, 1000);
  ASSERT_EQ(window.refresh(), 80);

  std::mt19937_64 rng(5);
  const int batch_size = 64, plane_floats = info.planes * info.cells, heads = 3 * 2;
  const TrainingBatch batch = window.sample_batch(batch_size, rng);
  ASSERT_EQ(batch.size, batch_size);
  ASSERT_EQ(batch.planes.size(), static_cast<size_t>(batch_size * plane_floats));
  ASSERT_EQ(batch.policy_index.size(), static_cast<size_t>(batch_size * batch.max_moves));
  ASSERT_EQ(batch.policy_weight.size(), static_cast<size_t>(batch_size * batch.max_moves));
  ASSERT_EQ(batch.value_target.size(), static_cast<size_t>(batch_size * heads));
  size_t longest = 0;
  for (int b = 0; b < batch_size; ++b) {
    SCOPED_TRACE("row " + std::to_string(b));
    const auto it = by_id.find(batch.policy_index[b * batch.max_moves]);
    ASSERT_NE(it, by_id.end());
    const Sample& s = it->second;
    longest = std::max(longest, s.policy_indices.size());
    std::vector<float> planes(plane_floats);
    unpack_planes(s, info.planes, info.cells, planes.data());
    EXPECT_TRUE(std::equal(planes.begin(), planes.end(), batch.planes.begin() + b * plane_floats));
    for (int k = 0; k < batch.max_moves; ++k) {
      const bool move = k < static_cast<int>(s.policy_indices.size());
      EXPECT_EQ(batch.policy_index[b * batch.max_moves + k], move ? s.policy_indices[k] : 0);
      EXPECT_EQ(batch.policy_weight[b * batch.max_moves + k], move ? s.policy_weights[k] : 0.0f);
    }
    EXPECT_TRUE(std::equal(s.value_target.begin(), s.value_target.end(),
                           batch.value_target.begin() + b * heads));
  }
  EXPECT_EQ(batch.max_moves, static_cast<int>(longest));
}

TEST(SampleWindow, EmptyWindowRefusesToDraw) {
  SampleDir dir;
  SampleWindow window(dir.path(), test_info(), 100);
  EXPECT_EQ(window.refresh(), 0);
  std::mt19937_64 rng(1);
  EXPECT_THROW(window.sample_batch(8, rng), std::logic_error);
  SampleWindow nowhere(dir.file("missing"), test_info(), 100);
  EXPECT_EQ(nowhere.refresh(), 0);
  write_sample_file(dir.file("gen-0000.h5"), test_info(), {});
  EXPECT_EQ(window.refresh(), 0);
  EXPECT_THROW(window.sample_batch(8, rng), std::logic_error);
}

}  // namespace
}  // namespace fairyzero
