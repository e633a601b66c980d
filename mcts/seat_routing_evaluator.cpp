// Splitting a batch by seat to move and reassembling the seats' results in the batch's order.
#include "mcts/seat_routing_evaluator.h"

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
  std::vector<std::vector<size_t>> indices(seats);
  for (size_t i = 0; i < batch.size(); ++i) {
    const int seat = batch[i].position->seat_to_move();
    if (seat < 0 || seat >= seats)
      throw std::out_of_range("SeatRoutingEvaluator: a position has seat " + std::to_string(seat) +
                              " to move, but only " + std::to_string(seats) +
                              " seats have evaluators");
    indices[seat].push_back(i);
  }
  std::vector<EvalRequest> requests;
  std::vector<Evaluation> results;
  for (int seat = 0; seat < seats; ++seat) {
    if (indices[seat].empty()) continue;
    // A batch of one seat only needs no copying.
    if (indices[seat].size() == batch.size()) {
      per_seat_[seat]->evaluate(batch, out);
      return;
    }
    requests.clear();
    for (size_t i : indices[seat]) requests.push_back(batch[i]);
    results.assign(requests.size(), Evaluation{});
    per_seat_[seat]->evaluate(requests, results);
    for (size_t k = 0; k < indices[seat].size(); ++k) out[indices[seat][k]] = std::move(results[k]);
  }
}

std::string SeatRoutingEvaluator::name() const {
  std::string text = "seats(";
  for (size_t s = 0; s < per_seat_.size(); ++s) text += (s ? ", " : "") + per_seat_[s]->name();
  return text + ")";
}

}  // namespace fairyzero
