// Plane packing, sample files (exact round trip, atomic writes, clear refusals of truncated,
// corrupt and foreign files) and the sample window (newest samples kept, bad files skipped).
#include "training/data/sample_store.h"

#include <gtest/gtest.h>
#include <hdf5.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace fairyzero {
namespace {

namespace fs = std::filesystem;

// A fresh folder per test, removed after.
class TempDir {
 public:
  TempDir() {
    std::random_device random;
    path_ =
        fs::temp_directory_path() / ("fairyzero_sample_store_test_" + std::to_string(::getpid()) +
                                     "_" + std::to_string(random()));
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~TempDir() { fs::remove_all(path_); }
  std::string path() const { return path_.string(); }
  std::string file(const std::string& name) const { return (path_ / name).string(); }
  std::vector<std::string> names() const {
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(path_))
      names.push_back(entry.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
  }

 private:
  fs::path path_;
};

SampleFileInfo test_info(const std::string& variant = "testvariant") {
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
Sample random_sample(std::mt19937_64& rng, const SampleFileInfo& info, int32_t ply) {
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

std::vector<Sample> random_samples(const SampleFileInfo& info, int count, int32_t first_ply,
                                   uint64_t seed = 1) {
  std::mt19937_64 rng(seed);
  std::vector<Sample> samples;
  for (int i = 0; i < count; ++i) samples.push_back(random_sample(rng, info, first_ply + i));
  return samples;
}

void expect_same(const Sample& a, const Sample& b, size_t i) {
  SCOPED_TRACE("sample " + std::to_string(i));
  EXPECT_EQ(a.plane_bits, b.plane_bits);
  EXPECT_EQ(a.plane_scale, b.plane_scale);
  EXPECT_EQ(a.policy_indices, b.policy_indices);
  EXPECT_EQ(a.policy_weights, b.policy_weights);
  EXPECT_EQ(a.value_target, b.value_target);
  EXPECT_EQ(a.outcome, b.outcome);
  EXPECT_EQ(a.root_value, b.root_value);
  EXPECT_EQ(a.ply, b.ply);
  EXPECT_EQ(a.seat, b.seat);
  EXPECT_EQ(a.plies_left, b.plies_left);
}

void expect_file_error(const std::function<void()>& f, const std::vector<std::string>& parts) {
  try {
    f();
    ADD_FAILURE() << "no exception";
  } catch (const SampleFileError& e) {
    for (const std::string& part : parts)
      EXPECT_NE(std::string(e.what()).find(part), std::string::npos)
          << "message lacks '" << part << "': " << e.what();
  }
}

void expect_unreadable(const std::string& path, const std::vector<std::string>& parts) {
  std::vector<std::string> all = parts;
  all.push_back("'" + path + "'");
  expect_file_error([&] { read_sample_file(path); }, all);
  expect_file_error([&] { read_sample_file_info(path); }, {"'" + path + "'"});
}

void write_bytes(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// Edits of a valid file through HDF5 directly, to make it inconsistent.
void set_int_attribute(const std::string& path, const char* name, int64_t value) {
  hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  hid_t attr = H5Aopen(file, name, H5P_DEFAULT);
  ASSERT_GE(H5Awrite(attr, H5T_NATIVE_INT64, &value), 0);
  H5Aclose(attr);
  H5Fclose(file);
}

template <class T>
void edit_dataset(const std::string& path, const char* name, hid_t type,
                  const std::function<void(std::vector<T>&)>& edit) {
  hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  hid_t dset = H5Dopen2(file, name, H5P_DEFAULT);
  hid_t space = H5Dget_space(dset);
  std::vector<T> values(H5Sget_simple_extent_npoints(space));
  H5Sclose(space);
  ASSERT_GE(H5Dread(dset, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()), 0);
  edit(values);
  ASSERT_GE(H5Dwrite(dset, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()), 0);
  H5Dclose(dset);
  H5Fclose(file);
}

TEST(PackPlanes, RoundTripsZeroOneAndConstantPlanes) {
  const int planes = 6, cells = 90;  // 9 x 10: 12 bytes per plane, the last one partly used
  std::mt19937_64 rng(7);
  std::vector<float> in(planes * cells, 0.0f);
  for (int c = 0; c < cells; ++c) {
    in[0 * cells + c] = static_cast<float>(rng() % 2);           // 0/1
    in[1 * cells + c] = 0.375f;                                  // constant
    in[3 * cells + c] = -0.5f;                                   // negative constant
    in[4 * cells + c] = rng() % 3 == 0 ? 2.5f : 0.0f;            // sparse, scaled
    in[5 * cells + c] = c == 0 || c == cells - 1 ? 1.0f : 0.0f;  // first and last cell
  }                                                              // plane 2 stays all zero
  Sample s;
  pack_planes(in.data(), planes, cells, s);
  ASSERT_EQ(s.plane_bits.size(), static_cast<size_t>(planes * 12));
  EXPECT_EQ(s.plane_scale, (std::vector<float>{1.0f, 0.375f, 0.0f, -0.5f, 2.5f, 1.0f}));
  for (int p = 0; p < planes; ++p)
    for (int c = 0; c < cells; ++c)
      EXPECT_EQ((s.plane_bits[p * 12 + c / 8] >> (c % 8)) & 1, in[p * cells + c] != 0.0f)
          << "plane " << p << " cell " << c;
  EXPECT_EQ(s.plane_bits[5 * 12 + 11], 0x02) << "cell 89 is bit 1 of byte 11; padding is zero";
  std::vector<float> out(planes * cells, -9.0f);
  unpack_planes(s, planes, cells, out.data());
  EXPECT_EQ(out, in);
}

TEST(PackPlanes, RejectsTwoDifferentNonZeroValues) {
  std::vector<float> in(2 * 8, 0.0f);
  in[8 + 2] = 1.0f;
  in[8 + 5] = 0.5f;
  Sample s;
  EXPECT_THROW(pack_planes(in.data(), 2, 8, s), std::invalid_argument);
  in[8 + 5] = std::nanf("");
  EXPECT_THROW(pack_planes(in.data(), 2, 8, s), std::invalid_argument);
}

TEST(SampleFile, RoundTripsEveryFieldExactly) {
  TempDir dir;
  const SampleFileInfo info = test_info();
  const std::vector<Sample> samples = random_samples(info, 300, 0);
  write_sample_file(dir.file("a.h5"), info, samples);

  SampleFileInfo read_info;
  const std::vector<Sample> read = read_sample_file(dir.file("a.h5"), &read_info);
  EXPECT_EQ(read_info.schema_version, kSampleSchemaVersion);
  EXPECT_EQ(read_info.variant, info.variant);
  EXPECT_EQ(read_info.rules_fingerprint, info.rules_fingerprint);
  EXPECT_EQ(read_info.rules, info.rules);
  EXPECT_EQ(read_info.encoder_version, info.encoder_version);
  EXPECT_EQ(read_info.planes, info.planes);
  EXPECT_EQ(read_info.cells, info.cells);
  EXPECT_EQ(read_info.value_heads, info.value_heads);
  EXPECT_EQ(read_info.seats, info.seats);
  EXPECT_EQ(read_info.network, info.network);
  EXPECT_EQ(read_info.samples, 300);
  ASSERT_EQ(read.size(), samples.size());
  for (size_t i = 0; i < read.size(); ++i) expect_same(read[i], samples[i], i);
  EXPECT_EQ(read_sample_file_info(dir.file("a.h5")).samples, 300);

  // FAIRYZERO_KEEP_SAMPLE_FILE=path keeps a copy, for trying scripts/read_samples.py by hand.
  if (const char* keep = std::getenv("FAIRYZERO_KEEP_SAMPLE_FILE"))
    fs::copy_file(dir.file("a.h5"), keep, fs::copy_options::overwrite_existing);
}

// Files written before the plies_left dataset (same schema version: an addition) are still
// read: their samples have no moves-left target (-1).
TEST(SampleFile, FilesWithoutPliesLeftReadWithoutAMovesLeftTarget) {
  TempDir dir;
  const SampleFileInfo info = test_info();
  const std::vector<Sample> samples = random_samples(info, 20, 0);
  const std::string path = dir.file("old.h5");
  write_sample_file(path, info, samples);
  hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  ASSERT_GE(H5Ldelete(file, "plies_left", H5P_DEFAULT), 0);
  H5Fclose(file);
  const std::vector<Sample> read = read_sample_file(path);
  ASSERT_EQ(read.size(), samples.size());
  for (size_t i = 0; i < read.size(); ++i) {
    EXPECT_EQ(read[i].plies_left, -1);
    EXPECT_EQ(read[i].policy_indices, samples[i].policy_indices);
  }
}

TEST(SampleFile, EmptyFileIsValid) {
  TempDir dir;
  write_sample_file(dir.file("empty.h5"), test_info(), {});
  SampleFileInfo info;
  EXPECT_TRUE(read_sample_file(dir.file("empty.h5"), &info).empty());
  EXPECT_EQ(info.samples, 0);
  EXPECT_EQ(info.variant, "testvariant");
}

TEST(SampleFile, TruncatedFilesAreRefusedWithTheirName) {
  TempDir dir;
  write_sample_file(dir.file("good.h5"), test_info(), random_samples(test_info(), 300, 0));
  const std::string bytes = read_bytes(dir.file("good.h5"));
  ASSERT_GT(bytes.size(), 1000u);
  write_bytes(dir.file("half.h5"), bytes.substr(0, bytes.size() / 2));
  write_bytes(dir.file("hundred.h5"), bytes.substr(0, 100));
  write_bytes(dir.file("zero.h5"), "");
  expect_unreadable(dir.file("half.h5"), {"truncated"});
  expect_unreadable(dir.file("hundred.h5"), {});
  expect_unreadable(dir.file("zero.h5"), {});
}

TEST(SampleFile, GarbageAndMissingFilesAreRefusedWithTheirName) {
  TempDir dir;
  std::mt19937_64 rng(3);
  std::string garbage;
  for (int i = 0; i < 5000; ++i) garbage.push_back(static_cast<char>(rng()));
  write_bytes(dir.file("garbage.h5"), garbage);
  write_bytes(dir.file("text.h5"), "ply,seat\n1,0\n");
  expect_unreadable(dir.file("garbage.h5"), {"not a readable HDF5 file"});
  expect_unreadable(dir.file("text.h5"), {"not a readable HDF5 file"});
  expect_unreadable(dir.file("missing.h5"), {"does not exist"});
}

TEST(SampleFile, ForeignAndInconsistentFilesAreRefused) {
  TempDir dir;
  const SampleFileInfo info = test_info();
  const std::string good = dir.file("good.h5");
  write_sample_file(good, info, random_samples(info, 50, 0));
  const auto copy = [&](const std::string& name) {
    fs::copy_file(good, dir.file(name));
    return dir.file(name);
  };

  // An HDF5 file of someone else's.
  hid_t file = H5Fcreate(dir.file("foreign.h5").c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  const hsize_t dims[1] = {4};
  hid_t space = H5Screate_simple(1, dims, nullptr);
  hid_t dset = H5Dcreate2(file, "x", H5T_STD_I32LE, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  H5Dclose(dset);
  H5Sclose(space);
  H5Fclose(file);
  expect_unreadable(dir.file("foreign.h5"), {"not a FairyZero sample file"});

  const std::string future = copy("future.h5");
  set_int_attribute(future, "schema_version", kSampleSchemaVersion + 1);
  expect_unreadable(future, {"schema version " + std::to_string(kSampleSchemaVersion + 1)});

  const std::string miscounted = copy("miscounted.h5");
  set_int_attribute(miscounted, "samples", 51);
  expect_unreadable(miscounted, {"plane_bits", "shape"});

  const std::string no_root_value = copy("no_root_value.h5");
  file = H5Fopen(no_root_value.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  ASSERT_GE(H5Ldelete(file, "root_value", H5P_DEFAULT), 0);
  H5Fclose(file);
  expect_unreadable(no_root_value, {"lacks dataset 'root_value'"});

  const std::string offsets = copy("offsets.h5");
  edit_dataset<int64_t>(offsets, "policy_offsets", H5T_NATIVE_INT64,
                        [](std::vector<int64_t>& v) { v[10] = v[12] + 1; });
  expect_file_error([&] { read_sample_file(offsets); }, {"policy_offsets decrease", offsets});

  const std::string negative = copy("negative.h5");
  edit_dataset<int32_t>(negative, "policy_indices", H5T_NATIVE_INT32,
                        [](std::vector<int32_t>& v) { v[3] = -1; });
  expect_file_error([&] { read_sample_file(negative); }, {"negative policy index", negative});
}

TEST(SampleFile, WritesAreAtomic) {
  TempDir dir;
  const SampleFileInfo info = test_info();
  write_sample_file(dir.file("a.h5"), info, random_samples(info, 20, 0));
  EXPECT_EQ(dir.names(), std::vector<std::string>{"a.h5"});
  // Replacing a file leaves only the new one.
  write_sample_file(dir.file("a.h5"), info, random_samples(info, 30, 100));
  EXPECT_EQ(dir.names(), std::vector<std::string>{"a.h5"});
  EXPECT_EQ(read_sample_file(dir.file("a.h5")).at(0).ply, 100);

  // A folder that does not exist: nothing is created.
  const std::string nowhere = dir.file("missing/b.h5");
  expect_file_error([&] { write_sample_file(nowhere, info, random_samples(info, 5, 0)); },
                    {"'" + nowhere + "'"});
  EXPECT_FALSE(fs::exists(dir.file("missing")));

  // The rename fails (the target is a folder) after the temporary was written: it goes.
  fs::create_directory(dir.file("folder.h5"));
  expect_file_error(
      [&] { write_sample_file(dir.file("folder.h5"), info, random_samples(info, 5, 0)); },
      {"'" + dir.file("folder.h5") + "'"});
  EXPECT_EQ(dir.names(), (std::vector<std::string>{"a.h5", "folder.h5"}));
  EXPECT_TRUE(fs::is_empty(dir.file("folder.h5")));

  // A malformed sample is refused before anything is written.
  std::vector<Sample> bad = random_samples(info, 5, 0);
  bad[3].plane_bits.pop_back();
  expect_file_error([&] { write_sample_file(dir.file("c.h5"), info, bad); },
                    {"'" + dir.file("c.h5") + "'", "sample 3"});
  EXPECT_EQ(dir.names(), (std::vector<std::string>{"a.h5", "folder.h5"}));
}

TEST(SampleFile, ThreadsWriteAndReadConcurrently) {
  TempDir dir;
  const SampleFileInfo info = test_info();
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      for (int k = 0; k < 5; ++k) {
        const std::string path =
            dir.file("t" + std::to_string(t) + "-" + std::to_string(k) + ".h5");
        write_sample_file(path, info, random_samples(info, 50, t * 1000 + k, t * 10 + k));
        EXPECT_EQ(read_sample_file(path).at(0).ply, t * 1000 + k);
      }
    });
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(dir.names().size(), 20u);
}

// Generation g holds `count` samples with plies (and first policy indices) g * 1000 + i.
std::vector<Sample> write_generation(const TempDir& dir, int g, int count,
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
  TempDir dir;
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
  testing::internal::CaptureStderr();
  EXPECT_EQ(window.refresh(), 100);
  const std::string printed = testing::internal::GetCapturedStderr();
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

  testing::internal::CaptureStderr();
  write_generation(dir, 6, 10);
  EXPECT_EQ(window.refresh(), 110);
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
  EXPECT_EQ(window.warnings().size(), 3u);
}

TEST(SampleWindow, KeepsTheNewestCapacitySamples) {
  TempDir dir;
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
  TempDir dir;
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
  TempDir dir;
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
  TempDir dir;
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
  TempDir dir;
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
