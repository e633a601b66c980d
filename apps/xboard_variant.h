// XBoard's view of a variant: its coordinates and move text, the name the engine offers it under,
// and the `setup` and `piece` commands that describe a variant XBoard does not know itself.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/position.h"

namespace fairyzero {

// XBoard's coordinates, whatever names the variant's author gave the cells: files a, b, c ...;
// ranks numbered from 1, except on boards of exactly ten ranks, which XBoard numbers 0 to 9
// (its xiangqi convention: one digit per rank); above ten ranks, 10, 11 ... in several digits.
class XboardNotation {
 public:
  explicit XboardNotation(const Variant& variant) : variant_(variant) {}

  std::string cell(Cell c) const;
  // "e2e4", "e7e8q" (promotion letter in lower case), "N@e4" (drops), castling as the king's move.
  std::string move(const Position& pos, Move m) const;
  // The legal move of `pos` written `text` (promotion and drop letters in either case), or
  // nullopt when there is none.
  std::optional<Move> parse(const Position& pos, const std::string& text) const;

 private:
  const Variant& variant_;
};

// Does `text` have the shape of a coordinate move ("e2e4", "a10a11q", "P@e4")?
bool looks_like_move(const std::string& text);

// The name offered in `feature variants`: "normal" for chess, else the variant's own name.
std::string xboard_variant_name(const Variant& variant);
// Standard chess needs no description; every other variant does.
bool xboard_needs_setup(const Variant& variant);

// The lines that define the variant for XBoard 4.8+, sent in answer to `variant`:
//   setup (PIECETOCHAR) WxH+S_fairy FEN
//   piece X& BETZA          one per piece type with a Betza description
// PIECETOCHAR gives XBoard's 21 piece slots and its King slot (PNBRQFEACWMOHIJGDVLSU, K) a letter
// each, white then black: a piece takes the slot of its own letter when free, a royal piece the
// King slot, any other the first free slot, '.' for slots left empty. S is the holdings size
// (the droppable piece types when captures go to hand, else 0). A royal piece's Betza gets
// XBoard's castling atom O<n>, n the files the King moves, when the variant castles.
std::vector<std::string> xboard_definition(const Variant& variant);

}  // namespace fairyzero
