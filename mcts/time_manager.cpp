// The time manager of engine play (UCI and XBoard clocks).
#include "mcts/time_manager.h"

#include <algorithm>

namespace fairyzero {

SearchLimits clock_limits(const GameClock& clock, bool managed) {
  const double cap = clock.remaining / 2 - clock.overhead;
  const double share = clock.remaining / (clock.moves_to_go > 0 ? clock.moves_to_go + 1 : 30) +
                       0.75 * clock.increment;
  SearchLimits limits;
  limits.seconds = std::max(0.01, std::min(share, cap));
  if (managed) {
    limits.stop_when_decided = true;
    limits.max_seconds = std::max(limits.seconds, std::min(2.5 * limits.seconds, cap));
  }
  return limits;
}

}  // namespace fairyzero
