// Lease files: link(2) to take, utime to refresh, a tombstone rename to break a stale one.
#include "training/cluster/lease.h"

#include <signal.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/temporary_file.h"

namespace fairyzero {
namespace fs = std::filesystem;
namespace {

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// "key=value" lines.
std::string field(const std::string& content, const std::string& key) {
  std::istringstream lines(content);
  for (std::string line; std::getline(lines, line);)
    if (line.rfind(key + "=", 0) == 0) return line.substr(key.size() + 1);
  return "";
}

// Seconds since the file was last refreshed; negative when it is gone.
double age_seconds(const std::string& path) {
  struct stat status {};
  if (::stat(path.c_str(), &status) != 0) return -1;
  return std::difftime(std::time(nullptr), status.st_mtime);
}

// Is the holder recorded in `content` provably gone? Only knowable on its own host.
bool holder_is_gone(const std::string& content) {
  if (field(content, "host") != host_name()) return false;
  const std::string pid = field(content, "pid");
  if (pid.empty()) return false;
  const long number = std::strtol(pid.c_str(), nullptr, 10);
  if (number <= 0) return false;
  return ::kill(static_cast<pid_t>(number), 0) != 0 && errno == ESRCH;
}

}  // namespace

Lease::Lease(std::string path, std::string role, double stale_after_seconds)
    : path_(std::move(path)), role_(std::move(role)), stale_after_(stale_after_seconds) {
  std::time_t now = std::time(nullptr);
  char since[32];
  std::strftime(since, sizeof since, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  content_ = "host=" + host_name() + "\npid=" + std::to_string(::getpid()) + "\nsince=" + since +
             "\nrole=" + role_ + "\n";
  const fs::path parent = fs::path(path_).parent_path();
  if (!parent.empty()) fs::create_directories(parent);
  const std::string temporary = temporary_name(path_);
  write_text_atomically(temporary, content_);
  for (int attempt = 0;; ++attempt) {
    if (::link(temporary.c_str(), path_.c_str()) == 0) break;
    const int error = errno;
    if (error != EEXIST) {
      fs::remove(temporary);
      throw UserError("cannot take the lease " + path_ + " for " + role_ + ": " +
                      std::strerror(error));
    }
    const std::string holder = read_text(path_);
    const double age = age_seconds(path_);
    const bool stale = holder_is_gone(holder) || age > stale_after_;
    if (!stale || attempt >= 3) {
      fs::remove(temporary);
      throw LeaseHeldError(
          path_ + " is held by process " + field(holder, "pid") + " on " + field(holder, "host") +
          " (" + field(holder, "role") + ", since " + field(holder, "since") + ", refreshed " +
          std::to_string(static_cast<long>(age)) + " s ago): only one may run at a time. Stop it " +
          "first; a lease whose holder is gone is broken after " +
          std::to_string(static_cast<long>(stale_after_)) + " s without a refresh, or remove " +
          path_ + " by hand once you are sure.");
    }
    // Break it by renaming to a name of our own: of several breakers only one succeeds, and
    // the contents tell whether what it moved is the lease judged stale.
    const std::string tombstone = temporary_name(path_ + ".broken");
    if (::rename(path_.c_str(), tombstone.c_str()) != 0) continue;  // someone else broke it
    if (read_text(tombstone) != holder) {
      // A fresh lease taken between our read and rename: give it back.
      if (::link(tombstone.c_str(), path_.c_str()) != 0) {
        // It cannot go back (someone took the name again): leave it for inspection.
      }
    }
    fs::remove(tombstone);
  }
  fs::remove(temporary);
  heartbeat_ = std::thread([this] { heartbeat(); });
}

Lease::~Lease() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  stop_signal_.notify_all();
  if (heartbeat_.joinable()) heartbeat_.join();
  if (held()) {
    std::error_code ignored;
    fs::remove(path_, ignored);
  }
}

bool Lease::held() const { return !lost_ && read_text(path_) == content_; }

void Lease::heartbeat() {
  const auto interval = std::chrono::duration<double>(std::max(0.5, stale_after_ / 6));
  std::unique_lock lock(mutex_);
  while (!stop_signal_.wait_for(lock, interval, [this] { return stopping_; })) {
    if (read_text(path_) != content_) {
      lost_ = true;
      return;
    }
    ::utimes(path_.c_str(), nullptr);
  }
}

}  // namespace fairyzero
