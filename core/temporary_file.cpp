// Temporary names with host and pid, their sweep, and atomic text files.
#include "core/temporary_file.h"

#include <unistd.h>

#include <atomic>
#include <cctype>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <system_error>

namespace fairyzero {
namespace fs = std::filesystem;

std::string host_name() {
  char buffer[256] = {};
  if (::gethostname(buffer, sizeof buffer - 1) != 0) return "host";
  std::string name;
  for (const char* c = buffer; *c; ++c)
    name += std::isalnum(static_cast<unsigned char>(*c)) || *c == '-' ? *c : '-';
  return name.empty() ? "host" : name;
}

std::string temporary_name(const std::string& path) {
  // Only the count of names handed out in this process; the host and pid keep it unique.
  static std::atomic<long> counter{0};
  return path + ".tmp-" + host_name() + "-" + std::to_string(::getpid()) + "-" +
         std::to_string(counter++);
}

bool is_temporary_name(const std::string& file_name) {
  return file_name.find(".tmp-") != std::string::npos ||
         file_name.find(".tmp.") != std::string::npos;
}

std::vector<std::string> sweep_temporaries(const std::string& folder, double older_than_seconds) {
  std::vector<std::string> removed;
  const auto now = fs::file_time_type::clock::now();
  std::error_code ec;
  for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
    if (!is_temporary_name(it->path().filename().string())) continue;
    std::error_code entry_ec;
    const auto modified = fs::last_write_time(it->path(), entry_ec);
    if (entry_ec) continue;  // removed by another sweeper meanwhile
    if (std::chrono::duration<double>(now - modified).count() <= older_than_seconds) continue;
    if (fs::remove(it->path(), entry_ec)) removed.push_back(it->path().string());
  }
  return removed;
}

void write_text_atomically(const std::string& path, const std::string& text) {
  const std::string temporary = temporary_name(path);
  {
    std::ofstream out(temporary, std::ios::trunc);
    out << text;
    if (!out.flush()) {
      std::error_code ignored;
      fs::remove(temporary, ignored);
      throw std::runtime_error("cannot write " + temporary);
    }
  }
  std::error_code ec;
  fs::rename(temporary, path, ec);
  if (ec) {
    std::error_code ignored;
    fs::remove(temporary, ignored);
    throw std::runtime_error("cannot move " + temporary + " to " + path + ": " + ec.message());
  }
}

}  // namespace fairyzero
