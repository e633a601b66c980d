// Choosing what plays for a seat from the command line: "uniform", "material", or a checkpoint
// file, and the search settings around it.
#pragma once

#include <memory>
#include <string>

#include "apps/arguments.h"
#include "mcts/evaluator.h"
#include "mcts/search.h"

namespace fairyzero {

// "uniform", "material", or the path of a network checkpoint (loaded for `variant` on `device`,
// "cpu" or "cuda"). Throws CheckpointError or UsageError with the reason.
std::unique_ptr<Evaluator> make_evaluator(const std::string& spec, const VariantPtr& variant,
                                          const std::string& device);

// Prints one line of search progress or a final summary: playouts, playouts/s, value (W/D/L of
// the side to move) and the principal variation.
std::string describe_search(const Position& root, const SearchResult& result, int max_pv = 8);

}  // namespace fairyzero
