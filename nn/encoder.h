// Position -> input planes, Move <-> policy index, and game result -> value target: the one
// place that fixes what the network sees and what its outputs mean, for every variant. No torch.
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <vector>

#include "core/position.h"
#include "nn/network_config.h"

namespace fairyzero {

// Frame. Everything is drawn from the point of view of the seat to move: armies are numbered
// relative to the mover's army, and when the seat to move faces south the ranks are mirrored
// (encoded rank = ranks - 1 - rank), so the mover always plays "up" the board, as lc0 flips
// for Black. Files are never mirrored; seats facing east or west are not rotated (boards need
// not be square), the seat planes tell the network who moves. Policy indices use the same
// frame as the planes, so the policy head's (from, to) cells are the planes' cells: a move's
// index depends on the position's frame, hence policy_index takes the position (or the flag).
//
// Input planes, shape [plane_count(), ranks(), files()], row-major (plane, rank, file), floats.
// With A = armies, T = piece types, Z = named zones of the geometry, S = seats, C = castling
// rules, in this order (offsets are returned by the *_plane() accessors below):
//   pieces      A*T  plane rel*T + type is 1 where a man of that type of the army
//                    (mover_army + rel) % A stands; rel 0 is the mover's own army
//   hands       A*T  constant: count of that type in the hand of army (mover_army + rel) % A,
//                    divided by 8 (present for every variant, all zero without drops)
//   ones        1    constant 1: lets the convolutions see the board's edges (lc0)
//   missing     1    1 on cells the geometry lacks (holes), 0 elsewhere
//   zones       Z    1 on the cells of each named zone, zones in name order
//   seat        S    constant: 1 on the plane of the seat to move (absolute seat index)
//   in game     S    constant: 1 on the plane of each seat still in the game (absolute index;
//                    a seat that dropped out has 0; two-seat games: always both 1)
//   partner     S    constant: 1 on the plane of the seat to move's partner, the other seat of
//                    its army (absolute index), whether or not it still plays; all zero when
//                    the seat has no partner (two-seat variants)
//   lock        1    1 on the cell of the mover's army's locked man (Rose lock), if any
//   castling    C    constant: 1 while castling rule c is still available (absolute index)
//   en passant  1    1 on the cell where an en-passant capture may land, if any
//   repetition  1    constant: earlier occurrences of this position / 2, counted by hash over
//                    the plies since the last irreversible move that the position can undo
//                    (positions set up from a FEN have no history: 0)
//   move clock  1    constant: halfmove_clock / (2 * move_rule), or 0 without a move rule
//   game length 1    constant: game_ply / max_plies, or game_ply / 512 without a limit
//
// Policy indices, with cells = files * ranks (missing cells included) and cell indices taken in
// the frame above:
//   normal move (also double step, en passant, castling as the king's from -> to)
//               from * cells + to                              in [0, cells^2)
//   promotion   (1 + k) * cells^2 + from * cells + to          k = promotion slot of the type
//   drop        (1 + P) * cells^2 + type * cells + to
// where the promotion slots are the piece types that are a promotion choice of any piece, in
// type order (P of them). policy_size() = (1 + P) * cells^2 + T * cells. Every legal move of a
// position has a distinct index, except if a variant lets a king reach its castling target by
// a normal move too (no variant here does).
//
// Value, by the variant's scoring (Variant::scoring). A head's expected score is W + D / 2.
//   Scoring::kTeam        win/draw/loss per team, teams numbered relative to the mover's team
//                         (head h = team (mover_team + h) % teams). With two teams one head
//                         suffices (the other team's WDL is its mirror), so value_heads() = 1
//                         for two teams, else the number of teams.
//   Scoring::kIndividual  one head per seat, seats numbered relative to the seat to move in
//                         seat index order (head h = seat (mover + h) % S), so value_heads() = S.
//                         A seat's score x (Outcome::individual, between 0 and 1) is the target
//                         (x, 0, 1 - x): no draw mass, so W + D / 2 = x exactly.
//
// Thread safety: an Encoder is immutable after construction; all methods are const and may be
// called from any number of threads.
class Encoder {
 public:
  // Bump when the planes or the policy layout change; checkpoints record it.
  static constexpr int kVersion = 2;  // 2: in-game, partner, lock planes

  explicit Encoder(VariantPtr variant);

  const Variant& variant() const { return *variant_; }
  const VariantPtr& variant_ptr() const { return variant_; }

  int ranks() const { return ranks_; }
  int files() const { return files_; }
  int cells() const { return cells_; }
  int plane_count() const { return plane_count_; }
  int plane_floats() const { return plane_count_ * cells_; }  // floats encode() writes

  // First plane of each group (see the table above).
  int piece_plane(int relation, int type) const { return relation * types_ + type; }
  int hand_plane(int relation, int type) const { return hand_plane_ + relation * types_ + type; }
  int ones_plane() const { return ones_plane_; }
  int missing_plane() const { return ones_plane_ + 1; }
  int zone_plane(int zone) const { return ones_plane_ + 2 + zone; }
  int seat_plane(int seat) const { return seat_plane_ + seat; }
  int in_game_plane(int seat) const { return seat_plane_ + seats_ + seat; }
  int partner_plane(int seat) const { return seat_plane_ + 2 * seats_ + seat; }
  int lock_plane() const { return seat_plane_ + 3 * seats_; }
  int castling_plane(int rule) const { return castling_plane_ + rule; }
  int en_passant_plane() const { return en_passant_plane_; }
  int repetition_plane() const { return en_passant_plane_ + 1; }
  int move_clock_plane() const { return en_passant_plane_ + 2; }
  int game_length_plane() const { return en_passant_plane_ + 3; }
  // Zone names in plane order.
  const std::vector<std::string>& zone_names() const { return zone_names_; }

