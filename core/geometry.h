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

  // When true, a unit diagonal step needs both corner cells to exist and a knight step needs its
  // whole 2x3 rectangle (Gilman's "solid block" rule, REFERENCE.md section 4.4).
  bool solid_block() const { return solid_block_; }
  void set_solid_block(bool on) { solid_block_ = on; }

 private:
  int files_ = 0;
  int ranks_ = 0;
  CellSet existing_;
  std::vector<std::string> file_names_;
  std::vector<std::string> rank_names_;
  std::map<std::string, CellSet> zones_;
  bool solid_block_ = false;
};

}  // namespace fairyzero
