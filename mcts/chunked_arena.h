// A growable array whose elements never move: chunks of doubling size, allocated as needed, so
// search threads hold indices (and references) into the tree while others append to it.
#pragma once

#include <array>
#include <atomic>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <stdexcept>

namespace fairyzero {

// Chunk c holds 2^(kFirstBits + c) elements (the first two kFirst each), so an index finds its
// chunk with one count of leading zeros, and a run of up to kFirst elements fits in any chunk.
// allocate() may be called from any number of threads at once; clear() only when no other
// thread uses the arena. Elements are default-constructed once, when their chunk is made:
// whoever allocates an element sets all its fields before publishing its index.
template <class T, int kFirstBits = 12>
class ChunkedArena {
 public:
  static constexpr int64_t kFirst = int64_t{1} << kFirstBits;
  static constexpr int kChunks = 32 - kFirstBits;  // room for 2^31 elements: int32 indices

  ChunkedArena() = default;
  ChunkedArena(const ChunkedArena&) = delete;
  ChunkedArena& operator=(const ChunkedArena&) = delete;
  ~ChunkedArena() {
    for (auto& c : chunks_) delete[] c.load(std::memory_order_relaxed);
  }

  // The first of `count` consecutive new elements (count <= kFirst), all in one chunk.
  int32_t allocate(int count) {
    int64_t start = size_.load(std::memory_order_relaxed);
    int64_t begin;
    while (true) {
      begin = start;
      // A run that would cross into the next chunk starts there instead (the tail is left).
      if (chunk_of(begin) != chunk_of(begin + count - 1)) begin = chunk_start(chunk_of(begin) + 1);
      if (begin + count > (int64_t{1} << 31) - 1)
        throw std::length_error("the search tree is full (2^31 entries)");
      if (size_.compare_exchange_weak(start, begin + count, std::memory_order_relaxed)) break;
    }
    ensure_chunk(chunk_of(begin));
    return static_cast<int32_t>(begin);
  }

  T& operator[](int32_t i) { return element(i); }
  const T& operator[](int32_t i) const { return const_cast<ChunkedArena*>(this)->element(i); }

  // Elements allocated so far (the skipped tails of chunks included).
  int64_t size() const { return size_.load(std::memory_order_relaxed); }
  // Memory held by the chunks made so far.
  size_t bytes() const {
    size_t total = 0;
    for (int c = 0; c < kChunks; ++c)
      if (chunks_[c].load(std::memory_order_relaxed)) total += chunk_size(c) * sizeof(T);
    return total;
  }
  // Forgets every element but keeps the chunks for reuse. Single-threaded.
  void clear() { size_.store(0, std::memory_order_relaxed); }

 private:
  static int chunk_of(int64_t i) {
    // Chunk 0 and 1 hold kFirst each; chunk c >= 1 starts at 2^(kFirstBits + c - 1) x 2.
    const uint64_t shifted = static_cast<uint64_t>(i) >> kFirstBits;
    return shifted == 0 ? 0 : std::bit_width(shifted);
  }
  static int64_t chunk_start(int c) { return c == 0 ? 0 : kFirst << (c - 1); }
  static int64_t chunk_size(int c) { return c == 0 ? kFirst : kFirst << (c - 1); }

  T& element(int32_t i) {
    const int c = chunk_of(i);
    return chunks_[c].load(std::memory_order_acquire)[i - chunk_start(c)];
  }

  void ensure_chunk(int c) {
    if (chunks_[c].load(std::memory_order_acquire)) return;
    std::lock_guard lock(grow_mutex_);
    if (!chunks_[c].load(std::memory_order_relaxed))
      chunks_[c].store(new T[chunk_size(c)], std::memory_order_release);
  }

  std::array<std::atomic<T*>, kChunks> chunks_{};
  std::atomic<int64_t> size_{0};
  std::mutex grow_mutex_;
};

}  // namespace fairyzero
