// SeatRoutingEvaluator: each position goes to its seat-to-move's evaluator, results come back in
// the batch's order, and a batch of one seat is passed through whole.
#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>

#include "core/variant_loader.h"
#include "mcts/inference_server.h"
#include "mcts/seat_routing_evaluator.h"

namespace fairyzero {
namespace {

// Answers every position with value[0] = its tag and one logit per legal move equal to the tag,
// and remembers the seats to move and batch sizes it was asked about.
class TaggingEvaluator : public Evaluator {
 public:
  explicit TaggingEvaluator(float tag) : tag_(tag) {}
  void evaluate(std::span<const EvalRequest> batch, std::span<Evaluation> out) override {
    std::lock_guard lock(mutex_);
    batch_sizes.push_back(static_cast<int>(batch.size()));
    for (size_t i = 0; i < batch.size(); ++i) {
      seats_seen.push_back(batch[i].position->seat_to_move());
      out[i].policy_logits.assign(batch[i].legal->size(), tag_);
      out[i].value.fill(0);
      out[i].value[0] = tag_;
      out[i].value[1] = static_cast<float>(batch[i].position->plies_played());
    }
  }
  std::string name() const override { return "tag" + std::to_string(static_cast<int>(tag_)); }
  std::vector<int> seats_seen, batch_sizes;

 private:
  float tag_;
  std::mutex mutex_;
};

// Irwell positions after 0, 1, 2, ... plies: the four seats move in turn.
std::deque<Position> irwell_positions(int count) {
  std::deque<Position> out;
  Position pos(find_variant("irwell"));
  for (int i = 0; i < count; ++i) {
    out.push_back(pos);
    LegalMoves legal(pos);
    pos.play(legal[0]);
  }
  return out;
}

TEST(SeatRoutingEvaluator, SendsEachPositionToItsSeatAndKeepsTheOrder) {
  std::deque<Position> positions = irwell_positions(10);
  ASSERT_EQ(positions[1].seat_to_move(), 1);
  std::vector<std::shared_ptr<TaggingEvaluator>> stubs;
  std::vector<std::shared_ptr<Evaluator>> per_seat;
  for (int s = 0; s < 4; ++s) {
    stubs.push_back(std::make_shared<TaggingEvaluator>(10.0f + s));
    per_seat.push_back(stubs.back());
  }
  SeatRoutingEvaluator router(per_seat);
  // A shuffled batch: plies 7, 0, 5, 2, 9, 1, 4.
  const std::vector<int> plies = {7, 0, 5, 2, 9, 1, 4};
  std::vector<LegalMoves> legal;
  for (int p : plies) legal.emplace_back(positions[p]);
  std::vector<EvalRequest> batch;
  for (size_t i = 0; i < plies.size(); ++i) batch.push_back({&positions[plies[i]], &legal[i]});
  std::vector<Evaluation> out(batch.size());
  router.evaluate(batch, out);
  for (size_t i = 0; i < plies.size(); ++i) {
    const int seat = positions[plies[i]].seat_to_move();
    EXPECT_EQ(out[i].value[0], 10.0f + seat) << "position " << i << " went to the wrong seat";
    EXPECT_EQ(out[i].value[1], static_cast<float>(plies[i])) << "result " << i << " out of order";
    EXPECT_EQ(out[i].policy_logits.size(), static_cast<size_t>(legal[i].size()));
  }
  for (int s = 0; s < 4; ++s) {
    EXPECT_EQ(stubs[s]->batch_sizes.size(), 1u) << "one call per seat";
    for (int seen : stubs[s]->seats_seen) EXPECT_EQ(seen, s);
  }
  EXPECT_EQ(stubs[0]->seats_seen.size(), 2u);  // plies 0 and 4
  EXPECT_EQ(stubs[1]->seats_seen.size(), 3u);  // plies 5, 9 and 1
  EXPECT_EQ(router.name(), "seats(tag10, tag11, tag12, tag13)");
}

TEST(SeatRoutingEvaluator, ASeatWithNoPositionsIsNotCalled) {
  std::deque<Position> positions = irwell_positions(5);
  auto a = std::make_shared<TaggingEvaluator>(1), b = std::make_shared<TaggingEvaluator>(2);
  SeatRoutingEvaluator router({a, b, b, b});
  LegalMoves l0(positions[0]), l4(positions[4]);
  std::vector<EvalRequest> batch = {{&positions[0], &l0}, {&positions[4], &l4}};
  std::vector<Evaluation> out(2);
  router.evaluate(batch, out);
  EXPECT_EQ(out[0].value[0], 1.0f);
  EXPECT_EQ(out[1].value[0], 1.0f);
  EXPECT_EQ(a->batch_sizes, std::vector<int>{2});
  EXPECT_TRUE(b->batch_sizes.empty());
}

TEST(SeatRoutingEvaluator, RefusesMissingEvaluatorsAndUnknownSeats) {
  EXPECT_THROW(SeatRoutingEvaluator({}), std::invalid_argument);
  EXPECT_THROW(SeatRoutingEvaluator({std::make_shared<TaggingEvaluator>(1), nullptr}),
               std::invalid_argument);
  std::deque<Position> positions = irwell_positions(3);
  SeatRoutingEvaluator two(
      {std::make_shared<TaggingEvaluator>(1), std::make_shared<TaggingEvaluator>(2)});
  LegalMoves legal(positions[2]);
  std::vector<EvalRequest> batch = {{&positions[2], &legal}};
  std::vector<Evaluation> out(1);
  EXPECT_THROW(two.evaluate(batch, out), std::out_of_range);
}

// Two seats' evaluators that each wait for the other to be called: behind inference servers
// (which queue work) they finish only when the routing submits both shares before waiting for
// either.
class RendezvousEvaluator : public Evaluator {
 public:
  RendezvousEvaluator(std::mutex& mutex, std::condition_variable& cv, int& entered)
      : mutex_(mutex), cv_(cv), entered_(entered) {}
  void evaluate(std::span<const EvalRequest> batch, std::span<Evaluation> out) override {
    std::unique_lock lock(mutex_);
    ++entered_;
    cv_.notify_all();
    met = cv_.wait_for(lock, std::chrono::seconds(10), [&] { return entered_ >= 2; });
    for (size_t i = 0; i < batch.size(); ++i) {
      out[i].policy_logits.assign(batch[i].legal->size(), 0.0f);
      out[i].value.fill(0.5f);
    }
  }
  std::string name() const override { return "rendezvous"; }
  bool met = false;

