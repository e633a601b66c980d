// The arena's records in OUT_DIR: games/NNNN.pgn (one PGN-like file per game), results.csv (one
// row per game, written as games finish), summary.txt (the final statistics) and summary.json
// (the same for programs: players, counts, score, Elo and its interval).
#pragma once

#include <fstream>
#include <string>

#include "training/arena/arena.h"

namespace fairyzero {

// "1-0" when the first side (arena_sides) won (more than three quarters of the points), "0-1"
// when the second did, else "1/2-1/2".
std::string result_text(const ArenaGame& game);

// PGN-like text: tags [Event] [Date] [Round] [Variant] [<Seat>] per seat (e.g. [White] and
// [Black]; four with four seats) [Result] [Termination] [FEN] [SetUp] (when not the start position)
// [Opening] [PlyCount], then the numbered moves in the variant's coordinates, a comment with the
// detail of a loss by fault, and the result.
std::string format_game_record(const ArenaConfig& config, const ArenaGame& game);

// The final statistics as lines of text (what summary.txt holds and the command prints).
std::string format_summary(const ArenaConfig& config, const ArenaResult& result);

// The same as JSON (docs/ARENA.md, "Files"): format 1, variant, players [{name, spec,
// description, visits (internal players) or nodes (engines at fixed nodes)}], games, wins,
// draws, losses (the first player's), score, elo, elo_low, elo_high, regularized,
// likelihood_of_superiority, seconds.
std::string format_summary_json(const ArenaConfig& config, const ArenaResult& result);

class ArenaRecorder {
 public:
  // Creates OUT_DIR/games and OUT_DIR/results.csv with its header; throws std::runtime_error
  // naming the path when it cannot.
  explicit ArenaRecorder(const ArenaConfig& config);
  // Writes the game's record file and its results.csv row (flushed at once).
  void record(const ArenaGame& game);
  void write_summary(const ArenaResult& result);

 private:
  const ArenaConfig& config_;
  std::ofstream results_;
};

}  // namespace fairyzero
