// The evaluation cache: a hit needs both hashes, the memory bound holds with the least recently
// used leaving first, and the caching evaluator asks its network once per input row (a
// transposition is one row; a position whose row differs, a counter the encoder reads, is not).
#include "mcts/evaluation_cache.h"

#include <gtest/gtest.h>

#include <cstring>

#include "core/variant_loader.h"
#include "mcts/basic_evaluators.h"
#include "mcts/search.h"

namespace fairyzero {
namespace {

Evaluation evaluation_with(int moves, float value) {
  Evaluation e;
  e.policy_logits.assign(moves, value);
  e.value = {value, 1 - value};
  return e;
}

TEST(EvaluationCache, AHitNeedsTheVerificationHashToo) {
  EvaluationCache cache(1 << 20);
  cache.insert({1, 2}, evaluation_with(20, 0.7f));
  Evaluation out;
  ASSERT_TRUE(cache.find({1, 2}, out));
  EXPECT_FLOAT_EQ(out.value[0], 0.7f);
  EXPECT_EQ(out.policy_logits.size(), 20u);
  EXPECT_FALSE(cache.find({1, 3}, out)) << "same key, another position: a collision, not a hit";
  EXPECT_FALSE(cache.find({17, 2}, out));
  CacheStats stats = cache.stats();
  EXPECT_EQ(stats.lookups, 3);
  EXPECT_EQ(stats.hits, 1);
  EXPECT_EQ(stats.entries, 1);
}

TEST(EvaluationCache, StaysWithinItsMemoryBound) {
  const size_t bound = 64 * EvaluationCache::entry_bytes(30);
  EvaluationCache cache(bound);
  for (uint64_t k = 0; k < 1000; ++k) cache.insert({k, k}, evaluation_with(30, 0.5f));
  CacheStats stats = cache.stats();
  EXPECT_LE(stats.bytes, bound);
  EXPECT_GT(stats.entries, 16) << "it still holds entries";
  EXPECT_LT(stats.entries, 65);
  Evaluation out;
  EXPECT_TRUE(cache.find({999, 999}, out)) << "the newest stays";
  EXPECT_FALSE(cache.find({0, 0}, out)) << "the oldest left";
  cache.set_max_bytes(bound / 4);
  EXPECT_LE(cache.stats().bytes, bound / 4);
}

TEST(EvaluationCache, TheLeastRecentlyUsedLeavesFirst) {
  // Keys that are multiples of 16 share a shard; the shard's budget holds two entries.
  const size_t per_entry = EvaluationCache::entry_bytes(10);
  EvaluationCache cache(16 * (2 * per_entry + per_entry / 2));
  cache.insert({16, 1}, evaluation_with(10, 0.1f));
  cache.insert({32, 1}, evaluation_with(10, 0.2f));
  Evaluation out;
  ASSERT_TRUE(cache.find({16, 1}, out));  // now the most recent
  cache.insert({48, 1}, evaluation_with(10, 0.3f));
  EXPECT_TRUE(cache.find({16, 1}, out));
  EXPECT_FALSE(cache.find({32, 1}, out)) << "the least recently used left";
  EXPECT_TRUE(cache.find({48, 1}, out));
}

// A network stand-in: the row is the position's hash and, like a real encoder's counter planes,
// its halfmove clock; each evaluate() call is counted.
class CountingNetwork : public StagedEvaluator {
 public:
  int positions = 0;
  void evaluate(std::span<const EvalRequest> batch, std::span<Evaluation> out) override {
    positions += static_cast<int>(batch.size());
    uniform_.evaluate(batch, out);
  }
  std::string name() const override { return "counting"; }
  size_t row_bytes() const override { return 12; }
  void encode_row(const EvalRequest& request, std::byte* row) const override {
    const uint64_t hash = request.position->hash();
    const int32_t clock = request.position->halfmove_clock();
    std::memcpy(row, &hash, 8);
    std::memcpy(row + 8, &clock, 4);
  }
  std::unique_ptr<Staging> make_staging(int) override { return nullptr; }
  void evaluate_staged(std::span<const EvalRequest>, Staging&, std::span<Evaluation>) override {}

 private:
  UniformEvaluator uniform_;
};

int network_calls_for(CachedEvaluator& cached, CountingNetwork& network, const Position& p) {
  const int before = network.positions;
  MoveList legal;
  p.legal_moves(legal);
  EvalRequest request{&p, &legal};
  Evaluation out;
  cached.evaluate({&request, 1}, {&out, 1});
  EXPECT_EQ(out.policy_logits.size(), static_cast<size_t>(legal.size()));
  return network.positions - before;
}

TEST(CachedEvaluator, AsksTheNetworkOncePerInputRow) {
  auto owned = std::make_unique<CountingNetwork>();
  CountingNetwork& network = *owned;
  CachingEvaluator made = with_evaluation_cache(std::move(owned), 1 << 20);
  ASSERT_TRUE(made.cache);
  auto& cached = static_cast<CachedEvaluator&>(*made.evaluator);
  VariantPtr chess = find_variant("chess");
  Position start(chess);
  EXPECT_EQ(network_calls_for(cached, network, start), 1);
  EXPECT_EQ(network_calls_for(cached, network, start), 0) << "the same position again";
  // 1. Nf3 Nf6 2. Nc3 and 1. Nc3 Nf6 2. Nf3: one position, one row.
  Position a = start, b = start;
  for (const char* m : {"g1f3", "g8f6", "b1c3"}) a.play(a.parse_move(m));
  for (const char* m : {"b1c3", "g8f6", "g1f3"}) b.play(b.parse_move(m));
  EXPECT_EQ(network_calls_for(cached, network, a), 1);
  EXPECT_EQ(network_calls_for(cached, network, b), 0) << "a transposition";
  // The same placement with another halfmove clock is another row for this encoder.
  Position c = start;
  for (const char* m : {"g1f3", "g8f6", "f3g1", "f6g8"}) c.play(c.parse_move(m));
  ASSERT_EQ(c.hash(), start.hash());
  EXPECT_EQ(network_calls_for(cached, network, c), 1) << "what the encoder reads is in the key";
  EXPECT_EQ(made.cache->stats().hits, 2);
}

TEST(CachedEvaluator, OtherEvaluatorsAreLeftWithoutACache) {
  CachingEvaluator made = with_evaluation_cache(std::make_unique<UniformEvaluator>(), 1 << 20);
  EXPECT_FALSE(made.cache);
  EXPECT_EQ(made.evaluator->name(), "uniform");
}

TEST(CachedEvaluator, ASearchStartedOverIsAnsweredFromTheCache) {
  auto owned = std::make_unique<CountingNetwork>();
  CountingNetwork& network = *owned;
  CachingEvaluator made = with_evaluation_cache(std::move(owned), 64 << 20);
  Position start(find_variant("chess"));
  Search search(start, *made.evaluator);
  search.run({.playouts = 500});
  const int first = network.positions;
  EXPECT_GT(first, 100);
  search.set_position(start);  // the tree dropped, as at a new game
  search.run({.playouts = 500});
  EXPECT_LT(network.positions - first, first / 5) << "the same tree again, mostly from the cache";
}

}  // namespace
}  // namespace fairyzero
