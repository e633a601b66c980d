// The search parameters a user may set, declared once with their key, range and meaning: the
// training config's [selfplay] section and a bot's search.toml both read and write them here.
#pragma once

#include <span>
#include <string_view>
#include <variant>

#include "mcts/tree.h"

namespace fairyzero {

struct SearchSetting {
  const char* key;  // "cpuct_init", as in search.toml and the training config
  std::variant<float SearchParams::*, int SearchParams::*> field;
  double min, max;
  const char* help;
  bool in_self_play;  // also a training setting ([selfplay])
  bool in_bots;       // also in a bot's search.toml
};

// Every declared parameter, in a fixed order.
std::span<const SearchSetting> search_settings();

// The parameter's value in `params`, and setting it (SettingError naming the key and its range
// when `value` is outside it, or a whole-number parameter gets a fraction).
double search_parameter(const SearchParams& params, const SearchSetting& setting);
void set_search_parameter(SearchParams& params, const SearchSetting& setting, double value);

}  // namespace fairyzero
