// Choosing what plays for a seat from the command line (one player spec for every command), and
// the search summary line.
#pragma once

#include <memory>
#include <string>

#include "apps/arguments.h"
#include "mcts/evaluator.h"
#include "mcts/search.h"

namespace fairyzero {

// An internal player's evaluator (training/player_spec.h: uniform, material, a checkpoint, a bot
// of the same rules) for `variant` on `device`, "cpu" or "cuda". Throws CheckpointError,
// BotBundleError or UsageError with the reason.
std::unique_ptr<Evaluator> make_evaluator(const std::string& spec, const VariantPtr& variant,
                                          const std::string& device);

// Prints one line of search progress or a final summary: playouts, playouts/s, value (W/D/L of
// the side to move) and the principal variation.
std::string describe_search(const Position& root, const SearchResult& result, int max_pv = 8);

}  // namespace fairyzero
