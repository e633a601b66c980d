// Formatting and parsing of self-play game records (one game a line, fields split by " | ").
#include "training/play/self_play_record.h"

#include <sstream>
#include <stdexcept>

namespace fairyzero {
namespace {

std::vector<std::string> split_fields(const std::string& line) {
  std::vector<std::string> fields;
  size_t start = 0;
  for (size_t bar; (bar = line.find('|', start)) != std::string::npos; start = bar + 1)
    fields.push_back(line.substr(start, bar - start));
  fields.push_back(line.substr(start));
  for (std::string& f : fields) {
    const size_t first = f.find_first_not_of(' ');
    f = first == std::string::npos ? "" : f.substr(first, f.find_last_not_of(' ') - first + 1);
  }
  return fields;
}

}  // namespace

std::string format_self_play_record(const SelfPlayRecord& record) {
  std::ostringstream line;
  line << record.termination << " |";
  for (const auto& [seat, score] : record.scores) line << " " << seat << "=" << score;
  line << " | " << record.plies << " plies | ";
  if (!record.networks.empty()) line << record.networks << " | ";
  for (size_t i = 0; i < record.moves.size(); ++i) line << (i ? " " : "") << record.moves[i];
  return line.str();
}

SelfPlayRecord parse_self_play_record(const std::string& line) {
  const std::vector<std::string> fields = split_fields(line);
  if (fields.size() != 4 && fields.size() != 5)
    throw std::invalid_argument(
        "not a self-play record ('termination | seat=score ... | N "
        "plies | [networks |] moves'): " +
        std::to_string(fields.size()) + " fields");
  SelfPlayRecord record;
  record.termination = fields[0];
  std::istringstream scores(fields[1]);
  for (std::string item; scores >> item;) {
    const size_t eq = item.find('=');
    double score = -1;
    try {
      size_t used = 0;
      if (eq != std::string::npos) score = std::stod(item.substr(eq + 1), &used);
      if (used != item.size() - eq - 1) score = -1;
    } catch (const std::exception&) {
    }
    if (eq == 0 || score < 0 || score > 1)
      throw std::invalid_argument("score '" + item + "' is not seat=score (a score from 0 to 1)");
    record.scores.emplace_back(item.substr(0, eq), score);
  }
  if (record.scores.empty()) throw std::invalid_argument("no seat scores");
  std::istringstream plies(fields[2]);
  std::string word;
  if (!(plies >> record.plies >> word) || word != "plies" || record.plies < 0)
    throw std::invalid_argument("'" + fields[2] + "' is not 'N plies'");
  if (fields.size() == 5) record.networks = fields[3];
  std::istringstream moves(fields.back());
  for (std::string move; moves >> move;) record.moves.push_back(move);
  if (static_cast<int>(record.moves.size()) != record.plies)
    throw std::invalid_argument(std::to_string(record.moves.size()) + " moves for " +
                                std::to_string(record.plies) + " plies");
  return record;
}

}  // namespace fairyzero
