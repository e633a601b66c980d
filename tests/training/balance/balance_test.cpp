// The balance tool: statistics on synthetic games with known answers (intervals, first-move
// advantage, Wilson, terminations, quartiles, openings, piece values from a known linear model)
// and the report with two variants side by side (games played for real: balance_games_test.cpp).
#include "training/balance/balance.h"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>

#include "training/balance/balance_report.h"

namespace fairyzero {
namespace {

namespace fs = std::filesystem;

BalanceSetup two_seats() {
  BalanceSetup s;
  s.variant = "test";
  s.title = "Test";
  s.seat_names = {"white", "black"};
  s.seat_army = {0, 1};
  s.army_team = {0, 1};
  s.piece_names = {"pawn", "knight", "rook", "king"};
  s.royal = {false, false, false, true};
  return s;
}

BalanceGame game(double first_score, const std::string& termination = "checkmate", int plies = 20,
                 std::vector<std::string> moves = {}) {
  BalanceGame g;
  g.variant = "test";
  g.strength = "uniform@8";
  g.team_score = {first_score, 1 - first_score};
  g.individual = g.team_score;
  g.termination = termination;
  g.plies = plies;
  g.moves = moves.empty() ? std::vector<std::string>(plies, "a1a2") : moves;
  return g;
}

std::string read(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

fs::path fresh_dir(const std::string& name) {
  fs::path dir = fs::temp_directory_path() / ("fairyzero-balance-" + name);
  fs::remove_all(dir);
  return dir;
}

TEST(BalanceStats, SeatScoresHaveNormalIntervals) {
  // Five wins, two draws, three losses for white: mean 0.6, sample variance 1.9 / 9, so the
  // half-width is 1.96 * sqrt(0.21111 / 10) = 0.28478.
  std::vector<BalanceGame> games;
  for (double s : {1.0, 1.0, 1.0, 1.0, 1.0, 0.5, 0.5, 0.0, 0.0, 0.0}) games.push_back(game(s));
  std::vector<SeatScore> seats = seat_scores(two_seats(), games);
  ASSERT_EQ(seats.size(), 2u);
  EXPECT_EQ(seats[0].seat, "white");
  EXPECT_NEAR(seats[0].team.value, 0.6, 1e-12);
  EXPECT_NEAR(seats[0].team.low, 0.6 - 0.28478, 1e-4);
  EXPECT_NEAR(seats[0].team.high, 0.6 + 0.28478, 1e-4);
  EXPECT_NEAR(seats[1].team.value, 0.4, 1e-12);
  std::vector<TeamScore> teams = team_scores(two_seats(), games);
  ASSERT_EQ(teams.size(), 2u);
  EXPECT_NEAR(teams[1].score.value, 0.4, 1e-12);

  Estimate advantage = first_move_advantage(two_seats(), games);
  EXPECT_NEAR(advantage.value, 0.1, 1e-12);
  EXPECT_NEAR(advantage.high - advantage.value, 0.28478, 1e-4);
  BalanceSetup black_first = two_seats();
  black_first.first_seat = 1;
  EXPECT_NEAR(first_move_advantage(black_first, games).value, -0.1, 1e-12);
  // Intervals never leave the range of scores.
  std::vector<BalanceGame> wins(3, game(1.0));
  EXPECT_EQ(seat_scores(two_seats(), wins)[0].team.high, 1.0);
}

TEST(BalanceStats, MiniaturesAreDecidedGamesWithinTheirPliesAndTheRestKeepTheirAdvantage) {
  // Three quick White wins (11, 20 plies), a quick Black win, a quick draw (not decided, so
  // one of the longer games), and two long games: a Black win and a draw.
  std::vector<BalanceGame> games{game(1.0, "checkmate", 11),       game(1.0, "checkmate", 11),
                                 game(1.0, "checkmate", 20),       game(0.0, "checkmate", 12),
                                 game(0.5, "repetition", 8),       game(0.0, "checkmate", 90),
                                 game(0.5, "move-count rule", 150)};
  const Miniatures m = miniatures(two_seats(), games);
  EXPECT_EQ(m.plies, kMiniaturePlies);
  EXPECT_EQ(m.games, 4);
  EXPECT_NEAR(m.share.value, 4.0 / 7, 1e-12);
  EXPECT_LT(m.share.low, m.share.value);
  EXPECT_EQ(m.longer_games, 3);
  // Over the 8-ply draw, the long loss and the long draw: (0 - 0.5 + 0) / 3.
  EXPECT_NEAR(m.longer_advantage.value, -0.5 / 3, 1e-12);
  // The column's advantage, (3 - 1 - 1) / 2 / 7 > 0, sits in the quick wins.
  EXPECT_GT(first_move_advantage(two_seats(), games).value, 0);
  // A 21-ply win is not a miniature; a shorter bound counts fewer.
  EXPECT_EQ(miniatures(two_seats(), games, 11).games, 2);
  EXPECT_EQ(balance_stats(two_seats(), games).miniatures.games, 4);
}

TEST(BalanceStats, FourSeatsInTwoTeams) {
  BalanceSetup s;
  s.seat_names = {"white-low", "black-low", "white-high", "black-high"};
  s.seat_army = {0, 1, 0, 1};
  s.army_team = {0, 1};
  std::vector<BalanceGame> games(4);
  for (int i = 0; i < 4; ++i) {
    const double w = i < 3 ? 1.0 : 0.0;  // white's team wins three of four
    games[i].team_score = {w, 1 - w, w, 1 - w};
    games[i].individual = {w, 1 - w, w * 0.5, (1 - w) * 0.5};
  }
  std::vector<TeamScore> teams = team_scores(s, games);
  ASSERT_EQ(teams.size(), 2u);
  EXPECT_EQ(teams[0].team, "white-low+white-high");
  EXPECT_NEAR(teams[0].score.value, 0.75, 1e-12);
  EXPECT_NEAR(first_move_advantage(s, games).value, 0.25, 1e-12);
  EXPECT_NEAR(seat_scores(s, games)[2].individual.value, 0.375, 1e-12);
}

// Irwell-like: seats in index order, two armies, turn order white-low, black-high, white-high,
// black-low.
BalanceSetup four_seats() {
  BalanceSetup s;
  s.variant = "test4";
  s.seat_names = {"white-low", "black-low", "white-high", "black-high"};
  s.seat_army = {0, 1, 0, 1};
  s.army_team = {0, 1};
  s.turn_order = {0, 3, 2, 1};
  return s;
}

BalanceGame four_seat_game(double white, std::vector<int> rank, std::vector<int> dropout) {
  BalanceGame g;
  g.variant = "test4";
  g.strength = "uniform@8";
  g.team_score = {white, 1 - white, white, 1 - white};
  g.individual = {white, 1 - white, white, 1 - white};
  g.rank = std::move(rank);
  g.dropout_order = std::move(dropout);
  g.seat_agent = {"uniform@8", "uniform@8", "uniform@2", "uniform@8"};
  g.termination = "king captured";
  g.plies = 10;
  g.moves.assign(10, "a1a2");
  return g;
}

TEST(BalanceTeam, SeatOrderDropoutsAndRanks) {
  // White wins three of four; black-low drops out first in games 0-2, white-high in game 3;
  // game 1 has no drop-out record (an older record) and counts for nothing there.
  std::vector<BalanceGame> games{
      four_seat_game(1, {1, 4, 2, 3}, {-1, 0, -1, 1}),
      four_seat_game(1, {2, 3, 1, 4}, {}),
      four_seat_game(1, {1, 4, 1, 3}, {-1, 0, -1, -1}),
      four_seat_game(0, {4, 1, 3, 2}, {1, -1, 0, -1}),
  };
  const BalanceSetup setup = four_seats();
  std::vector<SeatOrderScore> order = seat_order_scores(setup, games);
  ASSERT_EQ(order.size(), 4u);
  EXPECT_EQ(order[0].position, 1);
  EXPECT_EQ(order[0].seat, "white-low");
  EXPECT_EQ(order[1].seat, "black-high");  // the second mover
  EXPECT_EQ(order[2].seat, "white-high");
  EXPECT_EQ(order[3].seat, "black-low");
  EXPECT_NEAR(order[0].team.value, 0.75, 1e-12);
  EXPECT_NEAR(order[1].team.value, 0.25, 1e-12);
  // Scores 1,1,1,0: s² = 0.25, half-width 1.96·0.5/2.
  EXPECT_NEAR(order[0].team.low, 0.75 - 0.48999, 1e-4);

  std::vector<DropoutFirst> first = dropout_first(setup, games);
  ASSERT_EQ(first.size(), 4u);
  EXPECT_EQ(first[1].seat, "black-low");
  EXPECT_EQ(first[1].first, 2);
  EXPECT_EQ(first[1].games, 3);
  EXPECT_NEAR(first[1].share.value, 2.0 / 3, 1e-12);
  EXPECT_EQ(first[2].first, 1);
  EXPECT_EQ(first[0].first, 0);
  EXPECT_EQ(first[3].first, 0);

  std::vector<SeatRanking> ranks = seat_rankings(setup, games);
  EXPECT_EQ(ranks[0].games, 4);
  EXPECT_NEAR(ranks[0].mean_rank.value, 2.0, 1e-12);  // (1 + 2 + 1 + 4) / 4
  EXPECT_NEAR(ranks[2].mean_rank.value, 1.75, 1e-12);
  EXPECT_NEAR(ranks[2].first_share.value, 0.5, 1e-12);
  EXPECT_NEAR(ranks[1].mean_rank.value, 3.0, 1e-12);
  EXPECT_GE(ranks[1].mean_rank.low, 1.0);
  EXPECT_LE(ranks[1].mean_rank.high, 4.0);

  BalanceStats stats = balance_stats(setup, games);
  ASSERT_TRUE(stats.team.has_value());
  EXPECT_EQ(stats.team->agents[2], "uniform@2");
  EXPECT_FALSE(balance_stats(two_seats(), std::vector<BalanceGame>{game(1.0)}).team.has_value());
}

TEST(BalanceTeam, DifferenceOfIndependentMeans) {
  // a: 1,1,0,0 (mean 0.5, s² 1/3); b: 0,0,0,1 (mean 0.25, s² 0.25); se² = 1/12 + 1/16.
  const std::array<double, 4> a{1.0, 1.0, 0.0, 0.0}, b{0.0, 0.0, 0.0, 1.0};
  const Estimate d = mean_difference(a, b);
  EXPECT_NEAR(d.value, 0.25, 1e-12);
  EXPECT_NEAR(d.high - d.value, 1.959964 * std::sqrt(1.0 / 12 + 1.0 / 16), 1e-5);
}

TEST(BalanceTeam, ReportComparesColumnsWithAWeakerSeat) {
  const BalanceSetup setup = four_seats();
  std::vector<BalanceGame> weak{four_seat_game(0, {4, 1, 3, 2}, {1, -1, 0, -1}),
                                four_seat_game(1, {1, 4, 2, 3}, {-1, 0, -1, 1})};
  std::vector<BalanceGame> plain = weak;
  for (BalanceGame& g : plain) g.seat_agent.assign(4, "uniform@8");
  plain[0].team_score = {1, 0, 1, 0};
  BalanceStats weak_stats = balance_stats(setup, weak), plain_stats = balance_stats(setup, plain);
  weak_stats.strength = "uniform@8 with white-high=uniform@2";
  std::vector<BalanceColumn> columns{{setup, plain_stats}, {setup, weak_stats}};
  BalanceReportSettings settings;
  settings.plots = false;
  const std::string md = balance_markdown(columns, settings, {}, "");
  for (const char* part :
       {"## Team balance", "| mover 2 | black-high: ", "### Who carries the team",
        "white-high: uniform@2", "team 1 change from baseline | - | -0.500 [", "first places",
        "black-low: 1/2 = "})
    EXPECT_NE(md.find(part), std::string::npos) << part << "\n" << md;
  EXPECT_NE(balance_html(columns, settings, {}, "").find("<h2>Team balance</h2>"),
            std::string::npos);
  const nlohmann::json json = nlohmann::json::parse(balance_json(columns));
  EXPECT_EQ(json["format"], 1);
  EXPECT_EQ(json["columns"][0]["seat_order"][0]["position"], 1);
  // Who drops out first and the individual ranking, as the report's tables show them.
  const TeamBalance& team = *plain_stats.team;
  ASSERT_EQ(json["columns"][0]["dropout_first"].size(), team.dropout_first.size());
  ASSERT_EQ(json["columns"][0]["ranking"].size(), team.ranking.size());
  for (size_t i = 0; i < team.ranking.size(); ++i) {
    EXPECT_EQ(json["columns"][0]["dropout_first"][i]["first"], team.dropout_first[i].first);
    EXPECT_DOUBLE_EQ(json["columns"][0]["ranking"][i]["mean_rank"]["value"].get<double>(),
                     team.ranking[i].mean_rank.value);
  }
}

TEST(BalanceStats, WilsonIntervalMatchesPublishedValues) {
  // Newcombe (1998), "Two-sided confidence intervals for the single proportion", table I.
  Estimate a = wilson_interval(81, 263);
  EXPECT_NEAR(a.low, 0.2553, 5e-5);
  EXPECT_NEAR(a.high, 0.3662, 5e-5);
  Estimate b = wilson_interval(15, 148);
  EXPECT_NEAR(b.low, 0.0624, 5e-5);
  EXPECT_NEAR(b.high, 0.1605, 5e-5);
  Estimate c = wilson_interval(0, 20);
  EXPECT_NEAR(c.low, 0.0, 1e-12);
  EXPECT_NEAR(c.high, 0.1611, 5e-5);

  std::vector<BalanceGame> games;
  for (int i = 0; i < 10; ++i) games.push_back(game(i < 3 ? 0.5 : 1.0));
  DrawRate d = draw_rate(games);
  EXPECT_EQ(d.draws, 3);
  EXPECT_EQ(d.games, 10);
  EXPECT_NEAR(d.rate.value, 0.3, 1e-12);
  EXPECT_NEAR(d.rate.low, 0.1078, 5e-5);
  EXPECT_NEAR(d.rate.high, 0.6032, 5e-5);
}

TEST(BalanceStats, TerminationsAreCountedAndShared) {
  std::vector<BalanceGame> games = {game(1, "checkmate"), game(0, "checkmate"),
                                    game(0.5, "repetition"), game(1, "checkmate"),
                                    game(0.5, kLengthCapTermination)};
  std::vector<TerminationShare> t = terminations(games);
  ASSERT_EQ(t.size(), 3u);
  EXPECT_EQ(t[0].termination, "checkmate");
  EXPECT_EQ(t[0].count, 3);
  EXPECT_NEAR(t[0].share, 0.6, 1e-12);
  int total = 0;
  for (const TerminationShare& x : t) total += x.count;
  EXPECT_EQ(total, 5);
}

TEST(BalanceStats, LengthQuartilesInterpolate) {
  std::vector<BalanceGame> games = {game(1, "checkmate", 10), game(1, "checkmate", 40),
                                    game(1, "checkmate", 20), game(1, "checkmate", 30)};
  LengthStats l = length_stats(games);
  EXPECT_NEAR(l.mean, 25, 1e-12);
  EXPECT_NEAR(l.median, 25, 1e-12);
  EXPECT_NEAR(l.q1, 17.5, 1e-12);  // numpy.percentile([10, 20, 30, 40], 25)
  EXPECT_NEAR(l.q3, 32.5, 1e-12);
  EXPECT_EQ(l.min, 10);
  EXPECT_EQ(l.max, 40);
  int counted = 0;
  for (const HistogramBin& b : l.histogram) {
    EXPECT_LT(b.low, b.high);
    counted += b.count;
  }
  EXPECT_EQ(counted, 4);
  EXPECT_LE(l.histogram.front().low, 10);
  EXPECT_GT(l.histogram.back().high, 40);
}

TEST(BalanceStats, OpeningDiversity) {
  std::vector<BalanceGame> games = {game(1, "checkmate", 4, {"e2e3", "e7e6", "d2d3", "d7d6"}),
                                    game(1, "checkmate", 4, {"e2e3", "e7e6", "a2a3", "a7a6"}),
                                    game(1, "checkmate", 4, {"d2d3", "e7e6", "a2a3", "a7a6"}),
                                    game(1, "checkmate", 4, {"b2b3", "e7e6", "a2a3", "a7a6"})};
  OpeningStats two = opening_stats(games, 2);
  EXPECT_EQ(two.distinct, 3);
  EXPECT_NEAR(two.entropy_bits, 1.5, 1e-12);  // shares 1/2, 1/4, 1/4
  EXPECT_NEAR(two.top_share, 0.5, 1e-12);
  EXPECT_EQ(two.most_common.front().first, "e2e3 e7e6");
  EXPECT_EQ(two.most_common.front().second, 2);
  OpeningStats four = opening_stats(games, 4);
  EXPECT_EQ(four.distinct, 4);
  EXPECT_NEAR(four.entropy_bits, 2.0, 1e-12);
  EXPECT_NEAR(four.top_share, 0.25, 1e-12);
}

// Games whose results follow y = 0.5 + 0.02 (1 dP + 3 dN + 5 dR) + noise, one snapshot each.
std::vector<BalanceGame> linear_model_games(int count, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> pawns(0, 8), pieces(0, 2);
  std::normal_distribution<double> noise(0, 0.1);
  std::vector<BalanceGame> games;
  for (int i = 0; i < count; ++i) {
    MaterialSnapshot s{
        10, {{pawns(rng), pieces(rng), pieces(rng), 1}, {pawns(rng), pieces(rng), pieces(rng), 1}}};
    const double d = (s.count[0][0] - s.count[1][0]) + 3.0 * (s.count[0][1] - s.count[1][1]) +
                     5.0 * (s.count[0][2] - s.count[1][2]);
    BalanceGame g = game(0.5 + 0.02 * d + noise(rng));
    g.material = {{0, {{8, 2, 2, 1}, {8, 2, 2, 1}}}, s};
    games.push_back(g);
  }
  return games;
}

TEST(BalanceStats, PieceValuesRecoverAKnownLinearModel) {
  PieceValueFit fit = fit_piece_values(two_seats(), linear_model_games(2000, 7));
  EXPECT_TRUE(fit.note.empty()) << fit.note;
  EXPECT_EQ(fit.reference, "pawn");
  EXPECT_EQ(fit.positions, 2000);  // the level start positions (ply 0) are left out
  EXPECT_EQ(fit.games, 2000);
  ASSERT_EQ(fit.pieces.size(), 3u);  // the royal king is left out
  const double truth[] = {1, 3, 5};
  for (int i = 0; i < 3; ++i) {
    const PieceValue& p = fit.pieces[i];
    ASSERT_TRUE(p.estimated && p.scaled) << p.piece;
    EXPECT_NEAR(p.scaled->value, truth[i], 0.1 * truth[i]) << p.piece;
    EXPECT_LE(p.scaled->low, truth[i] + 1e-9) << p.piece;
    EXPECT_GE(p.scaled->high, truth[i] - 1e-9) << p.piece;
  }
  EXPECT_NEAR(fit.pieces[0].coefficient, 0.02, 0.002);
  EXPECT_GT(fit.pieces[0].standard_error, 0);
  EXPECT_NEAR(fit.intercept, 0.5, 0.02);
}

TEST(BalanceStats, PieceValuesNeedUnequalMaterial) {
  std::vector<BalanceGame> games;
  for (int i = 0; i < 30; ++i) {
    BalanceGame g = game(i % 2);
    g.material = {{0, {{8, 2, 2, 1}, {8, 2, 2, 1}}}, {10, {{8, 2, 2, 1}, {8, 2, 2, 1}}}};
    games.push_back(g);
  }
  PieceValueFit fit = fit_piece_values(two_seats(), games);
  EXPECT_FALSE(fit.note.empty());
  EXPECT_TRUE(fit.reference.empty());
  for (const PieceValue& p : fit.pieces) EXPECT_FALSE(p.estimated);

  // Unequal material but every game drawn: the results say nothing about the pieces.
  std::vector<BalanceGame> draws = linear_model_games(100, 3);
  for (BalanceGame& g : draws) g.team_score = {0.5, 0.5};
  PieceValueFit flat = fit_piece_values(two_seats(), draws);
  EXPECT_EQ(flat.note, "every game had the same result");
  EXPECT_TRUE(flat.reference.empty());
}

std::vector<BalanceColumn> two_variant_columns() {
  std::vector<BalanceColumn> columns;
  for (const std::string name : {"isis", "isis-deans"}) {
    BalanceSetup setup = two_seats();
    setup.variant = name;
    setup.title = name == "isis" ? "Isis" : "Isis with Deans";
    std::vector<BalanceGame> games = linear_model_games(200, name.size());
    for (BalanceGame& g : games) g.variant = name;
    columns.push_back({setup, balance_stats(setup, games)});
  }
  return columns;
}

TEST(BalanceReport, TwoVariantsSideBySide) {
  const fs::path dir = fresh_dir("report");
  BalanceReportSettings settings;
  settings.command = "fairyzero balance isis isis-deans --bot uniform";
  settings.date = "2024-01-01 12:00";
  settings.plots = false;
  BalanceReportFiles files = write_balance_report(dir.string(), two_variant_columns(), settings);
  const std::string md = read(files.markdown), html = read(files.html), json = read(files.data);
  for (const char* section : {"# Balance report", "## Summary", "## Scores per seat and team",
                              "## How games end", "## Game length", "## Opening diversity",
                              "## Piece values", "first-move advantage", "draw rate"})
    EXPECT_NE(md.find(section), std::string::npos) << section;
  EXPECT_NE(md.find("| isis uniform@8 | isis-deans uniform@8 |"), std::string::npos) << md;
  for (const char* part : {"<!DOCTYPE html>", "<h2>Summary</h2>", "<h2>Piece values</h2>",
                           "<th>isis uniform@8</th><th>isis-deans uniform@8</th>", "<table>"})
    EXPECT_NE(html.find(part), std::string::npos) << part;
  EXPECT_NE(json.find("\"label\": \"isis-deans uniform@8\""), std::string::npos);
  EXPECT_NE(json.find("\"reference\": \"pawn\""), std::string::npos);
  EXPECT_TRUE(files.plots.empty());
}

TEST(BalanceReport, MissingPythonIsReportedAndTheMarkdownStillWritten) {
  const fs::path dir = fresh_dir("no-python");
  BalanceReportSettings settings;
  settings.python = "/nonexistent/python3";
  BalanceReportFiles files = write_balance_report(dir.string(), two_variant_columns(), settings);
  EXPECT_FALSE(files.plot_problem.empty());
  EXPECT_TRUE(files.plots.empty());
  EXPECT_NE(read(files.markdown).find("No plots: "), std::string::npos);
  EXPECT_TRUE(fs::exists(files.html));
}

TEST(BalanceReport, PlotScriptDrawsEveryPlot) {
  if (std::system("/usr/bin/python3 -c 'import matplotlib' > /dev/null 2>&1") != 0)
    GTEST_SKIP() << "no python3-matplotlib";
  const fs::path dir = fresh_dir("plots");
  std::vector<BalanceColumn> columns = two_variant_columns();
  columns.push_back(columns[0]);
  columns.back().stats.strength = "uniform@64";  // a second strength of isis
  BalanceReportFiles files = write_balance_report(dir.string(), columns, {});
  EXPECT_TRUE(files.plot_problem.empty()) << files.plot_problem;
  for (const char* png : {"seat_scores.png", "terminations.png", "game_length.png",
                          "piece_values.png", "score_vs_strength.png"})
    EXPECT_TRUE(fs::exists(dir / png)) << png;
  EXPECT_NE(read(files.markdown).find("![piece_values.png](piece_values.png)"), std::string::npos);
  EXPECT_NE(read(files.html).find("<img src=\"seat_scores.png\""), std::string::npos);
}

}  // namespace
}  // namespace fairyzero
