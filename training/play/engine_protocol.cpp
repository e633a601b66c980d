// UCI and XBoard sessions over an EngineProcess: the handshake, variant and options, new games
// and moves, each failure an EngineError that names the command.
#include "training/play/engine_protocol.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>

namespace fairyzero {
namespace {

using Clock = EngineProcess::Clock;

bool starts_with(const std::string& text, const std::string& prefix) {
  return text.compare(0, prefix.size(), prefix) == 0;
}

Clock::time_point after_seconds(double seconds) {
  return Clock::now() + std::chrono::microseconds(static_cast<long long>(seconds * 1e6));
}

// Clock values as the protocols write them: whole milliseconds (UCI), whole centiseconds
// (XBoard time/otim), MINUTES:SECONDS and seconds (XBoard level).
std::string milliseconds(double seconds) {
  return std::to_string(std::max(0LL, std::llround(seconds * 1000)));
}
std::string centiseconds(double seconds) {
  return std::to_string(std::max(0LL, std::llround(seconds * 100)));
}
std::string format_seconds(double seconds) {
  std::ostringstream out;
  out << seconds;
  return out.str();
}
std::string minutes_and_seconds(double seconds) {
  const long long whole = std::max(0LL, std::llround(seconds));
  return std::to_string(whole / 60) + ":" + (whole % 60 < 10 ? "0" : "") +
         std::to_string(whole % 60);
}

// "KEY=VALUE KEY="QUOTED VALUE" ..." after "feature " (XBoard).
std::map<std::string, std::string> parse_features(const std::string& text) {
  std::map<std::string, std::string> features;
  size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && text[i] == ' ') ++i;
    size_t equals = text.find('=', i);
    if (equals == std::string::npos) break;
    std::string key = text.substr(i, equals - i);
    i = equals + 1;
    std::string value;
    if (i < text.size() && text[i] == '"') {
      size_t close = text.find('"', i + 1);
      if (close == std::string::npos) close = text.size();
      value = text.substr(i + 1, close - i - 1);
      i = close + 1;
    } else {
      size_t space = text.find(' ', i);
      if (space == std::string::npos) space = text.size();
      value = text.substr(i, space - i);
      i = space;
    }
    features[key] = value;
  }
  return features;
}

class UciEngine : public ExternalEngine {
 public:
  UciEngine(const EngineSettings& settings, const VariantPtr& variant)
      : ExternalEngine(settings, variant) {
    auto deadline = after_seconds(settings_.startup_seconds);
    process_.send("uci");
    bool has_variant_option = false;
    std::vector<std::string> variants;
    for (;;) {
      std::string line = read_line(deadline, "uciok");
      if (line == "uciok") break;
      if (starts_with(line, "id name ")) name_ = line.substr(8);
      if (starts_with(line, "option name UCI_Variant ")) {
        has_variant_option = true;
        std::istringstream words(line);
        for (std::string word, previous; words >> word; previous = word)
          if (previous == "var") variants.push_back(word);
      }
    }
    for (const auto& [option, value] : settings_.options)
      process_.send("setoption name " + option + " value " + value);
    std::string wanted = variant_name();
    if (has_variant_option) {
      if (!variants.empty() &&
          std::find(variants.begin(), variants.end(), wanted) == variants.end())
        throw EngineError(EngineFailure::kProtocol,
                          process_.describe("does not play the variant '" + wanted +
                                                "' (not among its UCI_Variant choices)",
                                            false));
      process_.send("setoption name UCI_Variant value " + wanted);
    } else if (wanted != "chess") {
      throw EngineError(
          EngineFailure::kProtocol,
          process_.describe("has no UCI_Variant option, so it cannot play '" + wanted + "'",
                            false));
    }
    synchronize(deadline);
  }

  void new_game(const std::string& start_fen) override {
    start_fen_ = start_fen;
    process_.send("ucinewgame");
    synchronize(move_deadline());
  }

