// Elo, likelihood of superiority and SPRT from win/draw/loss counts (formulas in elo.h).
#include "training/arena/elo.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "core/errors.h"

namespace fairyzero {
namespace {

constexpr double kZ95 = 1.959963984540054;  // two-sided 95% quantile of the normal law

// Mean and per-game variance of the scores, with the virtual half-win, half-loss game added
// when every game had the same result (see estimate_elo in elo.h).
struct ScoreMoments {
  double games = 0, mean = 0.5, variance = 0;
  bool regularized = false;
};

ScoreMoments score_moments(const GameCounts& counts) {
  ScoreMoments m;
  double wins = counts.wins, draws = counts.draws, losses = counts.losses;
  int n = counts.games();
  if (n == 0) return m;
  if (counts.wins == n || counts.draws == n || counts.losses == n) {
    wins += 0.5;
    losses += 0.5;
    m.regularized = true;
  }
  m.games = wins + draws + losses;
  m.mean = (wins + 0.5 * draws) / m.games;
  m.variance = (wins * (1 - m.mean) * (1 - m.mean) + draws * (0.5 - m.mean) * (0.5 - m.mean) +
                losses * m.mean * m.mean) /
               m.games;
  return m;
}

}  // namespace

double GameCounts::score() const {
  int n = games();
  return n ? (wins + 0.5 * draws) / n : 0.5;
}

double score_from_elo(double elo) { return 1 / (1 + std::pow(10.0, -elo / 400)); }

double elo_from_score(double score) {
  if (!(score > 0 && score < 1))
    throw std::invalid_argument("elo_from_score: the score must be strictly between 0 and 1, not " +
                                std::to_string(score));
  return -400 * std::log10(1 / score - 1);
}

EloEstimate estimate_elo(const GameCounts& counts) {
  EloEstimate e;
  e.games = counts.games();
  if (e.games == 0) return e;
  ScoreMoments m = score_moments(counts);
  double edge = 1 / (2.0 * (e.games + 1));
  auto elo_of = [&](double s) { return elo_from_score(std::clamp(s, edge, 1 - edge)); };
  e.score = counts.score();
  e.regularized = m.regularized;
  e.score_margin = kZ95 * std::sqrt(m.variance / m.games);
  e.elo = elo_of(m.mean);
  e.elo_low = elo_of(m.mean - e.score_margin);
  e.elo_high = elo_of(m.mean + e.score_margin);
  return e;
}

double likelihood_of_superiority(const GameCounts& counts) {
  int decisive = counts.wins + counts.losses;
  if (decisive == 0) return 0.5;
  return 0.5 * (1 + std::erf((counts.wins - counts.losses) / std::sqrt(2.0 * decisive)));
}

double SprtSettings::lower_bound() const { return std::log(beta / (1 - alpha)); }
double SprtSettings::upper_bound() const { return std::log((1 - beta) / alpha); }

SprtSettings parse_sprt(const std::string& text) {
  std::vector<double> fields;
  std::stringstream stream(text);
  const char* names[] = {"elo0", "elo1", "alpha", "beta"};
  for (std::string field; std::getline(stream, field, ',');) {
    size_t used = 0;
    double value = 0;
    try {
      value = std::stod(field, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (fields.size() >= 4 || used == 0 || used != field.size())
      throw SettingError("--sprt '" + text + "': expected elo0,elo1,alpha,beta (" +
                         (fields.size() < 4
                              ? std::string(names[fields.size()]) + " is '" + field + "'"
                              : "more than four numbers") +
                         ")");
    fields.push_back(value);
  }
  if (fields.size() != 4)
    throw SettingError("--sprt '" + text + "': expected four numbers elo0,elo1,alpha,beta");
  SprtSettings s{fields[0], fields[1], fields[2], fields[3]};
  if (!(s.elo1 > s.elo0))
    throw SettingError("--sprt '" + text + "': elo1 must be greater than elo0");
  for (double rate : {s.alpha, s.beta})
    if (!(rate > 0 && rate < 0.5))
      throw SettingError("--sprt '" + text + "': alpha and beta must be in (0, 0.5)");
  return s;
}

double sprt_llr(const GameCounts& counts, const SprtSettings& settings) {
  if (counts.games() == 0) return 0;
  ScoreMoments m = score_moments(counts);
  if (m.variance <= 0) return 0;
  double s0 = score_from_elo(settings.elo0), s1 = score_from_elo(settings.elo1);
  return m.games * (s1 - s0) * (2 * m.mean - s0 - s1) / (2 * m.variance);
}

SprtDecision sprt_decision(double llr, const SprtSettings& settings) {
  if (llr >= settings.upper_bound()) return SprtDecision::kAcceptH1;
  if (llr <= settings.lower_bound()) return SprtDecision::kAcceptH0;
  return SprtDecision::kContinue;
}

const char* sprt_decision_name(SprtDecision decision) {
  switch (decision) {
    case SprtDecision::kContinue: return "continue";
    case SprtDecision::kAcceptH0: return "H0 accepted";
    case SprtDecision::kAcceptH1: return "H1 accepted";
  }
  return "?";
}

}  // namespace fairyzero
