// An external engine as a child process: started through /bin/sh with pipes for its input and
// output, spoken to in lines with timeouts, and closed cleanly (quit, then killed after a grace
// period). The protocols (UCI, XBoard) are in engine_protocol.h.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <deque>
#include <optional>
#include <stdexcept>
#include <string>

#include "core/errors.h"

namespace fairyzero {

// What went wrong with an engine; the arena turns each into a loss for the engine.
enum class EngineFailure {
  kCrashed,   // it exited, closed its output, or stopped reading its input
  kTimedOut,  // no answer in time
  kProtocol,  // an answer that breaks the protocol or refuses the game (unknown variant, ...)
};

// The message names the engine's command and, where there was any, its last lines of output.
class EngineError : public UserError {
 public:
  EngineError(EngineFailure failure, const std::string& message)
      : UserError(message), failure_(failure) {}
  EngineFailure failure() const { return failure_; }

 private:
  EngineFailure failure_;
};

class EngineProcess {
 public:
  using Clock = std::chrono::steady_clock;

  // Runs `command` with /bin/sh (so it may carry arguments), its standard error merged into its
  // output. A command that does not exist shows up as the shell's message and exit status on
  // the first read. Throws EngineError when no process can be made.
  explicit EngineProcess(const std::string& command);
  ~EngineProcess();  // close()
  EngineProcess(const EngineProcess&) = delete;
  EngineProcess& operator=(const EngineProcess&) = delete;

  const std::string& command() const { return command_; }

  // Sends one line. Throws EngineError(kCrashed) when the engine no longer reads its input.
  void send(const std::string& line);
  // The next line of output (without its line end), or nullopt when none came by `deadline`.
  // Throws EngineError(kCrashed) when the engine closed its output, saying how it exited.
  std::optional<std::string> read_line(Clock::time_point deadline);

  // Sends "quit" (when `quit_line` is not empty), waits up to `grace` for the engine to exit,
  // then kills it and every process it started. Safe to call twice.
  void close(const std::string& quit_line = "quit",
             std::chrono::milliseconds grace = std::chrono::milliseconds(1000));

  // "engine 'COMMAND'" followed by `what` and, when `with_output`, the last lines it wrote.
  std::string describe(const std::string& what, bool with_output = true) const;

 private:
  // After the output closed: waits briefly for the child and says how it ended.
  std::string reap_exited_child();
  void close_pipes();

  std::string command_;
  pid_t pid_ = -1;
  int to_engine_ = -1;    // write end of the engine's standard input
  int from_engine_ = -1;  // read end of its standard output and error
  std::string buffer_;    // bytes read but not yet returned as lines
  std::deque<std::string> recent_lines_;
};

}  // namespace fairyzero
