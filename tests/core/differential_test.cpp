// Differential perft: our full perft divides against Fairy-Stockfish's for every variant it knows.
#include <gtest/gtest.h>

#include <cctype>
#include <chrono>
#include <cstdint>
#include <exception>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "core/position.h"
#include "core/variant_loader.h"
#include "tests/support/fairy_stockfish.h"

namespace fairyzero {
namespace {

using fairyzero::testing::FairyStockfish;
using fairyzero::testing::format_divide_mismatch;

constexpr int kRandomPositions = 60;
constexpr int kRandomDepth = 3;
constexpr int kHandPickedDepth = 3;
constexpr uint32_t kBaseSeed = 20240611;

// What each variant is checked on beyond its random positions.
struct DifferentialPlan {
  int start_depth = 3;
  std::vector<std::string> hand_picked;  // FENs searched at kHandPickedDepth
};

DifferentialPlan plan_for(const std::string& name) {
  if (name == "chess") {
    return {3,
            {// Kiwipete: castling both ways, en passant after a double step, pins.
             "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
             // Promotions for both sides, with and without capture.
             "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
             // Chessprogramming perft position 4: promotion, castling rights of one side only.
             "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
             // Chessprogramming perft position 3: en passant that exposes the king on the rank.
             "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"}};
  }
  if (name == "capablanca") {
    return {3,
            {// Back ranks cleared between king and rooks, with an e.p. capture after d2d4/f2f4.
             "r4k3r/pppppppppp/1nb3qa2/10/4p5/2NBQ1A3/PPPP1PPPPP/R4K3R w KQkq - 0 1",
             "r4k3r/pppppppppp/10/10/10/10/PPPPPPPPPP/R4K3R b KQkq - 0 1",
             // Promotions to all six choices, with and without capture, for both sides.
             "1n3k4/P1P7/10/10/10/10/6p1p1/4K2N2 w - - 0 1",
             "1n3k4/P1P7/10/10/10/10/6p1p1/4K2N2 b - - 0 1"}};
  }
  if (name == "gardner") {
    return {4, {"1n2k/P1P2/5/2p1p/K2N1 w - - 0 1", "1n2k/P1P2/5/2p1p/K2N1 b - - 0 1"}};
  }
  if (name == "losalamos") {
    return {4, {"1n2k1/P1P3/6/6/2p1p1/K2N2 w - - 0 1", "1n2k1/P1P3/6/6/2p1p1/K2N2 b - - 0 1"}};
  }
  return {};
}

// Variants whose file names a Fairy-Stockfish variant. Read as text, not loaded: this runs when
// the tests are registered, in every test's process, and loading every variant there costs
// seconds per test under the sanitizers. A file that then fails to load fails its test.
std::vector<std::string> oracle_variants() {
  std::vector<std::string> names;
  const std::filesystem::path dir =
      std::filesystem::path(FAIRYZERO_SOURCE_DIR) / "configs/variants";
  for (const std::string& name : list_variants()) {
    std::ifstream file(dir / (name + ".toml"));
    for (std::string line; std::getline(file, line);)
      if (line.rfind("fairy_stockfish", 0) == 0) {
        names.push_back(name);
        break;
      }
  }
  return names;
}

std::string test_name(const ::testing::TestParamInfo<std::string>& info) {
  std::string out = info.param;
  for (char& c : out)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return out;
}

// How often special moves occur in the first two plies below the positions tested.
struct SpecialMoves {
  int castling = 0;
  int promotion = 0;
  int en_passant = 0;
};

void count_special_moves(Position& pos, int depth, SpecialMoves& seen) {
  MoveList moves;
  pos.legal_moves(moves);
  for (Move m : moves) {
    seen.castling += m.kind() == MoveKind::kCastling;
    seen.en_passant += m.kind() == MoveKind::kEnPassant;
    seen.promotion += m.is_promotion();
    if (depth > 1) {
      pos.play(m);
      count_special_moves(pos, depth - 1, seen);
      pos.undo();
    }
  }
}

class DifferentialPerft : public ::testing::TestWithParam<std::string> {
 protected:
  // Compares our divide of `pos` with the engine's for the FEN we write.
  void compare_divide(FairyStockfish& engine, Position& pos, int depth, const std::string& label) {
    const std::string fen = pos.fen();
    std::map<std::string, uint64_t> ours;
    uint64_t our_nodes = 0;
    for (const DivideEntry& entry : perft_divide(pos, depth)) {
      EXPECT_TRUE(ours.emplace(entry.move, entry.nodes).second)
          << GetParam() << " " << label << ": move text '" << entry.move
          << "' appears twice in our divide\nFEN: " << fen;
      our_nodes += entry.nodes;
    }
    FairyStockfish::PerftResult theirs = engine.perft(fen, depth);
    EXPECT_TRUE(ours == theirs.divide && our_nodes == theirs.nodes)
        << GetParam() << " " << label << ", depth " << depth << "\nFEN: " << fen << "\nnodes: ours "
        << our_nodes << ", theirs " << theirs.nodes << "\n"
        << format_divide_mismatch(ours, theirs.divide);
    count_special_moves(pos, 2, seen_);
  }

