// Sample files in HDF5 (schema version 2, docs/FORMAT.md) through the HDF5 C API: the atomic
// writer and the strict reader.
#include "training/data/sample_store.h"

#include <fcntl.h>
#include <hdf5.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <mutex>
#include <stdexcept>
#include <type_traits>

#include "core/temporary_file.h"

namespace fairyzero {

namespace {

namespace fs = std::filesystem;

// A problem found inside one file operation; the public functions add the file's name.
class Failure : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Holds the HDF5 library for one public call. Debian's libhdf5 is built thread-safe (one
// library-wide lock); a build that is not needs its callers serialized, hence the mutex. Error
// printing is switched off on every call because thread-safe builds keep it per thread.
class Hdf5Session {
 public:
  Hdf5Session() { H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr); }

 private:
#ifndef H5_HAVE_THREADSAFE
  static std::mutex& mutex() {
    static std::mutex m;
    return m;
  }
  std::lock_guard<std::mutex> lock_{mutex()};
#endif
};

// The most specific message on the HDF5 error stack (where the error was detected, e.g.
// "truncated file: eof = 100, ..."), and clears the stack.
std::string hdf5_reason() {
  std::string reason;
  H5Ewalk2(
      H5E_DEFAULT, H5E_WALK_UPWARD,
      [](unsigned n, const H5E_error2_t* err, void* data) -> herr_t {
        if (n == 0 && err->desc) *static_cast<std::string*>(data) = err->desc;
        return 0;
      },
      &reason);
  H5Eclear2(H5E_DEFAULT);
  return reason.empty() ? "unknown HDF5 error" : reason;
}

// An HDF5 identifier closed with the function that matches its kind.
class Handle {
 public:
  Handle(hid_t id, herr_t (*closer)(hid_t), const std::string& what) : id_(id), close_(closer) {
    if (id_ < 0) throw Failure(what + ": " + hdf5_reason());
  }
  Handle(Handle&& other) noexcept : id_(other.id_), close_(other.close_) { other.id_ = -1; }
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  ~Handle() { close(); }
  // Closes now, reporting failure (a file's close is where buffered data reaches the disk).
  void close(const char* what = nullptr) {
    if (id_ < 0) return;
    const herr_t status = close_(id_);
    id_ = -1;
    if (status < 0 && what) throw Failure(std::string(what) + ": " + hdf5_reason());
  }
  hid_t get() const { return id_; }

