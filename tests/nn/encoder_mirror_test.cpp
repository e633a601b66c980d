// Encoder mirroring (training.mirror_files): the mirrored planes of a position are the planes of
// its mirrored position, and the mirrored index of each move is its mirrored move's index.
#include <gtest/gtest.h>

#include <vector>

#include "nn/encoder.h"
#include "tests/support/mirror_fen.h"
#include "tests/support/test_positions.h"

namespace fairyzero {
namespace {

using testing::mirror_fen_files;
using testing::mirror_move_files;
using testing::random_positions;
using testing::variant;
using testing::without_castling;

class EncoderMirror : public ::testing::TestWithParam<const char*> {};

TEST_P(EncoderMirror, PlanesAndIndicesOfAPositionMirrorToThoseOfItsMirror) {
  VariantPtr v = variant(GetParam());
  Encoder enc(v);
  std::vector<float> planes(enc.plane_floats()), mirror_planes(enc.plane_floats());
  long moves = 0, positions = 0;
  for (const Position& reached : random_positions(v, 30, 100, 3)) {
    const std::string fen = without_castling(reached.fen());
    const Position pos = Position::from_fen(v, fen);
    const Position mirror = Position::from_fen(v, mirror_fen_files(*v, fen));
    enc.encode(pos, planes.data());
    enc.encode(mirror, mirror_planes.data());
    ASSERT_FALSE(enc.holds_castling_right(planes.data())) << fen;
    enc.mirror_files(planes.data());
    ASSERT_EQ(planes, mirror_planes) << fen;
    for (Move m : LegalMoves(pos)) {
      const int index = enc.policy_index(pos, m);
      const int mirrored = enc.mirror_files(index);
      ASSERT_EQ(mirrored, enc.policy_index(mirror, mirror_move_files(v->geometry, m)))
          << fen << " " << pos.move_text(m);
      ASSERT_EQ(enc.mirror_files(mirrored), index);
      ++moves;
    }
    ++positions;
  }
  EXPECT_GT(positions, 1000);
  EXPECT_GT(moves, 10000);
}

INSTANTIATE_TEST_SUITE_P(Variants, EncoderMirror, ::testing::Values("chess", "gardner"));

TEST(EncoderMirror, DropIndicesMirrorTheirCell) {
  VariantPtr v = variant("chess");
  Encoder enc(v);
  for (int type = 0; type < v->piece_count(); ++type)
    for (Cell c = 0; c < enc.cells(); ++c)
      for (bool south : {false, true})
        ASSERT_EQ(enc.mirror_files(enc.policy_index(Move::drop(type, c), south)),
                  enc.policy_index(Move::drop(type, mirror_file(v->geometry, c)), south));
}

TEST(EncoderMirror, CastlingRightsAreSeenInThePlanes) {
  VariantPtr v = variant("chess");
  Encoder enc(v);
  std::vector<float> planes(enc.plane_floats());
  enc.encode(Position(v), planes.data());
  EXPECT_TRUE(enc.holds_castling_right(planes.data()));
  enc.encode(Position::from_fen(v, "r3k3/8/8/8/8/8/8/4K2R w q - 0 1"), planes.data());
  EXPECT_TRUE(enc.holds_castling_right(planes.data())) << "black's right alone counts";
  enc.encode(Position::from_fen(v, "r3k3/8/8/8/8/8/8/4K2R w - - 0 1"), planes.data());
  EXPECT_FALSE(enc.holds_castling_right(planes.data()));
}

}  // namespace
}  // namespace fairyzero
