// Search overhead: playouts per second with a zero-cost (uniform) evaluator, so the figure is
// the cost of selection, move generation at the leaves, expansion and backup alone. Each figure
// sums several searches of a bot-sized budget from positions reached by random play.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "core/variant_loader.h"
#include "mcts/basic_evaluators.h"
#include "mcts/batched_search.h"
#include "mcts/search.h"

int main(int argc, char** argv) {
  using namespace fairyzero;
  int playouts = 10000, searches = 20;
  SearchParams tuned;  // the one-game rows' search parameters (defaults unless given)
  // 1 and 2 threads, and more where the machine has the cores for them.
  std::vector<int> thread_counts = {1, 2};
  for (int t = 4; t <= static_cast<int>(std::thread::hardware_concurrency()) && t <= 16; t *= 2)
    thread_counts.push_back(t);
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--playouts") && i + 1 < argc)
      playouts = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--searches") && i + 1 < argc)
      searches = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--leaves-per-batch") && i + 1 < argc)
      tuned.leaves_per_batch = std::max(1, std::atoi(argv[++i]));
    else if (!std::strcmp(argv[i], "--virtual-loss") && i + 1 < argc)
      tuned.virtual_loss = std::max(0, std::atoi(argv[++i]));
    else {
      std::fprintf(stderr,
                   "usage: search_bench [--playouts N per search] [--searches N] "
                   "[--leaves-per-batch N] [--virtual-loss N]\n");
      return 2;
    }
  }
  UniformEvaluator uniform;
  std::printf("%-18s %-22s %8s %10s %14s %12s %10s\n", "variant", "mode", "threads", "playouts",
              "playouts/s", "mean nodes", "tree MiB");
  for (const char* name : {"chess", "very-heavy-chess"}) {
    VariantPtr v = find_variant(name);
    // Start positions: the variant's start and positions after random plies.
    std::vector<Position> starts;
    std::mt19937_64 rng(11);
    while (static_cast<int>(starts.size()) < searches) {
      Position p(v);
      int plies = static_cast<int>(starts.size()) % 20;
      for (int k = 0; k < plies; ++k) {
        LegalMoves moves(p);
        if (moves.empty()) break;
        p.play(moves[std::uniform_int_distribution<int>(0, moves.size() - 1)(rng)]);
      }
      if (!LegalMoves(p).empty()) starts.push_back(p);
    }
    for (int threads : thread_counts) {
      SearchParams params = tuned;
      params.threads = threads;
      long long total = 0;
      double seconds = 0;
      size_t nodes = 0, bytes = 0;
      for (const Position& start : starts) {
        Search search(start, uniform, params);
        SearchResult r = search.run({.playouts = playouts});
        total += r.playouts;
        seconds += r.seconds;
        nodes += r.tree_nodes;
        bytes += r.tree_bytes;
      }
      std::printf("%-18s %-22s %8d %10lld %14.0f %12zu %10.1f\n", name, "one game", threads, total,
                  total / seconds, nodes / starts.size(),
                  static_cast<double>(bytes) / starts.size() / (1 << 20));
    }
    // Self-play shape: 16 games batched by one thread.
    std::vector<std::unique_ptr<Search>> games;
    std::vector<Search*> pointers;
    for (int g = 0; g < 16; ++g) {
      games.push_back(std::make_unique<Search>(starts[g % starts.size()], uniform));
      pointers.push_back(games.back().get());
    }
    auto start = std::chrono::steady_clock::now();
    BatchedSearchStats stats = run_batched(pointers, {.playouts = playouts}, uniform, 8);
    double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    long long total = 0;
    for (Search* s : pointers) total += s->result().playouts;
    std::printf("%-18s %-22s %8d %10lld %14.0f %12s  (mean batch %.1f)\n", name, "16 games batched",
                1, total, total / seconds, "-",
                static_cast<double>(stats.evaluated) / std::max(1, stats.rounds));
  }
  return 0;
}
