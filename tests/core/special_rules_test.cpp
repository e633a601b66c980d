// Special rules, one test per rule: castling, en passant, promotion, game ends and move errors.
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "core/position.h"
#include "core/variant_loader.h"

namespace fairyzero {
namespace {

VariantPtr chess() {
  static VariantPtr v = find_variant("chess");
  return v;
}

VariantPtr vhc() {
  static VariantPtr v = find_variant("very-heavy-chess");
  return v;
}

bool has_move(const Position& pos, const std::string& text) {
  MoveList moves;
  pos.legal_moves(moves);
  for (Move m : moves)
    if (pos.move_text(m) == text) return true;
  return false;
}

void play(Position& pos, const std::string& text) { pos.play(pos.parse_move(text)); }

void play_all(Position& pos, const std::vector<std::string>& moves) {
  for (const std::string& m : moves) play(pos, m);
}

// The n-th space-separated field of the FEN (0 = board, 2 = castling, 3 = en passant).
std::string fen_field(const Position& pos, int n) {
  std::istringstream in(pos.fen());
  std::string field;
  for (int i = 0; i <= n; ++i) in >> field;
  return field;
}

char letter_at(const Position& pos, const std::string& cell) {
  PieceCode p = pos.piece_at(*pos.variant().geometry.parse_cell(cell));
  return p == kEmpty ? '.' : pos.variant().letter_of(p);
}

// Legal moves of the piece on one cell.
int moves_from(const Position& pos, const std::string& cell) {
  Cell c = *pos.variant().geometry.parse_cell(cell);
  MoveList moves;
  pos.legal_moves(moves);
  int n = 0;
  for (Move m : moves) n += m.from() == c;
  return n;
}

// FIDE Laws of Chess, article 3.8.2 (castling): both sides, both colours, when the way is clear.
TEST(ChessCastling, LegalWhenClearBothSidesBothColours) {
  Position white = Position::from_fen(chess(), "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
  EXPECT_TRUE(has_move(white, "e1g1"));
  EXPECT_TRUE(has_move(white, "e1c1"));
  Position short_castle = white;
  play(short_castle, "e1g1");
  EXPECT_EQ(short_castle.fen(), "r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1");
  Position long_castle = white;
  play(long_castle, "e1c1");
  EXPECT_EQ(long_castle.fen(), "r3k2r/8/8/8/8/8/8/2KR3R b kq - 1 1");
  EXPECT_EQ(long_castle.hash(), long_castle.compute_hash());
  long_castle.undo();
  EXPECT_EQ(long_castle.fen(), white.fen());

  Position black = Position::from_fen(chess(), "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1");
  EXPECT_TRUE(has_move(black, "e8g8"));
  EXPECT_TRUE(has_move(black, "e8c8"));
  Position b_short = black;
  play(b_short, "e8g8");
  EXPECT_EQ(b_short.fen(), "r4rk1/8/8/8/8/8/8/R3K2R w KQ - 1 2");
  Position b_long = black;
  play(b_long, "e8c8");
  EXPECT_EQ(b_long.fen(), "2kr3r/8/8/8/8/8/8/R3K2R w KQ - 1 2");
}

// FIDE 3.8.2.1: castling is illegal while a cell between king and rook is occupied.
TEST(ChessCastling, NotWhenACellBetweenIsOccupied) {
  Position pos = Position::from_fen(chess(), "r3k2r/8/8/8/8/8/8/RN2K1NR w KQkq - 0 1");
  EXPECT_FALSE(has_move(pos, "e1g1"));
  EXPECT_FALSE(has_move(pos, "e1c1"));
  // b1 is not crossed by the king but lies between king and rook.
  pos = Position::from_fen(chess(), "r3k2r/8/8/8/8/8/8/RN2K2R w KQkq - 0 1");
  EXPECT_TRUE(has_move(pos, "e1g1"));
  EXPECT_FALSE(has_move(pos, "e1c1"));
  // An enemy piece blocks too; black's side.
  pos = Position::from_fen(chess(), "rB2k1Nr/8/8/8/8/8/8/R3K2R b KQkq - 0 1");
  EXPECT_FALSE(has_move(pos, "e8g8"));
  EXPECT_FALSE(has_move(pos, "e8c8"));
}

// FIDE 3.8.2.2: not out of check, not through an attacked cell, not into check.
TEST(ChessCastling, NotOutOfThroughOrIntoCheck) {
  // Out of check: the black rook on e6 checks the king on e1.
  Position pos = Position::from_fen(chess(), "r3k2r/8/4r3/8/8/8/8/R3K2R w KQkq - 0 1");
  ASSERT_TRUE(pos.in_check());
  EXPECT_FALSE(has_move(pos, "e1g1"));
  EXPECT_FALSE(has_move(pos, "e1c1"));
  // Through check: f1 attacked stops the short side only; d1 attacked the long side only.
  pos = Position::from_fen(chess(), "r3k2r/8/5r2/8/8/8/8/R3K2R w KQkq - 0 1");
  EXPECT_FALSE(has_move(pos, "e1g1"));
  EXPECT_TRUE(has_move(pos, "e1c1"));
  pos = Position::from_fen(chess(), "r3k2r/8/3r4/8/8/8/8/R3K2R w KQkq - 0 1");
  EXPECT_TRUE(has_move(pos, "e1g1"));
  EXPECT_FALSE(has_move(pos, "e1c1"));
  // Into check: g1 or c1 attacked.
  pos = Position::from_fen(chess(), "r3k2r/8/6r1/8/8/8/8/R3K2R w KQkq - 0 1");
  EXPECT_FALSE(has_move(pos, "e1g1"));
  EXPECT_TRUE(has_move(pos, "e1c1"));
  pos = Position::from_fen(chess(), "r3k2r/8/2r5/8/8/8/8/R3K2R w KQkq - 0 1");
  EXPECT_TRUE(has_move(pos, "e1g1"));
  EXPECT_FALSE(has_move(pos, "e1c1"));
  // b1 attacked does not matter: only the rook crosses it.
  pos = Position::from_fen(chess(), "r3k2r/8/1r6/8/8/8/8/R3K2R w KQkq - 0 1");
  EXPECT_TRUE(has_move(pos, "e1c1"));
  // Black, through check by a knight on the short side (f8 attacked from g6).
  pos = Position::from_fen(chess(), "r3k2r/8/6N1/8/8/8/8/R3K2R b KQkq - 0 1");
  EXPECT_FALSE(has_move(pos, "e8g8"));
  EXPECT_TRUE(has_move(pos, "e8c8"));
}

// FIDE 3.8.2.1 (rights): lost for good once the king or that rook has moved, or the rook is taken.
TEST(ChessCastling, RightsLostAfterKingOrRookMovesOrRookCaptured) {
  const std::string start = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
  Position pos = Position::from_fen(chess(), start);
  play(pos, "e1f1");
  EXPECT_EQ(fen_field(pos, 2), "kq");
  play_all(pos, {"e8d8", "f1e1", "d8e8"});  // back home: the rights stay lost
  EXPECT_EQ(fen_field(pos, 2), "-");
  EXPECT_FALSE(has_move(pos, "e1g1"));
  EXPECT_FALSE(has_move(pos, "e1c1"));

  pos = Position::from_fen(chess(), start);
  play(pos, "h1h2");
  EXPECT_EQ(fen_field(pos, 2), "Qkq");
  play(pos, "a8a7");
  EXPECT_EQ(fen_field(pos, 2), "Qk");
  play(pos, "h2h1");
  EXPECT_EQ(fen_field(pos, 2), "Qk");
  play(pos, "a7a6");
  EXPECT_FALSE(has_move(pos, "e1g1"));
  EXPECT_TRUE(has_move(pos, "e1c1"));

  // A rook captured on its corner: the rook's right goes, for the side that lost it.
  pos = Position::from_fen(chess(), "r3k2r/8/8/8/8/8/1b6/R3K2R b KQkq - 0 1");
  play(pos, "b2a1");
  EXPECT_EQ(fen_field(pos, 2), "Kkq");
  pos = Position::from_fen(chess(), "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
  play(pos, "a1a8");
  EXPECT_EQ(fen_field(pos, 2), "Kk");
  pos.undo();
  EXPECT_EQ(fen_field(pos, 2), "KQkq");
}

// docs/RULES.md, Very Heavy Chess, castling (ambiguity A17): the King moves two cells toward the
// Rook, which lands on the cell the King crossed (g2-i2 with j2-h2, g2-e2 with c2-f2; g9 likewise).
TEST(VeryHeavyChessCastling, KingTwoCellsRookOnTheCrossedCell) {
  const std::string fen = "12/2r3k2r2/12/12/12/12/12/12/2R3K2R2/12 w KQkq - 0 1";
  Position pos = Position::from_fen(vhc(), fen);
  EXPECT_TRUE(has_move(pos, "g2i2"));
  EXPECT_TRUE(has_move(pos, "g2e2"));
  Position k_side = pos;
  play(k_side, "g2i2");
  EXPECT_EQ(letter_at(k_side, "i2"), 'K');
  EXPECT_EQ(letter_at(k_side, "h2"), 'R');
  EXPECT_EQ(letter_at(k_side, "g2"), '.');
  EXPECT_EQ(letter_at(k_side, "j2"), '.');
  EXPECT_EQ(fen_field(k_side, 2), "kq");
  EXPECT_EQ(k_side.hash(), k_side.compute_hash());
  Position q_side = pos;
  play(q_side, "g2e2");
  EXPECT_EQ(letter_at(q_side, "e2"), 'K');
  EXPECT_EQ(letter_at(q_side, "f2"), 'R');
  EXPECT_EQ(letter_at(q_side, "g2"), '.');
  EXPECT_EQ(letter_at(q_side, "c2"), '.');
  EXPECT_EQ(fen_field(q_side, 2), "kq");
  q_side.undo();
  EXPECT_EQ(q_side.fen(), fen);

  // Black's g9 side.
  Position black =
      Position::from_fen(vhc(), "12/2r3k2r2/12/12/12/12/12/12/2R3K2R2/12 b KQkq - 0 1");
  EXPECT_TRUE(has_move(black, "g9i9"));
  EXPECT_TRUE(has_move(black, "g9e9"));
  Position b_k = black;
  play(b_k, "g9i9");
  EXPECT_EQ(letter_at(b_k, "i9"), 'k');
  EXPECT_EQ(letter_at(b_k, "h9"), 'r');
  EXPECT_EQ(letter_at(b_k, "j9"), '.');
  EXPECT_EQ(fen_field(b_k, 2), "KQ");
  Position b_q = black;
  play(b_q, "g9e9");
  EXPECT_EQ(letter_at(b_q, "e9"), 'k');
  EXPECT_EQ(letter_at(b_q, "f9"), 'r');
  EXPECT_EQ(letter_at(b_q, "c9"), '.');
}

// docs/RULES.md, Very Heavy Chess, castling: every cell between King and Rook empty; the King may
// not start, cross or land on an attacked cell.
TEST(VeryHeavyChessCastling, BlockedOrThroughAttack) {
  // A piece on h2 (crossed) or d2 (between rook and king) blocks its side.
  Position pos =
      Position::from_fen(vhc(), "12/2r3k2r2/12/12/12/12/12/12/2RN2KB1R2/12 w KQkq - 0 1");
  EXPECT_FALSE(has_move(pos, "g2i2"));
  EXPECT_FALSE(has_move(pos, "g2e2"));
  pos = Position::from_fen(vhc(), "12/2r3k2r2/12/12/12/12/12/12/2R3K1NR2/12 w KQkq - 0 1");
  EXPECT_FALSE(has_move(pos, "g2i2"));  // i2, the king's destination
  EXPECT_TRUE(has_move(pos, "g2e2"));
  // Through attack: h2 attacked by a rook on h6; f2 by a rook on f6.
  pos = Position::from_fen(vhc(), "12/2r3k2r2/12/12/7r4/12/12/12/2R3K2R2/12 w KQkq - 0 1");
  EXPECT_FALSE(has_move(pos, "g2i2"));
  EXPECT_TRUE(has_move(pos, "g2e2"));
  pos = Position::from_fen(vhc(), "12/2r3k2r2/12/12/5r6/12/12/12/2R3K2R2/12 w KQkq - 0 1");
  EXPECT_TRUE(has_move(pos, "g2i2"));
  EXPECT_FALSE(has_move(pos, "g2e2"));
  // Into check (i2, e2) and out of check (g2).
  pos = Position::from_fen(vhc(), "12/2r3k2r2/12/12/8r3/12/12/12/2R3K2R2/12 w KQkq - 0 1");
  EXPECT_FALSE(has_move(pos, "g2i2"));
  EXPECT_TRUE(has_move(pos, "g2e2"));
  pos = Position::from_fen(vhc(), "12/2r3k2r2/12/12/4r7/12/12/12/2R3K2R2/12 w KQkq - 0 1");
  EXPECT_TRUE(has_move(pos, "g2i2"));
  EXPECT_FALSE(has_move(pos, "g2e2"));
  pos = Position::from_fen(vhc(), "12/2r3k2r2/12/12/6r5/12/12/12/2R3K2R2/12 w KQkq - 0 1");
  ASSERT_TRUE(pos.in_check());
  EXPECT_FALSE(has_move(pos, "g2i2"));
  EXPECT_FALSE(has_move(pos, "g2e2"));
  // Black's side: h9 attacked by a white rook on h5.
  pos = Position::from_fen(vhc(), "12/2r3k2r2/12/12/12/7R4/12/12/2R3K2R2/12 b KQkq - 0 1");
  EXPECT_FALSE(has_move(pos, "g9i9"));
  EXPECT_TRUE(has_move(pos, "g9e9"));
}

// FIDE 3.7.4.1 and docs/RULES.md (pawn double step): a pawn that just made a double step can be
// taken as if it had made a single step, by the next move only.
TEST(ChessEnPassant, CapturesTheRightPawnOnlyImmediately) {
  Position pos = Position::from_fen(chess(), "4k3/3p4/8/2p1P3/8/8/8/4K3 b - - 0 1");
  play(pos, "d7d5");
  EXPECT_EQ(fen_field(pos, 3), "d6");
  ASSERT_TRUE(has_move(pos, "e5d6"));
  Move ep = pos.parse_move("e5d6");
  EXPECT_EQ(ep.kind(), MoveKind::kEnPassant);
  Position taken = pos;
  taken.play(ep);
  EXPECT_EQ(taken.fen(), "4k3/8/3P4/2p5/8/8/8/4K3 b - - 0 2");
  EXPECT_EQ(taken.hash(), taken.compute_hash());
  EXPECT_EQ(taken.hash(), Position::from_fen(chess(), taken.fen()).hash());
  taken.undo();
  EXPECT_EQ(taken.fen(), pos.fen());

  // One move later the right is gone.
  play_all(pos, {"e1e2", "e8e7"});
  EXPECT_EQ(fen_field(pos, 3), "-");
  EXPECT_FALSE(has_move(pos, "e5d6"));
  EXPECT_TRUE(has_move(pos, "e5e6"));

  // A single step gives no right.
  pos = Position::from_fen(chess(), "4k3/8/3p4/4P3/8/8/8/4K3 b - - 0 1");
  play(pos, "d6d5");
  EXPECT_FALSE(has_move(pos, "e5d6"));
}

// FIDE 3.7.4.1 with 3.9: an en-passant capture that would expose the king along the rank
// (both pawns leave it) is illegal.
TEST(ChessEnPassant, NotWhenItExposesTheKingAlongTheRank) {
  Position pos = Position::from_fen(chess(), "8/8/8/KPp4r/8/8/8/7k w - c6 0 1");
  EXPECT_FALSE(has_move(pos, "b5c6"));
  EXPECT_TRUE(has_move(pos, "b5b6"));
  // The same capture is legal once the rank is closed.
  pos = Position::from_fen(chess(), "8/8/8/KPp3Nr/8/8/8/7k w - c6 0 1");
  EXPECT_TRUE(has_move(pos, "b5c6"));
}

// docs/RULES.md, Very Heavy Chess, pawns: double step from the start rank (3 for White, 8 for
// Black), taken en passant.
TEST(VeryHeavyChessEnPassant, DoubleStepFromRankThree) {
  Position pos = Position::from_fen(vhc(), "12/6k5/12/12/12/3p8/12/4P7/6K5/12 w - - 0 1");
  Move step = pos.parse_move("e3e5");
  EXPECT_EQ(step.kind(), MoveKind::kDoubleStep);
  pos.play(step);
  EXPECT_EQ(fen_field(pos, 3), "e4");
  ASSERT_TRUE(has_move(pos, "d5e4"));
  play(pos, "d5e4");
  EXPECT_EQ(letter_at(pos, "e4"), 'p');
  EXPECT_EQ(letter_at(pos, "e5"), '.');
  EXPECT_EQ(letter_at(pos, "d5"), '.');
  EXPECT_EQ(fen_field(pos, 0), "12/6k5/12/12/12/12/4p7/12/6K5/12");
  // Black's double step from rank 8, taken by a white pawn on rank 6.
  pos = Position::from_fen(vhc(), "12/6k5/5p6/12/4P7/12/12/12/6K5/12 b - - 0 1");
  play(pos, "f8f6");
  EXPECT_EQ(fen_field(pos, 3), "f7");
  play(pos, "e6f7");
  EXPECT_EQ(letter_at(pos, "f7"), 'P');
  EXPECT_EQ(letter_at(pos, "f6"), '.');
  // A pawn not on its start rank has no double step.
  pos = Position::from_fen(vhc(), "12/6k5/12/12/12/12/4P7/12/6K5/12 w - - 0 1");
  EXPECT_FALSE(has_move(pos, "e4e6"));
}

// docs/RULES.md, Very Heavy Chess, pawns: promotion on the last rank to any of the twelve pieces
// A, H, O, Q, M, C, J, D, Y, R, B, N.
TEST(VeryHeavyChessPromotion, TwelveChoicesEachMovingLikeItself) {
  const std::string fen = "12/4P7/12/12/12/12/12/12/12/K10k w - - 0 1";
  Position pos = Position::from_fen(vhc(), fen);
  MoveList moves;
  pos.legal_moves(moves);
  std::set<std::string> promotions;
  for (Move m : moves)
    if (m.is_promotion()) promotions.insert(pos.move_text(m));
  const std::set<std::string> expected = {"e9e10a", "e9e10h", "e9e10o", "e9e10q",
                                          "e9e10m", "e9e10c", "e9e10j", "e9e10d",
                                          "e9e10y", "e9e10r", "e9e10b", "e9e10n"};
  EXPECT_EQ(promotions, expected);
  EXPECT_FALSE(has_move(pos, "e9e10"));
  EXPECT_FALSE(has_move(pos, "e9e10k"));
  EXPECT_FALSE(has_move(pos, "e9e10p"));
  // A capture onto the last rank offers the same twelve.
  Position capture = Position::from_fen(vhc(), "3n8/4P7/12/12/12/12/12/12/12/K10k w - - 0 1");
  capture.legal_moves(moves);
  int capture_promotions = 0;
  Cell d10 = *vhc()->geometry.parse_cell("d10");
  for (Move m : moves) capture_promotions += m.is_promotion() && m.to() == d10;
  EXPECT_EQ(capture_promotions, 12);
  // Moves from e10 on the otherwise empty board (kings on a1 and k1, off every line from e10):
  // R 20 (11 on the rank, 9 on the file), B 11, N 4, F 2 new, W 3 new, K 5.
  const std::vector<std::pair<char, int>> counts = {{'A', 35}, {'H', 26}, {'O', 18}, {'Q', 31},
                                                    {'M', 24}, {'C', 15}, {'J', 9},  {'D', 22},
                                                    {'Y', 14}, {'R', 20}, {'B', 11}, {'N', 4}};
  for (auto [letter, count] : counts) {
    std::string text = std::string("e9e10") + static_cast<char>(std::tolower(letter));
    Position p = pos;
    p.play(p.parse_move(text));
    EXPECT_EQ(letter_at(p, "e10"), letter) << text;
    EXPECT_EQ(letter_at(p, "e9"), '.') << text;
    EXPECT_EQ(p.hash(), p.compute_hash()) << text;
    play(p, "l1k1");
    EXPECT_EQ(moves_from(p, "e10"), count) << "promoted to " << letter;
    p.undo();
    p.undo();
    EXPECT_EQ(p.fen(), fen) << text;
  }
}

// FIDE 5.1.1: checkmate ends the game, won by the side giving mate (fool's mate).
TEST(ChessGameEnd, FoolsMateIsCheckmate) {
  Position pos(chess());
  play_all(pos, {"f2f3", "e7e5", "g2g4"});
  EXPECT_FALSE(pos.outcome().over());
  play(pos, "d8h4");
  EXPECT_TRUE(pos.in_check());
  Outcome o = pos.outcome();
  EXPECT_EQ(o.termination, Termination::kCheckmate);
  EXPECT_EQ(o.score[0], 0.0);
  EXPECT_EQ(o.score[1], 1.0);
}

// FIDE 5.2.1: stalemate is a draw.
TEST(ChessGameEnd, StalemateIsADraw) {
  Position pos = Position::from_fen(chess(), "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
  EXPECT_FALSE(pos.in_check());
  Outcome o = pos.outcome();
  EXPECT_EQ(o.termination, Termination::kStalemate);
  EXPECT_EQ(o.score[0], 0.5);
  EXPECT_EQ(o.score[1], 0.5);
}

// FIDE 9.2: the same position for the third time is a draw (rules.repetition = 3).
TEST(ChessGameEnd, ThreefoldRepetitionIsADraw) {
  Position pos(chess());
  const std::vector<std::string> shuffle = {"g1f3", "g8f6", "f3g1", "f6g8"};
  play_all(pos, shuffle);  // the start position for the second time
  EXPECT_FALSE(pos.outcome().over());
  play_all(pos, {"g1f3", "g8f6", "f3g1"});
  EXPECT_FALSE(pos.outcome().over());
  play(pos, "f6g8");  // and the third
  Outcome o = pos.outcome();
  EXPECT_EQ(o.termination, Termination::kRepetition);
  EXPECT_EQ(o.score[0], 0.5);
  EXPECT_EQ(o.score[1], 0.5);
  pos.undo();
  EXPECT_FALSE(pos.outcome().over());
}

// FIDE 9.3: fifty moves by each side without a capture or pawn move is a draw (rules.move_rule).
TEST(ChessGameEnd, FiftyMoveRule) {
  Position pos = Position::from_fen(chess(), "4k3/8/8/8/8/8/r7/R3K3 w - - 99 80");
  EXPECT_FALSE(pos.outcome().over());
  Position quiet = pos;
  play(quiet, "e1f1");
  EXPECT_EQ(quiet.halfmove_clock(), 100);
  Outcome o = quiet.outcome();
  EXPECT_EQ(o.termination, Termination::kMoveRule);
  EXPECT_EQ(o.score[0], 0.5);
  EXPECT_EQ(o.score[1], 0.5);
  // A capture resets the clock.
  Position capture = pos;
  play(capture, "a1a2");
  EXPECT_EQ(capture.halfmove_clock(), 0);
  EXPECT_FALSE(capture.outcome().over());
  // So does a pawn move.
  Position pawn = Position::from_fen(chess(), "4k3/8/8/8/8/8/P7/4K3 w - - 99 80");
  play(pawn, "a2a3");
  EXPECT_EQ(pawn.halfmove_clock(), 0);
  EXPECT_FALSE(pawn.outcome().over());
  // docs/RULES.md: a mate on the move that reaches the limit still counts as checkmate.
  Position mate = Position::from_fen(chess(), "7k/8/6K1/8/8/8/8/R7 w - - 99 80");
  play(mate, "a1a8");
  EXPECT_EQ(mate.outcome().termination, Termination::kCheckmate);
}

// docs/RULES.md, conventions, draws: by a maximum game length (rules.max_plies).
TEST(ChessGameEnd, MaximumGameLength) {
  std::ifstream in(chess()->source_file);
  std::stringstream buffer;
  buffer << in.rdbuf();
  std::string text = buffer.str();
  size_t at = text.find("repetition = 3\n");
  ASSERT_NE(at, std::string::npos);
  text.insert(at, "max_plies = 10\n");
  VariantPtr v = load_variant_text(text, "chess-10-plies.toml");
  ASSERT_EQ(v->rules.max_plies, 10);
  Position pos(v);
  play_all(pos, {"a2a3", "a7a6", "b2b3", "b7b6", "c2c3", "c7c6", "d2d3", "d7d6", "e2e3"});
  EXPECT_FALSE(pos.outcome().over());
  play(pos, "e7e6");
  Outcome o = pos.outcome();
  EXPECT_EQ(o.termination, Termination::kMaxPlies);
  EXPECT_EQ(o.score[0], 0.5);
  EXPECT_EQ(o.score[1], 0.5);
  // The unmodified variant has no such limit.
  Position plain(chess());
  play_all(plain, {"a2a3", "a7a6", "b2b3", "b7b6", "c2c3", "c7c6", "d2d3", "d7d6", "e2e3", "e7e6"});
  EXPECT_FALSE(plain.outcome().over());
}

// Position::parse_move contract (core/position.h): MoveError naming the move, for malformed text
// and for moves that are not legal.
TEST(MoveErrors, MalformedAndIllegalMovesNameTheMove) {
  Position start(chess());
  auto error_of = [](const Position& pos, const std::string& text) -> std::string {
    try {
      Move m = pos.parse_move(text);
      ADD_FAILURE() << "'" << text << "' parsed as " << pos.move_text(m);
    } catch (const MoveError& e) {
      return e.what();
    }
    return "";
  };
  for (const std::string text : {"e9e4", "zz", "", "e2", "e2e4x", "e2e4q"}) {
    std::string message = error_of(start, text);
    EXPECT_NE(message.find("'" + text + "'"), std::string::npos) << message;
  }
  std::string message = error_of(start, "e2e5");
  EXPECT_NE(message.find("'e2e5'"), std::string::npos) << message;
  EXPECT_NE(message.find("not legal"), std::string::npos) << message;
  message = error_of(start, "e7e5");  // black's pawn, white to move
  EXPECT_NE(message.find("'e7e5'"), std::string::npos) << message;
  EXPECT_NE(message.find("white"), std::string::npos) << message;
  message = error_of(start, "e4e5");  // no piece there
  EXPECT_NE(message.find("'e4e5'"), std::string::npos) << message;
  // The bishop on e2 is pinned by the rook on e7.
  Position pinned = Position::from_fen(chess(), "4k3/4r3/8/8/8/8/4B3/4K3 w - - 0 1");
  message = error_of(pinned, "e2d3");
  EXPECT_NE(message.find("'e2d3'"), std::string::npos) << message;
  EXPECT_NE(message.find("check"), std::string::npos) << message;
  // The king may not step into check either.
  Position attacked = Position::from_fen(chess(), "4k3/8/8/8/8/8/5r2/4K3 w - - 0 1");
  message = error_of(attacked, "e1e2");
  EXPECT_NE(message.find("check"), std::string::npos) << message;
  EXPECT_NE(message.find("'e1e2'"), std::string::npos) << message;
  // A promotion needs its letter.
  Position promote = Position::from_fen(chess(), "4k3/P7/8/8/8/8/8/4K3 w - - 0 1");
  message = error_of(promote, "a7a8");
  EXPECT_NE(message.find("'a7a8'"), std::string::npos) << message;
  EXPECT_NE(message.find("promotion"), std::string::npos) << message;
  EXPECT_EQ(promote.move_text(promote.parse_move("a7a8q")), "a7a8q");
  EXPECT_NE(error_of(promote, "a7a8k").find("'a7a8k'"), std::string::npos);
}

}  // namespace
}  // namespace fairyzero
