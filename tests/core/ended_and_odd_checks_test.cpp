// Issue 20's positions, found by an independent move generator: Commedia castling tested with the
// King standing on each crossed cell, two checkers along one line, and no moves once the position
// has decided the game. Counts are the reference generator's; each has its Black mirror.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/position.h"
#include "core/variant_loader.h"

namespace fairyzero {
namespace {

uint64_t perft_of(const std::string& variant, const std::vector<std::string>& sets,
                  const std::string& fen, int depth) {
  Position pos = Position::from_fen(find_variant(variant, sets), fen);
  return perft(pos, depth);
}

bool has_move(const std::string& variant, const std::vector<std::string>& sets,
              const std::string& fen, const std::string& text) {
  Position pos = Position::from_fen(find_variant(variant, sets), fen);
  for (Move m : LegalMoves(pos))
    if (pos.move_text(m) == text) return true;
  return false;
}

const std::vector<std::string> kStepping = {"rules.odd_rule=stepping"};
const std::vector<std::string> kOddLeaping = {"rules.odd_rule=odd-leaping"};

// The Panda on h1 steps g1-f1-e1 once the King has left f1, so e1 is a crossed cell in check.
const char* kCastlingPanda = "**5k**/**6**/10/10/4**4/4**4/10/10/**6**/**R2K1a** w C - 0 1";
const char* kCastlingPandaBlack = "**r2k1A**/**6**/10/10/4**4/4**4/10/10/**6**/**5K** b c - 0 1";
// The White Harlequin on g1 stands between the Panda and the King.
const char* kCastlingHarlequin = "**5k**/**6**/10/10/4**4/4**4/10/10/**6**/**R2KHa** w C - 0 1";
const char* kCastlingHarlequinBlack =
    "**r2khA**/**6**/10/10/4**4/4**4/10/10/**6**/**5K** b c - 0 1";

TEST(CommediaCastling, CrossedCellAttackedThroughTheKingsStartIsRefused) {
  EXPECT_FALSE(has_move("commedia", kStepping, kCastlingPanda, "f1d1"));
  EXPECT_EQ(perft_of("commedia", kStepping, kCastlingPanda, 2), 110u);
}

TEST(CommediaCastling, CrossedCellAttackedThroughTheKingsStartIsRefusedForBlack) {
  EXPECT_FALSE(has_move("commedia", kStepping, kCastlingPandaBlack, "f10d10"));
  EXPECT_EQ(perft_of("commedia", kStepping, kCastlingPandaBlack, 2), 110u);
}

TEST(CommediaCastling, OddLeapingHarlequinPositionCountsAsTheReference) {
  EXPECT_EQ(perft_of("commedia", kOddLeaping, kCastlingHarlequin, 2), 167u);
  EXPECT_EQ(perft_of("commedia", kOddLeaping, kCastlingHarlequinBlack, 2), 167u);
}

// Castling stays legal when nothing reaches the crossed cells (the fix must not over-refuse).
TEST(CommediaCastling, CastlingWithNoAttackerStaysLegal) {
  EXPECT_TRUE(has_move("commedia", kStepping,
                       "**5k**/**6**/10/10/4**4/4**4/10/10/**6**/**R2K2** w C - 0 1", "f1d1"));
}

// The Black Rook c6 and the Panda c8, leaping over it under the even-leaping rule, both check
// the King on c1; a Bear move to c5 or c3 blocks both.
const char* kDoubleCheck = "**5k**/**6**/2a7/10/2r1**4/4**4/3E6/10/**6**/**K5** w - - 0 1";
const char* kDoubleCheckBlack = "**k5**/**6**/10/3e6/4**4/2R1**4/10/2A7/**6**/**5K** b - - 0 1";
const char* kNotMate = "**5k**/**6**/2a7/10/2r1**4/4**4/3E6/10/**1B4**/**KR4** w - - 0 1";
const char* kNotMateBlack = "**kr4**/**1b4**/10/3e6/4**4/2R1**4/10/2A7/**6**/**5K** b - - 0 1";

TEST(CommediaDoubleCheck, OneBlockStopsTwoCheckersOnOneLine) {
  EXPECT_TRUE(has_move("commedia", {}, kDoubleCheck, "d4c5"));
  EXPECT_TRUE(has_move("commedia", {}, kDoubleCheck, "d4c3"));
  EXPECT_EQ(perft_of("commedia", {}, kDoubleCheck, 2), 79u);
}

TEST(CommediaDoubleCheck, OneBlockStopsTwoCheckersOnOneLineForBlack) {
  EXPECT_TRUE(has_move("commedia", {}, kDoubleCheckBlack, "d7c6"));
  EXPECT_TRUE(has_move("commedia", {}, kDoubleCheckBlack, "d7c8"));
  EXPECT_EQ(perft_of("commedia", {}, kDoubleCheckBlack, 2), 79u);
}

TEST(CommediaDoubleCheck, BlockedDoubleCheckIsNotMate) {
  Position pos = Position::from_fen(find_variant("commedia"), kNotMate);
  EXPECT_FALSE(pos.outcome().over());
  for (const char* move : {"d2c3", "d4c3", "d4c5"})
    EXPECT_TRUE(has_move("commedia", {}, kNotMate, move)) << move;
  EXPECT_EQ(perft_of("commedia", {}, kNotMate, 2), 54u);
}

TEST(CommediaDoubleCheck, BlockedDoubleCheckIsNotMateForBlack) {
  Position pos = Position::from_fen(find_variant("commedia"), kNotMateBlack);
  EXPECT_FALSE(pos.outcome().over());
  for (const char* move : {"d9c8", "d7c8", "d7c6"})
    EXPECT_TRUE(has_move("commedia", {}, kNotMateBlack, move)) << move;
  EXPECT_EQ(perft_of("commedia", {}, kNotMateBlack, 2), 54u);
}

// Two checkers from two lines still allow only royal moves, as in chess.
TEST(CommediaDoubleCheck, TwoLinesStillNeedARoyalMove) {
  Position pos = Position::from_fen(find_variant("chess"), "4k3/8/8/8/8/5n2/3PP3/r3K2R w - - 0 1");
  // Rook a1 and Knight f3 check; no block or single capture answers both.
  EXPECT_FALSE(has_move("chess", {}, pos.fen(), "h1f1"));
  for (Move m : LegalMoves(pos)) EXPECT_EQ(m.from(), *pos.variant().geometry.parse_cell("e1"));
}

// Double Commedia (found by the fuzz suite's legality oracle): South, in check from West's men,
// may take West's King on a5; the take-over makes those men South's, so the check is answered.
TEST(CommediaDoubleCheck, TakingTheCheckingArmysKingAnswersTheCheck) {
  const char* fen =
      "**1nH1sO2**/**nBnK1nB2**/nQ3nEnA4/7nOnR1/wA3**3eK/wK3**2eAeR/4wB1eH2eB/"
      "wBwA1wH2nL3/**sBsAsKsH2**/**sRsQ3eO** s - - 12 22";
  Position pos = Position::from_fen(find_variant("commedia-double"), fen);
  ASSERT_TRUE(pos.in_check());
  EXPECT_TRUE(has_move("commedia-double", {}, fen, "f10a5"));
  pos.play(pos.parse_move("f10a5"));
  EXPECT_FALSE(pos.seat_in_game(1));  // West is out, its men South's
}

// Wey: White has just taken Black's whole victory set.
const char* kWeySetTaken = "6X1/pp3P2/5mP1/3p2P1/PB6/7p/2M3p1/8 b - - 0 1";
const char* kWeySetTakenMirror = "8/2m3P1/7P/pb6/3P2p1/5Mp1/PP3p2/6x1 w - - 0 1";

TEST(DecidedGame, CapturedSetLeavesNoMove) {
  for (const char* fen : {kWeySetTaken, kWeySetTakenMirror}) {
    Position pos = Position::from_fen(find_variant("wey"), fen);
    EXPECT_EQ(pos.outcome().termination, Termination::kCaptureSet) << fen;
    EXPECT_EQ(LegalMoves(pos).size(), 0) << fen;
    EXPECT_EQ(perft(pos, 1), 0u) << fen;
    EXPECT_THROW(pos.parse_move("a7a6"), MoveError) << fen;
  }
}

// Irwell: white-high's forced drop-out puts both White seats out.
TEST(DecidedGame, BothSeatsOutLeavesNoMove) {
  Position pos = Position::from_fen(find_variant("irwell"),
                                    "6x1/8/8/4s3/5p2/6b1/6p1/8/8/2q2s2 wh - - 0 81 out:wl");
  MoveList moves;
  pos.legal_moves(moves);
  ASSERT_EQ(moves.size(), 1);
  EXPECT_EQ(pos.move_text(moves[0]), "out");
  EXPECT_EQ(perft(pos, 2), 0u);
  pos.play(moves[0]);
  EXPECT_EQ(pos.outcome().termination, Termination::kDropOut);
  EXPECT_EQ(LegalMoves(pos).size(), 0);
}

// Irwell: c1b2 crowns White's second Prince, which defeats White at once.
TEST(DecidedGame, DoubleCoronationLeavesNoMove) {
  Position pos =
      Position::from_fen(find_variant("irwell"), "8/4q3/8/5s2/8/3X4/8/8/x1B5/4Q2K wl - - 0 1");
  EXPECT_EQ(perft(pos, 2), 898u);
  pos.play(pos.parse_move("c1b2"));
  EXPECT_EQ(pos.outcome().termination, Termination::kCoronation);
  EXPECT_EQ(LegalMoves(pos).size(), 0);
}

}  // namespace
}  // namespace fairyzero
