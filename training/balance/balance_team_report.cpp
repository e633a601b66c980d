// The report's "Team balance" section for four-seat team variants: seat-order scores, who drops
// out first, individual rankings, and "who carries the team" across columns whose seats had
// different agents (--seat-bot, --seat-visits).
#include <algorithm>

#include "training/balance/balance_document.h"

namespace fairyzero::balance_document {
namespace {

bool is_team_column(const BalanceColumn& c) { return c.stats.team.has_value(); }

// "white-low: 0.500 [0.2, 0.8]" for the i-th entry of a column's list, or "-".
template <typename List, typename Cell>
std::string entry(const BalanceColumn& c, size_t i, List&& list, Cell&& cell) {
  if (!c.stats.team) return "-";
  const auto& items = list(*c.stats.team);
  return i < items.size() ? cell(items[i]) : std::string("-");
}

// Games that do not record drop-outs and ranks (a training run's records, balance --records).
constexpr const char* kNotRecorded = "not recorded";

bool mixed_agents(const BalanceColumn& c) {
  const std::vector<std::string>& a = c.stats.team->agents;
  return !a.empty() && std::adjacent_find(a.begin(), a.end(), std::not_equal_to<>()) != a.end();
}

// The baseline of a column with mixed agents: the first column of the same variant whose
// seats all play the agent most seats of this column play.
const BalanceColumn* baseline_of(const BalanceColumn& c, const std::vector<BalanceColumn>& all) {
  const std::vector<std::string>& a = c.stats.team->agents;
  std::string common;
  size_t most = 0;
  for (const std::string& label : a)
    if (static_cast<size_t>(std::count(a.begin(), a.end(), label)) > most) {
      most = std::count(a.begin(), a.end(), label);
      common = label;
    }
  for (const BalanceColumn& b : all)
    if (is_team_column(b) && !mixed_agents(b) && b.stats.variant == c.stats.variant &&
        !b.stats.team->agents.empty() && b.stats.team->agents.front() == common)
      return &b;
  return nullptr;
}

void carry_table(Document& d, const std::vector<BalanceColumn>& team_columns, size_t seats) {
  bool any_mixed = false;
  for (const BalanceColumn& c : team_columns) any_mixed = any_mixed || mixed_agents(c);
  if (!any_mixed) return;
  heading(d, "Who carries the team", 3);
  paragraph(d,
            "Columns where seats had different agents (--seat-bot, --seat-visits) next to the "
            "baseline column with the same agent on every seat. A team's change is its score "
            "minus its score in the baseline column (independent games, normal interval); each "
            "partner's individual score shows which seat carries the team.");
  std::vector<std::vector<std::string>> rows{header(team_columns, "")};
  for (size_t i = 0; i < seats; ++i)
    rows.push_back(
        row(team_columns, "seat " + std::to_string(i + 1) + " agent", [&](const BalanceColumn& c) {
          const auto& a = c.stats.team->agents;
          return i < a.size() ? c.stats.seats[i].seat + ": " + a[i] : "-";
        }));
  size_t teams = 0;
  for (const BalanceColumn& c : team_columns) teams = std::max(teams, c.stats.teams.size());
  for (size_t t = 0; t < teams; ++t) {
    rows.push_back(
        row(team_columns, "team " + std::to_string(t + 1) + " score", [&](const BalanceColumn& c) {
          return t < c.stats.teams.size()
                     ? c.stats.teams[t].team + ": " + interval(c.stats.teams[t].score)
                     : std::string("-");
        }));
    rows.push_back(row(team_columns, "team " + std::to_string(t + 1) + " change from baseline",
                       [&](const BalanceColumn& c) {
                         const BalanceColumn* b =
                             mixed_agents(c) ? baseline_of(c, team_columns) : nullptr;
                         if (!b || t >= c.stats.team_score_samples.size() ||
                             t >= b->stats.team_score_samples.size())
                           return std::string("-");
                         return signed_interval(mean_difference(c.stats.team_score_samples[t],
                                                                b->stats.team_score_samples[t])) +
                                " vs " + b->label();
                       }));
  }
  for (size_t i = 0; i < seats; ++i)
    rows.push_back(row(
        team_columns, "seat " + std::to_string(i + 1) + " individual", [&](const BalanceColumn& c) {
          return i < c.stats.seats.size()
                     ? c.stats.seats[i].seat + ": " + interval(c.stats.seats[i].individual)
                     : std::string("-");
        }));
  table(d, rows);
}

}  // namespace

void team_balance_section(Document& d, const std::vector<BalanceColumn>& columns,
                          const std::vector<std::string>& plots) {
  std::vector<BalanceColumn> team_columns;
  for (const BalanceColumn& c : columns)
    if (is_team_column(c)) team_columns.push_back(c);
  if (team_columns.empty()) return;
  size_t seats = 0;
  for (const BalanceColumn& c : team_columns) seats = std::max(seats, c.stats.seats.size());
  heading(d, "Team balance");
  paragraph(d,
            "Variants of more than two seats: the team score of each seat by its place in the "
            "turn order (a seat's own score where each plays for itself), how often each seat "
            "is the first to drop out, and the individual ranking (place 1 best, ties share the "
            "best place). 95% intervals: normal for means, Wilson for shares.");

  std::vector<std::vector<std::string>> order{header(team_columns, "turn order")};
  for (size_t i = 0; i < seats; ++i)
    order.push_back(
        row(team_columns, "mover " + std::to_string(i + 1), [&](const BalanceColumn& c) {
          return entry(
              c, i, [](const TeamBalance& t) -> const auto& { return t.order; },
              [](const SeatOrderScore& s) { return s.seat + ": " + interval(s.team); });
        }));
  table(d, order);
  image(d, plots, "seat_order.png");

  std::vector<std::vector<std::string>> dropout{header(team_columns, "first out")};
  for (size_t i = 0; i < seats; ++i)
    dropout.push_back(
        row(team_columns, "seat " + std::to_string(i + 1), [&](const BalanceColumn& c) {
          return entry(
              c, i, [](const TeamBalance& t) -> const auto& { return t.dropout_first; },
              [](const DropoutFirst& x) {
                if (x.games == 0) return x.seat + ": " + kNotRecorded;
                return x.seat + ": " + std::to_string(x.first) + "/" + std::to_string(x.games) +
                       " = " + interval(x.share);
              });
        }));
  table(d, dropout);

  std::vector<std::vector<std::string>> ranking{header(team_columns, "ranking")};
  for (size_t i = 0; i < seats; ++i) {
    ranking.push_back(row(
        team_columns, "seat " + std::to_string(i + 1) + " mean rank", [&](const BalanceColumn& c) {
          return entry(
              c, i, [](const TeamBalance& t) -> const auto& { return t.ranking; },
              [](const SeatRanking& r) {
                return r.seat + ": " + (r.games == 0 ? kNotRecorded : interval(r.mean_rank));
              });
        }));
    ranking.push_back(row(team_columns, "seat " + std::to_string(i + 1) + " first places",
                          [&](const BalanceColumn& c) {
                            return entry(
                                c, i, [](const TeamBalance& t) -> const auto& { return t.ranking; },
                                [](const SeatRanking& r) {
                                  if (r.games == 0) return std::string(kNotRecorded);
                                  return percent(r.first_share.value) + " " +
                                         interval(r.first_share);
                                });
                          }));
  }
  table(d, ranking);
  carry_table(d, team_columns, seats);
}

}  // namespace fairyzero::balance_document
