// The table of user-settable search parameters.
#include "mcts/search_settings.h"

#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "core/errors.h"

namespace fairyzero {

std::span<const SearchSetting> search_settings() {
  static const std::array<SearchSetting, 13> table = {{
      {"cpuct_init", &SearchParams::cpuct_init, 0, 100, "PUCT exploration constant", true, true},
      {"cpuct_base", &SearchParams::cpuct_base, 1, 1e9, "visits at which exploration grows", true,
       true},
      {"fpu_reduction", &SearchParams::fpu_reduction, -10, 10,
       "first-play urgency: an unvisited child's value below its parent's", true, true},
      {"fpu_reduction_root", &SearchParams::fpu_reduction_root, -10, 10, "the same at the root",
       true, true},
      {"policy_temperature", &SearchParams::policy_temperature, 0.01, 100,
       "softmax temperature on the network's policy", false, true},
      {"leaves_per_batch", &SearchParams::leaves_per_batch, 1, 1024,
       "leaves a search thread gathers per evaluation", false, true},
      {"virtual_loss", &SearchParams::virtual_loss, 0, 1000, "in-flight visits counted as losses",
       false, false},
      {"dirichlet_alpha", &SearchParams::dirichlet_alpha, 1e-4, 100,
       "root noise concentration (self-play's full searches)", true, false},
      {"dirichlet_total_alpha", &SearchParams::dirichlet_total_alpha, 0, 1000,
       "when positive: root noise concentration = this / legal moves (else dirichlet_alpha)", true,
       false},
      {"dirichlet_epsilon", &SearchParams::dirichlet_epsilon, 0, 1, "root noise weight", true,
       false},
      {"forced_playouts", &SearchParams::forced_playouts, 0, 100,
       "KataGo's forced playouts k at the root of full searches, pruned from the policy target "
       "(0: off)",
       true, false},
      {"moves_left_slope", &SearchParams::moves_left_slope, 0, 1,
       "value per ply a quicker win (slower loss) is worth, with a moves-left head (0: off)", true,
       true},
      {"moves_left_max_effect", &SearchParams::moves_left_max_effect, 0, 0.5,
       "the most the moves-left utility moves a child's value", true, true},
  }};
  return table;
}

double search_parameter(const SearchParams& params, const SearchSetting& setting) {
  return std::visit(
      [&](auto member) {
        using T = std::remove_cvref_t<decltype(params.*member)>;
        if constexpr (std::is_same_v<T, float>) {
          // The float's shortest decimal (0.0014, not 0.00139999995008111) for the files
          // people read.
          char text[32];
          std::snprintf(text, sizeof text, "%.7g", params.*member);
          return std::strtod(text, nullptr);
        }
        return static_cast<double>(params.*member);
      },
      setting.field);
}

void set_search_parameter(SearchParams& params, const SearchSetting& setting, double value) {
  if (!(value >= setting.min && value <= setting.max)) {
    char range[96];
    std::snprintf(range, sizeof range, " must be between %g and %g", setting.min, setting.max);
    throw SettingError(setting.key + std::string(range));
  }
  std::visit(
      [&](auto member) {
        using T = std::remove_cvref_t<decltype(params.*member)>;
        if constexpr (std::is_same_v<T, int>) {
          if (value != std::floor(value))
            throw SettingError(std::string(setting.key) + " must be a whole number");
        }
        params.*member = static_cast<T>(value);
      },
      setting.field);
}

}  // namespace fairyzero
