// Parser for Betza piece notation. It works group by group (modifiers, atom, optional range) and
// keeps every position 1-based so errors can point at the offending character.
#include "core/betza.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <optional>

namespace fairyzero {

BetzaError::BetzaError(std::string_view notation, std::string_view problem, std::size_t position)
    : UserError("Betza notation \"" + std::string(notation) + "\": " + std::string(problem) +
                " at position " + std::to_string(position)),
      notation_(notation),
      position_(position) {}

namespace {

// Direction tokens as bits, so several tokens in one group combine into a union.
enum DirBit : uint32_t {
  kDirF = 1u << 0,
  kDirB = 1u << 1,
  kDirL = 1u << 2,
  kDirR = 1u << 3,
  kDirV = 1u << 4,
  kDirS = 1u << 5,
  kDirFL = 1u << 6,
  kDirFR = 1u << 7,
  kDirBL = 1u << 8,
  kDirBR = 1u << 9,
  kDirFF = 1u << 10,
  kDirBB = 1u << 11,
  kDirFS = 1u << 12,
  kDirBS = 1u << 13,
};

// The basic atoms, by the first-quadrant vector with dx <= dy.
struct LeapAtom {
  char letter;
  Offset base;
};
constexpr LeapAtom kLeapAtoms[] = {
    {'W', {0, 1}}, {'F', {1, 1}}, {'D', {0, 2}}, {'N', {1, 2}}, {'A', {2, 2}},
    {'H', {0, 3}}, {'C', {1, 3}}, {'Z', {2, 3}}, {'G', {3, 3}},
};

// One atom of a group before direction expansion: a shorthand such as Q yields two.
struct Component {
  Offset base;
  bool rider = false;
};

// A range above this cannot matter on a 16 x 16 board and most likely is a typo.
constexpr int kMaxRange = 999;

std::optional<Offset> leap_base(char c) {
  for (const LeapAtom& a : kLeapAtoms) {
    if (a.letter == c) return a.base;
  }
  return std::nullopt;
}

bool is_oblique(Offset base) { return base.dx != 0 && base.dx != base.dy; }

// Half-plane then cross product: an exact counter-clockwise order starting at forward, with no
// floating point, so the order is the same on every platform.
bool ccw_from_forward(Offset a, Offset b) {
  // Rotate so that forward is the +x axis and left is +y.
  const int ax = a.dy, ay = -a.dx, bx = b.dy, by = -b.dx;
  const bool ha = ay < 0 || (ay == 0 && ax < 0);
  const bool hb = by < 0 || (by == 0 && bx < 0);
  if (ha != hb) return !ha;
  return ax * by - ay * bx > 0;
}

std::vector<Offset> symmetric_vectors(Offset base) {
  std::vector<Offset> out;
  for (Offset v : {base, Offset{base.dy, base.dx}}) {
    for (int sx : {1, -1}) {
      for (int sy : {1, -1}) {
        Offset o{v.dx * sx, v.dy * sy};
        if (std::find(out.begin(), out.end(), o) == out.end()) out.push_back(o);
      }
    }
  }
  std::sort(out.begin(), out.end(), ccw_from_forward);
  return out;
}

bool selects(uint32_t dirs, Offset base, Offset v) {
  if (dirs == 0) return true;
  const int ax = std::abs(v.dx), ay = std::abs(v.dy);
  const bool oblique = is_oblique(base);
  // For W-like and F-like atoms "ff" means plain "f": there is no narrow/wide pair to pick from.
  const bool narrow = oblique ? ay > ax : true;
  const bool fwd = v.dy > 0, back = v.dy < 0, left = v.dx<0, right = v.dx> 0;
  return ((dirs & kDirF) && fwd) || ((dirs & kDirB) && back) || ((dirs & kDirL) && left) ||
         ((dirs & kDirR) && right) || ((dirs & kDirV) && ay > ax) || ((dirs & kDirS) && ax > ay) ||
         ((dirs & kDirFL) && fwd && left) || ((dirs & kDirFR) && fwd && right) ||
         ((dirs & kDirBL) && back && left) || ((dirs & kDirBR) && back && right) ||
         ((dirs & kDirFF) && fwd && narrow) || ((dirs & kDirBB) && back && narrow) ||
         ((dirs & kDirFS) && fwd && ax > ay) || ((dirs & kDirBS) && back && ax > ay);
}

// Adds an atom unless an equal one exists; atoms differing only in mode merge their modes.
void add_atom(std::vector<MoveAtom>& out, MoveAtom atom) {
  for (MoveAtom& old : out) {
    MoveAtom probe = atom;
    probe.mode = old.mode;
    if (probe == old) {
      old.mode = static_cast<MoveMode>(old.mode | atom.mode);
      return;
    }
  }
  out.push_back(std::move(atom));
}

class Parser {
 public:
  explicit Parser(std::string_view text) : text_(text) {}

  std::vector<MoveAtom> parse() {
    if (text_.empty()) fail("empty notation", 0);
    while (pos_ < text_.size()) parse_group();
    return std::move(out_);
  }

 private:
  [[noreturn]] void fail(std::string_view problem, std::size_t index) const {
    throw BetzaError(text_, problem, index + 1);
  }

  char peek(std::size_t index) const { return index < text_.size() ? text_[index] : '\0'; }

