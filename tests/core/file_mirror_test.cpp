// Left-right symmetry of rules (core/file_mirror.h): the chess family is symmetric, and the
// check finds each kind of asymmetry; mirrored positions have exactly the mirrored moves.
#include "core/file_mirror.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "core/variant_loader.h"
#include "tests/support/mirror_fen.h"
#include "tests/support/test_positions.h"

namespace fairyzero {
namespace {

using testing::mirror_fen_files;
using testing::mirror_move_files;
using testing::random_positions;
using testing::without_castling;

TEST(FileMirror, TheChessFamilyIsSymmetric) {
  for (const char* name : {"chess", "gardner", "minichess", "capablanca", "losalamos"})
    EXPECT_EQ(file_mirror_asymmetry(*find_variant(name)), "") << name;
}

TEST(FileMirror, FindsAPromotionZoneThatIsNotItsOwnMirror) {
  VariantPtr v = find_variant("gardner", {"pieces.pawn.promotion_zone={ white = \"a5-d5\", black = "
                                          "\"a1-e1\" }"});
  EXPECT_NE(file_mirror_asymmetry(*v).find("piece 'pawn': promotion zone"), std::string::npos)
      << file_mirror_asymmetry(*v);
}

TEST(FileMirror, FindsAPieceThatMovesToOneSideOnly) {
  // A knight that steps to its right only: the mirror of a1-b1 (e1-d1) is not among its moves.
  VariantPtr v = find_variant("gardner", {"pieces.knight.betza=\"rW\""});
  const std::string why = file_mirror_asymmetry(*v);
  EXPECT_NE(why.find("piece 'knight'"), std::string::npos) << why;
  EXPECT_NE(why.find("otherwise than the mirror"), std::string::npos) << why;
}

TEST(FileMirror, RefusesSeatsFacingEastOrWest) {
  const std::string why = file_mirror_asymmetry(*find_variant("commedia-double"));
  EXPECT_NE(why.find("faces east or west"), std::string::npos) << why;
}

class MirroredPositions : public ::testing::TestWithParam<const char*> {};

// The rules' claim that training relies on: the mirror of a position has the mirrors of its
// legal moves, no more and no fewer, and the same result when it is over.
TEST_P(MirroredPositions, HaveExactlyTheMirroredMoves) {
  VariantPtr v = find_variant(GetParam());
  ASSERT_EQ(file_mirror_asymmetry(*v), "");
  long compared = 0;
  for (const Position& reached : random_positions(v, 40, 120, 7)) {
    const std::string fen = without_castling(reached.fen());
    const Position pos = Position::from_fen(v, fen);
    const Position mirror = Position::from_fen(v, mirror_fen_files(*v, fen));
    std::set<Move> expected, actual;
    for (Move m : LegalMoves(pos)) expected.insert(mirror_move_files(v->geometry, m));
    for (Move m : LegalMoves(mirror)) actual.insert(m);
    ASSERT_EQ(actual, expected) << fen << " mirrored as " << mirror.fen();
    ASSERT_EQ(mirror.in_check(), pos.in_check()) << fen;
    ++compared;
  }
  EXPECT_GT(compared, 1000);
}

INSTANTIATE_TEST_SUITE_P(Variants, MirroredPositions,
                         ::testing::Values("chess", "gardner", "capablanca", "isis", "wey",
                                           "great-stour", "commedia-chessgi", "irwell",
                                           "very-heavy-chess"));

}  // namespace
}  // namespace fairyzero
