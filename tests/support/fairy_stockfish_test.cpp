// Tests for the Fairy-Stockfish test driver: known perft values for a few variants, error
// reporting for bad engine paths, and the divide mismatch report.
#include "tests/support/fairy_stockfish.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <string>

namespace fairyzero::testing {
namespace {

#define SKIP_WITHOUT_ENGINE()                                                            \
  do {                                                                                   \
    if (!FairyStockfish::available()) {                                                  \
      GTEST_SKIP() << "fairy-stockfish not found at " << FairyStockfish::default_path(); \
    }                                                                                    \
  } while (false)

uint64_t divide_sum(const FairyStockfish::PerftResult& result) {
  uint64_t sum = 0;
  for (const auto& [move, count] : result.divide) sum += count;
  return sum;
}

TEST(FairyStockfishTest, ChessStartposPerft3) {
  SKIP_WITHOUT_ENGINE();
  FairyStockfish engine;
  engine.set_variant("chess");
  FairyStockfish::PerftResult result = engine.perft("startpos", 3);
  EXPECT_EQ(result.nodes, 8902u);
  EXPECT_EQ(result.divide.size(), 20u);
  EXPECT_EQ(divide_sum(result), result.nodes);
  EXPECT_EQ(result.divide.at("e2e4"), 600u);
  EXPECT_GE(result.seconds, 0.0);
}

TEST(FairyStockfishTest, ChessFenPerft) {
  SKIP_WITHOUT_ENGINE();
  FairyStockfish engine;
  engine.set_variant("chess");
  const std::string kiwipete =
      "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
  EXPECT_EQ(engine.perft(kiwipete, 1).nodes, 48u);
  EXPECT_EQ(engine.perft(kiwipete, 2).nodes, 2039u);
  std::vector<std::string> moves = engine.legal_moves(kiwipete);
  EXPECT_EQ(moves.size(), 48u);
  EXPECT_NE(std::find(moves.begin(), moves.end(), "e1g1"), moves.end());
}

TEST(FairyStockfishTest, CapablancaStartposPerft1) {
  SKIP_WITHOUT_ENGINE();
  FairyStockfish engine;
  engine.set_variant("capablanca");
  FairyStockfish::PerftResult result = engine.perft("startpos", 1);
  EXPECT_EQ(result.nodes, 28u);
  EXPECT_EQ(result.divide.size(), 28u);
  EXPECT_EQ(result.divide.count("e2e4"), 1u);
}

TEST(FairyStockfishTest, LosAlamosStartposPerft1) {
  SKIP_WITHOUT_ENGINE();
  FairyStockfish engine;
  engine.set_variant("losalamos");
  FairyStockfish::PerftResult result = engine.perft("startpos", 1);
  EXPECT_EQ(result.nodes, 10u);
  EXPECT_EQ(result.divide.size(), 10u);
  EXPECT_EQ(result.divide.count("a2a4"), 0u);  // no double step in Los Alamos
}

TEST(FairyStockfishTest, SwitchingVariantsInOneProcess) {
  SKIP_WITHOUT_ENGINE();
  FairyStockfish engine;
  engine.set_variant("losalamos");
  EXPECT_EQ(engine.perft("startpos", 1).nodes, 10u);
  engine.set_variant("chess");
  EXPECT_EQ(engine.perft("startpos", 2).nodes, 400u);
}

TEST(FairyStockfishTest, MissingExecutableThrowsNamingPath) {
  const std::string path = "/nonexistent/dir/fairy-stockfish";
  try {
    FairyStockfish engine(path);
    FAIL() << "expected std::runtime_error";
  } catch (const std::runtime_error& error) {
    EXPECT_NE(std::string(error.what()).find(path), std::string::npos) << error.what();
  }
}

TEST(FairyStockfishTest, NonEngineProgramThrows) {
  // `true` starts fine but exits without answering `uci`; depending on timing the driver sees
  // EPIPE or EOF, and either way it must say how the child ended.
  for (int attempt = 0; attempt < 5; ++attempt) {
    try {
      FairyStockfish engine("true");
      FAIL() << "expected std::runtime_error";
    } catch (const std::runtime_error& error) {
      std::string what = error.what();
      EXPECT_NE(what.find("'true'"), std::string::npos) << what;
      EXPECT_NE(what.find("exited with status 0"), std::string::npos) << what;
    }
  }
}

TEST(FairyStockfishTest, RejectsBadArguments) {
  SKIP_WITHOUT_ENGINE();
  FairyStockfish engine;
  EXPECT_THROW(engine.perft("startpos", 0), std::invalid_argument);
  EXPECT_THROW(engine.perft("startpos\ngo infinite", 1), std::invalid_argument);
  EXPECT_THROW(engine.set_variant("chess\nquit"), std::invalid_argument);
  EXPECT_EQ(engine.perft("startpos", 1).nodes, 20u);  // still usable afterwards
}

TEST(FormatDivideMismatchTest, ReportsEachKindOfDifference) {
  std::map<std::string, uint64_t> ours{{"a2a3", 20}, {"b2b3", 21}, {"z9z9", 5}};
  std::map<std::string, uint64_t> theirs{{"a2a3", 20}, {"b2b3", 20}, {"c2c3", 20}};
  std::string report = format_divide_mismatch(ours, theirs);
  EXPECT_NE(report.find("only in ours (1):\n  z9z9: 5"), std::string::npos) << report;
  EXPECT_NE(report.find("only in theirs (1):\n  c2c3: 20"), std::string::npos) << report;
  EXPECT_NE(report.find("b2b3: ours 21, theirs 20 (+1)"), std::string::npos) << report;
  EXPECT_EQ(report.find("a2a3"), std::string::npos) << report;
}

TEST(FormatDivideMismatchTest, SaysWhenDividesMatch) {
  std::map<std::string, uint64_t> same{{"e2e4", 20}};
  EXPECT_NE(format_divide_mismatch(same, same).find("divides match"), std::string::npos);
}

}  // namespace
}  // namespace fairyzero::testing
