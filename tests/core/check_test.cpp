// Check detection on pieces whose moves are paths, not lines: a piece that reaches the king by two
// routes gives a check one block cannot stop.
#include <gtest/gtest.h>

#include <set>

#include "core/position.h"
#include "core/variant_loader.h"

namespace fairyzero {
namespace {

// A "lame ferz": one orthogonal step then one sideways, the first cell empty; with all eight
// symmetries it reaches each diagonal neighbour by two routes (through either orthogonal cell).
constexpr const char* kTwoRoutes = R"(
[variant]
name = "two-routes"
[board]
files = 5
ranks = 5
[pieces.king]
letter = "K"
betza = "K"
royal = true
[pieces.rook]
letter = "R"
betza = "R"
[pieces.turner]
letter = "T"
atoms = [{ steps = [[0, 1], [1, 0]], min = 2, symmetry = "all" }]
[setup]
fen = "4k/5/5/5/K4 w - - 0 1"
)";

std::set<std::string> legal_texts(const Position& pos) {
  std::set<std::string> out;
  for (Move m : LegalMoves(pos)) out.insert(pos.move_text(m));
  return out;
}

TEST(CheckAlongTwoPaths, OneBlockDoesNotStopTheCheck) {
  VariantPtr v = load_variant_text(kTwoRoutes, "two-routes.toml");
  // Black's turner on a1 reaches the white king on b2 through a2 and through b1.
  // The rook on a3 can block at a2, the rook on e1 at b1: each closes only one route.
  Position pos = Position::from_fen(v, "4k/5/R4/1K3/t3R w - - 0 1");
  ASSERT_TRUE(pos.in_check());
  std::set<std::string> moves = legal_texts(pos);
  EXPECT_FALSE(moves.count("a3a2")) << "a2 blocks one route; the route through b1 stays open";
  EXPECT_FALSE(moves.count("e1b1")) << "b1 blocks one route; the route through a2 stays open";
  // Blocking both routes at once is impossible: only king moves and captures of the checker.
  for (const std::string& m : moves)
    EXPECT_TRUE(m.substr(0, 2) == "b2" || m == "a3a1" || m == "e1a1") << m;
  EXPECT_TRUE(moves.count("a3a1"));
  EXPECT_TRUE(moves.count("e1a1"));
  // With b1 already filled, a2 is the only open route and blocking it is legal.
  Position one_route = Position::from_fen(v, "4k/5/R4/1K3/tR3 w - - 0 1");
  ASSERT_TRUE(one_route.in_check());
  EXPECT_TRUE(legal_texts(one_route).count("a3a2"));
}

TEST(CheckAlongTwoPaths, NoLegalMoveLeavesTheKingAttacked) {
  VariantPtr v = load_variant_text(kTwoRoutes, "two-routes.toml");
  for (const char* fen : {"4k/5/R4/1K3/t4 w - - 0 1", "4k/5/R4/1K3/tR3 w - - 0 1",
                          "4k/1t3/2R2/3K1/5 w - - 0 1", "t3k/5/2K2/5/R3t w - - 0 1"}) {
    Position pos = Position::from_fen(v, fen);
    int legal = 0;
    for (Move m : LegalMoves(pos)) {
      Position after = pos;
      after.play(m);
      bool attacked = false;
      for (Cell c = 0; c < v->geometry.cell_count(); ++c)
        if (after.piece_at(c) == make_piece(0, v->piece_by_letter('K')))
          attacked = after.is_attacked(c, 1);
      EXPECT_FALSE(attacked) << fen << " " << pos.move_text(m);
      ++legal;
    }
    EXPECT_GT(legal, 0) << fen;
  }
}

}  // namespace
}  // namespace fairyzero
