// The time manager: a clock's share, and the managed search that stops early when its move is
// settled and thinks on, up to its maximum, while another move looks better than the most visited.
#include "mcts/time_manager.h"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "core/variant_loader.h"

namespace fairyzero {
namespace {

TEST(TimeManager, AShareOfTheClockCappedAtHalfOfIt) {
  SearchLimits fixed = clock_limits({.remaining = 60, .increment = 1}, false);
  EXPECT_DOUBLE_EQ(fixed.seconds, 60.0 / 30 + 0.75);
  EXPECT_FALSE(fixed.stop_when_decided);
  EXPECT_EQ(fixed.max_seconds, 0) << "unmanaged: the share exactly";
  EXPECT_DOUBLE_EQ(clock_limits({.remaining = 60, .moves_to_go = 9}, false).seconds, 6.0);
  EXPECT_DOUBLE_EQ(clock_limits({.remaining = 1, .increment = 5, .overhead = 0.1}).seconds, 0.4)
      << "never more than half the clock less the overhead";
  EXPECT_DOUBLE_EQ(clock_limits({.remaining = 0}).seconds, 0.01);

  SearchLimits managed = clock_limits({.remaining = 60, .increment = 1});
  EXPECT_TRUE(managed.stop_when_decided);
  EXPECT_DOUBLE_EQ(managed.seconds, fixed.seconds);
  EXPECT_DOUBLE_EQ(managed.max_seconds, 2.5 * managed.seconds);
  EXPECT_DOUBLE_EQ(clock_limits({.remaining = 10, .moves_to_go = 1}).max_seconds, 5.0)
      << "the extension stays within the cap";
}

// Chess from the start with two candidate moves: e2e4 (prior 0.6) and d2d4 (0.4), every other
// move all but never tried. Every position below e2e4 is worth `e4` to White, below d2d4 `d4`.
// Each batch takes 5 ms, so the tree grows slowly enough to watch.
class TwoCandidates : public Evaluator {
 public:
  TwoCandidates(float e4, float d4) : e4_(e4), d4_(d4) {
    Position start(find_variant("chess"));
    start.play(start.parse_move("e2e4"));
    e4_hash_ = start.hash();
  }
  void evaluate(std::span<const EvalRequest> batch, std::span<Evaluation> out) override {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    for (size_t i = 0; i < batch.size(); ++i) {
      const Position& p = *batch[i].position;
      const MoveList& legal = *batch[i].legal;
      out[i].policy_logits.resize(legal.size());
      for (int k = 0; k < legal.size(); ++k) {
        const std::string text = p.move_text(legal[k]);
        out[i].policy_logits[k] = text == "e2e4" ? 5.0f : text == "d2d4" ? 4.6f : -12.0f;
      }
      float white = 0.5f;
      if (p.plies_played() > 0) {
        Position first = p;
        while (first.plies_played() > 1) first.undo();
        white = first.hash() == e4_hash_ ? e4_ : d4_;
      }
      out[i].value = {white, 1 - white};
    }
  }
  std::string name() const override { return "two candidates"; }

 private:
  float e4_, d4_;
  uint64_t e4_hash_ = 0;
};

// At the share's end the search is unclear when a root move with at least half the most visited
// one's visits has the better value.
bool unclear(const SearchResult& r) {
  for (size_t k = 1; k < r.children.size(); ++k)
    if (2 * r.children[k].visits >= r.children[0].visits &&
        r.children[k].value > r.children[0].value)
      return true;
  return false;
}

TEST(TimeManager, AnUnclearSearchGoesOnUntilItIsClearOrAtItsMaximum) {
  Position start(find_variant("chess"));
  // d2d4 is better but less likely: visits go to e2e4 first and shift to d2d4 slowly.
  TwoCandidates shifting(0.50f, 0.53f);
  Search fixed(start, shifting);
  SearchResult at_share = fixed.run({.seconds = 0.05});
  EXPECT_TRUE(unclear(at_share)) << "the case under test: unclear after 50 ms";
  EXPECT_LT(at_share.seconds, 0.5);

  Search managed(start, shifting);
  SearchResult extended = managed.run({.seconds = 0.05, .max_seconds = 1.5});
  EXPECT_GT(extended.seconds, 0.1) << "it went on past its share";
  if (extended.seconds < 1.5) {
    EXPECT_FALSE(unclear(extended)) << "it stopped once clear";
  }
  EXPECT_GT(extended.playouts, at_share.playouts);

  // The likelier move is also the better one: clear at once, so the share is enough.
  TwoCandidates settled(0.53f, 0.50f);
  Search clear(start, settled);
  SearchResult r = clear.run({.seconds = 0.05, .max_seconds = 1.5});
  EXPECT_FALSE(unclear(r));
  EXPECT_LT(r.seconds, 0.5) << "a clear search stops at its share";
  EXPECT_EQ(start.move_text(r.best), "e2e4");
}

}  // namespace
}  // namespace fairyzero
