// Playing a game through an external engine, over UCI or XBoard (CECP version 2): handshake,
// variant selection, options, a new game from a start position or a FEN, and one move at a time
// under a node, depth or time limit. Failures are EngineErrors naming the command.
#pragma once

#include <array>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/variant.h"
#include "training/play/engine_process.h"

namespace fairyzero {

enum class EngineProtocol { kUci, kXboard };

// How long an engine may think. UCI engines get `go nodes N`, `go depth N` or `go movetime MS`
// (the first set, in that order); XBoard engines `sd N` or `st SECONDS` (whole seconds, at
// least 1: the protocol has no node limit, so nodes are refused for XBoard). Without those, a
// game clock: `clock_seconds` for the game plus `increment_seconds` after each move, kept by
// the caller, who gives both sides' clocks with each move (UCI `go wtime btime winc binc`,
// XBoard `level` then `time` and `otim`).
struct EngineLimits {
  long long nodes = 0;
  int depth = 0;
  int movetime_ms = 0;
  double clock_seconds = 0;
  double increment_seconds = 0;
  bool has_clock() const {
    return nodes <= 0 && depth <= 0 && movetime_ms <= 0 && clock_seconds > 0;
  }
};

// The game's clocks when a move is asked for, by seat (seat 0 is UCI's white).
struct EngineClocks {
  std::array<double, 2> remaining{};  // seconds
  std::array<double, 2> increment{};
};

struct EngineSettings {
  EngineProtocol protocol = EngineProtocol::kUci;
  std::string command;
  EngineLimits limits;
  std::vector<std::pair<std::string, std::string>> options;  // setoption / option NAME=VALUE
  double startup_seconds = 10;                               // to finish the handshake
  // Allowed for a move beyond the movetime (the whole allowance under a node or depth limit).
  double move_timeout_seconds = 30;
};

// The engine's answer when asked for a move.
struct EngineAnswer {
  std::string move;       // the move text as sent (not yet checked against the rules)
  bool resigned = false;  // it resigned or claimed a result instead of moving
  std::string note;       // the resignation or claim line
};

class ExternalEngine {
 public:
  // Starts the engine and completes the handshake for `variant`: the engine must know the
  // variant by its Fairy-Stockfish name (Variant::fairy_stockfish) or its own name, or the
  // variant must be chess. Throws EngineError naming the command and what failed.
  static std::unique_ptr<ExternalEngine> start(const EngineSettings& settings,
                                               const VariantPtr& variant);
  virtual ~ExternalEngine() = default;

  // The engine's own name (UCI `id name`, XBoard `myname`), else its command.
  const std::string& name() const { return name_; }
  const std::string& command() const { return process_.command(); }

  // A new game from `start_fen`, or from the variant's start position when it is empty.
  virtual void new_game(const std::string& start_fen) = 0;
  // The engine's move after `moves` (move texts from the game's start), `seat` to move; the
  // clocks count under a clock limit. Throws EngineError.
  virtual EngineAnswer think(const std::vector<std::string>& moves, int seat,
                             const EngineClocks& clocks) = 0;
  // Ends the process (quit, then kill after a grace period).
  void close() { process_.close(); }

 protected:
  ExternalEngine(const EngineSettings& settings, const VariantPtr& variant);
  // The deadline for a move: movetime (or the clock's time left) plus the timeout allowance.
  EngineProcess::Clock::time_point move_deadline(double clock_left = 0) const;
  // The next line, throwing EngineError(kTimedOut) with `waiting_for` after the deadline.
  std::string read_line(EngineProcess::Clock::time_point deadline, const std::string& waiting_for);
  // The name the engine should know the variant by.
  std::string variant_name() const;

  EngineSettings settings_;
  VariantPtr variant_;
  EngineProcess process_;
  std::string name_;
};

}  // namespace fairyzero
