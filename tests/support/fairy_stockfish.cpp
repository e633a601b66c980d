// Fairy-Stockfish driver for tests: the engine as an EngineProcess (training/play), UCI
// handshake, and perft/divide parsing.
#include "tests/support/fairy_stockfish.h"

#include <sys/stat.h>
#include <unistd.h>

#include <charconv>
#include <cstdlib>
#include <sstream>
#include <stdexcept>
#include <utility>

#include "training/play/engine_process.h"

namespace fairyzero::testing {

namespace {

using Clock = std::chrono::steady_clock;

constexpr std::chrono::milliseconds kHandshakeTimeout{10'000};
constexpr std::chrono::milliseconds kQuitGrace{2'000};

bool is_executable_file(const std::string& path) {
  struct stat info {};
  return ::stat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode) &&
         ::access(path.c_str(), X_OK) == 0;
}

// Mirrors execvp: a name without a slash is looked up in PATH.
bool resolves_to_executable(const std::string& path) {
  if (path.empty()) return false;
  if (path.find('/') != std::string::npos) return is_executable_file(path);
  const char* env_path = std::getenv("PATH");
  std::string dirs = env_path != nullptr ? env_path : "/usr/local/bin:/usr/bin:/bin";
  std::istringstream stream(dirs);
  std::string dir;
  while (std::getline(stream, dir, ':')) {
    if (is_executable_file((dir.empty() ? std::string(".") : dir) + "/" + path)) return true;
  }
  return false;
}

bool has_line_break(const std::string& text) {
  return text.find_first_of("\r\n") != std::string::npos;
}

bool starts_with(const std::string& text, const std::string& prefix) {
  return text.compare(0, prefix.size(), prefix) == 0;
}

bool parse_u64(const std::string& text, uint64_t& value) {
  size_t begin = text.find_first_not_of(' ');
  size_t end = text.find_last_not_of(" \t");
  if (begin == std::string::npos) return false;
  const char* first = text.data() + begin;
  const char* last = text.data() + end + 1;
  auto [ptr, ec] = std::from_chars(first, last, value);
  return ec == std::errc() && ptr == last;
}

}  // namespace

std::string FairyStockfish::default_path() {
  const char* env = std::getenv("FAIRYZERO_FAIRY_STOCKFISH");
  if (env != nullptr && *env != '\0') return env;
  return "/usr/games/fairy-stockfish";
}

bool FairyStockfish::available() { return resolves_to_executable(default_path()); }

FairyStockfish::FairyStockfish(std::string path) : path_(std::move(path)) {
  // EngineProcess runs its command through /bin/sh: a path that does not run is reported with
  // the shell's message and exit status when the handshake reads.
  if (!resolves_to_executable(path_))
    throw std::runtime_error("cannot start fairy-stockfish at '" + path_ +
                             "': not an executable file");
  engine_ = std::make_unique<EngineProcess>(path_);
  send("uci");
  wait_for("uciok", kHandshakeTimeout);
}

FairyStockfish::~FairyStockfish() { engine_->close("quit", kQuitGrace); }

void FairyStockfish::send(const std::string& line) {
  try {
    engine_->send(line);
  } catch (const EngineError& error) {
    fail(error.what());
  }
}

std::string FairyStockfish::read_line(Clock::time_point deadline) {
  for (;;) {
    std::optional<std::string> line;
    try {
      line = engine_->read_line(deadline);
    } catch (const EngineError& error) {
      fail(error.what());
    }
    if (!line) fail("timed out waiting for output; " + engine_->describe("had written", true));
    if (!starts_with(*line, "info string")) return *line;
  }
}

void FairyStockfish::wait_for(const std::string& expected, std::chrono::milliseconds timeout) {
  auto deadline = Clock::now() + timeout;
  try {
    while (read_line(deadline) != expected) {
    }
  } catch (const std::runtime_error& error) {
    throw std::runtime_error(std::string(error.what()) + "\n(while waiting for '" + expected +
                             "' within " + std::to_string(timeout.count()) + " ms)");
  }
}

void FairyStockfish::sync_ready(std::chrono::milliseconds timeout) {
  send("isready");
  wait_for("readyok", timeout);
}

void FairyStockfish::fail(const std::string& what) const {
  throw std::runtime_error("fairy-stockfish at '" + path_ + "': " + what);
}

void FairyStockfish::set_variant(const std::string& name) {
  if (name.empty() || has_line_break(name)) {
    throw std::invalid_argument("fairy-stockfish: bad variant name '" + name + "'");
  }
  send("setoption name UCI_Variant value " + name);
  sync_ready(kHandshakeTimeout);
}

FairyStockfish::PerftResult FairyStockfish::perft(const std::string& fen, int depth) {
  if (depth < 1) throw std::invalid_argument("fairy-stockfish: perft depth must be >= 1");
  if (fen.empty() || has_line_break(fen)) {
    throw std::invalid_argument("fairy-stockfish: bad FEN '" + fen + "'");
  }
  sync_ready(kHandshakeTimeout);  // also drains anything left over from earlier commands
  send(fen == "startpos" ? std::string("position startpos") : "position fen " + fen);

  PerftResult result;
  auto start = Clock::now();
  send("go perft " + std::to_string(depth));
  auto deadline = start + perft_timeout_;
  const std::string nodes_prefix = "Nodes searched:";
  for (;;) {
    std::string line = read_line(deadline);
    if (starts_with(line, nodes_prefix)) {
      result.seconds = std::chrono::duration<double>(Clock::now() - start).count();
      if (!parse_u64(line.substr(nodes_prefix.size()), result.nodes)) {
        fail("cannot parse perft total '" + line + "'");
      }
      return result;
    }
    if (line.empty() || starts_with(line, "info")) continue;
    size_t colon = line.rfind(": ");
    uint64_t count = 0;
    if (colon == std::string::npos || colon == 0 || !parse_u64(line.substr(colon + 2), count)) {
      continue;  // not a divide line (e.g. a diagnostic on stderr); kept in recent_lines_
    }
    result.divide[line.substr(0, colon)] += count;
  }
}

std::vector<std::string> FairyStockfish::legal_moves(const std::string& fen) {
  PerftResult result = perft(fen, 1);
  std::vector<std::string> moves;
  moves.reserve(result.divide.size());
  for (const auto& [move, count] : result.divide) moves.push_back(move);
  return moves;
}

std::string format_divide_mismatch(const std::map<std::string, uint64_t>& ours,
                                   const std::map<std::string, uint64_t>& theirs) {
  std::vector<std::string> only_ours;
  std::vector<std::string> only_theirs;
  std::vector<std::string> differing;
  uint64_t total_ours = 0;
  uint64_t total_theirs = 0;
  for (const auto& [move, count] : ours) {
    total_ours += count;
    auto it = theirs.find(move);
    if (it == theirs.end()) {
      only_ours.push_back(move + ": " + std::to_string(count));
    } else if (it->second != count) {
      differing.push_back(
          move + ": ours " + std::to_string(count) + ", theirs " + std::to_string(it->second) +
          " (" + (count > it->second ? "+" : "-") +
          std::to_string(count > it->second ? count - it->second : it->second - count) + ")");
    }
  }
  for (const auto& [move, count] : theirs) {
    total_theirs += count;
    if (ours.find(move) == ours.end()) only_theirs.push_back(move + ": " + std::to_string(count));
  }

  std::ostringstream out;
  out << "divide: ours " << ours.size() << " moves / " << total_ours << " nodes, theirs "
      << theirs.size() << " moves / " << total_theirs << " nodes\n";
  if (only_ours.empty() && only_theirs.empty() && differing.empty()) {
    out << "divides match\n";
    return out.str();
  }
  auto section = [&out](const char* title, const std::vector<std::string>& lines) {
    if (lines.empty()) return;
    out << title << " (" << lines.size() << "):\n";
    for (const std::string& line : lines) out << "  " << line << "\n";
  };
  section("only in ours", only_ours);
  section("only in theirs", only_theirs);
  section("differing counts", differing);
  return out.str();
}

}  // namespace fairyzero::testing
