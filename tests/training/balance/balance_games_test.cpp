// Balance games played for real: records of minichess and of Irwell with a weaker seat are
// complete and replay to their final positions, recorded self-play games are replayed for their
// material, and four-seat records say what they do not hold.
#include "training/balance/balance_games.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/variant_loader.h"
#include "mcts/basic_evaluators.h"
#include "training/balance/balance_report.h"

namespace fairyzero {
namespace {

// Games at once, all of them, each stopped at `max_plies`.
BalanceConfig small_config(int games, int playouts, int max_plies) {
  BalanceConfig config;
  config.games = games;
  config.playouts = playouts;
  config.max_plies = max_plies;
  config.games_at_once = games;
  return config;
}

// Replays a record and returns the final position.
Position replay(const VariantPtr& v, const BalanceGame& g) {
  Position pos(v);
  for (const std::string& m : g.moves) pos.play(pos.parse_move(m));
  return pos;
}

TEST(BalanceGames, MinichessRecordsAreComplete) {
  VariantPtr v = find_variant("minichess");
  UniformEvaluator uniform;
  BalanceConfig config = small_config(4, 8, 80);
  config.material_every = 10;
  int progress_calls = 0;
  std::vector<BalanceGame> games =
      play_balance_games(v, uniform, "uniform@8", config, [&](const BalanceProgress& p) {
        ++progress_calls;
        EXPECT_EQ(p.total, 4);
      });
  ASSERT_EQ(games.size(), 4u);
  EXPECT_EQ(progress_calls, 4);
  const MaterialSnapshot start = material_of(Position(v));
  for (const BalanceGame& g : games) {
    EXPECT_EQ(g.variant, "minichess");
    EXPECT_EQ(g.strength, "uniform@8");
    EXPECT_EQ(static_cast<int>(g.moves.size()), g.plies);
    ASSERT_EQ(g.team_score.size(), 2u);
    ASSERT_EQ(g.individual.size(), 2u);
    EXPECT_DOUBLE_EQ(g.team_score[0] + g.team_score[1], 1.0);
    EXPECT_FALSE(g.termination.empty());
    ASSERT_FALSE(g.material.empty());
    EXPECT_EQ(g.material[0].ply, 0);
    EXPECT_EQ(g.material[0].count, start.count);
    EXPECT_EQ(static_cast<int>(g.material.size()), 1 + g.plies / config.material_every);
    Position end = replay(v, g);
    EXPECT_EQ(material_of(end).ply, g.plies);
    if (g.termination == kLengthCapTermination) {
      EXPECT_EQ(g.plies, config.max_plies);
    } else {
      Outcome o = end.outcome();
      ASSERT_TRUE(o.over());
      EXPECT_EQ(g.termination, termination_name(o.termination));
      EXPECT_EQ(g.team_score[0], o.score[0]);
    }
  }
  EXPECT_EQ(start.count[0][0], 5);  // five white pawns
  EXPECT_EQ(start.count[1][5], 1);  // one black king

  // A game depends on its index only: the same with other threads and batches.
  config.threads = 2;
  config.games_at_once = 1;
  std::vector<BalanceGame> again = play_balance_games(v, uniform, "uniform@8", config);
  for (size_t i = 0; i < games.size(); ++i) EXPECT_EQ(again[i].moves, games[i].moves) << i;
  const std::string line = game_json(games[0]);
  EXPECT_EQ(line.find('\n'), std::string::npos) << "one line per game";
  const nlohmann::json game = nlohmann::json::parse(line);
  EXPECT_EQ(game["termination"], games[0].termination);
  EXPECT_EQ(game["team_score"].size(), 2u);
  EXPECT_EQ(game["opening"][0], games[0].moves[0]);
  EXPECT_EQ(game["material"][0]["ply"], 0);
  EXPECT_EQ(game["material"][0]["count"][0], (std::vector<int>{5, 1, 1, 1, 1, 1}));
  BalanceStats stats = balance_stats(balance_setup(*v), games);
  EXPECT_EQ(stats.games, 4);
  EXPECT_EQ(stats.seats[0].seat, v->seats[0].name);
}

TEST(BalanceGames, IrwellWithAWeakerSeatRecordsEverySeat) {
  VariantPtr v = find_variant("irwell");
  ASSERT_EQ(v->seat_count(), 4);
  UniformEvaluator uniform;
  BalanceConfig config = small_config(3, 8, 60);
  std::vector<SeatAgent> seats(4, SeatAgent{&uniform, 8, "uniform@8"});
  seats[2] = {&uniform, 2, "uniform@2"};  // a weaker white-high
  std::vector<BalanceGame> games = play_balance_games(v, seats, "weak", config);
  ASSERT_EQ(games.size(), 3u);
  for (const BalanceGame& g : games) {
    EXPECT_EQ(g.seat_agent,
              (std::vector<std::string>{"uniform@8", "uniform@8", "uniform@2", "uniform@8"}));
    ASSERT_EQ(g.team_score.size(), 4u);
    ASSERT_EQ(g.rank.size(), 4u);
    ASSERT_EQ(g.dropout_order.size(), 4u);
    EXPECT_EQ(static_cast<int>(g.moves.size()), g.plies);
    Position end = replay(v, g);
    for (int s = 0; s < 4; ++s) {
      EXPECT_EQ(g.dropout_order[s], end.dropout_order(s)) << s;
      EXPECT_GE(g.rank[s], 1);
      EXPECT_LE(g.rank[s], 4);
    }
    if (g.termination != kLengthCapTermination) {
      Outcome o = end.outcome();
      ASSERT_TRUE(o.over());
      for (int s = 0; s < 4; ++s) EXPECT_EQ(g.rank[s], o.rank[s]) << s;
    }
  }
  const nlohmann::json game = nlohmann::json::parse(game_json(games[0]));
  EXPECT_EQ(game["rank"].size(), 4u);
  EXPECT_EQ(game["dropout_order"].size(), 4u);
  EXPECT_EQ(game["seat_agent"][0], "uniform@8");
  BalanceStats stats = balance_stats(balance_setup(*v), games);
  ASSERT_TRUE(stats.team.has_value());
  EXPECT_EQ(stats.team->order.size(), 4u);
  EXPECT_EQ(stats.team->order[0].seat, v->seats[v->turn_order[0]].name);
  EXPECT_EQ(stats.team->dropout_first[0].games, 3);
}

// Four players each for themselves get the four-player statistics and their plot too: once
// only teamed games did, so Double Commedia's report had no turn order, drop-outs or ranking.
TEST(BalanceGames, FourPlayersEachForThemselvesGetTurnOrderDropoutsAndRanking) {
  VariantPtr v = find_variant("commedia-double");
  ASSERT_EQ(v->seat_count(), 4);
  UniformEvaluator uniform;
  BalanceConfig config = small_config(2, 2, 24);
  std::vector<SeatAgent> seats(4, SeatAgent{&uniform, 2, "uniform@2"});
  std::vector<BalanceGame> games = play_balance_games(v, seats, "uniform@2", config);
  const BalanceSetup setup = balance_setup(*v);
  ASSERT_EQ(setup.team_count(), 4);
  BalanceStats stats = balance_stats(setup, games);
  ASSERT_TRUE(stats.team.has_value());
  ASSERT_EQ(stats.team->order.size(), 4u);
  EXPECT_EQ(stats.team->order[1].seat, v->seats[v->turn_order[1]].name);
  EXPECT_EQ(stats.team->dropout_first[0].games, 2);
  EXPECT_EQ(stats.team->ranking.size(), 4u);
  EXPECT_EQ(stats.team->ranking[3].games, 2);
  // Two seats have nothing of the kind.
  EXPECT_FALSE(team_balance(balance_setup(*find_variant("chess")), {}).has_value());
  // The report plots the scores by place in the turn order.
  if (std::system("/usr/bin/python3 -c 'import matplotlib' > /dev/null 2>&1") != 0)
    GTEST_SKIP() << "no python3-matplotlib";
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / "fairyzero-balance-four-players";
  std::filesystem::remove_all(dir);
  const BalanceReportFiles files =
      write_balance_report(dir.string(), {BalanceColumn{setup, stats}}, {});
  EXPECT_TRUE(std::filesystem::exists(dir / "seat_order.png")) << files.plot_problem;
  std::filesystem::remove_all(dir);
}

// A training run's recorded game replayed: its material at every snapshot, its scores; a move
// the rules refuse names its ply, seats of another variant are refused.
TEST(BalanceGames, ARecordedSelfPlayGameIsReplayedForItsMaterial) {
  VariantPtr chess = find_variant("chess");
  const SelfPlayRecord scholars_mate{"checkmate",
                                     {{"white", 1}, {"black", 0}},
                                     7,
                                     "",
                                     {"e2e4", "e7e5", "d1h5", "b8c6", "f1c4", "g8f6", "h5f7"}};
  const BalanceGame game = balance_game_from_record(chess, scholars_mate, "self-play gen 0-0", 3);
  EXPECT_EQ(game.variant, "chess");
  EXPECT_EQ(game.strength, "self-play gen 0-0");
  EXPECT_EQ(game.plies, 7);
  EXPECT_EQ(game.team_score, (std::vector<double>{1, 0}));
  EXPECT_EQ(game.individual, game.team_score);
  ASSERT_EQ(game.material.size(), 3u);  // plies 0, 3 and 6
  EXPECT_EQ(game.material[2].ply, 6);
  int pawn = -1;
  for (int t = 0; t < chess->piece_count(); ++t)
    if (chess->pieces[t].name == "pawn") pawn = t;
  ASSERT_GE(pawn, 0);
  EXPECT_EQ(game.material[2].count[1][pawn], 8);
  const BalanceGame every_ply = balance_game_from_record(chess, scholars_mate, "", 1);
  ASSERT_EQ(every_ply.material.size(), 8u);
  EXPECT_EQ(every_ply.material[7].count[1][pawn], 7) << "the queen took f7";
  EXPECT_EQ(every_ply.material[7].count[0][pawn], 8);

  SelfPlayRecord illegal = scholars_mate;
  illegal.moves[4] = "f1f7";
  try {
    balance_game_from_record(chess, illegal, "", 1);
    FAIL() << "an illegal move was replayed";
  } catch (const MoveError& e) {
    EXPECT_NE(std::string(e.what()).find("ply 5"), std::string::npos) << e.what();
  }
  SelfPlayRecord other_seats = scholars_mate;
  other_seats.scores[0].first = "red";
  EXPECT_THROW(balance_game_from_record(chess, other_seats, "", 1), std::invalid_argument);
  other_seats.scores.pop_back();
  EXPECT_THROW(balance_game_from_record(chess, other_seats, "", 1), std::invalid_argument);
}

// A four-seat run's records keep team scores only: the report says its drop-outs and ranks
// were not recorded, instead of showing an empty interval as a figure.
TEST(BalanceGames, FourSeatRecordsSayTheirRanksAreNotRecorded) {
  VariantPtr irwell = find_variant("irwell");
  SelfPlayRecord record{"maximum game length", {}, 0, "", {}};
  for (const Seat& seat : irwell->seats) record.scores.emplace_back(seat.name, 0.5);
  const BalanceGame game = balance_game_from_record(irwell, record, "self-play gen 0-0", 10);
  const BalanceSetup setup = balance_setup(*irwell);
  const std::vector<BalanceGame> games = {game, game};
  const std::vector<BalanceColumn> columns = {{setup, balance_stats(setup, games)}};
  BalanceReportSettings settings;
  settings.source = "Recorded by a test.";
  const std::string md = balance_markdown(columns, settings, {}, "");
  EXPECT_NE(md.find("Recorded games"), std::string::npos) << "the source paragraph";
  EXPECT_NE(md.find("Recorded by a test."), std::string::npos);
  EXPECT_NE(md.find("| seat 1 | " + irwell->seats[0].name + ": not recorded |"), std::string::npos)
      << md;
  EXPECT_NE(md.find("mean rank | " + irwell->seats[0].name + ": not recorded |"), std::string::npos)
      << md;
  EXPECT_EQ(md.find("0/0"), std::string::npos) << md;
}

}  // namespace
}  // namespace fairyzero
