// The CSV files of a run folder: rows appended per generation or metrics chunk, and dropped
// for a generation that did not finish.
#include "training/learn/run_csv.h"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "core/temporary_file.h"
#include "training/learn/train_run.h"

namespace fairyzero {

void truncate_csv(const std::string& path, int limit) {
  std::ifstream in(path);
  if (!in) return;
  std::string line, kept;
  bool header = true;
  while (std::getline(in, line)) {
    if (header || std::stoi(line.substr(0, line.find(','))) < limit) kept += line + "\n";
    header = false;
  }
  in.close();
  try {
    write_text_atomically(path, kept);
  } catch (const std::runtime_error& e) {
    throw RunError(e.what());
  }
}

void append_csv(const std::string& path, const std::string& header, const std::string& row) {
  bool fresh = !std::filesystem::exists(path);
  std::ofstream out(path, std::ios::app);
  if (fresh) out << header << "\n";
  out << row << "\n";
  if (!out.flush()) throw RunError("cannot append to " + path);
}

std::string generation_field(const std::string& path, int generation, int column) {
  std::ifstream in(path);
  std::string line, found;
  std::getline(in, line);  // header
  while (std::getline(in, line)) {
    std::vector<std::string> fields;
    std::stringstream split(line);
    for (std::string f; std::getline(split, f, ',');) fields.push_back(f);
    if (fields.size() > static_cast<size_t>(column) && std::stoi(fields[0]) == generation)
      found = fields[column];
  }
  return found;
}

std::string training_csv_header(bool per_seat, bool soft_policy) {
  return std::string(
             "generation,step,learning_rate,policy_loss,value_loss,total_loss,policy_entropy,"
             "value_accuracy,samples_per_second") +
         (per_seat ? ",seat" : "") + ",moves_left_loss" + (soft_policy ? ",soft_policy_loss" : "");
}

std::string training_csv_row(int generation, const TrainingMetrics& m, const std::string& seat,
                             bool soft_policy) {
  std::ostringstream row;
  row << generation << "," << m.step << "," << m.learning_rate << "," << m.policy_loss << ","
      << m.value_loss << "," << m.total_loss << "," << m.policy_entropy << "," << m.value_accuracy
      << "," << m.samples_per_second;
  if (!seat.empty()) row << "," << seat;
  row << "," << m.moves_left_loss;
  if (soft_policy) row << "," << m.soft_policy_loss;
  return row.str();
}

}  // namespace fairyzero
