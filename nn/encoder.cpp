// Position -> planes, Move <-> policy index, outcome -> value target (layout in encoder.h).
#include "nn/encoder.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace fairyzero {

Encoder::Encoder(VariantPtr variant) : variant_(std::move(variant)) {
  if (!variant_) throw std::invalid_argument("Encoder: no variant");
  const Variant& v = *variant_;
  const Geometry& g = v.geometry;
  ranks_ = g.ranks();
  files_ = g.files();
  cells_ = g.cell_count();
  armies_ = v.army_count();
  types_ = v.piece_count();
  teams_ = 0;
  for (int t : v.team_of_army) teams_ = std::max(teams_, t + 1);
  seats_ = v.seat_count();

  for (const auto& [name, cells] : g.zones()) {  // std::map: name order
    zone_names_.push_back(name);
    std::vector<Cell> list;
    cells.for_each([&](Cell c) { list.push_back(c); });
    zone_cells_.push_back(std::move(list));
  }
  for (Cell c = 0; c < cells_; ++c)
    if (!g.exists(c)) missing_cells_.push_back(c);

  hand_plane_ = armies_ * types_;
  ones_plane_ = hand_plane_ + armies_ * types_;
  seat_plane_ = ones_plane_ + 2 + static_cast<int>(zone_names_.size());
  castling_plane_ = lock_plane() + 1;
  en_passant_plane_ = castling_plane_ + static_cast<int>(v.castling.size());
  plane_count_ = en_passant_plane_ + 4;

  constant_plane_.assign(plane_count_, false);
  auto constant = [&](int first, int count) {
    for (int p = first; p < first + count; ++p) constant_plane_[p] = true;
  };
  constant(hand_plane_, armies_ * types_);
  constant(ones_plane(), 1);
  constant(seat_plane_, 3 * seats_);  // seat, in game, partner
  constant(castling_plane_, static_cast<int>(v.castling.size()));
  constant(repetition_plane(), 3);  // repetition, move clock, game length
  for (int p = 0; p < plane_count_; ++p)
    (constant_plane_[p] ? constant_planes_ : bit_planes_).push_back(p);

  std::vector<bool> is_choice(types_, false);
  for (const PieceType& p : v.pieces)
    for (int t : p.promotion_choices) is_choice.at(t) = true;
  promotion_slot_.fill(-1);
  for (int t = 0; t < types_; ++t) {
    if (!is_choice[t]) continue;
    promotion_slot_[t] = static_cast<int>(promotion_types_.size());
    promotion_types_.push_back(t);
  }
  const long long size =
      (1LL + promotion_choice_count()) * cells_ * cells_ + static_cast<long long>(types_) * cells_;
  policy_size_ = static_cast<int>(size);
}

bool Encoder::mirrored(const Position& pos) const {
  return variant_->seats[pos.seat_to_move()].forward == Direction::kSouth;
}

int Encoder::repetitions(const Position& pos) const {
  // Position keeps its history private but can undo: replay backwards on a copy, only over the
  // plies since the last irreversible move (a repetition needs at least four plies).
  int reach = std::min(pos.halfmove_clock(), pos.plies_played());
  if (reach < 4 || variant_->rules.repetition <= 0) return 0;
  Position back = pos;
  int seen = 0;
  for (int i = 0; i < reach; ++i) {
    back.undo();
    if (back.hash() == pos.hash()) ++seen;
  }
  return seen;
}

