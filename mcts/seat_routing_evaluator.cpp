// Splitting a batch by seat to move, evaluating the shares at once, and reassembling the
// results in the batch's order.
#include "mcts/seat_routing_evaluator.h"

#include <algorithm>
#include <exception>
#include <future>
#include <stdexcept>

namespace fairyzero {

SeatRoutingEvaluator::SeatRoutingEvaluator(std::vector<std::shared_ptr<Evaluator>> per_seat)
    : per_seat_(std::move(per_seat)) {
  if (per_seat_.empty())
    throw std::invalid_argument("SeatRoutingEvaluator: no evaluators (one per seat needed)");
  for (size_t s = 0; s < per_seat_.size(); ++s)
    if (!per_seat_[s])
      throw std::invalid_argument("SeatRoutingEvaluator: seat " + std::to_string(s) +
                                  " has no evaluator");
}

void SeatRoutingEvaluator::evaluate(std::span<const EvalRequest> batch, std::span<Evaluation> out) {
  const int seats = seat_count();
  // The positions of each distinct evaluator (several seats may share one), in batch order.
  std::vector<Evaluator*> evaluators;
  std::vector<std::vector<size_t>> indices;
  for (size_t i = 0; i < batch.size(); ++i) {
    const int seat = batch[i].position->seat_to_move();
    if (seat < 0 || seat >= seats)
      throw std::out_of_range("SeatRoutingEvaluator: a position has seat " + std::to_string(seat) +
                              " to move, but only " + std::to_string(seats) +
                              " seats have evaluators");
    Evaluator* evaluator = per_seat_[seat].get();
    size_t group = std::find(evaluators.begin(), evaluators.end(), evaluator) - evaluators.begin();
    if (group == evaluators.size()) {
      evaluators.push_back(evaluator);
      indices.emplace_back();
    }
    indices[group].push_back(i);
  }
  if (evaluators.size() == 1) {  // one evaluator: no copying, no threads
    evaluators[0]->evaluate(batch, out);
    return;
  }
  // Every share is submitted before any is waited for: behind inference servers on one device
  // the shares are evaluated together instead of each waiting its turn.
  std::vector<std::vector<EvalRequest>> requests(evaluators.size());
  std::vector<std::vector<Evaluation>> results(evaluators.size());
  auto evaluate_group = [&](size_t group) {
    for (size_t i : indices[group]) requests[group].push_back(batch[i]);
    results[group].resize(requests[group].size());
    evaluators[group]->evaluate(requests[group], results[group]);
  };
  std::vector<std::future<void>> others;
  for (size_t group = 1; group < evaluators.size(); ++group)
    others.push_back(std::async(std::launch::async, evaluate_group, group));
  std::exception_ptr error;
  try {
    evaluate_group(0);
  } catch (...) {
    error = std::current_exception();
  }
  for (std::future<void>& other : others) {
    try {
      other.get();
    } catch (...) {
      if (!error) error = std::current_exception();
    }
  }
  if (error) std::rethrow_exception(error);
  for (size_t group = 0; group < evaluators.size(); ++group)
    for (size_t k = 0; k < indices[group].size(); ++k)
      out[indices[group][k]] = std::move(results[group][k]);
}

std::string SeatRoutingEvaluator::name() const {
  std::string text = "seats(";
  for (size_t s = 0; s < per_seat_.size(); ++s) text += (s ? ", " : "") + per_seat_[s]->name();
  return text + ")";
}

}  // namespace fairyzero
