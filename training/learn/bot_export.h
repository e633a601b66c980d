// Exporting a training run as a bot folder (training/players/bot_bundle.h): the run's newest
// or named checkpoint with the run's own rules, RUN_DIR/variant.toml.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "training/players/bot_bundle.h"

namespace fairyzero {

// What goes into the manifest beside the network.
struct BotExportRecords {
  // Arena folders (with summary.json) of matches whose first player was this bot: BOT_DIR as it
  // is before the export, holding the same network, or the exported checkpoint itself.
  std::vector<std::string> strength_dirs;
  std::string machine;  // where the run trained; empty: this machine (cores, CPU, device)
};

// Writes BOT_DIR from RUN_DIR: the newest checkpoint in RUN_DIR/checkpoints, or `checkpoint`
// when given (as a path, or a name under RUN_DIR/checkpoints or RUN_DIR). The manifest's
// [training] comes from the run folder (games in games/, samples in the CSVs, minutes between
// checkpoint files), its [[strength]] from `records`. Throws BotBundleError naming the file.
BotBundle export_bot(const std::string& run_dir, const std::string& bot_dir,
                     const std::optional<std::string>& checkpoint = std::nullopt,
                     const BotExportRecords& records = {});

// The manifest entry of one arena folder's match (its summary.json), the first player being
// the bot. Throws BotBundleError naming the file and field.
BotStrength read_match_strength(const std::string& arena_dir);

}  // namespace fairyzero
