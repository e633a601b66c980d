// The arena: a match between two players of any kind (uniform or material search, a network
// checkpoint, an exported bot, a UCI or XBoard engine) in paired games from shared openings,
// several at once, every game recorded, with Elo, likelihood of superiority and an optional
// SPRT that stops the match early. In a four-seat team game each player moves both seats of
// one team. Usage and formulas: docs/ARENA.md.
#pragma once

#include <array>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/variant.h"
#include "training/arena/elo.h"
#include "training/play/engine_protocol.h"
#include "training/play/player_spec.h"

namespace fairyzero {

// The two sides of a match. In a two-seat variant a side is a seat; in a four-seat team game it
// is a team, both of whose seats its player moves; in a game of four teams each for itself
// (Double Commedia) a side is every other army in the turn order, and a game counts for the side
// whose army wins. Engines speak for one seat: internal players only beyond two seats. Side 0
// holds the variant's first seat.
struct ArenaSides {
  std::vector<int> side_of_seat;     // 0 or 1, for every seat
  std::array<std::string, 2> names;  // the seat's name, or the side's armies joined by '+'
};
// Throws UserError for a variant of one team or an odd number of them.
ArenaSides arena_sides(const Variant& variant);

struct ArenaConfig {
  VariantPtr variant;                 // two seats, or two teams (arena_sides)
  std::array<PlayerSpec, 2> players;  // statistics are from the first player's side
  int games = 10;                     // rounded up to even: each opening is played both ways
  int concurrency = 1;    // games at once: batched in one thread, or one thread each with an engine
  int opening_plies = 4;  // random plies per opening, without an openings file
  std::string openings_file;  // one FEN or move list per line; pair k uses line k
  uint64_t seed = 1;
  int max_plies = 400;               // a game this long (from the start) is a draw
  std::optional<SprtSettings> sprt;  // stops when the LLR crosses a bound
  std::string out_dir;               // records; none written when empty
  std::string device = "cpu";        // for networks
  std::vector<std::pair<std::string, std::string>> engine_options;  // sent to every engine
  double engine_startup_seconds = 10;
  double engine_move_timeout_seconds = 30;  // beyond the movetime
  int default_visits = 100;                 // for internal players without visits
};

// One finished game. Sides are arena_sides': side_of_first is where the first player sat.
struct ArenaGame {
  int index = 0;  // from 0, in the order games were started
  int pair = 0;   // games 2k and 2k+1 share an opening with the sides swapped
  int side_of_first = 0;
  std::string opening;                         // how the opening was made, e.g. "openings.txt:3"
  std::string start_fen;                       // empty: the variant's start position
  std::vector<std::string> moves;              // every move from the start, the opening's included
  std::array<double, 2> side_score{0.5, 0.5};  // each side's share of the game's points
  double first_score = 0.5;
  std::string termination;  // one line: "checkmate", "uci:x crashed", "arena move limit", ...
  std::string detail;       // the full reason a player lost by fault (an engine's last lines)
  double seconds = 0;
};

struct ArenaStatus {
  int games_done = 0, games_total = 0;
  GameCounts counts;  // the first player's
  EloEstimate elo;
  double los = 0.5;
  double llr = 0;  // 0 without an SPRT
  SprtDecision decision = SprtDecision::kContinue;
  double seconds = 0, games_per_second = 0, eta_seconds = 0;
};

struct ArenaResult {
  std::vector<ArenaGame> games;  // by index
  ArenaStatus status;
};

// Plays the match. `progress` is called after every game (from one thread at a time) with the
// status and the game just finished. Bad players (unknown spec, missing checkpoint, a network
// for another variant, an engine that does not start or answer its handshake) throw before the
// first game; a player failing during a game (crash, timeout, illegal move) loses that game.
using ArenaProgress = std::function<void(const ArenaStatus&, const ArenaGame&)>;
ArenaResult run_arena(const ArenaConfig& config, const ArenaProgress& progress = {});

// "[ 12/40] material 7.5/12 (+5 =5 -2)  Elo +87 [-12, +190]  LLR 1.20 [-2.94, 2.94]
// 1.3 games/s  ETA 21s"
std::string format_status(const ArenaConfig& config, const ArenaStatus& status);

}  // namespace fairyzero
