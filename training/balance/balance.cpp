// Balance statistics over game records: intervals, terminations, lengths, openings and the
// piece-value regression (Eigen).
#include "training/balance/balance.h"

// GCC 12 warns falsely inside its own AVX-512 intrinsics when Eigen uses them (GCC bug 105593).
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ < 13
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <stdexcept>

namespace fairyzero {
namespace {

constexpr double kZ95 = 1.959963984540054;  // two-sided 95% normal quantile

Estimate clipped(double value, double half_width, double lowest, double highest) {
  return {value, std::max(lowest, value - half_width), std::min(highest, value + half_width)};
}

std::string opening_of(const BalanceGame& game, int plies) {
  std::string text;
  for (int i = 0; i < std::min<int>(plies, static_cast<int>(game.moves.size())); ++i)
    text += (i ? " " : "") + game.moves[i];
  return text.empty() ? "(no move)" : text;
}

// Round histogram width: the smallest 1, 2 or 5 × 10^k giving at most about 15 bins.
int histogram_width(int span) {
  const double raw = std::max(1.0, span / 15.0);
  for (int scale = 1;; scale *= 10)
    for (int step : {1, 2, 5})
      if (step * scale >= raw) return step * scale;
}

// Count of type t held by seat 0's team minus the mean count of the other teams.
double material_difference(const BalanceSetup& setup, const MaterialSnapshot& s, int type) {
  const int teams = setup.team_count();
  const int own = setup.seat_team(0);
  double mine = 0, others = 0;
  for (size_t army = 0; army < s.count.size(); ++army) {
    const int n = type < static_cast<int>(s.count[army].size()) ? s.count[army][type] : 0;
    (setup.army_team[army] == own ? mine : others) += n;
  }
  return teams > 1 ? mine - others / (teams - 1) : 0;
}

// The piece valued 1: the pawn when its coefficient is significantly positive, else the
// smallest significantly positive coefficient; -1 when none is.
int reference_piece(const std::vector<PieceValue>& pieces) {
  auto significant = [](const PieceValue& p) {
    return p.estimated && p.coefficient - kZ95 * p.standard_error > 0;
  };
  for (size_t i = 0; i < pieces.size(); ++i)
    if (pieces[i].piece == "pawn" && significant(pieces[i])) return static_cast<int>(i);
  int best = -1;
  for (size_t i = 0; i < pieces.size(); ++i)
    if (significant(pieces[i]) && (best < 0 || pieces[i].coefficient < pieces[best].coefficient))
      best = static_cast<int>(i);
  return best;
}

}  // namespace

int BalanceSetup::team_count() const {
  return army_team.empty() ? 0 : *std::max_element(army_team.begin(), army_team.end()) + 1;
}

BalanceSetup balance_setup(const Variant& v) {
  BalanceSetup s;
  s.variant = v.name;
  s.title = v.title;
  for (const Seat& seat : v.seats) {
    s.seat_names.push_back(seat.name);
    s.seat_army.push_back(seat.army);
  }
  s.army_team = v.team_of_army;
  for (const PieceType& p : v.pieces) {
    s.piece_names.push_back(p.name);
    s.royal.push_back(p.royal);
  }
  s.first_seat = v.turn_order.empty() ? 0 : v.turn_order.front();
  s.turn_order = v.turn_order;
  return s;
}

Estimate mean_interval(std::span<const double> values, double lowest, double highest) {
  const size_t n = values.size();
  if (n == 0) return {0.5 * (lowest + highest), lowest, highest};
  const double mean = std::accumulate(values.begin(), values.end(), 0.0) / n;
  if (n < 2) return {mean, lowest, highest};
  double squares = 0;
  for (double x : values) squares += (x - mean) * (x - mean);
  const double sd = std::sqrt(squares / (n - 1));
  return clipped(mean, kZ95 * sd / std::sqrt(static_cast<double>(n)), lowest, highest);
}

Estimate wilson_interval(int successes, int trials) {
  if (trials <= 0) return {0, 0, 1};
  const double n = trials, p = successes / n, z2 = kZ95 * kZ95;
  const double centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const double half = kZ95 / (1 + z2 / n) * std::sqrt(p * (1 - p) / n + z2 / (4 * n * n));
  return {p, std::max(0.0, centre - half), std::min(1.0, centre + half)};
}

std::vector<SeatScore> seat_scores(const BalanceSetup& setup, std::span<const BalanceGame> games) {
  std::vector<SeatScore> out;
  for (size_t seat = 0; seat < setup.seat_names.size(); ++seat) {
    std::vector<double> team, individual;
    for (const BalanceGame& g : games) {
      team.push_back(g.team_score.at(seat));
      individual.push_back(g.individual.at(seat));
    }
    out.push_back(
        {setup.seat_names[seat], mean_interval(team, 0, 1), mean_interval(individual, 0, 1)});
  }
  return out;
}

std::vector<TeamScore> team_scores(const BalanceSetup& setup, std::span<const BalanceGame> games) {
  std::vector<TeamScore> out;
  for (int team = 0; team < setup.team_count(); ++team) {
    int member = -1;
    std::string name;
    for (size_t seat = 0; seat < setup.seat_names.size(); ++seat) {
      if (setup.seat_team(static_cast<int>(seat)) != team) continue;
      if (member < 0) member = static_cast<int>(seat);
      name += (name.empty() ? "" : "+") + setup.seat_names[seat];
    }
    if (member < 0) continue;  // a team without seats (cannot score)
    std::vector<double> scores;
    for (const BalanceGame& g : games) scores.push_back(g.team_score.at(member));
    out.push_back({name, mean_interval(scores, 0, 1)});
  }
  return out;
}

Estimate first_move_advantage(const BalanceSetup& setup, std::span<const BalanceGame> games) {
  std::vector<double> advantage;
  for (const BalanceGame& g : games) {
    const double mean =
        std::accumulate(g.team_score.begin(), g.team_score.end(), 0.0) / g.team_score.size();
    advantage.push_back(g.team_score.at(setup.first_seat) - mean);
  }
  return mean_interval(advantage, -1, 1);
}

bool is_draw(const BalanceGame& game) {
  return std::all_of(game.team_score.begin(), game.team_score.end(),
                     [&](double s) { return s == game.team_score.front(); });
}

Miniatures miniatures(const BalanceSetup& setup, std::span<const BalanceGame> games, int plies) {
  Miniatures m;
  m.plies = plies;
  std::vector<BalanceGame> longer;
  for (const BalanceGame& g : games) {
    if (g.plies <= plies && !is_draw(g))
      ++m.games;
    else
      longer.push_back(g);
  }
  m.share = wilson_interval(m.games, static_cast<int>(games.size()));
  m.longer_games = static_cast<int>(longer.size());
  m.longer_advantage = first_move_advantage(setup, longer);
  return m;
}

DrawRate draw_rate(std::span<const BalanceGame> games) {
  DrawRate d;
  d.games = static_cast<int>(games.size());
  d.draws = static_cast<int>(std::count_if(games.begin(), games.end(), is_draw));
  d.rate = wilson_interval(d.draws, d.games);
  return d;
}

std::vector<TerminationShare> terminations(std::span<const BalanceGame> games) {
  std::map<std::string, int> counts;
  for (const BalanceGame& g : games) ++counts[g.termination];
  std::vector<TerminationShare> out;
  for (const auto& [name, count] : counts)
    out.push_back({name, count, static_cast<double>(count) / games.size()});
  std::stable_sort(out.begin(), out.end(),
                   [](const auto& a, const auto& b) { return a.count > b.count; });
  return out;
}

double quantile(std::span<const double> sorted, double p) {
  if (sorted.empty()) return 0;
  const double h = (sorted.size() - 1) * std::clamp(p, 0.0, 1.0);
  const size_t below = static_cast<size_t>(std::floor(h));
  const size_t above = std::min(below + 1, sorted.size() - 1);
  return sorted[below] + (h - below) * (sorted[above] - sorted[below]);
}

LengthStats length_stats(std::span<const BalanceGame> games) {
  LengthStats s;
  if (games.empty()) return s;
  std::vector<double> plies;
  for (const BalanceGame& g : games) plies.push_back(g.plies);
  std::sort(plies.begin(), plies.end());
  s.mean = std::accumulate(plies.begin(), plies.end(), 0.0) / plies.size();
  s.median = quantile(plies, 0.5);
  s.q1 = quantile(plies, 0.25);
  s.q3 = quantile(plies, 0.75);
  s.min = static_cast<int>(plies.front());
  s.max = static_cast<int>(plies.back());
  s.sorted_plies.assign(plies.begin(), plies.end());
  const int width = histogram_width(s.max - s.min + 1);
  for (int low = s.min / width * width; low <= s.max; low += width) {
    HistogramBin bin{low, low + width, 0};
    for (double p : plies) bin.count += p >= bin.low && p < bin.high;
    s.histogram.push_back(bin);
  }
  return s;
}

OpeningStats opening_stats(std::span<const BalanceGame> games, int plies) {
  OpeningStats s;
  s.plies = plies;
  std::map<std::string, int> counts;
  for (const BalanceGame& g : games) ++counts[opening_of(g, plies)];
  s.distinct = static_cast<int>(counts.size());
  const double n = static_cast<double>(games.size());
  for (const auto& [sequence, count] : counts) s.entropy_bits -= count / n * std::log2(count / n);
  std::vector<std::pair<std::string, int>> sorted(counts.begin(), counts.end());
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  if (!sorted.empty()) s.top_share = sorted.front().second / n;
  sorted.resize(std::min<size_t>(sorted.size(), 5));
  s.most_common = sorted;
  s.entropy_bits = std::max(0.0, s.entropy_bits);  // -0 when every game opens alike
  return s;
}

PieceValueFit fit_piece_values(const BalanceSetup& setup, std::span<const BalanceGame> games,
                               const PieceValueOptions& options) {
  PieceValueFit fit;
  fit.ridge = options.ridge;
  // Rows: every snapshot from min_ply on; columns: the types whose counts differ often enough.
  struct Row {
    int game;
    std::vector<double> x;  // by piece type
    double y;
  };
  std::vector<Row> rows;
  for (size_t g = 0; g < games.size(); ++g)
    for (const MaterialSnapshot& s : games[g].material) {
      if (s.ply < options.min_ply) continue;
      Row row{static_cast<int>(g), {}, games[g].team_score.at(0)};
      for (size_t t = 0; t < setup.piece_names.size(); ++t)
        row.x.push_back(material_difference(setup, s, static_cast<int>(t)));
      rows.push_back(std::move(row));
    }
  std::vector<int> columns;  // piece type of each regressor after the intercept
  for (size_t t = 0; t < setup.piece_names.size(); ++t) {
    if (setup.royal[t]) continue;
    PieceValue value{setup.piece_names[t], false, 0, 0, std::nullopt};
    int unequal = 0;
    for (const Row& r : rows) unequal += r.x[t] != 0;
    value.estimated = unequal >= options.min_unequal_rows;
    if (value.estimated) columns.push_back(static_cast<int>(t));
    fit.pieces.push_back(value);
  }
  std::vector<int> clusters;
  for (const Row& r : rows)
    if (clusters.empty() || clusters.back() != r.game) clusters.push_back(r.game);
  fit.positions = static_cast<int>(rows.size());
  fit.games = static_cast<int>(clusters.size());
  const int p = static_cast<int>(columns.size()) + 1;
  if (setup.team_count() < 2)
    fit.note = "one team only: nothing to compare";
  else if (columns.empty())
    fit.note = "no piece type has enough positions with unequal counts";
  else if (fit.games < 3 || fit.positions <= p)
    fit.note = "too few games or positions";
  else if (std::all_of(rows.begin(), rows.end(), [&](const Row& r) { return r.y == rows[0].y; }))
    fit.note = "every game had the same result";
  if (!fit.note.empty()) {
    for (PieceValue& v : fit.pieces) v.estimated = false;
    return fit;
  }

  Eigen::MatrixXd x(fit.positions, p);
  Eigen::VectorXd y(fit.positions);
  for (int i = 0; i < fit.positions; ++i) {
    x(i, 0) = 1;
    for (int c = 1; c < p; ++c) x(i, c) = rows[i].x[columns[c - 1]];
    y(i) = rows[i].y;
  }
  Eigen::MatrixXd a = x.transpose() * x;
  for (int c = 1; c < p; ++c) a(c, c) += options.ridge;
  const Eigen::MatrixXd a_inverse = a.ldlt().solve(Eigen::MatrixXd::Identity(p, p));
  const Eigen::VectorXd beta = a_inverse * (x.transpose() * y);
  const Eigen::VectorXd residual = y - x * beta;
  // Cluster-robust "meat": the score of each game's rows, summed before the outer product.
  Eigen::MatrixXd meat = Eigen::MatrixXd::Zero(p, p);
  Eigen::VectorXd score = Eigen::VectorXd::Zero(p);
  for (int i = 0; i < fit.positions; ++i) {
    score += x.row(i).transpose() * residual(i);
    if (i + 1 == fit.positions || rows[i + 1].game != rows[i].game) {
      meat += score * score.transpose();
      score.setZero();
    }
  }
  const double small_sample = fit.games / (fit.games - 1.0);
  const Eigen::MatrixXd covariance = small_sample * a_inverse * meat * a_inverse;

  fit.intercept = beta(0);
  std::vector<int> column_of(fit.pieces.size(), -1);
  for (size_t i = 0, c = 1; i < fit.pieces.size(); ++i) {
    PieceValue& v = fit.pieces[i];
    if (!v.estimated) continue;
    column_of[i] = static_cast<int>(c);
    v.coefficient = beta(c);
    v.standard_error = std::sqrt(std::max(0.0, covariance(c, c)));
    ++c;
  }
  const int ref = reference_piece(fit.pieces);
  if (ref < 0) return fit;
  fit.reference = fit.pieces[ref].piece;
  const int r = column_of[ref];
  const double b_ref = beta(r);
  for (size_t i = 0; i < fit.pieces.size(); ++i) {
    if (column_of[i] < 0) continue;
    const int c = column_of[i];
    const double ratio = beta(c) / b_ref;
    // Delta method for a ratio of two correlated estimates.
    const double variance =
        (covariance(c, c) - 2 * ratio * covariance(c, r) + ratio * ratio * covariance(r, r)) /
        (b_ref * b_ref);
    const double half = static_cast<int>(i) == ref ? 0 : kZ95 * std::sqrt(std::max(0.0, variance));
    fit.pieces[i].scaled = Estimate{ratio, ratio - half, ratio + half};
  }
  return fit;
}

BalanceStats balance_stats(const BalanceSetup& setup, std::span<const BalanceGame> games) {
  for (const BalanceGame& g : games)
    if (g.team_score.size() != setup.seat_names.size() ||
        g.individual.size() != setup.seat_names.size())
      throw std::invalid_argument("balance_stats: a game of " + g.variant + " has " +
                                  std::to_string(g.team_score.size()) + " seat scores, not " +
                                  std::to_string(setup.seat_names.size()));
  BalanceStats s;
  s.variant = setup.variant;
  s.strength = games.empty() ? "" : games.front().strength;
  s.games = static_cast<int>(games.size());
  s.seats = seat_scores(setup, games);
  s.teams = team_scores(setup, games);
  s.first_move_advantage = first_move_advantage(setup, games);
  s.miniatures = miniatures(setup, games);
  s.draws = draw_rate(games);
  s.terminations = terminations(games);
  s.length = length_stats(games);
  s.openings2 = opening_stats(games, 2);
  s.openings4 = opening_stats(games, 4);
  s.piece_values = fit_piece_values(setup, games, {});
  s.team = team_balance(setup, games);
  for (int team = 0; team < setup.team_count(); ++team) {
    int member = -1;
    for (size_t seat = 0; seat < setup.seat_names.size() && member < 0; ++seat)
      if (setup.seat_team(static_cast<int>(seat)) == team) member = static_cast<int>(seat);
    if (member < 0) continue;
    std::vector<double>& samples = s.team_score_samples.emplace_back();
    for (const BalanceGame& g : games) samples.push_back(g.team_score[member]);
  }
  return s;
}

}  // namespace fairyzero
