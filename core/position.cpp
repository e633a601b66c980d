// Position state: placing pieces, play/undo with incremental hashing, and the FEN dialect.
#include "core/position.h"

#include <algorithm>
#include <cassert>
#include <cctype>
#include <sstream>

namespace fairyzero {

Position::Position(VariantPtr variant) { *this = from_fen(variant, variant->start_fen); }

void Position::put_piece(PieceCode p, Cell c) {
  int army = army_of(p), type = type_of(p);
  board_[c] = p;
  index_[c] = static_cast<uint8_t>(piece_count_[army]);
  piece_cells_[army][piece_count_[army]++] = static_cast<uint8_t>(c);
  if (type_count_[army][type]++ == 0) present_types_[army] |= 1u << type;
  hash_ ^= variant_->piece_key(p, c);
}

void Position::remove_piece(Cell c) {
  PieceCode p = board_[c];
  int army = army_of(p), type = type_of(p);
  hash_ ^= variant_->piece_key(p, c);
  board_[c] = kEmpty;
  uint8_t last = piece_cells_[army][--piece_count_[army]];
  piece_cells_[army][index_[c]] = last;
  index_[last] = index_[c];
  if (--type_count_[army][type] == 0) present_types_[army] &= ~(1u << type);
}

void Position::move_piece(Cell from, Cell to) {
  PieceCode p = board_[from];
  hash_ ^= variant_->piece_key(p, from) ^ variant_->piece_key(p, to);
  board_[to] = p;
  board_[from] = kEmpty;
  index_[to] = index_[from];
  piece_cells_[army_of(p)][index_[to]] = static_cast<uint8_t>(to);
}

int Position::next_seat(int seat) const {
  const std::vector<int>& order = variant_->turn_order;
  int n = static_cast<int>(order.size());
  int at = 0;
  while (order[at] != seat) ++at;
  for (int k = 1; k <= n; ++k) {
    int s = order[(at + k) % n];
    if (seat_in_game_[s]) return s;
  }
  return seat;
}

bool Position::set_path_victim_from_fen(Cell c) {
  const Variant& v = *variant_;
  PieceCode royal = board_[c];
  for (int i = 0; i < static_cast<int>(v.castling.size()); ++i) {
    const CastlingRule& rule = v.castling[i];
    if (!rule.capture_on_path || rule.king_to != c || royal == kEmpty ||
        army_of(royal) != rule.army || rule.army == army_to_move())
      continue;
    path_victim_ = c;
    path_rule_ = i;
    hash_ ^= v.path_key(c);
    return true;
  }
  return false;
}

Cell Position::crossed_cell(Cell from, Cell to) const {
  const Geometry& g = variant_->geometry;
  int df = g.file_of(to) - g.file_of(from), dr = g.rank_of(to) - g.rank_of(from);
  return g.cell(g.file_of(to) - (df > 0) + (df < 0), g.rank_of(to) - (dr > 0) + (dr < 0));
}

void Position::set_en_passant(Cell crossed, Cell to, int army) {
  // Keep the cell only when an enemy en-passant piece could take there, as Stockfish does, so
  // equal positions get equal FENs and hashes.
  uint32_t takers = 0;
  for (int t = 0; t < variant_->piece_count(); ++t)
    if (variant_->pieces[t].en_passant) takers |= 1u << t;
  for (int e = 0; e < variant_->army_count(); ++e) {
    if (variant_->team_of_army[e] == variant_->team_of_army[army]) continue;
    uint32_t present = present_types_[e] & takers;
    if (!present) continue;
    int o = variant_->attack_orientation(e);
    const AttackNode* nodes = variant_->tables.attack_nodes();
    for (const AttackPath* p = variant_->tables.attack_paths_begin(o, crossed);
         p != variant_->tables.attack_paths_end(o, crossed); ++p) {
      if (!(nodes[p->begin].types & present)) continue;
      PieceCode q = board_[nodes[p->begin].cell];
      if (q != kEmpty && army_of(q) == e && (nodes[p->begin].types & present) >> type_of(q) & 1) {
        ep_cell_ = crossed;
        ep_victim_ = to;
        hash_ ^= variant_->en_passant_key(crossed);
        return;
      }
    }
  }
}

void Position::play(Move m) {
  const Variant& v = *variant_;
  int army = army_to_move();
  UndoRecord r{m,
               kEmpty,
               kEmpty,
               0,
               static_cast<int16_t>(ep_cell_),
               static_cast<int16_t>(ep_victim_),
               castling_rights_,
               halfmove_clock_,
               hash_,
               seat_,
               static_cast<int16_t>(path_victim_),
               static_cast<int8_t>(path_rule_),
               kEmpty,
               0};
  r.last_mover = static_cast<int8_t>(last_mover_);
  r.fallen_army = fallen_army_;
  r.lock_cell = lock_cell_;
  r.lock_pending = lock_pending_;
  hash_ ^= v.seat_key(seat_);
  if (ep_cell_ != kNoCell) hash_ ^= v.en_passant_key(ep_cell_);
  Cell old_victim = ep_victim_;
  ep_cell_ = ep_victim_ = kNoCell;
  if (m.moves_no_man()) {
    history_.push_back(r);
    hash_ ^= lock_hash();
    // Not a move: "A move ending with ..." crowns, a drop-out or a pass does not.
    if (m.kind() == MoveKind::kDropOut) play_drop_out();
    if (m.kind() == MoveKind::kPass) ++halfmove_clock_;
    seat_ = next_seat(seat_);
    hash_ ^= v.seat_key(seat_) ^ lock_hash();
    ++game_ply_;
    assert(consistency_problem().empty());
    return;
  }
  Cell from = m.from(), to = m.to();
  bool reset_clock = false;
  switch (m.kind()) {
    case MoveKind::kDrop: {
      int type = m.piece_type();
      hash_ ^= v.hand_key(army, type, hands_[army][type]);
      --hands_[army][type];
      hash_ ^= v.hand_key(army, type, hands_[army][type]);
      put_piece(make_piece(army, type), to);
      r.moved = board_[to];
      break;
    }
    case MoveKind::kCastling: {
      const CastlingRule& rule = v.castling[m.castling_rule()];
      PieceCode king = board_[rule.king_from], rook = board_[rule.rook_from];
      r.moved = king;
      remove_piece(rule.king_from);
      remove_piece(rule.rook_from);
      put_piece(king, rule.king_to);
      put_piece(rook, rule.rook_to);
      break;
    }
    case MoveKind::kEnPassant:
      r.moved = board_[from];
      r.captured = board_[old_victim];
      r.captured_cell = static_cast<uint8_t>(old_victim);
      remove_piece(old_victim);
      move_piece(from, to);
      reset_clock = true;
      break;
    case MoveKind::kDropOut:
    case MoveKind::kPass: break;  // handled above
    case MoveKind::kNormal:
    case MoveKind::kDoubleStep: {
      r.moved = board_[from];
      if (board_[to] != kEmpty) {
        r.captured = board_[to];
        r.captured_cell = static_cast<uint8_t>(to);
        remove_piece(to);
        reset_clock = true;
      }
      move_piece(from, to);
      if (m.is_promotion()) {
        remove_piece(to);
        put_piece(make_piece(army, m.piece_type()), to);
      }
      break;
    }
  }
  if (m.kind() != MoveKind::kDrop && v.pieces[type_of(r.moved)].resets_move_count)
    reset_clock = true;
  if (path_victim_ != kNoCell) {  // the move right after a capture_on_path castling
    const CastlingRule& castled = v.castling[path_rule_];
    const auto& path = castled.royal_path;
    PieceCode royal = board_[path_victim_];
    if (std::find(path.begin(), path.end(), to) != path.end() && royal != kEmpty &&
        army_of(royal) == castled.army) {
      r.path_captured = royal;
      r.path_captured_cell = static_cast<uint8_t>(path_victim_);
      remove_piece(path_victim_);
      reset_clock = true;
    }
    hash_ ^= v.path_key(path_victim_);
    path_victim_ = kNoCell;
    path_rule_ = -1;
  }
  if (m.kind() == MoveKind::kCastling && v.castling[m.castling_rule()].capture_on_path) {
    path_victim_ = v.castling[m.castling_rule()].king_to;
    path_rule_ = m.castling_rule();
    hash_ ^= v.path_key(path_victim_);
  }
  uint32_t cleared = castling_rights_ & (v.castling_mask(from) | v.castling_mask(to));
  if (m.kind() == MoveKind::kCastling) {
    const CastlingRule& rule = v.castling[m.castling_rule()];
    cleared =
        castling_rights_ & (v.castling_mask(rule.king_from) | v.castling_mask(rule.rook_from));
  }
  for (uint32_t bits = cleared; bits; bits &= bits - 1)
    hash_ ^= v.castling_key(std::countr_zero(bits));
  castling_rights_ &= ~cleared;
  halfmove_clock_ = reset_clock ? 0 : halfmove_clock_ + 1;
  if (m.kind() == MoveKind::kDoubleStep) set_en_passant(crossed_cell(from, to), to, army);
  history_.push_back(r);
  last_mover_ = seat_;
  if (v.seat_count() > v.army_count()) {
    hash_ ^= lock_hash();
    update_locks(m, army, r.moved, r.captured, r.captured_cell);
    hash_ ^= lock_hash();
  }
  if (v.rules.captures_to_hand) {
    if (r.captured != kEmpty) capture_to_hand(army, r.captured);
    if (r.path_captured != kEmpty) capture_to_hand(army, r.path_captured);
  }
  // A King left in check while its army's turn came round late (a seat out, or several
  // opponents) can be taken.
  if (r.captured != kEmpty && v.pieces[type_of(r.captured)].royal) {
    if (v.rules.royal_capture == Rules::RoyalCapture::kTakeOver)
      take_over_army(army_of(r.captured), army);
    else
      fallen_army_ = static_cast<int8_t>(army_of(r.captured));
  }
  if (v.coronation.piece >= 0) apply_coronations();
  seat_ = next_seat(seat_);
  hash_ ^= v.seat_key(seat_);
  ++game_ply_;
  assert(consistency_problem().empty());
}

void Position::undo() {
  if (history_.empty()) throw std::logic_error("undo: no move to take back");
  UndoRecord r = history_.back();
  history_.pop_back();
  const Variant& v = *variant_;
  Move m = r.move;
  for (int k = 0; k < r.changes; ++k) {  // take-over and Coronation, newest first
    auto [cell, former] = changes_.back();
    changes_.pop_back();
    remove_piece(cell);
    put_piece(former, cell);
  }
  for (int k = 0; k < r.hand_changes; ++k) {
    auto [army, type, count] = hand_changes_.back();
    hand_changes_.pop_back();
    hands_[army][type] = count;
  }
  for (int s = 0; s < kMaxSeats; ++s)
    if (r.eliminated >> s & 1) {
      seat_in_game_[s] = true;
      dropout_order_[s] = -1;
    }
  last_mover_ = r.last_mover;
  fallen_army_ = r.fallen_army;
  lock_cell_ = r.lock_cell;
  lock_pending_ = r.lock_pending;
  if (m.moves_no_man()) {
    if (m.kind() == MoveKind::kDropOut) {
      seat_in_game_[r.seat] = true;
      dropout_order_[r.seat] = -1;
    }
    ep_cell_ = r.ep_cell;
    ep_victim_ = r.ep_victim;
    halfmove_clock_ = r.halfmove_clock;
    seat_ = r.seat;
    hash_ = r.hash;
    --game_ply_;
    return;
  }
  int army = army_of(r.moved);
  switch (m.kind()) {
    case MoveKind::kDrop: {
      remove_piece(m.to());
      ++hands_[army][m.piece_type()];
      break;
    }
    case MoveKind::kCastling: {
      const CastlingRule& rule = v.castling[m.castling_rule()];
      PieceCode rook = board_[rule.rook_to];
      remove_piece(rule.king_to);
      remove_piece(rule.rook_to);
      put_piece(r.moved, rule.king_from);
      put_piece(rook, rule.rook_from);
      break;
    }
    default:
      if (m.is_promotion()) {
        remove_piece(m.to());
        put_piece(r.moved, m.to());
      }
      move_piece(m.to(), m.from());
      if (r.captured != kEmpty) put_piece(r.captured, r.captured_cell);
      break;
  }
  if (r.path_captured != kEmpty) put_piece(r.path_captured, r.path_captured_cell);
  path_victim_ = r.path_victim;
  path_rule_ = r.path_rule;
  ep_cell_ = r.ep_cell;
  ep_victim_ = r.ep_victim;
  castling_rights_ = r.castling_rights;
  halfmove_clock_ = r.halfmove_clock;
  seat_ = r.seat;
  hash_ = r.hash;
  --game_ply_;
  assert(consistency_problem().empty());
}

std::string Position::consistency_problem() const {
  const Variant& v = *variant_;
  const Geometry& g = v.geometry;
  std::array<std::array<int, kMaxPieceTypes>, kMaxArmies> counts{};
  for (Cell c = 0; c < g.cell_count(); ++c) {
    const PieceCode p = board_[c];
    if (p == kEmpty) continue;
    const std::string at = " on " + g.cell_name(c);
    if (!g.exists(c)) return "a man stands on the missing cell" + at;
    if (army_of(p) >= v.army_count() || type_of(p) >= v.piece_count())
      return "an unknown piece code" + at;
    const int army = army_of(p);
    if (index_[c] >= piece_count_[army] || piece_cells_[army][index_[c]] != c)
      return "the piece list of army " + v.armies[army] + " does not hold the man" + at;
    ++counts[army][type_of(p)];
  }
  for (int a = 0; a < v.army_count(); ++a) {
    int total = 0;
    for (int t = 0; t < v.piece_count(); ++t) {
      if (counts[a][t] != type_count_[a][t])
        return "army " + v.armies[a] + " counts " + std::to_string(type_count_[a][t]) + " " +
               v.pieces[t].name + "s, the board holds " + std::to_string(counts[a][t]);
      if (((present_types_[a] >> t) & 1) != (counts[a][t] > 0))
        return "army " + v.armies[a] + "'s present types disagree about " + v.pieces[t].name;
      total += counts[a][t];
    }
    if (total != piece_count_[a])
      return "army " + v.armies[a] + "'s piece list has " + std::to_string(piece_count_[a]) +
             " entries for " + std::to_string(total) + " men";
  }
  if (hash_ != compute_hash()) return "the incremental hash differs from the computed one";
  return "";
}

uint64_t Position::compute_hash() const {
  const Variant& v = *variant_;
  uint64_t h = v.seat_key(seat_);
  for (Cell c = 0; c < v.geometry.cell_count(); ++c)
    if (board_[c] != kEmpty) h ^= v.piece_key(board_[c], c);
  for (int a = 0; a < v.army_count(); ++a)
    for (int t = 0; t < v.piece_count(); ++t) h ^= v.hand_key(a, t, hands_[a][t]);
  for (uint32_t bits = castling_rights_; bits; bits &= bits - 1)
    h ^= v.castling_key(std::countr_zero(bits));
  if (ep_cell_ != kNoCell) h ^= v.en_passant_key(ep_cell_);
  if (path_victim_ != kNoCell) h ^= v.path_key(path_victim_);
  for (int s = 0; s < v.seat_count(); ++s)
    if (!seat_in_game_[s]) h ^= v.out_key(s);
  return h ^ lock_hash();
}

Outcome length_cap_outcome() {
  Outcome outcome;
  outcome.termination = Termination::kMaxPlies;
  outcome.score.fill(0.5);
  outcome.individual.fill(0.5);
  outcome.rank.fill(1);
  return outcome;
}

}  // namespace fairyzero
