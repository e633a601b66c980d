// Plane packing and sample files: exact round trip, atomic writes, clear refusals of truncated,
// corrupt and foreign files.
#include "training/data/sample_store.h"

#include <gtest/gtest.h>
#include <hdf5.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "tests/training/data/sample_test_support.h"

namespace fairyzero {
namespace {

namespace fs = std::filesystem;
using namespace sample_test;  // the helpers of tests/training/data/sample_test_support.h

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
  SampleDir dir;
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
  SampleDir dir;
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
  SampleDir dir;
  write_sample_file(dir.file("empty.h5"), test_info(), {});
  SampleFileInfo info;
  EXPECT_TRUE(read_sample_file(dir.file("empty.h5"), &info).empty());
  EXPECT_EQ(info.samples, 0);
  EXPECT_EQ(info.variant, "testvariant");
}

TEST(SampleFile, TruncatedFilesAreRefusedWithTheirName) {
  SampleDir dir;
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
  SampleDir dir;
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
  SampleDir dir;
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
  SampleDir dir;
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
  SampleDir dir;
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

}  // namespace
}  // namespace fairyzero
