// `fairyzero balance VARIANT [VARIANT...] --bot SPEC [--bot SPEC...]`: self-play with each bot on
// every seat of each variant at each strength (--seat-bot, --seat-visits give single seats other
// agents), then the balance report (docs/BALANCE.md); `balance --records RUN_DIR...`: the
// report of training runs' recorded self-play games.
#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>

#include "apps/arguments.h"
#include "apps/bot.h"
#include "apps/commands.h"
#include "core/variant_loader.h"
#include "training/balance/balance_report.h"
#include "training/play/self_play_record.h"
#include "training/players/internal_player.h"

namespace fairyzero {
namespace {

namespace fs = std::filesystem;

// A bot ready for one variant: what plays, under which name, at which playouts.
struct LoadedBot {
  VariantPtr variant;
  std::unique_ptr<Evaluator> evaluator;
  std::string label;
  std::vector<int> playouts;
};

std::vector<int> parse_visits(const std::string& text) {
  std::vector<int> out;
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, ',');) {
    const long long n = Arguments::parse_integer(item, "--visits");
    if (n < 1) throw UsageError("--visits values must be at least 1");
    out.push_back(static_cast<int>(n));
  }
  if (out.empty()) throw UsageError("--visits needs a number or a comma-separated list");
  return out;
}

// The bot for `variant`: a BOT_DIR (its own variant file and options, plus --set), "uniform",
// "material" or a checkpoint. --visits applies to all; without it a BOT_DIR uses its own.
LoadedBot load_bot_for(const std::string& spec, const VariantPtr& variant, const Arguments& args) {
  InternalPlayer player;
  try {
    player = make_internal_player(parse_player_spec(spec), variant,
                                  args.value("--device").value_or("cpu"), args.values("--set"));
  } catch (const PlayerError& e) {
    throw UsageError(std::string("--bot: ") + e.what());
  }
  LoadedBot bot;
  bot.variant = player.variant;
  bot.evaluator = std::move(player.evaluator);
  bot.label = player.label;
  std::optional<int> bundle_playouts;
  if (player.bot_search) bundle_playouts = player.bot_search->playouts;
  if (auto v = args.value("--visits"))
    bot.playouts = parse_visits(*v);
  else
    bot.playouts = {bundle_playouts.value_or(64)};
  return bot;
}

std::string today(const char* format) {
  const std::time_t now = std::time(nullptr);
  char text[32];
  std::strftime(text, sizeof text, format, std::localtime(&now));
  return text;
}

// runs/balance-DATE, or runs/balance-DATE-2, -3 ... when that is taken.
std::string default_out_dir() {
  const std::string base = "runs/balance-" + today("%Y-%m-%d");
  std::string dir = base;
  for (int n = 2; fs::exists(dir); ++n) dir = base + "-" + std::to_string(n);
  return dir;
}

BalanceConfig config_from(const Arguments& args) {
  BalanceConfig c;
  c.games = static_cast<int>(args.integer("--games", c.games));
  c.opening_plies = static_cast<int>(args.integer("--opening-plies", c.opening_plies));
  c.max_plies = static_cast<int>(args.integer("--max-plies", c.max_plies));
  c.games_at_once = static_cast<int>(args.integer("--concurrency", c.games_at_once));
  c.threads = static_cast<int>(args.integer("--threads", c.threads));
  c.material_every = static_cast<int>(args.integer("--material-every", c.material_every));
  c.seed = static_cast<uint64_t>(args.integer("--seed", static_cast<long long>(c.seed)));
  if (c.games < 1) throw UsageError("--games must be at least 1");
  if (c.opening_plies < 0) throw UsageError("--opening-plies must be 0 or more");
  if (c.max_plies < 1) throw UsageError("--max-plies must be at least 1");
  if (c.games_at_once < 1) throw UsageError("--concurrency must be at least 1");
  if (c.threads < 1) throw UsageError("--threads must be at least 1");
  if (c.material_every < 1) throw UsageError("--material-every must be at least 1");
  return c;
}

// Seats given other agents than the column's bot: --seat-bot SEAT=SPEC, --seat-visits SEAT=N.
struct SeatOverride {
  std::optional<LoadedBot> bot;
  std::optional<int> playouts;
};
using SeatOverrides = std::map<int, SeatOverride>;

// SEAT is a seat's name or its index (0-based, in the variant's seat order).
int parse_seat(const std::string& text, const Variant& variant, const std::string& option) {
  for (int s = 0; s < variant.seat_count(); ++s)
    if (variant.seats[s].name == text) return s;
  if (!text.empty() && text.find_first_not_of("0123456789") == std::string::npos) {
    const long long s = Arguments::parse_integer(text, option);
    if (s < variant.seat_count()) return static_cast<int>(s);
  }
  std::string names;
  for (const Seat& seat : variant.seats) names += (names.empty() ? "" : ", ") + seat.name;
  throw UsageError(option + " " + text + ": " + variant.name + " has seats " + names +
                   " (or their indices from 0)");
}

