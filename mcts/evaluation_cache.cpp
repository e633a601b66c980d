// The evaluation cache: sharded LRU lists under a byte budget, and the caching evaluator.
#include "mcts/evaluation_cache.h"

#include <cstring>

namespace fairyzero {
namespace {

uint64_t mix(uint64_t x) {  // splitmix64's finaliser
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

uint64_t hash_words(std::span<const std::byte> bytes, uint64_t seed) {
  uint64_t h = seed ^ (bytes.size() * 0x9e3779b97f4a7c15ULL);
  size_t i = 0;
  for (; i + 8 <= bytes.size(); i += 8) {
    uint64_t word;
    std::memcpy(&word, bytes.data() + i, 8);
    h = mix(h ^ word) + 0x9e3779b97f4a7c15ULL;
  }
  uint64_t tail = 0;
  std::memcpy(&tail, bytes.data() + i, bytes.size() - i);
  return mix(h ^ tail ^ (static_cast<uint64_t>(bytes.size() - i) << 56));
}

}  // namespace

CacheKey hash_bytes(std::span<const std::byte> bytes) {
  return {hash_words(bytes, 0x243f6a8885a308d3ULL), hash_words(bytes, 0x13198a2e03707344ULL)};
}

EvaluationCache::EvaluationCache(size_t max_bytes) : max_bytes_(max_bytes) {}

size_t EvaluationCache::entry_bytes(size_t moves) {
  // The list node and the index's node and bucket, about; then the logits.
  return sizeof(Entry) + 4 * sizeof(void*) + sizeof(std::pair<uint64_t, void*>) + 8 +
         moves * sizeof(float);
}

bool EvaluationCache::find(const CacheKey& key, Evaluation& out) {
  lookups_.fetch_add(1, std::memory_order_relaxed);
  Shard& shard = shard_of(key);
  std::lock_guard lock(shard.mutex);
  auto found = shard.index.find(key.key);
  if (found == shard.index.end() || found->second->key.check != key.check) return false;
  shard.recent.splice(shard.recent.begin(), shard.recent, found->second);
  out = found->second->evaluation;
  hits_.fetch_add(1, std::memory_order_relaxed);
  return true;
}

void EvaluationCache::make_room(Shard& shard, size_t room) {
  const size_t budget = max_bytes_.load() / kShards;
  while (shard.bytes + room > budget && !shard.recent.empty()) {
    const Entry& last = shard.recent.back();
    shard.bytes -= entry_bytes(last.evaluation.policy_logits.size());
    shard.index.erase(last.key.key);
    shard.recent.pop_back();
  }
}

void EvaluationCache::set_max_bytes(size_t max_bytes) {
  max_bytes_.store(max_bytes);
  for (Shard& shard : shards_) {
    std::lock_guard lock(shard.mutex);
    make_room(shard, 0);
  }
}

void EvaluationCache::insert(const CacheKey& key, const Evaluation& evaluation) {
  const size_t bytes = entry_bytes(evaluation.policy_logits.size());
  if (bytes > max_bytes_.load() / kShards) return;
  Shard& shard = shard_of(key);
  std::lock_guard lock(shard.mutex);
  auto found = shard.index.find(key.key);
  if (found != shard.index.end()) {  // the same key again (or a colliding one): replace it
    shard.bytes -= entry_bytes(found->second->evaluation.policy_logits.size());
    shard.recent.erase(found->second);
    shard.index.erase(found);
  }
  make_room(shard, bytes);
  shard.recent.push_front({key, evaluation});
  shard.index.emplace(key.key, shard.recent.begin());
  shard.bytes += bytes;
}

void EvaluationCache::clear() {
  for (Shard& shard : shards_) {
    std::lock_guard lock(shard.mutex);
    shard.recent.clear();
    shard.index.clear();
    shard.bytes = 0;
  }
}

CacheStats EvaluationCache::stats() const {
  CacheStats stats;
  stats.lookups = lookups_.load(std::memory_order_relaxed);
  stats.hits = hits_.load(std::memory_order_relaxed);
  for (const Shard& shard : shards_) {
    std::lock_guard lock(const_cast<Shard&>(shard).mutex);
    stats.entries += static_cast<long long>(shard.index.size());
    stats.bytes += shard.bytes;
  }
  return stats;
}

CachedEvaluator::CachedEvaluator(std::unique_ptr<StagedEvaluator> inner,
                                 std::shared_ptr<EvaluationCache> cache)
    : inner_(std::move(inner)), cache_(std::move(cache)) {}

CacheKey CachedEvaluator::key_of(const EvalRequest& request) const {
  const size_t row = inner_->row_bytes();
  const size_t moves = static_cast<size_t>(request.legal->size()) * sizeof(uint32_t);
  // One buffer per thread, reused: the row, then the legal moves as the network reads them.
  thread_local std::vector<std::byte> bytes;
  bytes.assign(row + moves, std::byte{0});
  inner_->encode_row(request, bytes.data());
  for (int k = 0; k < request.legal->size(); ++k) {
    const uint32_t raw = (*request.legal)[k].raw();
    std::memcpy(bytes.data() + row + k * sizeof(uint32_t), &raw, sizeof raw);
  }
  return hash_bytes(bytes);
}

void CachedEvaluator::evaluate(std::span<const EvalRequest> batch, std::span<Evaluation> out) {
  std::vector<CacheKey> keys(batch.size());
  std::vector<EvalRequest> misses;
  std::vector<size_t> missed;
  for (size_t i = 0; i < batch.size(); ++i) {
    keys[i] = key_of(batch[i]);
    if (!cache_->find(keys[i], out[i])) {
      misses.push_back(batch[i]);
      missed.push_back(i);
    }
  }
  if (misses.empty()) return;
  std::vector<Evaluation> fresh(misses.size());
  inner_->evaluate(misses, fresh);
  for (size_t j = 0; j < missed.size(); ++j) {
    cache_->insert(keys[missed[j]], fresh[j]);
    out[missed[j]] = std::move(fresh[j]);
  }
}

CachingEvaluator with_evaluation_cache(std::unique_ptr<Evaluator> evaluator, size_t max_bytes) {
  auto* staged = dynamic_cast<StagedEvaluator*>(evaluator.get());
  if (!staged) return {std::move(evaluator), nullptr};
  evaluator.release();
  auto cache = std::make_shared<EvaluationCache>(max_bytes);
  return {std::make_unique<CachedEvaluator>(std::unique_ptr<StagedEvaluator>(staged), cache),
          cache};
}

}  // namespace fairyzero
