// A game position of any variant: board, hands, per-seat state, Zobrist hash and history, with
// legal move generation, play/undo, attack queries and the game's outcome.
#pragma once

#include <array>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "core/errors.h"
#include "core/move.h"
#include "core/variant.h"

namespace fairyzero {

// A FEN that does not describe a position of the variant; the message names the field.
class FenError : public UserError {
 public:
  using UserError::UserError;
};

// A move text that is malformed or not legal here; the message names the move and the reason.
class MoveError : public UserError {
 public:
  using UserError::UserError;
};

enum class Termination {
  kNone,
  kCheckmate,
  kStalemate,
  kRepetition,
  kMoveRule,
  kMaxPlies,
  kCaptureSet,    // a side lost the set of pieces the variant names (rules.capture_to_win)
  kDropOut,       // every seat of an army dropped out (four-player river games)
  kCoronation,    // an army had both its Princes crowned (Irwell)
  kRoyalCapture,  // a King left in check while its army's turn was skipped was taken
  kLastArmy,      // every other army's King was taken (Double Commedia)
  kResignation,   // a player gave up (self-play's resignation rule; never from the rules)
};
const char* termination_name(Termination t);

// Result of a finished game and why it ended. `score` is the team result per seat (1 win, 0.5
// draw, 0 loss). `individual` scores the sources' ranking of the seats (rank 1 scores 1, the
// last 0, evenly between; tied seats share their places' average); `rank` is 1-based, tied
// seats sharing the best place. In two-seat games both equal the team result.
struct Outcome {
  Termination termination = Termination::kNone;
  std::array<double, kMaxSeats> score{};
  std::array<double, kMaxSeats> individual{};
  std::array<int, kMaxSeats> rank{};
  bool over() const { return termination != Termination::kNone; }
  const std::array<double, kMaxSeats>& scored(Scoring s) const {
    return s == Scoring::kTeam ? score : individual;
  }
};

// The outcome of a game stopped by a length cap (self-play's, the arena's max_plies): a draw
// for everyone.
Outcome length_cap_outcome();

class Position {
 public:
  // The variant's start position.
  explicit Position(VariantPtr variant);
  // Throws FenError naming the field that is wrong.
  static Position from_fen(VariantPtr variant, std::string_view fen);

  const Variant& variant() const { return *variant_; }
  const VariantPtr& variant_ptr() const { return variant_; }

  // Fairy-Stockfish's FEN dialect: multi-digit empty runs, '*' for missing cells, hands in
  // brackets after the board, castling KQkq, en-passant cell, clocks.
  std::string fen() const;

  PieceCode piece_at(Cell c) const { return board_[c]; }
  int seat_to_move() const { return seat_; }
  int army_to_move() const { return variant_->seats[seat_].army; }
  uint64_t hash() const { return hash_; }
  int hand_count(int army, int type) const { return hands_[army][type]; }
  Cell en_passant_cell() const { return ep_cell_; }
  uint32_t castling_rights() const { return castling_rights_; }
  int halfmove_clock() const { return halfmove_clock_; }
  int game_ply() const { return game_ply_; }  // plies since the variant's start (from FEN clocks)
  int plies_played() const { return static_cast<int>(history_.size()); }

  // Four-player river games. A seat that dropped out has no more turns; dropout_order says
  // when (0 for the first seat out), -1 while it plays.
  bool seat_in_game(int seat) const { return seat_in_game_[seat]; }
  int dropout_order(int seat) const { return dropout_order_[seat]; }
  // The seat that made the last move other than a drop-out (-1 when unknown).
  int last_mover() const { return last_mover_; }
  // Is the seat confined to its side of the board (it has one and its partner still plays)?
  bool seat_restricted(int seat) const;
  // The Rose lock (A4): the army's locked man, or kNoCell, and the seats (bit mask) that must
  // still move another piece before it is free.
  Cell locked_cell(int army) const { return lock_cell_[army]; }
  uint32_t lock_pending(int army) const { return lock_pending_[army]; }

