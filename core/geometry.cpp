// Cell names and zone parsing for a variant's board.
#include "core/geometry.h"

#include <stdexcept>

namespace fairyzero {

Geometry::Geometry(int files, int ranks) : files_(files), ranks_(ranks) {
  for (int f = 0; f < files; ++f) file_names_.push_back(std::string(1, static_cast<char>('a' + f)));
  for (int r = 0; r < ranks; ++r) rank_names_.push_back(std::to_string(r + 1));
  for (int c = 0; c < files * ranks; ++c) existing_.insert(c);
}

std::string Geometry::cell_name(Cell c) const {
  if (c < 0 || c >= cell_count()) return "?";
  return file_names_[file_of(c)] + rank_names_[rank_of(c)];
}

std::optional<Cell> Geometry::read_cell(std::string_view& text) const {
  // Longest file name, then longest rank name, so "a10" is not read as "a1".
  int best_file = -1;
  size_t file_len = 0;
  for (int f = 0; f < files_; ++f) {
    const std::string& n = file_names_[f];
    if (n.size() > file_len && text.substr(0, n.size()) == n) {
      best_file = f;
      file_len = n.size();
    }
  }
  if (best_file < 0) return std::nullopt;
  std::string_view rest = text.substr(file_len);
  int best_rank = -1;
  size_t rank_len = 0;
  for (int r = 0; r < ranks_; ++r) {
    const std::string& n = rank_names_[r];
    if (n.size() > rank_len && rest.substr(0, n.size()) == n) {
      best_rank = r;
      rank_len = n.size();
    }
  }
  if (best_rank < 0) return std::nullopt;
  text = rest.substr(rank_len);
  return cell(best_file, best_rank);
}

std::optional<Cell> Geometry::parse_cell(std::string_view text) const {
  std::optional<Cell> c = read_cell(text);
  if (!c || !text.empty()) return std::nullopt;
  return c;
}

CellSet Geometry::parse_cells(std::string_view text) const {
  CellSet result;
  size_t dash = text.find('-');
  std::string_view first = text.substr(0, dash);
  std::optional<Cell> a = parse_cell(first);
  if (!a)
    throw std::invalid_argument("'" + std::string(text) + "' is not a cell or a range of cells");
  Cell b = *a;
  if (dash != std::string_view::npos) {
    std::optional<Cell> end = parse_cell(text.substr(dash + 1));
    if (!end)
      throw std::invalid_argument("'" + std::string(text) + "' is not a cell or a range of cells");
    b = *end;
  }
  int f0 = std::min(file_of(*a), file_of(b)), f1 = std::max(file_of(*a), file_of(b));
  int r0 = std::min(rank_of(*a), rank_of(b)), r1 = std::max(rank_of(*a), rank_of(b));
  for (int r = r0; r <= r1; ++r)
    for (int f = f0; f <= f1; ++f)
      if (exists(cell(f, r))) result.insert(cell(f, r));
  return result;
}

const CellSet* Geometry::zone(const std::string& name) const {
  auto it = zones_.find(name);
  return it == zones_.end() ? nullptr : &it->second;
}

bool Geometry::gated_line_allows(const std::vector<Cell>& cells) const {
  if (!has_gated_line_) return true;
  bool first = false, second = false, first_gate = false, second_gate = false;
  for (Cell c : cells) {
    bool gate = gated_line_.gates.contains(c);
    if (gated_line_.first.contains(c)) first = true, first_gate = first_gate || gate;
    if (gated_line_.second.contains(c)) second = true, second_gate = second_gate || gate;
  }
  return !(first && second) || (first_gate && second_gate);
}

}  // namespace fairyzero
