// `fairyzero uci BOT`: the Universal Chess Interface as GUIs, cutechess-cli and Fairy-Stockfish
// style tools speak it, over an EngineSession. docs/PROTOCOLS.md describes every command.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <iostream>
#include <sstream>

#include "apps/arguments.h"
#include "apps/commands.h"
#include "apps/engine_session.h"

namespace fairyzero {
namespace {

std::string lowercase(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

std::optional<long long> whole_number(const std::string& text) {
  try {
    size_t used = 0;
    long long n = std::stoll(text, &used);
    if (used == text.size()) return n;
  } catch (const std::exception&) {
  }
  return std::nullopt;
}

// The rest of a command line after the words already read, without surrounding spaces.
std::string rest_of(std::istringstream& in) {
  std::string rest;
  std::getline(in, rest);
  rest.erase(0, rest.find_first_not_of(" \t"));
  rest.erase(rest.find_last_not_of(" \t\r") + 1);
  return rest;
}

class UciEngine {
 public:
  UciEngine(EngineSession& session, EngineOutput& out)
      : session_(session), out_(out), playouts_(session.bot().search.playouts) {}

  // Handles one line; false after `quit`. Never throws: a problem becomes an `info string`.
  bool handle(const std::string& line);
  // At the end of the input: lets a running search finish (an infinite one is stopped).
  void finish() {
    if (infinite_) session_.stop();
    session_.wait();
  }

 private:
  bool dispatch(const std::string& command, std::istringstream& in);
  void identify();
  void set_option(std::istringstream& in);
  void set_position(std::istringstream& in);
  void go(std::istringstream& in);
  // Searches the current position: until stop() when infinite, else within `limits`.
  void start_search(const SearchLimits& limits, bool infinite);
  // The opponent played the move pondered on: the search goes on, now within the limits the
  // `go ponder` gave (the tree it grew is kept), and answers when they are reached.
  void ponder_hit();
  // The last search, if any, ends and reports before the game or settings change.
  void finish_search() {
    session_.stop();
    session_.wait();
  }
  void info(const std::string& text) { out_.line("info string " + text); }
  std::string info_line(const Position& root, const SearchResult& r) const;
  std::string info_line(const Position& root, const SearchResult& r, const SearchLine* line,
                        int rank) const;
  // One info line per reported root move (MultiPV), the best first.
  void info_lines(const Position& root, const SearchResult& r);

  EngineSession& session_;
  EngineOutput& out_;
  int playouts_;
  int move_overhead_ms_ = 50;
  int multipv_ = 1;
  bool show_wdl_ = false;
  bool infinite_ = false;
  bool pondering_ = false;
  SearchLimits ponder_limits_;  // the limits of a `go ponder`, for after ponderhit
};

bool UciEngine::handle(const std::string& line) {
  std::istringstream in(line.substr(0, line.find_last_not_of(" \t\r") + 1));
  std::string command;
  if (!(in >> command)) return true;
  try {
    return dispatch(command, in);
  } catch (const std::exception& e) {
    info("error: " + command + ": " + e.what());
    return true;
  }
}

bool UciEngine::dispatch(const std::string& command, std::istringstream& in) {
  if (command == "uci") {
    identify();
  } else if (command == "isready") {
    out_.line("readyok");
  } else if (command == "ucinewgame") {
    finish_search();
    session_.new_game();
  } else if (command == "setoption") {
    finish_search();
    set_option(in);
  } else if (command == "position") {
    finish_search();
    set_position(in);
  } else if (command == "go") {
    finish_search();
    go(in);
  } else if (command == "stop") {
    pondering_ = false;
    session_.stop();
  } else if (command == "ponderhit") {
    ponder_hit();
  } else if (command == "quit") {
    session_.abort();
    return false;
  } else if (command == "debug" || command == "register") {
    // Nothing to switch or register.
  } else {
    info("unknown command: " + command + (in.eof() ? "" : " " + rest_of(in)));
  }
  return true;
}

void UciEngine::identify() {
  const EngineBot& bot = session_.bot();
  out_.line("id name " + bot.name);
  out_.line("id author the FairyZero authors");
  out_.line("option name UCI_Variant type combo default " + bot.variant->name + " var " +
            bot.variant->name);
  out_.line("option name Threads type spin default " + std::to_string(session_.threads()) +
            " min 1 max 256");
  out_.line("option name Hash type spin default " + std::to_string(session_.memory_mb()) +
            " min 16 max 1048576");
  out_.line("option name Playouts type spin default " + std::to_string(playouts_) +
            " min 1 max 1000000000");
  out_.line("option name Move Overhead type spin default " + std::to_string(move_overhead_ms_) +
            " min 0 max 10000");
  out_.line("option name Ponder type check default false");
  out_.line("option name MultiPV type spin default 1 min 1 max 256");
  out_.line("option name UCI_ShowWDL type check default false");
  out_.line(std::string("option name TimeManager type check default ") +
            (session_.time_managed() ? "true" : "false"));
  // The search parameters a bot's search.toml sets, by the same keys (numbers as strings: UCI
  // has no fractional type).
  for (const SearchSetting& s : search_settings())
    if (s.in_bots)
      out_.line("option name " + std::string(s.key) + " type string default " +
                format_number(search_parameter(session_.search_params(), s)));
  out_.line("uciok");
}

// setoption name NAME [value VALUE]; names may have spaces and any case.
void UciEngine::set_option(std::istringstream& in) {
  std::string word, name, value;
  in >> word;
  if (word != "name") return info("setoption: write setoption name NAME value VALUE");
  std::string* part = &name;
  while (in >> word) {
    if (part == &name && word == "value") {
      part = &value;
      continue;
    }
    *part += (part->empty() ? "" : " ") + word;
  }
  const std::string key = lowercase(name);
  if (key == "uci_variant") {
    if (value != session_.variant().name)
      info("error: this bot plays only " + session_.variant().name + "; UCI_Variant " + value +
           " is not available");
    return;
  }
  auto number = [&](long long min, long long max) -> std::optional<int> {
    std::optional<long long> n = whole_number(value);
    if (!n || *n < min || *n > max) {
      info("error: " + name + " must be a whole number from " + std::to_string(min) + " to " +
           std::to_string(max) + ", not '" + value + "'");
      return std::nullopt;
    }
    return static_cast<int>(*n);
  };
  if (key == "threads") {
    if (auto n = number(1, 256)) session_.set_threads(*n);
  } else if (key == "hash") {
    if (auto n = number(16, 1048576)) session_.set_memory_mb(*n);
  } else if (key == "playouts") {
    if (auto n = number(1, 1000000000)) playouts_ = *n;
  } else if (key == "move overhead") {
    if (auto n = number(0, 10000)) move_overhead_ms_ = *n;
  } else if (key == "ponder") {
    // The GUI says it may send `go ponder`; nothing to set up for it.
  } else if (key == "multipv") {
    if (auto n = number(1, 256)) multipv_ = *n;
  } else if (key == "uci_showwdl" || key == "timemanager") {
    const std::string v = lowercase(value);
    if (v != "true" && v != "false")
      return info("error: " + name + " must be true or false, not '" + value + "'");
    if (key == "uci_showwdl")
      show_wdl_ = v == "true";
    else
      session_.set_time_managed(v == "true");
  } else if (const SearchSetting* setting = find_bot_search_setting(key)) {
    set_search_option(session_, *setting, value,
                      [&](const std::string& e) { info("error: " + e); });
  } else {
    info("unknown option: " + name);
  }
}

// position startpos|fen FEN [moves M...]: the moves up to the first illegal one are played.
void UciEngine::set_position(std::istringstream& in) {
  std::string word, fen;
  in >> word;
  if (word != "startpos" && word != "fen")
    return info("position: write position startpos|fen FEN [moves ...]");
  bool has_moves = false;
  if (word == "fen") {
    while (in >> word && word != "moves") fen += (fen.empty() ? "" : " ") + word;
    has_moves = word == "moves";
  } else if (in >> word) {
    has_moves = word == "moves";
    if (!has_moves) info("position: expected 'moves' after startpos, not '" + word + "'");
  }
  const VariantPtr& variant = session_.bot().variant;
  std::optional<Position> start;
  try {
    start = fen.empty() ? Position(variant) : Position::from_fen(variant, fen);
  } catch (const FenError& e) {
    return info("error: position: bad FEN, position unchanged: " + std::string(e.what()));
  }
  Position pos = *start;
  std::vector<Move> moves;
  while (has_moves && in >> word) {
    try {
      Move m = pos.parse_move(word);
      pos.play(m);
      moves.push_back(m);
    } catch (const MoveError& e) {
      info("error: illegal move " + word + " (" + e.what() + "); position kept after " +
           std::to_string(moves.size()) + " moves");
      break;
    }
  }
  session_.set_game(*start, moves);
}

void UciEngine::go(std::istringstream& in) {
  SearchLimits limits;
  double clock[2] = {-1, -1}, increment[2] = {0, 0};
  int moves_to_go = 0;
  bool infinite = false, ponder = false;
  std::string word;
  auto read_number = [&](const std::string& key) -> std::optional<long long> {
    std::string text;
    in >> text;
    std::optional<long long> n = whole_number(text);
    if (!n) info("error: go " + key + ": '" + text + "' is not a whole number; ignored");
    return n;
  };
  while (in >> word) {
    if (word == "infinite") {
      infinite = true;
    } else if (word == "ponder") {
      ponder = true;
    } else if (word == "nodes") {
      if (auto n = read_number(word)) limits.playouts = static_cast<int>(std::max(1LL, *n));
    } else if (word == "depth") {
      if (auto n = read_number(word)) limits.playouts = playouts_for_depth(static_cast<int>(*n));
    } else if (word == "movetime") {
      if (auto n = read_number(word)) limits.seconds = std::max(1LL, *n) / 1000.0;
    } else if (word == "wtime" || word == "btime") {
      if (auto n = read_number(word)) clock[word[0] == 'b'] = *n / 1000.0;
    } else if (word == "winc" || word == "binc") {
      if (auto n = read_number(word)) increment[word[0] == 'b'] = *n / 1000.0;
    } else if (word == "movestogo") {
      if (auto n = read_number(word)) moves_to_go = static_cast<int>(*n);
    } else if (word == "searchmoves") {
      // Moves up to the next word that is not one: each must be legal here.
      const Position& here = session_.position();
      while (in >> word) {
        try {
          limits.root_moves.push_back(here.parse_move(word));
        } catch (const MoveError& e) {
          info("error: go searchmoves: " + word + " is not a legal move here (" + e.what() +
               "); ignored");
        }
      }
    } else if (word == "mate") {
      info("go " + word + " is not supported; ignored");
      break;
    } else {
      info("go: unknown word '" + word + "'; ignored");
    }
  }
  const int seat = session_.position().seat_to_move();
  if (clock[seat] >= 0 && limits.seconds == 0) {
    const GameClock game_clock{clock[seat], increment[seat], moves_to_go,
                               move_overhead_ms_ / 1000.0};
    const SearchLimits timed = clock_limits(game_clock, session_.time_managed());
    limits.seconds = timed.seconds;
    limits.max_seconds = timed.max_seconds;
    limits.stop_when_decided = timed.stop_when_decided;
  }
  if (limits.playouts == 0 && limits.seconds == 0) limits.playouts = playouts_;
  limits.lines = multipv_;
  pondering_ = ponder;
  if (ponder) ponder_limits_ = limits;
  if (infinite || ponder) {  // until stop (or ponderhit), with the same moves and lines
    SearchLimits endless;
    endless.root_moves = limits.root_moves;
    endless.lines = limits.lines;
    limits = endless;
  }
  start_search(limits, infinite || ponder);
}

void UciEngine::start_search(const SearchLimits& limits, bool infinite) {
  infinite_ = infinite;
  const Position root = session_.position();
  SearchCallbacks callbacks;
  callbacks.progress = [this, root](const SearchResult& r) { info_lines(root, r); };
  callbacks.finished = [this, root](const SearchResult& r) {
    if (r.best.is_none()) {
      info(std::string("no legal move: the game is over (") +
           termination_name(root.outcome().termination) + ")");
      out_.line("bestmove (none)");
      return;
    }
    info_lines(root, r);
    out_.line("bestmove " + root.move_text(r.best));
  };
  callbacks.failed = [this](const std::string& error) {
    info("error: the search failed: " + error);
    out_.line("bestmove (none)");
  };
  session_.start(limits, infinite, std::move(callbacks));
}

void UciEngine::ponder_hit() {
  if (!pondering_) return;  // no `go ponder` running: nothing to turn into a real search
  pondering_ = false;
  session_.abort();  // the pondering search ends unanswered; the tree it grew stays
  start_search(ponder_limits_, false);
}

std::string UciEngine::info_line(const Position& root, const SearchResult& r) const {
  return info_line(root, r, nullptr, 0);
}

void UciEngine::info_lines(const Position& root, const SearchResult& r) {
  if (multipv_ == 1) return out_.line(info_line(root, r));
  for (size_t i = 0; i < r.lines.size(); ++i)
    out_.line(info_line(root, r, &r.lines[i], static_cast<int>(i) + 1));
}

// With `line`, the line of one root move (numbered `rank` under MultiPV); else the search's own.
std::string UciEngine::info_line(const Position& root, const SearchResult& r,
                                 const SearchLine* line, int rank) const {
  std::ostringstream text;
  const int depth = engine_depth(r);
  const EngineScore score = line ? engine_score(*line) : engine_score(r);
  const std::vector<Move>& pv = line ? line->pv : r.principal_variation;
  const double tree_fill = static_cast<double>(r.tree_bytes) / session_.tree_limit_bytes();
  text << "info depth " << depth << " seldepth " << std::max<size_t>(depth, pv.size());
  if (multipv_ > 1 && rank > 0) text << " multipv " << rank;
  text << " nodes " << r.playouts << " nps "
       << static_cast<long long>(r.seconds > 0 ? r.playouts / r.seconds : 0) << " time "
       << static_cast<long long>(r.seconds * 1000) << " hashfull "
       << std::min(1000, static_cast<int>(1000 * tree_fill)) << " score "
       << (score.mate ? "mate " : "cp ") << score.value;
  if (show_wdl_) {
    // Permille of the side to move, summing to 1000 (UCI_ShowWDL).
    const std::array<float, 3>& wdl = line ? line->wdl : r.wdl;
    const int win = static_cast<int>(std::lround(1000 * wdl[0]));
    const int loss = static_cast<int>(std::lround(1000 * wdl[2]));
    text << " wdl " << win << " " << std::max(0, 1000 - win - loss) << " " << loss;
  }
  text << " pv";
  Position p = root;
  for (Move m : pv) {
    text << " " << p.move_text(m);
    p.play(m);
  }
  return text.str();
}

}  // namespace

int uci_command(const Arguments& args) {
  EngineBot bot = engine_bot_from_args(args);
  require_two_players(*bot.variant, "UCI");
  EngineSession session(std::move(bot));
  EngineOutput out(std::cout);
  UciEngine engine(session, out);
  bool quit = false;
  for (std::string line; !quit && std::getline(std::cin, line);) quit = !engine.handle(line);
  if (!quit) engine.finish();
  return 0;
}

}  // namespace fairyzero
