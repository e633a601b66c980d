// The arena's records in OUT_DIR: games/NNNN.pgn (one PGN-like file per game), results.csv (one
// row per game, written as games finish) and summary.txt (the final statistics).
#pragma once

#include <fstream>
#include <string>

#include "training/arena/arena.h"

namespace fairyzero {

// PGN-like text: tags [Event] [Date] [Round] [Variant] [<Seat>] per seat (e.g. [White] and
// [Black]) [Result] [Termination] [FEN] [SetUp] (when not the start position) [Opening]
// [PlyCount], then the numbered moves in the variant's coordinates, a comment with the detail
// of a loss by fault, and the result.
std::string format_game_record(const ArenaConfig& config, const ArenaGame& game);

// The final statistics as lines of text (what summary.txt holds and the command prints).
std::string format_summary(const ArenaConfig& config, const ArenaResult& result);

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
