// Legal move generation and attack queries. Pseudo-legal moves come from the compiled tables;
// legality uses the checkers and pins of the mover's single royal piece when there is one, and
// falls back to trying the move on a scratch board otherwise (royal moves, pins, en passant,
// castling, several royals).
#include <cstring>

#include "core/coronation.h"
#include "core/position.h"

namespace fairyzero {
namespace {

// Does army `by` attack cell c on `board`, its men facing the way of seat orientation o? With
// `side`, only attacks that start or end there count (a restricted seat's moves).
bool attacked_from(const Variant& v, const PieceCode* board, Cell c, int by, int o,
                   uint32_t present, const CellSet* side) {
  const AttackNode* nodes = v.tables.attack_nodes();
  const bool target_on_side = side && side->contains(c);
  for (const AttackPath* p = v.tables.attack_paths_begin(o, c);
       p != v.tables.attack_paths_end(o, c); ++p) {
    if (!(p->types & present)) continue;
    const AttackNode* n = nodes + p->begin;
    for (const AttackNode* end = n + p->length; n != end; ++n) {
      PieceCode q = board[n->cell];
      if (q == kEmpty) continue;
      if (army_of(q) == by && (n->types >> type_of(q) & 1) &&
          (!side || target_on_side || side->contains(n->cell)))
        return true;
      break;
    }
  }
  return false;
}

}  // namespace

// A22: attacks follow moves. In four-player games an army attacks through each seat still
// playing, with that seat's forward and, while its partner plays, from or onto its side only.
bool Position::attacked_on(const PieceCode* board, Cell c, int by, uint32_t present) const {
  const Variant& v = *variant_;
  if (!v.has_sides())
    return attacked_from(v, board, c, by, v.attack_orientation(by), present, nullptr);
  for (int s = 0; s < v.seat_count(); ++s) {
    if (v.seats[s].army != by || !seat_in_game_[s]) continue;
    const CellSet* side = seat_restricted(s) ? &v.seats[s].side : nullptr;
    if (attacked_from(v, board, c, by, s, present, side)) return true;
  }
  return false;
}

struct Position::CheckInfo {
  // kCrowning: the army has no royal piece, but a move touching `crowning_lines` (its Princes'
  // cells and diagonals) may crown one into check (Irwell).
  enum Mode { kNoCheckRule, kFast, kSlow, kCrowning } mode = kNoCheckRule;
  CellSet crowning_lines;
  Cell royal = kNoCell;
  int checkers = 0;
  int checking_paths = 0;
  CellSet checker_cells;
  // The cells that stop every checking path at once: on each path, the checker's cell and the
  // cells between it and the royal.
  CellSet evasion_cells;
  CellSet pinned;
};

bool Position::is_attacked(Cell c, int by_army) const {
  return attacked_on(board_.data(), c, by_army, present_types_[by_army]);
}

bool Position::any_royal_attacked(int army) const {
  const Variant& v = *variant_;
  for (int i = 0; i < piece_count_[army]; ++i) {
    Cell c = piece_cells_[army][i];
    if (!v.pieces[type_of(board_[c])].royal) continue;
    for (int e = 0; e < v.army_count(); ++e)
      if (v.team_of_army[e] != v.team_of_army[army] && is_attacked(c, e)) return true;
  }
  return false;
}

bool Position::in_check() const {
  return variant_->rules.check && any_royal_attacked(army_to_move());
}

void Position::compute_check_info(int army, CheckInfo& info) const {
  const Variant& v = *variant_;
  if (!v.rules.check) return;
  int royals = 0;
  for (int i = 0; i < piece_count_[army]; ++i) {
    Cell c = piece_cells_[army][i];
    if (v.pieces[type_of(board_[c])].royal) {
      ++royals;
      info.royal = c;
    }
  }
  if (royals == 0) return;
  if (royals > 1 || v.has_sides()) {
    info.mode = CheckInfo::kSlow;
    return;
  }
  info.mode = CheckInfo::kFast;
  const AttackNode* nodes = v.tables.attack_nodes();
  for (int e = 0; e < v.army_count(); ++e) {
    if (v.team_of_army[e] == v.team_of_army[army] || piece_count_[e] == 0) continue;
    int o = v.attack_orientation(e);
    uint32_t present = present_types_[e];
    for (const AttackPath* p = v.tables.attack_paths_begin(o, info.royal);
         p != v.tables.attack_paths_end(o, info.royal); ++p) {
      if (!(p->types & present)) continue;
      const AttackNode* n = nodes + p->begin;
      const AttackNode* end = n + p->length;
      const AttackNode* first = nullptr;
      for (; n != end; ++n)
        if (board_[n->cell] != kEmpty) break;
      if (n == end) continue;
      PieceCode q = board_[n->cell];
      if (army_of(q) == e) {
        if (n->types >> type_of(q) & 1) {
          CellSet path_cells;
          for (const AttackNode* b = nodes + p->begin; b <= n; ++b) path_cells.insert(b->cell);
          if (!info.checker_cells.contains(n->cell)) {
            info.checker_cells.insert(n->cell);
            ++info.checkers;
          }
          // A move other than the royal's must stop every checking path: a second path of the
          // same checker (a curved rider) or another checker. Two checkers are not always a
          // King-move-only check: under Commedia's leaping rules one can check over the other
          // along the same line, and a block between the royal and the nearer stops both (A22).
          if (info.checking_paths++ == 0)
            info.evasion_cells = path_cells;
          else
            info.evasion_cells &= path_cells;
        }
        continue;
      }
      if (army_of(q) != army) continue;
      first = n;
      for (++n; n != end; ++n)
        if (board_[n->cell] != kEmpty) break;
      if (n == end) continue;
      q = board_[n->cell];
      if (army_of(q) == e && (n->types >> type_of(q) & 1)) info.pinned.insert(first->cell);
    }
  }
}

// Double Commedia: a move that takes an enemy King takes over its army, whose men then attack
// no more. The army taken this way, or -1.
int Position::army_taken_over_by(Move m) const {
  const Variant& v = *variant_;
  if (v.rules.royal_capture != Rules::RoyalCapture::kTakeOver || m.kind() == MoveKind::kDrop ||
      m.moves_no_man() || m.kind() == MoveKind::kCastling)
    return -1;
  PieceCode victim = board_[m.to()];
  return victim != kEmpty && v.pieces[type_of(victim)].royal ? army_of(victim) : -1;
}

bool Position::royal_safe_after(Move m, int army) const {
  const Variant& v = *variant_;
  const int taken_over = army_taken_over_by(m);
  PieceCode board[kMaxCells];
  std::memcpy(board, board_.data(), sizeof(board));
  switch (m.kind()) {
    case MoveKind::kDrop: board[m.to()] = make_piece(army, m.piece_type()); break;
    case MoveKind::kCastling: {
      const CastlingRule& rule = v.castling[m.castling_rule()];
      PieceCode king = board[rule.king_from], rook = board[rule.rook_from];
      board[rule.king_from] = board[rule.rook_from] = kEmpty;
      board[rule.king_to] = king;
      board[rule.rook_to] = rook;
      break;
    }
    case MoveKind::kEnPassant: board[ep_victim_] = kEmpty; [[fallthrough]];
    default:
      board[m.to()] = m.is_promotion() ? make_piece(army, m.piece_type()) : board[m.from()];
      board[m.from()] = kEmpty;
      break;
  }
  // Irwell: crowning one's own Prince next to an enemy Steward or before an enemy Bishop "would
  // be moving into Check".
  uint32_t everything = ~0u;
  const bool crowns = v.coronation.piece >= 0;
  if (crowns)
    coronation_cells(v, board).for_each(
        [&](Cell c) { board[c] = make_piece(army_of(board[c]), v.coronation.becomes); });
  int cells = v.geometry.cell_count();
  for (Cell c = 0; c < cells; ++c) {
    PieceCode p = board[c];
    if (p == kEmpty || army_of(p) != army || !v.pieces[type_of(p)].royal) continue;
    for (int e = 0; e < v.army_count(); ++e)
      if (e != taken_over && v.team_of_army[e] != v.team_of_army[army] &&
          attacked_on(board, c, e, crowns ? everything : present_types_[e]))
        return false;
  }
  return true;
}

void Position::generate_pseudo(int army, int orientation, const CellSet* side,
                               MoveList& out) const {
  const Variant& v = *variant_;
  const MovementTables& tables = v.tables;
  const LeapTarget* leaps = tables.leaps();
  const Ray* rays = tables.rays();
  const uint8_t* ray_cells = tables.ray_cells();
  int team = v.team_of_army[army];
  auto enemy = [&](PieceCode p) { return v.team_of_army[army_of(p)] != team; };
  const Geometry& g = v.geometry;
  const Cell locked = lock_cell_[army];
  for (int i = 0; i < piece_count_[army]; ++i) {
    Cell from = piece_cells_[army][i];
    if (from == locked) continue;  // a Rose waiting out its lock (A4)
    // A5: a restricted seat moves men whose move starts or ends on its side.
    const bool any_destination = !side || side->contains(from);
    int type = type_of(board_[from]);
    const PieceType& pt = v.pieces[type];
    const bool promotes = !pt.promotion_choices.empty();
    const CellSet* promotion_zone =
        promotes && !pt.promote_on_crossing ? &pt.promotion_zone[army] : nullptr;
    const MoveSpan& span = tables.moves(orientation, type, from);
    CellSet emitted;  // used only when two paths share a destination
    auto emit = [&](Cell to, MoveKind kind) {
      if (!any_destination && !side->contains(to)) return;
      if (span.overlapping) {
        if (emitted.contains(to)) return;
        emitted.insert(to);
      }
      bool promote =
          promotion_zone ? promotion_zone->contains(to) : promotes && g.crosses_river(from, to);
      bool promoted = false;
      if (promote) {
        for (int choice : pt.promotion_choices) {
          // Aire: "a team can have only one Rose at any time".
          int limit = v.pieces[choice].max_per_army;
          if (limit > 0 && type_count_[army][choice] >= limit) continue;
          out.push(Move::promotion(from, to, choice));
          promoted = true;
        }
      }
      if (!promoted || pt.promotion_optional) out.push(Move::normal(from, to, kind));
    };
    // Gilman's Pawns may not take an enemy Pawn moving the same way (REFERENCE.md A8), as the
    // two stand; Great Stour allows it by a move that crosses the River.
    auto may_capture = [&](Cell to, PieceCode q) {
      if (pt.same_direction_capture || type_of(q) != type) return true;
      if (pt.capture_when_crossing && g.crosses_river(from, to)) return true;
      return v.forward_at(from, orientation) != v.forward_at(to, v.orientation_at(army_of(q), to));
    };
    for (const LeapTarget *l = leaps + span.leap_begin, *end = l + span.leap_count; l != end; ++l) {
      PieceCode q = board_[l->cell];
      if (q == kEmpty) {
        if (l->mode & kMoveOnly)
          emit(l->cell, MoveKind::kNormal);
        else if (l->cell == ep_cell_ && pt.en_passant && enemy(board_[ep_victim_]) &&
                 (any_destination || side->contains(l->cell)))
          out.push(Move::normal(from, l->cell, MoveKind::kEnPassant));
      } else if ((l->mode & kCaptureOnly) && enemy(q) && may_capture(l->cell, q)) {
        emit(l->cell, MoveKind::kNormal);
      }
    }
    for (const Ray *r = rays + span.ray_begin, *end = r + span.ray_count; r != end; ++r) {
      const uint8_t* cells = ray_cells + r->begin;
      MoveKind kind = r->double_step ? MoveKind::kDoubleStep : MoveKind::kNormal;
      for (int k = 0; k < r->length; ++k) {
        PieceCode q = board_[cells[k]];
        if (q == kEmpty) {
          if (k >= r->first_destination && (r->mode & kMoveOnly)) emit(cells[k], kind);
          continue;
        }
        if (k >= r->first_destination && (r->mode & kCaptureOnly) && enemy(q) &&
            may_capture(cells[k], q))
          emit(cells[k], kind);
        break;
      }
    }
  }
}

// Castling with its cells empty and, with `safe_path`, no attacked cell on the King's path.
void Position::generate_castling(int army, bool safe_path, MoveList& out) const {
  const Variant& v = *variant_;
  for (int i = 0; i < static_cast<int>(v.castling.size()); ++i) {
    if (!(castling_rights_ >> i & 1)) continue;
    const CastlingRule& rule = v.castling[i];
    if (rule.army != army) continue;
    bool ok = true;
    for (Cell c : rule.must_be_empty) ok = ok && board_[c] == kEmpty;
    if (ok && (!safe_path || castling_path_safe(rule, army)))
      out.push(Move::castling(rule.king_from, rule.king_to, i));
  }
}

// REFERENCE 5.10 and A24: no castling out of or through check. Each crossed cell is tested with
// the King standing on it, not where it starts: a man that moves through the King's start cell
// (a Commedia Panda stepping f1-e1 past a King on f1) attacks the crossed cell once it is empty.
bool Position::castling_path_safe(const CastlingRule& rule, int army) const {
  const Variant& v = *variant_;
  PieceCode board[kMaxCells];
  std::memcpy(board, board_.data(), sizeof(board));
  const PieceCode king = board[rule.king_from];
  board[rule.king_from] = kEmpty;
  for (Cell c : rule.must_not_be_attacked) {
    const PieceCode before = board[c];
    board[c] = king;
    for (int e = 0; e < v.army_count(); ++e)
      if (v.team_of_army[e] != v.team_of_army[army] && attacked_on(board, c, e, present_types_[e]))
        return false;
    board[c] = before;
  }
  return true;
}

void Position::generate_drops(int army, MoveList& out) const {
  const Variant& v = *variant_;
  for (int t = 0; t < v.piece_count(); ++t) {
    if (hands_[army][t] == 0 || v.pieces[t].royal) continue;
    v.geometry.existing_cells().for_each([&](Cell c) {
      if (board_[c] == kEmpty) out.push(Move::drop(t, c));
    });
  }
}

void Position::pseudo_legal_moves(MoveList& out) const {
  out.clear();
  if (!game_decided()) generate_unchecked(false, out);
}

void Position::generate_unchecked(bool safe_castling, MoveList& out) const {
  const Variant& v = *variant_;
  int army = army_to_move();
  generate_pseudo(army, seat_, seat_restricted(seat_) ? &v.seats[seat_].side : nullptr, out);
  if (!v.castling.empty()) generate_castling(army, safe_castling, out);
  generate_drops(army, out);
  if (v.rules.royal_presence) keep_royal_presence(army, out);
  if (v.has_section_exclusion()) keep_out_of_held_sections(army, out);
}

void Position::legal_moves(MoveList& out) const {
  out.clear();
  // A decided game has no moves, not even the drop-out or pass below: perft counts the game's
  // tree, as Fairy-Stockfish does, and the search and the encoder see a finished game.
  if (game_decided()) return;
  generate_unchecked(true, out);
  const Variant& v = *variant_;
  int army = army_to_move();
  CheckInfo info;
  compute_check_info(army, info);
  // Irwell: a move may crown the mover's own Prince into check.
  if (v.coronation.piece >= 0 && v.rules.check) {
    if (info.mode == CheckInfo::kNoCheckRule && !own_prince_awaits_crowning(army)) {
      info.mode = CheckInfo::kCrowning;
      add_crowning_lines(army, info.crowning_lines);
    } else {
      info.mode = CheckInfo::kSlow;
    }
  }
  if (info.mode != CheckInfo::kNoCheckRule) keep_royals_safe(army, info, out);
  // A seat with no legal move drops out, unless its army has a King to be mated or stalemated.
  if (out.empty() && v.rules.drop_out) {
    bool royal = false;
    for (int t = 0; t < v.piece_count(); ++t)
      royal = royal || (v.pieces[t].royal && type_count_[army][t] > 0);
    if (!royal || !v.rules.check) out.push(Move::drop_out());
  }
  if (out.empty() && v.rules.pass_when_no_move) out.push(Move::pass());
}

// A Prince of the army already between a Bishop and a Steward (a take-over made the line):
// whatever move comes next crowns it.
bool Position::own_prince_awaits_crowning(int army) const {
  bool found = false;
  coronation_cells(*variant_, board_.data()).for_each([&](Cell c) {
    found = found || army_of(board_[c]) == army;
  });
  return found;
}

// The cells whose change can alter what stands first along a diagonal of the army's Princes.
void Position::add_crowning_lines(int army, CellSet& lines) const {
  const Geometry& g = variant_->geometry;
  static constexpr int kDiagonals[4][2] = {{1, 1}, {-1, -1}, {-1, 1}, {1, -1}};
  for (int i = 0; i < piece_count_[army]; ++i) {
    Cell c = piece_cells_[army][i];
    if (type_of(board_[c]) != variant_->coronation.piece) continue;
    lines.insert(c);
    for (const auto& d : kDiagonals)
      for (int f = g.file_of(c) + d[0], r = g.rank_of(c) + d[1]; g.on_grid(f, r);
           f += d[0], r += d[1])
        lines.insert(g.cell(f, r));
  }
}

void Position::keep_royals_safe(int army, const CheckInfo& info, MoveList& out) const {
  const bool takeover = variant_->rules.royal_capture == Rules::RoyalCapture::kTakeOver;
  int kept = 0;
  for (int i = 0; i < out.size(); ++i) {
    Move m = out[i];
    bool legal;
    if (info.mode == CheckInfo::kSlow) {
      legal = royal_safe_after(m, army);
    } else if (info.mode == CheckInfo::kCrowning) {
      legal = (!info.crowning_lines.contains(m.to()) &&
               (m.kind() == MoveKind::kDrop || !info.crowning_lines.contains(m.from()))) ||
              royal_safe_after(m, army);
    } else if (m.kind() == MoveKind::kDrop) {
      legal = info.checkers == 0 || info.evasion_cells.contains(m.to());
    } else if (m.from() == info.royal || m.kind() == MoveKind::kEnPassant ||
               m.kind() == MoveKind::kCastling || info.pinned.contains(m.from()) ||
               (takeover && army_taken_over_by(m) >= 0)) {
      legal = royal_safe_after(m, army);
    } else {
      legal = info.checkers == 0 || info.evasion_cells.contains(m.to());
    }
    if (legal) out.begin()[kept++] = m;
  }
  out.truncate(kept);
}

// CoBlaChe: "a Queen or Prince cannot move to a four-rank section occupied by an enemy Queen or
// Prince, even to capture that piece, but a Queen may move through such a section."
void Position::keep_out_of_held_sections(int army, MoveList& moves) const {
  const Variant& v = *variant_;
  const Geometry& g = v.geometry;
  std::array<bool, kMaxBanks> held{};
  for (int e = 0; e < v.army_count(); ++e) {
    if (v.team_of_army[e] == v.team_of_army[army]) continue;
    for (int i = 0; i < piece_count_[e]; ++i) {
      Cell c = piece_cells_[e][i];
      if (v.pieces[type_of(board_[c])].section_exclusion) held[std::max(0, g.bank_of(c))] = true;
    }
  }
  int kept = 0;
  for (Move m : moves) {
    bool barred = m.kind() != MoveKind::kDrop && m.kind() != MoveKind::kCastling &&
                  v.pieces[type_of(board_[m.from()])].section_exclusion &&
                  held[std::max(0, g.bank_of(m.to()))];
    if (!barred) moves.begin()[kept++] = m;
  }
  moves.truncate(kept);
}

// Great Stour: "a player must end their move with at least one Queen, Prince, or Primate of
// theirs [each] side of the River"; the four-player games: "each player must end their move
// with at least one Queen, Prince, or Princess of theirs their side of the River". Counts per
// bank, adjusted for the pieces a move relocates.
void Position::keep_royal_presence(int army, MoveList& moves) const {
  const Variant& v = *variant_;
  const Geometry& g = v.geometry;
  const uint32_t mask = v.rules.royal_presence;
  // A7: in the four-player games only the mover's own side counts ("bank" 0 = on it).
  const CellSet& side = v.seats[seat_].side;
  const int banks = side.empty() ? std::max(1, g.bank_count()) : 1;
  auto bank = [&](Cell c) {
    return side.empty() ? std::max(0, g.bank_of(c)) : side.contains(c) ? 0 : 1;
  };
  std::array<int, kMaxBanks> base{};
  for (int i = 0; i < piece_count_[army]; ++i) {
    Cell c = piece_cells_[army][i];
    if (mask >> type_of(board_[c]) & 1) ++base[bank(c)];
  }
  int kept = 0;
  for (Move m : moves) {
    std::array<int, kMaxBanks> count = base;
    auto relocate = [&](int type_before, Cell from, int type_after, Cell to) {
      if (from != kNoCell && (mask >> type_before & 1)) --count[bank(from)];
      if (mask >> type_after & 1) ++count[bank(to)];
    };
    if (m.kind() == MoveKind::kDrop) {
      relocate(m.piece_type(), kNoCell, m.piece_type(), m.to());
    } else if (m.kind() == MoveKind::kCastling) {
      const CastlingRule& rule = v.castling[m.castling_rule()];
      relocate(type_of(board_[rule.king_from]), rule.king_from, type_of(board_[rule.king_from]),
               rule.king_to);
      relocate(type_of(board_[rule.rook_from]), rule.rook_from, type_of(board_[rule.rook_from]),
               rule.rook_to);
    } else {
      int type = type_of(board_[m.from()]);
      relocate(type, m.from(), m.is_promotion() ? m.piece_type() : type, m.to());
    }
    bool present = true;
    for (int b = 0; b < banks; ++b) present = present && count[b] > 0;
    if (present) moves.begin()[kept++] = m;
  }
  moves.truncate(kept);
}

}  // namespace fairyzero
