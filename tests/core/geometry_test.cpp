// Geometry on tests/data/holes.toml: missing cells, zones, cell names, '*' in FEN, solid block.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>

#include "core/position.h"
#include "core/variant_loader.h"

namespace fairyzero {
namespace {

constexpr const char* kHolesPath = "tests/data/holes.toml";

using Names = std::set<std::string>;

VariantPtr holes() { return load_variant_file(kHolesPath); }

std::string holes_text() {
  std::ifstream in(kHolesPath);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The same board with Gilman's solid-block rule switched on.
VariantPtr solid_holes() {
  std::string text = holes_text();
  size_t at = text.find("[board]\n");
  EXPECT_NE(at, std::string::npos);
  text.insert(at + 8, "solid_block = true\n");
  return load_variant_text(text, "holes-solid.toml");
}

// A FEN of the board with the given pieces ("c5" -> 'R'), '*' on missing cells, white to move.
std::string fen_with(const Variant& v, const std::map<std::string, char>& pieces) {
  const Geometry& g = v.geometry;
  std::map<Cell, char> at;
  for (const auto& [name, letter] : pieces) at[*g.parse_cell(name)] = letter;
  std::string out;
  for (int rank = g.ranks() - 1; rank >= 0; --rank) {
    int run = 0;
    for (int file = 0; file < g.files(); ++file) {
      Cell c = g.cell(file, rank);
      char ch = !g.exists(c) ? '*' : at.count(c) ? at[c] : 0;
      if (!ch) {
        ++run;
        continue;
      }
      if (run) out += std::to_string(run);
      run = 0;
      out += ch;
    }
    if (run) out += std::to_string(run);
    if (rank) out += '/';
  }
  return out + " w - - 0 1";
}

// Destinations of the legal moves from one cell.
Names destinations(const Position& pos, const std::string& from) {
  const Geometry& g = pos.variant().geometry;
  Cell c = *g.parse_cell(from);
  MoveList moves;
  pos.legal_moves(moves);
  Names out;
  for (Move m : moves)
    if (m.from() == c) out.insert(g.cell_name(m.to()));
  return out;
}

Names moves_of(const VariantPtr& v, const std::map<std::string, char>& pieces,
               const std::string& from) {
  return destinations(Position::from_fen(v, fen_with(*v, pieces)), from);
}

CellSet cells_named(const Geometry& g, const Names& names) {
  CellSet out;
  for (const std::string& n : names) out.insert(*g.parse_cell(n));
  return out;
}

TEST(Geometry, MissingCellsDoNotExist) {
  VariantPtr v = holes();
  const Geometry& g = v->geometry;
  EXPECT_EQ(g.files(), 6);
  EXPECT_EQ(g.ranks(), 6);
  EXPECT_EQ(g.existing_cells().size(), 34);
  EXPECT_FALSE(g.exists(*g.parse_cell("c3")));
  EXPECT_FALSE(g.exists(*g.parse_cell("d4")));
  EXPECT_TRUE(g.exists(*g.parse_cell("d3")));
  EXPECT_TRUE(g.exists(*g.parse_cell("c4")));
}

TEST(Geometry, ZonesParseToTheirCells) {
  VariantPtr v = holes();
  const Geometry& g = v->geometry;
  ASSERT_NE(g.zone("camp_white"), nullptr);
  ASSERT_NE(g.zone("river"), nullptr);
  EXPECT_EQ(*g.zone("camp_white"), cells_named(g, {"a1", "b1", "c1", "d1", "e1", "f1", "a2", "b2",
                                                   "c2", "d2", "e2", "f2"}));
  // The rectangle skips the missing c3.
  EXPECT_EQ(*g.zone("river"), cells_named(g, {"a3", "b3", "d3", "e3", "f3"}));
  EXPECT_EQ(g.zone("nowhere"), nullptr);
  EXPECT_EQ(g.zones().size(), 2u);
  EXPECT_EQ(g.parse_cells("b2-a1"), cells_named(g, {"a1", "b1", "a2", "b2"}));
  EXPECT_EQ(g.parse_cells("c3-d4"), cells_named(g, {"d3", "c4"}));
  EXPECT_THROW(g.parse_cells("a1-z9"), std::invalid_argument);
}

TEST(Geometry, CellNamesRoundTrip) {
  VariantPtr v = holes();
  const Geometry& g = v->geometry;
  for (Cell c = 0; c < g.cell_count(); ++c) {
    std::optional<Cell> back = g.parse_cell(g.cell_name(c));
    ASSERT_TRUE(back.has_value()) << g.cell_name(c);
    EXPECT_EQ(*back, c) << g.cell_name(c);
  }
  EXPECT_EQ(g.cell_name(g.cell(0, 0)), "a1");
  EXPECT_EQ(g.cell_name(g.cell(5, 5)), "f6");
  EXPECT_EQ(g.cell_name(g.cell(2, 2)), "c3");  // missing cells keep their names
  for (const char* bad : {"", "a", "1", "g1", "a7", "a0", "a1x", "A1"})
    EXPECT_FALSE(g.parse_cell(bad).has_value()) << bad;
  std::string_view text = "b2c3";
  EXPECT_EQ(g.read_cell(text), g.cell(1, 1));
  EXPECT_EQ(text, "c3");
}

TEST(Geometry, SlidersStopBeforeMissingCells) {
  VariantPtr v = holes();
  // Rook on a4: the ray east stops at c4, before the missing d4; e4 and f4 are out of reach.
  EXPECT_EQ(moves_of(v, {{"a4", 'R'}}, "a4"), Names({"a5", "a6", "a3", "a2", "a1", "b4", "c4"}));
  // Rook on c1: north reaches c2 only (c3 is missing, so c4-c6 are not reachable).
  EXPECT_EQ(moves_of(v, {{"c1", 'R'}}, "c1"), Names({"c2", "b1", "a1", "d1", "e1", "f1"}));
  // Rook on c5: south reaches c4 only.
  EXPECT_EQ(moves_of(v, {{"c5", 'R'}}, "c5"), Names({"c4", "c6", "b5", "a5", "d5", "e5", "f5"}));
  // Bishops: a1-b2 then the missing c3; e5 cannot go south-west through d4.
  EXPECT_EQ(moves_of(v, {{"a1", 'B'}}, "a1"), Names({"b2"}));
  EXPECT_EQ(moves_of(v, {{"e5", 'B'}}, "e5"), Names({"d6", "f6", "f4"}));
  EXPECT_EQ(moves_of(v, {{"a2", 'B'}}, "a2"), Names({"b1", "b3", "c4", "d5", "e6"}));
  // Attacks do not pass through the hole either.
  Position pos = Position::from_fen(v, fen_with(*v, {{"c1", 'R'}}));
  const Geometry& g = v->geometry;
  EXPECT_TRUE(pos.is_attacked(*g.parse_cell("c2"), 0));
  EXPECT_FALSE(pos.is_attacked(*g.parse_cell("c4"), 0));
  EXPECT_FALSE(pos.is_attacked(*g.parse_cell("c5"), 0));
}

TEST(Geometry, LeapersJumpOverMissingCellsButDoNotLandOnThem) {
  VariantPtr v = holes();
  // Knight on c2: d4 is missing; the leaps to b4, a3 and e3 pass by c3 freely.
  EXPECT_EQ(moves_of(v, {{"c2", 'N'}}, "c2"), Names({"a1", "a3", "b4", "e1", "e3"}));
  // Knight on b5: c3 and d4 are missing, a3 and d6 remain.
  EXPECT_EQ(moves_of(v, {{"b5", 'N'}}, "b5"), Names({"a3", "d6"}));
  // Surrounded by its own pieces, a knight still leaps.
  EXPECT_EQ(moves_of(v, {{"a1", 'N'}, {"a2", 'R'}, {"b1", 'R'}, {"b2", 'R'}}, "a1"),
            Names({"b3", "c2"}));
}

TEST(Geometry, SteppingPieceIsBlockedByHolesAndPieces) {
  VariantPtr v = holes();
  // Lame Dabbaba on c2: north crosses the missing c3, so no c4; south leaves the board.
  EXPECT_EQ(moves_of(v, {{"c2", 'L'}}, "c2"), Names({"a2", "e2"}));
  // On c1: north would land on the missing c3.
  EXPECT_EQ(moves_of(v, {{"c1", 'L'}}, "c1"), Names({"a1", "e1"}));
  // On b4: east would land on the missing d4; west leaves the board after a4.
  EXPECT_EQ(moves_of(v, {{"b4", 'L'}}, "b4"), Names({"b2", "b6"}));
  // An occupied crossed cell blocks, whoever stands there; an enemy on the landing is captured.
  EXPECT_EQ(moves_of(v, {{"c1", 'L'}, {"d1", 'R'}, {"a1", 'r'}}, "c1"), Names({"a1"}));
  EXPECT_EQ(moves_of(v, {{"c1", 'L'}, {"b1", 'n'}, {"e1", 'r'}}, "c1"), Names({"e1"}));
  EXPECT_EQ(moves_of(v, {{"c1", 'L'}, {"b1", 'n'}, {"d1", 'N'}}, "c1"), Names({}));
}

TEST(Geometry, FenUsesStarForMissingCells) {
  VariantPtr v = holes();
  Position start(v);
  EXPECT_EQ(start.fen(), "rnlbk1/6/3*2/2*3/6/RNLBK1 w - - 0 1");
  start.play(start.parse_move("a1a2"));
  EXPECT_EQ(start.fen(), "rnlbk1/6/3*2/2*3/R5/1NLBK1 b - - 1 1");
  EXPECT_EQ(Position::from_fen(v, start.fen()).fen(), start.fen());
  EXPECT_EQ(Position::from_fen(v, fen_with(*v, {{"c4", 'R'}, {"d3", 'b'}})).fen(),
            "6/6/2R*2/2*b2/6/6 w - - 0 1");
}

TEST(Geometry, FenRejectsPiecesAndRunsOnMissingCells) {
  VariantPtr v = holes();
  auto error_of = [&](const std::string& fen) -> std::string {
    try {
      Position::from_fen(v, fen);
    } catch (const FenError& e) {
      return e.what();
    }
    ADD_FAILURE() << "no FenError for " << fen;
    return "";
  };
  // A piece on c3.
  EXPECT_NE(error_of("rnlbk1/6/3*2/2N3/6/RNLBK1 w - - 0 1").find("c3"), std::string::npos);
  // A digit run over c3, and over d4.
  EXPECT_NE(error_of("rnlbk1/6/3*2/6/6/RNLBK1 w - - 0 1").find("c3"), std::string::npos);
  EXPECT_NE(error_of("rnlbk1/6/6/2*3/6/RNLBK1 w - - 0 1").find("d4"), std::string::npos);
  // '*' on a cell that exists.
  EXPECT_NE(error_of("rnlbk1/*5/3*2/2*3/6/RNLBK1 w - - 0 1").find("a5"), std::string::npos);
  // '*' counts as a cell: one too many makes the rank too long.
  EXPECT_NE(error_of("rnlbk1/6/3*3/2*3/6/RNLBK1 w - - 0 1").find("rank 4"), std::string::npos);
}

TEST(Geometry, SolidBlockForbidsMovesAcrossMissingCorners) {
  VariantPtr v = solid_holes();
  ASSERT_TRUE(v->geometry.solid_block());
  ASSERT_FALSE(holes()->geometry.solid_block());
  // Knight on c2: the 2x3 rectangles towards b4, a3 and e3 contain the missing c3.
  EXPECT_EQ(moves_of(v, {{"c2", 'N'}}, "c2"), Names({"a1", "e1"}));
  // King on b3: the diagonal steps to c2 and c4 have c3 as a corner.
  EXPECT_EQ(moves_of(holes(), {{"b3", 'K'}}, "b3"),
            Names({"a2", "a3", "a4", "b2", "b4", "c2", "c4"}));
  EXPECT_EQ(moves_of(v, {{"b3", 'K'}}, "b3"), Names({"a2", "a3", "a4", "b2", "b4"}));
  // Bishop on a2: the ray north-east stops at b3, since the step b3-c4 has c3 as a corner.
  EXPECT_EQ(moves_of(v, {{"a2", 'B'}}, "a2"), Names({"b1", "b3"}));
  // Orthogonal movers are unaffected.
  EXPECT_EQ(moves_of(v, {{"c2", 'L'}}, "c2"), Names({"a2", "e2"}));
  EXPECT_EQ(moves_of(v, {{"a4", 'R'}}, "a4"), Names({"a5", "a6", "a3", "a2", "a1", "b4", "c4"}));
}

}  // namespace
}  // namespace fairyzero
