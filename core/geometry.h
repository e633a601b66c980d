// The board of a variant: its size, which cells exist, the author's coordinate names and the
// named zones (promotion zones, river sections, camps) rules refer to.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/types.h"

namespace fairyzero {

// Which way a seat's "forward" points on the board. North is toward higher ranks.
enum class Direction { kNorth, kSouth, kEast, kWest };

inline constexpr int kMaxBanks = 16;  // River banks a board may have

class Geometry {
 public:
  Geometry() = default;
  // Names default to a, b, c ... and 1, 2, 3 ...; all cells exist until marked missing.
  Geometry(int files, int ranks);

  int files() const { return files_; }
  int ranks() const { return ranks_; }
  int cell_count() const { return files_ * ranks_; }
  Cell cell(int file, int rank) const { return rank * files_ + file; }
  int file_of(Cell c) const { return c % files_; }
  int rank_of(Cell c) const { return c / files_; }
  bool on_grid(int file, int rank) const {
    return file >= 0 && file < files_ && rank >= 0 && rank < ranks_;
  }
  bool exists(Cell c) const { return existing_.contains(c); }
  const CellSet& existing_cells() const { return existing_; }
  void set_missing(Cell c) { existing_.erase(c); }

  void set_file_names(std::vector<std::string> names) { file_names_ = std::move(names); }
  void set_rank_names(std::vector<std::string> names) { rank_names_ = std::move(names); }
  const std::vector<std::string>& file_names() const { return file_names_; }
  const std::vector<std::string>& rank_names() const { return rank_names_; }

  // "e4", "a10", or in the author's names ("e0" on a board whose ranks are numbered from 0).
  std::string cell_name(Cell c) const;
  // The cell a name denotes, or nullopt when the text is not a cell of the grid. Missing cells
  // parse (they have names) so callers can give a precise error.
  std::optional<Cell> parse_cell(std::string_view text) const;
  // Reads a cell name from the front of `text` (longest match) and advances past it.
  std::optional<Cell> read_cell(std::string_view& text) const;
  // A zone description: one cell "e4", or a rectangle "a8-h8" (both corners included; missing
  // cells inside it are skipped). Throws std::invalid_argument naming the text when malformed.
  CellSet parse_cells(std::string_view text) const;

  void add_zone(const std::string& name, const CellSet& cells) { zones_[name] = cells; }
  const CellSet* zone(const std::string& name) const;
  const std::map<std::string, CellSet>& zones() const { return zones_; }

  // River banks: the regions a River separates (Gilman's river family). A move between two
  // banks crosses the River. -1 when the variant has no River.
  int bank_of(Cell c) const { return banks_.empty() ? -1 : banks_[c]; }
  int bank_count() const { return bank_count_; }
  void set_banks(std::vector<int> bank_of_cell, int count) {
    banks_ = std::move(bank_of_cell);
    bank_count_ = count;
  }
  bool crosses_river(Cell from, Cell to) const {
    return !banks_.empty() && banks_[from] != banks_[to];
  }

  // "Forward" fixed by the cell for every piece on it (Great Stour, Wey: toward or across the
  // River), or nullopt where the moving seat's forward applies.
  std::optional<Direction> forward_at(Cell c) const {
    if (forward_.empty() || forward_[c] < 0) return std::nullopt;
    return static_cast<Direction>(forward_[c]);
  }
  void set_forward(Cell c, Direction d) {
    if (forward_.empty()) forward_.assign(kMaxCells, -1);
    forward_[c] = static_cast<int>(d);
  }

  // When true, a unit diagonal step needs both corner cells to exist and a knight step needs its
  // whole 2x3 rectangle (Gilman's "solid block" rule, REFERENCE.md section 4.4).
  bool solid_block() const { return solid_block_; }
  void set_solid_block(bool on) { solid_block_ = on; }
  // The corner rule alone (Cam per REFERENCE.md A6, Commedia per A23): a unit diagonal step of
  // a stepping or sliding move needs both corner cells; knight moves are not restricted.
  bool corner_rule() const { return corner_rule_; }
  void set_corner_rule(bool on) { corner_rule_ = on; }

  // Avon's d/e rule (A14): a move whose cells (start, cells passed, end) touch both regions must
  // include a gate cell of each region. Leaps count their start and end only.
  struct GatedLine {
    CellSet first, second, gates;
  };
  bool has_gated_line() const { return has_gated_line_; }
  void set_gated_line(const GatedLine& line) {
    gated_line_ = line;
    has_gated_line_ = true;
  }
  // Does a move over `cells` (start first) keep the gated-line rule?
  bool gated_line_allows(const std::vector<Cell>& cells) const;

 private:
  int files_ = 0;
  int ranks_ = 0;
  CellSet existing_;
  std::vector<std::string> file_names_;
  std::vector<std::string> rank_names_;
  std::map<std::string, CellSet> zones_;
  std::vector<int> banks_;  // per cell; empty without a River
  int bank_count_ = 0;
  std::vector<int> forward_;  // per cell: a Direction, or -1; empty when no cell fixes it
  bool solid_block_ = false;
  bool corner_rule_ = false;
  GatedLine gated_line_;
  bool has_gated_line_ = false;
};

}  // namespace fairyzero
