// `fairyzero xboard BOT`: the Chess Engine Communication Protocol (version 2) as XBoard and
// WinBoard speak it, over an EngineSession. docs/PROTOCOLS.md describes every command.
#include <algorithm>
#include <atomic>
#include <iostream>
#include <optional>
#include <sstream>
#include <vector>

#include "apps/arguments.h"
#include "apps/commands.h"
#include "apps/engine_session.h"
#include "apps/xboard_variant.h"

namespace fairyzero {
namespace {

// Commands XBoard may send that this engine has nothing to do for.
const std::set<std::string> kIgnored = {
    "xboard", "accepted", "rejected", "hard", "easy",  "random", "computer", "name", "rating",
    "ics",    "draw",     "hint",     "bk",   "white", "black",  "otim",     ".",    "nopause"};

std::optional<double> number(const std::string& text) {
  try {
    size_t used = 0;
    double x = std::stod(text, &used);
    if (used == text.size()) return x;
  } catch (const std::exception&) {
  }
  return std::nullopt;
}

// "5" minutes or "0:30" minutes:seconds, as `level` writes its base time.
std::optional<double> minutes_to_seconds(const std::string& text) {
  size_t colon = text.find(':');
  if (colon == std::string::npos) {
    std::optional<double> minutes = number(text);
    return minutes ? std::optional<double>(*minutes * 60) : std::nullopt;
  }
  std::optional<double> minutes = number(text.substr(0, colon));
  std::optional<double> seconds = number(text.substr(colon + 1));
  if (!minutes || !seconds) return std::nullopt;
  return *minutes * 60 + *seconds;
}

class XboardEngine {
 public:
  XboardEngine(EngineSession& session, EngineOutput& out)
      : session_(session),
        out_(out),
        notation_(session.variant()),
        threads_(session.threads()),
        memory_mb_(session.memory_mb()),
        engine_seat_(session.variant().turn_order.back()) {}

  // Handles one line; false after `quit`. Never throws: a problem becomes an error line.
  bool handle(const std::string& line);
  // At the end of the input: lets a running search finish.
  void finish() { session_.wait(); }

 private:
  bool dispatch(const std::string& command, std::istringstream& in);
  bool set_clock(const std::string& command, std::istringstream& in);
  void features();
  void set_option(std::istringstream& in);
  void select_variant(const std::string& name);
  void set_board(const std::string& fen);
  void user_move(const std::string& text);
  void think();
  // Analyze mode: an endless search of the current position, thinking output only; restarted
  // whenever the position or the excluded moves change.
  void analyse();
  // exclude/include MOVE|all: root moves left out of the searches of this position.
  void exclude(const std::string& command, const std::string& what);
  // The position changed: exclusions go, and an analysis starts over.
  void position_changed();
  // The searchable root moves when some are excluded (empty: all).
  std::vector<Move> root_moves() const;
  void engine_moved(const Position& root, const SearchResult& r);  // on the search thread
  // Claims the result when the game is over ("1-0 {checkmate}"); true when it is.
  bool announce_if_over();
  std::string thinking_line(const Position& root, const SearchResult& r) const;