  // Legal moves of the seat to move, in generation order; none once the game is decided.
  void legal_moves(MoveList& out) const;
  // The moves before the check rule: the men's moves, castling with its cells empty, drops, and
  // the Rose lock, royal-presence and section rules. Tests use it as a brute-force legality
  // oracle: a move is legal when it leaves no royal man of the mover attacked.
  void pseudo_legal_moves(MoveList& out) const;
  bool is_legal(Move m) const;
  // Precondition: m is legal here.
  void play(Move m);
  // Takes back the last move played; throws std::logic_error when there is none.
  void undo();

  bool in_check() const;
  // Is cell c attacked by any piece of the army, with the board as it stands?
  bool is_attacked(Cell c, int by_army) const;

  // Finished or not, and the score. `legal` are this position's legal moves (saves regenerating).
  Outcome outcome() const;
  Outcome outcome(const MoveList& legal) const;

  // Move text in the variant's coordinates: "e2e4", "e7e8q", "P@e4", castling as the king's
  // move ("e1g1"). parse_move throws MoveError saying why a move is malformed or illegal.
  std::string move_text(Move m) const;
  Move parse_move(std::string_view text) const;

  // The hash computed from scratch; equals hash() unless incremental updates are broken.
  uint64_t compute_hash() const;
  // The first broken invariant of the position's own bookkeeping (piece lists, their index,
  // type counts, present types, missing cells, the hash), or "" when all hold. play() and
  // undo() assert it in debug builds; the fuzz suite checks it at every ply in any build.
  std::string consistency_problem() const;

  // A text diagram of the board for terminals.
  std::string diagram() const;

 private:
  struct UndoRecord {
    Move move;
    PieceCode moved;
    PieceCode captured;
    uint8_t captured_cell;
    int16_t ep_cell;
    int16_t ep_victim;
    uint32_t castling_rights;
    int halfmove_clock;
    uint64_t hash;
    int seat;
    int16_t path_victim;  // the castled royal open to capture on its path, or -1
    int8_t path_rule;
    PieceCode path_captured;  // the royal this move took that way, or kEmpty
    uint8_t path_captured_cell;
    // Four-player state before the move; `changes` men were transformed after it (take-over,
    // Coronation), their former selves pushed on changes_.
    int8_t last_mover = -1;
    int8_t fallen_army = -1;
    uint8_t changes = 0;
    uint8_t hand_changes = 0;  // entries pushed on hand_changes_
    uint8_t eliminated = 0;    // seats a royal capture took out of the game (bit mask)
    std::array<int16_t, kMaxArmies> lock_cell{};
    std::array<uint8_t, kMaxArmies> lock_pending{};
  };
  struct CheckInfo;  // checkers, block cells and pinned pieces of the seat to move