void Encoder::encode(const Position& pos, float* out) const {
  const Variant& v = *variant_;
  const bool flip = mirrored(pos);
  const int mover = pos.army_to_move();
  std::memset(out, 0, sizeof(float) * plane_floats());
  auto plane = [&](int p) { return out + static_cast<size_t>(p) * cells_; };
  auto fill = [&](int p, float value) {
    if (value != 0) std::fill(plane(p), plane(p) + cells_, value);
  };
  auto relation = [&](int army) { return (army - mover + armies_) % armies_; };

  for (Cell c = 0; c < cells_; ++c) {
    PieceCode p = pos.piece_at(c);
    if (p == kEmpty) continue;
    plane(piece_plane(relation(army_of(p)), type_of(p)))[frame_cell(c, flip)] = 1;
  }
  for (int a = 0; a < armies_; ++a)
    for (int t = 0; t < types_; ++t)
      fill(hand_plane(relation(a), t), static_cast<float>(pos.hand_count(a, t)) / 8);
  fill(ones_plane(), 1);
  for (Cell c : missing_cells_) plane(missing_plane())[frame_cell(c, flip)] = 1;
  for (size_t z = 0; z < zone_cells_.size(); ++z)
    for (Cell c : zone_cells_[z]) plane(zone_plane(static_cast<int>(z)))[frame_cell(c, flip)] = 1;
  fill(seat_plane(pos.seat_to_move()), 1);
  for (int s = 0; s < seats_; ++s)
    if (pos.seat_in_game(s)) fill(in_game_plane(s), 1);
  if (const int partner = v.partner_of(pos.seat_to_move()); partner >= 0)
    fill(partner_plane(partner), 1);
  if (const Cell locked = pos.locked_cell(mover); locked != kNoCell)
    plane(lock_plane())[frame_cell(locked, flip)] = 1;
  for (int r = 0; r < static_cast<int>(v.castling.size()); ++r)
    if (pos.castling_rights() >> r & 1) fill(castling_plane(r), 1);
  if (pos.en_passant_cell() != kNoCell)
    plane(en_passant_plane())[frame_cell(pos.en_passant_cell(), flip)] = 1;
  fill(repetition_plane(), static_cast<float>(repetitions(pos)) / 2);
  if (v.rules.move_rule > 0)
    fill(move_clock_plane(), static_cast<float>(pos.halfmove_clock()) / (2.0f * v.rules.move_rule));
  const float horizon = v.rules.max_plies > 0 ? static_cast<float>(v.rules.max_plies) : 512.0f;
  fill(game_length_plane(), static_cast<float>(pos.game_ply()) / horizon);
}

size_t Encoder::packed_constants_offset() const {
  return (bit_planes_.size() * packed_plane_bytes() + 3) / 4 * 4;
}

size_t Encoder::packed_row_bytes() const {
  return (packed_constants_offset() + 4 * constant_planes_.size() + 7) / 8 * 8;
}

void Encoder::encode_packed(const Position& pos, std::byte* out) const {
  // Packed from the float planes, so both forms say the same by construction.
  thread_local std::vector<float> planes;
  planes.resize(plane_floats());
  encode(pos, planes.data());
  std::memset(out, 0, packed_row_bytes());
  const int plane_bytes = packed_plane_bytes();
  for (size_t i = 0; i < bit_planes_.size(); ++i) {
    const float* plane = planes.data() + static_cast<size_t>(bit_planes_[i]) * cells_;
    std::byte* bits = out + i * plane_bytes;
    for (int c = 0; c < cells_; ++c)
      if (plane[c] != 0) bits[c / 8] |= std::byte{1} << (c % 8);
  }
  std::byte* constants = out + packed_constants_offset();
  for (size_t i = 0; i < constant_planes_.size(); ++i)
    std::memcpy(constants + 4 * i,
                planes.data() + static_cast<size_t>(constant_planes_[i]) * cells_, sizeof(float));
}

int Encoder::policy_index(Move m, bool flip) const {
  const int to = frame_cell(m.to(), flip);
  if (m.kind() == MoveKind::kDrop)
    return (1 + promotion_choice_count()) * cells_ * cells_ + m.piece_type() * cells_ + to;
  const int pair = frame_cell(m.from(), flip) * cells_ + to;
  if (!m.is_promotion()) return pair;
  return (1 + promotion_slot_[m.piece_type()]) * cells_ * cells_ + pair;
}