 private:
  std::mutex& mutex_;
  std::condition_variable& cv_;
  int& entered_;
};

TEST(SeatRouting, EverySeatsShareIsSubmittedBeforeAnyIsAwaited) {
  std::mutex mutex;
  std::condition_variable cv;
  int entered = 0;
  auto white = std::make_shared<RendezvousEvaluator>(mutex, cv, entered);
  auto black = std::make_shared<RendezvousEvaluator>(mutex, cv, entered);
  const InferenceServerConfig now{.max_batch = 8, .max_wait_us = 0};
  SeatRoutingEvaluator routing({std::make_shared<InferenceServer>(white, now),
                                std::make_shared<InferenceServer>(black, now)});
  VariantPtr v = find_variant("chess");
  std::deque<Position> positions;
  positions.emplace_back(v);
  positions.push_back(positions.back());
  positions.back().play(positions.back().parse_move("e2e4"));
  std::vector<MoveList> legal(2);
  std::vector<EvalRequest> requests;
  for (size_t i = 0; i < 2; ++i) {
    positions[i].legal_moves(legal[i]);
    requests.push_back({&positions[i], &legal[i]});
  }
  std::vector<Evaluation> out(2);
  routing.evaluate(requests, out);
  EXPECT_TRUE(white->met && black->met) << "the shares were evaluated one after the other";
  EXPECT_EQ(out[1].policy_logits.size(), static_cast<size_t>(legal[1].size()));
}

}  // namespace
}  // namespace fairyzero
