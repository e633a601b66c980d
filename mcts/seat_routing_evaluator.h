// An Evaluator that sends each position to the evaluator of its seat to move: how team variants
// give every seat its own network (or an older generation of it) inside one batched search.
#pragma once

#include <memory>
#include <vector>

#include "mcts/evaluator.h"

namespace fairyzero {

class SeatRoutingEvaluator : public Evaluator {
 public:
  // `per_seat[s]` evaluates the positions where seat s is to move; none may be null. The same
  // evaluator may serve several seats. Throws std::invalid_argument on a null or empty list.
  explicit SeatRoutingEvaluator(std::vector<std::shared_ptr<Evaluator>> per_seat);

  // Splits the batch by the evaluator of the seat to move, submits each share to its evaluator
  // (evaluate_async) before waiting for any, and puts the results back in the batch's order.
  // Thread safe when the seats' evaluators are.
  void evaluate(std::span<const EvalRequest> batch, std::span<Evaluation> out) override;
  // The shares are submitted now; the future's get() waits for them and reassembles.
  std::future<void> evaluate_async(std::span<const EvalRequest> batch,
                                   std::span<Evaluation> out) override;
  // The evaluator of the position's seat to move (throws std::out_of_range for a seat
  // without one).
  Evaluator& evaluator_for(const Position& position) override;
  // "seats(a, b, ...)" with the seats' evaluator names.
  std::string name() const override;

  int seat_count() const { return static_cast<int>(per_seat_.size()); }
  const std::shared_ptr<Evaluator>& seat(int s) const { return per_seat_.at(s); }

 private:
  std::vector<std::shared_ptr<Evaluator>> per_seat_;
};

}  // namespace fairyzero
