// Child processes for external engines: fork/exec of /bin/sh with pipes, poll(2) timeouts,
// SIGPIPE held off while writing, and a quit-then-kill shutdown.
#include "training/play/engine_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <thread>
#include <vector>

namespace fairyzero {
namespace {

constexpr size_t kRecentLineCount = 12;

std::string errno_text(int error) { return std::strerror(error); }

void close_fd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

std::string describe_wait_status(int status) {
  if (WIFEXITED(status)) return "exited with status " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status))
    return "was killed by signal " + std::to_string(WTERMSIG(status)) + " (" +
           strsignal(WTERMSIG(status)) + ")";
  return "stopped";
}

// Writes all of `data`; returns 0 or the errno of the failed write. SIGPIPE is blocked in this
// thread meanwhile, and a SIGPIPE the write raised is taken off the pending set, so a dead
// engine gives EPIPE here instead of ending the whole arena.
int write_without_sigpipe(int fd, const std::string& data) {
  sigset_t pipe_set, old_set, pending;
  sigemptyset(&pipe_set);
  sigaddset(&pipe_set, SIGPIPE);
  sigemptyset(&pending);
  ::sigpending(&pending);
  bool was_pending = sigismember(&pending, SIGPIPE) == 1;
  ::pthread_sigmask(SIG_BLOCK, &pipe_set, &old_set);
  size_t written = 0;
  int error = 0;
  while (written < data.size()) {
    ssize_t n = ::write(fd, data.data() + written, data.size() - written);
    if (n < 0) {
      if (errno == EINTR) continue;
      error = errno;
      break;
    }
    written += static_cast<size_t>(n);
  }
  if (error == EPIPE && !was_pending) {
    struct timespec zero {};
    while (::sigtimedwait(&pipe_set, nullptr, &zero) < 0 && errno == EINTR) {
    }
  }
  ::pthread_sigmask(SIG_SETMASK, &old_set, nullptr);
  return error;
}

}  // namespace

EngineProcess::EngineProcess(const std::string& command) : command_(command) {
  int input[2], output[2];  // input: we write [1], the engine reads [0]; output the reverse
  if (::pipe2(input, O_CLOEXEC) != 0)
    throw EngineError(EngineFailure::kCrashed,
                      describe("cannot be started: pipe: " + errno_text(errno)));
  if (::pipe2(output, O_CLOEXEC) != 0) {
    int error = errno;
    ::close(input[0]);
    ::close(input[1]);
    throw EngineError(EngineFailure::kCrashed,
                      describe("cannot be started: pipe: " + errno_text(error)));
  }
  // Everything the child needs is made before fork: after it only async-signal-safe calls, as
  // the arena has other threads (searches, other engines) running.
  std::string script = "exec " + command_;
  const char* argv[] = {"/bin/sh", "-c", script.c_str(), nullptr};
  pid_t pid = ::fork();
  if (pid == 0) {
    ::setpgid(0, 0);  // its own process group, so close() can kill whatever it started
    ::signal(SIGPIPE, SIG_DFL);
    sigset_t none;
    sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
    if (::dup2(input[0], STDIN_FILENO) >= 0 && ::dup2(output[1], STDOUT_FILENO) >= 0 &&
        ::dup2(output[1], STDERR_FILENO) >= 0)
      ::execv("/bin/sh", const_cast<char* const*>(argv));
    ::_exit(127);
  }
  int fork_error = errno;
  ::close(input[0]);
  ::close(output[1]);
  to_engine_ = input[1];
  from_engine_ = output[0];
  if (pid < 0) {
    close_pipes();
    throw EngineError(EngineFailure::kCrashed,
                      describe("cannot be started: fork: " + errno_text(fork_error)));
  }
  pid_ = pid;
}

EngineProcess::~EngineProcess() { close(); }

void EngineProcess::close_pipes() {
  close_fd(to_engine_);
  close_fd(from_engine_);
}

