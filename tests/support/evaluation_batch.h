// Test helpers for evaluators: a batch of random positions with their legal moves, and
// clients on several threads checking an evaluator (a server) against direct calls.
#pragma once

#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <span>
#include <thread>
#include <vector>

#include "mcts/evaluator.h"
#include "tests/support/test_positions.h"

namespace fairyzero::testing {

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

// Four threads each evaluate positions one at a time; every result matches a direct call.
inline void run_clients(Evaluator& server, Evaluator& direct, Batch& batch, int threads,
                        float tolerance) {
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

}  // namespace fairyzero::testing
