// Fairy-Stockfish child-process driver for tests: fork/execvp with pipes, line-buffered UCI
// reading with poll(2) timeouts, and perft/divide parsing.
#include "tests/support/fairy_stockfish.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <stdexcept>
#include <thread>
#include <utility>

namespace fairyzero::testing {

namespace {

using Clock = std::chrono::steady_clock;

constexpr std::chrono::milliseconds kHandshakeTimeout{10'000};
constexpr std::chrono::milliseconds kQuitGrace{2'000};
constexpr size_t kRecentLineCount = 20;

std::string errno_text(int err) { return std::strerror(err); }

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

void close_fd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

// Makes `fd` become `target` in the child, with close-on-exec cleared. Async-signal-safe.
bool move_fd_in_child(int fd, int target) {
  if (fd == target) return ::fcntl(fd, F_SETFD, 0) == 0;
  return ::dup2(fd, target) == target;
}

std::string describe_wait_status(int status) {
  if (WIFEXITED(status)) return "exited with status " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status)) {
    return "was killed by signal " + std::to_string(WTERMSIG(status)) + " (" +
           strsignal(WTERMSIG(status)) + ")";
  }
  return "was stopped";
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
  int in_pipe[2];    // parent writes [1], child reads [0] as stdin
  int out_pipe[2];   // child writes [1] as stdout and stderr, parent reads [0]
  int exec_pipe[2];  // child reports an execvp errno on [1]; EOF on [0] means exec succeeded
  if (::pipe2(in_pipe, O_CLOEXEC) != 0) {
    throw std::runtime_error("fairy-stockfish: pipe failed: " + errno_text(errno));
  }
  if (::pipe2(out_pipe, O_CLOEXEC) != 0) {
    int err = errno;
    ::close(in_pipe[0]);
    ::close(in_pipe[1]);
    throw std::runtime_error("fairy-stockfish: pipe failed: " + errno_text(err));
  }
  if (::pipe2(exec_pipe, O_CLOEXEC) != 0) {
    int err = errno;
    for (int fd : {in_pipe[0], in_pipe[1], out_pipe[0], out_pipe[1]}) ::close(fd);
    throw std::runtime_error("fairy-stockfish: pipe failed: " + errno_text(err));
  }

  // Everything the child touches is prepared before fork: only async-signal-safe calls after it.
  std::vector<char> arg0(path_.begin(), path_.end());
  arg0.push_back('\0');
  char* argv[] = {arg0.data(), nullptr};

  pid_t pid = ::fork();
  if (pid == 0) {
    ::close(exec_pipe[0]);
    ::signal(SIGPIPE, SIG_DFL);
    sigset_t none;
    sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
    if (move_fd_in_child(in_pipe[0], STDIN_FILENO) &&
        move_fd_in_child(out_pipe[1], STDOUT_FILENO) &&
        move_fd_in_child(out_pipe[1], STDERR_FILENO)) {
      ::execvp(argv[0], argv);
    }
    int err = errno;
    [[maybe_unused]] ssize_t ignored = ::write(exec_pipe[1], &err, sizeof err);
    ::_exit(127);
  }
  int fork_errno = errno;
  ::close(in_pipe[0]);
  ::close(out_pipe[1]);
  ::close(exec_pipe[1]);
  to_engine_ = in_pipe[1];
  from_engine_ = out_pipe[0];
  if (pid < 0) {
    ::close(exec_pipe[0]);
    shut_down();
    throw std::runtime_error("cannot start fairy-stockfish at '" + path_ +
                             "': fork failed: " + errno_text(fork_errno));
  }
  pid_ = pid;

  int exec_errno = 0;
  ssize_t got;
  do {
    got = ::read(exec_pipe[0], &exec_errno, sizeof exec_errno);
  } while (got < 0 && errno == EINTR);
  ::close(exec_pipe[0]);
  if (got == static_cast<ssize_t>(sizeof exec_errno)) {
    shut_down();
    throw std::runtime_error("cannot start fairy-stockfish at '" + path_ +
                             "': " + errno_text(exec_errno));
  }

  try {
    send("uci");
    wait_for("uciok", kHandshakeTimeout);
  } catch (...) {
    shut_down();
    throw;
  }
}

FairyStockfish::~FairyStockfish() { shut_down(); }

void FairyStockfish::shut_down() {
  if (pid_ > 0 && to_engine_ >= 0) {
    try {
      send("quit");
    } catch (...) {
      // The engine is already gone or not listening; it is reaped or killed below.
    }
  }
  close_fd(to_engine_);
  if (pid_ > 0) {
    auto deadline = Clock::now() + kQuitGrace;
    bool reaped = false;
    while (!reaped) {
      int status = 0;
      pid_t r = ::waitpid(pid_, &status, WNOHANG);
      if (r == pid_ || (r < 0 && errno != EINTR)) {
        reaped = true;
      } else if (Clock::now() >= deadline) {
        ::kill(pid_, SIGKILL);
        while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
        }
        reaped = true;
      } else {
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
      }
    }
    pid_ = -1;
  }
  close_fd(from_engine_);
}

std::string FairyStockfish::reap_exited_child() {
  if (pid_ <= 0) return "";
  int status = 0;
  auto give_up = Clock::now() + std::chrono::milliseconds(1000);
  pid_t r = 0;
  while ((r = ::waitpid(pid_, &status, WNOHANG)) == 0 && Clock::now() < give_up) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  if (r != pid_) return "";
  pid_ = -1;
  return "; it " + describe_wait_status(status);
}

void FairyStockfish::send(const std::string& line) {
  if (to_engine_ < 0) fail("cannot send '" + line + "': engine input is closed");
  std::string data = line + "\n";

  // Block SIGPIPE while writing so a dead engine yields EPIPE instead of killing the test.
  sigset_t pipe_set, old_set, pending;
  sigemptyset(&pipe_set);
  sigaddset(&pipe_set, SIGPIPE);
  sigemptyset(&pending);
  ::sigpending(&pending);
  bool was_pending = sigismember(&pending, SIGPIPE) == 1;
  ::pthread_sigmask(SIG_BLOCK, &pipe_set, &old_set);

  size_t written = 0;
  int err = 0;
  while (written < data.size()) {
    ssize_t n = ::write(to_engine_, data.data() + written, data.size() - written);
    if (n < 0) {
      if (errno == EINTR) continue;
      err = errno;
      break;
    }
    written += static_cast<size_t>(n);
  }

  if (err == EPIPE && !was_pending) {
    struct timespec zero {};
    while (::sigtimedwait(&pipe_set, nullptr, &zero) < 0 && errno == EINTR) {
    }
  }
  ::pthread_sigmask(SIG_SETMASK, &old_set, nullptr);
  if (err == EPIPE) {
    fail("cannot send '" + line + "': engine is not reading its input (crashed?)" +
         reap_exited_child());
  }
  if (err != 0) fail("cannot send '" + line + "': " + errno_text(err));
}

std::string FairyStockfish::read_line(Clock::time_point deadline) {
  for (;;) {
    size_t newline = buffer_.find('\n');
    while (newline != std::string::npos) {
      std::string line = buffer_.substr(0, newline);
      buffer_.erase(0, newline + 1);
      if (!line.empty() && line.back() == '\r') line.pop_back();
      recent_lines_.push_back(line);
      if (recent_lines_.size() > kRecentLineCount) recent_lines_.pop_front();
      if (!starts_with(line, "info string")) return line;
      newline = buffer_.find('\n');
    }

    auto now = Clock::now();
    if (now >= deadline) fail("timed out waiting for output");
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now).count();
    struct pollfd pfd {
      from_engine_, POLLIN, 0
    };
    int ready = ::poll(&pfd, 1, static_cast<int>(std::min<long long>(left + 1, 1'000'000'000)));
    if (ready < 0) {
      if (errno == EINTR) continue;
      fail("poll failed: " + errno_text(errno));
    }
    if (ready == 0) continue;  // the deadline check above reports the timeout

    char chunk[4096];
    ssize_t n = ::read(from_engine_, chunk, sizeof chunk);
    if (n < 0) {
      if (errno == EINTR || errno == EAGAIN) continue;
      fail("read failed: " + errno_text(errno));
    }
    if (n == 0) {
      if (!buffer_.empty()) {
        recent_lines_.push_back(buffer_);
        buffer_.clear();
      }
      fail("engine closed its output unexpectedly (crashed?)" + reap_exited_child());
    }
    buffer_.append(chunk, static_cast<size_t>(n));
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
  std::string message = "fairy-stockfish at '" + path_ + "': " + what;
  if (recent_lines_.empty()) {
    message += "\n(no output read yet)";
  } else {
    message += "\nlast lines read:";
    for (const std::string& line : recent_lines_) message += "\n  | " + line;
  }
  throw std::runtime_error(message);
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
