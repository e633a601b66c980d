// Balance statistics of a variant from self-play game records: scores per seat and team with 95%
// intervals, first-move advantage, draw rate, how games end, game length, opening diversity and
// piece values by regression of results on material. Pure functions of the records, so they are
// tested on synthetic games; the formulas are in docs/BALANCE.md.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "core/variant.h"

namespace fairyzero {

// How many of each piece type every army has (on the board and in hand) at one ply of a game.
struct MaterialSnapshot {
  int ply = 0;
  std::vector<std::vector<int>> count;  // [army][piece type]
};

// One finished self-play game, as the balance tool records it.
struct BalanceGame {
  std::string variant;
  std::string strength;            // the bot and its search, e.g. "uniform@64"
  std::vector<std::string> moves;  // in the variant's coordinates; the first few are the opening
  std::string termination;         // termination_name(), or kLengthCapTermination
  std::vector<double> team_score;  // per seat: 1 win, 0.5 draw, 0 loss (its team's result)
  std::vector<double> individual;  // per seat: the sources' ranking score (= team_score in
                                   // two-seat games)
  std::vector<int> rank;           // per seat: 1-based individual place, ties share the best
  std::vector<int> dropout_order;  // per seat: 0 for the first seat out, -1 still playing
  std::vector<std::string> seat_agent;  // per seat: its bot and search, e.g. "uniform@8"
  int plies = 0;
  std::vector<MaterialSnapshot> material;  // the start (ply 0), then every few plies
};

// The termination of a game the balance tool stopped at its --max-plies (scored a draw); the
// variant's own length rule is termination_name(Termination::kMaxPlies).
inline constexpr const char* kLengthCapTermination = "length cap (--max-plies)";

// The facts about a variant the statistics need, so they run (and are tested) without one.
struct BalanceSetup {
  std::string variant;  // Variant::name
  std::string title;
  std::vector<std::string> seat_names;  // by seat index
  std::vector<int> seat_army;           // army of each seat
  std::vector<int> army_team;           // team of each army
  std::vector<std::string> piece_names;
  std::vector<bool> royal;      // by piece type; royal types are left out of the piece values
  int first_seat = 0;           // the seat that moves first
  std::vector<int> turn_order;  // seats in the order they move (empty: seat order)
  int team_count() const;
  int seat_team(int seat) const { return army_team[seat_army[seat]]; }
};
BalanceSetup balance_setup(const Variant& variant);

// An estimate with its 95% interval.
struct Estimate {
  double value = 0, low = 0, high = 0;
};

// Mean of per-game values with a 95% normal-approximation interval, mean ± 1.96·s/√n (s the
// sample standard deviation), clipped to [lowest, highest]. With fewer than two values the
// interval is the whole range.
Estimate mean_interval(std::span<const double> values, double lowest, double highest);
// Wilson score interval (95%) of a proportion `successes / trials`; [0, 1] when trials is 0.
Estimate wilson_interval(int successes, int trials);

struct SeatScore {
  std::string seat;
  Estimate team;        // the seat's team result
  Estimate individual;  // the sources' individual ranking score
};
std::vector<SeatScore> seat_scores(const BalanceSetup& setup, std::span<const BalanceGame> games);

struct TeamScore {
  std::string team;  // its seats' names joined with '+'
  Estimate score;
};
std::vector<TeamScore> team_scores(const BalanceSetup& setup, std::span<const BalanceGame> games);

// The first seat's team score minus the mean team score of all seats in the same game (0.5 in
// every two-team game, so this is "score − 0.5"), averaged over games with a normal interval.
Estimate first_move_advantage(const BalanceSetup& setup, std::span<const BalanceGame> games);

// A game is drawn when every seat's team score is the same.
bool is_draw(const BalanceGame& game);

// Games decided within `plies` plies (ten moves a side by default). Weak bots fall into the same
// opening trap again and again, and those few-move wins can carry a whole first-move advantage;
// the advantage over the other games says how much of it the rest of the game holds.
constexpr int kMiniaturePlies = 20;
struct Miniatures {
  int plies = kMiniaturePlies;
  int games = 0;              // decided within `plies`
  Estimate share;             // of all games (Wilson interval)
  int longer_games = 0;       // every other game, drawn ones included
  Estimate longer_advantage;  // first-move advantage over those
};
Miniatures miniatures(const BalanceSetup& setup, std::span<const BalanceGame> games,
                      int plies = kMiniaturePlies);
struct DrawRate {
  int draws = 0, games = 0;
  Estimate rate;  // Wilson interval
};
DrawRate draw_rate(std::span<const BalanceGame> games);

struct TerminationShare {
  std::string termination;
  int count = 0;
  double share = 0;  // of all games
};
// Most frequent first (ties by name).
std::vector<TerminationShare> terminations(std::span<const BalanceGame> games);

struct HistogramBin {
  int low = 0, high = 0;  // plies in [low, high)
  int count = 0;
};
struct LengthStats {
  double mean = 0, median = 0, q1 = 0, q3 = 0;  // quartiles by linear interpolation
  int min = 0, max = 0;
  std::vector<HistogramBin> histogram;  // equal "round" widths, about 10-20 bins
  std::vector<int> sorted_plies;        // every game's length, for plots on common bins
};
LengthStats length_stats(std::span<const BalanceGame> games);
// The p-quantile (0..1) of sorted values by linear interpolation between order statistics
// (Hyndman and Fan's type 7, numpy's default).
double quantile(std::span<const double> sorted, double p);

struct OpeningStats {
  int plies = 0;     // sequence length considered
  int distinct = 0;  // distinct sequences among the games
  double entropy_bits = 0;
  double top_share = 0;
  std::vector<std::pair<std::string, int>> most_common;  // up to five, most frequent first
};
// Diversity of the first `plies` moves (shorter games count with all their moves).
OpeningStats opening_stats(std::span<const BalanceGame> games, int plies);

// Piece values by regression: see fit_piece_values.
struct PieceValue {
  std::string piece;
  bool estimated = false;  // false: too few positions where the armies' counts differ
  double coefficient = 0;  // change of the first team's score per extra piece
  double standard_error = 0;
  std::optional<Estimate> scaled;  // relative to the reference piece, when there is one
};
struct PieceValueFit {
  std::vector<PieceValue> pieces;  // non-royal types, in the variant's order
  std::string reference;           // the piece valued 1, or empty when none is meaningful
  int positions = 0, games = 0;    // rows and clusters of the regression
  double intercept = 0;
  double ridge = 0;
  std::string note;  // why there is no fit, or empty
};
struct PieceValueOptions {
  double ridge = 1.0;         // λ of the ridge penalty (not applied to the intercept)
  int min_unequal_rows = 10;  // a type needs this many positions with unequal counts
  int min_ply = 1;            // snapshots before this ply are left out (the start is level)
};
// Least squares with a small ridge of y = seat 0's team score on x_t = seat 0's team count of
// type t minus the mean count of the other teams, over every material snapshot of every game,
// with an intercept. Standard errors are cluster-robust by game (snapshots of one game share its
// result). Values are scaled so the pawn (or, without a meaningful pawn coefficient, the weakest
// type whose coefficient is significantly positive) is 1, with delta-method intervals.
PieceValueFit fit_piece_values(const BalanceSetup& setup, std::span<const BalanceGame> games,
                               const PieceValueOptions& options = {});

// ---- Team balance (four-seat variants; balance_team.cpp) ----

// A seat's score by its place in the turn order (1st mover .. last mover).
struct SeatOrderScore {
  int position = 0;  // 1-based place in the turn order
  std::string seat;
  Estimate team, individual;
};
std::vector<SeatOrderScore> seat_order_scores(const BalanceSetup& setup,
                                              std::span<const BalanceGame> games);

// How often a seat is the first to drop out, over the games that record drop-outs.
struct DropoutFirst {
  std::string seat;
  int first = 0, games = 0;  // games: with a drop-out record
  Estimate share;            // Wilson interval
};
std::vector<DropoutFirst> dropout_first(const BalanceSetup& setup,
                                        std::span<const BalanceGame> games);

// A seat's individual ranking: mean place (1 best) and share of first places.
struct SeatRanking {
  std::string seat;
  int games = 0;         // games with a rank record
  Estimate mean_rank;    // normal interval, within [1, seats]
  Estimate first_share;  // Wilson interval
};
std::vector<SeatRanking> seat_rankings(const BalanceSetup& setup,
                                       std::span<const BalanceGame> games);

// Difference of two independent means (a − b) with a 95% normal interval, √(s²a/na + s²b/nb).
Estimate mean_difference(std::span<const double> a, std::span<const double> b);

// The agents on the seats of a column ("uniform@8" each), from its first game; empty when the
// games do not record them.
std::vector<std::string> seat_agents(std::span<const BalanceGame> games);

struct TeamBalance {
  std::vector<SeatOrderScore> order;
  std::vector<DropoutFirst> dropout_first;
  std::vector<SeatRanking> ranking;
  std::vector<std::string> agents;  // per seat
};
// For variants of more than two seats (teamed or each for themselves); nullopt otherwise.
std::optional<TeamBalance> team_balance(const BalanceSetup& setup,
                                        std::span<const BalanceGame> games);

// Everything the report shows for one variant at one strength.
struct BalanceStats {
  std::string variant, strength;
  int games = 0;
  std::vector<SeatScore> seats;
  std::vector<TeamScore> teams;
  Estimate first_move_advantage;
  Miniatures miniatures;
  DrawRate draws;
  std::vector<TerminationShare> terminations;
  LengthStats length;
  OpeningStats openings2, openings4;
  PieceValueFit piece_values;
  std::optional<TeamBalance> team;  // four-seat team variants
  // Per seat and team, each game's scores (for differences between columns).
  std::vector<std::vector<double>> team_score_samples;  // [team][game]
};
BalanceStats balance_stats(const BalanceSetup& setup, std::span<const BalanceGame> games);

}  // namespace fairyzero
