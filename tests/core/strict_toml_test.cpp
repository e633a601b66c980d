// The one strict TOML reader: every refusal names the source, the line and the key, and is
// thrown as the caller's error class.
#include "core/strict_toml.h"

#include <gtest/gtest.h>

#include <functional>

#include "core/errors.h"

namespace fairyzero {
namespace {

class ExampleError : public UserError {
 public:
  using UserError::UserError;
};

using Reader = StrictToml<ExampleError>;

std::string refusal(const std::function<void()>& action) {
  try {
    action();
  } catch (const ExampleError& e) {
    return e.what();
  }
  return "accepted";
}

TEST(StrictToml, ReadsValuesAndRefusesEachMistakeNamingLineAndKey) {
  const Reader reader("example.toml");
  const toml::table root = reader.parse_text(
      "name = \"x\"\ncount = 3\nratio = 2\nhuge = 9999999999\n[part]\nlist = [\"a\", \"b\"]\n"
      "one = \"c\"\nbad = [1]\n");
  EXPECT_EQ(reader.require<std::string>(root, "name"), "x");
  EXPECT_EQ(reader.require<int>(root, "count"), 3);
  EXPECT_DOUBLE_EQ(reader.require<double>(root, "ratio"), 2.0) << "whole numbers are numbers";
  EXPECT_FALSE(reader.get<bool>(root, "absent"));
  const toml::table& part = reader.require_table(root, "part");
  EXPECT_EQ(reader.strings(*part.get("list"), "part.list"), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(reader.strings(*part.get("one"), "part.one"), (std::vector<std::string>{"c"}));

  EXPECT_EQ(refusal([&] { reader.require<int>(root, "name"); }),
            "example.toml:1: name: must be a whole number");
  EXPECT_EQ(refusal([&] { reader.require<int>(root, "huge"); }),
            "example.toml:4: huge: 9999999999 is out of range");
  EXPECT_NE(refusal([&] { reader.require<bool>(root, "missing"); }).find("missing: missing"),
            std::string::npos);
  EXPECT_EQ(refusal([&] { reader.strings(*part.get("bad"), "part.bad"); }),
            "example.toml:8: part.bad: must be a string");
  EXPECT_EQ(refusal([&] {
              reader.check_keys(part, "part", {"list", "one"});
            }),
            "example.toml:8: part.bad: unknown key (allowed here: list, one)");
  EXPECT_NE(refusal([&] { reader.require_table(root, "name"); }).find("name: must be a table"),
            std::string::npos);
  const std::string syntax = refusal([&] { reader.parse_text("a = 1\nb = = 2\n"); });
  EXPECT_EQ(syntax.rfind("example.toml:2: malformed TOML", 0), 0u) << syntax;
  EXPECT_EQ(refusal([] { Reader("/nonexistent/file.toml").parse_file(); }),
            "/nonexistent/file.toml: missing");
}

}  // namespace
}  // namespace fairyzero