  // Reads modifiers up to and including the atom letter(s) and an optional range.
  void parse_group() {
    const std::size_t group_start = pos_;
    bool move = false, capture = false, initial = false, lame = false;
    std::size_t lame_at = 0;
    uint32_t dirs = 0;
    while (true) {
      if (pos_ >= text_.size()) fail("modifiers with no atom after them", group_start);
      const char c = text_[pos_];
      switch (c) {
        case 'm':
          move = true;
          ++pos_;
          continue;
        case 'c':
          capture = true;
          ++pos_;
          continue;
        case 'i':
          initial = true;
          ++pos_;
          continue;
        case 'n':
          lame = true;
          lame_at = pos_;
          ++pos_;
          continue;
        case 'l':
          dirs |= kDirL;
          ++pos_;
          continue;
        case 'r':
          dirs |= kDirR;
          ++pos_;
          continue;
        case 'v':
          dirs |= kDirV;
          ++pos_;
          continue;
        case 's':
          dirs |= kDirS;
          ++pos_;
          continue;
        case 'f':
        case 'b': dirs |= read_vertical_token(c); continue;
        default: break;
      }
      break;
    }

    const std::size_t atom_at = pos_;
    const char letter = text_[pos_];
    std::vector<Component> parts;
    if (std::optional<Offset> base = leap_base(letter)) {
      ++pos_;
      const bool doubled = peek(pos_) == letter;
      if (doubled) ++pos_;
      parts.push_back({*base, doubled});
    } else if (letter == 'K' || letter == 'R' || letter == 'B' || letter == 'Q') {
      ++pos_;
      if (letter == 'K') parts = {{{0, 1}, false}, {{1, 1}, false}};
      if (letter == 'R' || letter == 'Q') parts.push_back({{0, 1}, true});
      if (letter == 'B' || letter == 'Q') parts.push_back({{1, 1}, true});
    } else if (c_is_digit(letter)) {
      fail("range with no atom before it", pos_);
    } else if ((letter >= 'a' && letter <= 'z') || (letter >= 'A' && letter <= 'Z')) {
      fail(std::string("unknown letter '") + letter + "'", pos_);
    } else {
      fail(std::string("unexpected character '") + letter + "'", pos_);
    }

    int range = 0;
    if (c_is_digit(peek(pos_))) {
      const std::size_t range_at = pos_;
      while (c_is_digit(peek(pos_))) {
        range = range * 10 + (text_[pos_] - '0');
        if (range > kMaxRange) fail("range too large", range_at);
        ++pos_;
      }
      if (range == 0) fail("range 0", range_at);
      for (Component& p : parts) p.rider = true;
    }

    MoveMode mode = kMoveOrCapture;
    if (move && !capture) mode = kMoveOnly;
    if (capture && !move) mode = kCaptureOnly;

    bool any = false;
    for (const Component& part : parts) {
      const bool unit = part.base.dx <= 1 && part.base.dy <= 1;
      // A lame unit step is just the step: nothing lies between the mover and its landing.
      const bool lame_here = lame && !unit;
      if (lame_here && is_oblique(part.base)) {
        fail(std::string("lame 'n' on oblique atom '") + letter + "' is not supported", lame_at);
      }
      if (lame_here && part.rider) fail("lame riders are not supported", lame_at);
      for (Offset v : symmetric_vectors(part.base)) {
        if (!selects(dirs, part.base, v)) continue;
        any = true;
        MoveAtom atom;
        atom.mode = mode;
        atom.initial_only = initial;
        if (lame_here) {
          const int n = std::max(std::abs(v.dx), std::abs(v.dy));
          const Offset unit_step{(v.dx > 0) - (v.dx < 0), (v.dy > 0) - (v.dy < 0)};
          atom.steps.assign(n, unit_step);
          atom.min_steps = n;
          atom.max_steps = n;
        } else if (part.rider) {
          atom.steps = {v};
          atom.repeat = true;
          atom.max_steps = range;
        } else {
          atom.steps = {v};
          atom.max_steps = 1;
        }
        add_atom(out_, std::move(atom));
      }
    }
    if (!any) fail(std::string("directions select no move of '") + letter + "'", atom_at);
  }

  // After 'f' or 'b' a following direction letter joins it only when the pair is a known token;
  // otherwise the two letters are separate tokens (e.g. "fb" is f plus b).
  uint32_t read_vertical_token(char c) {
    const bool f = c == 'f';
    const char next = peek(pos_ + 1);
    uint32_t pair = 0;
    switch (next) {
      case 'l': pair = f ? kDirFL : kDirBL; break;
      case 'r': pair = f ? kDirFR : kDirBR; break;
      case 's': pair = f ? kDirFS : kDirBS; break;
      case 'f': pair = f ? uint32_t{kDirFF} : 0u; break;
      case 'b': pair = f ? 0u : uint32_t{kDirBB}; break;
      default: break;
    }
    pos_ += pair != 0 ? 2 : 1;
    return pair != 0 ? pair : (f ? kDirF : kDirB);
  }

  static bool c_is_digit(char c) { return c >= '0' && c <= '9'; }

  std::string_view text_;
  std::size_t pos_ = 0;
  std::vector<MoveAtom> out_;
};

}  // namespace

std::vector<MoveAtom> parse_betza(std::string_view text) { return Parser(text).parse(); }

}  // namespace fairyzero
