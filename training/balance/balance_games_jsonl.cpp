// Reading games.jsonl back (the balance tool's game records, written by append_games_jsonl in
// balance_report.cpp), so an interrupted report resumes from the columns it finished.
#include <cmath>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>

#include "core/errors.h"
#include "training/balance/balance_report.h"

namespace fairyzero {
namespace {

using Json = nlohmann::json;

// game_json writes a score that is not finite as null.
std::vector<double> numbers(const Json& values) {
  std::vector<double> out;
  for (const Json& x : values)
    out.push_back(x.is_null() ? std::numeric_limits<double>::quiet_NaN() : x.get<double>());
  return out;
}

}  // namespace

BalanceGame game_from_json(const std::string& line) {
  const Json j = Json::parse(line);
  BalanceGame g;
  g.variant = j.at("variant").get<std::string>();
  g.strength = j.at("strength").get<std::string>();
  g.termination = j.at("termination").get<std::string>();
  g.plies = j.at("plies").get<int>();
  g.team_score = numbers(j.at("team_score"));
  g.individual = numbers(j.at("individual"));
  g.rank = j.at("rank").get<std::vector<int>>();
  g.dropout_order = j.at("dropout_order").get<std::vector<int>>();
  g.seat_agent = j.at("seat_agent").get<std::vector<std::string>>();
  g.moves = j.at("moves").get<std::vector<std::string>>();
  for (const Json& m : j.at("material"))
    g.material.push_back(
        {m.at("ply").get<int>(), m.at("count").get<std::vector<std::vector<int>>>()});
  const size_t seats = g.team_score.size();
  if (g.individual.size() != seats || g.rank.size() != seats || g.dropout_order.size() != seats ||
      g.seat_agent.size() != seats)
    throw std::invalid_argument(
        "team_score, individual, rank, dropout_order and seat_agent "
        "differ in length");
  return g;
}

std::vector<BalanceGame> read_games_jsonl(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw UserError(path + ": cannot read the game records");
  std::vector<BalanceGame> games;
  int number = 0;
  for (std::string line; std::getline(in, line);) {
    ++number;
    if (line.empty()) continue;
    try {
      games.push_back(game_from_json(line));
    } catch (const std::exception& e) {  // nlohmann's parse, type and out-of-range errors
      throw UserError(path + " line " + std::to_string(number) + ": not a balance game record (" +
                      e.what() + ")");
    }
  }
  return games;
}

}  // namespace fairyzero
