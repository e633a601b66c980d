// Test-only driver for the Fairy-Stockfish engine: runs it as an EngineProcess (the arena's
// child processes) and speaks enough UCI to select a variant and run `go perft` as a reference
// for our move generator.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace fairyzero {
class EngineProcess;
}

namespace fairyzero::testing {

class FairyStockfish {
 public:
  struct PerftResult {
    uint64_t nodes = 0;
    std::map<std::string, uint64_t> divide;  // move text -> leaf count below it
    double seconds = 0.0;                    // wall time of the `go perft` command
  };

  // "/usr/games/fairy-stockfish", or the value of env var FAIRYZERO_FAIRY_STOCKFISH when set.
  static std::string default_path();
  // True when default_path() names an existing executable file.
  static bool available();

  // Starts the engine and completes the `uci` handshake; throws std::runtime_error on failure
  // (EngineError, a runtime_error, for a process that does not answer).
  explicit FairyStockfish(std::string path = default_path());
  ~FairyStockfish();

  FairyStockfish(const FairyStockfish&) = delete;
  FairyStockfish& operator=(const FairyStockfish&) = delete;

  // Selects a built-in variant (UCI_Variant) and waits until the engine is ready.
  void set_variant(const std::string& name);

  // Runs `go perft DEPTH` from FEN ("startpos" means the variant's start position).
  PerftResult perft(const std::string& fen, int depth);

  // The engine's legal moves in FEN: the keys of perft(fen, 1).divide.
  std::vector<std::string> legal_moves(const std::string& fen);

  // Time allowed for one perft command (default 600 s).
  void set_perft_timeout(std::chrono::seconds timeout) { perft_timeout_ = timeout; }

  const std::string& path() const { return path_; }

 private:
  void send(const std::string& line);
  // Next line, skipping `info string` lines; throws on a closed engine or timeout.
  std::string read_line(std::chrono::steady_clock::time_point deadline);
  // Reads lines until one equals `expected`.
  void wait_for(const std::string& expected, std::chrono::milliseconds timeout);
  void sync_ready(std::chrono::milliseconds timeout);
  [[noreturn]] void fail(const std::string& what) const;

  std::string path_;
  std::unique_ptr<EngineProcess> engine_;
  std::chrono::seconds perft_timeout_{600};
};

// Readable report of how two perft divides differ: moves only in ours, only in theirs, and
// moves whose counts differ. Says so when they agree.
std::string format_divide_mismatch(const std::map<std::string, uint64_t>& ours,
                                   const std::map<std::string, uint64_t>& theirs);

}  // namespace fairyzero::testing
