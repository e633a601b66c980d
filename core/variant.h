// A variant: board, pieces, players and rule mechanisms, loaded from configs/variants/NAME.toml,
// validated, and compiled into move tables. Immutable once built; shared as shared_ptr<const>.
#pragma once

#include <array>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/errors.h"
#include "core/geometry.h"
#include "core/movement.h"
#include "core/movement_tables.h"
#include "core/types.h"

namespace fairyzero {

// A variant file that cannot be used. The message names the file, line and field.
class VariantError : public UserError {
 public:
  using UserError::UserError;
};

struct PieceType {
  std::string name;   // "knight"
  char letter = '?';  // FEN letter, upper case (army 0); army 1 uses lower case
  std::string betza;  // as written in the file, for display; empty when only atoms are given
  std::vector<MoveAtom> atoms;
  bool royal = false;              // may not be left attacked when rules.check is on
  bool en_passant = false;         // its initial multi-steps can be taken en passant; it takes so
  bool resets_move_count = false;  // its moves reset the move-count (fifty-move) clock
  std::vector<int> promotion_choices;  // piece types, in the file's order
  bool promotion_optional = false;     // reaching the zone may promote ("can be"), not must
  std::array<CellSet, kMaxArmies> promotion_zone{};  // per army: reaching it promotes
  std::array<CellSet, kMaxArmies> initial_cells{};   // per army: where "initial" atoms apply
  // River mechanisms (Gilman's river family).
  bool corner_exempt = false;  // its unit diagonal moves are leaps, free of the corner rule
  bool crosses_river = true;   // may move or attack across the River
  std::vector<std::pair<Cell, Cell>> river_crossings;  // when non-empty: the only steps across
  bool promote_on_crossing = false;    // promotes by crossing the River, not in a zone
  bool same_direction_capture = true;  // false: cannot take an enemy of its type moving its way
  bool capture_when_crossing = false;  // ... except by a move that crosses the River
  // CoBlaChe: may not move to a River section (bank) holding an enemy piece with this flag.
  bool section_exclusion = false;
  // Aire: "a team can have only one Rose at any time": promotion to this type is refused while
  // the army has this many. 0 = no limit.
  int max_per_army = 0;
  // Aire, Irwell (A4): once a seat moves it, it waits until that seat and its partner (if still
  // in the game) have each moved another piece.
  bool move_lock = false;
};

struct Seat {
  std::string name;
  int army = 0;
  Direction forward = Direction::kNorth;
  std::string fen;  // side-to-move token in FEN ("w", "b")
  // Four-player river games (A5): while its partner plays, the seat may only make moves that
  // start or end on these cells. Empty: the whole board.
  CellSet side;
};

// A castling move as data: the king and rook cells before and after, the cells that must be
// empty and the cells that must not be attacked (for chess: king start, crossed and end cells).
struct CastlingRule {
  int army = 0;
  char fen = 'K';  // the castling-rights letter in FEN (upper case for army 0)
  Cell king_from = 0, king_to = 0, rook_from = 0, rook_to = 0;
  std::vector<Cell> must_be_empty;
  std::vector<Cell> must_not_be_attacked;
  // Great Stour (A13): "an enemy piece immediately moving to any part of the restricted piece's
  // extended move captures that piece" - the king's start and crossed cells, on the very next
  // move only.
  bool capture_on_path = false;
  std::vector<Cell> royal_path;  // king_from and the cells it crossed
};

// What happens to the seat to move when it has no legal move.
enum class NoMoveResult { kLoss, kDraw, kWin };

struct Rules {
  bool check = true;  // royal pieces may not be left attacked; mate and stalemate apply
  NoMoveResult checkmate = NoMoveResult::kLoss;
  NoMoveResult stalemate = NoMoveResult::kDraw;
  int move_rule = 50;  // draw after this many full moves without capture or reset move; 0 = off
  int repetition = 3;  // draw at the n-th occurrence of a position; 0 = off
  int max_plies = 0;   // draw when the game reaches this many plies; 0 = no limit
  // After each move the mover keeps at least one piece of these types on every River bank.
  uint32_t royal_presence = 0;  // bit mask of piece types; 0 = rule off
  // A side loses once this many of each type have been captured (counted against the start
  // position); empty = rule off.
  std::vector<std::pair<int, int>> capture_to_win;  // (type, count)
  // Four-player river games: a seat with no legal move drops out (its only move is
  // Move::drop_out()) unless its army has a royal piece, where mate and stalemate apply. The
  // game ends when every seat of an army is out.
  bool drop_out = false;
  // When a seat drops out and its partner takes over the army: (type, becomes) for its men.
  std::vector<std::pair<int, int>> takeover;
  // Which cells an odd-only move may leap (Commedia dell'Arte Chess).
  OddRule odd_rule = OddRule::kStepping;
  // Chessgi: a captured man goes to the captor's hand, to be dropped later.
  bool captures_to_hand = false;
  // Double Commedia: a seat with no legal move passes (its only move is Move::pass()).
  bool pass_when_no_move = false;
  // What taking a royal piece does (possible only where a seat may move twice between an
  // army's turns): kDefeat ends the game, lost for that army (Irwell); kTakeOver gives the
  // captor the victim's whole army and hand, and the victim's seats leave (Double Commedia).
  enum class RoyalCapture { kDefeat, kTakeOver } royal_capture = RoyalCapture::kDefeat;
};

// Irwell's Coronation (A11): a `piece` that is the only man between a `bishop` and a `steward`
// on a diagonal, or on the edge with free diagonals to one of each, becomes `becomes`; an army
// with `defeat_at` of them is defeated.
struct Coronation {
  int piece = -1;  // -1: the variant has no Coronation
  int becomes = -1;
  int bishop = -1;
  int steward = -1;
  int defeat_at = 2;
};

// How a finished four-player game is scored: by team, or by the sources' individual ranking.
enum class Scoring { kTeam, kIndividual };

class Variant {
 public:
  // Metadata
  std::string name;   // "chess"
  std::string title;  // "Chess"
  std::string provenance = "verified";
  std::string note;
  std::string fairy_stockfish;  // the name Fairy-Stockfish knows it by, or empty
  std::string source_file;
  // The variant file's contents after its --set overrides, as TOML: a run and a bot keep this
  // copy (variant.toml), so they own their rules whatever later happens to the file.
  std::string resolved_toml;

