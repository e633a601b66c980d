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

#include <string>
#include <vector>

#include "core/position.h"
#include "core/variant_loader.h"
#include "tests/core/team_games_support.h"

namespace fairyzero {
namespace {

using namespace team_test;

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

}  // namespace
}  // namespace fairyzero
