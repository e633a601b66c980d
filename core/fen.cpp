// Reading and writing positions in Fairy-Stockfish's FEN dialect for large boards.
#include <algorithm>
#include <cctype>
#include <sstream>
#include <vector>

#include "core/position.h"

namespace fairyzero {
namespace {

std::vector<std::string> split_fields(std::string_view fen) {
  std::vector<std::string> fields;
  std::istringstream in{std::string(fen)};
  std::string f;
  while (in >> f) fields.push_back(f);
  return fields;
}

[[noreturn]] void fail(std::string_view fen, const std::string& what) {
  throw FenError("bad FEN \"" + std::string(fen) + "\": " + what);
}

// The man written at text[i]: a letter cased by army, or with more than two armies an army tag
// and an upper-case letter ("sK"); advances i past a tag.
PieceCode read_man(const Variant& v, std::string_view fen, const std::string& text, size_t& i,
                   const std::string& where) {
  char ch = text[i];
  if (v.army_count() <= 2) {
    PieceCode p = v.piece_code_of_letter(ch);
    if (p == kEmpty) fail(fen, std::string("unknown piece letter '") + ch + "' in " + where);
    return p;
  }
  auto tag = std::find(v.army_tags.begin(), v.army_tags.end(), ch);
  if (tag == v.army_tags.end())
    fail(fen, std::string("'") + ch + "' in " + where +
                  " is not an army tag (write each man as its army's tag and its letter, e.g. " +
                  v.army_tags[0] + v.pieces[0].letter + ")");
  char letter = i + 1 < text.size() ? text[++i] : '?';
  int type = std::isupper(static_cast<unsigned char>(letter)) ? v.piece_by_letter(letter) : -1;
  if (type < 0)
    fail(fen, std::string("unknown piece letter '") + letter + "' after the army tag '" + ch +
                  "' in " + where);
  return make_piece(static_cast<int>(tag - v.army_tags.begin()), type);
}

}  // namespace

Position Position::from_fen(VariantPtr variant, std::string_view fen) {
  const Variant& v = *variant;
  const Geometry& g = v.geometry;
  Position pos;
  pos.variant_ = variant;
  std::vector<std::string> fields = split_fields(fen);
  if (fields.empty()) fail(fen, "it is empty");

  // Field 1: ranks from the highest down, with an optional [hand] at the end.
  std::string board = fields[0];
  std::string hand;
  if (size_t open = board.find('['); open != std::string::npos) {
    size_t close = board.find(']', open);
    if (close == std::string::npos) fail(fen, "the hand '[' is not closed");
    hand = board.substr(open + 1, close - open - 1);
    board = board.substr(0, open);
  }
  int rank = g.ranks() - 1, file = 0;
  for (size_t i = 0; i <= board.size(); ++i) {
    char ch = i < board.size() ? board[i] : '/';
    std::string where = "rank " + g.rank_names()[std::max(rank, 0)];
    if (ch == '/') {
      if (file != g.files())
        fail(fen, where + " has " + std::to_string(file) + " cells, the board has " +
                      std::to_string(g.files()) + " files");
      if (i == board.size()) break;
      if (--rank < 0) fail(fen, "more than " + std::to_string(g.ranks()) + " ranks");
      file = 0;
    } else if (std::isdigit(static_cast<unsigned char>(ch))) {
      int run = 0;
      while (i < board.size() && std::isdigit(static_cast<unsigned char>(board[i])))
        run = run * 10 + (board[i++] - '0');
      --i;
      for (int k = 0; k < run; ++k, ++file) {
        if (file >= g.files())
          fail(fen, where + " is longer than " + std::to_string(g.files()) + " files");
        if (!g.exists(g.cell(file, rank)))
          fail(fen, "cell " + g.cell_name(g.cell(file, rank)) +
                        " is missing from this board: write it as '*'");
      }
    } else if (ch == '*') {
      if (file >= g.files())
        fail(fen, where + " is longer than " + std::to_string(g.files()) + " files");
      if (g.exists(g.cell(file, rank)))
        fail(fen, "'*' marks a missing cell, but " + g.cell_name(g.cell(file, rank)) + " exists");
      ++file;
    } else if (ch == '~') {
      // Fairy-Stockfish marks promoted pieces with '~'; this engine keeps no such flag yet.
    } else {
      PieceCode p = read_man(v, fen, board, i, where);
      if (file >= g.files())
        fail(fen, where + " is longer than " + std::to_string(g.files()) + " files");
      Cell c = g.cell(file, rank);
      if (!g.exists(c)) fail(fen, "a piece stands on the missing cell " + g.cell_name(c));
      pos.put_piece(p, c);
      ++file;
    }
  }
  if (rank != 0)
    fail(fen, std::to_string(g.ranks() - rank) + " ranks given, the board has " +
                  std::to_string(g.ranks()));
  for (size_t i = 0; i < hand.size(); ++i) {
    PieceCode p = read_man(v, fen, hand, i, "the hand");
    if (v.pieces[type_of(p)].royal)
      fail(fen, "a royal man (" + v.piece_text(p) + ") cannot be in a hand: it is never captured");
    int army = army_of(p), type = type_of(p);
    pos.hash_ ^= v.hand_key(army, type, pos.hands_[army][type]);
    ++pos.hands_[army][type];
    pos.hash_ ^= v.hand_key(army, type, pos.hands_[army][type]);
  }
  for (int s = 0; s < v.seat_count(); ++s) pos.seat_in_game_[s] = true;

  // Field 2: the seat to move.
  pos.seat_ = v.turn_order[0];
  if (fields.size() > 1) {
    int found = -1;
    for (int s = 0; s < v.seat_count(); ++s)
      if (v.seats[s].fen == fields[1]) found = s;
    if (found < 0) fail(fen, "side to move '" + fields[1] + "' is not one of this variant's seats");
    pos.seat_ = found;
  }
  pos.hash_ ^= v.seat_key(pos.seat_);

  // Field 3: castling rights, as the letters of the variant's castling rules.
  if (fields.size() > 2 && fields[2] != "-") {
    for (char ch : fields[2]) {
      int rule = -1;
      for (int i = 0; i < static_cast<int>(v.castling.size()); ++i)
        if (v.castling[i].fen == ch) rule = i;
      if (rule < 0)
        fail(fen, std::string("castling right '") + ch + "' is not defined by this variant");
      const CastlingRule& r = v.castling[rule];
      PieceCode king = pos.board_[r.king_from], rook = pos.board_[r.rook_from];
      if (king == kEmpty || army_of(king) != r.army || rook == kEmpty || army_of(rook) != r.army)
        fail(fen, std::string("castling right '") + ch + "' needs the king on " +
                      g.cell_name(r.king_from) + " and the rook on " + g.cell_name(r.rook_from));
      if (!(pos.castling_rights_ >> rule & 1)) pos.hash_ ^= v.castling_key(rule);
      pos.castling_rights_ |= 1u << rule;
    }
  }

  // Field 4: the en-passant cell; kept only when a capture there is possible, as Stockfish does.
  if (fields.size() > 3 && fields[3] != "-") {
    std::optional<Cell> ep = g.parse_cell(fields[3]);
    if (!ep || !g.exists(*ep))
      fail(fen, "en-passant field '" + fields[3] + "' is not a cell of this board");
    int prev = pos.seat_;
    for (int s = 0; s < v.seat_count(); ++s)
      if (pos.next_seat(s) == pos.seat_) prev = s;
    Direction fwd = v.seats[prev].forward;
    int df = fwd == Direction::kEast ? 1 : fwd == Direction::kWest ? -1 : 0;
    int dr = fwd == Direction::kNorth ? 1 : fwd == Direction::kSouth ? -1 : 0;
    int f = g.file_of(*ep) + df, r = g.rank_of(*ep) + dr;
    if (pos.set_path_victim_from_fen(*ep)) {
      // A castled royal open to capture on its path (Great Stour), not an en-passant cell.
    } else if (g.on_grid(f, r) && pos.board_[*ep] == kEmpty) {
      Cell victim = g.cell(f, r);
      PieceCode q = pos.board_[victim];
      if (q != kEmpty && v.pieces[type_of(q)].en_passant && army_of(q) == v.seats[prev].army)
        pos.set_en_passant(*ep, victim, army_of(q));
    }
  }

  // Fields 5 and 6: the move-count clock and the move number.
  auto clock = [&](const std::string& text, const char* what) {
    if (text.size() > 1 && text[0] == '-' &&
        text.find_first_not_of("0123456789", 1) == std::string::npos)
      fail(fen, std::string("the ") + what + " is negative");
    if (text.empty() || text.size() > 9 ||
        text.find_first_not_of("0123456789") != std::string::npos)
      fail(fen,
           std::string("the clocks must be whole numbers, but the ") + what + " is '" + text + "'");
    return std::stoi(text);
  };
  int fullmove = 1;
  if (fields.size() > 4) pos.halfmove_clock_ = clock(fields[4], "move-count clock");
  if (fields.size() > 5) fullmove = std::max(1, clock(fields[5], "move number"));
  // Field 7, four-player games only: seats out and Rose locks (team_play.cpp).
  const bool team_game = v.seat_count() > 2;  // seats out, locks: four-seat games
  if (fields.size() > 7 || (fields.size() > 6 && !team_game))
    fail(fen, std::string("it has more than ") + (team_game ? "seven" : "six") + " fields");
  if (fields.size() > 6) pos.read_team_state_field(fen, fields[6]);
  if (team_game) {
    // The seat that moved last: the one still playing that comes before the side to move.
    const int n = static_cast<int>(v.turn_order.size());
    int at = 0;
    while (v.turn_order[at] != pos.seat_) ++at;
    for (int k = 1; k < n && pos.last_mover_ < 0; ++k) {
      int s = v.turn_order[(at - k + n) % n];
      if (pos.seat_in_game_[s]) pos.last_mover_ = s;
    }
  }
  int turn_index = 0;
  while (v.turn_order[turn_index] != pos.seat_) ++turn_index;
  pos.game_ply_ = (fullmove - 1) * static_cast<int>(v.turn_order.size()) + turn_index;
  return pos;
}

std::string Position::fen() const {
  const Variant& v = *variant_;
  const Geometry& g = v.geometry;
  std::string out;
  for (int rank = g.ranks() - 1; rank >= 0; --rank) {
    int empty = 0;
    for (int file = 0; file < g.files(); ++file) {
      Cell c = g.cell(file, rank);
      if (g.exists(c) && board_[c] == kEmpty) {
        ++empty;
        continue;
      }
      if (empty) out += std::to_string(empty);
      empty = 0;
      out += g.exists(c) ? v.piece_text(board_[c]) : std::string("*");
    }
    if (empty) out += std::to_string(empty);
    if (rank) out += '/';
  }
  bool any_hand = false;
  std::string hand;
  for (int a = 0; a < v.army_count(); ++a)
    for (int t = 0; t < v.piece_count(); ++t)
      for (int k = 0; k < hands_[a][t]; ++k)
        hand += v.piece_text(make_piece(a, t)), any_hand = true;
  if (any_hand) out += "[" + hand + "]";
  out += " " + v.seats[seat_].fen + " ";
  std::string rights;
  for (int i = 0; i < static_cast<int>(v.castling.size()); ++i)
    if (castling_rights_ >> i & 1) rights += v.castling[i].fen;
  out += rights.empty() ? "-" : rights;
  // The en-passant field also names a castled royal still open to capture on its path (the
  // engine's extension: Great Stour's Castling, A13).
  Cell ep_field = ep_cell_ != kNoCell ? ep_cell_ : path_victim_;
  out += " " + (ep_field == kNoCell ? std::string("-") : g.cell_name(ep_field));
  int turns = static_cast<int>(v.turn_order.size());
  out += " " + std::to_string(halfmove_clock_) + " " + std::to_string(game_ply_ / turns + 1);
  if (v.seat_count() > 2) {
    std::string team = team_state_field();
    if (team != "-") out += " " + team;
  }
  return out;
}

}  // namespace fairyzero
