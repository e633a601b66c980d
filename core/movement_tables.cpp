// Compiles movement atoms into per-cell tables, with missing cells and the solid-block rule
// applied once here so move generation only walks tables.
#include "core/movement_tables.h"

#include <algorithm>
#include <map>

#include "core/variant.h"

namespace fairyzero {
namespace {

// The board delta (file, rank) of a step in the mover's frame.
Offset to_board(Offset step, Direction forward) {
  switch (forward) {
    case Direction::kNorth: return {step.dx, step.dy};
    case Direction::kSouth: return {-step.dx, -step.dy};
    case Direction::kEast: return {step.dy, -step.dx};
    case Direction::kWest: return {-step.dy, step.dx};
  }
  return step;
}

// Gilman's solid-block rule: a unit diagonal step needs both corner cells, a knight step its
// whole 2x3 rectangle.
bool solid_block_allows(const Geometry& g, int f, int r, Offset d) {
  int adx = std::abs(d.dx), ady = std::abs(d.dy);
  bool diagonal = adx == 1 && ady == 1;
  bool knight = (adx == 1 && ady == 2) || (adx == 2 && ady == 1);
  if (!diagonal && !knight) return true;
  int f0 = std::min(f, f + d.dx), f1 = std::max(f, f + d.dx);
  int r0 = std::min(r, r + d.dy), r1 = std::max(r, r + d.dy);
  for (int rr = r0; rr <= r1; ++rr)
    for (int ff = f0; ff <= f1; ++ff)
      if (!g.on_grid(ff, rr) || !g.exists(g.cell(ff, rr))) return false;
  return true;
}

// May `type` step from `a` to `b` as far as the River is concerned?
bool river_allows(const Geometry& g, const PieceType& type, Cell a, Cell b) {
  if (!g.crosses_river(a, b)) return true;
  if (!type.crosses_river) return false;
  if (type.river_crossings.empty()) return true;
  for (auto [x, y] : type.river_crossings)
    if ((x == a && y == b) || (x == b && y == a)) return true;
  return false;
}

// Landings of an atom from cell c, stopping at the edge, a missing cell, or a River the piece may
// not cross there. The whole path uses the forward of its start cell.
std::vector<Cell> landings(const Geometry& g, const PieceType& type, const MoveAtom& atom, Cell c,
                           Direction forward) {
  std::vector<Cell> out;
  int f = g.file_of(c), r = g.rank_of(c);
  size_t steps = atom.steps.size();
  for (size_t k = 0;; ++k) {
    if (!atom.repeat && k >= steps) break;
    if (atom.max_steps > 0 && static_cast<int>(k) >= atom.max_steps) break;
    Offset d = to_board(atom.steps[std::min(k, steps - 1)], forward);
    if (!g.on_grid(f + d.dx, r + d.dy) || !g.exists(g.cell(f + d.dx, r + d.dy))) break;
    // The corner and solid-block rules bind diagonal steps, not the leaps of corner-exempt
    // pieces (the Frog's 1:1, A21); the solid-block rule also binds knight moves.
    const bool diagonal = std::abs(d.dx) == 1 && std::abs(d.dy) == 1;
    const bool bound =
        diagonal ? !type.corner_exempt && (g.corner_rule() || g.solid_block()) : g.solid_block();
    if (bound && !solid_block_allows(g, f, r, d)) break;
    if (!river_allows(g, type, g.cell(f, r), g.cell(f + d.dx, r + d.dy))) break;
    f += d.dx;
    r += d.dy;
    out.push_back(g.cell(f, r));
  }
  return out;
}

// The sets of passed cells (1-based distances along the line) that must be empty for an odd-only
// move of length n under `rule`; the move is legal when one set is (REFERENCE.md 5.10).
std::vector<std::vector<int>> odd_landing_sets(OddRule rule, int n) {
  auto cells = [](int from, int to, int stride) {
    std::vector<int> out;
    for (int i = from; i <= to; i += stride) out.push_back(i);
    return out;
  };
  std::vector<std::vector<int>> sets;
  switch (rule) {
    case OddRule::kStepping: sets = {cells(1, n - 1, 1)}; break;
    case OddRule::kEvenLeaping: sets = {cells(1, n - 2, 2)}; break;
    case OddRule::kOddLeaping: sets = {cells(2, n - 1, 2)}; break;
    case OddRule::kAlternateLeaping: sets = {cells(1, n - 2, 2), cells(2, n - 1, 2)}; break;
    case OddRule::kFlexiLeaping:
      // 2-leaps landing on 2, 4 .. 2k, the one step to 2k+1, then 2-leaps on 2k+3 .. n-2.
      for (int k = 0; 2 * k <= n - 1; ++k) {
        std::vector<int> set = cells(2, 2 * k, 2);
        for (int i : cells(2 * k + 1, n - 2, 2)) set.push_back(i);
        sets.push_back(set);
      }
      break;
    case OddRule::kMaxiLeaping: {
      // Any mix of steps and 2-leaps; two steps in a row land on a superset of one 2-leap's
      // landings, so only mixes without them are kept.
      auto extend = [&](auto&& self, int at, bool last_was_step, std::vector<int>& landed) -> void {
        if (at == n) {
          sets.push_back(std::vector<int>(landed.begin(), landed.end() - 1));
          return;
        }
        for (int stride : {1, 2}) {
          if (at + stride > n || (stride == 1 && last_was_step)) continue;
          landed.push_back(at + stride);
          self(self, at + stride, stride == 1, landed);
          landed.pop_back();
        }
      };
      std::vector<int> landed;
      extend(extend, 0, false, landed);
      break;
    }
  }
  std::sort(sets.begin(), sets.end());
  sets.erase(std::unique(sets.begin(), sets.end()), sets.end());
  return sets;
}

struct TrieNode {
  Cell cell;
  uint32_t types = 0;
  std::map<Cell, int> children;
};

}  // namespace

void MovementTables::build(const Variant& v) {
  const Geometry& g = v.geometry;
  type_count_ = v.piece_count();
  cell_count_ = g.cell_count();
  int orientations = v.seat_count();
  spans_.assign(static_cast<size_t>(orientations) * type_count_ * cell_count_, MoveSpan{});
  leaps_.clear();
  rays_.clear();
  ray_cells_.clear();
  for (int o = 0; o < orientations; ++o) {
    const Seat& seat = v.seats[o];
    for (int t = 0; t < type_count_; ++t) {
      const PieceType& type = v.pieces[t];
      for (Cell c = 0; c < cell_count_; ++c) {
        if (!g.exists(c)) continue;
        std::vector<LeapTarget> leaps;
        std::vector<std::pair<Ray, std::vector<Cell>>> rays;
        for (const MoveAtom& atom : type.atoms) {
          if (atom.initial_only && !type.initial_cells[seat.army].contains(c)) continue;
          std::vector<Cell> path = landings(g, type, atom, c, v.forward_at(c, o));
          if (static_cast<int>(path.size()) < atom.min_steps) continue;
          if (atom.odd_only) {
            // One ray per (odd destination, set of passed cells that must be empty).
            for (int n = 1; n <= static_cast<int>(path.size()); n += 2)
              for (const std::vector<int>& set : odd_landing_sets(v.rules.odd_rule, n)) {
                std::vector<Cell> cells;
                for (int i : set) cells.push_back(path[i - 1]);
                cells.push_back(path[n - 1]);
                Ray ray{};
                ray.mode = atom.mode;
                ray.length = static_cast<uint8_t>(cells.size());
                ray.first_destination = static_cast<uint8_t>(cells.size() - 1);
                rays.emplace_back(ray, std::move(cells));
              }
            continue;
          }
          bool single = atom.steps.size() == 1 && !atom.repeat;
          if (single && !g.gated_line_allows({c, path[0]})) continue;
          if (single) {
            auto same = std::find_if(leaps.begin(), leaps.end(),
                                     [&](const LeapTarget& l) { return l.cell == path[0]; });
            if (same != leaps.end())
              same->mode |= atom.mode;
            else
              leaps.push_back({static_cast<uint8_t>(path[0]), static_cast<uint8_t>(atom.mode)});
            continue;
          }
          Ray ray{};
          ray.mode = atom.mode;
          ray.double_step = atom.initial_only && type.en_passant && atom.mode == kMoveOnly;
          // One ray per run of destinations the gated-line rule allows (all of them without
          // one); each walks from the start, so blocking stays exact.
          std::vector<Cell> cells_so_far{c};
          int run_start = -1;
          for (int k = 0; k <= static_cast<int>(path.size()); ++k) {
            bool allowed = false;
            if (k < static_cast<int>(path.size())) {
              cells_so_far.push_back(path[k]);
              allowed = k >= atom.min_steps - 1 && g.gated_line_allows(cells_so_far);
            }
            if (allowed && run_start < 0) run_start = k;
            if (!allowed && run_start >= 0) {
              ray.length = static_cast<uint8_t>(k);
              ray.first_destination = static_cast<uint8_t>(run_start);
              rays.emplace_back(ray, std::vector<Cell>(path.begin(), path.begin() + k));
              run_start = -1;
            }
          }
        }
        // A leap to a ray's first landing would repeat the ray's move (Q plus K): drop it.
        std::erase_if(leaps, [&](const LeapTarget& l) {
          for (auto& [ray, cells] : rays)
            if (ray.first_destination == 0 && cells[0] == l.cell && (ray.mode & l.mode) == l.mode)
              return true;
          return false;
        });
        MoveSpan& span = spans_[(static_cast<size_t>(o) * type_count_ + t) * cell_count_ + c];
        span.leap_begin = static_cast<uint32_t>(leaps_.size());
        span.leap_count = static_cast<uint16_t>(leaps.size());
        leaps_.insert(leaps_.end(), leaps.begin(), leaps.end());
        span.ray_begin = static_cast<uint32_t>(rays_.size());
        span.ray_count = static_cast<uint16_t>(rays.size());
        CellSet destinations;
        span.overlapping = false;
        auto reach = [&](Cell x) {
          span.overlapping = span.overlapping || destinations.contains(x);
          destinations.insert(x);
        };
        for (const LeapTarget& l : leaps) reach(l.cell);
        for (auto& [ray, cells] : rays)
          for (size_t k = ray.first_destination; k < cells.size(); ++k) reach(cells[k]);
        for (auto& [ray, cells] : rays) {
          ray.begin = static_cast<uint32_t>(ray_cells_.size());
          for (Cell x : cells) ray_cells_.push_back(static_cast<uint8_t>(x));
          rays_.push_back(ray);
        }
      }
    }
  }
  attack_index_.clear();
  attack_paths_.clear();
  attack_nodes_.clear();
  for (int o = 0; o < orientations; ++o) build_attack_paths(o);
  attack_index_.push_back(static_cast<uint32_t>(attack_paths_.size()));
}

// For each target cell, a trie of reversed paths (target outward) from every capturing move of
// every type, flattened into root-to-leaf paths. Straight lines share one path per direction.
void MovementTables::build_attack_paths(int o) {
  std::vector<std::vector<TrieNode>> tries(cell_count_,
                                           std::vector<TrieNode>(1, TrieNode{kNoCell, 0, {}}));
  auto insert = [&](Cell target, const std::vector<Cell>& reversed, int type) {
    std::vector<TrieNode>& trie = tries[target];
    int node = 0;
    for (Cell x : reversed) {
      auto it = trie[node].children.find(x);
      if (it == trie[node].children.end()) {
        trie.push_back(TrieNode{x, 0, {}});
        it = trie[node].children.emplace(x, static_cast<int>(trie.size()) - 1).first;
      }
      node = it->second;
    }
    trie[node].types |= 1u << type;
  };
  for (int t = 0; t < type_count_; ++t) {
    for (Cell c = 0; c < cell_count_; ++c) {
      const MoveSpan& span = moves(o, t, c);
      for (int i = 0; i < span.leap_count; ++i) {
        const LeapTarget& l = leaps_[span.leap_begin + i];
        if (l.mode & kCaptureOnly) insert(l.cell, {c}, t);
      }
      for (int i = 0; i < span.ray_count; ++i) {
        const Ray& ray = rays_[span.ray_begin + i];
        if (!(ray.mode & kCaptureOnly)) continue;
        for (int d = ray.first_destination; d < ray.length; ++d) {
          std::vector<Cell> reversed;
          for (int k = d - 1; k >= 0; --k) reversed.push_back(ray_cells_[ray.begin + k]);
          reversed.push_back(c);
          insert(ray_cells_[ray.begin + d], reversed, t);
        }
      }
    }
  }
  for (Cell target = 0; target < cell_count_; ++target) {
    attack_index_.push_back(static_cast<uint32_t>(attack_paths_.size()));
    const std::vector<TrieNode>& trie = tries[target];
    std::vector<int> stack;
    // Depth-first walk; each leaf closes one path made of the nodes on the stack.
    auto walk = [&](auto&& self, int node) -> void {
      if (node != 0) stack.push_back(node);
      if (trie[node].children.empty() && node != 0) {
        AttackPath path{static_cast<uint32_t>(attack_nodes_.size()),
                        static_cast<uint16_t>(stack.size()), 0};
        for (int n : stack) {
          attack_nodes_.push_back({static_cast<uint8_t>(trie[n].cell), trie[n].types});
          path.types |= trie[n].types;
        }
        attack_paths_.push_back(path);
      }
      for (auto& [cell, child] : trie[node].children) self(self, child);
      if (node != 0) stack.pop_back();
    };
    walk(walk, 0);
  }
}

}  // namespace fairyzero
