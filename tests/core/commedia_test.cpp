// Charles Gilman's Commedia dell'Arte Chess and its forms (shared/seeds/003; REFERENCE.md 5.10,
// A15-A18, A21, A23, A24): the six odd-move rules, missing cells and corners, castling, the
// Filled form's Pawns, Chessgi hands and Double CD'A take-overs. Each test quotes the page.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "core/position.h"
#include "core/variant_loader.h"

namespace fairyzero {
namespace {

const std::array<std::string, 6> kRules = {"stepping",          "even-leaping",  "odd-leaping",
                                           "alternate-leaping", "flexi-leaping", "maxi-leaping"};
enum RuleIndex { kStep, kEven, kOdd, kAlt, kFlexi, kMaxi };

// The variant with one odd-move rule, loaded once per (name, rule).
VariantPtr variant(const std::string& name, const std::string& rule = "") {
  static std::map<std::string, VariantPtr> cache;
  VariantPtr& v = cache[name + "/" + rule];
  if (!v) v = rule.empty() ? find_variant(name) : find_variant(name, {"rules.odd_rule=" + rule});
  return v;
}

Cell cell(const Position& pos, const std::string& name) {
  return *pos.variant().geometry.parse_cell(name);
}

void play(Position& pos, const std::string& text) { pos.play(pos.parse_move(text)); }

bool has_move(const Position& pos, const std::string& text) {
  for (Move m : LegalMoves(pos))
    if (pos.move_text(m) == text) return true;
  return false;
}

std::set<std::string> move_texts(const Position& pos) {
  std::set<std::string> out;
  for (Move m : LegalMoves(pos)) out.insert(pos.move_text(m));
  return out;
}

// Which of `cells` the man on `from` may move to, in the order given, space separated.
std::string reach(const Position& pos, const std::string& from,
                  const std::vector<std::string>& cells) {
  std::string out;
  for (const std::string& to : cells) {
    bool legal = false;
    for (Move m : LegalMoves(pos))
      legal = legal || (m.kind() != MoveKind::kDrop && !m.moves_no_man() &&
                        m.from() == cell(pos, from) && m.to() == cell(pos, to));
    if (legal) out += (out.empty() ? "" : " ") + to;
  }
  return out;
}

// The army and letter of the man on a cell ("" when empty).
int army_at(const Position& pos, const std::string& name) {
  PieceCode p = pos.piece_at(cell(pos, name));
  return p == kEmpty ? -1 : army_of(p);
}
char letter_at(const Position& pos, const std::string& name) {
  PieceCode p = pos.piece_at(cell(pos, name));
  return p == kEmpty ? '.' : pos.variant().letter_of(p);
}

// ---------------------------------------------------------------------------------------------
// The six odd-move rules. A White Panda on a3 looks east along rank 3, which has all ten cells:
// b3 is passed cell 1, c3 cell 2, ... i3 cell 8; its destinations are b3, d3, f3, h3, j3
// (n = 1, 3, 5, 7, 9). The men on the line are Black Pandas (capturable) unless noted. White King
// d1, Black King g10: no Panda on rank 3 reaches d1 (d3-d1 is even), so nobody is in check.
// Expectations are derived by hand from REFERENCE.md 5.10's definitions, for a move of odd
// length n passing cells 1..n-1:
//   stepping: all passed cells empty;  even-leaping: odd cells 1..n-2 empty;
//   odd-leaping: even cells 2..n-1 empty;  alternate: even- or odd-leaping path clear;
//   flexi: blocked iff (highest occupied odd cell) >= (lowest occupied even cell) - 1;
//   maxi: blocked iff two consecutive passed cells are occupied.
const std::vector<std::string> kRank3 = {"b3", "d3", "f3", "h3", "j3"};
const std::string kAll3 = "b3 d3 f3 h3 j3";

struct LineCase {
  std::string fen;
  std::string what;
  std::array<std::string, 6> expected;  // by RuleIndex
};

std::string rank3_fen(const std::string& rank3) {
  return "**4k1**/**6**/10/10/4**4/4**4/10/" + rank3 + "/**6**/**1K4** w - - 0 1";
}

const std::vector<LineCase>& panda_cases() {
  static const std::vector<LineCase> cases = {
      // Cell 2 (c3) occupied: only the rules that may leap even cells pass it. Flexi: no odd
      // cell occupied, so never blocked (path: step to b3, then 2-leaps on odd cells).
      {rank3_fen("A1a7"), "c3 (cell 2)", {"b3", kAll3, "b3", kAll3, kAll3, kAll3}},
      // A WHITE man on d3 (cell 3): never a destination, but odd-leaping (2-leaps land on
      // even cells first) passes over it; even-leaping and stepping land on or cross it.
      {rank3_fen("A2A6"),
       "own man on d3 (cell 3)",
       {"b3", "b3", "b3 f3 h3 j3", "b3 f3 h3 j3", "b3 f3 h3 j3", "b3 f3 h3 j3"}},
      // Cells 1 and 2 (b3, c3): blocked beyond b3 under every rule. Flexi n = 3: highest odd
      // 1 >= lowest even 2 - 1, blocked (every path lands on b3 or c3). Maxi: 1, 2 consecutive.
      {rank3_fen("Aaa7"), "b3 c3 (cells 1, 2)", {"b3", "b3", "b3", "b3", "b3", "b3"}},
      // Cells 1 and 4 (b3, e3). Odd-leaping lands on 2 then 3 for d3, but on 4 for f3+. Alternate:
      // even path lands on b3, odd path on e3 for n >= 5, so only b3 d3. Flexi: 1 >= 4 - 1 is
      // false, so all (path c3, d3, f3, h3, j3: leap, step, leaps). Maxi: not consecutive.
      {rank3_fen("Aa2a5"), "b3 e3 (cells 1, 4)", {"b3", "b3", "b3 d3", "b3 d3", kAll3, kAll3}},
      // Cells 2 and 5 (c3, f3). Even-leaping lands on 1, 3 for f3 (a capture), on 5 for h3+.
      // Flexi n = 7: highest odd 5 >= lowest even 2 - 1, blocked (before the step it lands on c3,
      // after it on f3). Maxi: 2 and 5 are not consecutive: h3 by b3, d3, e3, g3, h3; j3 likewise.
      {rank3_fen("A1a2a4"),
       "c3 f3 (cells 2, 5)",
       {"b3", "b3 d3 f3", "b3", "b3 d3 f3", "b3 d3 f3", kAll3}},
      // Cells 3 and 4 (d3, e3): every rule may take d3, none may pass both (flexi n = 5:
      // highest odd 3 >= lowest even 4 - 1; maxi: consecutive).
      {rank3_fen("A2aa5"),
       "d3 e3 (cells 3, 4)",
       {"b3 d3", "b3 d3", "b3 d3", "b3 d3", "b3 d3", "b3 d3"}},
  };
  return cases;
}

// A White Bear on d1 looks north-east: e2 (cell 1), f3 (2), g4 (3), h5 (4), i6 (5); every cell
// and every corner of that diagonal exists. Destinations e2, g4, i6. White King c1.
const std::vector<LineCase>& bear_cases() {
  static const std::vector<LineCase> cases = {
      // f3 (cell 2) occupied.
      {"**4k1**/**6**/10/10/4**4/4**4/10/5a4/**6**/**KE4** w - - 0 1",
       "f3 (cell 2)",
       {"e2", "e2 g4 i6", "e2", "e2 g4 i6", "e2 g4 i6", "e2 g4 i6"}},
      // e2 and h5 (cells 1, 4): as the Panda's b3 e3 case. Flexi i6: path f3, g4, i6.
      {"**4k1**/**6**/10/10/4**4/4**1a2/10/10/**2a3**/**KE4** w - - 0 1",
       "e2 h5 (cells 1, 4)",
       {"e2", "e2", "e2 g4", "e2 g4", "e2 g4 i6", "e2 g4 i6"}},
  };
  return cases;
}

void check_rule(RuleIndex rule) {
  VariantPtr v = variant("commedia", kRules[rule]);
  for (const LineCase& c : panda_cases()) {
    Position pos = Position::from_fen(v, c.fen);
    ASSERT_FALSE(pos.in_check()) << c.fen;
    EXPECT_EQ(reach(pos, "a3", kRank3), c.expected[rule]) << kRules[rule] << ", " << c.what;
  }
  for (const LineCase& c : bear_cases()) {
    Position pos = Position::from_fen(v, c.fen);
    ASSERT_FALSE(pos.in_check()) << c.fen;
    EXPECT_EQ(reach(pos, "d1", {"e2", "g4", "i6"}), c.expected[rule])
        << kRules[rule] << ", Bear, " << c.what;
  }
}

// "(1) Stepping: no moves through occupied cells;"
TEST(CommediaOddRule, Stepping) { check_rule(kStep); }

// "(2) Even-leaping: ... a King move followed by a series of leaping Alibaba moves in the same
// direction, blocked by pieces on odd cells but not even ones;"
TEST(CommediaOddRule, EvenLeaping) { check_rule(kEven); }

// "(3) Odd-leaping: the reverse of the above, a series of leaping Alibaba move followed by a King
// move all in the same direction, blocked by pieces on even cells but not odd ones;"
TEST(CommediaOddRule, OddLeaping) { check_rule(kOdd); }

// "(4) Alternate-leaping: the King move can be at either end (but not both in the same move), so
// that intervening pieces on odd and even cells can block the move;"
TEST(CommediaOddRule, AlternateLeaping) { check_rule(kAlt); }

// "(5) Flexi-leaping: one King move anywhere within the complete move - I leave blocks as an
// exercise for the reader;" Includes n = 3 with cells 1 and 2 occupied (blocked), and b3 e3
// where flexi reaches f3 h3 j3 but alternate does not.
TEST(CommediaOddRule, FlexiLeaping) { check_rule(kFlexi); }

// "(6) Maxi-leaping: any combination of King and leaping Alibaba moves in one direction, as long
// as the total is an odd distance, blockable only by intervening pieces on successive cells."
TEST(CommediaOddRule, MaxiLeaping) { check_rule(kMaxi); }

// The same rule serves the compounds: "The HARLEQUIN is the compound of Panda and Bear."
TEST(CommediaOddRule, CompoundsUseTheRule) {
  // A Harlequin on a3 with the c3 f3 line: as the Panda's row above.
  for (int r : {kStep, kEven, kMaxi}) {
    Position pos = Position::from_fen(variant("commedia", kRules[r]), rank3_fen("H1a2a4"));
    EXPECT_EQ(reach(pos, "a3", kRank3), panda_cases()[4].expected[r]) << kRules[r];
  }
}

// ---------------------------------------------------------------------------------------------
// "The PANDA moves an odd number of steps orthogonally, but not through missing cells." Under
// every rule (A21: every cell on the line must exist, leapt-over cells included).
TEST(CommediaBoard, PandaLineEndsAtAMissingCell) {
  for (const std::string& rule : kRules) {
    // Panda e3 (e4 is cell 1, e5 and e6 missing), Panda a5 (e5 f5 missing on rank 5).
    Position pos = Position::from_fen(
        variant("commedia", rule), "**5k**/**6**/10/10/4**4/A3**4/10/4A5/**6**/**K5** w - - 0 1");
    EXPECT_EQ(reach(pos, "e3", {"e4", "e8", "e10"}), "e4") << rule;
    EXPECT_EQ(reach(pos, "a5", {"b5", "d5", "h5", "j5"}), "b5 d5") << rule;
  }
}

// "The BEAR moves an odd number of steps diagonally, but not through missing cells or corners
// thereof." / "The BISHOP ... not through occupied or missing ones, or corners of missing ones."
TEST(CommediaBoard, DiagonalsKeepTheCornerRule) {
  for (const std::string& rule : kRules) {
    // Bear c1 north-east: d2, e3, f4 exist, but f4-g5 cuts the corner of the missing f5.
    Position bear = Position::from_fen(
        variant("commedia", rule), "**5k**/**6**/10/10/4**4/4**4/10/10/**6**/**E4K** w - - 0 1");
    EXPECT_EQ(reach(bear, "c1", {"d2", "f4", "h6", "j8"}), "d2 f4") << rule;
    EXPECT_TRUE(bear.is_attacked(cell(bear, "f4"), 0));
    EXPECT_FALSE(bear.is_attacked(cell(bear, "h6"), 0));
  }
  Position bishop = Position::from_fen(
      variant("commedia"), "**5k**/**6**/10/10/4**4/4**4/10/10/**6**/**B4K** w - - 0 1");
  EXPECT_EQ(reach(bishop, "c1", {"d2", "e3", "f4", "g5", "h6"}), "d2 e3 f4");
  // A23: the King too. d6-e7 has corners d7 and e6; e6 is missing. d6-c7 is fine.
  Position king = Position::from_fen(variant("commedia"),
                                     "**5k**/**6**/10/10/3K**4/4**4/10/10/**6**/**6** w - - 0 1");
  EXPECT_EQ(reach(king, "d6", {"c7", "d7", "e7", "c5", "d5"}), "c7 d7 c5 d5");
}

// ---------------------------------------------------------------------------------------------
// "With the first two the Pandas are blocked by the Pawn rank in Filled CD'A Chess, and
// first-rank pieces blocked by second-rank ones in all versions". Depth 1 from the start, by hand:
// only the second rank moves under stepping and even-leaping (the first rank's every line starts
// on an occupied cell): Bishop c2 d3 e4 (b3 cuts the corner of b2; e4-f5 is missing), Bear d2 c3
// a5 e3 (g5 cuts the corner of f5), Pandas e3 f3, Bear g2 f3 h3 j5 (d5 cuts the corner of e5),
// Bishop h2 g3 f4 (i3 cuts the corner of i2) = 12.
const std::set<std::string> kSecondRank = {"c2d3", "c2e4", "d2c3", "d2a5", "d2e3", "e2e3",
                                           "f2f3", "g2f3", "g2h3", "g2j5", "h2g3", "h2f4"};
// Odd-leaping also lets the first rank leap the second (cell 1) when the even cells are empty:
// Clown d1 d4 d6 d8 (d10 would pass the Black Bear on d9, cell 8), Harlequin g1 g4 g6 g8 and, as a
// Bear, d4 b6 (leaping f2; e3 and c5 are empty), Columbine h1 e4 (e4-d5 cuts e5's corner) = 9.
// Alternate adds nothing at depth 1 (every even-leaping path from rank 1 lands on rank 2).
const std::set<std::string> kFirstRankLeaps = {"d1d4", "d1d6", "d1d8", "g1g4", "g1g6",
                                               "g1g8", "g1d4", "g1b6", "h1e4"};

TEST(CommediaPerft, StartPositionUnderEveryRule) {
  struct Row {
    RuleIndex rule;
    uint64_t nodes[3];
  };
  // Regression values from the engine (hand-checked at depth 1 below).
  const Row rows[] = {{kStep, {12, 143, 3150}},   {kEven, {12, 133, 2817}},
                      {kOdd, {21, 430, 12388}},   {kAlt, {21, 410, 11676}},
                      {kFlexi, {23, 473, 13501}}, {kMaxi, {23, 473, 13501}}};
  for (const Row& row : rows) {
    Position pos(variant("commedia", kRules[row.rule]));
    for (int d = 1; d <= 3; ++d)
      EXPECT_EQ(perft(pos, d), row.nodes[d - 1]) << kRules[row.rule] << " depth " << d;
    std::set<std::string> expected = kSecondRank;
    if (row.rule >= kOdd) expected.insert(kFirstRankLeaps.begin(), kFirstRankLeaps.end());
    // Flexi and maxi: d1-d10 and g1-g10 pass d2/g2 (cell 1) and d9/g9 (cell 8) and take the
    // Clown and Harlequin: highest odd 1 < lowest even 8 - 1; no two consecutive.
    if (row.rule >= kFlexi) expected.insert({"d1d10", "g1g10"});
    EXPECT_EQ(move_texts(pos), expected) << kRules[row.rule];
  }
}

// ---------------------------------------------------------------------------------------------
// "As each player's King and Rook are three cells apart Rookwise they can Castle, the King moving
// to the Clown cell and the Rook to the Queen one. The destination cells must be empty. Castling
// into, out of, or through check is not allowed."
std::string castling_fen(const std::string& rank8, const std::string& rank5,
                         const std::string& rank4, const std::string& rank1) {
  return "**r2k2**/**6**/" + rank8 + "/10/4**4/" + rank5 + "/" + rank4 + "/10/**6**/" + rank1 +
         " w Cc - 0 1";
}

TEST(CommediaCastling, KingToTheClownCellRookToTheQueenCell) {
  Position pos =
      Position::from_fen(variant("commedia"), castling_fen("10", "4**4", "10", "**R2K2**"));
  const std::string before = pos.fen();
  const uint64_t hash = pos.hash();
  ASSERT_TRUE(has_move(pos, "f1d1"));
  play(pos, "f1d1");
  EXPECT_EQ(letter_at(pos, "d1"), 'K');
  EXPECT_EQ(letter_at(pos, "e1"), 'R');
  EXPECT_EQ(letter_at(pos, "c1"), '.');
  EXPECT_EQ(letter_at(pos, "f1"), '.');
  EXPECT_EQ(pos.fen(), "**r2k2**/**6**/10/10/4**4/4**4/10/10/**6**/**1KR3** b c - 1 1");
  EXPECT_EQ(pos.hash(), pos.compute_hash());
  pos.undo();
  EXPECT_EQ(pos.fen(), before);
  EXPECT_EQ(pos.hash(), hash);
}

TEST(CommediaCastling, RefusedWhenBlockedOrThroughCheck) {
  VariantPtr v = variant("commedia");
  auto castles = [&](const std::string& fen) {
    return has_move(Position::from_fen(v, fen), "f1d1");
  };
  // "The destination cells must be empty": a Bishop on d1, or on e1.
  EXPECT_FALSE(castles(castling_fen("10", "4**4", "10", "**RB1K2**")));
  EXPECT_FALSE(castles(castling_fen("10", "4**4", "10", "**R1BK2**")));
  // "out of": a Black Bishop on j5 checks f1 (over i4, h3, g2).
  Position checked = Position::from_fen(v, castling_fen("10", "4**3b", "10", "**R2K2**"));
  EXPECT_TRUE(checked.in_check());
  EXPECT_FALSE(has_move(checked, "f1d1"));
  // "through": a Black Rook on e4 attacks e1, the cell the King crosses.
  EXPECT_FALSE(castles(castling_fen("10", "4**4", "4r5", "**R2K2**")));
  // "into": a Black Rook on d8 attacks d1.
  EXPECT_FALSE(castles(castling_fen("3r6", "4**4", "10", "**R2K2**")));
  // The Rook's own cell may be attacked (A24 tests the King's cells only): Black Rook on c8.
  EXPECT_TRUE(castles(castling_fen("2r7", "4**4", "10", "**R2K2**")));
}

TEST(CommediaCastling, RightLostWhenKingOrRookMoves) {
  VariantPtr v = variant("commedia");
  const std::string fen = castling_fen("10", "4**4", "10", "**R2K2**");
  Position king = Position::from_fen(v, fen);
  play(king, "f1g1");
  EXPECT_EQ(king.fen(), "**r2k2**/**6**/10/10/4**4/4**4/10/10/**6**/**R3K1** b c - 1 1");
  play(king, "f10f9");
  play(king, "g1f1");
  play(king, "f9f10");
  // Back on f1, but the right stays lost (Black's too, its King moved).
  EXPECT_EQ(king.fen(), "**r2k2**/**6**/10/10/4**4/4**4/10/10/**6**/**R2K2** w - - 4 3");
  EXPECT_FALSE(has_move(king, "f1d1"));
  Position rook = Position::from_fen(v, fen);
  play(rook, "c1c2");
  EXPECT_EQ(rook.fen(), "**r2k2**/**6**/10/10/4**4/4**4/10/10/**R5**/**3K2** b c - 1 1");
}

// ---------------------------------------------------------------------------------------------
// Filled CD'A: "In the Filled version Pawns ... have an initial noncapturing double-step move.
// They may immediately be captured En Passant by enemies of their own kind."
TEST(CommediaFilled, DoubleStepAndEnPassant) {
  VariantPtr v = variant("commedia-filled");
  Position start(v);
  EXPECT_EQ(v->geometry.existing_cells().size(), 84);
  EXPECT_TRUE(has_move(start, "e3e5"));
  EXPECT_TRUE(has_move(start, "e3e4"));
  Position pos =
      Position::from_fen(v, "**3k2**/**6**/10/10/10/3p6/2P7/4P5/**6**/**3K2** w - - 0 1");
  EXPECT_FALSE(has_move(pos, "c4c6"));  // not from its first cell
  const std::string before = pos.fen();
  const uint64_t hash = pos.hash();
  play(pos, "e3e5");
  EXPECT_EQ(pos.fen(), "**3k2**/**6**/10/10/10/3pP5/2P7/10/**6**/**3K2** b - e4 0 1");
  ASSERT_TRUE(has_move(pos, "d5e4"));
  const std::string mid = pos.fen();
  const uint64_t mid_hash = pos.hash();
  play(pos, "d5e4");
  EXPECT_EQ(letter_at(pos, "e5"), '.');
  EXPECT_EQ(letter_at(pos, "e4"), 'p');
  EXPECT_EQ(army_at(pos, "e4"), 1);
  EXPECT_EQ(pos.hash(), pos.compute_hash());
  pos.undo();
  EXPECT_EQ(pos.fen(), mid);
  EXPECT_EQ(pos.hash(), mid_hash);
  pos.undo();
  EXPECT_EQ(pos.fen(), before);
  EXPECT_EQ(pos.hash(), hash);
}

// "With the first two the Pandas are blocked by the Pawn rank in Filled CD'A Chess".
TEST(CommediaFilled, PawnRankBlocksPandasUnderTheFirstTwoRules) {
  for (int r : {kStep, kEven, kOdd, kAlt, kFlexi, kMaxi}) {
    Position pos(variant("commedia-filled", kRules[r]));
    EXPECT_EQ(reach(pos, "e2", {"e5", "e7"}), r <= kEven ? "" : "e5 e7") << kRules[r];
  }
}

// "They may be promoted to any compound array piece." (A15: Queen, Harlequin, Columbine, Clown; on
// rank 10 of files c-h, or the furthest cell of files a, b, i, j, which is rank 8 for White.)
TEST(CommediaFilled, PromotionOnTheFurthestCellOfEachFile) {
  Position pos = Position::from_fen(variant("commedia-filled"),
                                    "**5k**/**2P3**/10/PPP5PP/10/10/10/10/**6**/**K5** w - - 0 1");
  std::set<std::string> moves = move_texts(pos);
  for (const std::string m : {"e9e10", "a7a8", "b7b8", "i7i8", "j7j8"}) {
    for (char c : std::string("qhol")) EXPECT_TRUE(moves.count(m + c)) << m << c;
    for (char c : std::string("rbeak")) EXPECT_FALSE(moves.count(m + c)) << m << c;
    EXPECT_FALSE(moves.count(m)) << m << " must promote";
  }
  EXPECT_TRUE(moves.count("c7c8"));  // rank 8 of file c is not the furthest cell
  EXPECT_FALSE(moves.count("c7c8q"));
  play(pos, "a7a8o");
  EXPECT_EQ(letter_at(pos, "a8"), 'O');
  EXPECT_EQ(pos.hash(), pos.compute_hash());
}

// ---------------------------------------------------------------------------------------------
// CD'A Chessgi: "allow Shogi-style reintroduction of captured pieces so that the weakest pieces
// aren't permanently lost at an early stage."
TEST(CommediaChessgi, CapturesGoToHandAndDrop) {
  VariantPtr v = variant("commedia-chessgi");
  const int panda = v->piece_by_letter('A');
  Position pos =
      Position::from_fen(v, "**3k2**/**6**/10/10/4**4/4**4/4a5/4R5/**6**/**3K2** w - - 0 1");
  const std::string start = pos.fen();
  const uint64_t start_hash = pos.hash();
  play(pos, "e3e4");
  EXPECT_EQ(pos.hand_count(0, panda), 1);
  EXPECT_EQ(pos.fen(), "**3k2**/**6**/10/10/4**4/4**4/4R5/10/**6**/**3K2**[A] b - - 0 1");
  EXPECT_EQ(pos.hash(), pos.compute_hash());
  play(pos, "f10g10");
  EXPECT_TRUE(has_move(pos, "A@d4"));
  EXPECT_THROW(pos.parse_move("A@e4"), MoveError);   // own Rook
  EXPECT_THROW(pos.parse_move("A@g10"), MoveError);  // Black King
  EXPECT_THROW(pos.parse_move("A@e5"), MoveError);   // missing cell
  EXPECT_THROW(pos.parse_move("A@a1"), MoveError);   // missing cell
  play(pos, "A@d4");
  EXPECT_EQ(pos.hand_count(0, panda), 0);
  EXPECT_EQ(letter_at(pos, "d4"), 'A');
  EXPECT_EQ(army_at(pos, "d4"), 0);
  EXPECT_EQ(pos.hash(), pos.compute_hash());
  for (int k = 0; k < 3; ++k) pos.undo();
  EXPECT_EQ(pos.fen(), start);
  EXPECT_EQ(pos.hash(), start_hash);
  EXPECT_EQ(pos.hand_count(0, panda), 0);
}

TEST(CommediaChessgi, HandIsInTheHash) {
  VariantPtr v = variant("commedia-chessgi");
  const std::string board = "**3k2**/**6**/10/10/4**4/4**4/10/4R5/**6**/**3K2**";
  Position none = Position::from_fen(v, board + " w - - 0 1");
  Position white = Position::from_fen(v, board + "[A] w - - 0 1");
  Position black = Position::from_fen(v, board + "[a] w - - 0 1");
  EXPECT_EQ(white.fen(), board + "[A] w - - 0 1");
  EXPECT_NE(none.hash(), white.hash());
  EXPECT_NE(white.hash(), black.hash());
  EXPECT_NE(none.hash(), black.hash());
  EXPECT_EQ(white.hash(), white.compute_hash());
}

// A King is never captured in the two-player game, so never in a hand: a FEN claiming one
// describes no position of the game (it would let White drop a second King).
TEST(CommediaChessgi, KingIsNeverInAHand) {
  EXPECT_THROW(
      Position::from_fen(variant("commedia-chessgi"),
                         "**3k2**/**6**/10/10/4**4/4**4/10/4R5/**6**/**3K2**[K] w - - 0 1"),
      FenError);
}

// ---------------------------------------------------------------------------------------------
// Double CD'A: "Checkmated armies - those whose King is threatened with capture by the player
// about to move - could be taken over, once their own King was removed, by the threatening
// player." Armies: 0 South, 1 West, 2 North, 3 East.
const std::string kTakeOverFen = "**nK5**/**6**/wB8eK/10/1wA2**4/wK3**4/10/sR9/**6**/**sK5**";

TEST(CommediaDouble, AttackedKingIsTakenWithItsArmy) {
  Position pos = Position::from_fen(variant("commedia-double"), kTakeOverFen + " s - - 0 1");
  const std::string start = pos.fen();
  const uint64_t start_hash = pos.hash();
  ASSERT_TRUE(has_move(pos, "a3a5"));  // the South Rook takes West's King
  play(pos, "a3a5");
  EXPECT_EQ(army_at(pos, "a5"), 0);
  EXPECT_EQ(army_at(pos, "a8"), 0);  // West's Bishop, now South's
  EXPECT_EQ(letter_at(pos, "a8"), 'B');
  EXPECT_EQ(army_at(pos, "b6"), 0);  // West's Panda
  EXPECT_EQ(army_at(pos, "c10"), 2);
  EXPECT_FALSE(pos.seat_in_game(1));
  EXPECT_TRUE(pos.seat_in_game(0) && pos.seat_in_game(2) && pos.seat_in_game(3));
  EXPECT_EQ(pos.seat_to_move(), 2);
  EXPECT_EQ(pos.hash(), pos.compute_hash());
  play(pos, "c10d10");
  play(pos, "j8j7");
  EXPECT_EQ(pos.seat_to_move(), 0);  // West is skipped
  EXPECT_FALSE(pos.outcome().over());
  for (int k = 0; k < 3; ++k) pos.undo();
  EXPECT_EQ(pos.fen(), start);
  EXPECT_EQ(pos.hash(), start_hash);
  EXPECT_TRUE(pos.seat_in_game(1));
  EXPECT_EQ(army_at(pos, "a8"), 1);
}

// The FEN of a position after a take-over must say that the seat is out: reloading it gives the
// same position (the same hash, the seat still out).
TEST(CommediaDouble, FenAfterTakeOverReloads) {
  VariantPtr v = variant("commedia-double");
  Position pos = Position::from_fen(v, kTakeOverFen + " s - - 0 1");
  play(pos, "a3a5");
  Position again = Position::from_fen(v, pos.fen());
  EXPECT_FALSE(again.seat_in_game(1)) << pos.fen();
  EXPECT_EQ(again.hash(), pos.hash()) << pos.fen();
}

// Double CD'A Chessgi: "A third option ... is apply both": the victim's hand goes to the captor;
// the King itself goes to no hand.
TEST(CommediaDouble, ChessgiHandGoesToTheCaptor) {
  VariantPtr v = variant("commedia-double-chessgi");
  const int panda = v->piece_by_letter('A'), bear = v->piece_by_letter('E');
  const int king = v->piece_by_letter('K');
  Position pos = Position::from_fen(v, kTakeOverFen + "[wAnE] s - - 0 1");
  const std::string start = pos.fen();
  const uint64_t start_hash = pos.hash();
  play(pos, "a3a5");
  EXPECT_EQ(pos.hand_count(0, panda), 1);
  EXPECT_EQ(pos.hand_count(1, panda), 0);
  EXPECT_EQ(pos.hand_count(2, bear), 1);
  EXPECT_EQ(pos.hand_count(0, king), 0);
  EXPECT_EQ(pos.hand_count(1, king), 0);
  EXPECT_NE(pos.fen().find("[sAnE]"), std::string::npos) << pos.fen();
  EXPECT_EQ(pos.hash(), pos.compute_hash());
  pos.undo();
  EXPECT_EQ(pos.fen(), start);
  EXPECT_EQ(pos.hash(), start_hash);
}

// A seat with no legal move passes (the file's reading; the page is silent). North's King on c10
// has d10, d9 (South Rook d4) and c9 (East Rook h9) all attacked, but is not in check.
TEST(CommediaDouble, SeatWithoutMovesPasses) {
  Position pos =
      Position::from_fen(variant("commedia-double"),
                         "**nK5**/**5eR**/wK9/9eK/4**4/4**4/3sR6/10/**6**/**sK5** n - - 0 1");
  EXPECT_FALSE(pos.in_check());
  EXPECT_EQ(move_texts(pos), std::set<std::string>{"pass"});
  const std::string before = pos.fen();
  play(pos, "pass");
  EXPECT_EQ(pos.seat_to_move(), 3);
  EXPECT_EQ(pos.hash(), pos.compute_hash());
  pos.undo();
  EXPECT_EQ(pos.fen(), before);
}

// The last army with a King wins. South takes West (Panda a4xa3); North and East, checked and
// boxed in, pass; South takes North (c3xc10), East passes, South takes East (a8xj8).
TEST(CommediaDouble, LastArmyWins) {
  Position pos = Position::from_fen(
      variant("commedia-double"),
      "**nK5**/**6**/sR8eK/sR9/4**4/4**4/sA8sR/wK1sRsR6/**6**/**5sK** s - - 0 1");
  const std::string start = pos.fen();
  const uint64_t start_hash = pos.hash();
  const std::vector<std::string> line = {"a4a3", "pass", "pass", "c3c10", "pass", "a8j8"};
  for (const std::string& m : line) {
    EXPECT_FALSE(pos.outcome().over()) << m;
    ASSERT_TRUE(has_move(pos, m)) << m << " in " << pos.fen();
    play(pos, m);
    EXPECT_EQ(pos.hash(), pos.compute_hash()) << m;
  }
  EXPECT_FALSE(pos.seat_in_game(1) || pos.seat_in_game(2) || pos.seat_in_game(3));
  Outcome o = pos.outcome();
  EXPECT_EQ(o.termination, Termination::kLastArmy);
  EXPECT_EQ(o.score[0], 1.0);
  for (int s = 1; s < 4; ++s) EXPECT_EQ(o.score[s], 0.0) << s;
  for (size_t k = 0; k < line.size(); ++k) pos.undo();
  EXPECT_EQ(pos.fen(), start);
  EXPECT_EQ(pos.hash(), start_hash);
}

// ---------------------------------------------------------------------------------------------
// "This gives 80 cells altogether" / "It has 84 cells": every shipped file loads and its start
// position round-trips, under every odd-move rule.
TEST(CommediaFiles, LoadAndStartFenRoundTrips) {
  const std::vector<std::pair<std::string, int>> files = {{"commedia", 80},
                                                          {"commedia-filled", 84},
                                                          {"commedia-chessgi", 80},
                                                          {"commedia-double", 80},
                                                          {"commedia-double-chessgi", 80}};
  for (const auto& [name, cells] : files) {
    for (const std::string& rule : kRules) {
      VariantPtr v = variant(name, rule);
      EXPECT_EQ(v->geometry.existing_cells().size(), cells) << name;
      Position pos(v);
      EXPECT_EQ(pos.fen(), v->start_fen) << name << " " << rule;
      EXPECT_EQ(Position::from_fen(v, v->start_fen).hash(), pos.hash()) << name;
      EXPECT_EQ(pos.hash(), pos.compute_hash()) << name;
    }
  }
}

}  // namespace
}  // namespace fairyzero