  SpecialMoves seen_;
};

TEST_P(DifferentialPerft, DividesMatchFairyStockfish) {
  if (!FairyStockfish::available()) {
    GTEST_SKIP() << "fairy-stockfish not found at " << FairyStockfish::default_path();
  }
  const std::string& name = GetParam();
  VariantPtr v = find_variant(name);
  ASSERT_FALSE(v->fairy_stockfish.empty());
  const DifferentialPlan plan = plan_for(name);

  FairyStockfish engine;
  engine.set_perft_timeout(std::chrono::seconds(60));
  engine.set_variant(v->fairy_stockfish);

  Position start(v);
  compare_divide(engine, start, plan.start_depth, "start position");

  for (const std::string& fen : plan.hand_picked) {
    Position pos = Position::from_fen(v, fen);
    ASSERT_EQ(pos.fen(), fen) << name << ": hand-picked FEN is not in our canonical form";
    compare_divide(engine, pos, kHandPickedDepth, "hand-picked position");
  }

  int tested = 0;
  for (uint32_t attempt = 0; tested < kRandomPositions && attempt < 10 * kRandomPositions;
       ++attempt) {
    const uint32_t seed = kBaseSeed + attempt;
    std::mt19937 rng(seed);
    const int plies = 10 + static_cast<int>(rng() % 31);
    Position pos(v);
    std::string line;  // the moves played, for reproducing a failure
    bool finished = false;
    for (int ply = 0; ply < plies && !finished; ++ply) {
      MoveList moves;
      pos.legal_moves(moves);
      finished = pos.outcome(moves).over();
      if (finished) break;
      Move m = moves[static_cast<int>(rng() % static_cast<uint32_t>(moves.size()))];
      if (!line.empty()) line += ' ';
      line += pos.move_text(m);
      pos.play(m);
    }
    if (finished || pos.outcome().over()) continue;  // a finished game has nothing to compare
    ++tested;

    const std::string fen = pos.fen();
    const std::string label = "random position (seed " + std::to_string(seed) + ", " +
                              std::to_string(plies) + " plies: " + line + ")";
    Position reparsed = Position::from_fen(v, fen);
    ASSERT_EQ(reparsed.fen(), fen) << name << " " << label << ": FEN does not round-trip";
    EXPECT_EQ(reparsed.hash(), pos.hash()) << name << " " << label << "\nFEN: " << fen;
    compare_divide(engine, reparsed, kRandomDepth, label);
  }
  EXPECT_EQ(tested, kRandomPositions) << name << ": too many random games ended early";

  // The positions above must exercise the special moves the variant has.
  bool has_promotion = false;
  bool has_en_passant = false;
  for (const PieceType& piece : v->pieces) {
    has_promotion = has_promotion || !piece.promotion_choices.empty();
    has_en_passant = has_en_passant || piece.en_passant;
  }
  if (!v->castling.empty()) {
    EXPECT_GT(seen_.castling, 0) << name << ": no castling move tested";
  }
  if (has_promotion) {
    EXPECT_GT(seen_.promotion, 0) << name << ": no promotion tested";
  }
  if (has_en_passant) {
    EXPECT_GT(seen_.en_passant, 0) << name << ": no en-passant capture tested";
  }
}

INSTANTIATE_TEST_SUITE_P(Variants, DifferentialPerft, ::testing::ValuesIn(oracle_variants()),
                         test_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(DifferentialPerft);

}  // namespace
}  // namespace fairyzero
