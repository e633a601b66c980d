// The arena's statistics against values computed by hand (each derivation in a comment): Elo of a
// score, the 95% interval, likelihood of superiority, SPRT log-likelihood ratios and bounds, and
// perfect or all-drawn scores staying finite.
#include "training/arena/elo.h"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

#include "core/errors.h"

namespace fairyzero {
namespace {

TEST(Elo, LogisticModelKnownValues) {
  // elo = -400 log10(1/s - 1): s = 0.75 gives 400 log10(3) = 190.8485; s = 0.9, 400 log10(9).
  EXPECT_NEAR(elo_from_score(0.75), 190.8485, 1e-4);
  EXPECT_NEAR(elo_from_score(0.25), -190.8485, 1e-4);
  EXPECT_NEAR(elo_from_score(0.9), 381.6970, 1e-4);
  EXPECT_NEAR(elo_from_score(0.5), 0.0, 1e-12);
  // 1 / (1 + 10^(-100/400)) = 0.640065.
  EXPECT_NEAR(score_from_elo(100), 0.640065, 1e-6);
  EXPECT_NEAR(elo_from_score(score_from_elo(-250)), -250, 1e-9);
  EXPECT_THROW(elo_from_score(0.0), std::invalid_argument);
  EXPECT_THROW(elo_from_score(1.0), std::invalid_argument);
}

TEST(Elo, IntervalFromTheTrinomialVariance) {
  // +6 =2 -2: s = 0.7; var = (6 * 0.3^2 + 2 * 0.2^2 + 2 * 0.7^2) / 10 = 0.16;
  // margin = 1.96 * sqrt(0.16 / 10) = 0.247918; Elo(0.7) = 147.19, Elo(0.452082) = -33.40,
  // Elo(0.947918) = +504.03.
  EloEstimate e = estimate_elo({6, 2, 2});
  EXPECT_EQ(e.games, 10);
  EXPECT_DOUBLE_EQ(e.score, 0.7);
  EXPECT_NEAR(e.score_margin, 0.247918, 1e-6);
  EXPECT_NEAR(e.elo, 147.19, 0.01);
  EXPECT_NEAR(e.elo_low, -33.40, 0.01);
  EXPECT_NEAR(e.elo_high, 504.03, 0.01);
  EXPECT_FALSE(e.regularized);
}

TEST(Elo, PerfectAndAllDrawnScoresStayFinite) {
  // 10 wins: one virtual half-win, half-loss game gives 10.5 / 11 = 0.954545, which is also
  // the highest score turned into Elo (1 - 1/22): Elo = 400 log10(21) = 528.89, the upper end
  // equal to it. var = s (1 - s) = 0.043388, margin = 1.96 sqrt(var / 11) = 0.123095, so the
  // lower end is Elo(0.831451) = 277.24.
  EloEstimate wins = estimate_elo({10, 0, 0});
  EXPECT_TRUE(wins.regularized);
  EXPECT_DOUBLE_EQ(wins.score, 1.0);  // the score reported is the real one
  EXPECT_NEAR(wins.elo, 528.89, 0.01);
  EXPECT_NEAR(wins.elo_high, 528.89, 0.01);
  EXPECT_NEAR(wins.elo_low, 277.24, 0.01);
  EloEstimate losses = estimate_elo({0, 0, 10});
  EXPECT_NEAR(losses.elo, -528.89, 0.01);
  EXPECT_NEAR(losses.elo_high, -277.24, 0.01);
  // 10 draws: 11 games with var = (0.5 * 0.25 * 2) / 11, margin = 1.96 * 0.5 / 11 = 0.089089,
  // Elo(0.589089) = 62.57.
  EloEstimate draws = estimate_elo({0, 10, 0});
  EXPECT_NEAR(draws.elo, 0.0, 1e-9);
  EXPECT_NEAR(draws.elo_high, 62.57, 0.01);
  EXPECT_NEAR(draws.elo_low, -62.57, 0.01);
  // One game: everything stays finite.
  for (GameCounts one : {GameCounts{1, 0, 0}, GameCounts{0, 1, 0}, GameCounts{0, 0, 1}}) {
    EloEstimate e = estimate_elo(one);
    EXPECT_TRUE(std::isfinite(e.elo) && std::isfinite(e.elo_low) && std::isfinite(e.elo_high));
    EXPECT_TRUE(std::isfinite(sprt_llr(one, SprtSettings{})));
  }
  EloEstimate none = estimate_elo({});
  EXPECT_EQ(none.games, 0);
  EXPECT_EQ(none.elo, 0);
}

TEST(Elo, LikelihoodOfSuperiority) {
  // +10 -5: Phi(5 / sqrt(15)) = (1 + erf(5 / sqrt(30))) / 2 = 0.901647; draws do not count.
  EXPECT_NEAR(likelihood_of_superiority({10, 0, 5}), 0.901647, 1e-6);
  EXPECT_NEAR(likelihood_of_superiority({10, 40, 5}), 0.901647, 1e-6);
  EXPECT_NEAR(likelihood_of_superiority({5, 3, 10}), 1 - 0.901647, 1e-6);
  EXPECT_DOUBLE_EQ(likelihood_of_superiority({4, 2, 4}), 0.5);
  EXPECT_DOUBLE_EQ(likelihood_of_superiority({0, 7, 0}), 0.5);
}

TEST(Sprt, BoundsAndLogLikelihoodRatios) {
  SprtSettings t = parse_sprt("0,10,0.05,0.05");
  // ln(0.05 / 0.95) = -2.944439 and its opposite.
  EXPECT_NEAR(t.lower_bound(), -2.944439, 1e-6);
  EXPECT_NEAR(t.upper_bound(), 2.944439, 1e-6);
  // s0 = 0.5, s1 = 1 / (1 + 10^(-10/400)) = 0.514387.
  // +60 =20 -20: s = 0.7, var = 0.16 (as above, per game); LLR = n (s1 - s0) (2s - s0 - s1) /
  // (2 var) = 100 * 0.014387 * 0.385613 / 0.32 = 1.733713.
  EXPECT_NEAR(sprt_llr({60, 20, 20}, t), 1.733713, 1e-5);
  EXPECT_EQ(sprt_decision(sprt_llr({60, 20, 20}, t), t), SprtDecision::kContinue);
  // +250 =500 -250: s = 0.5, var = 0.125; LLR = 1000 * 0.014387 * (-0.014387) / 0.25 = -0.82796.
  EXPECT_NEAR(sprt_llr({250, 500, 250}, t), -0.827964, 1e-5);
  // Ten times that many games: ten times the LLR, past the lower bound.
  EXPECT_NEAR(sprt_llr({2500, 5000, 2500}, t), -8.27964, 1e-4);
  EXPECT_EQ(sprt_decision(-8.28, t), SprtDecision::kAcceptH0);
  // Two wins against H1 = +300: virtual game gives 2.5/3, var = s (1 - s) = 0.138889,
  // s1 = 0.849020: LLR = 3 * 0.349020 * (1.666667 - 1.349020) / 0.277778 = 1.197342.
  SprtSettings wide = parse_sprt("0,300,0.3,0.3");
  EXPECT_NEAR(sprt_llr({2, 0, 0}, wide), 1.197342, 1e-5);
  EXPECT_EQ(sprt_decision(1.197342, wide), SprtDecision::kAcceptH1);  // bound ln(0.7/0.3) = 0.85
  EXPECT_EQ(sprt_llr({}, t), 0);
}

TEST(Sprt, ParseRefusesBadSettingsNamingTheField) {
  auto message = [](const std::string& text) {
    try {
      parse_sprt(text);
    } catch (const SettingError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_NE(message("0,10,0.05").find("four numbers"), std::string::npos);
  EXPECT_NE(message("0,x,0.05,0.05").find("elo1"), std::string::npos);
  EXPECT_NE(message("10,0,0.05,0.05").find("elo1 must be greater"), std::string::npos);
  EXPECT_NE(message("0,10,0.7,0.05").find("alpha and beta"), std::string::npos);
  EXPECT_NE(message("0,10,0.05,0.05,1").find("more than four"), std::string::npos);
}

}  // namespace
}  // namespace fairyzero
