// How a piece type moves, as data: movement atoms in the mover's frame, before compilation into
// per-cell tables (see movement_tables.h).
#pragma once

#include <string>
#include <vector>

#include "core/types.h"

namespace fairyzero {

// Gilman's six rules for odd-only moves (Commedia dell'Arte Chess), weakest first. For a move of
// odd length n, cells 1..n-1 are passed: stepping needs all empty; even-leaping (a step, then
// 2-leaps) the odd cells; odd-leaping (2-leaps, then a step) the even cells; alternate-leaping
// either of those; flexi-leaping 2-leaps with one step anywhere; maxi-leaping any mix of steps
// and 2-leaps (blocked only by two occupied cells in a row).
enum class OddRule {
  kStepping,
  kEvenLeaping,
  kOddLeaping,
  kAlternateLeaping,
  kFlexiLeaping,
  kMaxiLeaping
};

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
  // Commedia dell'Arte's odd-only riders (Panda, Bear): a repeated step that stops only at odd
  // distances; which cells passed must be empty is the variant's OddRule. Every cell of the line
  // must exist (and diagonal steps keep the corner rule) whatever is leapt.
  bool odd_only = false;
  bool operator==(const MoveAtom&) const = default;
};

}  // namespace fairyzero
