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
     "            [--device cpu|cuda] [--set KEY=VALUE]...\n"
     "  train RUN_DIR [--generations N] [--device cpu|cuda] [--config FILE]",
     "self-play and training, generation after generation; on a run folder: resume or extend it"},
    {"new-network", fairyzero::new_network_command,
     "new-network VARIANT --out FILE [--blocks N] [--filters N] [--policy-dim N]\n"
     "            [--value-hidden N]",
     "write an untrained network checkpoint for a variant"},
    {"network-info", fairyzero::network_info_command, "network-info CHECKPOINT",
     "describe a checkpoint: variant, size, shapes, training step"},
    {"export", fairyzero::export_command, "export RUN_DIR --out BOT_DIR [--checkpoint FILE]",
     "make a bot folder (network, variant, search settings, manifest) from a training run"},
    {"uci", fairyzero::uci_command,
     "uci BOT_DIR|CHECKPOINT|uniform|material [--variant NAME] [--playouts N] [--threads N]\n"
     "            [--device cpu|cuda]",
     "play as a UCI engine on stdin/stdout (GUIs, cutechess-cli); see docs/PROTOCOLS.md"},
    {"xboard", fairyzero::xboard_command,
     "xboard BOT_DIR|CHECKPOINT|uniform|material [--variant NAME] [--playouts N] [--threads N]\n"
     "            [--device cpu|cuda]",
     "play as an XBoard/WinBoard (CECP 2) engine on stdin/stdout; see docs/PROTOCOLS.md"},
    {"balance", fairyzero::balance_command,
     "balance VARIANT [VARIANT...] --bot uniform|material|CHECKPOINT|BOT_DIR [--bot ...]\n"
     "            [--visits N[,N...]] [--games N] [--concurrency N] [--threads N] [--seed N]\n"
     "            [--opening-plies N] [--max-plies N] [--device cpu|cuda] [--out DIR] "
     "[--no-plots]\n"
     "            [--seat-bot SEAT=SPEC ...] [--seat-visits SEAT=N ...] [--no-baseline]",
     "self-play a variant with one bot on every seat and write a balance report (Markdown, HTML, "
     "plots)"},
    {"arena", fairyzero::arena_command,
     "arena VARIANT PLAYER PLAYER [--games N] [--concurrency N] [--visits N[,N]]\n"
     "            [--nodes N[,N]] [--movetime MS[,MS]] [--depth N[,N]] [--name A,B]\n"
     "            [--openings FILE] [--opening-plies N] [--seed N] [--max-plies N]\n"
     "            [--sprt ELO0,ELO1,ALPHA,BETA] [--out DIR] [--device cpu|cuda]\n"
     "            [--engine-option NAME=VALUE] [--engine-timeout S]\n"
     "         PLAYER: uniform, material, FILE.pt, BOT_DIR, uci:COMMAND or xboard:COMMAND",
     "a match between two bots or engines in paired games: records, Elo, SPRT; see docs/ARENA.md"},
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
