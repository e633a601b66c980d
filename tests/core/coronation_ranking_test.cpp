// Gilman's four-player river games, continued: Irwell's Coronation (A11) and the results, team
// and individual ("the player whose move ends the game ranks first and the first player to drop
// out fourth"). Sources: ../shared/seeds/004 (Irwell page), ../shared/seeds/000 (Deans page),
// ../shared/variants/REFERENCE.md 5.4 and 6. FEN dialect: see team_games_test.cpp.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/position.h"
#include "core/variant_loader.h"
#include "tests/core/team_games_support.h"

namespace fairyzero {
namespace {

using namespace team_test;

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

}  // namespace
}  // namespace fairyzero
