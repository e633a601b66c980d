// Multithreaded search under stress: several threads, a progress reporter, stop() from another
// thread. Built twice: in mcts_tests, and in mcts_tsan_tests under ThreadSanitizer, where any
// data race fails the run.
#include <gtest/gtest.h>

#include <thread>

#include "core/variant_loader.h"
#include "mcts/basic_evaluators.h"
#include "mcts/batched_search.h"
#include "mcts/search.h"

namespace fairyzero {
namespace {

TEST(SearchThreads, ManyThreadsWithProgressReports) {
  for (const char* name : {"chess", "very-heavy-chess"}) {
    VariantPtr v = find_variant(name);
    MaterialEvaluator material(*v);
    SearchParams params;
    params.threads = 4;
    params.leaves_per_batch = 3;
    Search search(Position(v), material, params);
    int reports = 0;
    SearchResult r = search.run(
        {.playouts = 3000}, [&](const SearchResult&) { ++reports; }, 0.0);
    EXPECT_GE(r.playouts, 3000) << name;
    EXPECT_FALSE(r.best.is_none()) << name;
    EXPECT_GT(reports, 0) << name;
    EXPECT_EQ(search.result().root_visits, r.root_visits) << name;
    search.play(r.best);
    EXPECT_GE(search.run({.playouts = 500}).playouts, 500) << name;
  }
}

TEST(SearchThreads, StopFromAnotherThread) {
  VariantPtr v = find_variant("chess");
  UniformEvaluator uniform;
  SearchParams params;
  params.threads = 3;
  Search search(Position(v), uniform, params);
  std::thread stopper([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    search.stop();
  });
  SearchResult r = search.run({.seconds = 30});
  stopper.join();
  EXPECT_LT(r.seconds, 10.0);
  EXPECT_GT(r.playouts, 0);
}

TEST(SearchThreads, BatchedSearchesOnSeveralThreads) {
  VariantPtr v = find_variant("chess");
  MaterialEvaluator material(*v);
  std::vector<std::thread> workers;
  for (int t = 0; t < 3; ++t) {
    workers.emplace_back([&] {
      std::vector<std::unique_ptr<Search>> searches;
      std::vector<Search*> pointers;
      for (int g = 0; g < 4; ++g) {
        searches.push_back(std::make_unique<Search>(Position(v), material));
        pointers.push_back(searches.back().get());
      }
      run_batched(pointers, {.playouts = 300}, material, 4);
    });
  }
  for (std::thread& w : workers) w.join();
}

// An evaluator that fails after a while, as a lost GPU or a closed server would.
class FailingEvaluator : public Evaluator {
 public:
  void evaluate(std::span<const EvalRequest> batch, std::span<Evaluation> out) override {
    if (++calls_ > 20) throw std::runtime_error("device lost");
    uniform_.evaluate(batch, out);
  }
  std::string name() const override { return "failing"; }

 private:
  std::atomic<int> calls_{0};
  UniformEvaluator uniform_;
};

TEST(SearchThreads, EvaluatorErrorReachesTheCallerAndTheSearchRecovers) {
  VariantPtr v = find_variant("chess");
  FailingEvaluator failing;
  SearchParams params;
  params.threads = 3;
  Search search(Position(v), failing, params);
  EXPECT_THROW(search.run({.playouts = 100000}), std::runtime_error);
  SearchResult after = search.result();
  EXPECT_EQ(after.root_visits, 0) << "the tree was started over";
}

}  // namespace
}  // namespace fairyzero
