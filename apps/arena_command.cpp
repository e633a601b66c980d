// `arena`: a match between two players (search bots, networks, exported bots, UCI or XBoard
// engines) with records, Elo and SPRT; the work is in training/arena.h.
#include <chrono>
#include <ctime>
#include <iostream>
#include <tuple>

#include "apps/arguments.h"
#include "apps/commands.h"
#include "training/arena/arena.h"
#include "training/arena/arena_records.h"

namespace fairyzero {
namespace {

// An option given once for both players ("64") or once each, first then second ("64,256").
std::array<std::optional<long long>, 2> per_player(const Arguments& args, const std::string& name) {
  std::optional<std::string> text = args.value(name);
  if (!text) return {};
  size_t comma = text->find(',');
  if (comma == std::string::npos) {
    long long both = Arguments::parse_integer(*text, name);
    return {both, both};
  }
  return {Arguments::parse_integer(text->substr(0, comma), name),
          Arguments::parse_integer(text->substr(comma + 1), name)};
}

// A game clock "SECONDS" or "SECONDS+INCREMENT", e.g. "10+0.1".
std::pair<double, double> parse_clock(const std::string& text) {
  const size_t plus = text.find('+');
  auto seconds = [&](const std::string& part) {
    size_t used = 0;
    double x = -1;
    try {
      x = std::stod(part, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0 || used != part.size() || !(x >= 0))
      throw UsageError("--clock '" + text + "' must be SECONDS or SECONDS+INCREMENT, e.g. 10+0.1");
    return x;
  };
  const double base = seconds(text.substr(0, plus));
  const double increment = plus == std::string::npos ? 0 : seconds(text.substr(plus + 1));
  if (base <= 0) throw UsageError("--clock '" + text + "' gives no time");
  return {base, increment};
}

// --clock A[,B] as {first, second}, or nothing.
std::array<std::optional<std::pair<double, double>>, 2> read_clocks(const Arguments& args) {
  std::optional<std::string> text = args.value("--clock");
  if (!text) return {};
  const size_t comma = text->find(',');
  if (comma == std::string::npos) return {parse_clock(*text), parse_clock(*text)};
  return {parse_clock(text->substr(0, comma)), parse_clock(text->substr(comma + 1))};
}

std::string default_out_dir() {
  std::time_t now = std::time(nullptr);
  std::tm local{};
  localtime_r(&now, &local);
  char name[64];
  std::strftime(name, sizeof name, "runs/arena-%Y%m%d-%H%M%S", &local);
  return name;
}

std::pair<std::string, std::string> name_and_value(const std::string& text,
                                                   const std::string& flag) {
  size_t equals = text.find('=');
  if (equals == std::string::npos || equals == 0)
    throw UsageError(flag + " '" + text + "' must be NAME=VALUE");
  return {text.substr(0, equals), text.substr(equals + 1)};
}

std::array<PlayerSpec, 2> read_players(const Arguments& args) {
  std::array<PlayerSpec, 2> players;
  for (int p = 0; p < 2; ++p) {
    try {
      players[p] = parse_player_spec(args.positional()[1 + p]);
    } catch (const PlayerError& error) {
      throw UsageError(error.what());
    }
  }
  auto visits = per_player(args, "--visits"), nodes = per_player(args, "--nodes"),
       movetime = per_player(args, "--movetime"), depth = per_player(args, "--depth");
  auto clocks = read_clocks(args);
  const char* option_flags[2] = {"--first-option", "--second-option"};
  for (int p = 0; p < 2; ++p) {
    PlayerSpec& spec = players[p];
    if (visits[p] && *visits[p] < 1) throw UsageError("--visits must be at least 1");
    spec.visits = static_cast<int>(visits[p].value_or(0));
    spec.engine_limits.nodes = nodes[p].value_or(0);
    spec.engine_limits.movetime_ms = static_cast<int>(movetime[p].value_or(0));
    spec.engine_limits.depth = static_cast<int>(depth[p].value_or(0));
    if (clocks[p]) {
      if (nodes[p] || movetime[p] || depth[p])
        throw UsageError(
            "--clock and a --nodes, --movetime or --depth for the same player: "
            "give one limit per player");
      std::tie(spec.engine_limits.clock_seconds, spec.engine_limits.increment_seconds) = *clocks[p];
    }
    for (const std::string& option : args.values(option_flags[p]))
      spec.engine_options.push_back(name_and_value(option, option_flags[p]));
  }
  if (std::optional<std::string> names = args.value("--name")) {
    size_t comma = names->find(',');
    if (comma == std::string::npos || comma == 0 || comma + 1 == names->size())
      throw UsageError("--name must be FIRST,SECOND");
    players[0].name = names->substr(0, comma);
    players[1].name = names->substr(comma + 1);
  } else if (players[0].name == players[1].name) {
    players[0].name += "#1";
    players[1].name += "#2";
  }
  return players;
}

ArenaConfig read_config(const Arguments& args) {
  if (args.positional().size() != 3) throw UsageError("give a variant and two players");
  ArenaConfig config;
  config.variant = load_variant_for_user(args.positional()[0], args.values("--set"));
  config.players = read_players(args);
  config.games = static_cast<int>(args.integer("--games", config.games));
  config.concurrency = static_cast<int>(args.integer("--concurrency", config.concurrency));
  config.opening_plies = static_cast<int>(args.integer("--opening-plies", config.opening_plies));
  config.seed = static_cast<uint64_t>(args.integer("--seed", 1));
  config.max_plies = static_cast<int>(args.integer("--max-plies", config.max_plies));
  config.openings_file = args.value("--openings").value_or("");
  config.out_dir = args.value("--out").value_or(default_out_dir());
  config.device = args.value("--device").value_or("cpu");
  config.engine_move_timeout_seconds = static_cast<double>(
      args.integer("--engine-timeout", static_cast<long long>(config.engine_move_timeout_seconds)));
  for (const std::string& option : args.values("--engine-option"))
    config.engine_options.push_back(name_and_value(option, "--engine-option"));
  if (config.games < 1) throw UsageError("--games must be at least 1");
  if (config.concurrency < 1) throw UsageError("--concurrency must be at least 1");
  if (config.opening_plies < 0) throw UsageError("--opening-plies must not be negative");
  if (config.max_plies < 1) throw UsageError("--max-plies must be at least 1");
  if (config.engine_move_timeout_seconds < 1) throw UsageError("--engine-timeout must be >= 1");
  if (std::optional<std::string> sprt = args.value("--sprt")) {
    try {
      config.sprt = parse_sprt(*sprt);
    } catch (const SettingError& error) {
      throw UsageError(error.what());
    }
  }
  return config;
}

}  // namespace

int arena_command(const Arguments& args) {
  ArenaConfig config = read_config(args);
  std::cout << "arena: " << config.players[0].name << " vs " << config.players[1].name << " on "
            << config.variant->name << ", " << (config.games + 1) / 2 * 2 << " games, "
            << config.concurrency << " at a time; records in " << config.out_dir << std::endl;
  ArenaResult result = run_arena(config, [&](const ArenaStatus& status, const ArenaGame& game) {
    std::cout << format_status(config, status) << "  | game " << game.index + 1 << ": "
              << result_text(game) << " " << game.termination << " (" << game.moves.size()
              << " plies)" << std::endl;
  });
  std::cout << "\n" << format_summary(config, result) << "records: " << config.out_dir << "\n";
  return 0;
}

}  // namespace fairyzero
