// Team balance statistics of four-seat variants: scores by place in the turn order, who drops
// out first, individual rankings, and differences of scores between columns.
#include <cmath>
#include <numeric>

#include "training/balance/balance.h"

namespace fairyzero {
namespace {

constexpr double kZ95 = 1.959963984540054;  // two-sided 95% normal quantile

std::vector<int> turn_order_of(const BalanceSetup& setup) {
  if (!setup.turn_order.empty()) return setup.turn_order;
  std::vector<int> order(setup.seat_names.size());
  std::iota(order.begin(), order.end(), 0);
  return order;
}

// Mean and variance of the mean (s²/n) of the values.
std::pair<double, double> mean_and_variance(std::span<const double> values) {
  const double n = static_cast<double>(values.size());
  if (n == 0) return {0, 0};
  const double mean = std::accumulate(values.begin(), values.end(), 0.0) / n;
  if (n < 2) return {mean, 0};
  double squares = 0;
  for (double x : values) squares += (x - mean) * (x - mean);
  return {mean, squares / (n - 1) / n};
}

}  // namespace

std::vector<SeatOrderScore> seat_order_scores(const BalanceSetup& setup,
                                              std::span<const BalanceGame> games) {
  const std::vector<SeatScore> seats = seat_scores(setup, games);
  std::vector<SeatOrderScore> out;
  const std::vector<int> order = turn_order_of(setup);
  for (size_t i = 0; i < order.size(); ++i) {
    const SeatScore& s = seats.at(order[i]);
    out.push_back({static_cast<int>(i) + 1, s.seat, s.team, s.individual});
  }
  return out;
}

std::vector<DropoutFirst> dropout_first(const BalanceSetup& setup,
                                        std::span<const BalanceGame> games) {
  const size_t seats = setup.seat_names.size();
  std::vector<DropoutFirst> out;
  for (size_t seat = 0; seat < seats; ++seat) {
    DropoutFirst d{setup.seat_names[seat], 0, 0, {}};
    for (const BalanceGame& g : games) {
      if (g.dropout_order.size() != seats) continue;  // an older record without drop-outs
      ++d.games;
      d.first += g.dropout_order[seat] == 0;
    }
    d.share = wilson_interval(d.first, d.games);
    out.push_back(d);
  }
  return out;
}

std::vector<SeatRanking> seat_rankings(const BalanceSetup& setup,
                                       std::span<const BalanceGame> games) {
  const size_t seats = setup.seat_names.size();
  std::vector<SeatRanking> out;
  for (size_t seat = 0; seat < seats; ++seat) {
    std::vector<double> ranks;
    int first = 0;
    for (const BalanceGame& g : games) {
      if (g.rank.size() != seats) continue;
      ranks.push_back(g.rank[seat]);
      first += g.rank[seat] == 1;
    }
    out.push_back({setup.seat_names[seat], static_cast<int>(ranks.size()),
                   mean_interval(ranks, 1, static_cast<double>(seats)),
                   wilson_interval(first, static_cast<int>(ranks.size()))});
  }
  return out;
}

Estimate mean_difference(std::span<const double> a, std::span<const double> b) {
  const auto [mean_a, var_a] = mean_and_variance(a);
  const auto [mean_b, var_b] = mean_and_variance(b);
  const double d = mean_a - mean_b, half = kZ95 * std::sqrt(var_a + var_b);
  return {d, d - half, d + half};
}

std::vector<std::string> seat_agents(std::span<const BalanceGame> games) {
  return games.empty() ? std::vector<std::string>{} : games.front().seat_agent;
}

std::optional<TeamBalance> team_balance(const BalanceSetup& setup,
                                        std::span<const BalanceGame> games) {
  // Any game of more than two seats, teamed (Irwell) or each for themselves (Double Commedia):
  // the place in the turn order, who drops out and the ranking say what two seats cannot.
  if (setup.seat_names.size() <= 2) return std::nullopt;
  return TeamBalance{seat_order_scores(setup, games), dropout_first(setup, games),
                     seat_rankings(setup, games), seat_agents(games)};
}

}  // namespace fairyzero
