// Test helpers for left-right mirroring (training.mirror_files): a two-army FEN with its files
// mirrored, and a move with its cells mirrored, built independently of the code under test.
#pragma once

#include <sstream>
#include <string>
#include <vector>

#include "core/file_mirror.h"
#include "core/move.h"
#include "core/variant.h"

namespace fairyzero::testing {

// The FEN of the position with files mirrored and no castling right (a position holding one has
// no mirror in the same game). Two-army FENs only: each man one letter, '~' after it kept; a
// four-player game's Rose lock cell mirrored too.
inline std::string mirror_fen_files(const Variant& v, const std::string& fen) {
  std::istringstream in(fen);
  std::vector<std::string> fields;
  for (std::string f; in >> f;) fields.push_back(f);
  std::string board = fields.at(0), hand;
  if (size_t open = board.find('['); open != std::string::npos) {
    hand = board.substr(open);
    board = board.substr(0, open);
  }
  std::string out;
  std::istringstream ranks(board);
  for (std::string rank; std::getline(ranks, rank, '/');) {
    std::vector<std::string> cells;  // one token per file
    for (size_t i = 0; i < rank.size(); ++i) {
      if (std::isdigit(static_cast<unsigned char>(rank[i]))) {
        int run = 0;
        while (i < rank.size() && std::isdigit(static_cast<unsigned char>(rank[i])))
          run = run * 10 + (rank[i++] - '0');
        --i;
        for (int k = 0; k < run; ++k) cells.push_back("1");
      } else if (rank[i] == '~') {
        cells.back() += '~';
      } else {
        cells.push_back(std::string(1, rank[i]));
      }
    }
    if (!out.empty()) out += '/';
    int empties = 0;
    for (auto it = cells.rbegin(); it != cells.rend(); ++it) {
      if (*it == "1") {
        ++empties;
        continue;
      }
      if (empties) out += std::to_string(empties);
      empties = 0;
      out += *it;
    }
    if (empties) out += std::to_string(empties);
  }
  fields[0] = out + hand;
  if (fields.size() > 2) fields[2] = "-";
  if (fields.size() > 3 && fields[3] != "-")
    fields[3] = v.geometry.cell_name(mirror_file(v.geometry, *v.geometry.parse_cell(fields[3])));
  // Four-player games' seventh field: "out:...;lock:CELL=seats" items, the lock cells mirrored.
  if (fields.size() > 6 && fields[6] != "-") {
    std::istringstream items(fields[6]);
    std::string field;
    for (std::string item; std::getline(items, item, ';');) {
      if (item.rfind("lock:", 0) == 0) {
        const size_t eq = item.find('=');
        const Cell c = *v.geometry.parse_cell(item.substr(5, eq - 5));
        item = "lock:" + v.geometry.cell_name(mirror_file(v.geometry, c)) + item.substr(eq);
      }
      field += (field.empty() ? "" : ";") + item;
    }
    fields[6] = field;
  }
  std::string joined;
  for (const std::string& f : fields) joined += (joined.empty() ? "" : " ") + f;
  return joined;
}

// The same FEN without castling rights (the unmirrored twin of mirror_fen_files).
inline std::string without_castling(const std::string& fen) {
  std::istringstream in(fen);
  std::vector<std::string> fields;
  for (std::string f; in >> f;) fields.push_back(f);
  if (fields.size() > 2) fields[2] = "-";
  std::string joined;
  for (const std::string& f : fields) joined += (joined.empty() ? "" : " ") + f;
  return joined;
}

// The move with its cells mirrored (castling has no mirror: never asked).
inline Move mirror_move_files(const Geometry& g, Move m) {
  if (m.moves_no_man()) return m;  // a drop-out or a pass
  const Cell to = mirror_file(g, m.to());
  if (m.kind() == MoveKind::kDrop) return Move::drop(m.piece_type(), to);
  const Cell from = mirror_file(g, m.from());
  if (m.is_promotion()) return Move::promotion(from, to, m.piece_type());
  return Move::normal(from, to, m.kind());
}

}  // namespace fairyzero::testing
