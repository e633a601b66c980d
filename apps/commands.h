// The subcommands of the fairyzero executable. Each returns the process exit status and throws
// on errors, which main() reports once.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "apps/arguments.h"
#include "core/position.h"

namespace fairyzero {

int perft_command(const Arguments& args);
int play_command(const Arguments& args);
int analyse_command(const Arguments& args);
int random_game_command(const Arguments& args);
int check_command(const Arguments& args);
int variants_command(const Arguments& args);
int new_network_command(const Arguments& args);
int network_info_command(const Arguments& args);
int train_command(const Arguments& args);
int selfplay_command(const Arguments& args);
int export_command(const Arguments& args);
int uci_command(const Arguments& args);
int xboard_command(const Arguments& args);
int balance_command(const Arguments& args);
int arena_command(const Arguments& args);
int serve_command(const Arguments& args);

// Loads a variant by name or path with the command line's --set overrides, and warns on stderr
// when its setup is not verified.
VariantPtr load_variant_for_user(const std::string& name_or_path,
                                 const std::vector<std::string>& overrides = {});

// A variant named on the command line for an existing run must be the run's rules: throws
// UsageError naming both fingerprints and the first difference.
void require_run_rules(const class TrainingRun& run, const std::string& run_dir,
                       const VariantPtr& asked);

// Waits up to `seconds` for another process (rank 0, the trainer) to create the run in RUN_DIR,
// with a line now and then; throws UsageError when it does not come.
void wait_for_run(const std::string& run_dir, double seconds);

// "Game over" text: how it ended, the team score of every seat and, in four-player games, the
// sources' individual ranking.
std::string describe_outcome(const Variant& variant, const Outcome& outcome);

}  // namespace fairyzero
