// Helpers shared by the four-player river game tests (team_games_test.cpp,
// coronation_ranking_test.cpp): legal moves as text, cells and seats by name.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/position.h"
#include "core/variant_loader.h"

namespace fairyzero::team_test {

inline std::vector<std::string> move_texts(const Position& pos) {
  std::vector<std::string> out;
  for (Move m : LegalMoves(pos)) out.push_back(pos.move_text(m));
  std::sort(out.begin(), out.end());
  return out;
}

inline bool has_move(const Position& pos, std::string_view text) {
  std::vector<std::string> moves = move_texts(pos);
  return std::find(moves.begin(), moves.end(), text) != moves.end();
}

// The legal moves (as text) of the man standing on `from`.
inline std::vector<std::string> moves_from(const Position& pos, std::string_view from) {
  std::vector<std::string> out;
  for (const std::string& m : move_texts(pos))
    if (m.size() >= 4 && std::string_view(m).substr(0, from.size()) == from) out.push_back(m);
  return out;
}

inline Cell cell(const Position& pos, std::string_view name) {
  std::optional<Cell> c = pos.variant().geometry.parse_cell(std::string(name));
  EXPECT_TRUE(c.has_value()) << name;
  return c.value_or(0);
}

// The FEN letter of the man on a cell, '.' when it is empty.
inline char letter_at(const Position& pos, std::string_view name) {
  PieceCode p = pos.piece_at(cell(pos, name));
  return p == kEmpty ? '.' : pos.variant().letter_of(p);
}

// The seat whose FEN token is `token` ("wl", "bh", "wh", "bl").
inline int seat(const Position& pos, std::string_view token) {
  const Variant& v = pos.variant();
  for (int s = 0; s < v.seat_count(); ++s)
    if (v.seats[s].fen == token) return s;
  ADD_FAILURE() << "no seat " << token;
  return 0;
}

inline std::string seat_name(const Position& pos) {
  return pos.variant().seats[pos.seat_to_move()].fen;
}

inline void play(Position& pos, std::string_view text) { pos.play(pos.parse_move(text)); }

inline int white(const Position& pos) { return pos.variant().seats[seat(pos, "wl")].army; }

}  // namespace fairyzero::team_test
