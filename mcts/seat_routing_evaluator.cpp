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
  evaluate_async(batch, out).get();
}

std::future<void> SeatRoutingEvaluator::evaluate_async(std::span<const EvalRequest> batch,
                                                       std::span<Evaluation> out) {
  // The positions of each distinct evaluator (several seats may share one), in batch order.
  struct Share {
    Evaluator* evaluator = nullptr;
    std::vector<size_t> indices;
    std::vector<EvalRequest> requests;
    std::vector<Evaluation> results;
    std::future<void> done;
  };
  auto shares = std::make_shared<std::vector<Share>>();
  for (size_t i = 0; i < batch.size(); ++i) {
    Evaluator* evaluator = &evaluator_for(*batch[i].position);
    auto share = std::find_if(shares->begin(), shares->end(),
                              [&](const Share& s) { return s.evaluator == evaluator; });
    if (share == shares->end()) {
      shares->emplace_back();
      share = shares->end() - 1;
      share->evaluator = evaluator;
    }
    share->indices.push_back(i);
  }
  if (shares->size() == 1)  // one evaluator: no copying
    return shares->front().evaluator->evaluate_async(batch, out);
  // Every share is submitted before any is waited for: behind inference servers on one device
  // the shares are evaluated together instead of each waiting its turn.
  for (Share& share : *shares) {
    for (size_t i : share.indices) share.requests.push_back(batch[i]);
    share.results.resize(share.requests.size());
    share.done = share.evaluator->evaluate_async(share.requests, share.results);
  }
  // Waited for in the caller's get(): every share, then the results in the batch's order.
  return std::async(std::launch::deferred, [shares, out] {
    std::exception_ptr error;
    for (Share& share : *shares) {
      try {
        share.done.get();
      } catch (...) {
        if (!error) error = std::current_exception();
      }
    }
    if (error) std::rethrow_exception(error);
    for (Share& share : *shares)
      for (size_t k = 0; k < share.indices.size(); ++k)
        out[share.indices[k]] = std::move(share.results[k]);
  });
}

Evaluator& SeatRoutingEvaluator::evaluator_for(const Position& position) {
  const int seat = position.seat_to_move();
  if (seat < 0 || seat >= seat_count())
    throw std::out_of_range("SeatRoutingEvaluator: a position has seat " + std::to_string(seat) +
                            " to move, but only " + std::to_string(seat_count()) +
                            " seats have evaluators");
  return *per_seat_[seat];
}

std::string SeatRoutingEvaluator::name() const {
  std::string text = "seats(";
  for (size_t s = 0; s < per_seat_.size(); ++s) text += (s ? ", " : "") + per_seat_[s]->name();
  return text + ")";
}

}  // namespace fairyzero
