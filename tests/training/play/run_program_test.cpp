// External programs run from an argument vector: paths with quotes and spaces need no escaping.
#include "training/play/run_program.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "tests/support/files.h"

namespace fairyzero {
namespace {
namespace fs = std::filesystem;
using testing::read_text;

TEST(RunProgram, ArgumentsWithQuotesAndSpacesArriveUnchanged) {
  const fs::path dir = fs::temp_directory_path() /
                       ("fairyzero it's a \"run\" " + std::to_string(std::random_device{}()));
  fs::create_directories(dir);
  const fs::path log = dir / "plot's log.txt";
  EXPECT_EQ(run_program({"printf", "%s|%s", "it's", "a $HOME `x`"}, log.string()), 0);
  EXPECT_EQ(read_text(log), "it's|a $HOME `x`");
  EXPECT_EQ(run_program({"sh", "-c", "echo out; echo err >&2; exit 3"}, log.string()), 3);
  EXPECT_EQ(read_text(log), "out\nerr\n");
  fs::remove_all(dir);
}

TEST(RunProgram, AMissingProgramIs127) {
  EXPECT_EQ(run_program({"fairyzero-no-such-program"}, "/dev/null"), 127);
  EXPECT_EQ(run_program({}, "/dev/null"), 127);
}

}  // namespace
}  // namespace fairyzero
