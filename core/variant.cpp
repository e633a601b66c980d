// Variant validation, compilation of move tables and Zobrist keys.
#include "core/variant.h"

#include <cctype>

#include "core/position.h"

namespace fairyzero {
namespace {

// SplitMix64: a fixed seed gives the same keys in every run and on every machine.
struct KeyGenerator {
  uint64_t state = 0x9E3779B97F4A7C15ull;
  uint64_t next() {
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
};

}  // namespace

int Variant::piece_by_letter(char letter) const {
  char upper = static_cast<char>(std::toupper(static_cast<unsigned char>(letter)));
  for (int t = 0; t < piece_count(); ++t)
    if (pieces[t].letter == upper) return t;
  return -1;
}

PieceCode Variant::piece_code_of_letter(char letter) const {
  int type = piece_by_letter(letter);
  if (type < 0) return kEmpty;
  int army = std::isupper(static_cast<unsigned char>(letter)) ? 0 : 1;
  if (army >= army_count()) return kEmpty;
  return make_piece(army, type);
}

char Variant::letter_of(PieceCode p) const {
  char letter = pieces[type_of(p)].letter;
  return army_of(p) == 0 ? letter
                         : static_cast<char>(std::tolower(static_cast<unsigned char>(letter)));
}

std::string Variant::piece_text(PieceCode p) const {
  if (army_count() <= 2) return std::string(1, letter_of(p));
  return std::string(1, army_tags[army_of(p)]) + pieces[type_of(p)].letter;
}

void Variant::build_zobrist() {
  KeyGenerator gen;
  auto fill = [&](std::vector<uint64_t>& keys, size_t n) {
    keys.resize(n);
    for (uint64_t& k : keys) k = gen.next();
  };
  fill(piece_keys_,
       static_cast<size_t>(make_piece(kMaxArmies - 1, kMaxPieceTypes - 1) + 1) * kMaxCells);
  fill(seat_keys_, kMaxSeats);
  fill(castling_keys_, 32);
  fill(en_passant_keys_, kMaxCells);
  fill(hand_keys_, static_cast<size_t>(kMaxArmies) * kMaxPieceTypes * kMaxHandCount);
  fill(path_keys_, kMaxCells);
  fill(out_keys_, kMaxSeats);
  fill(lock_keys_, static_cast<size_t>(kMaxArmies) * kMaxCells);
  fill(lock_pending_keys_, static_cast<size_t>(kMaxArmies) * 16);
  // An empty hand contributes nothing, so positions without drops hash as if hands did not exist.
  for (int a = 0; a < kMaxArmies; ++a)
    for (int t = 0; t < kMaxPieceTypes; ++t)
      hand_keys_[(a * kMaxPieceTypes + t) * kMaxHandCount] = 0;
}

// Sides, partners and the seat that faces a man's way on each cell (four-player river games).
template <typename Fail>
void Variant::build_seat_maps(Fail&& fail) {
  has_sides_ = false;
  for (int s = 0; s < seat_count(); ++s) {
    partner_[s] = -1;
    for (int t = 0; t < seat_count(); ++t)
      if (t != s && seats[t].army == seats[s].army) {
        if (partner_[s] >= 0) fail("army '" + armies[seats[s].army] + "' has more than two seats");
        partner_[s] = t;
      }
    if (!seats[s].side.empty()) has_sides_ = true;
  }
  for (int a = 0; a < army_count(); ++a)
    for (Cell c = 0; c < kMaxCells; ++c) {
      int o = army_orientation_[a];
      for (int s = seat_count() - 1; s >= 0; --s)
        if (seats[s].army == a && seats[s].side.contains(c)) o = s;
      orientation_at_[a][c] = static_cast<uint8_t>(o);
    }
}

void Variant::finalize() {
  const std::string where = source_file.empty() ? name : source_file;
  auto fail = [&](const std::string& what) { throw VariantError(where + ": " + what); };
  if (pieces.empty()) fail("no pieces are defined");
  if (piece_count() > kMaxPieceTypes)
    fail("more than " + std::to_string(kMaxPieceTypes) + " piece types");
  if (armies.empty() || army_count() > kMaxArmies) fail("a variant has 1 to 4 armies");
  if (seats.empty() || seat_count() > kMaxSeats) fail("a variant has 1 to 4 seats");
  if (castling.size() > 31) fail("more than 31 castling rules");
  for (int t = 0; t < piece_count(); ++t)
    for (int u = 0; u < t; ++u)
      if (pieces[t].letter == pieces[u].letter)
        fail("pieces '" + pieces[u].name + "' and '" + pieces[t].name + "' share the letter " +
             pieces[t].letter);
  for (int a = 0; a < army_count(); ++a) {
    army_orientation_[a] = -1;
    for (int s = seat_count() - 1; s >= 0; --s)
      if (seats[s].army == a) army_orientation_[a] = s;
    if (army_orientation_[a] < 0) fail("army '" + armies[a] + "' has no seat to move it");
  }
  build_seat_maps(fail);
  if (army_count() > 2) {
    if (static_cast<int>(army_tags.size()) != army_count())
      fail("with more than two armies, players.army_tags gives each army a FEN letter");
    for (int a = 0; a < army_count(); ++a)
      for (int b = 0; b < a; ++b)
        if (army_tags[a] == army_tags[b])
          fail("two armies share the FEN tag " + std::string(1, army_tags[a]));
  }
  castling_mask_.fill(0);
  for (size_t i = 0; i < castling.size(); ++i) {
    castling_mask_[castling[i].king_from] |= 1u << i;
    castling_mask_[castling[i].rook_from] |= 1u << i;
  }
  has_section_exclusion_ = false;
  for (const PieceType& p : pieces)
    has_section_exclusion_ = has_section_exclusion_ || p.section_exclusion;
  build_zobrist();
  tables.build(*this);
}

}  // namespace fairyzero
