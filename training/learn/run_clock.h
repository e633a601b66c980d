// The wall clock of a training run across its sessions, so that a time budget (run.minutes)
// counts the time spent training and not the pauses between sessions.
#pragma once

#include <cstdint>
#include <string>

namespace fairyzero {

// The seconds each generation took, one row a generation in RUN_DIR/clock.csv.
class RunClock {
 public:
  // Reads the rows of the generations before `first_generation` from `path` (none when it does
  // not exist); rows of later generations (an interrupted session's) are not counted.
  RunClock(std::string path, int first_generation);

  // The seconds of the generations recorded so far.
  double elapsed_seconds() const { return elapsed_; }
  // Appends `generation`'s row and adds its seconds. Throws std::runtime_error naming the file
  // when it cannot be written.
  void record(int generation, double seconds);

 private:
  std::string path_;
  double elapsed_ = 0;
};

// The schedule length that puts `step` at the share elapsed / budget of it: with it the
// learning-rate schedule follows the clock, and ends where the budget does. At least `step`
// (once the budget is spent) and at least 1.
int64_t schedule_steps_for_budget(int64_t step, double elapsed_seconds, double budget_seconds);

}  // namespace fairyzero