  Geometry geometry;
  std::vector<PieceType> pieces;
  std::vector<std::string> armies;  // army names; FEN upper case = army 0, lower case = army 1
  // With more than two armies, FEN writes each man as its army's tag (one lower-case letter)
  // and the piece letter: "sK", "nQ".
  std::vector<char> army_tags;
  std::vector<int> team_of_army;
  std::vector<Seat> seats;
  std::vector<int> turn_order;  // seat indices
  std::vector<CastlingRule> castling;
  Rules rules;
  Coronation coronation;
  Scoring scoring = Scoring::kTeam;  // the variant's default way of scoring
  std::string start_fen;

  // Compiled by finalize(): move tables per seat orientation and the Zobrist keys.
  MovementTables tables;

  int piece_count() const { return static_cast<int>(pieces.size()); }
  int army_count() const { return static_cast<int>(armies.size()); }
  int seat_count() const { return static_cast<int>(seats.size()); }
  // Piece type of a FEN letter (either case), or -1.
  int piece_by_letter(char letter) const;
  PieceCode piece_code_of_letter(char letter) const;  // kEmpty when unknown
  char letter_of(PieceCode p) const;
  // The man as FEN writes it: its letter, cased by army, or with more than two armies the army's
  // tag and the upper-case letter.
  std::string piece_text(PieceCode p) const;
  bool is_enemy(int army, PieceCode p) const {
    return p != kEmpty && team_of_army[army_of(p)] != team_of_army[army];
  }
  // The seat whose orientation an army's pieces use when they attack (its first seat).
  int attack_orientation(int army) const { return army_orientation_[army]; }
  // Some seat is confined to a side of the board while its partner plays (four-player games).
  bool has_sides() const { return has_sides_; }
  // The seat of `army` that moves a man standing on c (the one whose side holds c), for the
  // direction the man faces; attack_orientation(army) where no side holds c.
  int orientation_at(int army, Cell c) const { return orientation_at_[army][c]; }
  // The other seat of the same army, or -1 (two seats per army at most).
  int partner_of(int seat) const { return partner_[seat]; }

  // Checks consistency and builds the tables; throws VariantError. Called by the loader.
  void finalize();

  // Zobrist keys, fixed by a seeded generator so hashes are the same in every run.
  uint64_t piece_key(PieceCode p, Cell c) const { return piece_keys_[p * kMaxCells + c]; }
  uint64_t seat_key(int seat) const { return seat_keys_[seat]; }
  uint64_t castling_key(int rule) const { return castling_keys_[rule]; }
  uint64_t en_passant_key(Cell c) const { return en_passant_keys_[c]; }
  uint64_t path_key(Cell c) const { return path_keys_[c]; }
  uint64_t out_key(int seat) const { return out_keys_[seat]; }
  uint64_t lock_key(int army, Cell c, uint32_t pending_seats) const {
    return lock_keys_[army * kMaxCells + c] ^ lock_pending_keys_[army * 16 + (pending_seats & 15)];
  }
  uint64_t hand_key(int army, int type, int count) const {
    return hand_keys_[(army * kMaxPieceTypes + type) * kMaxHandCount +
                      std::min(count, kMaxHandCount - 1)];
  }
  static constexpr int kMaxHandCount = 64;

  // Some piece type has section_exclusion (computed by finalize()).
  bool has_section_exclusion() const { return has_section_exclusion_; }
  // Pieces of each (army, type) in the start position (for capture-to-win).
  int start_count(int army, int type) const { return start_counts_[army][type]; }
  void set_start_count(int army, int type, int n) { start_counts_[army][type] = n; }
  // The direction "forward" points for a piece on `c` moved (or attacking) with seat
  // orientation `seat`: the cell's own forward where it has one, else the seat's.
  Direction forward_at(Cell c, int seat) const {
    return geometry.forward_at(c).value_or(seats[seat].forward);
  }

  // Castling rights a move touching a cell removes (king or rook leaving or being captured).
  uint32_t castling_mask(Cell c) const { return castling_mask_[c]; }

 private:
  void build_zobrist();
  template <typename Fail>
  void build_seat_maps(Fail&& fail);
  std::array<int, kMaxArmies> army_orientation_{};
  std::array<std::array<uint8_t, kMaxCells>, kMaxArmies> orientation_at_{};
  std::array<int, kMaxSeats> partner_{};
  bool has_sides_ = false;
  std::vector<uint64_t> piece_keys_, seat_keys_, castling_keys_, en_passant_keys_, hand_keys_,
      path_keys_, out_keys_, lock_keys_, lock_pending_keys_;
  std::array<uint32_t, kMaxCells> castling_mask_{};
  std::array<std::array<int, kMaxPieceTypes>, kMaxArmies> start_counts_{};
  bool has_section_exclusion_ = false;
};

using VariantPtr = std::shared_ptr<const Variant>;

}  // namespace fairyzero
