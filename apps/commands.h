// The subcommands of the fairyzero executable. Each returns the process exit status and throws
// on errors, which main() reports once.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "core/position.h"

namespace fairyzero {

using CommandArgs = std::vector<std::string>;

int perft_command(const CommandArgs& args);
int play_command(const CommandArgs& args);
int random_game_command(const CommandArgs& args);
int check_command(const CommandArgs& args);
int variants_command(const CommandArgs& args);
int new_network_command(const CommandArgs& args);
int network_info_command(const CommandArgs& args);
int train_command(const CommandArgs& args);
int export_command(const CommandArgs& args);
int uci_command(const CommandArgs& args);
int xboard_command(const CommandArgs& args);
int balance_command(const CommandArgs& args);
int arena_command(const CommandArgs& args);

// Loads a variant by name or path with the command line's --set overrides, and warns on stderr
// when its setup is not verified.
VariantPtr load_variant_for_user(const std::string& name_or_path,
                                 const std::vector<std::string>& overrides = {});

// "Game over" text: how it ended, the team score of every seat and, in four-player games, the
// sources' individual ranking.
std::string describe_outcome(const Variant& variant, const Outcome& outcome);

}  // namespace fairyzero
