// The text record of one self-play game, a line of RUN_DIR/games/*.txt (and validation/*.txt):
// "termination | seat=score ... | N plies | [networks |] move move ...". Written by training,
// read by the web board and by `balance --records`.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace fairyzero {

struct SelfPlayRecord {
  std::string termination;  // "checkmate", "resignation", "maximum game length", ...
  // Each seat's team score (1 win, 0.5 draw, 0 loss), by seat name in the variant's order.
  std::vector<std::pair<std::string, double>> scores;
  int plies = 0;
  std::string networks;  // who played each seat (league games), or empty: one network
  std::vector<std::string> moves;
};

// One line, without the newline.
std::string format_self_play_record(const SelfPlayRecord& record);
// Reads a line written by format_self_play_record. Throws std::invalid_argument saying what is
// wrong with it (the caller adds the file and line).
SelfPlayRecord parse_self_play_record(const std::string& line);

}  // namespace fairyzero