void Encoder::mirror_files(float* planes) const {
  // Constant planes are unchanged by the flip, so every plane can be flipped alike.
  for (int p = 0; p < plane_count_; ++p)
    for (int r = 0; r < ranks_; ++r) {
      float* row = planes + (static_cast<size_t>(p) * ranks_ + r) * files_;
      std::reverse(row, row + files_);
    }
}

int Encoder::mirror_files(int index) const {
  auto cell = [&](int c) { return (c / files_) * files_ + (files_ - 1 - c % files_); };
  const int squares = cells_ * cells_;
  const int block = index / squares, rest = index % squares;
  if (block <= promotion_choice_count())  // a normal move or a promotion: (from, to) pairs
    return block * squares + cell(rest / cells_) * cells_ + cell(rest % cells_);
  // A drop: (type, to).
  return block * squares + (rest / cells_) * cells_ + cell(rest % cells_);
}

bool Encoder::holds_castling_right(const float* planes) const {
  for (size_t rule = 0; rule < variant_->castling.size(); ++rule)
    if (planes[static_cast<size_t>(castling_plane(static_cast<int>(rule))) * cells_] != 0)
      return true;
  return false;
}

Move Encoder::move_of_index(const MoveList& legal, bool flip, int index) const {
  for (Move m : legal)
    if (policy_index(m, flip) == index) return m;
  return Move{};
}

Move Encoder::move_of_index(const Position& pos, int index) const {
  if (index < 0 || index >= policy_size_) return Move{};
  return move_of_index(LegalMoves(pos), mirrored(pos), index);
}

std::array<float, kMaxSeats> Encoder::seat_values(const Position& pos, const float* wdl) const {
  std::array<float, kMaxSeats> values{};
  if (individual_heads()) {
    for (int s = 0; s < seats_; ++s) {
      const int head = (s - pos.seat_to_move() + seats_) % seats_;
      values[s] = wdl[3 * head] + wdl[3 * head + 1] / 2;
    }
    return values;
  }
  const int mover_team = team_of_seat(pos.seat_to_move());
  for (int s = 0; s < variant_->seat_count(); ++s) {
    const int head = (team_of_seat(s) - mover_team + teams_) % teams_;
    if (teams_ == 2) {
      const float mover_score = wdl[0] + wdl[1] / 2;
      values[s] = head == 0 ? mover_score : 1 - mover_score;
    } else {
      values[s] = wdl[3 * head] + wdl[3 * head + 1] / 2;
    }
  }
  return values;
}

void Encoder::value_target(const Position& pos, const Outcome& outcome, float* out) const {
  value_target(pos.seat_to_move(), outcome, out);
}

void Encoder::value_target(int seat_to_move, const Outcome& outcome, float* out) const {
  const Variant& v = *variant_;
  if (individual_heads()) {
    for (int h = 0; h < seats_; ++h) {
      const float score = static_cast<float>(outcome.individual[(seat_to_move + h) % seats_]);
      out[3 * h] = score;
      out[3 * h + 1] = 0;
      out[3 * h + 2] = 1 - score;
    }
    return;
  }
  const int mover_team = team_of_seat(seat_to_move);
  for (int h = 0; h < value_heads(); ++h) {
    const int team = (mover_team + h) % teams_;
    // Partners share a team score; the mean is robust to an outcome that gives them two.
    float sum = 0;
    int n = 0;
    for (int s = 0; s < v.seat_count(); ++s)
      if (team_of_seat(s) == team) sum += static_cast<float>(outcome.score[s]), ++n;
    const float score = n > 0 ? sum / n : 0.5f;
    const float win = std::max(0.0f, 2 * score - 1), loss = std::max(0.0f, 1 - 2 * score);
    out[3 * h] = win;
    out[3 * h + 1] = 1 - win - loss;
    out[3 * h + 2] = loss;
  }
}

NetworkShape Encoder::network_shape() const {
  return NetworkShape{plane_count_, ranks_,       files_, promotion_choice_count(),
                      types_,       value_heads()};
}

}  // namespace fairyzero