  EngineAnswer think(const std::vector<std::string>& moves, int seat,
                     const EngineClocks& clocks) override {
    std::string position = start_fen_.empty() ? "position startpos" : "position fen " + start_fen_;
    if (!moves.empty()) position += " moves";
    for (const std::string& move : moves) position += " " + move;
    process_.send(position);
    const EngineLimits& limits = settings_.limits;
    if (limits.nodes > 0)
      process_.send("go nodes " + std::to_string(limits.nodes));
    else if (limits.depth > 0)
      process_.send("go depth " + std::to_string(limits.depth));
    else if (limits.has_clock())
      process_.send("go wtime " + milliseconds(clocks.remaining[0]) + " btime " +
                    milliseconds(clocks.remaining[1]) + " winc " +
                    milliseconds(clocks.increment[0]) + " binc " +
                    milliseconds(clocks.increment[1]));
    else
      process_.send("go movetime " + std::to_string(limits.movetime_ms));
    auto deadline = move_deadline(limits.has_clock() ? clocks.remaining[seat] : 0);
    for (;;) {
      std::string line = read_line(deadline, "bestmove");
      if (!starts_with(line, "bestmove")) continue;
      std::istringstream words(line.substr(8));
      EngineAnswer answer;
      words >> answer.move;
      return answer;
    }
  }

 private:
  void synchronize(Clock::time_point deadline) {
    process_.send("isready");
    while (read_line(deadline, "readyok") != "readyok") {
    }
  }

  std::string start_fen_;
};

class XboardEngine : public ExternalEngine {
 public:
  XboardEngine(const EngineSettings& settings, const VariantPtr& variant)
      : ExternalEngine(settings, variant) {
    if (settings_.limits.nodes > 0)
      throw EngineError(EngineFailure::kProtocol,
                        process_.describe("speaks XBoard, which has no node limit: give it a "
                                          "movetime or a depth",
                                          false));
    read_features();
    for (const auto& [option, value] : settings_.options)
      process_.send("option " + option + "=" + value);
    std::string wanted = variant_name();
    if (wanted != "chess") {
      std::string list = "," + features_["variants"] + ",";
      if (list.find("," + wanted + ",") == std::string::npos)
        throw EngineError(
            EngineFailure::kProtocol,
            process_.describe(
                "does not play the variant '" + wanted + "' (not in its feature variants)", false));
    }
    synchronize(after_seconds(settings_.startup_seconds));
  }

  void new_game(const std::string& start_fen) override {
    process_.send("new");
    process_.send("force");
    if (variant_name() != "chess") process_.send("variant " + variant_name());
    if (!start_fen.empty()) {
      if (features_["setboard"] != "1")
        throw EngineError(EngineFailure::kProtocol,
                          process_.describe("cannot start from a FEN (no feature setboard=1)"));
      process_.send("setboard " + start_fen);
    }
    const EngineLimits& limits = settings_.limits;
    if (limits.depth > 0)
      process_.send("sd " + std::to_string(limits.depth));
    else if (limits.has_clock())
      process_.send("level 0 " + minutes_and_seconds(limits.clock_seconds) + " " +
                    format_seconds(limits.increment_seconds));
    else
      process_.send("st " + std::to_string(std::max(1, (limits.movetime_ms + 999) / 1000)));
    process_.send("easy");  // no pondering on the opponent's time
    moves_known_ = 0;
    synchronize(move_deadline());
  }

