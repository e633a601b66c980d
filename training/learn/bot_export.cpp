// A training run exported as a bot: which checkpoint, which rules, where it came from, how long
// it trained and how strong it measured.
#include "training/learn/bot_export.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "core/variant.h"
#include "training/learn/train_config.h"
#include "training/learn/train_run.h"

namespace fairyzero {
namespace {
namespace fs = std::filesystem;

std::string join(const std::string& dir, const std::string& name) {
  return (fs::path(dir) / name).string();
}

// The newest RUN_DIR/checkpoints/gen-NNNN.pt, or the one the user named (as given, else under
// RUN_DIR/checkpoints or RUN_DIR).
std::string pick_checkpoint(const std::string& run_dir, const std::optional<std::string>& given) {
  std::error_code ec;
  if (given) {
    for (const fs::path& candidate :
         {fs::path(*given), fs::path(run_dir) / "checkpoints" / *given, fs::path(run_dir) / *given})
      if (fs::is_regular_file(candidate, ec)) return candidate.string();
    throw BotBundleError("--checkpoint " + *given + ": no such file (also looked in " +
                         join(run_dir, "checkpoints") + ")");
  }
  int newest = -1;
  std::string path;
  for (const auto& entry : fs::directory_iterator(join(run_dir, "checkpoints"), ec)) {
    int g = -1;
    std::string name = entry.path().filename().string();
    if (std::sscanf(name.c_str(), "gen-%d.pt", &g) == 1 && entry.path().extension() == ".pt" &&
        g > newest) {
      newest = g;
      path = entry.path().string();
    }
  }
  if (newest < 0)
    throw BotBundleError(join(run_dir, "checkpoints") + ": no gen-NNNN.pt checkpoint");
  return path;
}

int generation_of(const std::string& checkpoint) {
  int g = 0;
  std::string name = fs::path(checkpoint).filename().string();
  return std::sscanf(name.c_str(), "gen-%d.pt", &g) == 1 ? g : 0;
}

RunSettings read_run_settings(const std::string& run_dir) {
  const std::string path = join(run_dir, "config.toml");
  std::error_code ec;
  if (!fs::is_regular_file(path, ec))
    throw BotBundleError(path + ": missing (is " + run_dir + " a training run folder?)");
  try {
    return load_train_config(path).run;
  } catch (const std::runtime_error& e) {
    throw BotBundleError(e.what());
  }
}

// The rows of a CSV file as column name -> text; none when the file is missing.
std::vector<std::map<std::string, std::string>> read_csv(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::map<std::string, std::string>> rows;
  std::string line;
  if (!std::getline(in, line)) return rows;
  auto split = [](const std::string& text) {
    std::vector<std::string> fields;
    std::stringstream stream(text);
    for (std::string f; std::getline(stream, f, ',');) fields.push_back(f);
    return fields;
  };
  const std::vector<std::string> header = split(line);
  while (std::getline(in, line)) {
    const std::vector<std::string> fields = split(line);
    std::map<std::string, std::string> row;
    for (size_t i = 0; i < header.size() && i < fields.size(); ++i) row[header[i]] = fields[i];
    rows.push_back(std::move(row));
  }
  return rows;
}

int64_t number_in(const std::map<std::string, std::string>& row, const std::string& column,
                  const std::string& path) {
  const auto it = row.find(column);
  try {
    if (it != row.end()) return static_cast<int64_t>(std::stod(it->second));
  } catch (const std::exception&) {
  }
  throw BotBundleError(path + ": column '" + column + "' missing or not a number in a row");
}

// "2 cores (AMD EPYC 7B13), cpu": this machine, for the manifest of a run trained here.
std::string this_machine(const std::string& device) {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line, model;
  while (model.empty() && std::getline(cpuinfo, line))
    if (line.rfind("model name", 0) == 0 && line.find(':') != std::string::npos)
      model = line.substr(std::min(line.size(), line.find(':') + 2));
  const unsigned cores = std::thread::hardware_concurrency();
  return std::to_string(cores) + (cores == 1 ? " core" : " cores") +
         (model.empty() ? "" : " (" + model + ")") + ", " + device;
}

// Games, samples and minutes of the run up to `generation`'s checkpoint. Games are the lines of
// games/gen-NNNN*.txt (one finished game a line) of the generations before it; samples come
// from selfplay.csv (a run that plays its own games) or external.csv (self-play workers).
BotTraining training_record(const std::string& run_dir, const std::string& checkpoint,
                            int generation, const std::string& machine) {
  BotTraining t;
  t.machine = machine;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(join(run_dir, "games"), ec)) {
    int g = -1;
    if (std::sscanf(entry.path().filename().string().c_str(), "gen-%d", &g) != 1 ||
        g >= generation || entry.path().extension() != ".txt")
      continue;
    std::ifstream in(entry.path());
    for (std::string line; std::getline(in, line);) t.games += !line.empty();
  }
  const std::string selfplay = join(run_dir, "selfplay.csv");
  const std::string external = join(run_dir, "external.csv");
  for (const auto& row : read_csv(selfplay))
    if (number_in(row, "generation", selfplay) < generation)
      t.samples += number_in(row, "samples", selfplay);
  for (const auto& row : read_csv(external))
    if (number_in(row, "generation", external) < generation)
      t.samples = std::max(t.samples, number_in(row, "published_samples", external));
  const fs::path first = fs::path(run_dir) / "checkpoints" / "gen-0000.pt";
  const auto start = fs::last_write_time(first, ec);
  const auto end = fs::last_write_time(checkpoint, ec);
  if (!ec && fs::exists(first))
    t.minutes = std::chrono::duration<double>(end - start).count() / 60.0;
  return t;
}

}  // namespace