 private:
  hid_t id_;
  herr_t (*close_)(hid_t);
};

void check(herr_t status, const std::string& what) {
  if (status < 0) throw Failure(what + ": " + hdf5_reason());
}

int bytes_per_plane(int cells) { return (cells + 7) / 8; }

// The columns of a file, one vector per dataset, row-major.
struct Columns {
  std::vector<uint8_t> plane_bits;
  std::vector<float> plane_scale;
  std::vector<int64_t> policy_offsets;
  std::vector<int32_t> policy_indices;
  std::vector<float> policy_weights;
  std::vector<float> value_target;
  std::vector<float> outcome;
  std::vector<float> root_value;
  std::vector<int32_t> ply;
  std::vector<int32_t> seat;
  std::vector<int32_t> plies_left;  // optional: empty for files written before it
};

// The datasets of schema version 1 in file order, each with its length (N samples, N + 1, or
// M policy entries) and its row width (0: a vector). Shared by writer and reader.
enum class Rows { kSamples, kOffsets, kEntries };

int64_t row_count(Rows rows, int64_t n, int64_t m) {
  return rows == Rows::kSamples ? n : rows == Rows::kOffsets ? n + 1 : m;
}

template <class C, class F>
void for_each_dataset(const SampleFileInfo& info, C& c, F&& f) {
  const hsize_t width = static_cast<hsize_t>(info.planes) * bytes_per_plane(info.cells);
  const auto planes = static_cast<hsize_t>(info.planes), seats = static_cast<hsize_t>(info.seats);
  f("plane_bits", Rows::kSamples, width, c.plane_bits);
  f("plane_scale", Rows::kSamples, planes, c.plane_scale);
  f("policy_offsets", Rows::kOffsets, 0, c.policy_offsets);
  f("policy_indices", Rows::kEntries, 0, c.policy_indices);
  f("policy_weights", Rows::kEntries, 0, c.policy_weights);
  f("value_target", Rows::kSamples, static_cast<hsize_t>(info.value_heads) * 3, c.value_target);
  f("outcome", Rows::kSamples, seats, c.outcome);
  f("root_value", Rows::kSamples, seats, c.root_value);
  f("ply", Rows::kSamples, 0, c.ply);
  f("seat", Rows::kSamples, 0, c.seat);
}

// Datasets added after their version's first files: written always, read where present.
template <class C, class F>
void for_each_optional_dataset(C& c, F&& f) {
  f("plies_left", Rows::kSamples, 0, c.plies_left);
}

// HDF5 types of the element types above: native in memory, little-endian on disk.
template <class T>
hid_t memory_type() {
  if constexpr (std::is_same_v<T, uint8_t>) return H5T_NATIVE_UINT8;
  if constexpr (std::is_same_v<T, int32_t>) return H5T_NATIVE_INT32;
  if constexpr (std::is_same_v<T, int64_t>) return H5T_NATIVE_INT64;
  if constexpr (std::is_same_v<T, float>) return H5T_NATIVE_FLOAT;
}
template <class T>
hid_t file_type() {
  if constexpr (std::is_same_v<T, uint8_t>) return H5T_STD_U8LE;
  if constexpr (std::is_same_v<T, int32_t>) return H5T_STD_I32LE;
  if constexpr (std::is_same_v<T, int64_t>) return H5T_STD_I64LE;
  if constexpr (std::is_same_v<T, float>) return H5T_IEEE_F32LE;
}

// The shape checks shared by writer and reader.
void check_info(const SampleFileInfo& info) {
  if (info.planes <= 0 || info.cells <= 0 || info.value_heads <= 0)
    throw Failure("bad shape: " + std::to_string(info.planes) + " planes, " +
                  std::to_string(info.cells) + " cells, " + std::to_string(info.value_heads) +
                  " value heads");
  if (info.seats < 1 || info.seats > kMaxSeats)
    throw Failure("bad seat count " + std::to_string(info.seats));
  if (info.samples < 0) throw Failure("negative sample count " + std::to_string(info.samples));
}

Columns to_columns(const SampleFileInfo& info, const std::vector<Sample>& samples) {
  const size_t width = static_cast<size_t>(info.planes) * bytes_per_plane(info.cells);
  const size_t heads = static_cast<size_t>(info.value_heads) * 3;
  Columns c;
  c.policy_offsets.reserve(samples.size() + 1);
  c.policy_offsets.push_back(0);
  for (size_t i = 0; i < samples.size(); ++i) {
    const Sample& s = samples[i];
    const auto expect = [&](size_t got, size_t want, const char* what) {
      if (got != want)
        throw Failure("sample " + std::to_string(i) + " has " + std::to_string(got) + " " + what +
                      ", expected " + std::to_string(want));
    };
    expect(s.plane_bits.size(), width, "plane bytes");
    expect(s.plane_scale.size(), info.planes, "plane scales");
    expect(s.policy_weights.size(), s.policy_indices.size(), "policy weights (one per index)");
    expect(s.value_target.size(), heads, "value targets");
    c.plane_bits.insert(c.plane_bits.end(), s.plane_bits.begin(), s.plane_bits.end());
    c.plane_scale.insert(c.plane_scale.end(), s.plane_scale.begin(), s.plane_scale.end());
    c.policy_indices.insert(c.policy_indices.end(), s.policy_indices.begin(),
                            s.policy_indices.end());
    c.policy_weights.insert(c.policy_weights.end(), s.policy_weights.begin(),
                            s.policy_weights.end());
    c.policy_offsets.push_back(static_cast<int64_t>(c.policy_indices.size()));
    c.value_target.insert(c.value_target.end(), s.value_target.begin(), s.value_target.end());
    c.outcome.insert(c.outcome.end(), s.outcome.begin(), s.outcome.begin() + info.seats);
    c.root_value.insert(c.root_value.end(), s.root_value.begin(),
                        s.root_value.begin() + info.seats);
    c.ply.push_back(s.ply);
    c.seat.push_back(s.seat);
    c.plies_left.push_back(s.plies_left);
  }
  return c;
}

void write_int_attribute(hid_t file, const char* name, int64_t value, hid_t file_type) {
  Handle space(H5Screate(H5S_SCALAR), H5Sclose, "cannot create a dataspace");
  Handle attr(H5Acreate2(file, name, file_type, space.get(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose,
              std::string("cannot create attribute '") + name + "'");
  check(H5Awrite(attr.get(), H5T_NATIVE_INT64, &value),
        std::string("cannot write attribute '") + name + "'");
}

// Variable-length UTF-8, so that h5py reads the value as a str.
void write_string_attribute(hid_t file, const char* name, const std::string& value) {
  Handle type(H5Tcopy(H5T_C_S1), H5Tclose, "cannot create a string type");
  check(H5Tset_size(type.get(), H5T_VARIABLE), "cannot size a string type");
  check(H5Tset_cset(type.get(), H5T_CSET_UTF8), "cannot set a string type's encoding");
  Handle space(H5Screate(H5S_SCALAR), H5Sclose, "cannot create a dataspace");
  Handle attr(H5Acreate2(file, name, type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose,
              std::string("cannot create attribute '") + name + "'");
  const char* text = value.c_str();
  check(H5Awrite(attr.get(), type.get(), &text),
        std::string("cannot write attribute '") + name + "'");
}

// A dataset of `rows` x `cols` (rank 1 when cols is 0). The row dimension is unlimited so that
// a chunk may exceed it (N = 0 included). Chunks of about 256 KiB are big enough for deflate and
// fit HDF5's default 1 MiB chunk cache. Shuffle groups the bytes of multi-byte numbers by
// significance, which helps deflate; on single bytes it would do nothing.
template <class T>
void write_dataset(hid_t file, const char* name, hsize_t rows, hsize_t cols,
                   const std::vector<T>& data) {
  const int rank = cols ? 2 : 1;
  const hsize_t dims[2] = {rows, cols};
  const hsize_t max_dims[2] = {H5S_UNLIMITED, cols};
  const hsize_t row_bytes = (cols ? cols : 1) * sizeof(T);
  const hsize_t chunk[2] = {
      std::clamp<hsize_t>((hsize_t{256} << 10) / row_bytes, 1, std::max<hsize_t>(rows, 1)), cols};
  const std::string what = std::string("dataset '") + name + "'";
  Handle space(H5Screate_simple(rank, dims, max_dims), H5Sclose, "cannot shape " + what);
  Handle dcpl(H5Pcreate(H5P_DATASET_CREATE), H5Pclose, "cannot create properties");
  check(H5Pset_chunk(dcpl.get(), rank, chunk), "cannot chunk " + what);
  if (sizeof(T) > 1) check(H5Pset_shuffle(dcpl.get()), "cannot shuffle " + what);
  check(H5Pset_deflate(dcpl.get(), 4), "cannot compress " + what);
  Handle dset(
      H5Dcreate2(file, name, file_type<T>(), space.get(), H5P_DEFAULT, dcpl.get(), H5P_DEFAULT),
      H5Dclose, "cannot create " + what);
  if (rows > 0)
    check(H5Dwrite(dset.get(), memory_type<T>(), H5S_ALL, H5S_ALL, H5P_DEFAULT, data.data()),
          "cannot write " + what);
  dset.close(("cannot close " + what).c_str());
}

std::string iso_time_now() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

void write_hdf5(const std::string& temp, const SampleFileInfo& info, const Columns& c) {
  Hdf5Session session;
  // Strong close: closing the file closes whatever an error path left open in it.
  Handle fapl(H5Pcreate(H5P_FILE_ACCESS), H5Pclose, "cannot create properties");
  check(H5Pset_fclose_degree(fapl.get(), H5F_CLOSE_STRONG), "cannot set the close degree");
  Handle file(H5Fcreate(temp.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, fapl.get()), H5Fclose,
              "cannot create '" + temp + "'");
  const hid_t f = file.get();
  const int64_t n = static_cast<int64_t>(c.ply.size());
  write_int_attribute(f, "schema_version", kSampleSchemaVersion, H5T_STD_I32LE);
  write_string_attribute(f, "variant", info.variant);
  write_string_attribute(f, "rules_fingerprint", info.rules_fingerprint);
  write_string_attribute(f, "rules", info.rules);
  write_int_attribute(f, "encoder_version", info.encoder_version, H5T_STD_I32LE);
  write_int_attribute(f, "planes", info.planes, H5T_STD_I32LE);
  write_int_attribute(f, "cells", info.cells, H5T_STD_I32LE);
  write_int_attribute(f, "value_heads", info.value_heads, H5T_STD_I32LE);
  write_int_attribute(f, "seats", info.seats, H5T_STD_I32LE);
  write_string_attribute(f, "network", info.network);
  write_int_attribute(f, "samples", n, H5T_STD_I64LE);
  write_string_attribute(f, "created", iso_time_now());

  const int64_t m = static_cast<int64_t>(c.policy_indices.size());
  const auto write = [&](const char* name, Rows rows, hsize_t cols, const auto& data) {
    write_dataset(f, name, row_count(rows, n, m), cols, data);
  };
  for_each_dataset(info, c, write);
  for_each_optional_dataset(c, write);
  check(H5Fflush(f, H5F_SCOPE_GLOBAL), "cannot flush '" + temp + "'");
  file.close(("cannot close '" + temp + "'").c_str());
}

// fsync of a file (data) or of a folder (the rename); the file must reach the disk before the
// rename publishes it, or a crash could leave a complete name over incomplete contents.
void sync_path(const std::string& path, bool folder) {
  const int fd = ::open(path.c_str(), folder ? O_RDONLY | O_DIRECTORY : O_RDONLY);
  if (fd < 0) throw Failure("cannot open '" + path + "' to sync: " + std::strerror(errno));
  const int status = ::fsync(fd);
  const int error = errno;
  ::close(fd);
  if (status != 0) throw Failure("cannot sync '" + path + "': " + std::strerror(error));
}

// Opens a root attribute that holds one value of the type class `kind`; `cset` receives a
// string's encoding.
Handle open_attribute(hid_t file, const char* name, H5T_class_t kind, H5T_cset_t* cset = nullptr) {
  const std::string what = std::string("attribute '") + name + "'";
  if (H5Aexists(file, name) <= 0) throw Failure("lacks " + what);
  Handle attr(H5Aopen(file, name, H5P_DEFAULT), H5Aclose, "cannot open " + what);
  Handle type(H5Aget_type(attr.get()), H5Tclose, "cannot get a type");
  Handle space(H5Aget_space(attr.get()), H5Sclose, "cannot get a dataspace");
  // Strings must be variable-length, as written here (and by h5py for a str).
  if (H5Tget_class(type.get()) != kind || H5Sget_simple_extent_npoints(space.get()) != 1 ||
      (kind == H5T_STRING && H5Tis_variable_str(type.get()) <= 0))
    throw Failure(
        what + (kind == H5T_STRING ? " is not one variable-length string" : " is not one integer"));
  if (cset) *cset = H5Tget_cset(type.get());
  return attr;
}

int64_t read_int_attribute(hid_t file, const char* name, int64_t max = INT32_MAX) {
  Handle attr = open_attribute(file, name, H5T_INTEGER);
  int64_t value = 0;
  check(H5Aread(attr.get(), H5T_NATIVE_INT64, &value),
        std::string("cannot read attribute '") + name + "'");
  if (value < -max - 1 || value > max)
    throw Failure(std::string("attribute '") + name + "' is out of range");
  return value;
}

std::string read_string_attribute(hid_t file, const char* name) {
  H5T_cset_t cset = H5T_CSET_ASCII;
  Handle attr = open_attribute(file, name, H5T_STRING, &cset);
  Handle mem(H5Tcopy(H5T_C_S1), H5Tclose, "cannot create a string type");
  check(H5Tset_size(mem.get(), H5T_VARIABLE), "cannot size a string type");
  check(H5Tset_cset(mem.get(), cset), "cannot set a string encoding");
  char* text = nullptr;
  check(H5Aread(attr.get(), mem.get(), &text), std::string("cannot read attribute '") + name + "'");
  std::string value = text ? text : "";
  H5free_memory(text);
  return value;
}

SampleFileInfo read_info(hid_t file) {
  if (H5Aexists(file, "schema_version") <= 0)
    throw Failure("not a FairyZero sample file (no schema_version attribute)");
  SampleFileInfo info;
  info.schema_version = read_int_attribute(file, "schema_version");
  if (info.schema_version != kSampleSchemaVersion)
    throw Failure("schema version " + std::to_string(info.schema_version) +
                  ", this build reads version " + std::to_string(kSampleSchemaVersion));
  info.variant = read_string_attribute(file, "variant");
  info.rules_fingerprint = read_string_attribute(file, "rules_fingerprint");
  info.rules = read_string_attribute(file, "rules");
  info.encoder_version = read_int_attribute(file, "encoder_version");
  info.planes = read_int_attribute(file, "planes");
  info.cells = read_int_attribute(file, "cells");
  info.value_heads = read_int_attribute(file, "value_heads");
  info.seats = read_int_attribute(file, "seats");
  info.network = read_string_attribute(file, "network");
  info.samples = read_int_attribute(file, "samples", INT64_MAX);
  check_info(info);
  return info;
}

// Opens a dataset after checking its kind of number, rank (1 when cols is 0, else 2) and shape;
// rows < 0 accepts any length and returns it.
Handle open_dataset(hid_t file, const char* name, H5T_class_t kind, int64_t& rows, hsize_t cols) {
  const std::string what = std::string("dataset '") + name + "'";
  if (H5Lexists(file, name, H5P_DEFAULT) <= 0) throw Failure("lacks " + what);
  Handle dset(H5Dopen2(file, name, H5P_DEFAULT), H5Dclose, "cannot open " + what);
  Handle type(H5Dget_type(dset.get()), H5Tclose, "cannot get a type");
  if (H5Tget_class(type.get()) != kind)
    throw Failure(what + " does not hold " + (kind == H5T_FLOAT ? "floats" : "integers"));
  Handle space(H5Dget_space(dset.get()), H5Sclose, "cannot get a dataspace");
  const int rank = H5Sget_simple_extent_ndims(space.get());
  const int expected_rank = cols ? 2 : 1;
  if (rank != expected_rank)
    throw Failure(what + " has rank " + std::to_string(rank) + ", expected " +
                  std::to_string(expected_rank));
  hsize_t dims[2] = {0, 0};
  check(H5Sget_simple_extent_dims(space.get(), dims, nullptr), "cannot get the shape of " + what);
  if ((rows >= 0 && dims[0] != static_cast<hsize_t>(rows)) || dims[1] != cols) {
    const auto shape = [&](const std::string& r, hsize_t c) {
      return "[" + r + (cols ? ", " + std::to_string(c) : "") + "]";
    };
    throw Failure(what + " has shape " + shape(std::to_string(dims[0]), dims[1]) + ", expected " +
                  shape(rows >= 0 ? std::to_string(rows) : "M", cols));
  }
  rows = static_cast<int64_t>(dims[0]);
  return dset;
}

// Reads the attributes and checks every dataset's shape; with `c`, reads the datasets too and
// checks their contents where a bad value would break a reader (offsets, indices, seats).
SampleFileInfo read_file(const std::string& path, Columns* c) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) throw Failure("does not exist or is not a file");
  Hdf5Session session;
  Handle fapl(H5Pcreate(H5P_FILE_ACCESS), H5Pclose, "cannot create properties");
  check(H5Pset_fclose_degree(fapl.get(), H5F_CLOSE_STRONG), "cannot set the close degree");
  Handle file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, fapl.get()), H5Fclose,
              "not a readable HDF5 file");
  const SampleFileInfo info = read_info(file.get());
  const int64_t n = info.samples;
  int64_t m = -1;  // the policy entries: policy_indices's length, which policy_weights must match
  Columns ignored;
  const auto read = [&](const char* name, Rows kind, hsize_t cols, auto& data) {
    using T = typename std::decay_t<decltype(data)>::value_type;
    int64_t rows = row_count(kind, n, m);
    Handle dset = open_dataset(file.get(), name,
                               std::is_floating_point_v<T> ? H5T_FLOAT : H5T_INTEGER, rows, cols);
    if (kind == Rows::kEntries) m = rows;
    if (!c) return;
    data.resize(static_cast<size_t>(rows) * (cols ? cols : 1));
    if (!data.empty())
      check(H5Dread(dset.get(), memory_type<T>(), H5S_ALL, H5S_ALL, H5P_DEFAULT, data.data()),
            std::string("cannot read dataset '") + name + "'");
  };
  for_each_dataset(info, c ? *c : ignored, read);
  for_each_optional_dataset(c ? *c : ignored,
                            [&](const char* name, Rows kind, hsize_t cols, auto& data) {
                              if (H5Lexists(file.get(), name, H5P_DEFAULT) > 0)
                                read(name, kind, cols, data);
                            });
  if (!c) return info;

