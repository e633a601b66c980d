// The declared search parameters: every key names one field, values round-trip, and values out
// of range or fractions of whole-number parameters are refused naming the key.
#include "mcts/search_settings.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <string>

#include "core/errors.h"

namespace fairyzero {
namespace {

TEST(SearchSettings, EachKeyOnceAndValuesRoundTrip) {
  std::set<std::string> keys;
  for (const SearchSetting& s : search_settings()) {
    EXPECT_TRUE(keys.insert(s.key).second) << s.key << " is declared twice";
    SearchParams params;
    const double value = s.min + (s.max - s.min) / 4;
    const double whole =
        std::holds_alternative<int SearchParams::*>(s.field) ? std::floor(value) : value;
    set_search_parameter(params, s, whole);
    EXPECT_NEAR(search_parameter(params, s), whole, 1e-3 * (1 + std::abs(whole))) << s.key;
  }
  EXPECT_TRUE(keys.count("cpuct_init"));
  EXPECT_TRUE(keys.count("fpu_reduction_root"));
}

// A float parameter reads back as the decimal it was set to (0.017), not as the float widened to
// double (0.017000000923871994), so the files people read show what they typed.
TEST(SearchSettings, FloatParametersReadBackAsTheirShortestDecimal) {
  SearchParams params;
  for (const SearchSetting& s : search_settings()) {
    if (!std::holds_alternative<float SearchParams::*>(s.field)) continue;
    const double typed = s.min + (s.max - s.min) * 0.017;
    char text[32];
    std::snprintf(text, sizeof text, "%.4g", typed);
    const double decimal = std::strtod(text, nullptr);
    set_search_parameter(params, s, decimal);
    EXPECT_EQ(search_parameter(params, s), decimal) << s.key;
  }
}

TEST(SearchSettings, RefusesValuesOutOfRangeNamingTheKey) {
  SearchParams params;
  for (const SearchSetting& s : search_settings()) {
    try {
      set_search_parameter(params, s, s.max + 1);
      ADD_FAILURE() << s.key << " accepted " << s.max + 1;
    } catch (const SettingError& e) {
      EXPECT_NE(std::string(e.what()).find(s.key), std::string::npos) << e.what();
    }
    if (std::holds_alternative<int SearchParams::*>(s.field)) {
      EXPECT_THROW(set_search_parameter(params, s, s.min + 0.5), SettingError) << s.key;
    }
  }
}

}  // namespace
}  // namespace fairyzero
