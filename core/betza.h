// Betza notation (XBoard / Fairy-Stockfish flavour) turned into movement atoms, so variant files
// can describe pieces in the notation players already use.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "core/errors.h"
#include "core/movement.h"

namespace fairyzero {

// A notation the parser cannot accept. The message names the notation and the 1-based
// character position of the problem, because variant files are written by hand.
class BetzaError : public UserError {
 public:
  BetzaError(std::string_view notation, std::string_view problem, std::size_t position);

  const std::string& notation() const { return notation_; }
  std::size_t position() const { return position_; }  // 1-based

 private:
  std::string notation_;
  std::size_t position_;
};

// Parses a piece's Betza notation, e.g. "fmWfcF" (pawn), "ifmnD", "RN", "fsN", "W4", "NN".
//
// Output order is group order (left to right), then the sub-atoms of a shorthand in the order
// written out (K = W then F, Q = rook rider then bishop rider), then directions
// counter-clockwise from the mover's forward (forward, left, back, right for W). Atoms that
// differ only in mode are merged into one with the union of the modes.
//
// Direction letters on diagonal atoms follow the definitions literally: "v" and "s" select
// nothing from F, and quadrants select nothing from W. A group whose directions select no move
// at all is an error rather than a silently empty piece.
std::vector<MoveAtom> parse_betza(std::string_view text);

}  // namespace fairyzero
