// Encoder: planes of hand-made positions, and Move <-> policy index over random games.
#include "nn/encoder.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <set>

#include "tests/support/test_positions.h"

namespace fairyzero {
namespace {

using testing::random_positions;
using testing::variant;

class EncoderRoundTrip : public ::testing::TestWithParam<const char*> {};

// Every legal move of every position gets a distinct in-range index that maps back to it, and
// the piece planes hold exactly the men on the board.
TEST_P(EncoderRoundTrip, EveryLegalMoveHasADistinctIndexThatMapsBack) {
  VariantPtr v = variant(GetParam());
  Encoder enc(v);
  std::vector<Position> positions = random_positions(v, 60, 120);
  ASSERT_GE(positions.size(), 2000u);
  std::vector<float> planes(enc.plane_floats());
  long moves_checked = 0, promotions = 0, castlings = 0, en_passants = 0;
  for (size_t i = 0; i < positions.size(); ++i) {
    const Position& pos = positions[i];
    LegalMoves legal(pos);
    const bool flip = enc.mirrored(pos);
    std::set<int> seen;
    for (Move m : legal) {
      const int index = enc.policy_index(pos, m);
      ASSERT_GE(index, 0);
      ASSERT_LT(index, enc.policy_size());
      ASSERT_TRUE(seen.insert(index).second) << pos.fen() << " " << pos.move_text(m);
      ASSERT_EQ(enc.move_of_index(legal, flip, index), m) << pos.fen() << " " << pos.move_text(m);
      // The generating form on a sample (it regenerates the moves each call).
      if (i % 50 == 0) {
        ASSERT_EQ(enc.move_of_index(pos, index), m);
      }
      ++moves_checked;
      promotions += m.is_promotion();
      castlings += m.kind() == MoveKind::kCastling;
      en_passants += m.kind() == MoveKind::kEnPassant;
    }
    enc.encode(pos, planes.data());
    int men = 0, on_planes = 0;
    for (Cell c = 0; c < enc.cells(); ++c) men += pos.piece_at(c) != kEmpty;
    for (int p = 0; p < v->army_count() * v->piece_count(); ++p)
      for (int c = 0; c < enc.cells(); ++c) on_planes += planes[p * enc.cells() + c] == 1.0f;
    ASSERT_EQ(on_planes, men) << pos.fen();
  }
  EXPECT_EQ(enc.move_of_index(positions[0], -1), Move{});
  EXPECT_EQ(enc.move_of_index(positions[0], enc.policy_size()), Move{});
  EXPECT_GT(moves_checked, 10000);
  // The special moves were among them where the variant has them.
  if (enc.promotion_choice_count() > 0) {
    EXPECT_GT(promotions, 0);
  }
  if (!v->castling.empty()) {
    EXPECT_GT(castlings, 0);
  }
  std::printf("%ld moves in %zu positions: %ld promotions, %ld castlings, %ld en passant\n",
              moves_checked, positions.size(), promotions, castlings, en_passants);
}

INSTANTIATE_TEST_SUITE_P(Variants, EncoderRoundTrip,
                         ::testing::Values("chess", "very-heavy-chess", "capablanca", "gardner",
                                           "losalamos", "four-seats"),
                         [](const auto& info) {
                           std::string name = info.param;
                           std::erase(name, '-');
                           return name;
                         });

// Drops appear only with pieces in hand: random games from a start position with full hands.
TEST(Encoder, DropsRoundTrip) {
  VariantPtr v = variant("chess");
  Encoder enc(v);
  long drops = 0;
  for (const Position& pos : random_positions(
           v, 10, 40, 3, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[NBRQnbrq] w KQkq - 0 1")) {
    LegalMoves legal(pos);
    std::set<int> seen;
    for (Move m : legal) {
      const int index = enc.policy_index(pos, m);
      ASSERT_TRUE(seen.insert(index).second) << pos.fen() << " " << pos.move_text(m);
      ASSERT_EQ(enc.move_of_index(legal, enc.mirrored(pos), index), m);
      drops += m.kind() == MoveKind::kDrop;
    }
  }
  EXPECT_GT(drops, 1000);
}

class ChessPlanes : public ::testing::Test {
 protected:
  VariantPtr v = variant("chess");
  Encoder enc{v};
  std::vector<float> planes = std::vector<float>(enc.plane_floats());
  int type(char letter) const { return v->piece_by_letter(letter); }
  float at(int plane, const char* cell, bool flip) {
    Cell c = *v->geometry.parse_cell(cell);
    return planes[plane * enc.cells() + enc.frame_cell(c, flip)];
  }
  float constant(int plane) {
    for (int c = 1; c < enc.cells(); ++c)
      EXPECT_EQ(planes[plane * enc.cells() + c], planes[plane * enc.cells()]) << plane;
    return planes[plane * enc.cells()];
  }
  int index(const Position& pos, const char* text) {
    return enc.policy_index(pos, pos.parse_move(text));
  }
};

TEST_F(ChessPlanes, LayoutOfChess) {
  // 12 piece + 12 hand + ones + missing + 0 zones + 2 seats + 2 in game + 2 partner + lock
  // + 4 castling + ep + 3 clocks.
  EXPECT_EQ(enc.plane_count(), 41);
  EXPECT_EQ(enc.promotion_choice_count(), 4);
  EXPECT_EQ(enc.policy_size(), 5 * 64 * 64 + 6 * 64);
  EXPECT_EQ(enc.value_heads(), 1);
}

TEST_F(ChessPlanes, StartPositionFromWhite) {
  Position pos(v);
  ASSERT_FALSE(enc.mirrored(pos));
  enc.encode(pos, planes.data());
  const int pawn = type('P'), king = type('K');
  EXPECT_EQ(at(enc.piece_plane(0, pawn), "e2", false), 1);
  EXPECT_EQ(at(enc.piece_plane(0, pawn), "e3", false), 0);
  EXPECT_EQ(at(enc.piece_plane(1, pawn), "e7", false), 1);
  EXPECT_EQ(at(enc.piece_plane(0, king), "e1", false), 1);
  EXPECT_EQ(at(enc.piece_plane(1, king), "e8", false), 1);
  EXPECT_EQ(constant(enc.ones_plane()), 1);
  EXPECT_EQ(constant(enc.missing_plane()), 0);
  EXPECT_EQ(constant(enc.seat_plane(0)), 1);
  EXPECT_EQ(constant(enc.seat_plane(1)), 0);
  for (int r = 0; r < 4; ++r) EXPECT_EQ(constant(enc.castling_plane(r)), 1);
  EXPECT_EQ(constant(enc.en_passant_plane()), 0);
  EXPECT_EQ(constant(enc.repetition_plane()), 0);
  EXPECT_EQ(constant(enc.move_clock_plane()), 0);
  EXPECT_EQ(constant(enc.game_length_plane()), 0);
  EXPECT_EQ(index(pos, "e2e4"), 12 * 64 + 28);
}

TEST_F(ChessPlanes, AfterE4BlackMovesUpAMirroredBoard) {
  Position pos(v);
  pos.play(pos.parse_move("e2e4"));
  ASSERT_TRUE(enc.mirrored(pos));
  enc.encode(pos, planes.data());
  const int pawn = type('P');
  // Raw encoded cells: Black's e7 pawn is its own army's pawn on the mover's second rank.
  auto raw = [&](int plane, int file, int rank) {
    return planes[plane * enc.cells() + rank * enc.files() + file];
  };
  EXPECT_EQ(raw(enc.piece_plane(0, pawn), 4, 1), 1);  // e7 seen as e2
  EXPECT_EQ(raw(enc.piece_plane(1, pawn), 4, 4), 1);  // e4 seen as e5
  EXPECT_EQ(raw(enc.piece_plane(1, pawn), 4, 6), 0);  // e2 is empty now
  EXPECT_EQ(raw(enc.piece_plane(1, type('K')), 4, 7), 1);
  EXPECT_EQ(constant(enc.seat_plane(1)), 1);
  EXPECT_EQ(constant(enc.seat_plane(0)), 0);
  EXPECT_FLOAT_EQ(constant(enc.game_length_plane()), 1.0f / 512);
  // Black's e7e5 is White's e2e4 in the mover's frame.
  EXPECT_EQ(index(pos, "e7e5"), 12 * 64 + 28);
}

TEST_F(ChessPlanes, EnPassantCell) {
  Position pos =
      Position::from_fen(v, "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 3");
  ASSERT_EQ(pos.en_passant_cell(), *v->geometry.parse_cell("e3"));
  enc.encode(pos, planes.data());
  EXPECT_EQ(at(enc.en_passant_plane(), "e3", true), 1);
  float sum = 0;
  for (int c = 0; c < enc.cells(); ++c) sum += planes[enc.en_passant_plane() * enc.cells() + c];
  EXPECT_EQ(sum, 1);
  EXPECT_EQ(enc.move_of_index(pos, index(pos, "d4e3")), pos.parse_move("d4e3"));
}

TEST_F(ChessPlanes, CastlingRightsAndCastlingMoves) {
  Position pos = Position::from_fen(v, "r3k2r/8/8/8/8/8/8/R3K2R w Kq - 3 20");
  enc.encode(pos, planes.data());
  // Rules in file order: K, Q, k, q.
  EXPECT_EQ(constant(enc.castling_plane(0)), 1);
  EXPECT_EQ(constant(enc.castling_plane(1)), 0);
  EXPECT_EQ(constant(enc.castling_plane(2)), 0);
  EXPECT_EQ(constant(enc.castling_plane(3)), 1);
  EXPECT_FLOAT_EQ(constant(enc.move_clock_plane()), 3.0f / 100);
  EXPECT_FLOAT_EQ(constant(enc.game_length_plane()), 38.0f / 512);
  Move castle = pos.parse_move("e1g1");
  ASSERT_EQ(castle.kind(), MoveKind::kCastling);
  EXPECT_EQ(enc.policy_index(pos, castle), 4 * 64 + 6);
}

TEST_F(ChessPlanes, PromotionAndDropIndices) {
  Position pos = Position::from_fen(v, "7k/P7/8/8/8/8/8/K7[Nn] w - - 0 1");
  // Promotion slots in type order: knight 0, bishop 1, rook 2, queen 3.
  EXPECT_EQ(enc.promotion_types(), (std::vector<int>{type('N'), type('B'), type('R'), type('Q')}));
  EXPECT_EQ(index(pos, "a7a8q"), 4 * 4096 + 48 * 64 + 56);
  EXPECT_EQ(index(pos, "a7a8n"), 1 * 4096 + 48 * 64 + 56);
  EXPECT_EQ(index(pos, "N@e4"), 5 * 4096 + type('N') * 64 + 28);
  enc.encode(pos, planes.data());
  EXPECT_FLOAT_EQ(constant(enc.hand_plane(0, type('N'))), 1.0f / 8);
  EXPECT_FLOAT_EQ(constant(enc.hand_plane(1, type('N'))), 1.0f / 8);
  EXPECT_FLOAT_EQ(constant(enc.hand_plane(0, type('B'))), 0);
}

TEST_F(ChessPlanes, RepetitionCountsEarlierOccurrences) {
  Position pos(v);
  for (const char* m : {"g1f3", "g8f6", "f3g1", "f6g8"}) pos.play(pos.parse_move(m));
  enc.encode(pos, planes.data());
  EXPECT_FLOAT_EQ(constant(enc.repetition_plane()), 0.5f);
  EXPECT_FLOAT_EQ(constant(enc.move_clock_plane()), 4.0f / 100);
  pos.play(pos.parse_move("e2e4"));
  enc.encode(pos, planes.data());
  EXPECT_EQ(constant(enc.repetition_plane()), 0);
}

TEST(Encoder, FourSeatsMirrorsForSouthFacingSeats) {
  VariantPtr v = variant("four-seats");
  Encoder enc(v);
  EXPECT_EQ(enc.value_heads(), 1);
  // white-high (seat 2) moves White's men southward: its frame is mirrored, White is relation 0.
  Position pos = Position::from_fen(v, "r4r/6/2p3/3P2/6/R4R W - - 0 1");
  ASSERT_EQ(v->seats[pos.seat_to_move()].name, "white-high");
  ASSERT_TRUE(enc.mirrored(pos));
  std::vector<float> planes(enc.plane_floats());
  enc.encode(pos, planes.data());
  const int rook = v->piece_by_letter('R');
  // a0 (rank 0) is seen on the top rank.
  EXPECT_EQ(planes[enc.piece_plane(0, rook) * enc.cells() + 5 * 6 + 0], 1);
  EXPECT_EQ(planes[enc.piece_plane(1, rook) * enc.cells() + 0 * 6 + 0], 1);
  EXPECT_EQ(planes[enc.seat_plane(2) * enc.cells()], 1);
  // The pawn's step d2-d1 (south for this seat) is encoded from rank 3 up to rank 4.
  EXPECT_EQ(enc.policy_index(pos, pos.parse_move("d2d1")), (3 * 6 + 3) * 36 + 4 * 6 + 3);
  Position low = Position::from_fen(v, "r4r/6/2p3/3P2/6/R4R w - - 0 1");
  EXPECT_FALSE(enc.mirrored(low));
}

TEST(Encoder, ValuesAndTargetsForTwoTeams) {
  VariantPtr v = variant("chess");
  Encoder enc(v);
  Position pos(v);
  pos.play(pos.parse_move("e2e4"));  // Black to move
  const float wdl[3] = {0.5f, 0.3f, 0.2f};
  std::array<float, kMaxSeats> values = enc.seat_values(pos, wdl);
  EXPECT_FLOAT_EQ(values[1], 0.65f);
  EXPECT_FLOAT_EQ(values[0], 0.35f);
  Outcome white_wins;
  white_wins.termination = Termination::kCheckmate;
  white_wins.score = {1, 0, 0, 0};
  float target[3];
  enc.value_target(pos, white_wins, target);  // from Black's side: a loss
  EXPECT_EQ(target[0], 0);
  EXPECT_EQ(target[1], 0);
  EXPECT_EQ(target[2], 1);
  Outcome draw;
  draw.score = {0.5, 0.5, 0, 0};
  enc.value_target(pos, draw, target);
  EXPECT_EQ(target[1], 1);
}

}  // namespace
}  // namespace fairyzero
