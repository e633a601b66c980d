// A memory-bounded cache of evaluations (lc0's NNCache, KataGo's nnCache), and an evaluator that
// answers from it before asking the network. The key is a hash of the network's own input row
// and of the legal moves, so it covers whatever the encoder reads (repetitions, clocks, hands)
// without knowing what that is; a second hash verifies each hit.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "mcts/evaluator.h"

namespace fairyzero {

struct CacheKey {
  uint64_t key = 0;    // finds the entry
  uint64_t check = 0;  // an independent hash that must match too (a collision of `key` alone)
  bool operator==(const CacheKey&) const = default;
};

// Two independent 64-bit hashes of some bytes (seeded multiply-xorshift over 8-byte words).
CacheKey hash_bytes(std::span<const std::byte> bytes);

struct CacheStats {
  long long lookups = 0;
  long long hits = 0;
  long long entries = 0;
  size_t bytes = 0;
  double hit_rate() const { return lookups > 0 ? static_cast<double>(hits) / lookups : 0.0; }
};

// Least recently used entries leave first when an insertion would pass the memory bound (the
// entries' own bytes plus their bookkeeping). Split in shards with a lock each, so threads
// rarely wait for one another. Thread-safe.
class EvaluationCache {
 public:
  explicit EvaluationCache(size_t max_bytes);
  EvaluationCache(const EvaluationCache&) = delete;
  EvaluationCache& operator=(const EvaluationCache&) = delete;

  // Copies the cached evaluation into `out` when there is one for `key` (both hashes equal).
  bool find(const CacheKey& key, Evaluation& out);
  void insert(const CacheKey& key, const Evaluation& evaluation);
  void clear();
  CacheStats stats() const;
  size_t max_bytes() const { return max_bytes_.load(); }
  // A new bound; entries over it leave at once, least recently used first.
  void set_max_bytes(size_t max_bytes);
  // The memory an entry of `moves` legal moves counts for.
  static size_t entry_bytes(size_t moves);

 private:
  struct Entry {
    CacheKey key;
    Evaluation evaluation;
  };
  struct Shard {
    std::mutex mutex;
    std::list<Entry> recent;  // most recently used first
    std::unordered_map<uint64_t, std::list<Entry>::iterator> index;
    size_t bytes = 0;
  };
  static constexpr int kShards = 16;
  Shard& shard_of(const CacheKey& key) { return shards_[key.key % kShards]; }
  // Drops the shard's least recently used entries until `room` more bytes fit. Under its lock.
  void make_room(Shard& shard, size_t room);

  std::atomic<size_t> max_bytes_;
  std::array<Shard, kShards> shards_;
  std::atomic<long long> lookups_{0};
  std::atomic<long long> hits_{0};
};

// An evaluator in front of a StagedEvaluator (a network): positions whose input row and legal
// moves were evaluated before are answered from the cache, the rest go to the network in one
// batch and are remembered. Entries are only right for the network that made them: a cache
// is for one network.
class CachedEvaluator : public Evaluator {
 public:
  CachedEvaluator(std::unique_ptr<StagedEvaluator> inner, std::shared_ptr<EvaluationCache> cache);

  void evaluate(std::span<const EvalRequest> batch, std::span<Evaluation> out) override;
  std::string name() const override { return inner_->name(); }
  CacheKey key_of(const EvalRequest& request) const;
  EvaluationCache& cache() { return *cache_; }

 private:
  std::unique_ptr<StagedEvaluator> inner_;
  std::shared_ptr<EvaluationCache> cache_;
};

// `evaluator` behind a cache of `max_bytes` when it is a network (a StagedEvaluator), with the
// cache; other evaluators (uniform, material) cost less than a lookup and come back as they
// are, with no cache.
struct CachingEvaluator {
  std::unique_ptr<Evaluator> evaluator;
  std::shared_ptr<EvaluationCache> cache;
};
CachingEvaluator with_evaluation_cache(std::unique_ptr<Evaluator> evaluator, size_t max_bytes);

}  // namespace fairyzero