  // True when the position is encoded with mirrored ranks (its seat to move faces south).
  bool mirrored(const Position& pos) const;
  // The cell index of `cell` in the encoded frame (mirroring is its own inverse).
  Cell frame_cell(Cell cell, bool mirrored) const {
    return mirrored ? (ranks_ - 1 - cell / files_) * files_ + cell % files_ : cell;
  }

  // Writes plane_floats() floats to `out`.
  void encode(const Position& pos, float* out) const;

  // Compact rows for an accelerator. Every plane above is either 0/1 on each cell or one value
  // on every cell ("constant"), so a packed row holds the 0/1 planes as bits and each constant
  // plane as one float, about 30x smaller than the floats; the device expands it
  // (nn/packed_planes.h). Layout: the bit planes in plane order, packed_plane_bytes() each (cell
  // c in byte c / 8, bit c % 8), padded to a multiple of 4 bytes; then one float per constant
  // plane, in plane order; the row padded to a multiple of 8 bytes.
  bool constant_plane(int plane) const { return constant_plane_[plane]; }
  const std::vector<int>& bit_planes() const { return bit_planes_; }
  const std::vector<int>& constant_planes() const { return constant_planes_; }
  int packed_plane_bytes() const { return (cells_ + 7) / 8; }
  size_t packed_constants_offset() const;
  size_t packed_row_bytes() const;
  void encode_packed(const Position& pos, std::byte* out) const;

  int promotion_choice_count() const { return static_cast<int>(promotion_types_.size()); }
  // Piece types of the promotion slots, in slot order.
  const std::vector<int>& promotion_types() const { return promotion_types_; }
  int piece_type_count() const { return types_; }
  int policy_size() const { return policy_size_; }
  // Index of a move of `pos` (or of a position whose frame is `mirrored`). Precondition: the
  // move is one that the variant can produce (cells on the board, promotion type a slot).
  int policy_index(const Position& pos, Move m) const { return policy_index(m, mirrored(pos)); }
  int policy_index(Move m, bool mirrored) const;
  // The legal move of `pos` with this index, or Move{} when none has it (index out of range
  // included). Generates the legal moves; the second form searches a list already made.
  Move move_of_index(const Position& pos, int index) const;
  Move move_of_index(const MoveList& legal, bool mirrored, int index) const;

  // Left-right mirroring in the encoded frame (training.mirror_files, training/learn): files
  // a <-> h on every plane, and the index of the mirrored move. Meaningful only for a variant
  // that core/file_mirror.h finds symmetric and a position holding no castling right
  // (holds_castling_right). Both are their own inverses.
  void mirror_files(float* planes) const;
  int mirror_files(int policy_index) const;
  bool holds_castling_right(const float* planes) const;

  int team_count() const { return teams_; }
  bool individual_heads() const { return variant_->scoring == Scoring::kIndividual; }
  int value_heads() const {
    if (individual_heads()) return seats_;
    return teams_ == 2 ? 1 : teams_;
  }
  // Per-seat expected scores from the value head's probabilities of `pos` ([value_heads()][3],
  // W, D, L per head, as above; per team or per seat by the scoring).
  std::array<float, kMaxSeats> seat_values(const Position& pos, const float* wdl) const;
  // The training target of the value head for `pos` in a game that ended with `outcome`:
  // writes value_heads() * 3 floats (W, D, L per head). Team scoring: a team scoring s
  // (Outcome::score) gets W = max(0, 2s-1), L = max(0, 1-2s), D = the rest, so 1 / 0.5 / 0 are
  // a plain win / draw / loss. Individual scoring: a seat scoring x (Outcome::individual) gets
  // (x, 0, 1 - x).
  void value_target(const Position& pos, const Outcome& outcome, float* out) const;
  // The same for a position where `seat_to_move` was to move (self-play keeps only the seat).
  void value_target(int seat_to_move, const Outcome& outcome, float* out) const;

  NetworkShape network_shape() const;

 private:
  int team_of_seat(int seat) const { return variant_->team_of_army[variant_->seats[seat].army]; }
  int repetitions(const Position& pos) const;

  VariantPtr variant_;
  int ranks_, files_, cells_, armies_, types_, teams_, seats_;
  int hand_plane_, ones_plane_, seat_plane_, castling_plane_, en_passant_plane_, plane_count_;
  std::vector<std::string> zone_names_;
  std::vector<std::vector<Cell>> zone_cells_;  // cells of each zone, unmirrored
  std::vector<Cell> missing_cells_;
  std::vector<bool> constant_plane_;
  std::vector<int> bit_planes_, constant_planes_;
  std::vector<int> promotion_types_;
  std::array<int, kMaxPieceTypes> promotion_slot_{};  // slot of a type, -1 when none
  int policy_size_;
};

}  // namespace fairyzero