std::pair<std::string, std::string> split_assignment(const std::string& text,
                                                     const std::string& option) {
  const size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == text.size())
    throw UsageError(option + " wants SEAT=VALUE, not '" + text + "'");
  return {text.substr(0, eq), text.substr(eq + 1)};
}

SeatOverrides seat_overrides_for(const VariantPtr& variant, const Arguments& args) {
  SeatOverrides out;
  for (const std::string& a : args.values("--seat-bot")) {
    const auto [seat, spec] = split_assignment(a, "--seat-bot");
    out[parse_seat(seat, *variant, "--seat-bot")].bot = load_bot_for(spec, variant, args);
  }
  for (const std::string& a : args.values("--seat-visits")) {
    const auto [seat, n] = split_assignment(a, "--seat-visits");
    const long long playouts = Arguments::parse_integer(n, "--seat-visits");
    if (playouts < 1) throw UsageError("--seat-visits values must be at least 1");
    out[parse_seat(seat, *variant, "--seat-visits")].playouts = static_cast<int>(playouts);
  }
  return out;
}

std::string estimate_text(const Estimate& e) {
  char text[64];
  std::snprintf(text, sizeof text, "%.3f [%.3f, %.3f]", e.value, e.low, e.high);
  return text;
}

// Who plays a column: every seat's agent and the column's strength label. The seats in
// `overrides` get their own bot or playouts; the rest play `bot` at `playouts`.
struct ColumnAgents {
  std::vector<SeatAgent> seats;
  std::string strength;
};
ColumnAgents column_agents(LoadedBot& bot, int playouts, SeatOverrides& overrides) {
  const std::string bot_strength = bot.label + "@" + std::to_string(playouts);
  ColumnAgents out{std::vector<SeatAgent>(bot.variant->seat_count(),
                                          SeatAgent{bot.evaluator.get(), playouts, bot_strength}),
                   bot_strength};
  for (auto& [seat, o] : overrides) {
    LoadedBot& seat_bot = o.bot ? *o.bot : bot;
    const int n = o.playouts.value_or(playouts);
    out.seats[seat] = {seat_bot.evaluator.get(), n, seat_bot.label + "@" + std::to_string(n)};
    out.strength += (out.strength == bot_strength ? " with " : ", ") +
                    bot.variant->seats[seat].name + "=" + out.seats[seat].label;
  }
  return out;
}

// A column's games by variant and strength (BalanceGame::variant, ::strength).
using ColumnKey = std::pair<std::string, std::string>;
using KeptGames = std::map<ColumnKey, std::vector<BalanceGame>>;

// --resume: of the games an earlier run left in `games_file`, the first `games` of each column in
// `wanted` that was played in full. The file is rewritten with only those (into a temporary file
// renamed over it, so an interruption leaves one or the other whole), as a fresh report empties
// it; the columns still to play are appended after them.
KeptGames resume_games(const std::string& games_file, int games,
                       const std::vector<ColumnKey>& wanted) {
  KeptGames kept;
  if (!fs::exists(games_file)) return kept;
  for (BalanceGame& g : read_games_jsonl(games_file)) {
    const ColumnKey key{g.variant, g.strength};
    if (std::find(wanted.begin(), wanted.end(), key) != wanted.end())
      kept[key].push_back(std::move(g));
  }
  std::erase_if(kept,
                [&](const auto& column) { return static_cast<int>(column.second.size()) < games; });
  const std::string partial = games_file + ".resume";
  fs::remove(partial);
  for (auto& [key, column] : kept) {
    column.resize(games);
    append_games_jsonl(partial, column);
    std::cout << games_file << ": keeping the " << games << " games of " << key.first << " "
              << key.second << std::endl;
  }
  if (kept.empty())
    fs::remove(games_file);
  else
    fs::rename(partial, games_file);
  return kept;
}

