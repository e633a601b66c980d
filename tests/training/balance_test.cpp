// The balance tool: statistics on synthetic games with known answers (intervals, first-move
// advantage, Wilson, terminations, quartiles, openings, piece values from a known linear model),
// the report with two variants side by side, and a short real run of minichess.
#include "training/balance.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "core/variant_loader.h"
#include "mcts/basic_evaluators.h"
#include "training/balance_games.h"
#include "training/balance_report.h"

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

// Replays a record and returns the final position.
Position replay(const VariantPtr& v, const BalanceGame& g) {
  Position pos(v);
  for (const std::string& m : g.moves) pos.play(pos.parse_move(m));
  return pos;
}

TEST(BalanceGames, MinichessRecordsAreComplete) {
  VariantPtr v = find_variant("minichess");
  UniformEvaluator uniform;
  BalanceConfig config;
  config.games = 4;
  config.playouts = 8;
  config.max_plies = 80;
  config.games_at_once = 4;
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
  for (const char* field : {"\"termination\": ", "\"team_score\": [", "\"opening\": [\"",
                            "\"material\": [{\"ply\": 0, \"count\": [[5, 1, 1, 1, 1, 1]"})
    EXPECT_NE(line.find(field), std::string::npos) << field << " in " << line;
  BalanceStats stats = balance_stats(balance_setup(*v), games);
  EXPECT_EQ(stats.games, 4);
  EXPECT_EQ(stats.seats[0].seat, v->seats[0].name);
}

}  // namespace
}  // namespace fairyzero
