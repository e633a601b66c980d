// Many games searched at once by one thread: each round gathers leaves from every game, sends
// them to the evaluator in one batch, and backs them up. Self-play runs several of these so
// the evaluator (a network behind an InferenceServer) sees large batches.
#pragma once

#include <span>

#include "mcts/search.h"

namespace fairyzero {

struct BatchedSearchStats {
  int rounds = 0;
  long long evaluated = 0;  // positions sent to the evaluator
};

// Runs every search until it reaches `limits` (each counted from this call). Each round takes
// up to `leaves_per_search` leaves from each unfinished search.
BatchedSearchStats run_batched(std::span<Search* const> searches, const SearchLimits& limits,
                               Evaluator& evaluator, int leaves_per_search);
// The same with one limit per search (self-play gives some moves a full search, most a fast
// one: KataGo's playout cap randomization).
BatchedSearchStats run_batched(std::span<Search* const> searches,
                               std::span<const SearchLimits> limits, Evaluator& evaluator,
                               int leaves_per_search);

}  // namespace fairyzero
