// Multithreaded search under stress: several threads, a progress reporter, stop() from another
// thread. Built twice: in mcts_tests, and in mcts_tsan_tests under ThreadSanitizer, where any
// data race fails the run.
#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

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

// Threads driving one tree with no lock, as Search's workers do; then every node's statistics
// are checked against its children's: nothing lost or doubled, nothing left in flight.
void search_tree_with_threads(SearchTree& tree, const Position& root, Evaluator& evaluator,
                              int threads, int playouts) {
  std::atomic<int> done{0};
  std::vector<std::thread> workers;
  for (int t = 0; t < threads; ++t)
    workers.emplace_back([&] {
      PendingLeaf leaf(root);
      Evaluation eval;
      while (done.load() < playouts && !tree.root().proven) {
        if (!tree.select(leaf)) continue;
        if (leaf.known) {
          tree.complete(leaf, nullptr);
        } else {
          leaf.position = root;
          for (Move m : leaf.moves) leaf.position.play(m);
          leaf.position.legal_moves(leaf.legal);
          leaf.outcome = leaf.position.outcome(leaf.legal);
          if (leaf.outcome.over()) {
            tree.complete(leaf, nullptr);
          } else {
            EvalRequest request{&leaf.position, &leaf.legal};
            evaluator.evaluate({&request, 1}, {&eval, 1});
            tree.complete(leaf, &eval);
          }
        }
        ++done;
      }
    });
  for (std::thread& w : workers) w.join();
}

TEST(SearchThreads, VisitsAndValuesAddUpAfterAThreadedSearch) {
  for (const char* name : {"chess", "very-heavy-chess"}) {
    VariantPtr v = find_variant(name);
    MaterialEvaluator material(*v);
    SearchParams params;
    SearchTree tree(params, 2);
    Position root(v);
    tree.reset(root);
    search_tree_with_threads(tree, root, material, 4, 4000);
    int expanded = 0;
    for (int32_t i = 0; i < static_cast<int32_t>(tree.size()); ++i) {
      const Node& n = tree.node(i);
      EXPECT_EQ(n.in_flight, 0) << name << " node " << i;
      // Each visit backs up one value for each seat, and the two seats' values sum to one.
      EXPECT_NEAR(n.value_sum[0] + n.value_sum[1], n.visits, 1e-2 * n.visits + 1e-3) << name;
      if (tree.edge_count(i) == 0) continue;
      ++expanded;
      int below = 0;
      for (int k = 0; k < tree.edge_count(i); ++k)
        if (tree.child(i, k) >= 0) below += tree.node(tree.child(i, k)).visits;
      // Its own evaluation, then one visit through a child for each later one (a proven node
      // also takes visits itself).
      if (n.proven)
        EXPECT_GE(n.visits, 1 + below) << name << " node " << i;
      else
        EXPECT_EQ(n.visits, 1 + below) << name << " node " << i;
    }
    EXPECT_GT(expanded, 100) << name;
    EXPECT_GE(tree.root().visits, 4000) << name;
  }
}

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
