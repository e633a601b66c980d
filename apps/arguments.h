// What a subcommand receives from the command line (declared and parsed in command_line.cpp),
// and the error for a command line a user got wrong.
#pragma once

#include <iterator>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/errors.h"

namespace fairyzero {

// A command line a user got wrong; main() prints the message and the command's usage.
class UsageError : public UserError {
 public:
  using UserError::UserError;
};

// The parsed command line of one subcommand, as apps/command_line.cpp declared and checked it
// (types, ranges, which options take values): positionals, option values and flags.
class Arguments {
 public:
  Arguments(std::vector<std::string> positional,
            std::map<std::string, std::vector<std::string>> values, std::set<std::string> flags,
            std::vector<std::string> words = {})
      : positional_(std::move(positional)),
        values_(std::move(values)),
        flags_(std::move(flags)),
        words_(std::move(words)) {
    for (auto it = values_.begin(); it != values_.end();)
      it = it->second.empty() ? values_.erase(it) : std::next(it);
  }

  const std::vector<std::string>& positional() const { return positional_; }
  // The command line's words after the subcommand's name, as typed (for records).
  const std::vector<std::string>& words() const { return words_; }
  bool flag(const std::string& name) const { return flags_.count(name) > 0; }
  // The last value given for an option, or nullopt.
  std::optional<std::string> value(const std::string& name) const {
    auto it = values_.find(name);
    if (it == values_.end()) return std::nullopt;
    return it->second.back();
  }
  // Every value of an option that may be repeated (--set).
  std::vector<std::string> values(const std::string& name) const {
    auto it = values_.find(name);
    return it == values_.end() ? std::vector<std::string>{} : it->second;
  }
  long long integer(const std::string& name, long long fallback) const {
    std::optional<std::string> v = value(name);
    return v ? parse_integer(*v, name) : fallback;
  }
  static long long parse_integer(const std::string& text, const std::string& what) {
    try {
      size_t used = 0;
      long long n = std::stoll(text, &used);
      if (used == text.size()) return n;
    } catch (const std::exception&) {
    }
    throw UsageError(what + " must be a whole number, not '" + text + "'");
  }

 private:
  std::vector<std::string> positional_;
  std::map<std::string, std::vector<std::string>> values_;
  std::set<std::string> flags_;
  std::vector<std::string> words_;
};

}  // namespace fairyzero
