// Evaluators that need no network: uniform (tests, and a zero-cost baseline for measuring the
// search itself) and material (a cheap baseline that knows captures are good).
#pragma once

#include <vector>

#include "mcts/evaluator.h"

namespace fairyzero {

// Equal logits for every move; every seat's expected score 0.5.
class UniformEvaluator : public Evaluator {
 public:
  void evaluate(std::span<const EvalRequest> batch, std::span<Evaluation> out) override;
  std::string name() const override { return "uniform"; }
};

// Material balance with piece values estimated from mobility (the mean number of destinations
// of the piece on the empty board), so it works for any variant without tuning. The expected
// score of each team is a softmax over team material in units of the mean piece value; priors
// favour captures and promotions by the material they win.
class MaterialEvaluator : public Evaluator {
 public:
  explicit MaterialEvaluator(const Variant& variant);
  void evaluate(std::span<const EvalRequest> batch, std::span<Evaluation> out) override;
  std::string name() const override { return "material"; }
  // Estimated value of each piece type (royal pieces 0), in units of the mean piece value.
  const std::vector<float>& piece_values() const { return values_; }

 private:
  std::vector<float> values_;
};

// The seat values of a finished game or of per-team scores: each seat gets its team's score.
std::array<float, kMaxSeats> seat_values_from_team_scores(const Variant& variant,
                                                          const std::vector<float>& team_scores);

}  // namespace fairyzero
