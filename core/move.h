// A move as a compact 32-bit value, and the fixed-capacity list move generation fills.
#pragma once

#include <cstdint>
#include <stdexcept>

#include "core/types.h"

namespace fairyzero {

// Bit layout (Stockfish-style packed move):
//   bits  0-7   from cell (unused for drops)
//   bits  8-15  to cell
//   bits 16-20  piece type + 1 of the promotion choice or of the dropped piece (0 = none)
//   bits 21-23  MoveKind
//   bits 24-28  index of the castling rule (castling moves only)
// The value 0 is "no move".
enum class MoveKind : uint8_t {
  kNormal = 0,
  kDoubleStep = 1,
  kEnPassant = 2,
  kCastling = 3,
  kDrop = 4,
  // A seat with no legal move leaves the game (Gilman's four-player river games); the only move
  // such a seat has. Written "out".
  kDropOut = 5,
  // A seat with no legal move lets its turn go by (Double Commedia); written "pass".
  kPass = 6
};

class Move {
 public:
  constexpr Move() = default;
  static constexpr Move normal(Cell from, Cell to, MoveKind kind = MoveKind::kNormal) {
    return Move(static_cast<uint32_t>(from) | static_cast<uint32_t>(to) << 8 |
                static_cast<uint32_t>(kind) << 21);
  }
  static constexpr Move promotion(Cell from, Cell to, int type) {
    return Move(static_cast<uint32_t>(from) | static_cast<uint32_t>(to) << 8 |
                static_cast<uint32_t>(type + 1) << 16);
  }
  static constexpr Move castling(Cell king_from, Cell king_to, int rule) {
    return Move(static_cast<uint32_t>(king_from) | static_cast<uint32_t>(king_to) << 8 |
                static_cast<uint32_t>(MoveKind::kCastling) << 21 |
                static_cast<uint32_t>(rule) << 24);
  }
  static constexpr Move drop(int type, Cell to) {
    return Move(static_cast<uint32_t>(to) << 8 | static_cast<uint32_t>(type + 1) << 16 |
                static_cast<uint32_t>(MoveKind::kDrop) << 21);
  }

  static constexpr Move drop_out() { return Move(static_cast<uint32_t>(MoveKind::kDropOut) << 21); }
  static constexpr Move pass() { return Move(static_cast<uint32_t>(MoveKind::kPass) << 21); }
  // Drop-out and pass move no man.
  constexpr bool moves_no_man() const {
    return kind() == MoveKind::kDropOut || kind() == MoveKind::kPass;
  }

  constexpr Cell from() const { return bits_ & 0xff; }
  constexpr Cell to() const { return (bits_ >> 8) & 0xff; }
  constexpr MoveKind kind() const { return static_cast<MoveKind>((bits_ >> 21) & 7); }
  constexpr bool is_promotion() const {
    return kind() != MoveKind::kDrop && !moves_no_man() && ((bits_ >> 16) & 31) != 0;
  }
  // Promotion choice or dropped piece type; -1 when the move has neither.
  constexpr int piece_type() const { return static_cast<int>((bits_ >> 16) & 31) - 1; }
  constexpr int castling_rule() const { return (bits_ >> 24) & 31; }
  constexpr uint32_t raw() const { return bits_; }
  constexpr bool is_none() const { return bits_ == 0; }
  constexpr bool operator==(const Move&) const = default;
  constexpr bool operator<(const Move& o) const { return bits_ < o.bits_; }

 private:
  explicit constexpr Move(uint32_t bits) : bits_(bits) {}
  uint32_t bits_ = 0;
};

// Capacity is far above any position of a 16x16 board seen in practice (a few hundred moves);
// generation checks it and throws rather than overflow.
class MoveList {
 public:
  static constexpr int kCapacity = 4096;
  void push(Move m) {
    if (size_ == kCapacity) throw std::length_error("more than 4096 moves in one position");
    moves_[size_++] = m;
  }
  void truncate(int n) { size_ = n; }
  int size() const { return size_; }
  bool empty() const { return size_ == 0; }
  Move operator[](int i) const { return moves_[i]; }
  const Move* begin() const { return moves_; }
  const Move* end() const { return moves_ + size_; }
  Move* begin() { return moves_; }
  Move* end() { return moves_ + size_; }
  void clear() { size_ = 0; }
  bool contains(Move m) const {
    for (int i = 0; i < size_; ++i)
      if (moves_[i] == m) return true;
    return false;
  }

 private:
  Move moves_[kCapacity];
  int size_ = 0;
};

}  // namespace fairyzero