  const std::vector<int64_t>& offsets = c->policy_offsets;
  if (offsets[0] != 0) throw Failure("policy_offsets[0] is " + std::to_string(offsets[0]));
  for (int64_t i = 0; i < n; ++i)
    if (offsets[i + 1] < offsets[i])
      throw Failure("policy_offsets decrease at sample " + std::to_string(i));
  if (offsets[n] != m)
    throw Failure("policy_offsets end at " + std::to_string(offsets[n]) + " but there are " +
                  std::to_string(m) + " policy entries");
  for (int64_t j = 0; j < m; ++j)
    if (c->policy_indices[j] < 0)
      throw Failure("negative policy index at entry " + std::to_string(j));
  for (int64_t i = 0; i < n; ++i)
    if (c->seat[i] < 0 || c->seat[i] >= info.seats)
      throw Failure("sample " + std::to_string(i) + " has seat " + std::to_string(c->seat[i]) +
                    " of " + std::to_string(info.seats));
  return info;
}

std::vector<Sample> to_samples(const SampleFileInfo& info, const Columns& c) {
  const size_t width = static_cast<size_t>(info.planes) * bytes_per_plane(info.cells);
  const size_t planes = info.planes, heads = static_cast<size_t>(info.value_heads) * 3,
               seats = info.seats;
  std::vector<Sample> samples(static_cast<size_t>(info.samples));
  for (size_t i = 0; i < samples.size(); ++i) {
    Sample& s = samples[i];
    s.plane_bits.assign(c.plane_bits.begin() + i * width, c.plane_bits.begin() + (i + 1) * width);
    s.plane_scale.assign(c.plane_scale.begin() + i * planes,
                         c.plane_scale.begin() + (i + 1) * planes);
    const auto from = c.policy_offsets[i], to = c.policy_offsets[i + 1];
    s.policy_indices.assign(c.policy_indices.begin() + from, c.policy_indices.begin() + to);
    s.policy_weights.assign(c.policy_weights.begin() + from, c.policy_weights.begin() + to);
    s.value_target.assign(c.value_target.begin() + i * heads,
                          c.value_target.begin() + (i + 1) * heads);
    std::copy_n(c.outcome.begin() + i * seats, seats, s.outcome.begin());
    std::copy_n(c.root_value.begin() + i * seats, seats, s.root_value.begin());
    s.ply = c.ply[i];
    s.seat = c.seat[i];
    s.plies_left = c.plies_left.empty() ? -1 : c.plies_left[i];
  }
  return samples;
}

}  // namespace

