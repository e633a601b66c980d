// Exporting a training run as a bot folder (training/players/bot_bundle.h): the run's newest
// or named checkpoint with the run's own rules, RUN_DIR/variant.toml.
#pragma once

#include <optional>
#include <string>

#include "training/players/bot_bundle.h"

namespace fairyzero {

// Writes BOT_DIR from RUN_DIR: the newest checkpoint in RUN_DIR/checkpoints, or `checkpoint`
// when given (as a path, or a name under RUN_DIR/checkpoints or RUN_DIR). Throws BotBundleError.
BotBundle export_bot(const std::string& run_dir, const std::string& bot_dir,
                     const std::optional<std::string>& checkpoint = std::nullopt);

}  // namespace fairyzero
