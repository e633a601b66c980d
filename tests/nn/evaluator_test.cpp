// NetworkEvaluator: logits and values of the right count and range, refusals, and the same
// results behind an InferenceServer with two server threads.
#include <gtest/gtest.h>

#include <cmath>
#include <thread>

#include "core/errors.h"
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

}  // namespace
}  // namespace fairyzero