// Plays one column, printing progress about every two seconds, and appends its games; a column
// `kept` (--resume) holds is not played again.
BalanceColumn play_column(LoadedBot& bot, int playouts, SeatOverrides& overrides,
                          const BalanceConfig& base, const std::string& games_file,
                          const KeptGames& kept, const std::string& prefix) {
  BalanceConfig config = base;
  config.playouts = playouts;
  const ColumnAgents agents = column_agents(bot, playouts, overrides);
  const std::string name = prefix + bot.variant->name + " " + agents.strength + ": ";
  std::vector<BalanceGame> games;
  if (auto found = kept.find({bot.variant->name, agents.strength}); found != kept.end()) {
    games = found->second;
    std::cout << name << "the " << games.size() << " games kept in " << games_file << std::endl;
  } else {
    double next_report = 0;
    games = play_balance_games(bot.variant, agents.seats, agents.strength, config,
                               [&](const BalanceProgress& p) {
                                 if (p.seconds < next_report && p.done < p.total) return;
                                 next_report = p.seconds + 2;
                                 std::cout << name << describe_progress(p) << std::endl;
                               });
    append_games_jsonl(games_file, games);
  }
  const BalanceSetup setup = balance_setup(*bot.variant);
  BalanceColumn column{setup, balance_stats(setup, games)};
  const BalanceStats& s = column.stats;
  char summary[160];
  std::snprintf(summary, sizeof summary,
                "first-move advantage %+.3f [%+.3f, %+.3f], draw rate %.3f, mean length %.1f plies",
                s.first_move_advantage.value, s.first_move_advantage.low,
                s.first_move_advantage.high, s.draws.rate.value, s.length.mean);
  std::string teams;
  for (const TeamScore& t : s.teams) teams += ", team " + t.team + " " + estimate_text(t.score);
  std::cout << name << summary << teams << std::endl;
  return column;
}

// The generation of a record file's name: gen-NNNN.txt or gen-NNNN-wID-SEQ.txt; -1 otherwise.
int record_generation(const fs::path& file) {
  const std::string name = file.filename().string();
  if (file.extension() != ".txt" || name.rfind("gen-", 0) != 0) return -1;
  size_t digits = 4;
  while (digits < name.size() && std::isdigit(static_cast<unsigned char>(name[digits]))) ++digits;
  return digits > 4 ? std::stoi(name.substr(4, digits - 4)) : -1;
}

// A column of a run's recorded self-play games (games/ and validation/), from the network of
// generation `from` on, replayed in the run's own rules (its variant.toml).
BalanceColumn records_column(const std::string& run_dir, int from, int material_every,
                             const std::string& games_file, std::string& description) {
  const fs::path rules = fs::path(run_dir) / "variant.toml";
  if (!fs::exists(rules))
    throw UsageError("--records " + run_dir + ": no variant.toml (not a training run folder)");
  const VariantPtr variant = load_variant_file(rules.string());
  std::vector<fs::path> files;
  int first = -1, last = -1;
  for (const char* folder : {"games", "validation"}) {
    const fs::path dir = fs::path(run_dir) / folder;
    if (!fs::is_directory(dir)) continue;
    for (const auto& entry : fs::directory_iterator(dir)) {
      const int generation = record_generation(entry.path());
      if (generation < from) continue;
      files.push_back(entry.path());
      first = first < 0 ? generation : std::min(first, generation);
      last = std::max(last, generation);
    }
  }
  std::sort(files.begin(), files.end());
  if (files.empty())
    throw UsageError("--records " + run_dir + ": no game records (games/gen-NNNN*.txt) of " +
                     "generation " + std::to_string(from) + " or later");
  const std::string strength =
      "self-play gen " + std::to_string(first) + "-" + std::to_string(last);
  std::vector<BalanceGame> games;
  for (const fs::path& file : files) {
    std::ifstream in(file);
    int number = 0;
    for (std::string line; std::getline(in, line);) {
      ++number;
      if (line.empty()) continue;
      const std::string where = file.string() + " line " + std::to_string(number) + ": ";
      try {
        games.push_back(balance_game_from_record(variant, parse_self_play_record(line), strength,
                                                 material_every));
      } catch (const std::invalid_argument& e) {
        throw UsageError(where + e.what());
      } catch (const MoveError& e) {
        throw UsageError(where + e.what());
      }
    }
  }
  std::cout << run_dir << ": " << games.size() << " recorded games of generations " << first
            << " to " << last << " (" << files.size() << " files)" << std::endl;
  append_games_jsonl(games_file, games);
  description += (description.empty() ? "" : " ") + std::string("Column ") + variant->name + " " +
                 strength + ": the " + std::to_string(games.size()) +
                 " self-play games that training run " + run_dir + " recorded (games/ and " +
                 "validation/), played by the networks of generations " + std::to_string(first) +
                 " to " + std::to_string(last) + " with the run's exploration (Dirichlet noise, " +
                 "temperature, resignation, playout cap).";
  const BalanceSetup setup = balance_setup(*variant);
  return BalanceColumn{setup, balance_stats(setup, games)};
}

// OUT_DIR/games.jsonl, emptied for this report (OUT_DIR made when missing).
std::string fresh_games_file(const std::string& out_dir) {
  fs::create_directories(out_dir);
  const std::string games_file = (fs::path(out_dir) / "games.jsonl").string();
  fs::remove(games_file);
  return games_file;
}