  EngineSession& session_;
  EngineOutput& out_;
  XboardNotation notation_;
  bool force_ = false;
  bool analysing_ = false;
  std::vector<Move> excluded_;
  std::atomic<bool> post_{false};
  int threads_, memory_mb_;  // from cores and memory, applied at the next search
  int engine_seat_;
  int moves_per_session_ = 0;    // level: 0 = the whole game
  double increment_ = 0;         // level, seconds
  double seconds_per_move_ = 0;  // st
  int depth_limit_ = 0;          // sd
  double clock_ = -1;            // time: the engine's remaining seconds, -1 when never given
};

bool XboardEngine::handle(const std::string& line) {
  std::istringstream in(line.substr(0, line.find_last_not_of(" \t\r") + 1));
  std::string command;
  if (!(in >> command)) return true;
  try {
    return dispatch(command, in);
  } catch (const std::exception& e) {
    out_.line("Error (" + std::string(e.what()) + "): " + command);
    return true;
  }
}

bool XboardEngine::dispatch(const std::string& command, std::istringstream& in) {
  std::string arg;
  if (command == "protover") {
    features();
  } else if (command == "new") {
    session_.abort();
    session_.new_game();
    force_ = false;
    analysing_ = false;
    excluded_.clear();
    engine_seat_ = session_.variant().turn_order.back();  // the engine plays Black
    depth_limit_ = 0;
  } else if (command == "analyze") {
    analysing_ = true;
    analyse();
  } else if (command == "exit") {
    session_.abort();
    analysing_ = false;
  } else if (command == "exclude" || command == "include") {
    std::getline(in >> std::ws, arg);
    exclude(command, arg);
  } else if (command == "variant") {
    in >> arg;
    select_variant(arg);
  } else if (command == "setboard") {
    std::getline(in >> std::ws, arg);
    set_board(arg);
  } else if (command == "usermove") {
    in >> arg;
    user_move(arg);
  } else if (command == "go") {
    session_.abort();
    force_ = false;
    engine_seat_ = session_.position().seat_to_move();
    think();
  } else if (command == "force" || command == "result") {
    session_.abort();
    force_ = true;
  } else if (command == "?") {
    session_.stop();
  } else if (command == "ping") {
    in >> arg;
    out_.line("pong " + arg);
  } else if (command == "post" || command == "nopost") {
    post_ = command == "post";
  } else if (command == "undo" || command == "remove") {
    session_.abort();
    for (int n = command == "undo" ? 1 : 2; n > 0; --n) session_.undo();
    position_changed();
  } else if (command == "quit") {
    session_.abort();
    return false;
  } else if (command == "option") {
    set_option(in);
  } else if (set_clock(command, in)) {
  } else if (kIgnored.count(command)) {
  } else if (looks_like_move(command)) {
    user_move(command);  // a GUI that sends moves without the usermove prefix
  } else {
    out_.line("Error (unknown command): " + command);
  }
  return true;
}

// option NAME=VALUE: one of the search parameters offered by features().
void XboardEngine::set_option(std::istringstream& in) {
  std::string text;
  std::getline(in >> std::ws, text);
  const size_t eq = text.find('=');
  const SearchSetting* setting =
      eq == std::string::npos ? nullptr : find_bot_search_setting(text.substr(0, eq));
  if (eq != std::string::npos && text.substr(0, eq) == "TimeManager") {
    const std::string value = text.substr(eq + 1);
    if (value != "0" && value != "1")
      return out_.line("Error (bad option value): TimeManager must be 0 or 1, not " + value);
    session_.set_time_managed(value == "1");
    return;
  }
  if (!setting) return out_.line("Error (unknown option): " + text);
  set_search_option(session_, *setting, text.substr(eq + 1),
                    [&](const std::string& e) { out_.line("Error (bad option value): " + e); });
}

// level, st, sd, time, cores, memory: settings for the next search. False for other commands.
bool XboardEngine::set_clock(const std::string& command, std::istringstream& in) {
  std::string a, b, c;
  auto bad = [&] {
    out_.line("Error (bad argument): " + command + " " + a + " " + b + " " + c);
    return true;
  };
  if (command == "level") {
    in >> a >> b >> c;
    std::optional<double> moves = number(a), base = minutes_to_seconds(b), inc = number(c);
    if (!moves || !base || !inc) return bad();
    moves_per_session_ = static_cast<int>(*moves);
    increment_ = *inc;
    clock_ = *base;
    seconds_per_move_ = 0;
  } else if (command == "st" || command == "sd" || command == "time" || command == "cores" ||
             command == "memory") {
    in >> a;
    std::optional<double> x = number(a);
    if (!x || *x < 0) return bad();
    if (command == "st") seconds_per_move_ = *x;
    if (command == "sd") depth_limit_ = static_cast<int>(*x);
    if (command == "time") clock_ = *x / 100;
    if (command == "cores") threads_ = std::max(1, static_cast<int>(*x));
    if (command == "memory") memory_mb_ = std::max(16, static_cast<int>(*x));
  } else {
    return false;
  }
  return true;
}

void XboardEngine::features() {
  const Variant& v = session_.variant();
  std::string variants = xboard_variant_name(v) + (xboard_needs_setup(v) ? ",fairy" : "");
  // The search parameters a bot's search.toml sets, by the same keys, before done=1.
  for (const SearchSetting& s : search_settings())
    if (s.in_bots)
      out_.line("feature option=\"" + std::string(s.key) + " -string " +
                format_number(search_parameter(session_.search_params(), s)) + "\"");
  out_.line(std::string("feature option=\"TimeManager -check ") +
            (session_.time_managed() ? "1" : "0") + "\"");
  out_.line(
      "feature ping=1 setboard=1 playother=0 san=0 usermove=1 time=1 draw=0 sigint=0 sigterm=0 "
      "reuse=1 analyze=1 colors=0 ics=0 name=0 pause=0 nps=0 debug=1 memory=1 smp=1 "
      "exclude=1 setscore=0 highlight=0 myname=\"" +
      session_.bot().name + "\" variants=\"" + variants + "\" done=1");
}

// The bot plays one variant: its own name, "normal" for chess, or "fairy" (XBoard's catch-all,
// then defined by the setup and piece lines).
void XboardEngine::select_variant(const std::string& name) {
  const Variant& v = session_.variant();
  if (name != v.name && name != xboard_variant_name(v) &&
      !(name == "fairy" && xboard_needs_setup(v)))
    return out_.line("Error (unsupported variant): " + name);
  session_.abort();
  if (xboard_needs_setup(v))
    for (const std::string& line : xboard_definition(v)) out_.line(line);
  session_.new_game();
}

void XboardEngine::set_board(const std::string& fen) {
  session_.abort();
  try {
    session_.set_game(Position::from_fen(session_.bot().variant, fen), {});
  } catch (const FenError& e) {
    out_.line("tellusererror Illegal position: " + std::string(e.what()));
  }
  position_changed();
}

void XboardEngine::user_move(const std::string& text) {
  session_.abort();  // the GUI moved while the engine was thinking: drop that search
  std::optional<Move> m = notation_.parse(session_.position(), text);
  if (!m) return out_.line("Illegal move: " + text);
  session_.play(*m);
  position_changed();
  if (analysing_) return;
  if (announce_if_over()) return;
  if (!force_ && session_.position().seat_to_move() == engine_seat_) think();
}

void XboardEngine::position_changed() {
  excluded_.clear();
  if (analysing_) analyse();
}

std::vector<Move> XboardEngine::root_moves() const {
  std::vector<Move> moves;
  if (excluded_.empty()) return moves;
  for (Move m : LegalMoves(session_.position()))
    if (std::find(excluded_.begin(), excluded_.end(), m) == excluded_.end()) moves.push_back(m);
  return moves;
}

void XboardEngine::exclude(const std::string& command, const std::string& what) {
  const Position& pos = session_.position();
  std::vector<Move> legal;
  for (Move m : LegalMoves(pos)) legal.push_back(m);
  if (what == "all") {
    excluded_ = command == "exclude" ? legal : std::vector<Move>{};
  } else {
    std::optional<Move> m = notation_.parse(pos, what);
    if (!m) return out_.line("Error (illegal move): " + command + " " + what);
    std::erase(excluded_, *m);
    if (command == "exclude") excluded_.push_back(*m);
  }
  if (excluded_.size() == legal.size() && !legal.empty())
    out_.line("telluser every move is excluded: the search will consider all of them");
  if (analysing_) analyse();
}

void XboardEngine::analyse() {
  session_.abort();
  Outcome outcome = session_.position().outcome();
  if (outcome.over()) return;
  SearchLimits limits;  // none: until the GUI moves, exits or sends another command
  limits.root_moves = root_moves();
  const Position root = session_.position();
  SearchCallbacks callbacks;
  callbacks.progress = [this, root](const SearchResult& r) { out_.line(thinking_line(root, r)); };
  callbacks.finished = [this, root](const SearchResult& r) { out_.line(thinking_line(root, r)); };
  callbacks.report_seconds = 0.25;  // a GUI's analysis window follows the search as it grows
  callbacks.failed = [this](const std::string& error) {
    out_.line("tellusererror The search failed: " + error);
  };
  session_.start(limits, true, std::move(callbacks));
}

void XboardEngine::think() {
  if (announce_if_over()) return;
  if (threads_ != session_.threads()) session_.set_threads(threads_);
  session_.set_memory_mb(memory_mb_);
  const Position& pos = session_.position();
  SearchLimits limits;
  if (seconds_per_move_ > 0) {
    limits.seconds = seconds_per_move_;
  } else if (clock_ >= 0) {
    int to_go = 0;
    if (moves_per_session_ > 0)
      to_go = moves_per_session_ - (pos.game_ply() / 2) % moves_per_session_;
    limits = clock_limits({clock_, increment_, to_go, 0.05}, session_.time_managed());
  } else {
    limits.playouts = session_.bot().search.playouts;
  }
  if (depth_limit_ > 0) limits.playouts = playouts_for_depth(depth_limit_);
  limits.root_moves = root_moves();
  excluded_.clear();  // in a game, an exclusion is for the engine's next move
  const Position root = pos;
  SearchCallbacks callbacks;
  callbacks.progress = [this, root](const SearchResult& r) {
    if (post_) out_.line(thinking_line(root, r));
  };
  callbacks.finished = [this, root](const SearchResult& r) { engine_moved(root, r); };
  callbacks.failed = [this](const std::string& error) {
    out_.line("tellusererror The search failed: " + error);
  };
  session_.start(limits, false, std::move(callbacks));
}

void XboardEngine::engine_moved(const Position& root, const SearchResult& r) {
  if (r.best.is_none()) {
    announce_if_over();
    return;
  }
  if (post_) out_.line(thinking_line(root, r));
  out_.line("move " + notation_.move(root, r.best));
  session_.play(r.best);
  announce_if_over();
}

bool XboardEngine::announce_if_over() {
  Outcome outcome = session_.position().outcome();
  if (!outcome.over()) return false;
  const int white = session_.variant().turn_order.front();
  const char* result = outcome.score[white] >= 1   ? "1-0"
                       : outcome.score[white] <= 0 ? "0-1"
                                                   : "1/2-1/2";
  out_.line(std::string(result) + " {" + termination_name(outcome.termination) + "}");
  return true;
}

// Thinking output: ply score time nodes pv, with the time in centiseconds and mates as
// +-(100000 + moves), XBoard's convention.
std::string XboardEngine::thinking_line(const Position& root, const SearchResult& r) const {
  EngineScore score = engine_score(r);
  int value = !score.mate       ? score.value
              : score.value > 0 ? 100000 + score.value
                                : -100000 + score.value;
  std::ostringstream line;
  line << engine_depth(r) << " " << value << " " << static_cast<long long>(r.seconds * 100) << " "
       << r.playouts;
  Position p = root;
  for (Move m : r.principal_variation) {
    line << " " << notation_.move(p, m);
    p.play(m);
  }
  return line.str();
}

}  // namespace

int xboard_command(const Arguments& args) {
  EngineBot bot = engine_bot_from_args(args);
  require_two_players(*bot.variant, "XBoard (CECP)");
  EngineSession session(std::move(bot));
  EngineOutput out(std::cout);
  XboardEngine engine(session, out);
  bool quit = false;
  for (std::string line; !quit && std::getline(std::cin, line);) quit = !engine.handle(line);
  if (!quit) engine.finish();
  return 0;
}

}  // namespace fairyzero
