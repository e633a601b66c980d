// The run's clock file: "generation,seconds" rows, summed on start.
#include "training/learn/run_clock.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace fairyzero {

RunClock::RunClock(std::string path, int first_generation) : path_(std::move(path)) {
  std::ifstream in(path_);
  std::string line;
  std::getline(in, line);  // header
  for (int row = 2; std::getline(in, line); ++row) {
    if (line.empty()) continue;
    std::istringstream fields(line);
    int generation = 0;
    char comma = 0;
    double seconds = 0;
    if (!(fields >> generation >> comma >> seconds) || comma != ',' || !std::isfinite(seconds) ||
        seconds < 0)
      throw std::runtime_error(path_ + " line " + std::to_string(row) + ": '" + line +
                               "' is not 'generation,seconds' (the run's clock; delete the line "
                               "to go on without it)");
    if (generation < first_generation) elapsed_ += seconds;
  }
}

void RunClock::record(int generation, double seconds) {
  const bool fresh = !std::filesystem::exists(path_);
  std::ofstream out(path_, std::ios::app);
  if (fresh) out << "generation,seconds\n";
  out << generation << "," << seconds << "\n";
  if (!out.flush()) throw std::runtime_error("cannot append to " + path_);
  elapsed_ += seconds;
}

int64_t schedule_steps_for_budget(int64_t step, double elapsed_seconds, double budget_seconds) {
  // Nothing measured yet: the schedule stays at its start.
  if (elapsed_seconds <= 0 || step <= 0) return std::max<int64_t>(step, 1) * 1000000;
  if (elapsed_seconds >= budget_seconds) return std::max<int64_t>(step, 1);
  return std::max<int64_t>(static_cast<int64_t>(std::llround(static_cast<double>(step) *
                                                             budget_seconds / elapsed_seconds)),
                           step + 1);
}

}  // namespace fairyzero