// Writes the report of `columns` into `out_dir` and says where it is. `source`: how the games
// came to be, when they were not played here.
void write_report(const std::string& out_dir, const std::vector<BalanceColumn>& columns,
                  const BalanceConfig& config, const std::string& source, const Arguments& args,
                  const std::vector<std::string>& resumed_columns = {}) {
  BalanceReportSettings settings;
  settings.command = "fairyzero balance";
  for (const std::string& a : args.words()) settings.command += " " + a;
  settings.date = today("%Y-%m-%d %H:%M");
  settings.config = config;
  settings.source = source;
  settings.resumed_columns = resumed_columns;
  settings.plots = !args.flag("--no-plots");
  const BalanceReportFiles files = write_balance_report(out_dir, columns, settings);
  if (!files.plot_problem.empty()) std::cerr << "note: no plots: " << files.plot_problem << "\n";
  std::cout << "Report: " << files.markdown << " and " << files.html << " (" << files.plots.size()
            << " plots; games in " << (fs::path(out_dir) / "games.jsonl").string() << ")"
            << std::endl;
}

// `balance --records RUN_DIR...`: a column per run of its recorded self-play games.
int balance_of_records(const Arguments& args) {
  if (!args.positional().empty() || !args.values("--bot").empty())
    throw UsageError("--records reads a run's games in its own rules: give no VARIANT or --bot");
  const BalanceConfig config = config_from(args);
  const int from = static_cast<int>(args.integer("--from-generation", 0));
  const std::string out_dir = args.value("--out").value_or(default_out_dir());
  const std::string games_file = fresh_games_file(out_dir);
  std::vector<BalanceColumn> columns;
  std::string source;
  for (const std::string& run : args.values("--records"))
    columns.push_back(records_column(run, from, config.material_every, games_file, source));
  write_report(out_dir, columns, config, source, args);
  return 0;
}

}  // namespace

int balance_command(const Arguments& args) {
  if (!args.values("--records").empty()) return balance_of_records(args);
  if (args.positional().empty()) throw UsageError("give at least one variant");
  const std::vector<std::string> bot_specs = args.values("--bot");
  if (bot_specs.empty())
    throw UsageError("give --bot uniform, material, a checkpoint .pt or a bot folder");
  const BalanceConfig config = config_from(args);
  // Load everything first, so a bad bot or variant fails before hours of play.
  std::vector<LoadedBot> bots;
  std::vector<SeatOverrides> overrides;  // per bot (the same seats for every bot of a variant)
  for (const std::string& name : args.positional()) {
    VariantPtr variant = load_variant_for_user(name, args.values("--set"));
    for (const std::string& spec : bot_specs) {
      bots.push_back(load_bot_for(spec, variant, args));
      overrides.push_back(seat_overrides_for(variant, args));
    }
  }
  // With seat overrides each strength is also played plainly first, the baseline the report
  // compares the teams against (unless --no-baseline).
  const bool baseline = !args.flag("--no-baseline");
  const std::string out_dir = args.value("--out").value_or(default_out_dir());
  SeatOverrides none;
  struct PlannedColumn {
    LoadedBot* bot;
    int playouts;
    SeatOverrides* overrides;
  };
  std::vector<PlannedColumn> plan;
  for (size_t b = 0; b < bots.size(); ++b)
    for (int playouts : bots[b].playouts) {
      if (!overrides[b].empty() && baseline) plan.push_back({&bots[b], playouts, &none});
      plan.push_back({&bots[b], playouts, &overrides[b]});
    }
  KeptGames kept;
  std::string games_file;
  if (args.flag("--resume")) {
    std::vector<ColumnKey> wanted;
    for (const PlannedColumn& c : plan)
      wanted.push_back(
          {c.bot->variant->name, column_agents(*c.bot, c.playouts, *c.overrides).strength});
    fs::create_directories(out_dir);
    games_file = (fs::path(out_dir) / "games.jsonl").string();
    kept = resume_games(games_file, config.games, wanted);
  } else {
    games_file = fresh_games_file(out_dir);
  }
  std::vector<BalanceColumn> columns;
  std::vector<std::string> resumed;
  for (const PlannedColumn& c : plan) {
    const std::string prefix =
        "[" + std::to_string(columns.size() + 1) + "/" + std::to_string(plan.size()) + "] ";
    columns.push_back(
        play_column(*c.bot, c.playouts, *c.overrides, config, games_file, kept, prefix));
    if (kept.contains({columns.back().stats.variant, columns.back().stats.strength}))
      resumed.push_back(columns.back().label());
  }

  write_report(out_dir, columns, config, "", args, resumed);
  return 0;
}

}  // namespace fairyzero
