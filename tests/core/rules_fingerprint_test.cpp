// The rules fingerprint: equal for the same compiled rules whatever the file's name, path or
// layout, different for any rule; the resolved TOML a run keeps loads back to the same rules.
#include "core/rules_fingerprint.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "core/variant_loader.h"
#include "tests/support/files.h"

namespace fairyzero {
namespace {
namespace fs = std::filesystem;
using testing::read_text;

// minichess's file with `from` replaced by `to`, written to a temporary file.
std::string edited_minichess(const std::string& from, const std::string& to) {
  std::string text = read_text("configs/variants/minichess.toml");
  const size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  text.replace(at, from.size(), to);
  const fs::path path =
      fs::temp_directory_path() /
      ("fairyzero-fingerprint-" + std::to_string(std::random_device{}()) + ".toml");
  std::ofstream(path) << text;
  return path.string();
}

TEST(RulesFingerprint, IgnoresTheNameButNotARule) {
  const VariantPtr stock = find_variant("minichess");
  const std::string renamed_file = edited_minichess("name = \"minichess\"", "name = \"mini\"");
  const VariantPtr renamed = find_variant(renamed_file);
  EXPECT_EQ(renamed->name, "mini");
  EXPECT_EQ(rules_fingerprint(*renamed), rules_fingerprint(*stock));
  const std::string edited_file = edited_minichess("move_rule = 25", "move_rule = 30");
  const VariantPtr edited = find_variant(edited_file);
  EXPECT_NE(rules_fingerprint(*edited), rules_fingerprint(*stock));
  EXPECT_EQ(first_rules_difference(rules_fields(*edited), rules_fields(*stock)),
            "rules.move_rule: '30' here, '25' there");
  // An option set on the command line is a rule too.
  EXPECT_NE(rules_fingerprint(*find_variant("minichess", {"rules.repetition=2"})),
            rules_fingerprint(*stock));
  fs::remove(renamed_file);
  fs::remove(edited_file);
}

TEST(RulesFingerprint, FieldsSurviveTheirTextForm) {
  const RulesFields fields = rules_fields(*find_variant("irwell"));
  EXPECT_EQ(parse_rules_fields(rules_fields_text(fields)), fields);
  EXPECT_EQ(first_rules_difference(fields, fields), "");
  EXPECT_THROW(parse_rules_fields("no separator here\n"), std::invalid_argument);
}

// Every variant file: the resolved copy a run keeps (RUN_DIR/variant.toml) is the same game,
// pieces in the same order (piece type numbers follow the file), with --set options applied.
TEST(RulesFingerprint, TheResolvedCopyOfEveryVariantLoadsToTheSameRules) {
  for (const std::string& name : list_variants()) {
    const VariantPtr v = find_variant(name);
    const VariantPtr copy = load_variant_text(v->resolved_toml, name + " (resolved)");
    EXPECT_EQ(rules_fingerprint(*copy), rules_fingerprint(*v))
        << name << ": " << first_rules_difference(rules_fields(*copy), rules_fields(*v));
    ASSERT_EQ(copy->pieces.size(), v->pieces.size()) << name;
    for (size_t t = 0; t < v->pieces.size(); ++t)
      EXPECT_EQ(copy->pieces[t].name, v->pieces[t].name) << name << ", piece type " << t;
  }
  const VariantPtr set = find_variant("minichess", {"rules.move_rule=7"});
  EXPECT_EQ(load_variant_text(set->resolved_toml, "resolved")->rules.move_rule, 7);
}

}  // namespace
}  // namespace fairyzero
