// Building the players that search in this process (uniform, material, a checkpoint, a bot)
// from their spec: the evaluator, the variant they play and a bot's own search defaults.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "core/variant_loader.h"
#include "mcts/evaluator.h"
#include "training/play/player_spec.h"
#include "training/players/bot_bundle.h"

namespace fairyzero {

struct InternalPlayer {
  std::unique_ptr<Evaluator> evaluator;
  VariantPtr variant;  // a bot's own rules, else the variant it was made for
  std::string label;   // "material", "gen-0006" (a checkpoint's stem), "isis" (a bot's folder)
  std::optional<BotSearchDefaults> bot_search;  // a bot's search.toml
  int bot_generation = -1;
};

// Builds an internal player for `variant` on `device` ("cpu", "cuda"). A bot brings its own
// variant, with `overrides` (--set) applied; when `variant` is given as well the bot's rules
// must be the same (fingerprints). Uniform, material and checkpoints need `variant`.
// Throws PlayerError (an engine spec, no variant, a bot of other rules, a network without
// LibTorch),
// CheckpointError or BotBundleError.
InternalPlayer make_internal_player(const PlayerSpec& spec, const VariantPtr& variant,
                                    const std::string& device,
                                    const VariantOverrides& overrides = {});

}  // namespace fairyzero