void write_sample_file(const std::string& path, const SampleFileInfo& info,
                       const std::vector<Sample>& samples) {
  const std::string prefix = "cannot write sample file '" + path + "': ";
  Columns columns;
  try {
    check_info(info);
    columns = to_columns(info, samples);
  } catch (const Failure& e) {
    throw SampleFileError(prefix + e.what());
  }
  // A name no other writer (thread or process) uses, in the same folder so rename is atomic.
  const std::string temp = temporary_name(path);
  const auto remove_temp = [&] {
    std::error_code ignored;
    fs::remove(temp, ignored);
  };
  try {
    write_hdf5(temp, info, columns);
    sync_path(temp, false);
    std::error_code ec;
    fs::rename(temp, path, ec);
    if (ec) throw Failure("cannot rename '" + temp + "': " + ec.message());
  } catch (const Failure& e) {
    remove_temp();
    throw SampleFileError(prefix + e.what());
  } catch (...) {
    remove_temp();
    throw;
  }
  // The file is complete and published; syncing the folder only makes the rename durable, so a
  // failure there is not worth an exception.
  try {
    sync_path(fs::path(path).parent_path().empty() ? "." : fs::path(path).parent_path().string(),
              true);
  } catch (const Failure&) {
  }
}

SampleFileInfo read_sample_file_info(const std::string& path) {
  try {
    return read_file(path, nullptr);
  } catch (const Failure& e) {
    throw SampleFileError("sample file '" + path + "': " + e.what());
  }
}

std::vector<Sample> read_sample_file(const std::string& path, SampleFileInfo* info) {
  try {
    Columns columns;
    const SampleFileInfo read = read_file(path, &columns);
    if (info) *info = read;
    return to_samples(read, columns);
  } catch (const Failure& e) {
    throw SampleFileError("sample file '" + path + "': " + e.what());
  }
}

}  // namespace fairyzero
