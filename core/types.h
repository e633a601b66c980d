// Basic value types of the rules core: cells, cell sets, armies, seats and the limits they live in.
#pragma once

#include <array>
#include <bit>
#include <cstdint>

namespace fairyzero {

// A board has at most 16 x 16 cells; a cell index is rank * files + file, so it fits a byte.
inline constexpr int kMaxFiles = 16;
inline constexpr int kMaxRanks = 16;
inline constexpr int kMaxCells = kMaxFiles * kMaxRanks;
inline constexpr int kMaxPieceTypes = 31;  // piece codes must fit in a byte (see PieceCode)
inline constexpr int kMaxArmies = 4;
inline constexpr int kMaxSeats = 4;
inline constexpr int kNoCell = -1;

using Cell = int;

// A set of cells as a 256-bit mask. Used for zones, missing cells and move filters.
class CellSet {
 public:
  constexpr bool contains(Cell c) const { return (words_[c >> 6] >> (c & 63)) & 1; }
  constexpr void insert(Cell c) { words_[c >> 6] |= uint64_t{1} << (c & 63); }
  constexpr void erase(Cell c) { words_[c >> 6] &= ~(uint64_t{1} << (c & 63)); }
  constexpr int size() const {
    int n = 0;
    for (uint64_t w : words_) n += std::popcount(w);
    return n;
  }
  constexpr bool empty() const { return (words_[0] | words_[1] | words_[2] | words_[3]) == 0; }
  constexpr CellSet& operator|=(const CellSet& o) {
    for (int i = 0; i < 4; ++i) words_[i] |= o.words_[i];
    return *this;
  }
  constexpr CellSet& operator&=(const CellSet& o) {
    for (int i = 0; i < 4; ++i) words_[i] &= o.words_[i];
    return *this;
  }
  constexpr bool operator==(const CellSet&) const = default;

  // Calls f(cell) for every cell in increasing order.
  template <typename F>
  constexpr void for_each(F&& f) const {
    for (int i = 0; i < 4; ++i) {
      for (uint64_t w = words_[i]; w; w &= w - 1) f(i * 64 + std::countr_zero(w));
    }
  }

 private:
  std::array<uint64_t, 4> words_{};
};

// How a piece may use a move: to an empty cell, onto an enemy, or both.
enum MoveMode : uint8_t { kMoveOnly = 1, kCaptureOnly = 2, kMoveOrCapture = 3 };

// A piece on the board is one byte: 0 for an empty cell, else 1 + army * 32 + type.
using PieceCode = uint8_t;
inline constexpr PieceCode kEmpty = 0;
inline constexpr PieceCode make_piece(int army, int type) {
  return static_cast<PieceCode>(1 + army * 32 + type);
}
inline constexpr int army_of(PieceCode p) { return (p - 1) >> 5; }
inline constexpr int type_of(PieceCode p) { return (p - 1) & 31; }

}  // namespace fairyzero
