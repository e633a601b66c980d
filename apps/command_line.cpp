// One table declares every subcommand of fairyzero: its positionals, options, their types and
// ranges and help. CLI11 reads the command line from it (both --opt value and --opt=value) and
// writes `fairyzero COMMAND --help`; the commands receive checked Arguments.
#include "apps/command_line.h"

#include <CLI/CLI.hpp>
#include <iostream>
#include <limits>
#include <map>
#include <memory>
#include <set>

#include "apps/arguments.h"
#include "apps/commands.h"

namespace fairyzero {
namespace {

enum class Kind { kFlag, kValue, kRepeated };

struct Option {
  std::string name;
  Kind kind = Kind::kValue;
  std::string value_name;  // "N", "FEN", "SEAT=SPEC"
  std::string help;
  // Whole numbers in [min, max] when integer; numbers in [min, max] when number.
  bool integer = false, number = false;
  double min = 0, max = 0;
};

Option text(std::string name, std::string value_name, std::string help) {
  return {std::move(name), Kind::kValue, std::move(value_name), std::move(help)};
}
Option repeated(std::string name, std::string value_name, std::string help) {
  return {std::move(name), Kind::kRepeated, std::move(value_name), std::move(help)};
}
Option flag(std::string name, std::string help) {
  return {std::move(name), Kind::kFlag, "", std::move(help)};
}
Option whole(std::string name, double min, double max, std::string help) {
  Option o{std::move(name), Kind::kValue, "N", std::move(help)};
  o.integer = true;
  o.min = min;
  o.max = max;
  return o;
}
Option real(std::string name, double min, double max, std::string help) {
  Option o{std::move(name), Kind::kValue, "X", std::move(help)};
  o.number = true;
  o.min = min;
  o.max = max;
  return o;
}

constexpr double kBig = 1e9;
constexpr double kSeedMax = 9.2e18;

Option set_option() {
  return repeated("--set", "SECTION.KEY=VALUE",
                  "change a variant option without editing its file (repeatable)");
}
Option device_option() { return text("--device", "cpu|cuda", "where networks run"); }
Option fen_option() { return text("--fen", "FEN", "start from this position"); }

struct Command {
  std::string name;
  std::string positionals;  // for the usage line: "VARIANT DEPTH"
  std::string summary;
  int (*run)(const Arguments&);
  std::vector<Option> options;
};

const std::vector<Command>& commands() {
  static const std::vector<Command> table = {
      {"variants", "", "list the known variants", variants_command, {}},
      {"check",
       "VARIANT",
       "validate a variant file and summarise it",
       check_command,
       {set_option()}},
      {"perft",
       "VARIANT DEPTH",
       "count the leaf nodes of the move tree (the test of move generation)",
       perft_command,
       {fen_option(), set_option(), flag("--divide", "print the count below each move")}},
      {"random-game",
       "VARIANT",
       "play one game of random legal moves",
       random_game_command,
       {whole("--seed", 0, kSeedMax, "random seed"),
        whole("--max-plies", 1, 1e7, "stop after this many plies"), fen_option(), set_option(),
        flag("--quiet", "print only the result")}},
      {"play",
       "VARIANT",
       "play in the terminal against a bot (MCTS), a random mover, or alone",
       play_command,
       {text("--bot", "SPEC", "the bot: uniform, material, CHECKPOINT.pt or BOT_DIR"),
        text("--bot-seat", "SEATS", "seats the bot plays (comma-separated; default the last)"),
        text("--human", "SEATS", "seats you play; the others go to the bot or random movers"),
        text("--random", "SEATS", "seats that move at random"),
        whole("--visits", 1, kBig, "bot playouts per move"),
        whole("--threads", 1, 256, "bot search threads"),
        real("--seconds", 0, 1e6, "bot time per move (with or instead of --visits)"),
        whole("--seed", 0, kSeedMax, "seed of the random movers and the search"), device_option(),
        fen_option(), set_option()}},
      {"analyse",
       "VARIANT",
       "search one position with a bot and print its best moves with visits, value, W/D/L and "
       "lines",
       analyse_command,
       {text("--bot", "SPEC", "the bot: uniform, material (default), CHECKPOINT.pt or BOT_DIR"),
        text("--moves", "MOVES", "moves played from the position first (space-separated)"),
        whole("--visits", 1, kBig, "playouts (default 2000)"),
        real("--seconds", 0, 1e6, "time to search (with or instead of --visits)"),
        whole("--lines", 1, 256, "best moves shown (default 5)"),
        whole("--threads", 1, 256, "search threads"), device_option(), fen_option(), set_option()}},
      {"serve",
       "",
       "the web board: play any variant against people and bots, replay recorded games, follow "
       "a run (docs/WEB.md)",
       serve_command,
       {text("--host", "ADDRESS", "the address to listen on (127.0.0.1: this machine only)"),
        whole("--port", 0, 65535, "the port (8080; 0: any free one)"),
        text("--runs", "DIR", "runs and records to replay and follow (read only below it)"),
        text("--bots", "DIR", "bot folders the seats may be given to"),
        whole("--threads", 2, 256, "requests served at once (8)")}},
      {"train",
       "VARIANT|RUN_DIR",
       "self-play and training, generation after generation; on a run folder: resume or extend "
       "it",
       train_command,
       {text("--config", "FILE",
             "training settings (configs/train/NAME.toml); needed by a new run"),
        text("--out", "RUN_DIR", "the run folder of a new run"),
        whole("--generations", 1, 1e6, "generations in all (extends an existing run)"),
        real("--minutes", 0, 1e8,
             "time budget: stop after this many minutes of training, the learning rate "
             "annealed over them (run.minutes; 0: none)"),
        text("--selfplay", "internal|external",
             "external: train only, on what fairyzero selfplay workers publish"),
        device_option(), set_option()}},
      {"selfplay",
       "RUN_DIR",
       "a self-play worker of a run trained elsewhere (train --selfplay external): plays with "
       "the newest checkpoint and publishes its games",
       selfplay_command,
       {whole("--worker", 0, 1e6, "this worker's ID, unique in the run"),
        whole("--games-per-file", 1, 1e6,
              "games per published file (default: the games it plays at once)"),
        text("--variant", "VARIANT", "refuse the run unless it plays these rules"),
        real("--grace-seconds", 0, 1e6,
             "after SIGTERM, time to finish the file in progress before discarding it"),
        device_option()}},
      {"new-network",
       "VARIANT",
       "write an untrained network checkpoint for a variant",
       new_network_command,
       {text("--out", "FILE", "the checkpoint to write"),
        whole("--blocks", 0, 64, "residual blocks"), whole("--filters", 1, 1024, "trunk channels"),
        whole("--policy-dim", 1, 1024, "policy head query/key width"),
        whole("--value-hidden", 1, 4096, "value head hidden width"), set_option()}},
      {"network-info",
       "CHECKPOINT",
       "describe a checkpoint: variant, rules fingerprint, size, shapes, training step",
       network_info_command,
       {}},
      {"export",
       "RUN_DIR",
       "make a bot folder (network, variant, search settings, manifest) from a training run",
       export_command,
       {text("--out", "BOT_DIR", "the bot folder to write"),
        text("--checkpoint", "FILE", "a checkpoint other than the newest"),
        repeated("--strength", "ARENA_DIR",
                 "a finished arena match whose first player was this bot, for the manifest"),
        text("--machine", "TEXT", "where the run trained (default: this machine)")}},
      {"uci",
       "BOT_DIR|CHECKPOINT|uniform|material",
       "play as a UCI engine on stdin/stdout (GUIs, cutechess-cli); see docs/PROTOCOLS.md",
       uci_command,
       {text("--variant", "NAME", "the variant (needed unless the bot is a BOT_DIR)"),
        whole("--playouts", 1, kBig, "playouts per move by default"),
        whole("--threads", 1, 256, "search threads"),
        whole("--network-threads", 1, 256,
              "threads of each CPU forward pass (1: the search threads give the parallelism)"),
        device_option(), set_option()}},
      {"xboard",
       "BOT_DIR|CHECKPOINT|uniform|material",
       "play as an XBoard/WinBoard (CECP 2) engine on stdin/stdout; see docs/PROTOCOLS.md",
       xboard_command,
       {text("--variant", "NAME", "the variant (needed unless the bot is a BOT_DIR)"),
        whole("--playouts", 1, kBig, "playouts per move by default"),
        whole("--threads", 1, 256, "search threads"),
        whole("--network-threads", 1, 256,
              "threads of each CPU forward pass (1: the search threads give the parallelism)"),
        device_option(), set_option()}},
      {"balance",
       "VARIANT...",
       "self-play a variant with one bot on every seat (or read a run's self-play games) and "
       "write a balance report (Markdown, HTML, plots)",
       balance_command,
       {repeated("--bot", "SPEC", "a bot: uniform, material, CHECKPOINT.pt or BOT_DIR"),
        text("--visits", "N[,N...]", "playouts per move, one column per value"),
        whole("--games", 1, 1e7, "games per variant and strength"),
        whole("--concurrency", 1, 256, "games at once"),
        whole("--threads", 1, 256, "search threads per game"),
        whole("--seed", 0, kSeedMax, "seed of openings and searches"),
        whole("--opening-plies", 0, 1000, "random plies before each game"),
        whole("--max-plies", 0, 1e7, "games longer than this are draws (0: the variant's rules)"),
        whole("--material-every", 1, 1e6, "plies between material samples for piece values"),
        text("--out", "DIR", "the report folder"), device_option(),
        repeated("--seat-bot", "SEAT=SPEC", "another bot for one seat (four-player games)"),
        repeated("--seat-visits", "SEAT=N", "other playouts for one seat"),
        flag("--no-plots", "skip the PNG plots"),
        flag("--no-baseline", "with --seat-bot/--seat-visits: no column of the plain bot"),
        flag("--resume",
             "keep the columns OUT_DIR/games.jsonl holds in full (an interrupted run of this "
             "command) and play only the rest"),
        repeated("--records", "RUN_DIR",
                 "instead of playing: a column of a training run's recorded self-play games"),
        whole("--from-generation", 0, 1e6,
              "with --records: only the games of this generation's network and later ones"),
        set_option()}},
      {"arena",
       "VARIANT PLAYER PLAYER",
       "a match between two bots or engines in paired games: records, Elo, SPRT; see "
       "docs/ARENA.md. PLAYER: uniform, material, FILE.pt, BOT_DIR, uci:COMMAND or "
       "xboard:COMMAND",
       arena_command,
       {whole("--games", 1, 1e7, "games (rounded up to even)"),
        whole("--concurrency", 1, 256, "games at once"),
        text("--visits", "N[,N]", "playouts per move of internal players"),
        text("--nodes", "N[,N]", "engines: go nodes"),
        text("--movetime", "MS[,MS]", "engines: go movetime"),
        text("--depth", "N[,N]", "engines: go depth"),
        text("--clock", "S+INC[,S+INC]", "engines: a game clock, e.g. 10+0.1 (lost on time)"),
        text("--name", "A,B", "names in records"),
        text("--openings", "FILE", "one FEN or move list per line"),
        whole("--opening-plies", 0, 1000, "random plies per opening without a file"),
        whole("--seed", 0, kSeedMax, "seed of openings and searches"),
        whole("--max-plies", 0, 1e7, "games longer than this are draws (0: the variant's rules)"),
        text("--sprt", "ELO0,ELO1,ALPHA,BETA", "stop early by a sequential test"),
        text("--out", "DIR", "the records folder"),
        device_option(),
        repeated("--engine-option", "NAME=VALUE", "an engine option (repeatable)"),
        repeated("--first-option", "NAME=VALUE", "an option of the first engine only"),
        repeated("--second-option", "NAME=VALUE", "an option of the second engine only"),
        real("--engine-timeout", 0.001, 1e6, "seconds an engine may take beyond its limit"),
        set_option()}},
  };
  return table;
}

// The values an option collects while CLI11 parses (one vector per option, a flag's count).
struct Parsed {
  std::vector<std::string> positional;
  std::map<std::string, std::vector<std::string>> values;  // repeated options
  std::map<std::string, std::string> single;               // options given at most once
  std::map<std::string, bool> flags;
};

void declare(CLI::App& sub, const Command& command, Parsed& parsed) {
  if (!command.positionals.empty())
    sub.add_option("args", parsed.positional, "the command's arguments")
        ->type_name(command.positionals);
  for (const Option& o : command.options) {
    if (o.kind == Kind::kFlag) {
      sub.add_flag(o.name, parsed.flags[o.name], o.help);
      continue;
    }
    CLI::Option* option =
        o.kind == Kind::kRepeated
            ? sub.add_option(o.name, parsed.values[o.name], o.help)->allow_extra_args(false)
            : sub.add_option(o.name, parsed.single[o.name], o.help);
    option->type_name(o.value_name);
    if (o.integer)
      option->check(CLI::Range(static_cast<long long>(o.min), static_cast<long long>(o.max)));
    if (o.number) option->check(CLI::Range(o.min, o.max));
  }
}

}  // namespace

std::vector<CommandOptions> declared_commands() {
  std::vector<CommandOptions> out;
  for (const Command& c : commands()) {
    CommandOptions entry{c.name, {}};
    for (const Option& o : c.options) entry.options.push_back(o.name);
    out.push_back(std::move(entry));
  }
  return out;
}

int run_command_line(int argc, const char* const* argv) {
  CLI::App app{
      "FairyZero: self-play training, bots and balance reports for chess variants.\n"
      "VARIANT is a name from configs/variants (see `fairyzero variants`), a path to a "
      ".toml file, or a run or bot folder (its variant.toml).",
      "fairyzero"};
  app.require_subcommand(1);
  app.fallthrough(false);
  std::vector<std::unique_ptr<Parsed>> parsed;
  std::map<const CLI::App*, const Command*> which;
  for (const Command& command : commands()) {
    CLI::App* sub = app.add_subcommand(command.name, command.summary);
    parsed.push_back(std::make_unique<Parsed>());
    declare(*sub, command, *parsed.back());
    which[sub] = &command;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    const std::vector<CLI::App*> chosen = app.get_subcommands();
    const std::string name = chosen.empty() ? "" : " " + chosen.front()->get_name();
    if (e.get_exit_code() == static_cast<int>(CLI::ExitCodes::Success)) return app.exit(e);
    std::cerr << "fairyzero" << name << ": " << e.what() << "\nsee: fairyzero" << name
              << " --help\n";
    return 2;
  }
  CLI::App* sub = app.get_subcommands().front();
  const Command& command = *which.at(sub);
  size_t index = 0;
  while (&command != &commands()[index]) ++index;
  Parsed& p = *parsed[index];
  std::set<std::string> flags;
  for (const auto& [name, on] : p.flags)
    if (on) flags.insert(name);
  for (const auto& [name, value] : p.single)
    if (sub->count(name) > 0) p.values[name] = {value};
  try {
    return command.run(
        Arguments(p.positional, p.values, flags, std::vector<std::string>(argv + 2, argv + argc)));
  } catch (const UsageError& e) {
    std::cerr << "fairyzero " << command.name << ": " << e.what() << "\nusage: fairyzero "
              << command.name << " " << command.positionals << " [OPTIONS]  (see fairyzero "
              << command.name << " --help)\n";
    return 2;
  } catch (const UserError& e) {
    std::cerr << "fairyzero " << command.name << ": error: " << e.what() << "\n";
    return 1;
  } catch (const std::exception& e) {
    // Not a user error: a broken invariant or a library failure. Still one line, marked.
    std::cerr << "fairyzero " << command.name << ": internal error: " << e.what()
              << " (please report this with the command that caused it)\n";
    return 1;
  }
}

}  // namespace fairyzero
