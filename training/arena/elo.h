// Match statistics from win/draw/loss counts: score, Elo difference with a 95% interval,
// likelihood of superiority, and a sequential probability ratio test (SPRT). Formulas in
// docs/ARENA.md.
#pragma once

#include <string>

namespace fairyzero {

// Results of one player against another, from the first player's side.
struct GameCounts {
  int wins = 0, draws = 0, losses = 0;
  int games() const { return wins + draws + losses; }
  // (wins + draws / 2) / games; 0.5 before any game.
  double score() const;
};

// The logistic Elo model: the expected score of a player `elo` points stronger is
// 1 / (1 + 10^(-elo / 400)), and its inverse elo = -400 log10(1 / score - 1). elo_from_score
// needs 0 < score < 1 and throws std::invalid_argument otherwise.
double score_from_elo(double elo);
double elo_from_score(double score);

// Elo difference (first minus second) with a 95% interval.
//
// The score s is the mean of the per-game scores x (1, 1/2, 0) and its variance the trinomial
// one, var = (W (1 - s)^2 + D (1/2 - s)^2 + L s^2) / n; the score's 95% interval is
// s ± 1.96 sqrt(var / n), and its ends become Elo through elo_from_score.
//
// When every game has the same result (all wins, all draws or all losses) there is no spread
// to measure and an all-win score would be infinitely many Elo, so the counts get one virtual
// game split into half a win and half a loss (n + 1 games). Every score turned into Elo is
// kept within [e, 1 - e], e = 1 / (2 (n + 1)), which is where n wins and that virtual game
// land: an estimate never claims more than one more half-game would show, and no value is
// infinite. With no games everything is 0.
struct EloEstimate {
  int games = 0;
  double score = 0.5;
  double score_margin = 0;  // half-width of the score's 95% interval
  double elo = 0, elo_low = 0, elo_high = 0;
  bool regularized = false;  // the virtual half-win, half-loss game was added
};
EloEstimate estimate_elo(const GameCounts& counts);

// Likelihood of superiority: the probability that the first player is the stronger, from the
// decisive games only (draws say nothing about which is stronger):
// LOS = Phi((W - L) / sqrt(W + L)) = (1 + erf((W - L) / sqrt(2 (W + L)))) / 2; 0.5 with no
// decisive game.
double likelihood_of_superiority(const GameCounts& counts);

// The SPRT of H0: elo = elo0 against H1: elo = elo1 (logistic Elo), with error rates alpha
// (accepting H1 when H0 holds) and beta (accepting H0 when H1 holds).
struct SprtSettings {
  double elo0 = 0, elo1 = 5, alpha = 0.05, beta = 0.05;
  double lower_bound() const;  // ln(beta / (1 - alpha)): accept H0 at or below
  double upper_bound() const;  // ln((1 - beta) / alpha): accept H1 at or above
};
// "elo0,elo1,alpha,beta", e.g. "0,10,0.05,0.05". Throws std::invalid_argument naming the field.
SprtSettings parse_sprt(const std::string& text);

// Log-likelihood ratio of the generalized SPRT under the logistic-normal model (Van den
// Bergh's approximation, as Fishtest and fastchess use): with s0, s1 the scores of elo0, elo1,
// LLR = n (s1 - s0) (2 s - s0 - s1) / (2 var), s and var as in estimate_elo (including the
// virtual game when every result is the same). 0 with no games.
double sprt_llr(const GameCounts& counts, const SprtSettings& settings);

enum class SprtDecision { kContinue, kAcceptH0, kAcceptH1 };
SprtDecision sprt_decision(double llr, const SprtSettings& settings);
const char* sprt_decision_name(SprtDecision decision);  // "continue", "H0 accepted", ...

}  // namespace fairyzero
