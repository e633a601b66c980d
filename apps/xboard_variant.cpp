// XBoard coordinates, move text and the setup/piece lines of engine-defined variants.
#include "apps/xboard_variant.h"

#include <cctype>
#include <cstdlib>
#include <set>
#include <stdexcept>

#include "core/errors.h"

namespace fairyzero {
namespace {

// XBoard's piece slots in its own order (the default piece-to-char table of a side), King last.
constexpr const char* kSlots = "PNBRQFEACWMOHIJGDVLSUK";
constexpr int kSlotCount = 22;
constexpr int kKingSlot = kSlotCount - 1;

char lower(char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); }
char upper(char c) { return static_cast<char>(std::toupper(static_cast<unsigned char>(c))); }

// The slot of each piece type, or throws when XBoard's 21 non-royal slots do not suffice.
std::vector<int> assign_slots(const Variant& v) {
  std::vector<int> slot(v.piece_count(), -1);
  std::vector<bool> taken(kSlotCount, false);
  for (int t = 0; t < v.piece_count(); ++t) {
    if (!v.pieces[t].royal || taken[kKingSlot]) continue;
    slot[t] = kKingSlot;
    taken[kKingSlot] = true;
  }
  for (int t = 0; t < v.piece_count(); ++t) {
    if (slot[t] >= 0) continue;
    for (int s = 0; s < kKingSlot; ++s)
      if (!taken[s] && kSlots[s] == upper(v.pieces[t].letter)) slot[t] = s;
    if (slot[t] >= 0) taken[slot[t]] = true;
  }
  for (int t = 0; t < v.piece_count(); ++t) {
    for (int s = 0; s < kKingSlot && slot[t] < 0; ++s)
      if (!taken[s]) taken[slot[t] = s] = true;
    if (slot[t] < 0)
      throw UserError(v.name + " has more piece types than XBoard has piece slots (" +
                      std::to_string(kSlotCount) + ")");
  }
  return slot;
}

std::string piece_to_char(const Variant& v) {
  std::vector<int> slot = assign_slots(v);
  std::string white(kSlotCount, '.');
  for (int t = 0; t < v.piece_count(); ++t) white[slot[t]] = upper(v.pieces[t].letter);
  std::string black = white;
  for (char& c : black) c = lower(c);
  return white + black;
}

int holdings_size(const Variant& v) {
  if (!v.rules.captures_to_hand) return 0;
  int droppable = 0;
  for (const PieceType& p : v.pieces) droppable += p.royal ? 0 : 1;
  return droppable;
}

// XBoard's castling atoms for the royal piece: O<n> for each distance a castling moves it.
std::string castling_atoms(const Variant& v) {
  std::set<int> distances;
  const Geometry& g = v.geometry;
  for (const CastlingRule& rule : v.castling)
    distances.insert(std::abs(g.file_of(rule.king_to) - g.file_of(rule.king_from)));
  std::string atoms;
  for (int d : distances) atoms += "O" + std::to_string(d);
  return atoms;
}

}  // namespace

std::string XboardNotation::cell(Cell c) const {
  const Geometry& g = variant_.geometry;
  int rank = g.rank_of(c) + (g.ranks() == 10 ? 0 : 1);
  return std::string(1, static_cast<char>('a' + g.file_of(c))) + std::to_string(rank);
}

std::string XboardNotation::move(const Position& pos, Move m) const {
  if (m.kind() == MoveKind::kDrop)
    return std::string(1, upper(variant_.pieces[m.piece_type()].letter)) + "@" + cell(m.to());
  if (m.moves_no_man()) return pos.move_text(m);  // "out", "pass": no coordinates
  std::string text = cell(m.from()) + cell(m.to());
  if (m.is_promotion()) text += lower(variant_.pieces[m.piece_type()].letter);
  return text;
}

std::optional<Move> XboardNotation::parse(const Position& pos, const std::string& text) const {
  std::string normal = text;
  if (normal.size() > 2 && normal[1] == '@') normal[0] = upper(normal[0]);
  if (normal.size() > 4 && std::isalpha(static_cast<unsigned char>(normal.back())) &&
      std::isdigit(static_cast<unsigned char>(normal[normal.size() - 2])))
    normal.back() = lower(normal.back());
  for (Move m : LegalMoves(pos))
    if (move(pos, m) == normal) return m;
  return std::nullopt;
}

bool looks_like_move(const std::string& text) {
  size_t i = 0;
  auto letter = [&] {
    return i < text.size() && std::isalpha(static_cast<unsigned char>(text[i]));
  };
  auto read_cell = [&] {
    if (!letter()) return false;
    ++i;
    size_t digits = i;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) ++i;
    return i > digits;
  };
  if (text.size() > 2 && text[1] == '@') {
    i = 2;
    return read_cell() && i == text.size();
  }
  if (!read_cell() || !read_cell()) return false;
  if (letter()) ++i;
  return i == text.size();
}

std::string xboard_variant_name(const Variant& v) {
  return xboard_needs_setup(v) ? v.name : "normal";
}

bool xboard_needs_setup(const Variant& v) { return v.name != "chess"; }

std::vector<std::string> xboard_definition(const Variant& v) {
  const Geometry& g = v.geometry;
  std::vector<std::string> lines;
  lines.push_back("setup (" + piece_to_char(v) + ") " + std::to_string(g.files()) + "x" +
                  std::to_string(g.ranks()) + "+" + std::to_string(holdings_size(v)) + "_fairy " +
                  v.start_fen);
  for (int t = 0; t < v.piece_count(); ++t) {
    const PieceType& p = v.pieces[t];
    if (p.betza.empty()) continue;  // moves given as atoms only: no Betza to send
    std::string betza = p.betza;
    if (p.royal && !v.castling.empty()) betza += castling_atoms(v);
    lines.push_back(std::string("piece ") + upper(p.letter) + "& " + betza);
  }
  return lines;
}

}  // namespace fairyzero