  Position() = default;
  void put_piece(PieceCode p, Cell c);
  void remove_piece(Cell c);
  void move_piece(Cell from, Cell to);
  // `side`: only moves starting or ending there (a restricted seat), or nullptr.
  void generate_pseudo(int army, int orientation, const CellSet* side, MoveList& out) const;
  // Does army `by` attack c on `board`? In four-player games through the seats still playing.
  bool attacked_on(const PieceCode* board, Cell c, int by, uint32_t present) const;
  // Castling with its cells empty and, with `safe_path`, the King's path not attacked.
  void generate_castling(int army, bool safe_path, MoveList& out) const;
  bool castling_path_safe(const CastlingRule& rule, int army) const;
  // The moves before the check rule, castling's path tested or not (pseudo_legal_moves).
  void generate_unchecked(bool safe_castling, MoveList& out) const;
  // An ending the position decides whatever moves remain (a taken King, the last army, a double
  // Coronation, both seats of an army out, a captured set), with the army that lost it or, for
  // kLastArmy, the winning seat; termination kNone while the game goes on.
  struct DecidedEnding {
    Termination termination = Termination::kNone;
    int army_or_seat = -1;
  };
  DecidedEnding decided_ending() const;
  // decided_ending() is not kNone; inline and cheap where the variant has no such ending.
  bool game_decided() const {
    const Variant& v = *variant_;
    return (fallen_army_ >= 0 || v.rules.drop_out || v.coronation.piece >= 0 ||
            !v.rules.capture_to_win.empty() ||
            v.rules.royal_capture == Rules::RoyalCapture::kTakeOver) &&
           decided_ending().termination != Termination::kNone;
  }
  void generate_drops(int army, MoveList& out) const;
  void compute_check_info(int army, CheckInfo& info) const;
  void keep_royals_safe(int army, const CheckInfo& info, MoveList& out) const;
  void add_crowning_lines(int army, CellSet& lines) const;
  bool own_prince_awaits_crowning(int army) const;
  bool royal_safe_after(Move m, int army) const;
  int army_taken_over_by(Move m) const;
  void keep_royal_presence(int army, MoveList& moves) const;
  void keep_out_of_held_sections(int army, MoveList& moves) const;
  int next_seat(int seat) const;
  bool any_royal_attacked(int army) const;
  // The landing just before `to` on the straight line from `from` (the cell a double step crossed).
  Cell crossed_cell(Cell from, Cell to) const;
  // Records the e.p. cell when an enemy of `army` could take the piece on `to` there.
  void set_en_passant(Cell crossed, Cell to, int army);
  // The FEN's en-passant field naming a castled royal still open to capture on its path.
  bool set_path_victim_from_fen(Cell c);
  bool is_repetition() const;
  // Four-player mechanisms (team_play.cpp).
  void play_drop_out();
  void transform(Cell c, PieceCode now);         // records the former man for undo
  void set_hand(int army, int type, int count);  // records the former count for undo
  void capture_to_hand(int army, PieceCode captured);
  void take_over_army(int victim, int captor);
  void take_over(int army);
  void apply_coronations();
  void update_locks(Move m, int army, PieceCode moved, PieceCode captured, Cell captured_cell);
  uint64_t lock_hash() const;
  void score_ranking(Outcome& o) const;
  Outcome team_outcome(const MoveList& legal) const;
  std::string team_state_field() const;
  void read_team_state_field(std::string_view fen, const std::string& field);

  VariantPtr variant_;
  std::array<PieceCode, kMaxCells> board_{};
  // Cells of each army's pieces, in no particular order; index_ maps a cell to its slot.
  std::array<std::array<uint8_t, kMaxCells>, kMaxArmies> piece_cells_{};
  std::array<int, kMaxArmies> piece_count_{};
  std::array<uint8_t, kMaxCells> index_{};
  std::array<std::array<int, kMaxPieceTypes>, kMaxArmies> type_count_{};
  std::array<uint32_t, kMaxArmies> present_types_{};  // bit t set when the army has a type-t piece
  std::array<std::array<int, kMaxPieceTypes>, kMaxArmies> hands_{};
  int seat_ = 0;
  std::array<bool, kMaxSeats> seat_in_game_{};
  std::array<int8_t, kMaxSeats> dropout_order_{-1, -1, -1, -1};
  int last_mover_ = -1;
  int8_t fallen_army_ = -1;  // an army whose King was taken (four-player games)
  std::array<int16_t, kMaxArmies> lock_cell_{kNoCell, kNoCell, kNoCell, kNoCell};
  std::array<uint8_t, kMaxArmies> lock_pending_{};
  std::vector<std::pair<uint8_t, PieceCode>> changes_;  // (cell, former man), for undo
  std::vector<std::array<int, 3>> hand_changes_;        // (army, type, former count)
  Cell ep_cell_ = kNoCell;
  Cell ep_victim_ = kNoCell;
  // After a castling with capture_on_path: the royal's cell and the rule, for one move.
  Cell path_victim_ = kNoCell;
  int path_rule_ = -1;
  uint32_t castling_rights_ = 0;
  int halfmove_clock_ = 0;
  int game_ply_ = 0;
  uint64_t hash_ = 0;
  std::vector<UndoRecord> history_;
};

// The legal moves of a position as a range: `for (Move m : LegalMoves(pos))`.
class LegalMoves : public MoveList {
 public:
  explicit LegalMoves(const Position& pos) { pos.legal_moves(*this); }
};

// Perft: the number of leaf nodes `depth` plies below the position (legal moves counted, not
// played, at the last ply, as Stockfish and Fairy-Stockfish count).
uint64_t perft(Position& pos, int depth);
struct DivideEntry {
  std::string move;
  uint64_t nodes;
};
std::vector<DivideEntry> perft_divide(Position& pos, int depth);

}  // namespace fairyzero
