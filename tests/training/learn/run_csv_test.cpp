// The CSV files of a run folder: rows of an unfinished generation dropped on resume, a header
// written once, a generation's field found, and training.csv's header and rows agreeing.
#include "training/learn/run_csv.h"

#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "tests/support/files.h"
#include "training/learn/train_run.h"

namespace fairyzero {
namespace {

int columns(const std::string& line) {
  int commas = 0;
  for (char c : line) commas += c == ',';
  return commas + 1;
}

TEST(RunCsv, TruncateKeepsTheHeaderAndTheRowsOfFinishedGenerations) {
  testing::TempDir dir("fairyzero-run-csv-");
  const std::string path = dir / "training.csv";
  std::ofstream(path) << "generation,loss\n0,1.5\n1,1.2\n1,1.1\n2,0.9\n";
  truncate_csv(path, 1);
  EXPECT_EQ(testing::read_text(path), "generation,loss\n0,1.5\n");
  truncate_csv(dir / "missing.csv", 0);  // nothing to drop: no file appears
  EXPECT_FALSE(std::filesystem::exists(dir / "missing.csv"));
}

TEST(RunCsv, AppendWritesTheHeaderOnlyIntoANewFile) {
  testing::TempDir dir("fairyzero-run-csv-");
  const std::string path = dir / "external.csv";
  append_csv(path, "generation,files", "0,3");
  append_csv(path, "generation,files", "1,4");
  EXPECT_EQ(testing::read_text(path), "generation,files\n0,3\n1,4\n");
  EXPECT_EQ(generation_field(path, 1, 1), "4");
  EXPECT_EQ(generation_field(path, 2, 1), "");
  EXPECT_EQ(generation_field(path, 0, 5), "");
  EXPECT_THROW(append_csv(dir / "no-folder/x.csv", "h", "0"), RunError);
}

TEST(RunCsv, TrainingRowsHaveTheHeadersColumnsInEveryLayout) {
  TrainingMetrics metrics;
  metrics.step = 12;
  metrics.value_loss = 0.25;
  metrics.moves_left_loss = 3.5;
  metrics.soft_policy_loss = 1.75;
  for (bool per_seat : {false, true})
    for (bool soft : {false, true}) {
      SCOPED_TRACE(std::string(per_seat ? "per seat" : "shared") + (soft ? ", soft policy" : ""));
      const std::string header = training_csv_header(per_seat, soft);
      const std::string row = training_csv_row(4, metrics, per_seat ? "white" : "", soft);
      EXPECT_EQ(columns(header), columns(row)) << header << "\n" << row;
      EXPECT_EQ(row.substr(0, 5), "4,12,");
      EXPECT_EQ(header.find(",seat") != std::string::npos, per_seat);
      EXPECT_EQ(row.find(",white,3.5") != std::string::npos, per_seat);
      EXPECT_EQ(row.find(",1.75") != std::string::npos, soft);
    }
}

}  // namespace
}  // namespace fairyzero
