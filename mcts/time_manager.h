// How long a move under a game clock searches: its share of the time left, and, when the time
// is managed, less for a move already settled and more for an unclear one.
#pragma once

#include "mcts/search.h"

namespace fairyzero {

struct GameClock {
  double remaining = 0;  // seconds on the mover's clock
  double increment = 0;  // seconds added after each move
  int moves_to_go = 0;   // to the next time control; 0: the rest of the game
  double overhead = 0;   // seconds lost per move outside the search (protocol, GUI)
};

// The share: remaining / (moves_to_go + 1, or 30 without) + 3/4 of the increment, never above
// half the remaining time less the overhead, at least 10 ms. Managed, the search stops once its
// most visited move cannot be overtaken (lc0's smart pruning) and one still unclear at its
// share goes on up to 2.5 times it (within the same cap); unmanaged, every move searches its
// share exactly.
SearchLimits clock_limits(const GameClock& clock, bool managed = true);

}  // namespace fairyzero
