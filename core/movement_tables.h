// Move tables compiled from a variant's movement atoms: for every (orientation, piece type, cell)
// the leap targets and rays a piece there may use, and for every (orientation, cell) the reverse
// "attack paths" that answer "is this cell attacked?" by walking outward from the cell.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/types.h"

namespace fairyzero {

class Variant;

struct LeapTarget {
  uint8_t cell;
  uint8_t mode;  // MoveMode
};

// Landings of one path in order; cells before the destination must be empty.
struct Ray {
  uint32_t begin;  // into MovementTables::ray_cells()
  uint8_t length;
  uint8_t first_destination;  // index of the first landing that may be a destination
  uint8_t mode;               // MoveMode
  uint8_t double_step;        // an en-passant piece's initial multi-step: leaves an e.p. cell
};

struct MoveSpan {
  uint32_t leap_begin;
  uint32_t ray_begin;
  uint16_t leap_count;
  uint16_t ray_count;
  // Two of the paths share a destination (the Rose's curved routes): generation must emit
  // each destination once.
  bool overlapping;
};

// A cell on an attack path and the piece types (bit mask) that attack the path's target from
// it, provided every earlier cell of the path is empty.
struct AttackNode {
  uint8_t cell;
  uint32_t types;
};

struct AttackPath {
  uint32_t begin;  // into MovementTables::attack_nodes()
  uint16_t length;
  uint32_t types;  // union of the node masks, to skip paths no present piece type uses
};

class MovementTables {
 public:
  // Orientation o is seat o's forward direction. Throws VariantError on tables too large.
  void build(const Variant& variant);

  const MoveSpan& moves(int orientation, int type, Cell c) const {
    return spans_[(static_cast<size_t>(orientation) * type_count_ + type) * cell_count_ + c];
  }
  const LeapTarget* leaps() const { return leaps_.data(); }
  const Ray* rays() const { return rays_.data(); }
  const uint8_t* ray_cells() const { return ray_cells_.data(); }

  // Attack paths leading to cell c from pieces that use orientation o.
  const AttackPath* attack_paths_begin(int orientation, Cell c) const {
    return attack_paths_.data() + attack_index_[orientation * cell_count_ + c];
  }
  const AttackPath* attack_paths_end(int orientation, Cell c) const {
    return attack_paths_.data() + attack_index_[orientation * cell_count_ + c + 1];
  }
  const AttackNode* attack_nodes() const { return attack_nodes_.data(); }

 private:
  void build_attack_paths(int orientation);

  int type_count_ = 0;
  int cell_count_ = 0;
  std::vector<MoveSpan> spans_;
  std::vector<LeapTarget> leaps_;
  std::vector<Ray> rays_;
  std::vector<uint8_t> ray_cells_;
  std::vector<uint32_t> attack_index_;  // per (orientation, cell), plus one end marker
  std::vector<AttackPath> attack_paths_;
  std::vector<AttackNode> attack_nodes_;
};

}  // namespace fairyzero
