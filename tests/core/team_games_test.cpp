// Charles Gilman's four-player river team games (Avon, Irwell, Aire and their Deans forms): seat
// ownership, royal presence, drop-out and take-over, the Rose lock, Aire's corner Rose, Avon's
// d/e rule, Irwell's Coronation, the individual ranking and the same-direction Pawn bar.
// Sources: ../shared/seeds/004 (Irwell page), ../shared/seeds/000 (Deans page) and
// ../shared/variants/REFERENCE.md sections 4.2-4.5, 5.3-5.5 and 6 (A4, A5, A7, A9, A11, A14).
//
// FEN dialect of these games: ranks 9 down to 0, files a-h; the second field is the seat to move
// ("wl" White 0-4, "bh" Black 5-9, "wh" White 5-9, "bl" Black 0-4); an optional seventh field
// names the seats out ("out:bl,wh") and Rose locks ("lock:e2=wl+wh").
#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/position.h"
#include "core/variant_loader.h"

namespace fairyzero {
namespace {

std::vector<std::string> move_texts(const Position& pos) {
  std::vector<std::string> out;
  for (Move m : LegalMoves(pos)) out.push_back(pos.move_text(m));
  std::sort(out.begin(), out.end());
  return out;
}

bool has_move(const Position& pos, std::string_view text) {
  std::vector<std::string> moves = move_texts(pos);
  return std::find(moves.begin(), moves.end(), text) != moves.end();
}

// The legal moves (as text) of the man standing on `from`.
std::vector<std::string> moves_from(const Position& pos, std::string_view from) {
  std::vector<std::string> out;
  for (const std::string& m : move_texts(pos))
    if (m.size() >= 4 && std::string_view(m).substr(0, from.size()) == from) out.push_back(m);
  return out;
}

Cell cell(const Position& pos, std::string_view name) {
  std::optional<Cell> c = pos.variant().geometry.parse_cell(std::string(name));
  EXPECT_TRUE(c.has_value()) << name;
  return c.value_or(0);
}

// The FEN letter of the man on a cell, '.' when it is empty.
char letter_at(const Position& pos, std::string_view name) {
  PieceCode p = pos.piece_at(cell(pos, name));
  return p == kEmpty ? '.' : pos.variant().letter_of(p);
}

// The seat whose FEN token is `token` ("wl", "bh", "wh", "bl").
int seat(const Position& pos, std::string_view token) {
  const Variant& v = pos.variant();
  for (int s = 0; s < v.seat_count(); ++s)
    if (v.seats[s].fen == token) return s;
  ADD_FAILURE() << "no seat " << token;
  return 0;
}

std::string seat_name(const Position& pos) { return pos.variant().seats[pos.seat_to_move()].fen; }

void play(Position& pos, std::string_view text) { pos.play(pos.parse_move(text)); }

int white(const Position& pos) { return pos.variant().seats[seat(pos, "wl")].army; }

// --- Loading ----------------------------------------------------------------------------------

TEST(TeamGames, AllSixVariantsLoadWithFourSeatsAndPlayableStart) {
  for (const char* name : {"avon", "avon-deans", "irwell", "irwell-deans", "aire", "aire-deans"}) {
    SCOPED_TRACE(name);
    VariantPtr v = find_variant(name);
    ASSERT_EQ(v->seat_count(), 4);
    Position pos(v);
    EXPECT_EQ(seat_name(pos), "wl");
    EXPECT_FALSE(move_texts(pos).empty());
    EXPECT_EQ(pos.hash(), pos.compute_hash());
    EXPECT_EQ(Position::from_fen(v, pos.fen()).fen(), pos.fen());
  }
}

// --- 1. Seat ownership (A5) -------------------------------------------------------------------

// "Players are initially restricted to moves starting or ending their side of the River." and
// "Forward directions are defined relative to the player moving a piece." ... "Note that after
// crossing the River the last [the Princess] changes both direction and player (but within the
// same team of two players) for its next move." (Irwell page)
TEST(TeamGames, PrincessCrossingTheRiverChangesPlayerAndDirection) {
  VariantPtr v = find_variant("irwell");
  Position pos = Position::from_fen(v, "x6X/8/8/8/8/8/3I4/8/8/x6X wl - - 0 1");
  // White 0-4 moves the Princess north (its forward), across the River too.
  EXPECT_TRUE(has_move(pos, "d3d4"));
  EXPECT_TRUE(has_move(pos, "d3d6"));
  EXPECT_TRUE(has_move(pos, "d3d9"));
  EXPECT_FALSE(has_move(pos, "d3d2"));
  play(pos, "d3d6");
  play(pos, "a9a8");
  ASSERT_EQ(seat_name(pos), "wh");
  // White 5-9 now moves it, with its own forward: south.
  std::vector<std::string> high = moves_from(pos, "d6");
  std::vector<std::string> expected = {"d6a3", "d6b4", "d6c5", "d6d0", "d6d1", "d6d2", "d6d3",
                                       "d6d4", "d6d5", "d6e5", "d6f4", "d6g3", "d6h2"};
  EXPECT_EQ(high, expected);
  EXPECT_FALSE(has_move(pos, "d6d7"));
  EXPECT_FALSE(has_move(pos, "d6c7"));

  // Standing on the high side, the Princess is no longer White 0-4's to move north.
  Position low = Position::from_fen(v, "x6X/8/8/3I4/8/8/8/8/8/x6X wl - - 0 1");
  EXPECT_TRUE(moves_from(low, "d6").empty());
  EXPECT_THROW(low.parse_move("d6d7"), MoveError);
}

// REFERENCE.md 4.2: "A player may move any man of their army whose move starts or ends on their
// own side." A5: "A move is available to a player if its start or end square is on that player's
// side."
TEST(TeamGames, SeatMovesMenFromThePartnersSideOntoItsOwn) {
  VariantPtr v = find_variant("irwell");
  Position pos = Position::from_fen(v, "x6X/8/3M4/8/8/8/8/8/8/x6X wl - - 0 1");
  EXPECT_TRUE(has_move(pos, "d7d3"));  // starts on White 5-9's side, ends on White 0-4's
  EXPECT_TRUE(has_move(pos, "d7d0"));
  EXPECT_FALSE(has_move(pos, "d7d8"));  // both ends on the partner's side
  EXPECT_FALSE(has_move(pos, "d7d5"));
  EXPECT_FALSE(has_move(pos, "d7a7"));
  EXPECT_FALSE(has_move(pos, "d7e5"));  // a Knight leap that stays high
  EXPECT_THROW(pos.parse_move("d7d8"), MoveError);
  // The partner moves it anywhere from its side.
  Position high = Position::from_fen(v, "x6X/8/3M4/8/8/8/8/8/8/x6X wh - - 0 1");
  EXPECT_TRUE(has_move(high, "d7d8"));
  EXPECT_TRUE(has_move(high, "d7d3"));
}

// REFERENCE.md 4.2: "The same applies to Avon's Abbots and Caryatids ('forward-only pieces crossing
// the River change direction', Avon page)."
TEST(TeamGames, AvonAbbotCrossingTheRiverChangesDirection) {
  VariantPtr v = find_variant("avon");
  Position pos = Position::from_fen(v, "x6X/8/8/8/8/6A1/8/8/8/x6X wl - - 0 1");
  EXPECT_TRUE(has_move(pos, "g4g5"));
  EXPECT_TRUE(has_move(pos, "g4h5"));
  EXPECT_FALSE(has_move(pos, "g4g3"));
  play(pos, "g4h5");
  play(pos, "a9a8");
  ASSERT_EQ(seat_name(pos), "wh");
  std::vector<std::string> expected = {"h5e2", "h5f3", "h5g4", "h5h4"};
  EXPECT_EQ(moves_from(pos, "h5"), expected);
}

// --- 2. Royal presence (A7) -------------------------------------------------------------------

// "No single type of royal piece need be retained, but a legal move must end with at least one
// from the player's army their side of the River." (Irwell page); A7: "after your move your army
// must have a Queen, Prince or Princess on your side; the partner's side is not checked."
TEST(TeamGames, RoyalPresenceOnTheMoversSideOnly) {
  VariantPtr v = find_variant("irwell");
  // The Queen on d3 is White 0-4's only royal man on its side: it may not cross.
  Position pos = Position::from_fen(v, "x6X/8/8/8/8/8/3Q4/8/8/x7 wl - - 0 1");
  EXPECT_TRUE(has_move(pos, "d3d4"));
  EXPECT_TRUE(has_move(pos, "d3h3"));
  for (const char* crossing : {"d3d5", "d3d9", "d3h7", "d3a6"}) {
    EXPECT_FALSE(has_move(pos, crossing)) << crossing;
    EXPECT_THROW(pos.parse_move(crossing), MoveError) << crossing;
  }
  // With a Prince left behind on h0, the Queen may cross.
  Position with_prince = Position::from_fen(v, "x6X/8/8/8/8/8/3Q4/8/8/x6X wl - - 0 1");
  EXPECT_TRUE(has_move(with_prince, "d3d5"));
  EXPECT_TRUE(has_move(with_prince, "d3d9"));
  // The partner's side is not checked: White 0-4 takes White's only royal man off the high side.
  Position partner = Position::from_fen(v, "x7/8/8/3Q4/8/8/8/8/8/x6X wl - - 0 1");
  EXPECT_TRUE(has_move(partner, "d6d3"));
  play(partner, "d6d3");
  EXPECT_EQ(letter_at(partner, "d3"), 'Q');
}

// --- 3. Drop-out and take-over ----------------------------------------------------------------

// "A player with no legal move (including ending with a royal piece on their half of the board)
// drops out of the game. All that player's turns are subsequently missed. Their partner, if still
// in the game, gains total control of the army with the Princess becoming a Queen and any
// remaining unpromoted Pawns Stewards." (Irwell page)
TEST(TeamGames, SeatWithNoMoveDropsOutAndPartnerTakesOver) {
  VariantPtr v = find_variant("irwell");
  const std::string fen = "x6X/1I6/8/8/8/8/2P5/8/8/x7 wl - - 0 1";
  Position pos = Position::from_fen(v, fen);
  const uint64_t start_hash = pos.hash();
  // White 0-4 has no royal man on its side and cannot bring one there: its only move is "out".
  MoveList legal;
  pos.legal_moves(legal);
  ASSERT_EQ(legal.size(), 1);
  EXPECT_EQ(legal[0], Move::drop_out());
  EXPECT_EQ(legal[0].kind(), MoveKind::kDropOut);
  EXPECT_EQ(pos.move_text(legal[0]), "out");
  EXPECT_TRUE(pos.seat_restricted(seat(pos, "wh")));
  EXPECT_FALSE(pos.outcome().over());

  play(pos, "out");
  EXPECT_FALSE(pos.seat_in_game(seat(pos, "wl")));
  EXPECT_EQ(pos.dropout_order(seat(pos, "wl")), 0);
  EXPECT_EQ(pos.dropout_order(seat(pos, "wh")), -1);
  EXPECT_EQ(letter_at(pos, "b8"), 'Q');  // the Princess becomes a Queen
  EXPECT_EQ(letter_at(pos, "c3"), 'S');  // the Pawn a Steward
  EXPECT_EQ(seat_name(pos), "bh");
  EXPECT_EQ(pos.fen(), "x6X/1Q6/8/8/8/8/2S5/8/8/x7 bh - - 0 1 out:wl");
  EXPECT_EQ(pos.hash(), pos.compute_hash());
  EXPECT_FALSE(pos.outcome().over());  // White 5-9 still plays the army

  // Turn order skips White 0-4: bh, wh, bl, bh, ...
  play(pos, "a9a8");
  ASSERT_EQ(seat_name(pos), "wh");
  // "total control": White 5-9 is no longer confined to its side.
  EXPECT_FALSE(pos.seat_restricted(seat(pos, "wh")));
  EXPECT_TRUE(has_move(pos, "c3c4"));  // a low-side man moved on the low side
  EXPECT_TRUE(has_move(pos, "c3c2"));  // a Steward moves backward too
  play(pos, "c3c4");
  EXPECT_EQ(seat_name(pos), "bl");
  play(pos, "a0a1");
  EXPECT_EQ(seat_name(pos), "bh");
  EXPECT_EQ(pos.hash(), pos.compute_hash());

  // Undo restores everything, the seat and the men included.
  for (int k = 0; k < 4; ++k) pos.undo();
  EXPECT_EQ(pos.fen(), fen);
  EXPECT_EQ(pos.hash(), start_hash);
  EXPECT_EQ(pos.hash(), pos.compute_hash());
  EXPECT_TRUE(pos.seat_in_game(seat(pos, "wl")));
  EXPECT_EQ(pos.dropout_order(seat(pos, "wl")), -1);
  EXPECT_EQ(letter_at(pos, "b8"), 'I');
  EXPECT_EQ(letter_at(pos, "c3"), 'P');
}

// "All their Pawns are then promoted to the relevant promotee, and in Avon Abbots and Caryatids
// are promoted to Primates and Chatelaines." (Deans page); A9: "Use the variant's promotee: Wazir
// in Avon".
TEST(TeamGames, AvonTakeOverPromotesPrincessPawnsAbbotsAndCaryatids) {
  VariantPtr v = find_variant("avon");
  const std::string fen = "x6X/1I6/8/8/8/8/2P1A1Y1/8/8/x7 wl - - 0 1";
  Position pos = Position::from_fen(v, fen);
  ASSERT_EQ(move_texts(pos), std::vector<std::string>{"out"});
  play(pos, "out");
  EXPECT_EQ(letter_at(pos, "b8"), 'Q');  // Princess -> Queen
  EXPECT_EQ(letter_at(pos, "c3"), 'W');  // Pawn -> Wazir
  EXPECT_EQ(letter_at(pos, "e3"), 'T');  // Abbot -> Primate
  EXPECT_EQ(letter_at(pos, "g3"), 'L');  // Caryatid -> Chatelaine
  EXPECT_EQ(pos.fen(), "x6X/1Q6/8/8/8/8/2W1T1L1/8/8/x7 bh - - 0 1 out:wl");
  EXPECT_EQ(pos.hash(), pos.compute_hash());
  pos.undo();
  EXPECT_EQ(pos.fen(), fen);
  EXPECT_EQ(pos.hash(), pos.compute_hash());
}

// The take-over only happens while the partner plays: "Their partner, if still in the game, gains
// total control of the army".
TEST(TeamGames, NoTakeOverWhenThePartnerIsAlreadyOut) {
  VariantPtr v = find_variant("irwell");
  Position pos = Position::from_fen(v, "x7/8/8/8/8/8/1IP5/8/8/x7 wh - - 0 1 out:wl");
  ASSERT_EQ(move_texts(pos), std::vector<std::string>{"out"});
  play(pos, "out");
  EXPECT_EQ(letter_at(pos, "b3"), 'I');
  EXPECT_EQ(letter_at(pos, "c3"), 'P');
  EXPECT_EQ(pos.outcome().termination, Termination::kDropOut);
}

// --- 4. Both seats of an army out -------------------------------------------------------------

// "The game usually ends when both an army's players drop out of the game." (Irwell page); "The
// game ends when both an army's players drop out." (REFERENCE.md 4.2)
TEST(TeamGames, ArmyWithBothSeatsOutLoses) {
  VariantPtr v = find_variant("aire");
  Position pos = Position::from_fen(v, "x7/8/8/8/*6*/*6*/2S5/8/8/x7 wh - - 0 1 out:wl");
  EXPECT_FALSE(pos.outcome().over());
  ASSERT_EQ(move_texts(pos), std::vector<std::string>{"out"});
  play(pos, "out");
  Outcome o = pos.outcome();
  EXPECT_EQ(o.termination, Termination::kDropOut);
  EXPECT_EQ(o.score[seat(pos, "wl")], 0.0);
  EXPECT_EQ(o.score[seat(pos, "wh")], 0.0);
  EXPECT_EQ(o.score[seat(pos, "bh")], 1.0);
  EXPECT_EQ(o.score[seat(pos, "bl")], 1.0);
  EXPECT_EQ(pos.dropout_order(seat(pos, "wh")), 1);
  EXPECT_EQ(pos.fen(), "x7/8/8/8/*6*/*6*/2S5/8/8/x7 bl - - 0 1 out:wl,wh");
  pos.undo();
  EXPECT_FALSE(pos.outcome().over());
}

// --- 5. Rose lock (A4) ------------------------------------------------------------------------

// "When a player moves their Rose, it cannot be moved again until that player and, if still in
// the game, their partner have each moved another piece." (Irwell page); A4: "Moves of the
// opposing players do not count."
TEST(TeamGames, RoseLockWaitsForMoverAndPartner) {
  VariantPtr v = find_variant("irwell");
  const std::string fen = "x6X/8/8/8/8/8/8/8/2O5/x6X wl - - 0 1";
  Position pos = Position::from_fen(v, fen);
  const int w = white(pos);
  const uint32_t wl = 1u << seat(pos, "wl"), wh = 1u << seat(pos, "wh");
  EXPECT_EQ(pos.locked_cell(w), kNoCell);
  play(pos, "c1e2");
  EXPECT_EQ(pos.locked_cell(w), cell(pos, "e2"));
  EXPECT_EQ(pos.lock_pending(w), wl | wh);
  EXPECT_EQ(pos.fen(), "x6X/8/8/8/8/8/8/4O3/8/x6X bh - - 1 1 lock:e2=wl+wh");
  EXPECT_EQ(pos.hash(), pos.compute_hash());

  play(pos, "a9a8");  // Black's move does not count
  EXPECT_EQ(pos.lock_pending(w), wl | wh);
  ASSERT_EQ(seat_name(pos), "wh");
  // White 5-9 could otherwise move the Rose to its side (e2e6); it is locked.
  EXPECT_TRUE(moves_from(pos, "e2").empty());
  play(pos, "h9h8");  // the partner moves another piece
  EXPECT_EQ(pos.locked_cell(w), cell(pos, "e2"));
  EXPECT_EQ(pos.lock_pending(w), wl);
  play(pos, "a0a1");
  ASSERT_EQ(seat_name(pos), "wl");
  EXPECT_TRUE(moves_from(pos, "e2").empty());
  EXPECT_THROW(pos.parse_move("e2f4"), MoveError);
  play(pos, "h0g0");  // and the mover does too: the Rose is free
  EXPECT_EQ(pos.locked_cell(w), kNoCell);
  EXPECT_EQ(pos.lock_pending(w), 0u);
  EXPECT_EQ(pos.hash(), pos.compute_hash());
  play(pos, "a8a9");
  ASSERT_EQ(seat_name(pos), "wh");
  EXPECT_TRUE(has_move(pos, "e2e6"));
  play(pos, "h8h9");
  play(pos, "a1a0");
  ASSERT_EQ(seat_name(pos), "wl");
  EXPECT_TRUE(has_move(pos, "e2f4"));
  EXPECT_TRUE(has_move(pos, "e2c1"));

  // Undo brings the lock back, step by step.
  for (int k = 0; k < 4; ++k) pos.undo();
  EXPECT_EQ(pos.locked_cell(w), cell(pos, "e2"));
  EXPECT_EQ(pos.lock_pending(w), wl);
  for (int k = 0; k < 4; ++k) pos.undo();
  EXPECT_EQ(pos.locked_cell(w), kNoCell);
  EXPECT_EQ(pos.fen(), fen);
  EXPECT_EQ(pos.hash(), pos.compute_hash());
}

// "... until that player and, if still in the game, their partner have each moved another piece":
// a partner that drops out no longer has to move.
TEST(TeamGames, RoseLockIsReleasedAcrossThePartnersDropOut) {
  VariantPtr v = find_variant("irwell");
  Position pos = Position::from_fen(v, "x7/8/8/8/8/8/8/4O3/8/x6X wh - - 0 1 lock:e2=wl+wh");
  const int w = white(pos);
  const uint32_t wl = 1u << seat(pos, "wl");
  ASSERT_EQ(move_texts(pos), std::vector<std::string>{"out"});
  play(pos, "out");
  EXPECT_EQ(pos.locked_cell(w), cell(pos, "e2"));
  EXPECT_EQ(pos.lock_pending(w), wl);
  EXPECT_EQ(pos.fen(), "x7/8/8/8/8/8/8/4O3/8/x6X bl - - 0 1 out:wh;lock:e2=wl");
  EXPECT_EQ(pos.hash(), pos.compute_hash());
  play(pos, "a0a1");
  ASSERT_EQ(seat_name(pos), "wl");
  EXPECT_TRUE(moves_from(pos, "e2").empty());  // White 0-4 still owes a move
  play(pos, "h0g0");
  EXPECT_EQ(pos.locked_cell(w), kNoCell);
  play(pos, "a9a8");
  play(pos, "a1a0");
  ASSERT_EQ(seat_name(pos), "wl");
  EXPECT_TRUE(has_move(pos, "e2f4"));
  EXPECT_TRUE(has_move(pos, "e2e6"));  // unrestricted now, the partner being out
}

// A4: the lock belongs to the Rose; once the Rose is captured there is nothing left to lock.
TEST(TeamGames, CapturingTheLockedRoseClearsTheLock) {
  VariantPtr v = find_variant("irwell");
  const std::string fen = "x6X/8/8/8/8/2b5/8/4O3/8/x6X bl - - 0 1 lock:e2=wl+wh";
  Position pos = Position::from_fen(v, fen);
  const int w = white(pos);
  EXPECT_EQ(pos.locked_cell(w), cell(pos, "e2"));
  play(pos, "c4e2");
  EXPECT_EQ(pos.locked_cell(w), kNoCell);
  EXPECT_EQ(pos.lock_pending(w), 0u);
  EXPECT_EQ(pos.fen(), "x6X/8/8/8/8/8/8/4b3/8/x6X wl - - 0 2");
  EXPECT_EQ(pos.hash(), pos.compute_hash());
  pos.undo();
  EXPECT_EQ(pos.locked_cell(w), cell(pos, "e2"));
  EXPECT_EQ(pos.fen(), fen);
}

// The lock is part of the position: the FEN's seventh field carries it, and the hash tells a
// locked Rose from a free one.
TEST(TeamGames, RoseLockFenRoundTrip) {
  VariantPtr v = find_variant("irwell");
  for (const char* fen : {"x6X/8/8/8/8/8/8/4O3/8/x6X wl - - 0 1 lock:e2=wl+wh",
                          "x6X/8/8/8/8/8/8/4O3/8/x6X wl - - 0 1 lock:e2=wh",
                          "x6X/8/8/8/8/8/8/4O3/8/x6X bh - - 0 1 out:bl;lock:e2=wl",
                          "x6X/8/8/8/8/8/8/4O3/8/x6X wl - - 0 1"}) {
    SCOPED_TRACE(fen);
    Position pos = Position::from_fen(v, fen);
    EXPECT_EQ(pos.fen(), fen);
    EXPECT_EQ(pos.hash(), pos.compute_hash());
  }
  Position locked = Position::from_fen(v, "x6X/8/8/8/8/8/8/4O3/8/x6X wl - - 0 1 lock:e2=wl+wh");
  Position locked_wh = Position::from_fen(v, "x6X/8/8/8/8/8/8/4O3/8/x6X wl - - 0 1 lock:e2=wh");
  Position free = Position::from_fen(v, "x6X/8/8/8/8/8/8/4O3/8/x6X wl - - 0 1");
  EXPECT_NE(locked.hash(), free.hash());
  EXPECT_NE(locked.hash(), locked_wh.hash());
  EXPECT_TRUE(moves_from(locked, "e2").empty());
  // Only White 5-9 still owes a move; the Rose waits for it whoever is to move.
  EXPECT_TRUE(moves_from(locked_wh, "e2").empty());
  EXPECT_FALSE(moves_from(free, "e2").empty());
  // A lock on a cell without a Rose, or naming the other army's seat, is refused.
  EXPECT_THROW(Position::from_fen(v, "x6X/8/8/8/8/8/8/4O3/8/x6X wl - - 0 1 lock:e3=wl"), FenError);
  EXPECT_THROW(Position::from_fen(v, "x6X/8/8/8/8/8/8/4O3/8/x6X wl - - 0 1 lock:e2=bl"), FenError);
}

// --- 6. Aire: Steward to Rose on a corner -----------------------------------------------------

// "In Aire a Steward reaching any of the four corner squares, it can be further promoted to a
// Rose, with the restriction that a team can have only one Rose at any time." (Deans page)
TEST(TeamGames, AireStewardOnACornerMayBecomeARose) {
  VariantPtr v = find_variant("aire");
  Position pos = Position::from_fen(v, "x6X/8/8/8/*6*/*6*/8/8/S7/3x3X wl - - 0 1");
  EXPECT_TRUE(has_move(pos, "a1a0"));   // "can be": staying a Steward is legal
  EXPECT_TRUE(has_move(pos, "a1a0o"));  // or becoming a Rose
  EXPECT_TRUE(has_move(pos, "a1a2"));
  EXPECT_FALSE(has_move(pos, "a1a2o"));  // not a corner
  play(pos, "a1a0o");
  EXPECT_EQ(letter_at(pos, "a0"), 'O');
  EXPECT_EQ(pos.hash(), pos.compute_hash());
  pos.undo();
  EXPECT_EQ(letter_at(pos, "a1"), 'S');
  play(pos, "a1a0");
  EXPECT_EQ(letter_at(pos, "a0"), 'S');
}

TEST(TeamGames, AireOneRosePerTeam) {
  VariantPtr v = find_variant("aire");
  // White already has a Rose (e2): its Steward may reach a0 but not promote.
  Position pos = Position::from_fen(v, "x6X/8/8/8/*6*/*6*/8/4O3/S7/3x3X wl - - 0 1");
  EXPECT_TRUE(has_move(pos, "a1a0"));
  EXPECT_FALSE(has_move(pos, "a1a0o"));
  EXPECT_THROW(pos.parse_move("a1a0o"), MoveError);
  // Black's Rose does not count against White.
  Position enemy = Position::from_fen(v, "x6X/8/8/8/*6*/*6*/8/4o3/S7/3x3X wl - - 0 1");
  EXPECT_TRUE(has_move(enemy, "a1a0o"));
  // Once White's Rose is captured, promotion is possible again.
  Position lost = Position::from_fen(v, "x6X/8/8/8/*6*/*1b4*/8/4O3/S7/3x3X bl - - 0 1");
  play(lost, "c4e2");
  ASSERT_EQ(seat_name(lost), "wl");
  EXPECT_TRUE(has_move(lost, "a1a0o"));
}

// --- 7. Avon's d/e rule (A14) -----------------------------------------------------------------

// "moves crossing the boundary between files d and e must include at least one square each side
// on ranks 2-7, either as start/end (the only option for a Knight move) or en route (c1-f4 is
// allowed, as it passes through d2, but c0-f3 is not)" (Avon page, REFERENCE.md 5.3).
TEST(TeamGames, AvonDeBoundarySlidersNeedRanksTwoToSeven) {
  VariantPtr v = find_variant("avon");
  Position pos = Position::from_fen(v, "x7/X7/8/8/8/8/8/8/2B5/x1B3X1 wl - - 0 1");
  EXPECT_TRUE(has_move(pos, "c1f4"));  // through d2 and e3
  EXPECT_TRUE(has_move(pos, "c1e3"));
  EXPECT_TRUE(has_move(pos, "c1h6"));
  EXPECT_FALSE(has_move(pos, "c0f3"));  // d1 and e2: only e2 is on ranks 2-7
  EXPECT_FALSE(has_move(pos, "c0e2"));
  EXPECT_TRUE(has_move(pos, "c0d1"));  // not crossing
  EXPECT_THROW(pos.parse_move("c0f3"), MoveError);
  // Every piece: a Marshal's slide along rank 1 or 2.
  Position rook = Position::from_fen(v, "x7/X7/8/8/8/8/8/3M4/3M4/x5X1 wl - - 0 1");
  EXPECT_TRUE(has_move(rook, "d2e2"));
  EXPECT_TRUE(has_move(rook, "d2h2"));
  EXPECT_FALSE(has_move(rook, "d1e1"));
  EXPECT_FALSE(has_move(rook, "d1h1"));
}

// A14: "Knights, and the knight leaps of Marshals and Carpenters, need start and end on ranks
// 2-7 when they cross the line."
TEST(TeamGames, AvonDeBoundaryLeapsNeedBothEndsOnRanksTwoToSeven) {
  VariantPtr v = find_variant("avon");
  Position marshal = Position::from_fen(v, "x7/X7/8/8/8/8/8/3M4/8/x5X1 wl - - 0 1");
  EXPECT_TRUE(has_move(marshal, "d2e4"));
  EXPECT_TRUE(has_move(marshal, "d2f3"));
  EXPECT_FALSE(has_move(marshal, "d2f1"));  // ends on rank 1
  EXPECT_FALSE(has_move(marshal, "d2e0"));
  EXPECT_TRUE(has_move(marshal, "d2b1"));  // not crossing
  Position low_marshal = Position::from_fen(v, "x7/X7/8/8/8/8/8/8/3M4/x5X1 wl - - 0 1");
  EXPECT_FALSE(has_move(low_marshal, "d1e3"));  // starts on rank 1
  EXPECT_FALSE(has_move(low_marshal, "d1f2"));
  EXPECT_TRUE(has_move(low_marshal, "d1c3"));
  Position carpenter = Position::from_fen(v, "x7/X7/8/8/8/8/8/3C4/8/x5X1 wl - - 0 1");
  EXPECT_TRUE(has_move(carpenter, "d2e4"));
  EXPECT_TRUE(has_move(carpenter, "d2f3"));
  EXPECT_TRUE(has_move(carpenter, "d2f2"));  // Dabbaba leap on rank 2
  EXPECT_FALSE(has_move(carpenter, "d2f1"));
  EXPECT_FALSE(has_move(carpenter, "d2e0"));
  Position low_carpenter = Position::from_fen(v, "x7/X7/8/8/8/8/8/8/3C4/x5X1 wl - - 0 1");
  EXPECT_FALSE(has_move(low_carpenter, "d1f1"));  // Dabbaba leap on rank 1
  EXPECT_FALSE(has_move(low_carpenter, "d1e3"));
  EXPECT_FALSE(has_move(low_carpenter, "d1f2"));
  EXPECT_TRUE(has_move(low_carpenter, "d1d3"));
}

// --- 8. Irwell's Coronation (A11) -------------------------------------------------------------

// "A move ending with a Prince the only piece between a Bishop and a Steward along a diagonal ...
// regardless of colour, results in Coronation. The Prince becomes a familiar KING, and must
// thereafter be kept out of Check." (Irwell page)
TEST(TeamGames, CoronationBetweenBishopAndSteward) {
  VariantPtr v = find_variant("irwell");
  const std::string fen = "x6X/8/8/8/8/4S3/8/3X4/1B6/7x wl - - 0 1";
  Position pos = Position::from_fen(v, fen);
  play(pos, "d2d3");  // b1 - c2 - d3 - e4: Bishop, empty, Prince, Steward
  EXPECT_EQ(letter_at(pos, "d3"), 'K');
  EXPECT_EQ(pos.hash(), pos.compute_hash());
  pos.undo();
  EXPECT_EQ(letter_at(pos, "d2"), 'X');
  EXPECT_EQ(pos.fen(), fen);
  // A second man on the diagonal breaks it: no Coronation.
  Position blocked = Position::from_fen(v, "x6X/8/8/8/8/4S3/8/2PX4/1B6/7x wl - - 0 1");
  play(blocked, "d2d3");
  EXPECT_EQ(letter_at(blocked, "d3"), 'X');
  // Any colours: a Black Prince between a White Bishop and a Black Steward, crowned by White's
  // move of the Bishop.
  Position black_prince = Position::from_fen(v, "x6X/8/8/8/8/4s3/3x4/8/8/2B4X wl - - 0 1");
  play(black_prince, "c0b1");
  EXPECT_EQ(letter_at(black_prince, "d3"), 'k');
}

// "... or on the edge with one unblocked diagonal to a Bishop and the other to a Steward"
TEST(TeamGames, CoronationOnTheEdge) {
  VariantPtr v = find_variant("irwell");
  // a3 is on the a-file: its diagonals run to c5 (Bishop) and c1 (a Black Steward, not adjacent).
  Position pos = Position::from_fen(v, "x6X/8/8/8/2B5/8/8/X7/2s5/7x wl - - 0 1");
  play(pos, "a2a3");
  EXPECT_EQ(letter_at(pos, "a3"), 'K');
  // a2's diagonals end on c4/d5 and c0: no Bishop there, so no Coronation.
  Position stays = Position::from_fen(v, "x6X/8/8/8/2B5/8/X7/8/2s5/7x wl - - 0 1");
  play(stays, "a3a2");
  EXPECT_EQ(letter_at(stays, "a2"), 'X');
}

// "Theoretically a move can end in two Coronations, of opposite-colour or same-colour Princes."
TEST(TeamGames, DoubleCoronationInOneMove) {
  VariantPtr v = find_variant("irwell");
  // White's Bishop b2-d4 lines up b6 (Steward) - c5 (Black Prince) - d4 and d4 - e5 (White
  // Prince) - f6 (Steward).
  const std::string fen = "x7/8/8/1s3S2/2x1X3/8/8/1B6/8/x6Q wl - - 0 1";
  Position pos = Position::from_fen(v, fen);
  play(pos, "b2d4");
  EXPECT_EQ(letter_at(pos, "c5"), 'k');
  EXPECT_EQ(letter_at(pos, "e5"), 'K');
  EXPECT_EQ(pos.hash(), pos.compute_hash());
  // The new Black King stands next to the Bishop: Black is in check.
  EXPECT_TRUE(pos.in_check());
  EXPECT_FALSE(pos.outcome().over());
  pos.undo();
  EXPECT_EQ(pos.fen(), fen);
}

// "A player cannot end a move with a Coronation of one of their own Princes involving an enemy
// Bishop or adjacent enemy Steward, as this would be moving into Check."
TEST(TeamGames, NoCoronationOfOwnPrinceWithEnemyBishopOrAdjacentSteward) {
  VariantPtr v = find_variant("irwell");
  Position enemy_bishop = Position::from_fen(v, "x6X/8/8/8/8/4S3/8/3X4/1b6/7x wl - - 0 1");
  EXPECT_FALSE(has_move(enemy_bishop, "d2d3"));
  EXPECT_THROW(enemy_bishop.parse_move("d2d3"), MoveError);
  EXPECT_TRUE(has_move(enemy_bishop, "d2e3"));  // other Prince moves stay legal
  Position adjacent_steward = Position::from_fen(v, "x6X/8/8/8/8/4s3/8/3X4/1B6/7x wl - - 0 1");
  EXPECT_FALSE(has_move(adjacent_steward, "d2d3"));
  // The same squares with White's own men crown legally.
  Position own = Position::from_fen(v, "x6X/8/8/8/8/4S3/8/3X4/1B6/7x wl - - 0 1");
  EXPECT_TRUE(has_move(own, "d2d3"));
}

// Regression (found by the fuzz test): a take-over can leave a Prince already between a Bishop
// and a Steward, uncrowned (a drop-out is not a move). Whatever move comes next crowns it, so a
// move of its own army elsewhere would crown it into check and is illegal.
TEST(TeamGames, PrinceAlreadyBetweenEnemyBishopAndStewardIsCrownedByTheNextMove) {
  VariantPtr v = find_variant("irwell");
  Position pos = Position::from_fen(v, "x6X/8/8/8/8/4S3/3X4/8/1b6/1Q5x wl - - 0 1");
  EXPECT_EQ(letter_at(pos, "d3"), 'X');
  EXPECT_FALSE(has_move(pos, "b0c0"));  // off the Prince's lines, yet it crowns d3 into check
  EXPECT_TRUE(has_move(pos, "b0b1"));   // taking the Bishop breaks the line
  EXPECT_TRUE(has_move(pos, "d3d4"));   // so does moving the Prince
  play(pos, "b0b1");
  EXPECT_EQ(letter_at(pos, "d3"), 'X');
}

// "An army both of whose Princes undergo Coronation, either simultaneously or in separate moves,
// is also defeated as it is judged too unstable with two rival claimants to kingship!"
TEST(TeamGames, BothPrincesCrownedDefeatsTheArmy) {
  VariantPtr v = find_variant("irwell");
  // In separate moves: White already has a King (h9) and crowns its second Prince.
  Position pos = Position::from_fen(v, "x6K/8/8/8/8/4S3/8/3X4/1B6/7x wl - - 0 1");
  EXPECT_FALSE(pos.outcome().over());
  play(pos, "d2d3");
  Outcome o = pos.outcome();
  EXPECT_EQ(o.termination, Termination::kCoronation);
  EXPECT_EQ(o.score[seat(pos, "wl")], 0.0);
  EXPECT_EQ(o.score[seat(pos, "wh")], 0.0);
  EXPECT_EQ(o.score[seat(pos, "bh")], 1.0);
  EXPECT_EQ(o.score[seat(pos, "bl")], 1.0);
  // Simultaneously: one Bishop move crowns both White Princes.
  Position both = Position::from_fen(v, "x7/8/8/1S3S2/2X1X3/8/8/1B6/8/x6Q wl - - 0 1");
  play(both, "b2d4");
  EXPECT_EQ(letter_at(both, "c5"), 'K');
  EXPECT_EQ(letter_at(both, "e5"), 'K');
  EXPECT_EQ(both.outcome().termination, Termination::kCoronation);
  EXPECT_EQ(both.outcome().score[seat(both, "wl")], 0.0);
  EXPECT_EQ(both.outcome().score[seat(both, "bl")], 1.0);
}

// "Checkmate and Stalemate then become further ways of a game ending." Deans page: "In variants
// with a King - either in the array or by Cornation - Check, Checkmate, and Stalemate are as
// usual." A crowned army's seat without a move is mated or stalemated; it does not drop out.
TEST(TeamGames, CrownedKingCanBeCheckmatedOrStalemated) {
  VariantPtr v = find_variant("irwell");
  // White's King h0 is checked by the Marshal h2; g2 covers g0 and g1.
  Position mate = Position::from_fen(v, "x6X/8/8/8/8/8/8/6mm/8/7K wl - - 0 1");
  EXPECT_TRUE(mate.in_check());
  EXPECT_TRUE(move_texts(mate).empty());  // no "out": the army has a King
  Outcome o = mate.outcome();
  EXPECT_EQ(o.termination, Termination::kCheckmate);
  EXPECT_EQ(o.score[seat(mate, "wl")], 0.0);
  EXPECT_EQ(o.score[seat(mate, "wh")], 0.0);
  EXPECT_EQ(o.score[seat(mate, "bh")], 1.0);
  EXPECT_EQ(o.score[seat(mate, "bl")], 1.0);
  // The Marshal g3 covers g0, g1 (file) and h1 (leap) but not h0: stalemate, a draw.
  Position stale = Position::from_fen(v, "x6X/8/8/8/8/8/6m1/8/8/7K wl - - 0 1");
  EXPECT_FALSE(stale.in_check());
  EXPECT_TRUE(move_texts(stale).empty());
  Outcome s = stale.outcome();
  EXPECT_EQ(s.termination, Termination::kStalemate);
  for (int k = 0; k < 4; ++k) EXPECT_EQ(s.score[k], 0.5);
}

// --- 9. Individual ranking --------------------------------------------------------------------

// "It can also be played with wins and losses for teams or individual players. In the latter case
// the player whose move ends the game ranks first and the first player to drop out fourth. Two
// players still playing an army when Checkmated score joint third if the other two players are
// still playing, otherwise joint second." (Irwell page)
TEST(TeamGames, RankingAfterDropOutEnding) {
  VariantPtr v = find_variant("irwell");
  // Black 0-4 is out already; White 0-4 moves, then Black 5-9 has no move and drops out.
  Position pos = Position::from_fen(v, "7X/8/8/8/8/8/8/8/8/s6X wl - - 0 1 out:bl");
  play(pos, "h0g0");
  ASSERT_EQ(move_texts(pos), std::vector<std::string>{"out"});
  play(pos, "out");
  Outcome o = pos.outcome();
  ASSERT_EQ(o.termination, Termination::kDropOut);
  const int wl = seat(pos, "wl"), bh = seat(pos, "bh"), wh = seat(pos, "wh"), bl = seat(pos, "bl");
  EXPECT_EQ(pos.last_mover(), wl);
  EXPECT_EQ(o.rank[wl], 1);  // the ender
  EXPECT_EQ(o.rank[wh], 2);
  EXPECT_EQ(o.rank[bh], 3);  // out second
  EXPECT_EQ(o.rank[bl], 4);  // out first
  EXPECT_DOUBLE_EQ(o.individual[wl], 1.0);
  EXPECT_DOUBLE_EQ(o.individual[wh], 2.0 / 3.0);
  EXPECT_DOUBLE_EQ(o.individual[bh], 1.0 / 3.0);
  EXPECT_DOUBLE_EQ(o.individual[bl], 0.0);
  // The individual scores are what Scoring::kIndividual reads.
  EXPECT_EQ(&o.scored(Scoring::kIndividual), &o.individual);
  EXPECT_EQ(&o.scored(Scoring::kTeam), &o.score);
}

TEST(TeamGames, RankingAfterCheckmateWithAllFourPlaying) {
  VariantPtr v = find_variant("irwell");
  // White 0-4's Marshal h2-h7 mates Black's King h9 (g5 covers the g-file).
  Position pos = Position::from_fen(v, "7k/X7/8/8/6M1/8/8/7M/8/x2X4 wl - - 0 1");
  play(pos, "h2h7");
  ASSERT_EQ(seat_name(pos), "bh");
  EXPECT_TRUE(pos.in_check());
  EXPECT_TRUE(move_texts(pos).empty());
  Outcome o = pos.outcome();
  ASSERT_EQ(o.termination, Termination::kCheckmate);
  const int wl = seat(pos, "wl"), bh = seat(pos, "bh"), wh = seat(pos, "wh"), bl = seat(pos, "bl");
  EXPECT_EQ(o.score[wl], 1.0);
  EXPECT_EQ(o.score[wh], 1.0);
  EXPECT_EQ(o.score[bh], 0.0);
  EXPECT_EQ(o.score[bl], 0.0);
  EXPECT_EQ(o.rank[wl], 1);
  EXPECT_EQ(o.rank[wh], 2);
  EXPECT_EQ(o.rank[bh], 3);  // joint third
  EXPECT_EQ(o.rank[bl], 3);
  EXPECT_DOUBLE_EQ(o.individual[wl], 1.0);
  EXPECT_DOUBLE_EQ(o.individual[wh], 2.0 / 3.0);
  EXPECT_DOUBLE_EQ(o.individual[bh], (1.0 / 3.0 + 0.0) / 2);
  EXPECT_DOUBLE_EQ(o.individual[bl], (1.0 / 3.0 + 0.0) / 2);
}

TEST(TeamGames, RankingAfterCheckmateWhenAWinnerDroppedOut) {
  VariantPtr v = find_variant("irwell");
  Position pos = Position::from_fen(v, "7k/X7/8/8/6M1/8/8/7M/8/x2X4 wl - - 0 1 out:wh");
  play(pos, "h2h7");
  Outcome o = pos.outcome();
  ASSERT_EQ(o.termination, Termination::kCheckmate);
  const int wl = seat(pos, "wl"), bh = seat(pos, "bh"), wh = seat(pos, "wh"), bl = seat(pos, "bl");
  EXPECT_EQ(o.score[wh], 1.0);  // the team result still counts for the seat that is out
  EXPECT_EQ(o.rank[wl], 1);
  EXPECT_EQ(o.rank[bh], 2);  // joint second
  EXPECT_EQ(o.rank[bl], 2);
  EXPECT_EQ(o.rank[wh], 4);  // the first (only) to drop out
  EXPECT_DOUBLE_EQ(o.individual[wl], 1.0);
  EXPECT_DOUBLE_EQ(o.individual[bh], (2.0 / 3.0 + 1.0 / 3.0) / 2);
  EXPECT_DOUBLE_EQ(o.individual[bl], (2.0 / 3.0 + 1.0 / 3.0) / 2);
  EXPECT_DOUBLE_EQ(o.individual[wh], 0.0);
}

TEST(TeamGames, RankingAfterCheckmateWhenALoserDroppedOut) {
  VariantPtr v = find_variant("irwell");
  Position pos = Position::from_fen(v, "7k/X7/8/8/6M1/8/8/7M/8/x2X4 wl - - 0 1 out:bl");
  play(pos, "h2h7");
  Outcome o = pos.outcome();
  ASSERT_EQ(o.termination, Termination::kCheckmate);
  EXPECT_EQ(o.rank[seat(pos, "wl")], 1);
  EXPECT_EQ(o.rank[seat(pos, "wh")], 2);
  EXPECT_EQ(o.rank[seat(pos, "bh")], 3);
  EXPECT_EQ(o.rank[seat(pos, "bl")], 4);
}

// The variant's scoring may be switched to the individual ranking.
TEST(TeamGames, IndividualScoringOverride) {
  VariantPtr team = find_variant("irwell");
  VariantPtr individual = find_variant("irwell", {"rules.scoring=individual"});
  EXPECT_EQ(team->scoring, Scoring::kTeam);
  EXPECT_EQ(individual->scoring, Scoring::kIndividual);
}

// --- 10. Same-direction Pawn bar --------------------------------------------------------------

// "As in Wey (and for the same reason of initial proximity) there is the further restriction that
// Pawns cannot capture enemy Pawns moving in the same direction - although they can capture each
// other when crossing the River and can capture other enemy pieces in the usual way. Pawns
// crossing the River, whether capturing or not, become Stewards." (Irwell page)
TEST(TeamGames, PawnsCannotTakeSameDirectionPawnsExceptCrossing) {
  VariantPtr v = find_variant("irwell");
  const std::string fen = "x6X/8/8/8/4p3/3P4/2s1p3/3P4/8/x6X";
  // White 0-4: d2 may not take the Black Pawn e3 (both move north) but may take the Steward c3;
  // d4 takes the Black Pawn e5 across the River and becomes a Steward.
  Position wl = Position::from_fen(v, fen + " wl - - 0 1");
  EXPECT_FALSE(has_move(wl, "d2e3"));
  EXPECT_TRUE(has_move(wl, "d2c3"));
  EXPECT_TRUE(has_move(wl, "d4e5s"));
  EXPECT_TRUE(has_move(wl, "d4d5s"));
  EXPECT_FALSE(has_move(wl, "d4e5"));  // promotion on crossing is compulsory
  play(wl, "d4e5s");
  EXPECT_EQ(letter_at(wl, "e5"), 'S');
  // Black 0-4's Pawn e3 may not take White's d4 (both north).
  Position bl = Position::from_fen(v, fen + " bl - - 0 1");
  EXPECT_FALSE(has_move(bl, "e3d4"));
  EXPECT_TRUE(has_move(bl, "e3e4"));
  // Black 5-9's Pawn e5 takes d4 crossing the River.
  Position bh = Position::from_fen(v, fen + " bh - - 0 1");
  EXPECT_TRUE(has_move(bh, "e5d4s"));
}

}  // namespace
// Start-position perft of the six team games. Depth 1 was counted by hand for three of them:
// Avon 4 (the d/e rule leaves only white-low's Pawn steps), Irwell 23 (Bishop c2 8, Marshal c1 7,
// Queen e1 4, Rose e0 1 (the capture on g1), Pawns 3), Aire 18 (Pawns 4, Marshal c0 5, Marshal
// f0 4, Queen d0 3, Prince e0 2). Deeper values are the engine's own, kept as a regression check.
TEST(TeamGames, StartPositionPerft) {
  struct Case {
    const char* variant;
    std::vector<uint64_t> nodes;
  };
  const Case cases[] = {
      {"avon", {4, 16, 144, 1278, 14551}},  {"avon-deans", {4, 16, 80, 390}},
      {"irwell", {23, 529, 12780, 308074}}, {"irwell-deans", {26, 672, 18448, 502694}},
      {"aire", {18, 327, 5745, 101042}},    {"aire-deans", {25, 619, 14214, 326969}},
  };
  for (const Case& c : cases) {
    Position pos(find_variant(c.variant));
    for (size_t d = 0; d < c.nodes.size(); ++d)
      EXPECT_EQ(perft(pos, static_cast<int>(d + 1)), c.nodes[d]) << c.variant << " depth " << d + 1;
  }
}

// Bad team-game settings name the file and the field (the --set overrides go through the loader).
TEST(TeamGames, BadTeamSettingsNameTheField) {
  auto error = [](const std::string& variant, const std::vector<std::string>& sets) {
    try {
      find_variant(variant, sets);
    } catch (const VariantError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  auto names = [](const std::string& message, const std::string& field) {
    return message.find(field) != std::string::npos && message.find(".toml") != std::string::npos;
  };
  EXPECT_TRUE(names(error("chess", {"rules.drop_out=true"}), "rules.drop_out"));
  EXPECT_TRUE(names(error("irwell", {"rules.takeover.Z=\"Q\""}), "rules.takeover.Z"));
  EXPECT_TRUE(names(error("irwell", {"rules.takeover.I=\"Z\""}), "rules.takeover.I"));
  EXPECT_TRUE(names(error("irwell", {"coronation.becomes=\"Q\""}), "coronation.becomes"));
  EXPECT_TRUE(names(error("irwell", {"rules.check=false"}), "coronation"));
  EXPECT_TRUE(names(error("irwell", {"rules.scoring=\"best\""}), "rules.scoring"));
  EXPECT_TRUE(names(error("avon", {"board.gated_line={regions=[\"a0-d9\"],gates=\"a2-h7\"}"}),
                    "board.gated_line.regions"));
  EXPECT_TRUE(names(error("chess", {"pieces.rook.move_lock=true"}), "pieces.rook.move_lock"));
  EXPECT_TRUE(names(error("aire", {"pieces.rose.max_per_army=-1"}), "pieces.rose.max_per_army"));
  EXPECT_TRUE(names(error("avon", {"players.seats=[]"}), "players.seats"));
}

// A FEN's seventh field that does not fit the variant is refused with the reason.
TEST(TeamGames, BadSeventhFenFieldIsRefused) {
  VariantPtr v = find_variant("avon");
  const std::string board = "MXXMmiqm/CBBCabby/PPPPpppp/8/8/8/8/ppppPPPP/cbbcABBY/mxxmMIQM";
  EXPECT_THROW(Position::from_fen(v, board + " wl - - 0 1 out:zz"), FenError);
  EXPECT_THROW(Position::from_fen(v, board + " wl - - 0 1 out:wl"), FenError);  // mover is out
  EXPECT_THROW(Position::from_fen(v, board + " wl - - 0 1 out:bh,bh"), FenError);
  EXPECT_THROW(Position::from_fen(v, board + " wl - - 0 1 lock:e4=wl"), FenError);  // no Rose
  EXPECT_THROW(Position::from_fen(v, board + " wl - - 0 1 whatever"), FenError);
  EXPECT_THROW(Position::from_fen(find_variant("chess"), "8/8/8/8/8/8/8/K6k w - - 0 1 -"),
               FenError);
  Position ok = Position::from_fen(v, board + " bh - - 0 1 out:wl");
  EXPECT_FALSE(ok.seat_in_game(0));
  EXPECT_EQ(ok.fen(), board + " bh - - 0 1 out:wl");
}

// The ranking in the other endings. Double Coronation by one's own move: "the player whose move
// ends the game ranks first" is read as applying to a winner, so the seat that crowned its own
// second Prince ranks with its partner, below the winners (docs/RULES.md).
TEST(TeamGames, RankingAfterDoubleCoronationAndDraws) {
  VariantPtr v = find_variant("irwell");
  Position pos = Position::from_fen(v, "x6K/8/8/8/8/4S3/8/3X4/1B6/7x wl - - 0 1");
  play(pos, "d2d3");
  Outcome o = pos.outcome();
  ASSERT_EQ(o.termination, Termination::kCoronation);
  const int wl = seat(pos, "wl"), bh = seat(pos, "bh"), wh = seat(pos, "wh"), bl = seat(pos, "bl");
  EXPECT_EQ(o.rank[bh], 1);  // the winners tie first
  EXPECT_EQ(o.rank[bl], 1);
  EXPECT_EQ(o.rank[wl], 3);  // the losers, both still playing, tie third
  EXPECT_EQ(o.rank[wh], 3);
  EXPECT_DOUBLE_EQ(o.individual[bh], (1.0 + 2.0 / 3.0) / 2);
  EXPECT_DOUBLE_EQ(o.individual[wl], (1.0 / 3.0) / 2);

  // A crowned King stalemated: a draw; the seats still playing tie, a seat that is out is last.
  Position stale = Position::from_fen(v, "k7/2Q5/1Q6/8/8/8/8/8/8/X6x bh - - 0 1 out:wh");
  ASSERT_TRUE(move_texts(stale).empty());
  Outcome d = stale.outcome();
  ASSERT_EQ(d.termination, Termination::kStalemate);
  EXPECT_EQ(d.score[bh], 0.5);
  EXPECT_EQ(d.rank[wl], 1);
  EXPECT_EQ(d.rank[bh], 1);
  EXPECT_EQ(d.rank[bl], 1);
  EXPECT_EQ(d.rank[wh], 4);
  EXPECT_DOUBLE_EQ(d.individual[wl], (1.0 + 2.0 / 3.0 + 1.0 / 3.0) / 3);
  EXPECT_DOUBLE_EQ(d.individual[wh], 0.0);
}

// A seat out makes its army move half as often, so an enemy seat may move twice in a row; a King
// left in check that way is taken and its army loses (a reading; docs/RULES.md).
TEST(TeamGames, KingLeftInCheckByASkippedTurnIsCaptured) {
  VariantPtr v = find_variant("irwell");
  Position pos = Position::from_fen(v, "k6X/8/8/8/M7/8/8/8/8/X7 wh - - 0 1 out:bl");
  ASSERT_TRUE(has_move(pos, "a5a9"));
  play(pos, "a5a9");
  Outcome o = pos.outcome();
  ASSERT_EQ(o.termination, Termination::kRoyalCapture);
  const int wl = seat(pos, "wl"), bh = seat(pos, "bh"), wh = seat(pos, "wh"), bl = seat(pos, "bl");
  EXPECT_EQ(o.score[wh], 1.0);
  EXPECT_EQ(o.score[bh], 0.0);
  EXPECT_EQ(o.rank[wh], 1);
  EXPECT_EQ(o.rank[wl], 2);
  EXPECT_EQ(o.rank[bh], 3);
  EXPECT_EQ(o.rank[bl], 4);
  pos.undo();
  EXPECT_FALSE(pos.outcome().over());
}

}  // namespace fairyzero
