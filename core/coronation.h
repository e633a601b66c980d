// Irwell's Coronation test on a board, shared by play() and by the legality test of a move that
// would crown the mover's own Prince. Internal to the core.
#pragma once

#include "core/variant.h"

namespace fairyzero {

// Cells of the Princes (variant.coronation.piece) that `board` crowns: the only man between a
// Bishop and a Steward (any colours) on a diagonal line, or, on the board's edge, with one free
// diagonal to a Bishop and the other to a Steward (REFERENCE.md A11).
CellSet coronation_cells(const Variant& variant, const PieceCode* board);

}  // namespace fairyzero
