// The chunked arena: elements never move as it grows, a run stays in one chunk, and threads
// allocating at once get distinct elements.
#include "mcts/chunked_arena.h"

#include <gtest/gtest.h>

#include <set>
#include <thread>
#include <vector>

namespace fairyzero {
namespace {

TEST(ChunkedArena, ElementsKeepTheirAddressesAsItGrows) {
  ChunkedArena<int, 4> arena;  // chunks of 16, 16, 32, 64, ...
  const int32_t first = arena.allocate(1);
  arena[first] = 42;
  const int* address = &arena[first];
  for (int i = 0; i < 1000; ++i) arena[arena.allocate(1)] = i;
  EXPECT_EQ(&arena[first], address);
  EXPECT_EQ(arena[first], 42);
  EXPECT_EQ(arena[static_cast<int32_t>(arena.size() - 1)], 999);
  EXPECT_GE(arena.bytes(), 1001 * sizeof(int));
}

TEST(ChunkedArena, ARunNeverCrossesAChunk) {
  ChunkedArena<int, 4> arena;
  arena.allocate(10);
  const int32_t run = arena.allocate(10);  // 10 + 10 > 16: starts the second chunk
  EXPECT_EQ(run, 16);
  int* start = &arena[run];
  for (int k = 0; k < 10; ++k) EXPECT_EQ(&arena[run + k], start + k);
  EXPECT_EQ(arena.allocate(16), 32) << "a run as large as the first chunk fits in the next";
}

TEST(ChunkedArena, ClearKeepsTheMemoryAndStartsAgain) {
  ChunkedArena<int, 4> arena;
  for (int i = 0; i < 100; ++i) arena.allocate(1);
  const size_t bytes = arena.bytes();
  arena.clear();
  EXPECT_EQ(arena.size(), 0);
  EXPECT_EQ(arena.allocate(1), 0);
  EXPECT_EQ(arena.bytes(), bytes);
}

TEST(ChunkedArena, ThreadsAllocatingAtOnceGetDistinctElements) {
  ChunkedArena<int, 4> arena;
  constexpr int kThreads = 4, kEach = 2000;
  std::vector<std::vector<int32_t>> got(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < kEach; ++i) {
        const int count = 1 + (i % 3);
        const int32_t run = arena.allocate(count);
        for (int k = 0; k < count; ++k) arena[run + k] = t;
        got[t].push_back(run);
      }
    });
  for (std::thread& t : threads) t.join();
  std::set<int32_t> seen;
  for (int t = 0; t < kThreads; ++t)
    for (size_t i = 0; i < got[t].size(); ++i) {
      const int count = 1 + (i % 3);
      for (int k = 0; k < count; ++k) {
        EXPECT_TRUE(seen.insert(got[t][i] + k).second) << "element given twice";
        EXPECT_EQ(arena[got[t][i] + k], t) << "overwritten by another thread";
      }
    }
}

}  // namespace
}  // namespace fairyzero
