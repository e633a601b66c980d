// NetworkEvaluator: logits and values of the right count and range, refusals, and the same
// results behind an InferenceServer with two server threads.
#include <gtest/gtest.h>

#include <cmath>
#include <thread>

#include "core/errors.h"
#include "mcts/inference_server.h"
#include "nn/network_config.h"
#include "nn/network_evaluator.h"
#include "tests/support/test_positions.h"

namespace fairyzero {
namespace {

using testing::random_positions;
using testing::variant;

const NetworkConfig kTiny{.blocks = 1, .filters = 8, .policy_dim = 8, .value_hidden = 16};

// Positions with their legal moves, kept alive for EvalRequests to point into.
struct Batch {
  std::vector<Position> positions;
  std::vector<MoveList> legal;
  std::vector<EvalRequest> requests;
  Batch(const VariantPtr& v, int games, int plies, unsigned seed = 1)
      : positions(random_positions(v, games, plies, seed)) {
    legal.resize(positions.size());
    for (size_t i = 0; i < positions.size(); ++i) {
      positions[i].legal_moves(legal[i]);
      requests.push_back({&positions[i], &legal[i]});
    }
  }
};

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
  }
  // One position alone gets what it got inside the batch.
  std::vector<Evaluation> single(1);
  evaluator->evaluate(std::span(batch.requests).subspan(3, 1), single);
  for (size_t m = 0; m < single[0].policy_logits.size(); ++m)
    EXPECT_NEAR(single[0].policy_logits[m], out[3].policy_logits[m], 1e-4);
  EXPECT_NEAR(single[0].value[0], out[3].value[0], 1e-5);
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

// Four threads each evaluate positions one at a time; every result matches a direct call.
void run_clients(Evaluator& server, Evaluator& direct, Batch& batch, int threads, float tolerance) {
  std::vector<Evaluation> expected(batch.requests.size());
  direct.evaluate(batch.requests, expected);
  std::vector<std::thread> clients;
  std::atomic<int> mismatches{0};
  for (int t = 0; t < threads; ++t) {
    clients.emplace_back([&, t] {
      Evaluation e;
      for (size_t i = t; i < batch.requests.size(); i += threads) {
        server.evaluate(std::span(batch.requests).subspan(i, 1), std::span(&e, 1));
        if (e.policy_logits.size() != expected[i].policy_logits.size()) {
          ++mismatches;
          continue;
        }
        for (size_t m = 0; m < e.policy_logits.size(); ++m)
          if (std::abs(e.policy_logits[m] - expected[i].policy_logits[m]) > tolerance) ++mismatches;
        if (std::abs(e.value[0] - expected[i].value[0]) > tolerance) ++mismatches;
      }
    });
  }
  for (std::thread& c : clients) c.join();
  EXPECT_EQ(mismatches, 0);
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
