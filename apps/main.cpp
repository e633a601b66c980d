// fairyzero: one executable, one subcommand per job. Errors are caught here, once.
#include <cstring>
#include <iostream>

#include "apps/arguments.h"
#include "apps/commands.h"
#include "core/position.h"

namespace {

struct Subcommand {
  const char* name;
  int (*run)(const fairyzero::CommandArgs&);
  const char* synopsis;
  const char* summary;
};

const Subcommand kSubcommands[] = {
    {"variants", fairyzero::variants_command, "variants", "list the known variants"},
    {"check", fairyzero::check_command, "check VARIANT|FILE.toml",
     "validate a variant file and summarise it"},
    {"perft", fairyzero::perft_command, "perft VARIANT [--fen FEN] DEPTH [--divide]",
     "count the leaf nodes of the move tree (the test of move generation)"},
    {"random-game", fairyzero::random_game_command,
     "random-game VARIANT [--seed N] [--max-plies N] [--fen FEN] [--quiet]",
     "play one game of random legal moves"},
    {"play", fairyzero::play_command,
     "play VARIANT [--bot uniform|material|CHECKPOINT] [--bot-seat SEAT] [--visits N]\n"
     "            [--threads N] [--seconds S] [--device cpu|cuda] [--random SEAT] [--fen FEN]",
     "play in the terminal against a bot (MCTS), a random mover, or alone"},
    {"train", fairyzero::train_command,
     "train VARIANT --config configs/train/NAME.toml --out RUN_DIR [--generations N]\n"
     "            [--device cpu|cuda]",
     "self-play and training, generation after generation; rerun to resume an interrupted run"},
    {"new-network", fairyzero::new_network_command,
     "new-network VARIANT --out FILE [--blocks N] [--filters N] [--policy-dim N]\n"
     "            [--value-hidden N]",
     "write an untrained network checkpoint for a variant"},
    {"network-info", fairyzero::network_info_command, "network-info CHECKPOINT",
     "describe a checkpoint: variant, size, shapes, training step"},
};

void print_usage(std::ostream& out) {
  out << "FairyZero: self-play training, bots and balance reports for chess variants.\n\n"
         "Usage: fairyzero COMMAND ...\n\n";
  for (const Subcommand& s : kSubcommands)
    out << "  fairyzero " << s.synopsis << "\n      " << s.summary << "\n";
  out << "\nVARIANT is a name from configs/variants (see `fairyzero variants`) or a path to a "
         ".toml file.\nEvery command that takes a VARIANT also takes --set SECTION.KEY=VALUE "
         "(repeatable) "
         "to change\na variant option without editing its file, e.g. --set "
         "board.corner_rule=false.\n";
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || !std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "help") ||
      !std::strcmp(argv[1], "-h")) {
    print_usage(std::cout);
    return argc < 2 ? 2 : 0;
  }
  fairyzero::CommandArgs args(argv + 2, argv + argc);
  for (const Subcommand& s : kSubcommands) {
    if (std::strcmp(argv[1], s.name) != 0) continue;
    try {
      return s.run(args);
    } catch (const fairyzero::UsageError& e) {
      std::cerr << "fairyzero " << s.name << ": " << e.what() << "\nusage: fairyzero " << s.synopsis
                << "\n";
      return 2;
    } catch (const std::exception& e) {
      std::cerr << "fairyzero " << s.name << ": error: " << e.what() << "\n";
      return 1;
    }
  }
  std::cerr << "fairyzero: unknown command '" << argv[1] << "'\n\n";
  print_usage(std::cerr);
  return 2;
}
