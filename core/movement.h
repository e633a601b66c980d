// How a piece type moves, as data: movement atoms in the mover's frame, before compilation into
// per-cell tables (see movement_tables.h).
#pragma once

#include <string>
#include <vector>

#include "core/types.h"

namespace fairyzero {

// A step in the mover's frame: dx > 0 is to the mover's right, dy > 0 is the mover's forward.
struct Offset {
  int dx = 0;
  int dy = 0;
  bool operator==(const Offset&) const = default;
};

// One way a piece moves: a path of steps from its cell. The landing cell after step k (1-based,
// the sum of the first k steps) is a possible destination when k >= min_steps. Every landing
// before the destination must exist and be empty: a rider is one step repeated; a leap is a
// single step (cells jumped over do not matter); a lame ("n") leap is written as the unit steps
// of its line with min_steps at the end. When `repeat` is true the last step repeats until the
// path leaves the board, up to max_steps steps in all (0 = no limit).
struct MoveAtom {
  std::vector<Offset> steps;
  bool repeat = false;
  int min_steps = 1;
  int max_steps = 0;
  MoveMode mode = kMoveOrCapture;
  bool initial_only = false;  // only from the piece's initial cells (the pawn double step)
  bool operator==(const MoveAtom&) const = default;
};

}  // namespace fairyzero