void EngineProcess::send(const std::string& line) {
  if (to_engine_ < 0)
    throw EngineError(EngineFailure::kCrashed, describe("is closed (sending '" + line + "')"));
  int error = write_without_sigpipe(to_engine_, line + "\n");
  if (error == EPIPE)
    throw EngineError(EngineFailure::kCrashed, describe("stopped reading its input (sending '" +
                                                        line + "')" + reap_exited_child()));
  if (error != 0)
    throw EngineError(EngineFailure::kCrashed,
                      describe("cannot be written to: " + errno_text(error)));
}

std::optional<std::string> EngineProcess::read_line(Clock::time_point deadline) {
  for (;;) {
    size_t end = buffer_.find('\n');
    if (end != std::string::npos) {
      std::string line = buffer_.substr(0, end);
      buffer_.erase(0, end + 1);
      if (!line.empty() && line.back() == '\r') line.pop_back();
      recent_lines_.push_back(line);
      if (recent_lines_.size() > kRecentLineCount) recent_lines_.pop_front();
      return line;
    }
    if (from_engine_ < 0) throw EngineError(EngineFailure::kCrashed, describe("is closed"));
    auto now = Clock::now();
    if (now >= deadline) return std::nullopt;
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now).count();
    struct pollfd request {
      from_engine_, POLLIN, 0
    };
    int ready = ::poll(&request, 1, static_cast<int>(std::min<long long>(left + 1, 1 << 30)));
    if (ready < 0 && errno != EINTR)
      throw EngineError(EngineFailure::kCrashed, describe("poll: " + errno_text(errno)));
    if (ready <= 0) continue;
    char chunk[4096];
    ssize_t n = ::read(from_engine_, chunk, sizeof chunk);
    if (n < 0) {
      if (errno == EINTR || errno == EAGAIN) continue;
      throw EngineError(EngineFailure::kCrashed, describe("cannot be read: " + errno_text(errno)));
    }
    if (n == 0) {
      if (!buffer_.empty()) recent_lines_.push_back(buffer_);
      buffer_.clear();
      close_fd(from_engine_);
      throw EngineError(EngineFailure::kCrashed,
                        describe("closed its output" + reap_exited_child()));
    }
    buffer_.append(chunk, static_cast<size_t>(n));
  }
}

std::string EngineProcess::reap_exited_child() {
  if (pid_ <= 0) return "";
  int status = 0;
  auto give_up = Clock::now() + std::chrono::milliseconds(500);
  pid_t reaped = 0;
  while ((reaped = ::waitpid(pid_, &status, WNOHANG)) == 0 && Clock::now() < give_up)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  if (reaped != pid_) return "";
  pid_ = -1;
  return " (it " + describe_wait_status(status) + ")";
}

void EngineProcess::close(const std::string& quit_line, std::chrono::milliseconds grace) {
  if (pid_ > 0 && to_engine_ >= 0 && !quit_line.empty())
    write_without_sigpipe(to_engine_, quit_line + "\n");  // a dead engine is killed below
  close_pipes();
  if (pid_ <= 0) return;
  auto deadline = Clock::now() + grace;
  int status = 0;
  for (;;) {
    pid_t reaped = ::waitpid(pid_, &status, WNOHANG);
    if (reaped == pid_ || (reaped < 0 && errno != EINTR)) break;
    if (Clock::now() >= deadline) {
      ::kill(-pid_, SIGKILL);  // the engine's process group (setpgid in the child)
      ::kill(pid_, SIGKILL);   // in case setpgid failed
      while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
      }
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  pid_ = -1;
}

std::string EngineProcess::describe(const std::string& what, bool with_output) const {
  std::string message = "engine '" + command_ + "' " + what;
  if (with_output && !recent_lines_.empty()) {
    message += "; its last lines:";
    for (const std::string& line : recent_lines_) message += "\n  | " + line;
  }
  return message;
}

}  // namespace fairyzero
