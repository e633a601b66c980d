// The left-right symmetry check of file_mirror.h: every cell-indexed part of a variant compared
// with its mirror, the compiled move tables included (they hold the River, corner and gate
// restrictions of each move).
#include "core/file_mirror.h"

#include <algorithm>
#include <tuple>
#include <utility>
#include <vector>

namespace fairyzero {
namespace {

bool mirror_closed(const Geometry& g, const CellSet& cells) {
  bool closed = true;
  cells.for_each([&](Cell c) { closed = closed && cells.contains(mirror_file(g, c)); });
  return closed;
}

Direction mirrored(Direction d) {
  if (d == Direction::kEast) return Direction::kWest;
  if (d == Direction::kWest) return Direction::kEast;
  return d;
}

// What a piece of one seat may do from a cell, as comparable values: leaps (cell, mode) and
// rays (mode, double step, first destination, cells in order), with every cell mirrored when
// `mirror` is set.
using Leap = std::pair<int, int>;
using RayKey = std::tuple<int, int, int, std::vector<int>>;

std::pair<std::vector<Leap>, std::vector<RayKey>> moves_from(const Variant& v, int orientation,
                                                             int type, Cell c, bool mirror) {
  const Geometry& g = v.geometry;
  auto cell = [&](int x) { return mirror ? static_cast<int>(mirror_file(g, x)) : x; };
  const MoveSpan& span = v.tables.moves(orientation, type, c);
  std::vector<Leap> leaps;
  for (int i = 0; i < span.leap_count; ++i) {
    const LeapTarget& l = v.tables.leaps()[span.leap_begin + i];
    leaps.emplace_back(cell(l.cell), l.mode);
  }
  std::vector<RayKey> rays;
  for (int i = 0; i < span.ray_count; ++i) {
    const Ray& r = v.tables.rays()[span.ray_begin + i];
    std::vector<int> cells;
    for (int k = 0; k < r.length; ++k) cells.push_back(cell(v.tables.ray_cells()[r.begin + k]));
    rays.emplace_back(r.mode, r.double_step, r.first_destination, std::move(cells));
  }
  std::sort(leaps.begin(), leaps.end());
  std::sort(rays.begin(), rays.end());
  return {std::move(leaps), std::move(rays)};
}

std::string board_asymmetry(const Variant& v) {
  const Geometry& g = v.geometry;
  if (!mirror_closed(g, g.existing_cells())) return "the board's missing cells are not mirrored";
  for (const auto& [name, cells] : g.zones())
    if (!mirror_closed(g, cells)) return "zone '" + name + "' is not its own mirror";
  if (g.has_gated_line()) return "the gated-line rule (Avon's d/e rule) is not checked";
  for (Cell c = 0; c < g.cell_count(); ++c) {
    if (!g.exists(c)) continue;
    const Cell m = mirror_file(g, c);
    if (g.bank_of(c) != g.bank_of(m))
      return "River banks differ on " + g.cell_name(c) + " and " + g.cell_name(m);
    const std::optional<Direction> here = g.forward_at(c), there = g.forward_at(m);
    if (here.has_value() != there.has_value() || (here && mirrored(*here) != *there))
      return "the forward direction fixed on " + g.cell_name(c) + " is not mirrored on " +
             g.cell_name(m);
  }
  return "";
}

std::string piece_asymmetry(const Variant& v, int type) {
  const Geometry& g = v.geometry;
  const PieceType& piece = v.pieces[type];
  const std::string who = "piece '" + piece.name + "'";
  for (int a = 0; a < v.army_count(); ++a) {
    if (!mirror_closed(g, piece.promotion_zone[a])) return who + ": promotion zone not mirrored";
    if (!mirror_closed(g, piece.initial_cells[a])) return who + ": initial cells not mirrored";
  }
  for (const auto& [from, to] : piece.river_crossings) {
    const std::pair<Cell, Cell> m{mirror_file(g, from), mirror_file(g, to)};
    if (std::find(piece.river_crossings.begin(), piece.river_crossings.end(), m) ==
        piece.river_crossings.end())
      return who + ": River crossing " + g.cell_name(from) + "-" + g.cell_name(to) +
             " has no mirror";
  }
  for (int o = 0; o < v.seat_count(); ++o)
    for (Cell c = 0; c < g.cell_count(); ++c) {
      if (!g.exists(c)) continue;
      if (moves_from(v, o, type, c, true) != moves_from(v, o, type, mirror_file(g, c), false))
        return who + " of seat '" + v.seats[o].name + "' moves from " + g.cell_name(c) +
               " otherwise than the mirror of its moves from " + g.cell_name(mirror_file(g, c));
    }
  return "";
}

}  // namespace

std::string file_mirror_asymmetry(const Variant& v) {
  for (const Seat& seat : v.seats) {
    if (seat.forward != Direction::kNorth && seat.forward != Direction::kSouth)
      return "seat '" + seat.name + "' faces east or west";
    if (!mirror_closed(v.geometry, seat.side))
      return "seat '" + seat.name + "''s side of the board is not its own mirror";
  }
  if (std::string why = board_asymmetry(v); !why.empty()) return why;
  for (int t = 0; t < v.piece_count(); ++t)
    if (std::string why = piece_asymmetry(v, t); !why.empty()) return why;
  return "";
}

}  // namespace fairyzero
