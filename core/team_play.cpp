// The four-player river mechanisms of Position: drop-out and take-over, Coronation, the Rose
// lock, the individual ranking, and their FEN field (REFERENCE.md sections 4.2, 4.3, 5.4; A4-A11).
#include <algorithm>
#include <sstream>

#include "core/coronation.h"
#include "core/position.h"

namespace fairyzero {
namespace {

// The first man along a diagonal from c: its type, -1 for none (edge or missing cell first).
int first_type_along(const Variant& v, const PieceCode* board, Cell c, int df, int dr) {
  const Geometry& g = v.geometry;
  for (int f = g.file_of(c) + df, r = g.rank_of(c) + dr; g.on_grid(f, r); f += df, r += dr) {
    Cell x = g.cell(f, r);
    if (!g.exists(x)) return -1;
    if (board[x] != kEmpty) return type_of(board[x]);
  }
  return -1;
}

}  // namespace

CellSet coronation_cells(const Variant& v, const PieceCode* board) {
  CellSet out;
  const Coronation& rule = v.coronation;
  if (rule.piece < 0) return out;
  const Geometry& g = v.geometry;
  static constexpr int kDiagonals[4][2] = {{1, 1}, {-1, -1}, {-1, 1}, {1, -1}};
  g.existing_cells().for_each([&](Cell c) {
    if (board[c] == kEmpty || type_of(board[c]) != rule.piece) return;
    int first[4];
    for (int d = 0; d < 4; ++d)
      first[d] = first_type_along(v, board, c, kDiagonals[d][0], kDiagonals[d][1]);
    auto pair = [&](int a, int b) {
      return (first[a] == rule.bishop && first[b] == rule.steward) ||
             (first[a] == rule.steward && first[b] == rule.bishop);
    };
    bool crowned = pair(0, 1) || pair(2, 3);
    int f = g.file_of(c), r = g.rank_of(c);
    if (!crowned && (f == 0 || r == 0 || f == g.files() - 1 || r == g.ranks() - 1)) {
      // On the edge: the two diagonals that stay on the board.
      int open[2], n = 0;
      for (int d = 0; d < 4 && n < 2; ++d)
        if (g.on_grid(f + kDiagonals[d][0], r + kDiagonals[d][1])) open[n++] = d;
      crowned = n == 2 && pair(open[0], open[1]);
    }
    if (crowned) out.insert(c);
  });
  return out;
}

bool Position::seat_restricted(int seat) const {
  const Variant& v = *variant_;
  int partner = v.partner_of(seat);
  return !v.seats[seat].side.empty() && partner >= 0 && seat_in_game_[partner];
}

void Position::transform(Cell c, PieceCode now) {
  PieceCode before = board_[c];
  changes_.emplace_back(static_cast<uint8_t>(c), before);
  ++history_.back().changes;
  remove_piece(c);
  put_piece(now, c);
}

void Position::set_hand(int army, int type, int count) {
  const Variant& v = *variant_;
  hand_changes_.push_back({army, type, hands_[army][type]});
  ++history_.back().hand_changes;
  hash_ ^= v.hand_key(army, type, hands_[army][type]) ^ v.hand_key(army, type, count);
  hands_[army][type] = count;
}

// Chessgi: "Shogi-style reintroduction of captured pieces" (A18). A King never goes to hand.
void Position::capture_to_hand(int army, PieceCode captured) {
  int type = type_of(captured);
  if (!variant_->pieces[type].royal) set_hand(army, type, hands_[army][type] + 1);
}

// Double Commedia: "Checkmated armies - those whose King is threatened with capture by the player
// about to move - could be taken over, once their own King was removed, by the threatening
// player." The victim's men and hand become the captor's; its seats leave the game.
void Position::take_over_army(int victim, int captor) {
  const Variant& v = *variant_;
  std::vector<Cell> cells(piece_cells_[victim].begin(),
                          piece_cells_[victim].begin() + piece_count_[victim]);
  for (Cell c : cells) transform(c, make_piece(captor, type_of(board_[c])));
  for (int t = 0; t < v.piece_count(); ++t) {
    if (hands_[victim][t] == 0) continue;
    set_hand(captor, t, hands_[captor][t] + hands_[victim][t]);
    set_hand(victim, t, 0);
  }
  int order = 0;
  for (int s = 0; s < v.seat_count(); ++s) order += !seat_in_game_[s];
  for (int s = 0; s < v.seat_count(); ++s) {
    if (v.seats[s].army != victim || !seat_in_game_[s]) continue;
    seat_in_game_[s] = false;
    dropout_order_[s] = static_cast<int8_t>(order);
    hash_ ^= v.out_key(s);
    history_.back().eliminated |= static_cast<uint8_t>(1u << s);
  }
}

// "Their partner ... gains total control of the army with the Princess becoming a Queen and any
// remaining unpromoted Pawns Stewards" (Irwell); Avon's Abbots and Caryatids also promote.
void Position::take_over(int army) {
  const Variant& v = *variant_;
  std::vector<Cell> cells(piece_cells_[army].begin(),
                          piece_cells_[army].begin() + piece_count_[army]);
  for (Cell c : cells)
    for (auto [from, to] : v.rules.takeover)
      if (type_of(board_[c]) == from) {
        transform(c, make_piece(army, to));
        break;
      }
}

void Position::apply_coronations() {
  const Variant& v = *variant_;
  coronation_cells(v, board_.data()).for_each([&](Cell c) {
    transform(c, make_piece(army_of(board_[c]), v.coronation.becomes));
  });
}

uint64_t Position::lock_hash() const {
  uint64_t h = 0;
  for (int a = 0; a < variant_->army_count(); ++a)
    if (lock_cell_[a] != kNoCell) h ^= variant_->lock_key(a, lock_cell_[a], lock_pending_[a]);
  return h;
}

// A4: "When a player moves their Rose, it cannot be moved again until that player and, if still
// in the game, their partner have each moved another piece."
void Position::update_locks(Move m, int army, PieceCode moved, PieceCode captured,
                            Cell captured_cell) {
  const Variant& v = *variant_;
  if (captured != kEmpty && lock_cell_[army_of(captured)] == captured_cell) {
    lock_cell_[army_of(captured)] = kNoCell;
    lock_pending_[army_of(captured)] = 0;
  }
  if (lock_cell_[army] != kNoCell) {
    lock_pending_[army] &= ~(1u << seat_);
    if (lock_pending_[army] == 0) lock_cell_[army] = kNoCell;
  }
  if (m.kind() != MoveKind::kDrop && m.kind() != MoveKind::kCastling && !m.is_promotion() &&
      moved != kEmpty && v.pieces[type_of(moved)].move_lock) {
    int partner = v.partner_of(seat_);
    lock_cell_[army] = static_cast<int16_t>(m.to());
    lock_pending_[army] = static_cast<uint8_t>(
        1u << seat_ | (partner >= 0 && seat_in_game_[partner] ? 1u << partner : 0u));
  }
}

void Position::play_drop_out() {
  const Variant& v = *variant_;
  int army = army_to_move();
  int order = 0;
  for (int s = 0; s < v.seat_count(); ++s) order += !seat_in_game_[s];
  seat_in_game_[seat_] = false;
  dropout_order_[seat_] = static_cast<int8_t>(order);
  hash_ ^= v.out_key(seat_);
  if (lock_cell_[army] != kNoCell) {
    lock_pending_[army] &= ~(1u << seat_);
    if (lock_pending_[army] == 0) lock_cell_[army] = kNoCell;
  }
  int partner = v.partner_of(seat_);
  if (partner >= 0 && seat_in_game_[partner]) take_over(army);
}

// The sources' individual ranking: "the player whose move ends the game ranks first and the
// first player to drop out fourth. Two players still playing an army when Checkmated score joint
// third if the other two players are still playing, otherwise joint second." Read as: the ender
// first (unless its own team lost), then the other seats still playing, winners before losers,
// a losing army's seats tied; then the seats that dropped out, the latest first. In a draw the
// seats still playing tie.
void Position::score_ranking(Outcome& o) const {
  const Variant& v = *variant_;
  const int n = v.seat_count();
  std::vector<std::vector<int>> places;  // groups of tied seats, best first
  int ender = last_mover_;
  bool decisive = false;
  for (int s = 0; s < n; ++s) decisive = decisive || o.score[s] != 0.5;
  if (decisive && ender >= 0 && seat_in_game_[ender] && o.score[ender] > 0.5)
    places.push_back({ender});
  else
    ender = -1;
  for (double result : {1.0, 0.5, 0.0}) {
    std::vector<int> playing;
    for (int s = 0; s < n; ++s)
      if (s != ender && seat_in_game_[s] && o.score[s] == result) playing.push_back(s);
    if (playing.empty()) continue;
    places.push_back(playing);
  }
  std::vector<int> out_seats;
  for (int s = 0; s < n; ++s)
    if (!seat_in_game_[s]) out_seats.push_back(s);
  std::sort(out_seats.begin(), out_seats.end(),
            [&](int a, int b) { return dropout_order_[a] > dropout_order_[b]; });
  for (int s : out_seats) places.push_back({s});
  int next = 1;
  for (const std::vector<int>& group : places) {
    double sum = 0;
    for (size_t k = 0; k < group.size(); ++k)
      sum += n > 1 ? static_cast<double>(n - (next + static_cast<int>(k))) / (n - 1) : 1.0;
    for (int s : group) {
      o.rank[s] = next;
      o.individual[s] = sum / static_cast<double>(group.size());
    }
    next += static_cast<int>(group.size());
  }
}

// The seventh FEN field of four-player games: seats out in drop-out order and Rose locks, e.g.
// "out:bl,wh;lock:e4=wl+wh" ("-" when neither). Not part of Fairy-Stockfish's dialect.
std::string Position::team_state_field() const {
  const Variant& v = *variant_;
  std::vector<int> out;
  for (int s = 0; s < v.seat_count(); ++s)
    if (!seat_in_game_[s]) out.push_back(s);
  std::sort(out.begin(), out.end(),
            [&](int a, int b) { return dropout_order_[a] < dropout_order_[b]; });
  std::string text;
  for (size_t i = 0; i < out.size(); ++i) text += (i ? "," : "out:") + v.seats[out[i]].fen;
  for (int a = 0; a < v.army_count(); ++a) {
    if (lock_cell_[a] == kNoCell) continue;
    text += (text.empty() ? "" : ";") + std::string("lock:") + v.geometry.cell_name(lock_cell_[a]) +
            "=";
    bool first = true;
    for (int s = 0; s < v.seat_count(); ++s)
      if (lock_pending_[a] >> s & 1) text += (first ? "" : "+") + v.seats[s].fen, first = false;
  }
  return text.empty() ? "-" : text;
}

void Position::read_team_state_field(std::string_view fen, const std::string& field) {
  const Variant& v = *variant_;
  auto fail = [&](const std::string& what) {
    throw FenError("bad FEN \"" + std::string(fen) + "\": seventh field '" + field + "': " + what);
  };
  auto seat_of = [&](const std::string& token) -> int {
    for (int s = 0; s < v.seat_count(); ++s)
      if (v.seats[s].fen == token) return s;
    fail("'" + token + "' is not a seat of this variant");
    return -1;
  };
  auto split = [](const std::string& text, char sep) {
    std::vector<std::string> parts;
    std::stringstream in(text);
    for (std::string part; std::getline(in, part, sep);) parts.push_back(part);
    return parts;
  };
  if (field == "-") return;
  for (const std::string& item : split(field, ';')) {
    if (item.rfind("out:", 0) == 0) {
      int order = 0;
      for (const std::string& token : split(item.substr(4), ',')) {
        int s = seat_of(token);
        if (!seat_in_game_[s]) fail("seat '" + token + "' is out twice");
        seat_in_game_[s] = false;
        dropout_order_[s] = static_cast<int8_t>(order++);
        hash_ ^= v.out_key(s);
      }
    } else if (item.rfind("lock:", 0) == 0) {
      size_t eq = item.find('=');
      if (eq == std::string::npos) fail("write a lock as lock:CELL=SEAT+SEAT");
      std::optional<Cell> c = v.geometry.parse_cell(item.substr(5, eq - 5));
      if (!c || board_[*c] == kEmpty || !v.pieces[type_of(board_[*c])].move_lock)
        fail("'" + item.substr(5, eq - 5) + "' does not hold a man that can be locked");
      int army = army_of(board_[*c]);
      uint8_t pending = 0;
      for (const std::string& token : split(item.substr(eq + 1), '+')) {
        int s = seat_of(token);
        if (v.seats[s].army != army) fail("seat '" + token + "' does not move that man's army");
        pending |= static_cast<uint8_t>(1u << s);
      }
      if (!pending) fail("a lock names the seats that still have to move");
      lock_cell_[army] = static_cast<int16_t>(*c);
      lock_pending_[army] = pending;
    } else {
      fail("expected out:SEATS or lock:CELL=SEATS, separated by ';'");
    }
  }
  hash_ ^= lock_hash();
  if (!seat_in_game_[seat_]) fail("the side to move has dropped out");
}

}  // namespace fairyzero
