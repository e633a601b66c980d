// Perft: the test of truth for move generation, against published node counts.
#include <gtest/gtest.h>

#include "core/position.h"
#include "core/variant_loader.h"

namespace fairyzero {
namespace {

struct PerftCase {
  const char* variant;
  const char* fen;  // nullptr = the variant's start position
  int depth;
  uint64_t nodes;
};

class PublishedPerft : public ::testing::TestWithParam<PerftCase> {};

TEST_P(PublishedPerft, MatchesPublishedCount) {
  const PerftCase& c = GetParam();
  VariantPtr v = find_variant(c.variant);
  Position pos = c.fen ? Position::from_fen(v, c.fen) : Position(v);
  EXPECT_EQ(perft(pos, c.depth), c.nodes) << c.variant << " " << pos.fen() << " depth " << c.depth;
}

// Chess: chessprogramming.org/Perft_Results (start position and positions 2 to 6).
INSTANTIATE_TEST_SUITE_P(
    Chess, PublishedPerft,
    ::testing::Values(
        PerftCase{"chess", nullptr, 5, 4865609},
        PerftCase{"chess", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                  4, 4085603},
        PerftCase{"chess", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 5, 674624},
        PerftCase{"chess", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 4,
                  422333},
        PerftCase{"chess", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 4, 2103487},
        PerftCase{"chess",
                  "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", 4,
                  3894594}));

// Very Heavy Chess from its start position (depths 1-4 from the reference values).
INSTANTIATE_TEST_SUITE_P(VeryHeavyChess, PublishedPerft,
                         ::testing::Values(PerftCase{"very-heavy-chess", nullptr, 1, 36},
                                           PerftCase{"very-heavy-chess", nullptr, 2, 1296},
                                           PerftCase{"very-heavy-chess", nullptr, 3, 55797},
                                           PerftCase{"very-heavy-chess", nullptr, 4, 2391677}));

}  // namespace
}  // namespace fairyzero
