// Test helpers for nn/: variants by name and positions reached by seeded random play.
#pragma once

#include <map>
#include <mutex>
#include <random>
#include <string>
#include <vector>

#include "core/position.h"
#include "core/variant_loader.h"

namespace fairyzero::testing {

// A configs/variants name ("chess") or "four-seats" (tests/data). Cached: variants are immutable.
inline VariantPtr variant(const std::string& name) {
  static std::mutex mutex;
  static std::map<std::string, VariantPtr> cache;
  std::lock_guard<std::mutex> lock(mutex);
  VariantPtr& v = cache[name];
  if (!v) {
    v = name == "four-seats"
            ? load_variant_file(std::string(FAIRYZERO_SOURCE_DIR) + "/tests/data/four-seats.toml")
            : find_variant(name);
  }
  return v;
}

// Every position of `games` seeded random games of at most `max_plies` plies from the variant's
// start or `fen` (start included, finished positions excluded), with history so they can undo.
inline std::vector<Position> random_positions(const VariantPtr& v, int games, int max_plies,
                                              unsigned seed = 1, const std::string& fen = "") {
  std::mt19937 rng(seed);
  std::vector<Position> out;
  for (int g = 0; g < games; ++g) {
    Position pos = fen.empty() ? Position(v) : Position::from_fen(v, fen);
    for (int ply = 0; ply < max_plies; ++ply) {
      LegalMoves moves(pos);
      if (moves.empty() || pos.outcome(moves).over()) break;
      out.push_back(pos);
      pos.play(moves[std::uniform_int_distribution<int>(0, moves.size() - 1)(rng)]);
    }
  }
  return out;
}

}  // namespace fairyzero::testing