BotStrength read_match_strength(const std::string& arena_dir) {
  const std::string path = join(arena_dir, "summary.json");
  std::ifstream in(path);
  if (!in)
    throw BotBundleError(path + ": missing (is " + arena_dir +
                         " a finished arena folder, from a build that writes it?)");
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& e) {
    throw BotBundleError(path + ": malformed JSON: " + e.what());
  }
  auto field = [&](const nlohmann::json& at, const char* key) -> const nlohmann::json& {
    if (!at.is_object() || !at.contains(key))
      throw BotBundleError(path + ": no '" + key + "' field");
    return at[key];
  };
  BotStrength x;
  try {
    const nlohmann::json& players = field(j, "players");
    if (!players.is_array() || players.size() != 2)
      throw BotBundleError(path + ": 'players' must list the two players");
    x.opponent = field(players[1], "name").get<std::string>();
    x.description = players[1].value("description", "");
    x.visits = players[0].value("visits", 0);
    x.games = field(j, "games").get<int>();
    x.wins = field(j, "wins").get<int>();
    x.draws = field(j, "draws").get<int>();
    x.losses = field(j, "losses").get<int>();
    x.score = field(j, "score").get<double>();
    x.elo = field(j, "elo").get<double>();
    x.elo_low = field(j, "elo_low").get<double>();
    x.elo_high = field(j, "elo_high").get<double>();
  } catch (const nlohmann::json::exception& e) {
    throw BotBundleError(path + ": " + e.what());
  }
  if (x.games <= 0 || x.wins + x.draws + x.losses != x.games)
    throw BotBundleError(path + ": no finished games, or counts that do not add up");
  return x;
}

namespace {

bool same_bytes(const std::string& a, const std::string& b) {
  std::ifstream x(a, std::ios::binary), y(b, std::ios::binary);
  if (!x || !y) return false;
  return std::string(std::istreambuf_iterator<char>(x), {}) ==
         std::string(std::istreambuf_iterator<char>(y), {});
}

// The arena folder's first player must be the bot being exported: BOT_DIR holding this very
// network, or the checkpoint file.
void check_first_player_is(const std::string& arena_dir, const std::string& bot_dir,
                           const std::string& checkpoint) {
  const std::string path = join(arena_dir, "summary.json");
  std::ifstream in(path);
  const nlohmann::json j = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
  const std::string first =
      j.is_object() && j.contains("players") && j["players"].is_array() && !j["players"].empty()
          ? j["players"][0].value("spec", "")
          : "";
  std::error_code ec;
  const bool is_checkpoint = fs::equivalent(first, checkpoint, ec);
  const bool is_bot =
      fs::equivalent(first, bot_dir, ec) && same_bytes(join(bot_dir, "network.pt"), checkpoint);
  if (!is_checkpoint && !is_bot)
    throw BotBundleError(path + ": its first player is '" + first + "', not this bot (" + bot_dir +
                         " holding " + checkpoint + ", or that checkpoint itself)");
}

}  // namespace

BotBundle export_bot(const std::string& run_dir, const std::string& bot_dir,
                     const std::optional<std::string>& checkpoint,
                     const BotExportRecords& records) {
  const RunSettings run = read_run_settings(run_dir);
  const std::string source = pick_checkpoint(run_dir, checkpoint);
  VariantPtr variant;
  try {
    variant = load_run_variant(run_dir);
  } catch (const VariantError& e) {
    throw BotBundleError(e.what());
  }
  BotOrigin origin;
  origin.variant_options = variant_overrides(run);
  origin.generation = generation_of(source);
  origin.source_run = fs::absolute(run_dir).lexically_normal().string();
  origin.training =
      training_record(run_dir, source, origin.generation,
                      records.machine.empty() ? this_machine(run.device) : records.machine);
  for (const std::string& dir : records.strength_dirs) {
    check_first_player_is(dir, bot_dir, source);
    origin.strength.push_back(read_match_strength(dir));
  }
  return write_bot(bot_dir, source, variant, origin);
}

}  // namespace fairyzero
