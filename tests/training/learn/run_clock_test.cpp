// The run's clock (RUN_DIR/clock.csv) and the schedule length that makes the learning rate
// follow a time budget.
#include "training/learn/run_clock.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <stdexcept>

namespace fairyzero {
namespace {
namespace fs = std::filesystem;

std::string temporary_clock_path() {
  return (fs::temp_directory_path() /
          ("fairyzero-clock-" + std::to_string(std::random_device{}()) + ".csv"))
      .string();
}

TEST(RunClock, CountsTheGenerationsBeforeTheFirstAndAppendsEachNewOne) {
  const std::string path = temporary_clock_path();
  {
    std::ofstream out(path);
    out << "generation,seconds\n0,10.5\n1,20\n2,99\n";  // row 2: an interrupted generation
  }
  RunClock clock(path, 2);
  EXPECT_DOUBLE_EQ(clock.elapsed_seconds(), 30.5);
  clock.record(2, 7.25);
  EXPECT_DOUBLE_EQ(clock.elapsed_seconds(), 37.75);
  EXPECT_DOUBLE_EQ(RunClock(path, 1).elapsed_seconds(), 10.5);
  fs::remove(path);

  RunClock fresh(path, 0);  // no file yet: nothing spent
  EXPECT_DOUBLE_EQ(fresh.elapsed_seconds(), 0);
  fresh.record(0, 3);
  std::ifstream in(path);
  std::string header, row;
  std::getline(in, header);
  std::getline(in, row);
  EXPECT_EQ(header, "generation,seconds");
  EXPECT_EQ(row, "0,3");
  fs::remove(path);
}

TEST(RunClock, AMalformedRowNamesTheFileAndLine) {
  const std::string path = temporary_clock_path();
  {
    std::ofstream out(path);
    out << "generation,seconds\n0,10\n1;twenty\n";
  }
  try {
    RunClock clock(path, 5);
    FAIL() << "a malformed clock was read";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(path + " line 3"), std::string::npos) << e.what();
  }
  fs::remove(path);
}

TEST(RunClock, TheScheduleLengthPutsTheStepAtTheBudgetsElapsedShare) {
  // A quarter of the budget spent in 100 steps: the schedule is 400 steps long.
  EXPECT_EQ(schedule_steps_for_budget(100, 900, 3600), 400);
  EXPECT_EQ(schedule_steps_for_budget(100, 1800, 3600), 200);
  // Spent (or overspent): the schedule is at its end.
  EXPECT_EQ(schedule_steps_for_budget(100, 3600, 3600), 100);
  EXPECT_EQ(schedule_steps_for_budget(100, 5000, 3600), 100);
  // Almost spent: still one step to go, never a schedule shorter than the steps taken.
  EXPECT_EQ(schedule_steps_for_budget(100, 3599.9, 3600), 101);
  // Nothing measured yet: the schedule has not begun.
  EXPECT_GT(schedule_steps_for_budget(0, 0, 3600), 1000);
  EXPECT_GT(schedule_steps_for_budget(50, 0, 3600), 50 * 1000);
}

}  // namespace
}  // namespace fairyzero
