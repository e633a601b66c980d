// Perft speed, single-threaded, from the start positions of chess, capablanca and Very Heavy
// Chess, beside Fairy-Stockfish's `go perft` of the same positions where it can play them.
// Both count legal moves at the last ply without playing them.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "core/position.h"
#include "core/variant_loader.h"
#include "tests/support/fairy_stockfish.h"

namespace {

struct BenchCase {
  const char* variant;
  int depth;
  double reference_nodes_per_second;  // a published figure where the local engine cannot run it
  const char* reference_note;
};

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

int main(int argc, char** argv) {
  using namespace fairyzero;
  int repeat = 3;
  bool quick = false;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--quick"))
      quick = true;
    else if (!std::strcmp(argv[i], "--repeat") && i + 1 < argc)
      repeat = std::max(1, std::atoi(argv[++i]));
    else {
      std::fprintf(stderr, "usage: perft_bench [--quick] [--repeat N]\n");
      return 2;
    }
  }
  std::vector<BenchCase> cases = {
      {"chess", quick ? 5 : 6, 0, ""},
      {"capablanca", quick ? 4 : 5, 0, ""},
      {"very-heavy-chess", quick ? 4 : 5, 9.5e6,
       "current Fairy-Stockfish large-board build, depth 5, one core (figure from the issue)"},
      // Gilman's river family: no other engine plays them.
      {"isis", quick ? 5 : 6, 0, ""},
      {"cam", quick ? 4 : 5, 0, ""},
      {"wey", quick ? 4 : 5, 0, ""},
      {"great-stour", quick ? 4 : 5, 0, ""},
      // The four-player team games: four plies are one turn of every seat.
      {"avon", quick ? 7 : 8, 0, ""},
      {"irwell", quick ? 4 : 5, 0, ""},
      {"aire", quick ? 5 : 6, 0, ""},
      // Commedia dell'Arte Chess (odd-only moves, here under the default even-leaping rule).
      {"commedia", quick ? 5 : 6, 0, ""},
      {"commedia-filled", quick ? 5 : 6, 0, ""},
      {"commedia-double", quick ? 6 : 7, 0, ""},
  };
  bool have_engine = testing::FairyStockfish::available();
  std::printf("%-18s %5s %12s %10s %14s | %14s %8s\n", "variant", "depth", "nodes", "seconds",
              "nodes/s", "F-SF nodes/s", "ratio");
  for (const BenchCase& c : cases) {
    VariantPtr v = find_variant(c.variant);
    Position pos(v);
    uint64_t nodes = 0;
    double best = 1e100;
    for (int r = 0; r < repeat; ++r) {
      auto start = std::chrono::steady_clock::now();
      nodes = perft(pos, c.depth);
      best = std::min(best, seconds_since(start));
    }
    double ours = nodes / best;
    double theirs = 0;
    std::string note;
    if (!v->fairy_stockfish.empty() && have_engine) {
      testing::FairyStockfish engine;
      engine.set_variant(v->fairy_stockfish);
      testing::FairyStockfish::PerftResult result = engine.perft(pos.fen(), c.depth);
      if (result.nodes != nodes) {
        std::fprintf(stderr, "%s: node counts differ: ours %llu, Fairy-Stockfish %llu\n", c.variant,
                     static_cast<unsigned long long>(nodes),
                     static_cast<unsigned long long>(result.nodes));
        return 1;
      }
      theirs = result.nodes / result.seconds;
      note = "Debian fairy-stockfish, same run";
    } else if (c.reference_nodes_per_second > 0) {
      theirs = c.reference_nodes_per_second;
      note = c.reference_note;
    }
    std::printf("%-18s %5d %12llu %10.3f %14.0f | %14.0f %8.2f  %s\n", c.variant, c.depth,
                static_cast<unsigned long long>(nodes), best, ours, theirs,
                theirs > 0 ? ours / theirs : 0.0, note.c_str());
  }
  return 0;
}
