// NetworkEvaluator: logits and values of the right count and range, refusals, and the same
// results behind an InferenceServer with two server threads.
#include <ATen/Parallel.h>
#include <gtest/gtest.h>

#include <cmath>
#include <thread>

#include "core/errors.h"
#include "mcts/evaluation_cache.h"
#include "mcts/inference_server.h"
#include "nn/network_config.h"
#include "nn/network_evaluator.h"
#include "tests/support/evaluation_batch.h"

namespace fairyzero {
namespace {

using testing::Batch;
using testing::run_clients;
using testing::variant;

const NetworkConfig kTiny{.blocks = 1, .filters = 8, .policy_dim = 8, .value_hidden = 16};

std::shared_ptr<NetworkEvaluator> tiny_evaluator(const VariantPtr& v) {
  Encoder enc(v);
  return std::make_shared<NetworkEvaluator>(v, make_network(kTiny, enc.network_shape()));
}

class NetworkEvaluatorTest : public ::testing::TestWithParam<const char*> {};

TEST_P(NetworkEvaluatorTest, FiniteLogitsPerLegalMoveAndSeatValuesSummingToOne) {
  VariantPtr v = variant(GetParam());
  auto evaluator = tiny_evaluator(v);
  Batch batch(v, 2, 40);
  std::vector<Evaluation> out(batch.requests.size());
  evaluator->evaluate(batch.requests, out);
  for (size_t i = 0; i < out.size(); ++i) {
    ASSERT_EQ(out[i].policy_logits.size(), static_cast<size_t>(batch.legal[i].size()));
    for (float logit : out[i].policy_logits) ASSERT_TRUE(std::isfinite(logit));
    // Two teams: each seat's score is its team's, and the two teams' scores sum to 1.
    const Position& pos = batch.positions[i];
    const int mover = pos.seat_to_move();
    float sum = 0;
    for (int s = 0; s < v->seat_count(); ++s) {
      ASSERT_GE(out[i].value[s], 0);
      ASSERT_LE(out[i].value[s], 1);
      if (v->team_of_army[v->seats[s].army] != v->team_of_army[pos.army_to_move()]) {
        EXPECT_NEAR(out[i].value[s] + out[i].value[mover], 1.0f, 1e-5);
      } else {
        EXPECT_FLOAT_EQ(out[i].value[s], out[i].value[mover]);
      }
      sum += out[i].value[s];
    }
    if (v->seat_count() == 2) {
      EXPECT_NEAR(sum, 1.0f, 1e-5);
    }
    EXPECT_NEAR(out[i].wdl[0] + out[i].wdl[1] + out[i].wdl[2], 1.0f, 1e-5);
    EXPECT_NEAR(out[i].wdl[0] + out[i].wdl[1] / 2, out[i].value[mover], 1e-5);
    EXPECT_GE(out[i].moves_left, 0) << "the head's plies left, never negative";
  }
  // One position alone gets what it got inside the batch.
  std::vector<Evaluation> single(1);
  evaluator->evaluate(std::span(batch.requests).subspan(3, 1), single);
  for (size_t m = 0; m < single[0].policy_logits.size(); ++m)
    EXPECT_NEAR(single[0].policy_logits[m], out[3].policy_logits[m], 1e-4);
  EXPECT_NEAR(single[0].value[0], out[3].value[0], 1e-5);
  EXPECT_NEAR(single[0].moves_left, out[3].moves_left, 1e-3);
}

// A network without the head (a checkpoint from before it) predicts no plies left: the search
// then does without the moves-left utility.
TEST(NetworkEvaluator, WithoutAMovesLeftHeadPredictsNone) {
  VariantPtr v = variant("chess");
  NetworkConfig config = kTiny;
  config.moves_left = false;
  NetworkEvaluator evaluator(v, make_network(config, Encoder(v).network_shape()));
  Batch batch(v, 1, 5);
  std::vector<Evaluation> out(batch.requests.size());
  evaluator.evaluate(batch.requests, out);
  for (const Evaluation& e : out) EXPECT_LT(e.moves_left, 0);
}

INSTANTIATE_TEST_SUITE_P(Variants, NetworkEvaluatorTest,
                         ::testing::Values("chess", "very-heavy-chess", "four-seats"),
                         [](const auto& info) {
                           std::string name = info.param;
                           std::erase(name, '-');
                           return name;
                         });

// The engines' --network-threads: LibTorch's intra-op threads, at least one.
TEST(NetworkEvaluator, CpuForwardThreadsAreSetForTheProcess) {
  const int before = at::get_num_threads();
  set_cpu_forward_threads(1);
  EXPECT_EQ(at::get_num_threads(), 1);
  set_cpu_forward_threads(0);
  EXPECT_EQ(at::get_num_threads(), 1) << "never fewer than one";
  set_cpu_forward_threads(before);
  EXPECT_EQ(at::get_num_threads(), before);
}

TEST(NetworkEvaluator, RefusesUnknownDevicesAndWrongShapes) {
  VariantPtr v = variant("chess");
  auto net = make_network(kTiny, Encoder(v).network_shape());
  EXPECT_THROW(NetworkEvaluator(v, net, {.device = "tpu"}), SettingError);
  EXPECT_THROW(NetworkEvaluator(variant("capablanca"), net), std::invalid_argument);
  EXPECT_NE(NetworkEvaluator(v, net).name().find("1x8"), std::string::npos);
}

TEST(InferenceServer, WrapsTheNetworkWithTwoServerThreads) {
  VariantPtr v = variant("capablanca");
  Batch batch(v, 2, 40);
  auto network = tiny_evaluator(v);
  InferenceServer server(network, {.max_batch = 8, .max_wait_us = 50000, .threads = 2});
  run_clients(server, *network, batch, 4, 1e-4f);
  EXPECT_GT(server.stats().mean_batch(), 1.0);
  EXPECT_NE(server.name().find("network"), std::string::npos);
}

// The cache in front of a real network: its answers are the network's, once computed; and the
// start position reached again after four knight moves is a new row (repetition and game length
// planes), so a new key.
TEST(CachedEvaluator, AnswersAsTheNetworkDoesAndKeysOnWhatTheEncoderReads) {
  VariantPtr v = variant("chess");
  Batch batch(v, 2, 40);
  auto network = make_network(kTiny, Encoder(v).network_shape());
  NetworkEvaluator direct(v, network);
  std::vector<Evaluation> expected(batch.requests.size());
  direct.evaluate(batch.requests, expected);
  CachingEvaluator cached =
      with_evaluation_cache(std::make_unique<NetworkEvaluator>(v, network), 16 << 20);
  ASSERT_TRUE(cached.cache);
  auto& caching = static_cast<CachedEvaluator&>(*cached.evaluator);
  for (int round = 0; round < 2; ++round) {
    std::vector<Evaluation> first(batch.requests.size()), again(batch.requests.size());
    caching.evaluate(batch.requests, first);
    caching.evaluate(batch.requests, again);
    for (size_t i = 0; i < first.size(); ++i) {
      ASSERT_EQ(first[i].policy_logits, again[i].policy_logits) << "a hit is the entry itself";
      ASSERT_EQ(first[i].value, again[i].value);
      ASSERT_EQ(first[i].policy_logits.size(), expected[i].policy_logits.size());
      for (size_t k = 0; k < first[i].policy_logits.size(); ++k)
        ASSERT_NEAR(first[i].policy_logits[k], expected[i].policy_logits[k], 1e-4);
      ASSERT_NEAR(first[i].value[0], expected[i].value[0], 1e-4);
    }
  }
  EXPECT_GE(cached.cache->stats().hit_rate(), 0.7) << "three of four lookups repeat";
  Position start(v), back(v);
  for (const char* m : {"g1f3", "g8f6", "f3g1", "f6g8"}) back.play(back.parse_move(m));
  ASSERT_EQ(back.hash(), start.hash());
  MoveList start_legal, back_legal;
  start.legal_moves(start_legal);
  back.legal_moves(back_legal);
  EXPECT_NE(caching.key_of({&start, &start_legal}), caching.key_of({&back, &back_legal}));
  EXPECT_EQ(caching.key_of({&start, &start_legal}), caching.key_of({&start, &start_legal}));
}

}  // namespace
}  // namespace fairyzero
