// A small command-line reader shared by the subcommands: positionals, --flags and --key value.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/errors.h"

namespace fairyzero {

// A command line a user got wrong; main() prints the message and the command's usage.
class UsageError : public UserError {
 public:
  using UserError::UserError;
};

class Arguments {
 public:
  // `valued` are the options that take a value; `flags` those that do not. Anything else
  // starting with "--" is a UsageError.
  Arguments(const std::vector<std::string>& args, const std::set<std::string>& valued,
            const std::set<std::string>& flags) {
    for (size_t i = 0; i < args.size(); ++i) {
      const std::string& a = args[i];
      if (a.rfind("--", 0) != 0 || a.size() == 2) {
        positional_.push_back(a);
      } else if (valued.count(a)) {
        if (i + 1 >= args.size()) throw UsageError(a + " needs a value");
        values_[a].push_back(args[++i]);
      } else if (flags.count(a)) {
        flags_.insert(a);
      } else {
        throw UsageError("unknown option " + a);
      }
    }
  }

  const std::vector<std::string>& positional() const { return positional_; }
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
};

}  // namespace fairyzero
