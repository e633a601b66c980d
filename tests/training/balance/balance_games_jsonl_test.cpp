// games.jsonl read back: a played game and a four-seat one survive the round trip field for
// field (a score that is not finite included), and a damaged record is refused by file and line.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "core/errors.h"
#include "core/variant_loader.h"
#include "mcts/basic_evaluators.h"
#include "training/balance/balance_games.h"
#include "training/balance/balance_report.h"

namespace fairyzero {
namespace {

namespace fs = std::filesystem;

void expect_same(const BalanceGame& a, const BalanceGame& b) {
  EXPECT_EQ(a.variant, b.variant);
  EXPECT_EQ(a.strength, b.strength);
  EXPECT_EQ(a.moves, b.moves);
  EXPECT_EQ(a.termination, b.termination);
  ASSERT_EQ(a.team_score.size(), b.team_score.size());
  for (size_t s = 0; s < a.team_score.size(); ++s) {
    EXPECT_TRUE(a.team_score[s] == b.team_score[s] ||
                (std::isnan(a.team_score[s]) && std::isnan(b.team_score[s])))
        << s;
  }
  EXPECT_EQ(a.individual, b.individual);
  EXPECT_EQ(a.rank, b.rank);
  EXPECT_EQ(a.dropout_order, b.dropout_order);
  EXPECT_EQ(a.seat_agent, b.seat_agent);
  EXPECT_EQ(a.plies, b.plies);
  ASSERT_EQ(a.material.size(), b.material.size());
  for (size_t i = 0; i < a.material.size(); ++i) {
    EXPECT_EQ(a.material[i].ply, b.material[i].ply);
    EXPECT_EQ(a.material[i].count, b.material[i].count);
  }
}

std::vector<BalanceGame> played(const std::string& variant, int games) {
  VariantPtr v = find_variant(variant);
  UniformEvaluator uniform;
  BalanceConfig config;
  config.games = games;
  config.playouts = 4;
  config.max_plies = 40;
  config.material_every = 5;
  std::vector<SeatAgent> seats(v->seat_count(), SeatAgent{&uniform, 4, "uniform@4"});
  return play_balance_games(v, seats, "uniform@4", config);
}

TEST(BalanceGamesFile, PlayedGamesSurviveTheRoundTrip) {
  std::vector<BalanceGame> games = played("minichess", 2);
  for (const BalanceGame& g : played("irwell", 1)) games.push_back(g);
  games[0].team_score[1] = std::nan("");  // written as null
  const fs::path file = fs::path(testing::TempDir()) / "round_trip_games.jsonl";
  fs::remove(file);
  append_games_jsonl(file.string(), games);
  const std::vector<BalanceGame> back = read_games_jsonl(file.string());
  ASSERT_EQ(back.size(), games.size());
  for (size_t i = 0; i < games.size(); ++i) {
    SCOPED_TRACE(i);
    expect_same(back[i], games[i]);
  }
  EXPECT_EQ(back[2].rank.size(), 4u);
}

TEST(BalanceGamesFile, ADamagedRecordIsRefusedByFileAndLine) {
  const std::vector<BalanceGame> games = played("minichess", 1);
  const std::string good = game_json(games[0]);
  const fs::path file = fs::path(testing::TempDir()) / "damaged_games.jsonl";
  auto refused = [&](const std::string& second_line) {
    std::ofstream(file) << good << "\n" << second_line << "\n";
    try {
      read_games_jsonl(file.string());
    } catch (const UserError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  const std::string truncated = refused(good.substr(0, good.size() / 2));
  EXPECT_NE(truncated.find(file.string() + " line 2"), std::string::npos) << truncated;
  std::string no_moves = good;
  no_moves.replace(no_moves.find("\"moves\""), 7, "\"mover\"");
  EXPECT_NE(refused(no_moves).find("line 2"), std::string::npos);
  std::string short_rank = good;
  const size_t rank = short_rank.find("\"rank\":[");
  short_rank.replace(rank, short_rank.find(']', rank) + 1 - rank, "\"rank\":[1]");
  EXPECT_NE(refused(short_rank).find("differ in length"), std::string::npos);
  EXPECT_THROW(read_games_jsonl((fs::path(testing::TempDir()) / "no_such.jsonl").string()),
               UserError);
}

}  // namespace
}  // namespace fairyzero
