// The one strict reader of TOML files (variants, training configs, bot bundles): a syntax
// error, an unknown key, a value of the wrong type, a whole number out of range or a missing key
// is an error naming FILE:LINE and the key, thrown as the caller's own UserError subclass.
#pragma once

#include <cstdint>
#include <filesystem>
#include <limits>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#ifndef TOML_EXCEPTIONS
#define TOML_EXCEPTIONS 1
#endif
#include <toml++/toml.h>

namespace fairyzero {

template <typename Error>
class StrictToml {
 public:
  explicit StrictToml(std::string source) : source_(std::move(source)) {}
  const std::string& source() const { return source_; }

  // The parsed file; a missing file and a syntax error are Errors naming it (and the line).
  toml::table parse_file() const {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(source_, ec)) throw Error(source_ + ": missing");
    try {
      return toml::parse_file(source_);
    } catch (const toml::parse_error& e) {
      fail(e.source(), "", "malformed TOML: " + std::string(e.description()));
    }
  }
  toml::table parse_text(std::string_view text) const {
    try {
      return toml::parse(text, source_);
    } catch (const toml::parse_error& e) {
      fail(e.source(), "", "malformed TOML: " + std::string(e.description()));
    }
  }

  // "SOURCE:LINE: FIELD: WHAT" (the line when known, the field when given).
  [[noreturn]] void fail(const toml::source_region& at, const std::string& field,
                         const std::string& what) const {
    const std::string line = at.begin.line ? ":" + std::to_string(at.begin.line) : "";
    throw Error(source_ + line + ": " + (field.empty() ? "" : field + ": ") + what);
  }
  [[noreturn]] void fail(const toml::node* at, const std::string& field,
                         const std::string& what) const {
    fail(at ? at->source() : toml::source_region{}, field, what);
  }

  static std::string join(const std::string& section, const std::string& key) {
    return section.empty() ? key : section + "." + key;
  }

  // Every key of `table` must be one of `allowed`: a misspelt setting is an error, not a no-op.
  void check_keys(const toml::table& table, const std::string& section,
                  const std::set<std::string>& allowed) const {
    for (auto&& [key, node] : table)
      if (!allowed.count(std::string(key.str()))) {
        std::string list;
        for (const std::string& name : allowed) list += (list.empty() ? "" : ", ") + name;
        fail(key.source(), join(section, std::string(key.str())),
             "unknown key (allowed here: " + list + ")");
      }
  }

  // The node's value as T: std::string, bool, int (range-checked), int64_t, or double (whole
  // numbers accepted).
  template <typename T>
  T value(const toml::node& node, const std::string& field) const {
    if constexpr (std::is_same_v<T, double>) {
      if (auto d = node.value_exact<double>()) return *d;
      if (auto i = node.value_exact<int64_t>()) return static_cast<double>(*i);
    } else if constexpr (std::is_same_v<T, int>) {
      if (auto i = node.value_exact<int64_t>()) {
        if (*i < std::numeric_limits<int>::min() || *i > std::numeric_limits<int>::max())
          fail(node.source(), field, std::to_string(*i) + " is out of range");
        return static_cast<int>(*i);
      }
    } else {
      if (auto v = node.value_exact<T>()) return *v;
    }
    fail(node.source(), field, std::string("must be ") + type_name<T>());
  }

  template <typename T>
  std::optional<T> get(const toml::table& table, const std::string& key,
                       const std::string& section = "") const {
    const toml::node* node = table.get(key);
    if (!node) return std::nullopt;
    return value<T>(*node, join(section, key));
  }

  template <typename T>
  T require(const toml::table& table, const std::string& key,
            const std::string& section = "") const {
    std::optional<T> found = get<T>(table, key, section);
    if (!found) fail(table.source(), join(section, key), "missing (required)");
    return *found;
  }

  const toml::table& require_table(const toml::table& table, const std::string& key,
                                   const std::string& section = "") const {
    const toml::node* node = table.get(key);
    if (!node) fail(table.source(), join(section, key), "the section is missing (required)");
    if (!node->is_table()) fail(node->source(), join(section, key), "must be a table");
    return *node->as_table();
  }

  // A list of strings, or one string standing for a list of one.
  std::vector<std::string> strings(const toml::node& node, const std::string& field) const {
    if (auto s = node.value_exact<std::string>()) return {*s};
    const toml::array* list = node.as_array();
    if (!list) fail(node.source(), field, "must be a string or a list of strings");
    std::vector<std::string> out;
    for (const toml::node& item : *list) out.push_back(value<std::string>(item, field));
    return out;
  }

 private:
  template <typename T>
  static const char* type_name() {
    if constexpr (std::is_same_v<T, std::string>) return "a string";
    if constexpr (std::is_same_v<T, bool>) return "true or false";
    if constexpr (std::is_same_v<T, double>) return "a number";
    return "a whole number";
  }

  std::string source_;
};

}  // namespace fairyzero
