// The arena's openings: each pair of games starts from one, either a few random plies from the
// start position (reproducible from the seed) or a line of an openings file.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/position.h"

namespace fairyzero {

struct Opening {
  std::string description;         // "random 4 plies, seed 1, pair 3" or "FILE:LINE"
  std::string start_fen;           // empty: the variant's start position
  std::vector<std::string> moves;  // played from there, in the variant's coordinates
};

// One opening per line: a FEN (a line holding '/'), or moves from the start position separated
// by spaces. Blank lines and lines starting with '#' are skipped. Every line is checked; errors
// name FILE:LINE and the FEN field or move at fault (std::runtime_error).
std::vector<Opening> read_openings_file(const std::string& path, const VariantPtr& variant);

// `plies` uniformly random legal moves from the start position, drawn from (seed, pair), and
// never a finished game (drawn again, or shortened if every draw ends it).
Opening random_opening(const VariantPtr& variant, int plies, uint64_t seed, int pair);

// The position an opening leads to, with its history (for repetitions).
Position opening_position(const VariantPtr& variant, const Opening& opening);

}  // namespace fairyzero
