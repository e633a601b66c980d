// Openings for the arena's pairs of games: random plies from a seed, or an openings file.
#include "training/arena/arena_openings.h"

#include <fstream>
#include <random>
#include <sstream>
#include <stdexcept>

#include "core/errors.h"

namespace fairyzero {

std::vector<Opening> read_openings_file(const std::string& path, const VariantPtr& variant) {
  std::ifstream in(path);
  if (!in) throw UserError("openings file " + path + ": cannot be read");
  std::vector<Opening> openings;
  int number = 0;
  for (std::string line; std::getline(in, line);) {
    ++number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    size_t first = line.find_first_not_of(" \t");
    if (first == std::string::npos || line[first] == '#') continue;
    line = line.substr(first, line.find_last_not_of(" \t") + 1 - first);
    Opening opening;
    opening.description = path + ":" + std::to_string(number);
    if (line.find('/') != std::string::npos) {
      opening.start_fen = line;
    } else {
      std::istringstream words(line);
      for (std::string move; words >> move;) opening.moves.push_back(move);
    }
    try {
      if (opening_position(variant, opening).outcome().over())
        throw UserError("the game is already over there");
    } catch (const std::exception& error) {
      throw UserError(opening.description + ": " + error.what());
    }
    openings.push_back(std::move(opening));
  }
  if (openings.empty()) throw UserError("openings file " + path + ": no openings in it");
  return openings;
}

Opening random_opening(const VariantPtr& variant, int plies, uint64_t seed, int pair) {
  std::mt19937_64 random(seed * 0x9E3779B97F4A7C15ull + static_cast<uint64_t>(pair));
  Opening best;
  for (int attempt = 0; attempt < 20; ++attempt) {
    Position position(variant);
    Opening opening;
    for (int ply = 0; ply < plies; ++ply) {
      LegalMoves legal(position);
      if (legal.empty() || position.outcome(legal).over()) break;
      Move move = legal[std::uniform_int_distribution<int>(0, legal.size() - 1)(random)];
      opening.moves.push_back(position.move_text(move));
      position.play(move);
    }
    // Keep the longest opening that leaves a game to play; stop at the first of full length.
    while (!opening.moves.empty() && position.outcome().over()) {
      opening.moves.pop_back();
      position.undo();
    }
    if (opening.moves.size() >= best.moves.size()) best = opening;
    if (static_cast<int>(best.moves.size()) == plies) break;
  }
  best.description = "random " + std::to_string(best.moves.size()) + " plies (seed " +
                     std::to_string(seed) + ", pair " + std::to_string(pair) + ")";
  return best;
}

Position opening_position(const VariantPtr& variant, const Opening& opening) {
  Position position = opening.start_fen.empty() ? Position(variant)
                                                : Position::from_fen(variant, opening.start_fen);
  for (const std::string& move : opening.moves) position.play(position.parse_move(move));
  return position;
}

}  // namespace fairyzero