  EngineAnswer think(const std::vector<std::string>& moves, int seat,
                     const EngineClocks& clocks) override {
    bool usermove = features_["usermove"] == "1";
    for (size_t i = moves_known_; i < moves.size(); ++i)
      process_.send(usermove ? "usermove " + moves[i] : moves[i]);
    moves_known_ = moves.size();
    const bool clocked = settings_.limits.has_clock();
    if (clocked) {
      process_.send("time " + centiseconds(clocks.remaining[seat]));
      process_.send("otim " + centiseconds(clocks.remaining[1 - seat]));
    }
    process_.send("go");
    auto deadline = move_deadline(clocked ? clocks.remaining[seat] : 0);
    EngineAnswer answer;
    for (;;) {
      std::string line = read_line(deadline, "move");
      if (starts_with(line, "move ")) {
        answer.move = line.substr(5);
        break;
      }
      if (line == "resign" || starts_with(line, "1-0") || starts_with(line, "0-1") ||
          starts_with(line, "1/2-1/2")) {
        answer.resigned = true;
        answer.note = line;
        break;
      }
      if (starts_with(line, "Illegal move") || starts_with(line, "Error"))
        throw EngineError(EngineFailure::kProtocol, process_.describe("refused a move: " + line));
    }
    // Back to force mode, so it neither thinks on its own nor plays the next side by itself.
    process_.send("force");
    ++moves_known_;
    return answer;
  }

 private:
  // Answers every feature with "accepted"; done=0 asks for more time, and an engine that says
  // nothing of `done` within two seconds has finished (the protocol's rule).
  void read_features() {
    process_.send("xboard");
    process_.send("protover 2");
    auto overall = after_seconds(settings_.startup_seconds);
    auto quiet = std::min(overall, after_seconds(2));
    bool wait_for_done = false;
    for (;;) {
      std::optional<std::string> line = process_.read_line(wait_for_done ? overall : quiet);
      if (!line) {
        if (wait_for_done)
          throw EngineError(EngineFailure::kTimedOut,
                            process_.describe("did not send 'feature done=1' in time"));
        break;
      }
      if (!starts_with(*line, "feature ")) continue;
      bool done = false;
      for (const auto& [key, value] : parse_features(line->substr(8))) {
        process_.send("accepted " + key);
        if (key == "done") (value == "1" ? done : wait_for_done) = true;
        if (key == "myname") name_ = value;
        if (key != "done" && key != "option") features_[key] = value;
      }
      if (done) break;
    }
  }

  void synchronize(Clock::time_point deadline) {
    if (features_["ping"] != "1") return;
    std::string pong = "pong " + std::to_string(++pings_);
    process_.send("ping " + std::to_string(pings_));
    while (read_line(deadline, pong) != pong) {
    }
  }

  std::map<std::string, std::string> features_;
  size_t moves_known_ = 0;  // moves from the start the engine has on its board
  int pings_ = 0;
};

}  // namespace

std::unique_ptr<ExternalEngine> ExternalEngine::start(const EngineSettings& settings,
                                                      const VariantPtr& variant) {
  if (variant->seat_count() != 2)
    throw EngineError(EngineFailure::kProtocol,
                      "engine '" + settings.command + "': external engines play two-seat " +
                          "variants only, and " + variant->name + " has " +
                          std::to_string(variant->seat_count()) + " seats");
  if (settings.protocol == EngineProtocol::kUci)
    return std::make_unique<UciEngine>(settings, variant);
  return std::make_unique<XboardEngine>(settings, variant);
}

ExternalEngine::ExternalEngine(const EngineSettings& settings, const VariantPtr& variant)
    : settings_(settings), variant_(variant), process_(settings.command), name_(settings.command) {}

Clock::time_point ExternalEngine::move_deadline(double clock_left) const {
  double thinking = std::max(clock_left, settings_.limits.movetime_ms / 1000.0);
  if (settings_.protocol == EngineProtocol::kXboard && settings_.limits.depth == 0)
    thinking = std::max(1.0, std::ceil(thinking));
  return after_seconds(thinking + settings_.move_timeout_seconds);
}

std::string ExternalEngine::read_line(Clock::time_point deadline, const std::string& waiting_for) {
  std::optional<std::string> line = process_.read_line(deadline);
  if (!line)
    throw EngineError(EngineFailure::kTimedOut,
                      process_.describe("timed out waiting for '" + waiting_for + "'"));
  return *line;
}

std::string ExternalEngine::variant_name() const {
  return variant_->fairy_stockfish.empty() ? variant_->name : variant_->fairy_stockfish;
}

}  // namespace fairyzero
