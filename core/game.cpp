// How a game ends, move text in the variant's coordinates, the text diagram, and perft.
#include <cctype>
#include <sstream>

#include "core/position.h"

namespace fairyzero {

const char* termination_name(Termination t) {
  switch (t) {
    case Termination::kNone: return "none";
    case Termination::kCheckmate: return "checkmate";
    case Termination::kStalemate: return "stalemate";
    case Termination::kRepetition: return "repetition";
    case Termination::kMoveRule: return "move-count rule";
    case Termination::kMaxPlies: return "maximum game length";
    case Termination::kCaptureSet: return "capture of the set";
    case Termination::kDropOut: return "drop-out of an army";
    case Termination::kCoronation: return "double Coronation";
    case Termination::kRoyalCapture: return "capture of a King";
    case Termination::kLastArmy: return "last King standing";
    case Termination::kResignation: return "resignation";
  }
  return "?";
}

bool Position::is_repetition() const {
  int needed = variant_->rules.repetition;
  if (needed <= 0) return false;
  int seen = 1;
  // Only positions since the last capture or reset move can repeat this one.
  int reach = std::min<int>(halfmove_clock_, static_cast<int>(history_.size()));
  for (int back = 1; back <= reach; ++back) {
    if (history_[history_.size() - back].hash == hash_ && ++seen >= needed) return true;
  }
  return false;
}

Outcome Position::outcome() const {
  MoveList legal;
  legal_moves(legal);
  return outcome(legal);
}

Outcome Position::outcome(const MoveList& legal) const {
  Outcome o = team_outcome(legal);
  if (o.over()) score_ranking(o);
  return o;
}

Position::DecidedEnding Position::decided_ending() const {
  const Variant& v = *variant_;
  if (fallen_army_ >= 0) return {Termination::kRoyalCapture, fallen_army_};
  // Double Commedia: the game is won by the last army whose King stands.
  if (v.rules.royal_capture == Rules::RoyalCapture::kTakeOver) {
    int playing = 0, survivor = -1;
    for (int s = 0; s < v.seat_count(); ++s)
      if (seat_in_game_[s]) ++playing, survivor = s;
    if (playing == 1) return {Termination::kLastArmy, survivor};
  }
  // Irwell: "An army both of whose Princes undergo Coronation ... is also defeated".
  if (v.coronation.piece >= 0)
    for (int a = 0; a < v.army_count(); ++a)
      if (type_count_[a][v.coronation.becomes] >= v.coronation.defeat_at)
        return {Termination::kCoronation, a};
  // "The game ends when both an army's players drop out."
  if (v.rules.drop_out)
    for (int a = 0; a < v.army_count(); ++a) {
      bool out = true;
      for (int s = 0; s < v.seat_count(); ++s)
        out = out && (v.seats[s].army != a || !seat_in_game_[s]);
      if (out) return {Termination::kDropOut, a};
    }
  // CoBlaChe, Wey: a side whose set of named pieces has been captured has lost (A12).
  if (!v.rules.capture_to_win.empty())
    for (int a = 0; a < v.army_count(); ++a) {
      bool lost = true;
      for (auto [type, count] : v.rules.capture_to_win)
        lost = lost && v.start_count(a, type) - type_count_[a][type] >= count;
      if (lost) return {Termination::kCaptureSet, a};
    }
  return {};
}

Outcome Position::team_outcome(const MoveList& legal) const {
  const Variant& v = *variant_;
  Outcome o;
  if (DecidedEnding decided = decided_ending(); decided.termination != Termination::kNone) {
    o.termination = decided.termination;
    for (int s = 0; s < v.seat_count(); ++s)
      o.score[s] =
          decided.termination == Termination::kLastArmy
              ? (s == decided.army_or_seat ? 1.0 : 0.0)
              : (v.team_of_army[v.seats[s].army] == v.team_of_army[decided.army_or_seat] ? 0.0
                                                                                         : 1.0);
    return o;
  }
  auto score_all = [&](double value_for_mover) {
    int mover_team = v.team_of_army[army_to_move()];
    for (int s = 0; s < v.seat_count(); ++s)
      o.score[s] =
          v.team_of_army[v.seats[s].army] == mover_team ? value_for_mover : 1.0 - value_for_mover;
    // An army already taken over has lost, whatever the others' result.
    if (v.rules.royal_capture == Rules::RoyalCapture::kTakeOver)
      for (int s = 0; s < v.seat_count(); ++s)
        if (!seat_in_game_[s]) o.score[s] = 0.0;
  };
  auto value = [](NoMoveResult r) {
    return r == NoMoveResult::kWin ? 1.0 : r == NoMoveResult::kDraw ? 0.5 : 0.0;
  };
  if (legal.empty()) {
    bool check = in_check();
    o.termination = check ? Termination::kCheckmate : Termination::kStalemate;
    score_all(value(check ? v.rules.checkmate : v.rules.stalemate));
    return o;
  }
  if (v.rules.move_rule > 0 && halfmove_clock_ >= 2 * v.rules.move_rule)
    o.termination = Termination::kMoveRule;
  else if (is_repetition())
    o.termination = Termination::kRepetition;
  else if (v.rules.max_plies > 0 && game_ply_ >= v.rules.max_plies)
    o.termination = Termination::kMaxPlies;
  if (o.over()) score_all(0.5);
  return o;
}

bool Position::is_legal(Move m) const {
  MoveList legal;
  legal_moves(legal);
  return legal.contains(m);
}

std::string Position::move_text(Move m) const {
  const Variant& v = *variant_;
  const Geometry& g = v.geometry;
  if (m.kind() == MoveKind::kDrop)
    return std::string(1, v.pieces[m.piece_type()].letter) + "@" + g.cell_name(m.to());
  if (m.kind() == MoveKind::kDropOut) return "out";
  if (m.kind() == MoveKind::kPass) return "pass";
  std::string text = g.cell_name(m.from()) + g.cell_name(m.to());
  if (m.is_promotion())
    text += static_cast<char>(
        std::tolower(static_cast<unsigned char>(v.pieces[m.piece_type()].letter)));
  return text;
}

Move Position::parse_move(std::string_view text) const {
  const Variant& v = *variant_;
  const Geometry& g = v.geometry;
  MoveList legal;
  legal_moves(legal);
  for (Move m : legal)
    if (move_text(m) == text) return m;
  std::string quoted = "'" + std::string(text) + "'";
  if (Termination ended = decided_ending().termination; ended != Termination::kNone)
    throw MoveError("move " + quoted + " is not legal: the game is over (" +
                    termination_name(ended) + ")");
  if (text == "out")
    throw MoveError("move 'out' is not legal: " + v.seats[seat_].name +
                    " drops out only when it has no other legal move");
  // Not legal: say why, as precisely as the text allows.
  std::string_view rest = text;
  if (text.size() > 2 && text[1] == '@') {
    int type = v.piece_by_letter(text[0]);
    if (type < 0)
      throw MoveError("move " + quoted + ": '" + text[0] + "' is not a piece of this variant");
    throw MoveError("move " + quoted +
                    " is not legal here: no such piece in hand or the cell is not free");
  }
  std::optional<Cell> from = g.read_cell(rest);
  std::optional<Cell> to = from ? g.read_cell(rest) : std::nullopt;
  if (!from || !to || rest.size() > 1)
    throw MoveError("move " + quoted + " is malformed: write the start and end cells, e.g. " +
                    (legal.empty() ? std::string("e2e4") : move_text(legal[0])) +
                    ", with a promotion letter if any");
  if (!g.exists(*from) || !g.exists(*to))
    throw MoveError("move " + quoted + " uses a cell that is missing from this board");
  PieceCode p = board_[*from];
  if (p == kEmpty)
    throw MoveError("move " + quoted + ": there is no piece on " + g.cell_name(*from));
  if (army_of(p) != army_to_move())
    throw MoveError("move " + quoted + ": the piece on " + g.cell_name(*from) + " is not " +
                    v.seats[seat_].name + "'s");
  bool same_cells = false;
  for (Move m : legal) same_cells = same_cells || (m.from() == *from && m.to() == *to);
  if (same_cells) throw MoveError("move " + quoted + " needs a valid promotion letter (or none)");
  MoveList pseudo;
  generate_pseudo(army_to_move(), seat_, seat_restricted(seat_) ? &v.seats[seat_].side : nullptr,
                  pseudo);
  for (Move m : pseudo)
    if (m.from() == *from && m.to() == *to)
      throw MoveError("move " + quoted + " is not legal: it would leave " + v.seats[seat_].name +
                      "'s royal piece in check");
  throw MoveError("move " + quoted + " is not legal: the " + v.pieces[type_of(p)].name + " on " +
                  g.cell_name(*from) + " cannot move to " + g.cell_name(*to));
}

std::string Position::diagram() const {
  const Variant& v = *variant_;
  const Geometry& g = v.geometry;
  std::ostringstream out;
  for (int rank = g.ranks() - 1; rank >= 0; --rank) {
    std::string name = g.rank_names()[rank];
    out << std::string(3 - std::min<size_t>(3, name.size()), ' ') << name << " ";
    for (int file = 0; file < g.files(); ++file) {
      Cell c = g.cell(file, rank);
      // With more than two armies a man is its army's tag and letter ("nQ").
      std::string text = !g.exists(c) ? " " : board_[c] == kEmpty ? "." : v.piece_text(board_[c]);
      out << std::string(v.army_count() > 2 ? 3 - text.size() : 1, ' ') << text;
    }
    // Four-player games: whose side the rank is, so the reader sees which seat moves each man.
    if (v.has_sides()) {
      std::string owners;
      for (int s = 0; s < v.seat_count(); ++s) {
        bool on_side = false;
        for (int file = 0; file < g.files(); ++file)
          on_side = on_side || v.seats[s].side.contains(g.cell(file, rank));
        if (on_side) owners += (owners.empty() ? "   side of " : ", ") + v.seats[s].name;
      }
      out << owners;
    }
    out << '\n';
  }
  out << "    ";
  for (int file = 0; file < g.files(); ++file)
    out << (v.army_count() > 2 ? "  " : " ") << g.file_names()[file];
  out << "\n" << v.seats[seat_].name << " to move";
  for (int s = 0; s < v.seat_count(); ++s)
    if (!seat_in_game_[s]) out << "; " << v.seats[s].name << " is out";
  for (int a = 0; a < v.army_count(); ++a)
    if (lock_cell_[a] != kNoCell)
      out << "; " << v.armies[a] << "'s " << v.pieces[type_of(board_[lock_cell_[a]])].name << " on "
          << g.cell_name(lock_cell_[a]) << " is locked";
  out << "\n";
  return out.str();
}

uint64_t perft(Position& pos, int depth) {
  MoveList moves;
  pos.legal_moves(moves);
  if (depth <= 1) return depth == 1 ? moves.size() : 1;
  uint64_t nodes = 0;
  for (Move m : moves) {
    pos.play(m);
    nodes += perft(pos, depth - 1);
    pos.undo();
  }
  return nodes;
}

std::vector<DivideEntry> perft_divide(Position& pos, int depth) {
  MoveList moves;
  pos.legal_moves(moves);
  std::vector<DivideEntry> out;
  for (Move m : moves) {
    std::string text = pos.move_text(m);
    pos.play(m);
    out.push_back({text, depth > 1 ? perft(pos, depth - 1) : 1});
    pos.undo();
  }
  return out;
}

}  // namespace fairyzero
