// Seats, teams and turn order: four seats moving two armies, "forward" set by the moving seat.
#include <gtest/gtest.h>

#include "core/position.h"
#include "core/variant_loader.h"

namespace fairyzero {
namespace {

VariantPtr four_seats() {
  static VariantPtr v = load_variant_file("tests/data/four-seats.toml");
  return v;
}

TEST(Seats, TurnOrderCyclesThroughFourSeats) {
  Position pos(four_seats());
  const Variant& v = pos.variant();
  std::vector<std::string> seen;
  for (int ply = 0; ply < 8; ++ply) {
    seen.push_back(v.seats[pos.seat_to_move()].name);
    MoveList moves;
    pos.legal_moves(moves);
    ASSERT_FALSE(moves.empty());
    pos.play(moves[0]);
    EXPECT_EQ(pos.hash(), pos.compute_hash());
  }
  const std::vector<std::string> expected = {"white-low", "black-high", "white-high", "black-low",
                                             "white-low", "black-high", "white-high", "black-low"};
  EXPECT_EQ(seen, expected);
  for (int ply = 0; ply < 8; ++ply) pos.undo();
  EXPECT_EQ(pos.fen(), v.start_fen);
}

TEST(Seats, SeatToMoveIsInTheFenAndTheHash) {
  VariantPtr v = four_seats();
  Position low = Position::from_fen(v, "r4r/6/2p3/3P2/6/R4R w - - 0 1");
  Position high = Position::from_fen(v, "r4r/6/2p3/3P2/6/R4R W - - 0 1");
  EXPECT_EQ(high.fen(), "r4r/6/2p3/3P2/6/R4R W - - 0 1");
  EXPECT_EQ(v->seats[high.seat_to_move()].name, "white-high");
  EXPECT_NE(low.hash(), high.hash());
  // The move number counts full rounds of four plies.
  Position later = Position::from_fen(v, "r4r/6/2p3/3P2/6/R4R B - - 0 3");
  later.play(later.parse_move("c3c4"));
  EXPECT_EQ(later.fen(), "r4r/2p3/6/3P2/6/R4R w - - 1 4");
}

// The same white pawn moves north for the low seat and south for the high seat: "forward" is the
// moving seat's, as in Gilman's team games (REFERENCE.md section 4.2).
TEST(Seats, ForwardIsTheMovingSeats) {
  VariantPtr v = four_seats();
  Position low = Position::from_fen(v, "r4r/6/2p3/3P2/6/R4R w - - 0 1");
  EXPECT_NO_THROW(low.parse_move("d2d3"));
  EXPECT_THROW(low.parse_move("d2d1"), MoveError);
  Position high = Position::from_fen(v, "r4r/6/2p3/3P2/6/R4R W - - 0 1");
  EXPECT_NO_THROW(high.parse_move("d2d1"));
  EXPECT_THROW(high.parse_move("d2d3"), MoveError);
  // And the black pawn the other way round.
  Position black_high = Position::from_fen(v, "r4r/6/2p3/3P2/6/R4R b - - 0 1");
  EXPECT_NO_THROW(black_high.parse_move("c3c2"));
  Position black_low = Position::from_fen(v, "r4r/6/2p3/3P2/6/R4R B - - 0 1");
  EXPECT_NO_THROW(black_low.parse_move("c3c4"));
}

TEST(Seats, AuthorCoordinatesNumberRanksFromZero) {
  VariantPtr v = four_seats();
  EXPECT_EQ(v->geometry.cell_name(v->geometry.cell(0, 0)), "a0");
  EXPECT_EQ(*v->geometry.parse_cell("f5"), v->geometry.cell(5, 5));
  Position pos(v);
  EXPECT_EQ(pos.move_text(pos.parse_move("a0a4")), "a0a4");
}

}  // namespace
}  // namespace fairyzero
