// Left-right symmetry of a variant's rules: whether mirroring the files (a <-> h) maps every
// position of the game and its legal moves to a position and moves of the same game, so that
// a training sample and its mirror teach the same thing (training.mirror_files).
#pragma once

#include <string>

#include "core/geometry.h"
#include "core/variant.h"

namespace fairyzero {

// The cell on the same rank, on the mirrored file.
inline Cell mirror_file(const Geometry& g, Cell c) {
  return g.cell(g.files() - 1 - g.file_of(c), g.rank_of(c));
}

// Empty when the variant's rules are unchanged by mirroring the files, else the first thing
// found that breaks the symmetry, in words a user can act on. Checked: every seat faces north or
// south; the board's cells, zones, River banks, fixed forward directions, seat sides,
// promotion zones, initial cells and River crossings are their own mirrors; and every piece's
// compiled moves from a cell are the mirrors of its moves from the mirrored cell, for every
// seat. Castling is not checked: it is a right held by a position, and a position holding one
// is never mirrored (its rook and king stand on one side). Avon's gated line (the d/e rule)
// is refused rather than checked.
std::string file_mirror_asymmetry(const Variant& variant);

}  // namespace fairyzero
